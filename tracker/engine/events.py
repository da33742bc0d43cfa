"""The append-only event log: everything the forum pages cannot show, recorded by the director.

The game state is a fold over these records (see :mod:`tracker.engine.state`); nothing is ever
edited or deleted. Undo is a compensating ``undo`` event naming the ``seq`` it cancels. Events from
the game file's ``[[events]]`` get negative sequence numbers (file order), events from the store
positive ones, so both can be named by an undo and sort stably by ``(at, seq)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any, TypeVar

from tracker.errors import GameRuleError


class EventKind(StrEnum):
    """What happened; the values are the stable keys of the game file and the JSON."""

    DAY_OPENED = "day_opened"
    DAY_CLOSED = "day_closed"
    DAY_EXTENDED = "day_extended"        # data: day, until (ISO time) or days
    ACCELERATED = "accelerated"          # data: day, cause (auto / request / director)
    DELAYED = "delayed"                  # 延时成功: data: day; the day is no longer accelerated
    ELIMINATED = "eliminated"            # 出局; data: cause (vote, night, skill, red_card, 殉情 ...)
    DIED = "died"                        # M160 【死亡】: dead but not out until the last vote is used
    LAST_VOTE_USED = "last_vote_used"    # M160: a dead player used the last vote and is now out
    BENCHED = "benched"                  # 挂机
    UNBENCHED = "unbenched"
    REVIVED = "revived"
    SUBSTITUTED = "substituted"          # 替补; data: by (the substitute's name)
    ROLE_SET = "role_set"                # data: role, turn (翻转身份: take the role's faction), faction, group
    FACTION_SET = "faction_set"          # 阵营转变; data: faction
    TAG_GIVEN = "tag_given"              # data: tag, cause (election, 殉职 ...), day (a one-day tag)
    TAG_PASSED = "tag_passed"            # player = from; data: tag, to, via (殉职 / 殉道 / 传承 / 馈赠)
    TAG_REMOVED = "tag_removed"          # data: tag, gone (true: the tag leaves the game, e.g. 撕警徽)
    MODIFIER = "modifier"                # data: name, value, day, public
    VOTE_RIGHT = "vote_right"            # data: granted (bool), day (only that day) or none (from now on)
    CARD_CONSEQUENCE = "card_consequence"  # a red card applied; data: color, consequence, ledger_id
    SURRENDER = "surrender"              # 投降; data: faction
    FACTION_LOST = "faction_lost"        # 导演判负; data: faction, reason
    DECLARED = "declared"                # a named condition the director rules true (data: condition, value)
    ACTION = "action"                    # a night action worth keeping (data: name, actor, success)
    UNDO = "undo"                        # data: seq (the event it cancels), reason
    NOTE = "note"                        # a remark; changes nothing
    # The night desk (tracker night): what was submitted, the setup the night engine reads, and the
    # settled table. The state fold ignores them; :mod:`tracker.engine.night.desk` reads them.
    NIGHT_ACTION = "night_action"        # data: phase (night:N / day:N:晨曦), actor, skill, targets, choice
    NIGHT_SETUP = "night_setup"          # data: field (a player field or a state key), value; player optional
    NIGHT_SETTLED = "night_settled"      # data: phase, table (the table after settlement), seed, decisions


# Game-file shorthands (docs/game-file.md): `kind = "sheriff"` gives the 警长 tag.
ALIASES: Mapping[str, tuple[EventKind, Mapping[str, Any]]] = {
    "sheriff": (EventKind.TAG_GIVEN, {"tag": "警长"}),
    "patriarch": (EventKind.TAG_GIVEN, {"tag": "牧首"}),
    "god_chosen": (EventKind.TAG_GIVEN, {"tag": "神眷者"}),
    "executed": (EventKind.DIED, {"cause": "处决"}),
    "out": (EventKind.ELIMINATED, {}),
    "red_card": (EventKind.CARD_CONSEQUENCE, {"color": "red"}),
}

NEEDS_PLAYER = frozenset({
    EventKind.ELIMINATED, EventKind.DIED, EventKind.LAST_VOTE_USED, EventKind.BENCHED, EventKind.UNBENCHED,
    EventKind.REVIVED, EventKind.SUBSTITUTED, EventKind.ROLE_SET, EventKind.FACTION_SET, EventKind.TAG_GIVEN,
    EventKind.TAG_PASSED, EventKind.TAG_REMOVED, EventKind.MODIFIER, EventKind.VOTE_RIGHT,
    EventKind.CARD_CONSEQUENCE,
})

NEEDS_DATA: Mapping[str, tuple[str, ...]] = {
    EventKind.DAY_OPENED: ("day",), EventKind.DAY_CLOSED: ("day",), EventKind.DAY_EXTENDED: ("day",),
    EventKind.ACCELERATED: ("day",), EventKind.DELAYED: ("day",), EventKind.SUBSTITUTED: ("by",),
    EventKind.ROLE_SET: ("role",), EventKind.FACTION_SET: ("faction",), EventKind.TAG_GIVEN: ("tag",),
    EventKind.TAG_PASSED: ("tag", "to"), EventKind.TAG_REMOVED: ("tag",), EventKind.MODIFIER: ("name",),
    EventKind.VOTE_RIGHT: ("granted",), EventKind.SURRENDER: ("faction",), EventKind.FACTION_LOST: ("faction",),
    EventKind.DECLARED: ("condition",), EventKind.ACTION: ("name",), EventKind.UNDO: ("seq",),
    EventKind.NIGHT_ACTION: ("phase", "actor", "skill"), EventKind.NIGHT_SETUP: ("field",),
    EventKind.NIGHT_SETTLED: ("phase", "table"),
}

EXAMPLES: Mapping[str, str] = {
    # the options `tracker event --help` lists, where it has one (the hint and the help agree)
    "day": "--day 2", "by": "--data by=替补名", "role": "--role 预言家", "faction": "--faction 狼人",
    "tag": "--tag 警长", "to": "--to 继任者", "name": "--data name=深青之桩",
    "granted": "--data granted=false", "condition": "--data condition=no_new_undead", "seq": "--seq 12",
}


T = TypeVar("T")
U = TypeVar("U")

#: A value the director typed (``--data key=value``) or the log stored: kept as given, converted where read.
Scalar = str | int | float | bool


@dataclass(frozen=True, slots=True)
class Payload:
    """An event's data with each key an attribute, built once per read: ``e.payload.vote_tid`` (a
    misspelt ``e.payload.vote_tdi`` is a mypy error, where ``e.data.get("vote_tdi")`` was a silent
    None). None: the event does not hold the key. Which kind uses which keys is said beside
    :class:`EventKind`; the log itself is JSON, so a value is converted where it is read, and keys
    not listed here stay in ``data`` (the event lines show them as stored)."""

    day: Scalar | None = None  # the game day (day_*, accelerated, a one-day tag or modifier or vote right, action)
    until: str | datetime | None = None  # day_extended / delayed: the new close (ISO time; a time in the game file)
    days: Scalar | None = None  # day_extended: by whole days
    cause: Scalar | None = None  # why a player went out or got a tag (vote, night, red_card, election, 殉情 …)
    by: str | None = None  # substituted: the substitute
    role: str | None = None
    turn: Scalar | None = None  # role_set: take the role's faction and group (翻转身份)
    faction: str | None = None
    group: str | None = None
    tag: str | None = None
    to: str | None = None  # tag_passed: the heir
    via: str | None = None  # tag_passed: 殉职 / 殉道 / 传承 / 馈赠
    gone: Scalar | None = None  # tag_removed: the tag leaves the game
    name: str | None = None  # modifier / action: its name
    value: Any = None  # modifier's weight, declared's truth, night_setup's value (a list, a mapping …)
    public: Scalar | None = None
    effect: str | None = None  # modifier: what it changes
    granted: Scalar | None = None  # vote_right
    color: str | None = None  # card_consequence
    consequence: str | None = None  # card_consequence: out / benched
    ledger_id: int | None = None  # card_consequence: the card
    again: Scalar | None = None  # card_consequence: a further red to a player already carded off
    cascade_of: int | None = None  # an event another one set off (殉情 after a red card's exit)
    result: dict[str, Any] | None = None  # what a settlement returned (its outcome …)
    reason: str | None = None
    clause: str | None = None
    condition: str | None = None  # declared
    actor: str | None = None  # action / night_action
    target: str | None = None  # action
    success: Scalar | None = None  # action
    seq: int | None = None  # undo: the event it cancels
    phase: str | None = None  # night_action / night_settled: night:N, day:N:晨曦 …
    skill: str | None = None
    targets: list[str] | None = None
    choice: str | None = None
    in_phase: str | None = None
    field: str | None = None  # night_setup
    table: dict[str, Any] | None = None  # night_settled: the table after settlement
    seed: int | None = None
    decisions: dict[str, str] | None = None
    submitted: list[int] | None = None  # night_settled: the submissions it settled
    vote_tid: int | None = None  # the vote thread a confirmation records
    vote_purpose: str | None = None
    votes: Scalar | None = None  # an exile by vote: the votes it got
    night: Scalar | None = None  # an exit recorded by hand with cause night: which night

    @classmethod
    def of(cls, data: Mapping[str, Any]) -> Payload:
        return cls(**{k: v for k, v in data.items() if k in _PAYLOAD_KEYS})


_PAYLOAD_KEYS = frozenset(Payload.__dataclass_fields__)


def given(value: T | None, default: U) -> T | U:
    """``value`` unless the event does not hold it (``data.get(key, default)`` read from a :class:`Payload`)."""
    return default if value is None else value


@dataclass(frozen=True, slots=True)
class Event:
    """One recorded fact. ``at`` is when it happened in the game; ``recorded_at`` when it was written."""

    seq: int
    at: datetime
    kind: str
    player: str | None
    data: Mapping[str, Any]
    recorded_by: str
    recorded_at: datetime

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)

    @property
    def payload(self) -> Payload:
        """The data with typed keys: ``e.payload.vote_tid`` (mypy refuses ``vote_tdi``)."""
        return Payload.of(self.data)


@dataclass(frozen=True, slots=True)
class EventDraft:
    """An event not yet in the log: the store (or an in-memory log) gives it its ``seq``."""

    at: datetime
    kind: str
    player: str | None = None
    data: Mapping[str, Any] = field(default_factory=dict)
    recorded_by: str = "tracker"

    @property
    def payload(self) -> Payload:
        return Payload.of(self.data)

    def to_event(self, seq: int, recorded_at: datetime | None = None) -> Event:
        return Event(seq=seq, at=self.at, kind=self.kind, player=self.player, data=dict(self.data),
                     recorded_by=self.recorded_by, recorded_at=recorded_at or self.at)


def normalize(kind: str, data: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """Resolve aliases and refuse unknown kinds, with the list of known ones."""
    if kind in ALIASES:
        real, extra = ALIASES[kind]
        return real.value, {**extra, **data}
    try:
        return EventKind(kind).value, dict(data)
    except ValueError:
        known = ", ".join(k.value for k in EventKind)
        raise GameRuleError(f"不认识的事件类型 {kind!r}",
                            hint=f"可用：{known}；简写：{', '.join(ALIASES)}") from None


def check_shape(kind: str, player: str | None, data: Mapping[str, Any]) -> None:
    """The event has what its kind needs (a player, the data keys); GameRuleError names the missing one."""
    if kind in NEEDS_PLAYER and not player:
        raise GameRuleError(f"事件 {kind} 需要指明玩家", hint="加上 --player 玩家名")
    for key in NEEDS_DATA.get(kind, ()):
        if key not in data or data[key] in (None, ""):
            raise GameRuleError(f"事件 {kind} 缺少 {key}", hint=f"例如：{EXAMPLES.get(key, f'--data {key}=…')}")


def make_draft(kind: str, *, at: datetime, player: str | None = None, data: Mapping[str, Any] | None = None,
               recorded_by: str = "tracker") -> EventDraft:
    real, d = normalize(kind, data or {})
    check_shape(real, player, d)
    return EventDraft(at=at, kind=real, player=player, data=d, recorded_by=recorded_by)


def from_config(configs: Sequence[Any], recorded_by: str = "game.toml") -> list[Event]:
    """Game-file ``[[events]]`` (tracker.config.EventConfig) as events with seq −n…−1 in file order."""
    out: list[Event] = []
    n = len(configs)
    for i, c in enumerate(configs):
        try:
            d = make_draft(c.kind, at=c.at, player=c.player, data=c.data, recorded_by=recorded_by)
        except GameRuleError as exc:
            raise GameRuleError(f"游戏文件 events[{i + 1}]：{exc.message}", hint=exc.hint) from None
        out.append(d.to_event(seq=i - n, recorded_at=c.at))
    return out


def event_to_json(e: Event) -> dict[str, Any]:
    return {"seq": e.seq, "at": e.at.isoformat(), "kind": e.kind, "player": e.player, "data": dict(e.data),
            "recorded_by": e.recorded_by, "recorded_at": e.recorded_at.isoformat()}


def as_of(events: Sequence[Event], t: datetime, *, inclusive: bool = True) -> list[Event]:
    """The log as the game stood at ``t``: what happened by then (``inclusive``: at ``t`` too), and
    every undo whatever its time. An undo corrects the record rather than happening in the game: a
    vote's 出局 undone the next morning never happened, at any time a fold is asked about."""
    return [e for e in events if (e.at <= t if inclusive else e.at < t) or e.kind == EventKind.UNDO]


def effective(events: Sequence[Event]) -> tuple[list[Event], frozenset[int]]:
    """The events that still count, in game order, and the seqs undone.

    An undo cancels its target; an undo of an undo restores the target. Walking backwards works
    because an undo always comes after what it cancels.
    """
    cancelled: set[int] = set()
    for e in sorted(events, key=lambda x: x.seq, reverse=True):
        if e.seq in cancelled:
            continue
        if e.kind == EventKind.UNDO:
            try:
                cancelled.add(int(e.data["seq"]))
            except (KeyError, TypeError, ValueError):
                continue
    live = [e for e in events if e.seq not in cancelled and e.kind != EventKind.UNDO]
    live.sort(key=lambda x: (x.at, x.seq))
    return live, frozenset(cancelled)

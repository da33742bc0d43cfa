"""The game state as a fold over the event log: computed every time, never stored as counters.

``fold(ruleset, roster, events)`` replays the roster (from the game file) and the events in game
order (``(at, seq)``), skipping undone ones, and checks win and loss after every event (or after
every batch of simultaneous events, as the ruleset says). Replaying the same events always gives the
same state. A malformed event does not stop the fold: it becomes a warning the director sees, while
:func:`check_event` refuses it before it is ever recorded.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any, Literal

from tracker.config import DayConfig, PlayerConfig
from tracker.engine.events import (
    NEEDS_PLAYER,
    Event,
    EventKind,
    Payload,
    check_shape,
    effective,
    given,
    normalize,
)
from tracker.engine.outcome import FactionLoss, Outcome, evaluate
from tracker.engine.roster_names import did_you_mean
from tracker.engine.ruleset import Ruleset
from tracker.errors import GameRuleError, RulesetError

#: A player's status in the rule posts' words, for everything the director reads. "dead" is
#: M160's 【死亡】 that is not yet 【出局】 (the lurk code calls it "dead_not_out").
STATUS_WORDS: dict[str, str] = {"alive": "存活", "dead": "死亡未出局", "dead_not_out": "死亡未出局", "out": "出局",
                                "benched": "挂机"}

Life = Literal["alive", "dead", "out"]
Status = Literal["alive", "dead", "out", "benched"]


@dataclass(frozen=True, slots=True)
class PlayerState:
    """One player now. ``status``: out > benched > dead (M160 dead-not-out) > alive.

    ``life`` is kept apart from ``benched`` because the posts say so: 一名角色是否处于挂机状态与其是否
    存活没有关系 (a benched player can still be killed, and still counts as alive for win checks).
    """

    name: str
    role: str | None
    faction: str | None
    group: str | None
    life: Life
    benched: bool
    tags: frozenset[str]
    vote_right: bool | None          # None: as the ruleset says; True/False: set by a vote_right event
    reds: int = 0
    cause: str | None = None         # why out / dead
    last_vote_used: bool = False
    substitutes: tuple[str, ...] = ()
    day_tags: tuple[tuple[str, int], ...] = ()
    original_role: str | None = None  # the role dealt at the start (107: a 恶徒 turned 活尸 is still a 恶徒 out)
    # the factions the player also counts in for the win check, where the table knows better than the
    # role's ``also_factions`` (107: the 夜行怪 counts in the faction the 守夜人 joined)
    also: tuple[str, ...] = ()

    @property
    def status(self) -> Status:
        if self.life == "out":
            return "out"
        if self.benched:
            return "benched"
        return self.life

    @property
    def presence(self) -> Status:
        """The status 诈尸 is judged by: an out player who kept the right to speak (107 恶灵·虚体
        "其视为出局，但仍保留发言权和投票权", recorded as ``vote_right`` granted) posts as the living do."""
        if self.life == "out" and self.vote_right is True and not self.benched:
            return "alive"
        return self.status

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "role": self.role, "faction": self.faction, "group": self.group,
                "status": self.status, "alive": self.life == "alive", "benched": self.benched,
                "tags": sorted(self.tags), "day_tags": [{"tag": t, "day": d} for t, d in self.day_tags],
                "vote_right": self.vote_right, "reds": self.reds, "cause": self.cause,
                "last_vote_used": self.last_vote_used, "substitutes": list(self.substitutes)}


@dataclass(frozen=True, slots=True)
class Modifier:
    """A vote modifier the director recorded (hidden ones are not announced)."""

    kind: str
    player: str
    value: float
    day: int | None
    public: bool
    effect: str
    seq: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "player": self.player, "value": self.value, "day": self.day,
                "public": self.public, "effect": self.effect, "seq": self.seq}


@dataclass(frozen=True, slots=True)
class ActionRecord:
    name: str
    player: str | None
    actor: str | None
    success: bool
    day: int | None
    seq: int


@dataclass(frozen=True, slots=True)
class DayState:
    """A day as the events left it. ``closes`` is effective (extensions and delays applied);
    ``closes_before_delay`` leaves out what ``delayed`` added, because the delay request itself was
    counted against that close ("讨论日结束三个小时前"). ``accelerated_at`` is when a mid-day
    ``accelerated`` event took effect (None: from the opening)."""

    day: int
    opens: datetime | None = None
    closes: datetime | None = None
    accelerated: bool = False
    accelerated_cause: str | None = None
    delayed: bool = False
    closed: bool = False
    accelerated_at: datetime | None = None
    closes_before_delay: datetime | None = None

    def to_json(self) -> dict[str, Any]:
        return {"day": self.day, "opens": self.opens.isoformat() if self.opens else None,
                "closes": self.closes.isoformat() if self.closes else None, "accelerated": self.accelerated,
                "accelerated_cause": self.accelerated_cause, "delayed": self.delayed, "closed": self.closed}


@dataclass(frozen=True, slots=True)
class VoteRightChange:
    player: str
    granted: bool
    day: int | None
    seq: int


@dataclass(frozen=True, slots=True)
class GameState:
    ruleset: Ruleset = field(repr=False, compare=False)
    players: Mapping[str, PlayerState]
    days: tuple[DayState, ...] = ()
    lost: Mapping[str, FactionLoss] = field(default_factory=dict)
    outcome: Outcome | None = None
    declared: frozenset[str] = frozenset()
    actions: tuple[ActionRecord, ...] = ()
    gone_tags: frozenset[str] = frozenset()
    applied: tuple[Event, ...] = ()
    undone: frozenset[int] = frozenset()
    seqs: frozenset[int] = frozenset()
    warnings: tuple[str, ...] = ()
    faction_reds: Mapping[str, int] = field(default_factory=dict)
    _modifiers: tuple[Modifier, ...] = ()
    _vote_rights: tuple[VoteRightChange, ...] = ()

    # -- who is who -------------------------------------------------------------------------
    def player(self, name: str) -> PlayerState:
        try:
            return self.players[name]
        except KeyError:
            raise GameRuleError(f"没有名为 {name!r} 的玩家",
                                hint=did_you_mean(name, self.players)
                                or f"游戏文件中的玩家：{', '.join(self.players)}") from None

    def living(self) -> list[str]:
        """Players alive (存活): not dead, not out; benched players are alive too."""
        return [n for n, p in self.players.items() if p.life == "alive"]

    def not_out(self) -> list[str]:
        return [n for n, p in self.players.items() if p.life != "out"]

    def is_valid_target(self, name: str) -> bool:
        """A vote target: alive or benched (107: 挂机状态的角色……允许被选为技能或投票的目标);
        dead (M160: 再不能成为被选择的目标) and out players are not."""
        p = self.players.get(name)
        return p is not None and p.life == "alive"

    def holder(self, tag: str) -> str | None:
        """The holder of a single title (警长) who is not out; None while it waits for a successor."""
        if tag in self.gone_tags:
            return None
        for n, p in self.players.items():
            if tag in p.tags and p.life != "out":
                return n
        return None

    def holders(self, tag: str, day: int | None = None) -> list[str]:
        return [n for n, p in self.players.items()
                if tag in p.tags or (day is not None and (tag, day) in p.day_tags)]

    def has_tag(self, name: str, tag: str, day: int | None = None) -> bool:
        p = self.player(name)
        return tag in p.tags or (day is not None and (tag, day) in p.day_tags)

    def pending_tags(self) -> list[tuple[str, str]]:
        """(tag, from) for titles whose holder is out and that await 殉职/殉道/传承 (or are lost)."""
        out: list[tuple[str, str]] = []
        for t in self.ruleset.tags:
            if t.transfer is None or t.name in self.gone_tags or self.holder(t.name) is not None:
                continue
            for n, p in self.players.items():
                if t.name in p.tags and p.life == "out":
                    out.append((t.name, n))
        return out

    def transfer_of(self, tag: str, holder: str) -> str:
        """How a title left by ``holder`` passes on, in the post's words, for the director.

        ``on_red = "random"``: a holder carded off does not choose (M19 "警长因红牌罚下而出局后，下任警长将被
        随机指定"; 213 "牧首<殉道>对象和效果随机选择"); ``"pass"``: a red changes nothing, the title passes
        as it always does (``transfer``); ``"lost"`` titles never wait (see :meth:`pending_tags`).
        """
        rule = next((t for t in self.ruleset.tags if t.name == tag), None)
        p = self.players.get(holder)
        if rule is None:
            return ""
        if rule.on_red == "random" and p is not None and p.cause == "red_card":
            return f"红牌罚下：随机指定（{rule.clause or rule.transfer or ''}）"
        return rule.transfer or ""

    # -- days -------------------------------------------------------------------------------
    def day(self, n: int) -> DayState | None:
        return next((d for d in self.days if d.day == n), None)

    def accelerated(self, n: int) -> bool:
        d = self.day(n)
        return bool(d and d.accelerated and not d.delayed)

    # -- votes ------------------------------------------------------------------------------
    def modifiers(self, day: int | None = None) -> list[Modifier]:
        """Modifiers in force on ``day`` (whole-game ones always); all of them when day is None."""
        if day is None:
            return list(self._modifiers)
        return [m for m in self._modifiers if m.day is None or m.day == day]

    def vote_right_on(self, name: str, day: int) -> bool | None:
        """A director's 票权 for ``day`` only (a ``vote_right`` event with ``day``), the last recorded;
        None when there is none. The count reads it through the day's roster."""
        granted = None
        for ch in self._vote_rights:
            if ch.player == name and ch.day == day:
                granted = ch.granted
        return granted

    def to_json(self) -> dict[str, Any]:
        return {"players": [p.to_json() for p in self.players.values()],
                "days": [d.to_json() for d in self.days],
                "outcome": self.outcome.to_json() if self.outcome else None,
                "lost": [x.to_json() for x in self.lost.values()],
                "modifiers": [m.to_json() for m in self._modifiers],
                "declared": sorted(self.declared),
                "pending_tags": [{"tag": t, "from": n, "how": self.transfer_of(t, n)} for t, n in self.pending_tags()],
                "warnings": list(self.warnings)}


# ---------------------------------------------------------------------------------------------
# The fold.

class _Fold:
    """Mutable scratch for one replay; the result is frozen into a GameState."""

    def __init__(self, ruleset: Ruleset, roster: Sequence[PlayerConfig], days: Sequence[DayConfig]) -> None:
        self.rs = ruleset
        self.players: dict[str, PlayerState] = {}
        self.warnings: list[str] = []
        for pc in roster:
            role = ruleset.role(pc.role) if pc.role else None
            if pc.role and role is None:
                self.warnings.append(f"玩家 {pc.name} 的身份 {pc.role!r} 不在规则 {ruleset.id} 中")
            # a role whose side is its couple's (M19 变异丘比特 "双民丘比特变民…") has none until the
            # couple is recorded: its role's faction is only the one it joins when they elope
            faction = self._faction(pc.faction) if pc.faction else (
                role.faction if role is not None and not role.couple_sets else None)
            self.players[pc.name] = PlayerState(
                name=pc.name, role=pc.role, faction=faction, group=role.group if role else None, life="alive",
                benched=False, tags=frozenset(pc.tags), vote_right=None, original_role=pc.role)
        self.days: dict[int, DayState] = {}
        for d in days:
            self.days[d.day] = DayState(day=d.day, opens=d.opens, closes=d.closes, accelerated=d.accelerated,
                                        accelerated_cause="game.toml" if d.accelerated else None)
        if ruleset.days.first_day_accelerated:
            d1 = self.days.get(1, DayState(day=1))
            self.days[1] = replace(d1, accelerated=True, accelerated_cause=d1.accelerated_cause or "ruleset")
        self.lost: dict[str, FactionLoss] = {}
        self.outcome: Outcome | None = None
        self.declared: set[str] = set()
        self.actions: list[ActionRecord] = []
        self.gone: set[str] = set()
        self.applied: list[Event] = []
        self.mods: list[Modifier] = []
        self.rights: list[VoteRightChange] = []
        self.reds: Counter[str] = Counter()

    def _faction(self, name: str) -> str:
        try:
            return self.rs.faction(name).name
        except RulesetError:
            self.warnings.append(f"阵营 {name!r} 不在规则 {self.rs.id} 中")
            return name

    def snapshot(self, undone: frozenset[int], seqs: frozenset[int] = frozenset()) -> GameState:
        return GameState(
            ruleset=self.rs, players=dict(self.players), days=tuple(sorted(self.days.values(), key=lambda d: d.day)),
            lost=dict(self.lost), outcome=self.outcome, declared=frozenset(self.declared),
            actions=tuple(self.actions), gone_tags=frozenset(self.gone), applied=tuple(self.applied),
            undone=undone, seqs=seqs, warnings=(*self.warnings, *self._undecided()), faction_reds=dict(self.reds),
            _modifiers=tuple(self.mods), _vote_rights=tuple(self.rights))

    def _undecided_role(self, p: PlayerState) -> bool:
        role = self.rs.role(p.role) if p.role else None
        return role is not None and bool(role.couple_sets)

    def _undecided(self) -> tuple[str, ...]:
        """A couple role (M19 变异丘比特) whose couple is not recorded yet: why the win check waits."""
        out = []
        for p in self.players.values():
            role = self.rs.role(p.role) if p.faction is None and p.role else None
            if role is not None and role.couple_sets:
                out.append(f"{p.name}（{role.name}）的阵营随{role.couple_tag}而定：记下{role.couple_tag}"
                           f"（tracker night GAME.toml setup {role.couple_tag} …）前暂不判定胜负")
        return tuple(out)

    def mark(self) -> Mark:
        """Where this fold stands, kept cheaply: the small maps copied, the append-only lists by length."""
        return Mark(players=dict(self.players), days=dict(self.days), lost=dict(self.lost), outcome=self.outcome,
                    declared=frozenset(self.declared), gone=frozenset(self.gone), reds=dict(self.reds),
                    lengths=(len(self.actions), len(self.applied), len(self.mods), len(self.rights),
                             len(self.warnings)))

    def branch(self, mark: Mark) -> _Fold:
        """A fold standing where ``mark`` was taken, to go on over other events; this one is untouched.
        Not a fold from the start: nothing before the mark is replayed."""
        f = type(self).__new__(type(self))
        actions, applied, mods, rights, warnings = mark.lengths
        f.rs = self.rs
        f.players, f.days, f.lost, f.outcome = dict(mark.players), dict(mark.days), dict(mark.lost), mark.outcome
        f.declared, f.gone, f.reds = set(mark.declared), set(mark.gone), Counter(mark.reds)
        f.actions, f.applied, f.mods = self.actions[:actions], self.applied[:applied], self.mods[:mods]
        f.rights, f.warnings = self.rights[:rights], self.warnings[:warnings]
        return f

    def _set(self, name: str, **kw: Any) -> None:
        self.players[name] = replace(self.players[name], **kw)

    def _lose(self, faction: str, reason: str, clause: str, seq: int) -> None:
        f = self._faction(faction)
        if f not in self.lost:
            self.lost[f] = FactionLoss(f, reason, clause, seq)

    def _give(self, name: str, tag: str, day: int | None) -> None:
        rule = self.rs.tag_rule(tag)
        if day is not None:
            p = self.players[name]
            self._set(name, day_tags=(*p.day_tags, (tag, day)))
            return
        if rule is not None and rule.unique:
            for n, q in self.players.items():
                if tag in q.tags and n != name:
                    self._set(n, tags=q.tags - {tag})
        if rule is not None and self.players[name].role in rule.vanishes_for:
            # 107 神恩: "神启者不能成为神眷者，当神启者成为神眷者时，神眷者消失" — elected or 传承, nobody holds it
            self.gone.add(tag)
            self.warnings.append(f"{name}（{self.players[name].role}）不能成为{tag}：{tag}消失（{rule.clause or '规则帖'}）")
            return
        self.gone.discard(tag)
        self._set(name, tags=self.players[name].tags | {tag})

    def _out(self, name: str, cause: str | None) -> None:
        self._set(name, life="out", cause=cause or self.players[name].cause)

    def apply(self, e: Event) -> None:
        """One event on the state: checked, then handed to its kind's handler (:data:`_APPLY`)."""
        kind, data = normalize(e.kind, e.data)
        check_shape(kind, e.player, data)
        name = e.player
        if name is not None and name not in self.players and kind in NEEDS_PLAYER:
            raise GameRuleError(f"没有名为 {name!r} 的玩家", hint=did_you_mean(name, self.players))
        handler = _APPLY.get(kind)
        if handler is not None:
            handler(self, kind, e, Payload.of(data), self.players.get(name) if name is not None else None)
        self.applied.append(e)

    # -- one handler per kind: (kind, event, normalized data, the event's player or None) --------
    def _on_eliminated(self, kind: str, e: Event, data: Payload, p: PlayerState | None) -> None:
        self._out(_named(p).name, str(given(data.cause, "")) or None)

    def _on_died(self, kind: str, e: Event, data: Payload, p: PlayerState | None) -> None:
        p = _named(p)
        if not self.rs.voting.dead_last_vote:
            self._out(p.name, str(given(data.cause, "")) or None)
        elif p.life == "alive":
            self._set(p.name, life="dead", cause=str(given(data.cause, "")) or None)

    def _on_last_vote_used(self, kind: str, e: Event, data: Payload, p: PlayerState | None) -> None:
        self._set(_named(p).name, life="out", last_vote_used=True)

    def _on_benched(self, kind: str, e: Event, data: Payload, p: PlayerState | None) -> None:
        self._set(_named(p).name, benched=kind == EventKind.BENCHED.value)

    def _on_revived(self, kind: str, e: Event, data: Payload, p: PlayerState | None) -> None:
        self._set(_named(p).name, life="alive", cause=None, last_vote_used=False)

    def _on_substituted(self, kind: str, e: Event, data: Payload, p: PlayerState | None) -> None:
        p = _named(p)
        self._set(p.name, substitutes=(*p.substitutes, str(data.by)))

    def _on_role_set(self, kind: str, e: Event, data: Payload, p: PlayerState | None) -> None:
        p = _named(p)
        role_name = str(data.role)
        role = self.rs.role(role_name)
        if role is None:
            self.warnings.append(f"事件 {e.seq}：身份 {role_name!r} 不在规则 {self.rs.id} 中")
        faction = p.faction
        group = p.group
        if data.faction:
            faction = self._faction(str(data.faction))
        elif data.turn and role is not None:
            faction = role.faction
        if data.group:
            group = str(data.group)
        elif data.turn and role is not None:
            group = role.group
        self._set(p.name, role=role_name, faction=faction, group=group)

    def _on_faction_set(self, kind: str, e: Event, data: Payload, p: PlayerState | None) -> None:
        self._set(_named(p).name, faction=self._faction(str(data.faction)))

    def _on_tag_given(self, kind: str, e: Event, data: Payload, p: PlayerState | None) -> None:
        day = data.day
        self._give(_named(p).name, str(data.tag), int(day) if day is not None else None)

    def _on_tag_passed(self, kind: str, e: Event, data: Payload, p: PlayerState | None) -> None:
        p = _named(p)
        tag, to = str(data.tag), str(data.to)
        if to not in self.players:
            raise GameRuleError(f"没有名为 {to!r} 的玩家", hint=did_you_mean(to, self.players))
        self._set(p.name, tags=p.tags - {tag})
        self._give(to, tag, None)

    def _on_tag_removed(self, kind: str, e: Event, data: Payload, p: PlayerState | None) -> None:
        p = _named(p)
        tag = str(data.tag)
        self._set(p.name, tags=p.tags - {tag}, day_tags=tuple(x for x in p.day_tags if x[0] != tag))
        if data.gone:
            self.gone.add(tag)

    def _on_modifier(self, kind: str, e: Event, data: Payload, p: PlayerState | None) -> None:
        p = _named(p)
        mname = str(data.name)
        spec = self.rs.voting.modifier(mname)
        role = self.rs.role(p.role) if p.role else None
        if role is not None and mname in role.immune_to:
            # M65 绿王 <绝对防御>: "游戏日任意时刻，对自己使用的技能无效"
            self.warnings.append(f"事件 {e.seq}：{p.name}（{role.name}）不受 {mname} 影响，未计入")
            return
        day = data.day
        self.mods.append(Modifier(
            kind=mname, player=p.name,
            value=float(given(data.value, spec.value if spec else 0.0)),
            day=int(day) if day is not None else None,
            public=bool(given(data.public, spec.public if spec else False)),
            effect=str(given(data.effect, spec.effect if spec else "received_add")), seq=e.seq))

    def _on_vote_right(self, kind: str, e: Event, data: Payload, p: PlayerState | None) -> None:
        p = _named(p)
        granted = _truthy(data.granted)
        day = data.day
        self.rights.append(VoteRightChange(p.name, granted, int(day) if day is not None else None, e.seq))
        if day is None:
            self._set(p.name, vote_right=granted)

    def _on_card_consequence(self, kind: str, e: Event, data: Payload, p: PlayerState | None) -> None:
        self._red(_named(p), data, e.seq)

    def _on_surrender(self, kind: str, e: Event, data: Payload, p: PlayerState | None) -> None:
        f = self._faction(str(data.faction))
        if self.rs.win_policy.surrender and f not in self.rs.win_policy.surrender:
            self.warnings.append(f"事件 {e.seq}：规则帖未规定{f}阵营可以投降")
        self._lose(f, f"{f}阵营投降", "投降", e.seq)

    def _on_faction_lost(self, kind: str, e: Event, data: Payload, p: PlayerState | None) -> None:
        f = str(data.faction)
        self._lose(f, str(data.reason or f"导演判负{f}阵营"), str(data.clause or "导演判负"), e.seq)

    def _on_declared(self, kind: str, e: Event, data: Payload, p: PlayerState | None) -> None:
        cond = str(data.condition)
        if _truthy(given(data.value, True)):
            self.declared.add(cond)
        else:
            self.declared.discard(cond)

    def _on_action(self, kind: str, e: Event, data: Payload, p: PlayerState | None) -> None:
        name = e.player
        day = data.day
        self.actions.append(ActionRecord(
            name=str(data.name), player=str(data.target) if data.target else name,
            actor=data.actor or (name if data.target else None),
            success=_truthy(given(data.success, True)), day=int(day) if day is not None else None, seq=e.seq))

    def _on_day(self, kind: str, e: Event, data: Payload, p: PlayerState | None) -> None:
        self._day(kind, data, e)

    def _red(self, p: PlayerState, data: Payload, seq: int) -> None:
        """A red card's consequence: benched (107/M160, M160 also 丑角) or out (213/M19/M65)."""
        cards = self.rs.cards
        if str(given(data.color, "red")) != "red":
            return
        consequence = str(data.consequence or cards.red_consequence)
        faction = p.faction
        self._set(p.name, reds=p.reds + 1)
        if _truthy(given(data.again, False)) or p.life == "out":
            # A further red to a player already carded off changes nothing for them, but counts for
            # the faction: "同一阵营的角色累计获得两张或以上红牌时，阵营判负" (213, M19).
            self._count_faction_red(faction, seq)
            return
        if consequence == "out":
            self._out(p.name, "red_card")
        else:
            self._set(p.name, benched=True)
        if cards.red_turns_role:
            self._set(p.name, role=cards.red_turns_role)   # 哥谭：不影响原先的阵营及是否为恶魔
        for t in self.rs.tags:
            if t.name in self.players[p.name].tags and consequence == "out" and t.on_red == "lost":
                self._set(p.name, tags=self.players[p.name].tags - {t.name})
                self.gone.add(t.name)
        self._count_faction_red(faction, seq)

    def _count_faction_red(self, faction: str | None, seq: int) -> None:
        """The faction's red cards; whether that loses it is a ``[[win]]`` rule (``red_cards_at_least``),
        decided by the one win check with every other rule."""
        if faction:
            self.reds[faction] += 1

    def _day(self, kind: str, data: Payload, e: Event) -> None:
        assert data.day is not None  # check_shape: every day_* event names its day
        n = int(data.day)
        d = self.days.get(n, DayState(day=n))
        if kind == EventKind.DAY_OPENED:
            d = replace(d, opens=e.at, closed=False)
        elif kind == EventKind.DAY_CLOSED:
            d = replace(d, closed=True, closes=d.closes or e.at)
        elif kind == EventKind.DAY_EXTENDED:
            # the director's own close: where it says `until`, that is the close, delay or not
            until = _until(data)
            if until is not None:
                d = replace(d, closes=until, closes_before_delay=until)
            elif d.closes is not None:
                extra = timedelta(days=float(data.days if data.days is not None else 1))
                d = replace(d, closes=d.closes + extra, closes_before_delay=(d.closes_before_delay or d.closes) + extra)
        elif kind == EventKind.ACCELERATED:
            at = e.at if d.opens is not None and e.at > d.opens else None
            d = replace(d, accelerated=True, delayed=False, accelerated_cause=str(given(data.cause, "director")),
                        accelerated_at=at)
        elif kind == EventKind.DELAYED:
            # 延时成功时，不再视为“执行加速”状态; 延时 moves the close a day ("逢周末延时一天" is the
            # rule posts' unit) unless the event names `until` or `days` (days=0: only lift 加速)
            d = replace(d, delayed=True, accelerated=False, accelerated_at=None)
            until = _until(data)
            if until is not None:
                d = replace(d, closes_before_delay=d.closes_before_delay or d.closes, closes=until)
            elif d.closes is not None:
                d = replace(d, closes_before_delay=d.closes_before_delay or d.closes,
                            closes=d.closes + timedelta(days=float(data.days if data.days is not None else 1)))
        self.days[n] = d

    def check(self, e: Event) -> None:
        if self.outcome is not None:
            return
        if any(p.faction is None for p in self.players.values()):
            return
        state = self.snapshot(frozenset())
        self.lost, self.outcome = evaluate(self.rs, state, self.lost, seq=e.seq, at=e.at)


def _until(data: Payload) -> datetime | None:
    until = data.until
    if not until:
        return None
    return until if isinstance(until, datetime) else datetime.fromisoformat(str(until))


def _truthy(v: Any) -> bool:
    if isinstance(v, str):
        return v.strip().lower() not in ("false", "0", "no", "否", "")
    return bool(v)


@dataclass(frozen=True, slots=True)
class Mark:
    """A fold's place after some events (see :class:`tracker.engine.fold_pass.FoldPass`)."""

    players: dict[str, PlayerState]
    days: dict[int, DayState]
    lost: dict[str, FactionLoss]
    outcome: Outcome | None
    declared: frozenset[str]
    gone: frozenset[str]
    reds: dict[str, int]
    lengths: tuple[int, int, int, int, int]  # actions, applied, mods, rights, warnings



def _named(p: PlayerState | None) -> PlayerState:
    """The event's player (``check_shape`` and ``NEEDS_PLAYER`` have made sure there is one)."""
    assert p is not None
    return p


#: What each kind of event does to the state: one handler per kind (kinds not here change nothing
#: but are kept in the log: notes, night submissions and settlements, undo).
_APPLY: dict[str, Callable[[_Fold, str, Event, Payload, PlayerState | None], None]] = {
    EventKind.ELIMINATED.value: _Fold._on_eliminated,
    EventKind.DIED.value: _Fold._on_died,
    EventKind.LAST_VOTE_USED.value: _Fold._on_last_vote_used,
    EventKind.BENCHED.value: _Fold._on_benched,
    EventKind.UNBENCHED.value: _Fold._on_benched,
    EventKind.REVIVED.value: _Fold._on_revived,
    EventKind.SUBSTITUTED.value: _Fold._on_substituted,
    EventKind.ROLE_SET.value: _Fold._on_role_set,
    EventKind.FACTION_SET.value: _Fold._on_faction_set,
    EventKind.TAG_GIVEN.value: _Fold._on_tag_given,
    EventKind.TAG_PASSED.value: _Fold._on_tag_passed,
    EventKind.TAG_REMOVED.value: _Fold._on_tag_removed,
    EventKind.MODIFIER.value: _Fold._on_modifier,
    EventKind.VOTE_RIGHT.value: _Fold._on_vote_right,
    EventKind.CARD_CONSEQUENCE.value: _Fold._on_card_consequence,
    EventKind.SURRENDER.value: _Fold._on_surrender,
    EventKind.FACTION_LOST.value: _Fold._on_faction_lost,
    EventKind.DECLARED.value: _Fold._on_declared,
    EventKind.ACTION.value: _Fold._on_action,
    **{k.value: _Fold._on_day for k in (EventKind.DAY_OPENED, EventKind.DAY_CLOSED, EventKind.DAY_EXTENDED,
                                         EventKind.ACCELERATED, EventKind.DELAYED)},
}

def begin(ruleset: Ruleset, roster: Sequence[PlayerConfig], days: Sequence[DayConfig] = ()) -> _Fold:
    """A fold at the start of the game: the roster and the game file's days, no event yet."""
    f = _Fold(ruleset, roster, days)
    if any(p.faction is None and not f._undecided_role(p) for p in f.players.values()):
        f.warnings.append("有玩家未写明身份或阵营，暂不判定胜负（在游戏文件 [[players]] 中写 role / faction）")
    return f


def replay(f: _Fold, live: Sequence[Event], marks: dict[int, Mark] | None = None) -> None:
    """Apply ``live`` (in force, in game order) to ``f``, checking win and loss after every event or
    every batch of simultaneous ones; ``marks`` gets ``f``'s place after each batch, by events applied."""
    every = f.rs.win_policy.check == "every_event"
    for i, e in enumerate(live):
        last_of_batch = i + 1 == len(live) or live[i + 1].at != e.at
        try:
            f.apply(e)
        except (GameRuleError, KeyError, TypeError, ValueError) as exc:
            msg = exc.message if isinstance(exc, GameRuleError) else repr(exc)
            f.warnings.append(f"事件 {e.seq}（{e.kind}）未能应用：{msg}")
        else:
            if every or last_of_batch:
                f.check(e)
        if marks is not None and last_of_batch:
            marks[i + 1] = f.mark()


def finish(f: _Fold, live: Sequence[Event], undone: frozenset[int], seqs: frozenset[int]) -> GameState:
    """The state once ``live`` is applied: the last check (a batch's may have been skipped), frozen."""
    if live and f.outcome is None and f.rs.win_policy.check != "every_event":
        f.check(live[-1])
    return f.snapshot(undone, seqs)


def fold(ruleset: Ruleset, roster: Sequence[PlayerConfig], events: Sequence[Event],
         days: Sequence[DayConfig] = ()) -> GameState:
    """Replay ``events`` over ``roster``; the same inputs always give the same state."""
    live, undone = effective(events)
    f = begin(ruleset, roster, days)
    replay(f, live)
    return finish(f, live, undone, frozenset(e.seq for e in events))


def check_event(state: GameState, kind: str, player: str | None, data: Mapping[str, Any]) -> None:
    """Refuse, before it is recorded, an event the state cannot take (GameRuleError with the fix)."""
    real, d = normalize(kind, data)
    check_shape(real, player, d)
    K = EventKind
    if player is not None and real not in (K.SURRENDER, K.FACTION_LOST, K.DECLARED, K.NOTE, K.ACTION):
        p = state.player(player)
        if real in (K.ELIMINATED, K.BENCHED) and p.life == "out":
            raise GameRuleError(f"{player} 已经出局", hint="每名角色仅能出局一次；要更正请先撤销（undo）原事件")
        if real == K.DIED and p.life != "alive":
            raise GameRuleError(f"{player} 已经死亡或出局")
        if real == K.LAST_VOTE_USED and p.life != "dead":
            raise GameRuleError(f"{player} 不是死亡未出局的玩家", hint="只有【死亡】但未【出局】的玩家有最后一票")
        if real == K.TAG_PASSED:
            if str(d["tag"]) not in p.tags:
                raise GameRuleError(f"{player} 没有 {d['tag']}", hint="tag_passed 的 --player 是原持有者")
            state.player(str(d["to"]))
        limit = state.ruleset.substitutes_per_role
        if real == K.SUBSTITUTED and limit is not None and len(p.substitutes) >= limit:
            raise GameRuleError(f"{player} 已经更换过替补（{'、'.join(p.substitutes)}）",
                                hint=f"规则帖：每名角色仅限更换{'一' if limit == 1 else limit}次替补")
        if real == K.ROLE_SET and state.ruleset.role(str(d["role"])) is None:
            raise GameRuleError(f"身份 {d['role']!r} 不在规则 {state.ruleset.id} 中",
                                hint=f"可用：{', '.join(r.name for r in state.ruleset.roles)}")
    if real in (K.FACTION_SET, K.SURRENDER, K.FACTION_LOST):
        try:
            state.ruleset.faction(str(d["faction"]))
        except RulesetError as exc:
            raise GameRuleError(exc.message, hint=exc.hint) from None
    if real == K.UNDO:
        target = int(d["seq"])
        if target not in state.seqs or target in state.undone:
            raise GameRuleError(f"没有可撤销的事件 {target}", hint="用 `tracker state GAME.toml --events` 查看事件序号")
    if real == K.MODIFIER and player is not None:
        spec = state.ruleset.voting.modifier(str(d["name"]))
        if spec is not None and spec.once_per_player and any(
                m.kind == spec.name and m.player == player for m in state.modifiers()):
            raise GameRuleError(f"{player} 已经被选择过 {spec.name}",
                                hint=f"规则帖：每名玩家仅可以被选择一次（{spec.clause or spec.name}）")
    if real == K.MODIFIER and "day" not in d:
        spec = state.ruleset.voting.modifier(str(d["name"]))
        if spec is not None and spec.duration == "day":
            raise GameRuleError(f"修正 {d['name']} 只作用于一天，需要写明哪一天", hint="加上 --day N")

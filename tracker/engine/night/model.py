"""What a night (or a day phase) is settled from, and what settling it gives back.

The input (:class:`Table`, :class:`Action`) is the scenario format of ``tracker night simulate``:
the same words for the same facts in every game (``uses``, ``tags``, ``status``, ``state`` keys
such as ``守护上次``), so one settlement context serves five rule posts. The output
(:class:`Settlement`) is what a director needs the next morning: deaths with their cause,
survivals with their reason, refused submissions with the clause that refuses them, private
feedback, the 公示 draft, the win check, and the step-by-step log that explains all of it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

#: Player fields with a meaning of their own; everything else a scenario gives a player
#: (``seat``, ``elevator``, ``英雄``, ``原身份``, ``伪装`` …) is kept in :attr:`Seat.fields`.
CORE_FIELDS = ("name", "role", "faction", "alive", "state", "tags", "status", "uses")

#: The public phase words (``action.phase``, the shared schema's enum) and the engine's internal
#: names: a director types and a file holds 白天 / 夜晚 / 游戏开始前 in every game; the post's own
#: day phases (晨曦 / 正午 / 黄昏 / 关门) are their own names.
PHASE_NAMES = {"夜晚": "night", "白天": "day", "游戏开始前": "setup"}


def internal_phase(phase: str | None) -> str | None:
    """A phase word as the engine keeps it: 白天 → ``day``, 夜晚 → ``night``, 游戏开始前 → ``setup``."""
    return PHASE_NAMES.get(phase, phase) if phase is not None else None


#: Actors who are no player: a card given by the director, the day's exile vote.
NO_SEAT = ("导演", "放逐投票")

_TEAM = re.compile(r"^(?P<team>[^()]+)\((?P<members>[^()]*)\)$")
#: Actors that are not players: a team named without its members, the director (a card), the day vote.
TEAM_WORDS = frozenset({"狼群", *NO_SEAT})


@dataclass(slots=True)
class Seat:
    """One player at the table while a night is settled (mutable: settlement works on a copy).

    ``alive`` is False once the player is out (M160: also once 死亡; ``life`` keeps the
    three-way word there: 存活 / 死亡 / 出局).
    """

    name: str
    role: str
    faction: str
    alive: bool = True
    life: str | None = None
    tags: list[str] = field(default_factory=list)
    status: list[str] = field(default_factory=list)
    uses: dict[str, int | bool] = field(default_factory=dict)
    fields: dict[str, Any] = field(default_factory=dict)

    @property
    def benched(self) -> bool:
        return "挂机" in self.status

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "role": self.role, "faction": self.faction}
        if self.life is not None:
            out["state"] = self.life
        else:
            out["alive"] = self.alive
        for key, value in (("tags", self.tags), ("status", self.status), ("uses", self.uses)):
            if value:
                out[key] = value
        out.update(self.fields)
        return out


@dataclass(slots=True)
class Table:
    """The table when the settled phase begins: players in roster order, game-wide ``state``."""

    players: dict[str, Seat]
    state: dict[str, Any]
    night: int | None = None
    day: int | None = None
    phase: str | None = None
    carried: list[str] = field(default_factory=list)

    @property
    def when(self) -> str:
        """The phase in the posts' words: 第2夜, 第3天正午 …"""
        if self.night is not None:
            return f"第{self.night}夜"
        return f"第{self.day}天{self.phase or ''}"

    def living(self) -> list[Seat]:
        return [p for p in self.players.values() if p.alive]


@dataclass(frozen=True, slots=True)
class Action:
    """One submission, as the player (or team, or the director) sent it, in submission order."""

    actor: str
    skill: str
    targets: tuple[str, ...] = ()
    choice: str | None = None
    phase: str | None = None
    note: str | None = None
    index: int = 0
    #: Set by settlement for an actor written as a team's bare name (恶徒, 情侣, 民兵) who is no player.
    bare_team: bool = False

    @property
    def members(self) -> tuple[str, ...]:
        """The players behind the actor: ``P03``, ``P03+P04``, ``P11,P12``, ``狼群(P10,P11)``.

        Players are forum names in a real game, so nothing here assumes the ``Pnn`` ids of the
        scenario files: a team is the ``团队(成员…)`` form or one of :data:`TEAM_WORDS`; nobody sits
        behind ``导演`` (a card) or ``放逐投票`` (the day vote).
        """
        if self.actor in TEAM_WORDS or self.bare_team:
            return ()
        m = _TEAM.match(self.actor)
        body = m.group("members") if m else self.actor
        return tuple(p for p in re.split(r"[+,]", body) if p)

    @property
    def team(self) -> str | None:
        """The team's name for a team action (``狼群``), None for a player's own."""
        m = _TEAM.match(self.actor)
        if m:
            return m.group("team")
        return self.actor if self.actor in TEAM_WORDS or self.bare_team else None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"actor": self.actor, "skill": self.skill, "targets": list(self.targets)}
        for key in ("choice", "phase", "note"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        return out


@dataclass(frozen=True, slots=True)
class Death:
    player: str
    cause: str


@dataclass(frozen=True, slots=True)
class Survival:
    player: str
    reason: str


@dataclass(frozen=True, slots=True)
class Rejection:
    actor: str
    skill: str
    reason: str
    clause: str
    targets: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Conversion:
    player: str
    role_from: str
    role_to: str
    faction_from: str
    faction_to: str
    cause: str


@dataclass(frozen=True, slots=True)
class TagMove:
    tag: str
    from_player: str | None
    to_player: str | None
    via: str


@dataclass(frozen=True, slots=True)
class Pending:
    """An effect decided now that acts later (陷阱 at the next vote, 中箭勇者's delayed exit …)."""

    effect: str
    player: str | None
    when: str
    clause: str = ""


@dataclass(frozen=True, slots=True)
class VoteMark:
    """A night effect on a day's votes (M65 深青之桩/天枢剑圣 "第二天被投票数加倍（暗记）", 票权掠夺): the
    ruleset's ``[[voting.modifiers]]`` ``name`` on ``player``, for ``day`` (None: from now on). The desk
    records it as a ``modifier`` event, so the next tally counts it."""

    name: str
    player: str
    day: int | None


@dataclass(frozen=True, slots=True)
class Feedback:
    to: str
    content: str


@dataclass(frozen=True, slots=True)
class NightWin:
    winner: str
    reason: str
    clause: str


@dataclass(frozen=True, slots=True)
class Question:
    """A choice the post leaves to the director or to chance, and what the engine took.

    ``taken`` is the seeded pick (or the director's, given in ``decisions``); the director sees
    every question in the preview and may override it by its ``key``.
    """

    key: str
    question: str
    options: tuple[str, ...]
    taken: str
    by: str  # "seed" or "director"


@dataclass(slots=True)
class Settlement:
    """Everything a settled night gives, in the post's order. JSON names are the contract."""

    deaths: list[Death] = field(default_factory=list)
    survivals: list[Survival] = field(default_factory=list)
    rejected: list[Rejection] = field(default_factory=list)
    conversions: list[Conversion] = field(default_factory=list)
    tags_moved: list[TagMove] = field(default_factory=list)
    pending: list[Pending] = field(default_factory=list)
    vote_marks: list[VoteMark] = field(default_factory=list)
    state_after: dict[str, Any] = field(default_factory=dict)
    feedback: list[Feedback] = field(default_factory=list)
    out_order: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    outcome: NightWin | None = None
    questions: list[Question] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    #: The whole table once settled (not part of the JSON contract): what the next night starts from.
    table_after: Table | None = None
    #: True when the game's hooks wrote the out list into ``lines`` in the post's own words
    #: (107 夜晚出局, M19 第N夜出局, M160 夜晚【死亡】); a rendering then adds no generic one.
    outs_in_lines: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "deaths": [{"player": d.player, "cause": d.cause} for d in self.deaths],
            "survivals": [{"player": s.player, "reason": s.reason} for s in self.survivals],
            "rejected": [{"actor": r.actor, "skill": r.skill, "targets": list(r.targets), "reason": r.reason,
                          "clause": r.clause} for r in self.rejected],
            "conversions": [{"player": c.player, "from": {"role": c.role_from, "faction": c.faction_from},
                             "to": {"role": c.role_to, "faction": c.faction_to}, "cause": c.cause}
                            for c in self.conversions],
            "tags_moved": [{"tag": t.tag, "from": t.from_player, "to": t.to_player, "via": t.via}
                           for t in self.tags_moved],
            "pending": [{"effect": p.effect, "player": p.player, "when": p.when, "clause": p.clause}
                        for p in self.pending],
            **({"vote_marks": [{"name": m.name, "player": m.player, "day": m.day} for m in self.vote_marks]}
               if self.vote_marks else {}),
            "state_after": self.state_after,
            "feedback": [{"to": f.to, "content": f.content} for f in self.feedback],
            "announcement": {"out_order": list(self.out_order), "lines": list(self.lines)},
            "outcome": None if self.outcome is None else {"winner": self.outcome.winner,
                                                          "reason": self.outcome.reason,
                                                          "clause": self.outcome.clause},
            "questions": [{"key": q.key, "question": q.question, "options": list(q.options),
                           "taken": q.taken, "by": q.by} for q in self.questions],
            "log": list(self.log),
        }

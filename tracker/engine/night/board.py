"""The working table of one settlement: the only mutable thing in the night engine.

A game's hook module walks its post's settlement order over a :class:`Board` and says what
happens through these few verbs (``kill``, ``survive``, ``tell``, ``note``, ``move_tag`` …), so that
every result lands in one :class:`Settlement` in the order it happened and the log explains it.
The board starts from a deep copy of the table: settling never changes its input, and the same
table, actions and seed always give the same result.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from tracker.engine.night.catalog import Catalog, Skill
from tracker.engine.night.checks import holds, spent_with
from tracker.engine.night.model import (
    Action,
    Conversion,
    Death,
    Feedback,
    NightWin,
    Pending,
    Question,
    Rejection,
    Seat,
    Settlement,
    Survival,
    Table,
    TagMove,
    VoteMark,
)

if TYPE_CHECKING:
    from tracker.engine.night.games import GameHooks
    from tracker.engine.ruleset import Ruleset


class SettlementOver(Exception):
    """Raised by :meth:`Board.win` where the post stops settlement at once (立即终止结算)."""


class Board:
    """The table being settled, and the result being written."""

    def __init__(self, table: Table, catalog: Catalog, *, seed: int = 0,
                 decisions: Mapping[str, str] | None = None, ruleset: Ruleset | None = None,
                 hooks: GameHooks | None = None) -> None:
        self.table = copy.deepcopy(table)
        self.catalog = catalog
        self.result = Settlement()
        self.decisions = dict(decisions or {})
        self._rng = random.Random(seed)
        #: Death listeners a hook registers (殉情, 遇难, 接刀 …): called after every death, in order.
        self.on_death: list[Callable[[Board, Seat, str], None]] = []
        #: Listeners that close an exit, after every ``on_death`` one (a game's cascades registered late too) and
        #: before its win check: a red card's titles passed at random (M19 "红牌罚下的警长警徽随机移交").
        self.closing_death: list[Callable[[Board, Seat, str], None]] = []
        #: The game's rules, whose ``[[win]]`` the win check (:mod:`.win`) evaluates; None: no win check.
        self.ruleset = ruleset
        #: The game's hooks (their ``win_view``, if any, adapts the win check's view).
        self.hooks = hooks
        #: Conditions the settlement decided that ``[[win]]`` names as ``declared`` (M160 密谋成功).
        self.declared: set[str] = set()
        #: Listeners called with each faction the win check newly judges lost (M19 寡妇刀).
        self.on_lost: list[Callable[[Board, str], None]] = []
        #: Every exit not yet followed by what it sets off, (player, cause) in the order they went out,
        #: whoever settled it (an effect or a game's hook step): the generic engine runs each one's
        #: ``trigger`` skills from here (:meth:`tracker.engine.night.flow.Flow.after_exits`).
        self.exits: list[tuple[str, str]] = []
        #: What a game's hook steps hand on to its later steps within this settlement (``Flow.game``), which
        #: its ``finish`` reads when a win stops the settlement.
        self.game: dict[str, Any] = {}
        #: The skills whose holders do not go out on some game days (``spares``: M65 天罡护体).
        self._spares = tuple(s for s in catalog.skills.values() if s.spares is not None)
        #: The submissions refused so far in this settlement, by index (a step's ``game_start`` reads them).
        self.refused: set[int] = set()
        #: The skills with a ``standing`` protect, in the file's order: what every hit asks
        #: (:func:`tracker.engine.night.effects.standing`), found once, not per hit.
        self.standing = tuple(s for s in catalog.skills.values()
                              if any(e.kind == "protect" and e.standing for e in s.effects))
        #: The skills whose holders hear of other players' exits and flips (``hears``: 107 灵魂链接).
        self._hears = tuple(s for s in catalog.skills.values() if s.hears is not None)

    # -- reading -------------------------------------------------------------------------------
    @property
    def night(self) -> int | None:
        return self.table.night

    @property
    def state(self) -> dict[str, Any]:
        return self.table.state

    def seat(self, name: str) -> Seat:
        return self.table.players[name]

    def has(self, name: str) -> bool:
        return name in self.table.players

    def living(self) -> list[Seat]:
        return self.table.living()

    def holders(self, tag: str) -> list[Seat]:
        return [p for p in self.table.players.values() if tag in p.tags]

    def skill(self, name: str) -> Skill:
        return self.catalog.skill(name)

    # -- writing -------------------------------------------------------------------------------
    def note(self, line: str) -> None:
        """One step of the narrated settlement (the post's step number first where it has one)."""
        self.result.log.append(line)

    def tell(self, to: str, content: str) -> None:
        """Private feedback, in the post's wording."""
        self.result.feedback.append(Feedback(to, content))

    def announce(self, line: str, *, outs: bool = False) -> None:
        """A line of the morning 公示; ``outs``: this line is the post's own out list (then the
        structured ``out_order`` is not repeated as a generic line when the 公示 is rendered)."""
        self.result.lines.append(line)
        if outs:
            self.result.outs_in_lines = True

    def reject(self, action: Action, reason: str, clause: str = "") -> None:
        self.refused.add(action.index)
        self.result.rejected.append(Rejection(action.actor, action.skill, reason, clause, tuple(action.targets)))
        self.note(f"拒绝：{action.actor}<{action.skill}> —— {reason}")

    def survive(self, player: str, reason: str) -> None:
        self.result.survivals.append(Survival(player, reason))
        self.note(f"{player}存活：{reason}")

    def kill(self, player: str, cause: str, *, announce: bool = True, life: str | None = None) -> bool:
        """Take a player out (M160: ``life="死亡"`` marks 死亡, not 出局). False if already gone.

        A second death of the same player is refused here, whatever the hooks ask, so no order of
        effects can kill anyone twice. Death listeners (cascades) run right after, in order.
        """
        seat = self.seat(player)
        if not seat.alive:
            self.note(f"{player}已不在场，{cause}不再生效")
            return False
        spared = self.spared(seat, cause)
        if spared is not None:
            self.survive(player, spared)
            return False
        seat.alive = False
        if life is not None:
            seat.life = life
        elif seat.life is not None:
            seat.life = "出局"
        self.result.deaths.append(Death(player, cause))
        self.exits.append((player, cause))
        if announce:
            self.result.out_order.append(player)
        self.note(f"{player}{seat.life or '出局'}（{cause}）")
        self.hear(seat, "exit", (seat.faction,))
        for listener in [*self.on_death, *self.closing_death]:
            listener(self, seat, cause)
        from tracker.engine.night.win import check

        check(self, "death")
        return True

    @property
    def game_day(self) -> int | None:
        """The game day this phase belongs to: a night's is the day before it (the limits counted by days)."""
        return self.table.day if self.night is None else self.catalog.day_before(self.night)

    def spared(self, seat: Seat, cause: str) -> str | None:
        """The reason ``seat`` does not go out by ``cause`` now (a held skill's ``spares`` on this game day,
        the cause none of its ``unless``), or None."""
        if not self._spares:
            return None
        day = self.game_day
        name = cause.split("（", 1)[0]
        for s in self._spares:
            assert s.spares is not None
            if day not in s.spares.days or not holds(seat, s):
                continue
            if any(name == u or name in self._aliases(u) for u in s.spares.unless):
                continue
            return s.spares.reason
        return None

    def hear(self, seat: Seat, event: str, factions: Sequence[str]) -> None:
        """``hears``: ``seat`` went out (``exit``, his faction then) or flipped (``flip``, the faction he left and
        the one he joined); each living holder of a skill that hears that event for one of ``factions`` but
        him is told, in seat order (107 灵魂链接 "每当其他圣殿阵营角色出局或身份翻转时，你将得到通知"), wherever
        the exit or flip was settled."""
        for s in self._hears:
            assert s.hears is not None
            text = s.hears.exit if event == "exit" else s.hears.flip
            if text is None or not set(factions) & set(s.hears.factions):
                continue
            for other in self.living():
                if other.name != seat.name and holds(other, s):
                    self.tell(other.name, text.format(player=seat.name))

    def _aliases(self, name: str) -> tuple[str, ...]:
        found = self.catalog.skills.get(name)
        return found.aliases if found is not None else ()

    def use(self, seat: Seat, skill: Skill | str) -> None:
        """Spend one use of a counted skill (a one-shot bool becomes False)."""
        key = skill if isinstance(skill, str) else (skill.uses or skill.name)
        left = seat.uses.get(key)
        if left is None and not isinstance(skill, str):
            left = skill.count  # the key not written yet: what it holds when the game starts
        if isinstance(left, bool):
            seat.uses[key] = False
        elif isinstance(left, int):
            seat.uses[key] = max(0, left - 1)
        now = seat.uses.get(key)
        spent = not isinstance(skill, str) and skill.spent is not None and (now is False or now == 0)
        self.result.state_after[f"{seat.name}.{key}"] = skill.spent if spent and not isinstance(skill, str) else now
        for other in self.catalog.skills.values():  # ``lost_with``: the skill lost once these counts are all spent
            own = other.uses or other.name
            if key in other.lost_with and holds(seat, other) and seat.uses.get(own) is not False \
                    and spent_with(seat, other):
                seat.uses[own] = False
                self.result.state_after[f"{seat.name}.{own}"] = other.spent if other.spent is not None else False
                self.note(f"{seat.name}的{''.join(f'<{k}>' for k in other.lost_with)}都已发动 → 失去<{other.name}>")

    def set_state(self, key: str, value: Any) -> None:
        self.state[key] = value
        self.result.state_after[key] = value

    def move_tag(self, tag: str, frm: str | None, to: str | None, via: str) -> None:
        """The tag goes from ``frm`` to ``to`` (None: out of the game); the table's ``state`` names its holder, or,
        where the state keeps a record for the tag (``{holder, since, …}``), the record's ``holder`` and ``since``
        (the night or day, and ``by`` the move) follow it — given to its holder again, such a tag does not move
        (its ``since`` keeps counting: 107 认主 "连续度过两个完整的夜晚")."""
        record = self.state.get(tag)
        if isinstance(record, dict) and frm is not None and frm == to and record.get("holder") == to:
            self.note(f"{tag}：{to}已持有（{via}），不变")
            return
        if frm is not None and tag in self.seat(frm).tags:
            self.seat(frm).tags.remove(tag)
        if to is not None and tag not in self.seat(to).tags:
            self.seat(to).tags.append(tag)
        self.result.tags_moved.append(TagMove(tag, frm, to, via))
        if isinstance(record, dict):  # a tag with a record (107 亡灵圣物: holder, since when — 认主 counts from it)
            when: dict[str, Any] = {"night": self.night} if self.night is not None else {"day": self.table.day or 0}
            self.set_state(tag, {**record, "holder": to, "since": {**when, "by": via}})
        elif tag in self.state or tag in ("神眷者", "警长", "牧首", "恶徒首领", "告死者"):
            self.set_state(tag, to)
        self.note(f"{tag}：{frm or '无人'} → {to or '无人（移出游戏）'}（{via}）")

    def convert(self, player: str, role: str | None, faction: str | None, cause: str) -> None:
        seat = self.seat(player)
        before = (seat.role, seat.faction)
        seat.role = role or seat.role
        seat.faction = faction or seat.faction
        self.result.conversions.append(Conversion(player, before[0], seat.role, before[1], seat.faction, cause))
        self.note(f"{player}：{before[0]}（{before[1]}）→ {seat.role}（{seat.faction}）（{cause}）")

    def mark_votes(self, name: str, player: str, day: int | None) -> None:
        """A hidden (or public) modifier of the ruleset's voting on ``player`` for ``day``: the
        next tally counts it once the settlement is confirmed."""
        self.result.vote_marks.append(VoteMark(name, player, day))

    def later(self, effect: str, player: str | None, when: str, clause: str = "") -> None:
        self.result.pending.append(Pending(effect, player, when, clause))

    def ask(self, key: str, question: str, options: Sequence[str]) -> str:
        """A choice the post leaves open: the director's answer if given, else a seeded pick.

        Never a silent guess: every question is listed in the result with what was taken and by whom.
        """
        opts = tuple(options)
        if not opts:
            raise ValueError(f"question {key!r} has no options")
        if key in self.decisions and self.decisions[key] in opts:
            taken, by = self.decisions[key], "director"
        else:
            taken, by = self._rng.choice(opts), "seed"
        self.result.questions.append(Question(key, question, opts, taken, by))
        self.note(f"待定：{question} → {taken}（{'导演指定' if by == 'director' else '随机，导演可改'}）")
        return taken

    def chance(self, key: str, question: str, probability: float) -> bool:
        """A yes/no left to chance (M160's 90% wrong information), seeded and overridable."""
        if key in self.decisions:
            yes = self.decisions[key] in ("是", "yes", "true", "1")
            by = "director"
        else:
            yes = self._rng.random() < probability
            by = "seed"
        self.result.questions.append(Question(key, question, ("是", "否"), "是" if yes else "否", by))
        return yes

    def win(self, winner: str, reason: str, clause: str, *, stop: bool = False) -> None:
        """Record the outcome; ``stop`` ends settlement here (the post's 立即终止结算).

        A game's rules decide a win through :func:`tracker.engine.night.win.check` (the ruleset's
        ``[[win]]``), which calls this; nothing else in the engine should."""
        if self.result.outcome is None:
            self.result.outcome = NightWin(winner, reason, clause)
            self.note(f"胜负：{winner}获胜（{reason}）")
        if stop:
            raise SettlementOver(winner)


def latest(actions: Iterable[Action], skill: str, phase: str | None = None) -> Action | None:
    """The effective submission of a skill (in ``phase`` when given): the last legal one, since a
    resubmission replaces the earlier one."""
    found = [a for a in actions if a.skill == skill and (phase is None or a.phase == phase)]
    return found[-1] if found else None

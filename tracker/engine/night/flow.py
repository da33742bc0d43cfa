"""The generic engine: a night (or a day phase) settled from the night file alone.

The file's ``[[steps]]`` are the post's settlement order: each settles its skills' effective
submissions (the last one per player, or per team: "以最后一条私信为准") through their
:mod:`.effects`, tells what a step tells (女巫 is told the knife), resolves pending damage, or checks
the win. Skills with a ``trigger`` act when their holder goes out (猎人 开枪, 警长 警徽), right after
that exit and before the win check that follows it — "每次有人出局后立即判定胜负" with the hunter's
shot counted at the moment of the death that allows it. What no step lists is settled after the
steps in submission order, and damage still pending at the end is resolved then.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from typing import Any

from tracker.engine.night import effects, idle, lastnight, learn, locks, react, split, tonight, victims
from tracker.engine.night.board import Board
from tracker.engine.night.catalog import (
    Catalog,
    Effect,
    LastOf,
    Skill,
    Step,
    Tell,
    TellOne,
    TellPick,
    TellReveal,
    WhileAlive,
)
from tracker.engine.night.checks import holds, spent_with
from tracker.engine.night.effects import Pool, Use
from tracker.engine.night.exits import titles_at_random
from tracker.engine.night.flips import member
from tracker.engine.night.gains import lost_by_mark
from tracker.engine.night.model import NO_SEAT, Action, Seat, Table
from tracker.engine.night.sides import counts_in, dealt_by
from tracker.engine.night.win import check
from tracker.errors import RulesetError


def refuse(table: Table, action: Action, skill: Skill, legal: Sequence[Action], catalog: Catalog) -> str | None:
    """The generic engine's own refusals, from data: a team skill nobody alive holds (所有狼人死亡则
    夜里无刀), a named team member who does not hold it, two skills the post forbids together."""
    return refuse_team(table, action, skill) or refuse_together(table, action, skill, legal)


def refuse_team(table: Table, action: Action, skill: Skill) -> str | None:
    """A team skill nobody alive holds, or a named member who does not hold it (unless the game's hooks
    name the skill in ``holders``: 213's 接刀, whose ``refuse`` hook says who holds it). The director's and the day
    vote's acts (a team of :data:`NO_SEAT`: 红牌, 投票) are no player's: nobody needs to hold them."""
    if skill.team is not None and skill.roles and skill.team not in NO_SEAT:
        if not any(p.alive and holds(p, skill) for p in table.players.values()):
            return f"{'、'.join(skill.roles)}已全部出局，没有人能发动<{skill.name}>"
        for m in action.members:
            seat = table.players.get(m)
            if seat is not None and not holds(seat, skill):
                return f"{m}（{seat.role}）不是{skill.team}的成员，不能发动<{skill.name}>"
    return None


def refuse_together(table: Table, action: Action, skill: Skill, legal: Sequence[Action]) -> str | None:
    """``not_with``: a skill the same player already used this phase (同一晚不能同时使用解药和毒药)."""
    if skill.not_with and action.members:
        me = action.members[0]
        for earlier in legal:
            if earlier.members[:1] == (me,) and earlier.skill in skill.not_with:
                return f"<{earlier.skill}>与<{skill.name}>不能在同一{('晚' if table.night is not None else '天')}使用（已提交<{earlier.skill}>）"
    return None


def _phase(board: Board) -> str:
    if board.night is not None:
        return "night"
    return {None: "day", "白天": "day"}.get(board.table.phase, board.table.phase or "day")


def applies(step: Step, board: Board) -> bool:
    """Whether ``step`` belongs to the phase the board settles (a game's hook step may ask it too)."""
    return step.runs(board.night, _phase(board))


#: A small count as the posts write it (每晚仅限发动一次).
_TIMES = {1: "一", 2: "两", 3: "三"}


def last_use(board: Board, action: Action) -> dict[str, Any]:
    """What ``cooldown_key`` holds after a use: its target and the night (or day) it was used."""
    when: dict[str, Any] = {"night": board.night} if board.night is not None else {"day": board.table.day}
    return {"target": action.targets[0], **when} if action.targets else when


def counted(board: Board, factions: Sequence[str]) -> int:
    """Living players who count in one of ``factions``: their own, or one their role's ``also_factions``
    names in the ruleset (107 "夜行怪在结算时同时计入亡灵阵营与守夜人所属阵营")."""
    return sum(1 for seat in board.living() if counts_in(board, seat, factions))


def _key(action: Action, skill: Skill) -> str:
    """Whose submission replaces whose: a team's skill is one per team, whichever member sends it; a
    ``mark`` by ``tags`` one per tag its ``choice`` names (213 警长、牧首竞选: each poll's last result)."""
    key = skill.team or action.team or "+".join(action.members)
    if any(e.kind == "mark" and e.tags for e in skill.effects):
        return f"{key}·{(action.choice or '').strip()}"
    return key


class Flow:
    """One settlement by the generic engine; :func:`run` is its only caller."""

    def __init__(self, board: Board, actions: Sequence[Action]) -> None:
        self.board = board
        self.catalog = board.catalog
        self.actions = [replace(a, index=i) for i, a in enumerate(actions)]
        board.refused = set()  # the indices are the flow's from here: what it refuses (``starts_game``)
        self.pool = Pool()
        self.done: set[int] = set()
        self.clashes = self.catalog.clashes
        #: What a game's hook steps hand on to its later steps within this settlement (the board's).
        self.game: dict[str, Any] = board.game
        #: Submissions whose use a game's hook said is not counted (M65 时间回溯 "次日该技能可以额外使用一次……不计入该
        #: 技能原本的使用次数"): settled here, no use spent.
        self.uncounted: set[int] = set()
        #: Submissions taken so far this phase per skill with ``per_phase`` (偷袭 每晚仅限发动一次).
        self.taken: dict[str, int] = {}
        #: This phase's place of each skill in the post's order (the first step listing it), and the place
        #: of the step being walked: what was settled before a step (``learn``'s ``chosen_before``).
        self.place_of: dict[str, int] = {}
        self.at = 0
        #: ``learn`` uses waiting for their skill's ``feedback`` step (ask = role_if_dies): what :mod:`.learn` keeps.
        self.waiting: list[learn.Waiting] = []
        #: Each player's role as the phase begins: ``originals_first`` tells the holders by role from those
        #: who gained a skill in play.
        self.roles_at_start = {s.name: s.role for s in board.table.players.values()}
        #: Who is in the game as the phase begins, and who the day's exits it settles took out (``on = "idle"``).
        self.at_start = [s.name for s in board.living()]
        self.day_exits: set[str] = set()
        #: Submissions answering a cast (``reacts``: 反弹, a new target), kept for the casts they answer
        #: (:mod:`.react`), never settled as uses of their skill.
        self.answers = [a for a in self.actions if react.is_answer(self.catalog.skill(a.skill), a)]
        self.done.update(a.index for a in self.answers)
        #: A redirect's ``substitute`` submissions (107 诡辩替代) are its answers, read by :func:`.tonight.targets`.
        subs = {e.substitute for s in self.catalog.skills.values() for e in s.effects if e.kind == "redirect"}
        self.done.update(a.index for a in self.actions if a.skill in subs)
        self.reacting = bool(react.reacting(self.catalog))
        #: Skills another's ``locks`` names: asked at their step whether a holder of that one can use it (M160 凶杀).
        self.lockable = frozenset(n for s in self.catalog.skills.values() for n in s.locks)
        #: Exit triggers waiting for a step their ``at`` names (107 传承 at (14)/(20)): (player, cause, skill).
        self.deferred: list[tuple[str, str, Skill]] = []
        #: Submissions a game's hook step hands to a later data step (:meth:`hand_over`), settled by that step.
        self.proxies: list[Action] = []
        #: The ``n`` of the step being walked ("" between steps).
        self.step_n = ""
        #: Effects waiting for a step their ``settles_at`` names (M19 空救 at (6)): (the step numbers, the use, the
        #: effect, the targets it landed on, how it takes a player out).
        self.later: list[tuple[tuple[str, ...], Use, Effect, tuple[str, ...], effects.Out]] = []
        #: A ``counter``'s record is shown in the state after at its ``settles_at`` step every phase (M19 空救 at (6)).
        self.shown_at: dict[str, list[str]] = {}
        for e in (e for s in self.catalog.skills.values() for e in s.effects if e.kind == "counter" and e.state):
            for at in e.settles_at:
                self.shown_at.setdefault(at, []).append(e.state or "")
        #: 立即 triggers (``at = "now"``: M19 殉情) act inside the exit itself, the board's first listener.
        self.at_once = tuple(s for s in self.catalog.skills.values() if s.trigger is not None and s.trigger.at == "now"
                             and s.trigger.on == "exit")
        #: ``on = "chosen_exit"``: skills acting when the player their holder chose goes out (M19 遇难), inside that exit.
        self.chosen_exits = tuple(s for s in self.catalog.skills.values()
                                  if s.trigger is not None and s.trigger.on == "chosen_exit")
        if self.at_once:
            board.on_death.append(self._at_once)
        if self.chosen_exits:  # after the player's own 立即 triggers ("每次出局后依次结算殉情、遇难→遗志……")
            board.on_death.append(self.chosen)
        if lastnight.skills(board):  # then the bond's survivor who lives on (M19 忠犬 "当主人出局时")
            board.on_death.append(lastnight.begin)
        #: The red cards that take players out (``send_off``), by name and alias: a carded holder's titles pass inside the exit.
        self.cards = {n: s for s in self.catalog.skills.values()
                      if any(e.kind == "send_off" and e.titles_at_random for e in s.effects) for n in (s.name, *s.aliases)}
        if self.cards:
            board.closing_death.append(self._carded)

    # -- exits and what they set off ---------------------------------------------------------------
    def out(self, player: str, cause: str, day: int | None = None, life: str | None = None) -> None:
        """Take a player out now; his triggers and the win check run in :meth:`after_exits`. ``day``: the
        exit belongs to that day (a day skill settled in the night that follows it). ``life``: a kill's
        ``life`` (M160 死亡): the state he takes and the field that records it, also in ``state_after``."""
        b = self.board
        if day is not None:
            self.day_exits.add(player)
        field = life or "出局"
        before = b.seat(player).fields.get(field)
        if b.kill(player, cause, life=life):
            if b.seat(player).fields.get(field) is not before:  # a game's exit listener recorded it in its own words
                return  # (M19: the day's exits as the scenario vocabulary says them, 投票 / 红牌)
            when = {"day": day} if day is not None else ({"night": b.night} if b.night is not None else {"day": b.table.day})
            record = {**{k: v for k, v in when.items() if v is not None}, "cause": cause}
            b.seat(player).fields[field] = record
            if life is not None:  # the player field the game's later phases read (M160's scenario 死亡)
                b.result.state_after[f"{player}.{field}"] = record

    def after_exits(self) -> None:
        """Each exit so far's triggers in turn (a shot's victim's own triggers follow), then one win
        check at the point ``exit``: the exits and what they set off are one moment (猎人开枪带走最后一名
        狼人的同时最后一名神职也出局). The exits are the board's, so an exit a game's hook step settles
        (``board.kill``) sets off the same data triggers as an effect's; a hook calls this itself where
        its post settles what an exit sets off at once (立即), before its next step."""
        queue = self.board.exits
        if not queue:
            return
        while queue:
            player, cause = queue.pop(0)
            self.triggers(player, cause)
        check(self.board, "exit")

    def _trigger_skills(self, player: str) -> list[Skill]:
        """The skills acting at ``player``'s exit (a ``next_point`` trigger waits for its point)."""
        seat = self.board.seat(player)
        return [s for s in self.catalog.skills.values()
                if s.trigger is not None and s.trigger.at_exit and holds(seat, s)]

    def _carded(self, board: Board, seat: Seat, cause: str) -> None:
        """A red card's exit (``send_off``): his titles that the ruleset's ``[[tags]]`` passes at random (``on_red``),
        inside the exit, last of what it sets off at once and before its win check (M19 "红牌罚下的警长警徽随机移交";
        "每次出局后依次结算殉情、遇难→遗志、激励、设计重选、殉职")."""
        if cause.split("（", 1)[0] in self.cards:
            titles_at_random(board, seat.name)

    def _at_once(self, board: Board, seat: Seat, cause: str) -> None:
        """The exit's 立即 triggers (``at = "now"``), inside the exit: their effects now, so a player they take out
        goes out in the same moment, before the rest of what the exit sets off (M19 "每次出局后依次结算殉情、
        遇难→遗志……"; "情侣中若有一人出局，另一人立即出局"). Nobody submits them (``forced``), or the holder's last
        submission acts, else he is asked (``asks``: M19 遗志 "当遇难发动导致人质出局时，人质可以选择一名角色")."""
        for skill in self.at_once:
            if not holds(seat, skill):
                continue
            if skill.trigger is not None and not skill.trigger.forced:  # a cause it forbids refuses his submission
                self.trigger(skill, seat.name, cause)
                continue
            if self._forbids(skill, cause):
                continue
            if tonight.voiding(board, self.pool, skill, (seat.name,)) is not None:  # 213 净化 "[强制]技能也会失效"
                continue
            use = Use(f"{seat.name}出局后", Action(actor=seat.name, skill=skill.name, index=-1), skill, seat.name)
            for e in skill.effects:
                effects.apply(board, self.pool, use, e, None, self.out)

    def chosen(self, board: Board, seat: Seat, cause: str) -> None:
        """``on = "chosen_exit"``: each living holder whose ``keeps`` field names the player out, holding the skill with
        its uses not spent or lost, acts by itself inside the exit, unless the cause is one its ``unless`` names (M19
        遇难<强制> "当英雄因为非红牌罚下原因出局，人质也随之出局"; a 人质 who lost <遇难> by 逃脱 does not)."""
        for skill in self.chosen_exits:
            assert skill.trigger is not None and skill.trigger.keeps is not None
            for holder in [p for p in board.table.players.values()
                           if p.alive and p.fields.get(skill.trigger.keeps) == seat.name and holds(p, skill)]:
                if self._forbids(skill, cause):
                    continue
                left = holder.uses.get(skill.uses or skill.name)
                by = lost_by_mark(board, holder, skill.uses or skill.name)
                if (by is not None or left is False or spent_with(holder, skill)
                        or (isinstance(left, int) and not isinstance(left, bool) and left <= 0)):
                    board.note(f"{by or ''}{'：' if by else ''}{holder.name}已失去<{skill.name}>，"
                               f"{skill.trigger.keeps}{seat.name}出局不发动")
                    continue
                use = Use(f"{seat.name}出局后", Action(actor=holder.name, skill=skill.name, targets=(seat.name,),
                                                       index=-1), skill, holder.name)
                for e in skill.effects:
                    effects.apply(board, self.pool, use, e, None, self.out)
                if skill.trigger.shown is not None:  # M19 设计 "目标{chosen}已出局，可以重新选择"
                    board.result.state_after[f"{holder.name}.{skill.uses or skill.name}"] = \
                        skill.trigger.shown.format(chosen=seat.name)

    def keep(self, action: Action, skill: Skill, step: str) -> None:
        """A ``chosen_exit`` skill's submission: the player it names kept in its holder's ``keeps`` field (and the state
        after), its only effect now (M19 遇难 "游戏开始前选择一名角色成为英雄")."""
        assert skill.trigger is not None and skill.trigger.keeps is not None
        b, field = self.board, skill.trigger.keeps
        for m in action.members:
            old = b.seat(m).fields.get(field)
            if skill.trigger.anew and action.phase != "setup" and isinstance(old, str) and b.has(old) \
                    and b.seat(old).alive:  # M19 设计 "当目标因任何原因出局时，可以重新选择目标"
                b.reject(action, f"{field}{old}仍存活，不能重新选择", skill.trigger.clause or skill.clause)
                return
            b.seat(m).fields[field] = action.targets[0]
            b.result.state_after[f"{m}.{field}"] = action.targets[0]
            was = f"（原{field}{old}已出局）" if isinstance(old, str) and action.phase != "setup" else ""
            b.note(f"{step} {m}<{skill.name}>：选择{action.targets[0]}成为{field}{was}")

    def triggers(self, player: str, cause: str | None) -> None:
        """What ``player``'s exit sets off: first the submissions naming him (``target_exit``: 107 权术), then — read
        after those acted, so a relic 权术 took no longer sets off 馈赠 — his own and his marks' triggers; each waits for
        its ``at`` step (107 传承 "（14）……（20）……") when it has one."""
        for skill in self._aimed_at(player):
            self._set_off(skill, player, cause)
        for skill in self._trigger_skills(player):
            self._set_off(skill, player, cause)

    def _set_off(self, skill: Skill, player: str, cause: str | None) -> None:
        assert skill.trigger is not None
        if skill.trigger.steps and cause is not None and self.step_n not in skill.trigger.steps:
            self.deferred.append((player, cause, skill))
        else:
            self.trigger(skill, player, cause)

    def trigger(self, skill: Skill, player: str, cause: str | None, label: str | None = None) -> None:
        """``skill``'s trigger on ``player``'s exit by ``cause``, its submission settled with ``label`` (default:
        the exit's own words)."""
        assert skill.trigger is not None
        if skill.trigger.on == "target_exit":
            self._target_out(skill, player, cause, label)
            return
        if skill.tag is not None and not holds(self.board.seat(player), skill):  # 107 馈赠: 权术 took the relic first
            self.board.note(f"{label or player + '出局后'} {player}已不持有[{skill.tag}]，<{skill.name}>不发动")
            return
        mine = [a for a in self.actions if a.skill == skill.name and a.index not in self.done
                and a.members[:1] == (player,)]
        if cause is not None and skill.trigger.tells is not None and not self._forbids(skill, cause):
            self.board.tell(player, skill.trigger.tells.format(living="、".join(p.name for p in self.board.living())))
        if not mine:
            if skill.trigger.forced:  # 强制: nobody submits it; it acts by itself at the exit
                if cause is not None and not self._forbids(skill, cause):
                    self.settle(Action(actor=player, skill=skill.name, index=-1), label or f"{player}出局后")
                return
            if skill.trigger.missing is not None and cause is not None:
                self.board.note(f"{player}出局后未提交<{skill.name}>：视为{skill.trigger.missing}（{skill.trigger.clause}）")
                self.settle(Action(actor=player, skill=skill.name, choice=skill.trigger.missing, index=-1),
                            label or f"{player}出局")
            elif skill.trigger.asks is not None and cause is not None and not self._forbids(skill, cause):
                self.board.note(f"{player}出局后未提交<{skill.name}>：等待提交（{skill.trigger.clause or skill.clause}）")
                self.board.later(skill.trigger.asks, player, "出局后", skill.trigger.clause or skill.clause)
                if skill.trigger.tells is None:  # told the list with ``tells`` already
                    self.board.tell(player, skill.trigger.asks)
            return
        for a in mine[:-1]:
            self.done.add(a.index)
            self.board.note(f"{player}<{skill.name}>：以最后一次提交为准，此前的提交不结算")
        self.fire(mine[-1], skill, cause, label)

    def _aimed_at(self, player: str) -> list[Skill]:
        """The ``target_exit`` skills with a submission naming ``player`` still unsettled, in the file's order."""
        named = {a.skill for a in self.actions if a.index not in self.done and player in a.targets}
        return [s for s in self.catalog.skills.values()
                if s.name in named and s.trigger is not None and s.trigger.on == "target_exit"]

    def _target_out(self, skill: Skill, player: str, cause: str | None, label: str | None) -> None:
        """``on = "target_exit"``: each unsettled submission of ``skill`` naming ``player``, now out, acts on him, in
        submission order, while its user is still in (107 权术 "贵族的投票或流言对象出局时……贵族可选择获得")."""
        b, step = self.board, label or f"{player}出局后"
        for a in [x for x in self.actions if x.skill == skill.name and x.index not in self.done and player in x.targets]:
            user = a.members[0] if a.members else a.actor
            if b.has(user) and not b.seat(user).alive:
                self.done.add(a.index)
                b.note(f"{step} {user}已出局，<{skill.name}>不发动（{player}出局）")
            elif cause is not None and self._forbids(skill, cause):
                self.done.add(a.index)
                b.note(f"{step} {player}因<{cause}>出局，<{skill.name}>不发动")
            else:
                self.settle(replace(a, targets=(player,)), step)

    def fire(self, action: Action, skill: Skill, cause: str | None, label: str | None = None) -> None:
        assert skill.trigger is not None
        self.done.add(action.index)
        if cause is None and skill.trigger.only:  # out before this phase, the cause not recorded
            only = "、".join(f"<{c}>" for c in skill.trigger.only)
            self.board.reject(action, f"<{skill.name}>只在因{only}出局时发动", skill.trigger.clause or skill.clause)
            return
        if cause is not None and self._forbids(skill, cause):
            self.board.reject(action, f"因<{cause}>出局，不能发动<{skill.name}>", skill.trigger.clause or skill.clause)
            return
        self.settle(action, label or f"{action.actor}出局后")

    def _forbids(self, skill: Skill, cause: str) -> bool:
        """The trigger's ``unless`` names this cause of exit, or its ``only`` does not (by a skill's name or
        alias; a cause written with its detail, 牺牲（P05主动出局）, is its name's)."""
        assert skill.trigger is not None
        names = {n for u in skill.trigger.unless for n in (u, *self._aliases(u))}
        if cause in names or cause.split("（", 1)[0] in names:
            return True
        allowed = {n for u in skill.trigger.only for n in (u, *self._aliases(u))}
        if allowed and cause not in allowed and cause.split("（", 1)[0] not in allowed:
            return True
        if not skill.trigger.by_factions:
            return False
        also = {n for u in skill.trigger.or_causes for n in (u, *self._aliases(u))}
        if any(part in also or part.split("（", 1)[0] in also for part in cause.split("；")):
            return False  # 213 村镇之殇 "因投票或……": the vote, whoever cast it
        return not dealt_by(self.board, cause, skill.trigger.by_factions, skill, self._members)

    def _members(self, skill: str, team: str) -> tuple[str, ...] | None:
        """The members of ``team``'s last submission of ``skill`` in this settlement not refused (who dealt a team's
        cause: 213's 接刀 隐狼 alone, or the pack), or None."""
        found = [a for a in self.actions if a.skill == skill and a.team == team and a.index not in self.board.refused]
        return found[-1].members if found else None

    def at_step(self, n: str, label: str) -> None:
        """The exit triggers waiting for step ``n`` (``at``), in the order of the exits ("" : all that are left,
        at the phase's end); what they set off follows each."""
        due = [d for d in self.deferred if not n or n in d[2].trigger.steps] if self.deferred else []  # type: ignore[union-attr]
        for d in due:
            self.deferred.remove(d)
            self.trigger(d[2], d[0], d[1], label or None)
            self.after_exits()
        self.settle_later(n, label)

    def settle_later(self, n: str, label: str) -> None:
        """The effects waiting for step ``n`` (``settles_at``; "": all that are left, at the phase's end), in the order
        their submissions were settled, each on the targets it landed on; what their exits set off follows each."""
        for item in [x for x in self.later if not n or n in x[0]]:
            self.later.remove(item)
            _, use, e, targets, out = item
            use = replace(use, step=label or use.step)
            for t in targets or (None,):
                effects.apply(self.board, self.pool, use, e, t, out)
            self.after_exits()
        for key in self.shown_at.get(n, ()) if n else ():  # the counts as they stand, counted tonight or not
            self.board.set_state(key, dict(self.board.state.get(key) or {}))

    # -- the next point skills can be used after an exit (trigger at = "next_point") ---------------
    def point(self, step: str, skill: Skill, actions: Sequence[Action] | None = None, *,
              follows_night: bool = False, pending: str | None = None) -> None:
        """The point a ``next_point`` trigger acts at (213 "出局后的下一个可发动技能的时点"): the holders who
        went out just before it act on their last submission (``actions``: those the calling hook step kept;
        none given: this settlement's unsettled ones); anyone else's is refused. A skill with a ``tag`` is
        held by its bearer, whatever the ``roles`` (213 殉职: the 警长 of any role). ``follows_night``: the point
        after a night (213 晨曦), so a settlement beginning here reads exits of the night before, else of the
        same day. ``pending``: the point is not reached in this settlement (a night confirmed before its 晨曦
        is submitted): the holders wait for it, a pending entry each, ``pending`` saying when."""
        b = self.board
        assert skill.trigger is not None
        subs = [a for a in (self.actions if actions is None else actions)
                if a.skill == skill.name and (actions is not None or a.index not in self.done)]
        taken: set[int] = set()
        for seat in list(b.table.players.values()):
            held = skill.tag in seat.tags if skill.tag is not None else holds(seat, skill)  # a title's: its bearer
            cause = None if seat.alive or not held else self._just_out(seat, follows_night, here=pending is None)
            if cause is None:
                continue
            mine = [a for a in subs if a.members[:1] == (seat.name,)]
            taken.update(a.index for a in mine)
            if pending is not None:
                self.done.update(a.index for a in mine)
                b.later(skill.name, seat.name, pending, skill.clause)
                b.note(f"{step} {seat.name}<{skill.name}>：尚未到出局后的下一个可发动技能的时点，待{pending}结算")
                continue
            self._at_point(seat, skill, mine, cause, step)
        for a in subs:
            if a.index not in taken:
                self.done.add(a.index)
                who = skill.tag or f"<{skill.name}>持有者"
                b.reject(a, f"{a.actor}不是刚出局的{who}", skill.clause)

    def points(self, step: str, actions: Sequence[Action] | None = None, *, follows_night: bool = False,
               pending: str | None = None) -> None:
        """Every ``next_point`` trigger at a point a game's hook step settles in its own code (213 晨曦(3),
        黄昏(4)): :meth:`point` for each, in the night file's order."""
        for skill in self.catalog.skills.values():
            if skill.trigger is not None and skill.trigger.at == "next_point":
                self.point(step, skill, actions, follows_night=follows_night, pending=pending)

    def _just_out(self, seat: Seat, follows_night: bool, *, here: bool = True) -> str | None:
        """The cause ``seat`` went out of just before this point (this settlement, or the phase before a
        settlement that begins here, by his ``出局`` field), or None: his point is not now. ``here``: the
        point is in this settlement (else only its own exits wait for it)."""
        b = self.board
        found = next((d.cause for d in b.result.deaths if d.player == seat.name), None)
        if found is not None or not here:
            return found
        when = seat.fields.get("出局")
        if b.night is not None or b.table.day is None or not isinstance(when, dict):
            return None
        key, at = ("night", self.catalog.night_before(b.table.day)) if follows_night else ("day", b.table.day)
        return str(when.get("cause") or "") if when.get(key) == at else None

    def _at_point(self, seat: Seat, skill: Skill, mine: Sequence[Action], cause: str, step: str) -> None:
        """One holder at his point: his last submission, or ``missing`` when he has none, is forbidden
        (``unless``) or is refused; ``tells`` first, unless he is forbidden."""
        b, trigger = self.board, skill.trigger
        assert trigger is not None
        for a in mine[:-1]:
            self.done.add(a.index)
            b.note(f"{seat.name}<{skill.name}>：以最后一次提交为准，此前的提交不结算")
        act = mine[-1] if mine else None
        forbidden = bool(cause) and self._forbids(skill, cause)
        if act is not None and forbidden:
            self.done.add(act.index)
            b.reject(act, f"因<{cause.split('（', 1)[0]}>出局，不能发动<{skill.name}>", trigger.clause or skill.clause)
            act = None
        if trigger.tells is not None and not forbidden:
            b.tell(seat.name, trigger.tells.format(living="、".join(p.name for p in b.living()) or "无"))
        if act is not None and (act.targets or act.choice):
            before = len(b.result.rejected)
            self.settle(act, step)
            if len(b.result.rejected) == before:
                return
        elif act is not None:
            self.done.add(act.index)
        if trigger.missing is not None:
            b.note(f"{step} {seat.name}未选择<{skill.name}>：视为{trigger.missing}（{trigger.clause or skill.clause}）")
            self.settle(Action(actor=seat.name, skill=skill.name, choice=trigger.missing, index=-1), step)
        elif trigger.asks is not None and not forbidden:
            b.later(trigger.asks, seat.name, "出局后", trigger.clause or skill.clause)
            b.tell(seat.name, trigger.asks)

    def _aliases(self, name: str) -> tuple[str, ...]:
        found = self.catalog.skills.get(name)
        return found.aliases if found is not None else ()

    def hand_over(self, action: Action) -> None:
        """A submission a game's hook step makes for a player, for the data step listing its skill to settle (M160
        附体: the 恶魔 submits the skills of the role he believes, and "你选择的玩家" are his 凶杀's): its targets are
        already as the redirects left them, no use is spent, and it is no submission of his that other skills read."""
        index = -(10**6) + len(self.proxies)  # below every submission, in the order handed over
        self.proxies.append(replace(action, index=index))
        self.pool.substituted[index] = tuple(action.targets)

    def targets(self, action: Action) -> tuple[str, ...]:
        """A submission's targets once the redirects before its step have had their say (decided once)."""
        return tonight.targets(self.board, self.pool, action, self.actions)

    # -- one submission ---------------------------------------------------------------------------
    def settle(self, action: Action, step: str) -> None:
        b, skill = self.board, self.catalog.skill(action.skill)
        self.done.add(action.index)
        actor = action.team or (action.members[0] if action.members else action.actor)
        lock = locks.locked(b, self.pool, skill.name) if skill.name in self.lockable else None
        if lock is not None:  # M160 "当你能发动此技能时，【恶魔】的【凶杀】技能不能发动": before anything is asked
            b.note(f"{step} {actor}<{skill.name}>：{lock[0]}能发动<{lock[1].name}> → <{skill.name}>不能发动")
            return
        if self.over_limit(action, skill):
            return
        chosen = action  # what the player chose: no_repeat reads it
        if action.targets:  # a redirect (抗议) before this step may replace a target; decided once, here
            action = replace(action, targets=tonight.targets(b, self.pool, action, self.actions))
        blocked = None if self.cast_in_day(action, skill) else next(
            (m for m in action.members if self.pool.blocks(m, skill.name, skill.kind)), None)
        if blocked is not None:
            if blocked in self.pool.spending:  # ``spends``: still 发动 (107 牵制 "当晚发动的……技能无效")
                self._spend(action, skill)
                self._last_use(skill, chosen)
                by = self.pool.blockers.get(blocked, ("封锁", ""))[0]
                b.note(f"{step} {action.actor}<{skill.name}>{'、'.join(action.targets)}：无效（{by}；仍算发动）")
            refusal = self.pool.refusal(blocked, skill.name)  # the post's own reason (``refuses``), else the blocker
            if refusal is not None:
                b.reject(action, *refusal)
            else:
                b.note(f"{step} {actor}<{skill.name}>被封锁，无效")
            return
        if (self.catalog.out_do_not_act and action.members and skill.trigger is None and not skill.actor_may_be_dead
                and not any(b.seat(m).alive for m in action.members)):
            b.note(f"{step} {action.actor}已出局，<{skill.name}>不再发动")
            return
        if (b.hooks is not None and b.hooks.void is not None and not self.cast_in_day(action, skill)
                and b.hooks.void(self, action, step)):
            return
        use = Use(step, action, skill, actor)
        why = effects.refused(b, self.pool, use)
        if why is not None:
            b.reject(action, why, skill.clause)
            return
        if skill.trigger is not None and skill.trigger.on == "chosen_exit":  # the choice kept; its effects act later
            self.keep(action, skill, step)
            return
        self._spend(action, skill)
        void = tonight.voiding(b, self.pool, skill, action.members)
        if void is not None:  # used, to no effect ("一次性技能如果被触发则被消耗")
            b.note(f"{step} {actor}<{skill.name}>：{void[0]}{void[1]}，技能无效")
            if skill.voided_told is not None:
                b.tell(void[0], skill.voided_told)
            self._last_use(skill, chosen)
            return
        targets = self.aimed(use)
        # every settled use's targets (``every_submission``: two strikes are two), each player once
        self.pool.targets[skill.name] = tuple(dict.fromkeys((*self.pool.targets.get(skill.name, ()), *targets)))
        if skill.once_per_target and action.targets:  # "被选择": the players chosen, wherever it lands
            taken = [str(x) for x in b.state.get(skill.once_per_target) or []]
            b.set_state(skill.once_per_target, [*taken, *(t for t in chosen.targets if t not in taken)])
        if not action.targets and not any(e.kind in ("mark", "announce", "ready", "choose", "extra", "concede") or e.to == "actor" or e.exits
                                          for e in skill.effects):
            b.note(f"{step} {actor}<{skill.name}>：不选择目标")
        if action.targets and not targets:  # the game's hook said the effects take on nobody (M19 警觉)
            for e in skill.effects:  # what the post tells the user on a use, told whether it took or not (M65 已执行)
                if e.kind == "tell" and e.together:  # told of the players it took hold on: none
                    effects.tell_together(b, use, e, ())
                elif e.kind == "tell":
                    effects.tell_user(b, use, e, action.targets[0])
            self._last_use(skill, chosen)
            return
        out: effects.Out = self.out
        day = None
        if skill.phase == "day" and b.night is not None:  # the day's exit settled before the night (M65 白天的出局)
            day = self.catalog.day_before(b.night)
            out = partial(self.out, day=day)
        counted: dict[LastOf, tuple[str, ...]] = {}
        took: set[str | None] = set()  # the targets an effect took hold on: ``unless_before`` (the post's 否则) skips them
        riding = self.riders(use, targets)
        instead = self.instead(riding)  # M160 毒害 "改为": the use's own lethal effects skip these targets
        for e in skill.effects:
            if not effects.chosen(e, action):  # 107 探查 "选择以下效果之一"
                continue
            if e.by != "any" and self.original(action, skill) != (e.by == "holders"):  # M65 技能掠夺所得
                continue
            if not effects.last_holds(b, e, action, step, counted):  # 107 腐化 "若其是当前亡灵阵营最后一名存活角色"
                continue
            if e.kind == "learn":  # one answer for the whole submission
                learn.apply(self, use, e, targets)
                continue
            if e.kind == "status" and e.split:  # one sharing for the whole submission (M160 药剂)
                split.apply(b, self.pool, use, e, targets, out)
                continue
            if e.kind == "tell" and e.together:  # told once, of every player it took hold on
                effects.tell_together(b, use, e, targets)
                continue
            kill = partial(self.out, day=day, life=e.life) if e.kind == "kill" and e.life is not None else out
            if e.settles_at:  # M19 空救 "若该角色没有成为指杀目标": asked once the strikes of (6) are settled
                self.later.append((e.settles_at, use, e, targets, kill))
                continue
            for t in (None,) if e.to == "others" else (targets or (None,)):  # others: once for the submission
                if e.to == "chosen_by_target":  # one of the players the target chose (M160 唆使)
                    t = self.chosen_by_target(use, e, t)
                    if t is None:
                        continue
                if e.unless_before and t in took:
                    continue
                if t in instead and e.kind in ("damage", "kill"):
                    continue
                if effects.takes_hold(b, self.pool, use, e, t):
                    took.add(t)
                effects.apply(b, self.pool, use, e, t, kill)
        self.ride(use, riding)
        self._last_use(skill, chosen)
        if skill.trigger is not None and skill.trigger.at != "now":  # a shot is an exit of its own: what it sets off,
            self.after_exits()  # then the win check (立即: inside an exit, which goes on after it)

    def chosen_by_target(self, use: Use, effect: Effect, target: str | None) -> str | None:
        """``to = "chosen_by_target"``: one of the living players ``target`` chose by his other submissions this phase
        (after the redirects), first choice first — the director's pick when there are several; None when none
        (M160 唆使 "今晚被他选择的玩家中，会有一名玩家受到来源于你的【致死伤害】")."""
        b, name = self.board, use.skill.name
        if target is None:
            return None
        when = "今晚" if b.night is not None else "今天"
        chosen = list(dict.fromkeys(
            x for a in self.actions if a.index != use.action.index and a.members[:1] == (target,)
            for x in tonight.targets(b, self.pool, a, self.actions) if b.has(x) and b.seat(x).alive))
        if not chosen:
            b.note(f"{use.step} {use.actor}<{name}>：{target}{when}没有选择存活的玩家 → 无效果")
            return None
        what = "受到致死伤害" if effect.kind == "damage" else f"受到<{name}>"
        pick = chosen[0] if len(chosen) == 1 else b.ask(
            f"{name}.{use.actor}", f"<{name}>：{target}{when}选择的玩家中谁{what}", chosen)
        b.note(f"{use.step} {use.actor}<{name}>：{target}{when}选择了{'、'.join(chosen)} → {pick}")
        return pick

    def riders(self, use: Use, targets: tuple[str, ...]) -> list[tuple[Skill, list[str], bool]]:
        """``on_use``: the skills its user holds that act on this use, with its targets that are their ``when_target``
        (107 恩典 "若村民祝福对象为神启者时"), and whether a block of this phase voids them; one counted in ``uses``
        acts only while a use is left (M160 毒害 "第一次")."""
        b = self.board
        me = use.action.members[0] if use.action.members else None
        if me is None or not b.has(me):
            return []
        out: list[tuple[Skill, list[str], bool]] = []
        for rider in self.catalog.skills.values():
            on = rider.on_use
            if on is None or on.of != use.skill.name or not holds(b.seat(me), rider):
                continue
            hit = [t for t in targets if on.when_target is None or tonight.matches(b, self.pool, on.when_target, t)]
            if hit and rider.uses is not None and not effects.has_left(b.seat(me), rider):
                b.note(f"{use.step} {use.actor}<{rider.name}>：次数已用尽（已发动过），不再发动")
                continue
            out.append((rider, hit, bool(hit) and self.pool.blocks(me, rider.name, rider.kind)))
        return out

    @staticmethod
    def instead(riding: Sequence[tuple[Skill, list[str], bool]]) -> set[str]:
        """The targets an ``instead`` rider takes over: the use's own damage and kill do not take hold on them."""
        return {t for rider, hit, blocked in riding if not blocked and rider.on_use is not None
                and rider.on_use.instead is not None for t in hit}

    def ride(self, use: Use, riding: Sequence[tuple[Skill, list[str], bool]]) -> None:
        """The riders act once the use has taken effect, on their targets, right after its own effects; a block of
        this phase on the rider voids it as it voids any skill of his; an ``instead`` rider's target survives the use."""
        b = self.board
        me = use.action.members[0] if use.action.members else use.actor
        for rider, hit, blocked in riding:
            if blocked:
                b.note(f"{use.step} {use.actor}<{rider.name}>：被封锁，无效")
                continue
            if not hit:
                continue
            if rider.uses is not None:
                b.use(b.seat(me), rider)
            ride = Use(use.step, use.action, rider, use.actor)
            instead = rider.on_use.instead if rider.on_use is not None else None
            for t in hit:
                if instead is not None:
                    b.survive(t, instead.format(actor=use.actor, target=t))
                for e in rider.effects:
                    effects.apply(b, self.pool, ride, e, t, self.out)
            self._last_use(rider, replace(use.action, targets=tuple(hit)))

    def _spend(self, action: Action, skill: Skill) -> None:
        """A submission's use is spent (a cover's when it takes effect), unless a hook said it is not counted."""
        if (skill.uses is not None and action.members and action.index >= 0 and action.index not in self.uncounted
                and holds(self.board.seat(action.members[0]), skill)
                and not any(w in (action.choice or "") for w in skill.declined_by)  # 不夺刀: declined, nothing spent
                and not any(e.kind == "cover" for e in skill.effects)):
            # a skill lent by the game's ``grants`` (M65 技能掠夺) spends no use: the count is its holder's
            self.board.use(self.board.seat(action.members[0]), skill)

    def _last_use(self, skill: Skill, action: Action) -> None:
        """``no_repeat``: the target of this night's use, for the next night's refusal; ``cooldown_key``:
        when (and on whom) it was last used, which the cooldown counts from."""
        b = self.board
        if skill.no_repeat and skill.phase == "day":  # counted by game days (M65 飞行头槌): the day it was cast on
            day = b.table.day if b.night is None else self.catalog.day_before(b.night)
            b.set_state(skill.no_repeat, {"target": action.targets[0], "day": day} if action.targets else {"day": day})
        elif skill.no_repeat and b.night is not None:
            b.set_state(skill.no_repeat, last_use(b, action))
        if skill.cooldown_key is not None:
            b.set_state(skill.cooldown_key, last_use(b, action))

    def over_limit(self, action: Action, skill: Skill) -> bool:
        """``per_phase``: the submissions past the limit are refused, whoever sends them."""
        if skill.per_phase is None or action.index < 0:
            return False
        taken = self.taken.get(skill.name, 0)
        allowed, why, clause = self.allowance(skill, skill.per_phase)
        if taken >= allowed:
            when = "晚" if self.board.night is not None else "天"
            self.board.reject(action, f"<{skill.name}>每{when}仅限发动{_TIMES.get(allowed, str(allowed))}次{why}",
                              clause or skill.clause)
            return True
        self.taken[skill.name] = taken + 1
        return False

    def allowance(self, skill: Skill, limit: int) -> tuple[int, str, str]:
        """``per_phase`` raised by the ``extra`` effects naming it (107 集群 while enough 活尸 live, M19 激励 on its
        night): the limit, the count in the post's words, and the raising skill's clause."""
        why, clause = "", ""
        for other, e, held, alive in effects.more_uses(self.board, skill.name):
            limit += 1 if held else 0
            if e.while_alive is not None:
                more = e.while_alive
                why += (f"（<{other.name}>：存活的{'、'.join(more.roles)}{alive}名，"
                        f"{'不少于' if held else '少于'}{more.at_least}名）")
            elif held:
                why += f"（<{other.name}>：本夜可以再使用一次）"
            clause = other.clause if held or e.while_alive is not None else clause
        return limit, why, clause

    def aimed(self, use: Use) -> tuple[str, ...]:
        """The targets the effects land on: the submission's, or where the game's ``aim`` hook says."""
        aim = self.board.hooks.aim if self.board.hooks is not None else None
        if aim is None and self.reacting:  # the targets' own reactions (``reacts``) have their say
            return tuple(t for t in (react.land(self.board, use.actor, use.skill.name, x, self.answers,
                                                label=use.step, stopped=self._stopped)
                                     for x in use.action.targets) if t is not None)
        if aim is None:
            return use.action.targets
        return tuple(t for t in (aim(self.board, use, x) for x in use.action.targets) if t is not None)

    def _stopped(self, holder: str, skill: str, passive: bool) -> str | None:
        """A block of this phase on ``holder``'s ``skill`` (who blocked him), for his reactions."""
        if not self.pool.blocks(holder, skill, passive=passive):
            return None
        return self.pool.blockers.get(holder, ("封锁",))[0]

    def effective(self, name: str) -> list[Action]:
        """The submissions of a skill that count: the last per player, or per team (every one, in
        submission order, for a skill with ``every_submission``); the last two (or more) on a night an
        ``extra`` effect gave it one more use."""
        skill = self.catalog.skill(name)
        mine = [a for a in (*self.actions, *self.proxies) if a.skill == name and a.index not in self.done]
        if skill.every_submission:
            return mine
        keep = 1 + effects.extra_uses(self.board, name)  # M19 激励 "可以再使用一次<杀人>": the last two count
        last: dict[str, list[Action]] = {}
        for a in mine:
            kept = last.setdefault(_key(a, skill), [])
            if len(kept) == keep:
                dropped = kept.pop(0)
                self.done.add(dropped.index)
                self.board.note(f"{dropped.actor}<{name}>：以最后一次提交（{a.actor}）为准")
            kept.append(a)
        counted = [a for kept in last.values() for a in kept]
        if self.catalog.originals_first:  # 107 "学者拓印的技能在原版之后结算"
            return sorted(counted, key=lambda a: (not self.original(a, skill), a.index))
        return sorted(counted, key=lambda a: a.index)

    def sent(self, action: Action, when: str) -> bool:
        """A step's ``sent``: every submission of a day phase is the day's; at night, the day's are those sent
        in the day (a ``tonight`` skill's casts handed to the night)."""
        if when in ("setup", "in_play"):  # 游戏开始前, or any other phase
            return (action.phase == "setup") == (when == "setup")
        day = self.board.night is None or action.phase == "day"
        return when == "any" or day == (when == "day")

    def cast_in_day(self, action: Action, skill: Skill) -> bool:
        """A ``tonight`` skill's day submission settled at night: it was made in the day, before anything of
        this night — the night's blocks and the game's ``void`` do not meet it (M65 天璇紫后 cast before its
        caster was voted out still holds that night)."""
        return skill.tonight and action.phase == "day" and self.board.night is not None

    def original(self, action: Action, skill: Skill) -> bool:
        """Whether the submission's actor holds the skill by role as the phase began (or by tag), not
        by gaining it in play; a team's submission is its holders'."""
        if not action.members:
            return True
        seat = self.board.seat(action.members[0])
        return (self.roles_at_start.get(seat.name) in skill.roles
                or (skill.tag is not None and skill.tag in seat.tags))

    # -- the steps --------------------------------------------------------------------------------
    def tell(self, step: Step) -> None:
        assert step.tell is not None
        t, b = step.tell, self.board
        to = self.catalog.skill(t.to)
        n = step.n if "(" in step.n else f"({step.n})"
        told: list[str] = []
        picked: str | None = None
        holder = effects.tag_holder(b, t.holder_of) if t.holder_of is not None else None
        if t.holder_of is not None and holder is None:
            return
        if t.while_alive is not None and not self._enough(t.while_alive):
            b.note((t.lapsed or "{step} <" + to.name + ">失效").format(step=n))
            return
        if holder is not None and t.unless_team_holds is not None and member(b, b.seat(holder), to):
            b.note(t.unless_team_holds.format(step=n))
            return
        for seat in b.living():
            if not member(b, seat, to):
                continue
            left = seat.uses.get(to.uses or to.name, True)
            if t.while_uses and (left is False or (not isinstance(left, bool) and left <= 0)):
                b.note(f"{n} {seat.name}的<{to.name}>已用完，不再告知")
                continue
            if t.factions and not counts_in(b, seat, t.factions):  # 107 灾厄: only an 亡灵 holder is told
                continue
            silenced = [s for s in t.unless_status if s in seat.status]
            if silenced:
                b.note(f"{n} {seat.name}处于[{silenced[0]}]状态，<{to.name}>失效，不告知")
                continue
            if self.pool.blocks_told(seat.name, to.name, to.kind):  # "使其在当晚无法发动任何技能": a told skill too
                by = self.pool.blockers.get(seat.name, ("", ""))[0]
                b.note(f"{n} {seat.name}被{by}封锁，当晚没有<{to.name}>，不告知")
                continue
            if t.chosen_by and tonight.group(b, seat, seat.role) in t.chosen_by:  # one of them: he chose them
                continue
            told.append(seat.name)
            if t.one_of is not None:  # the holder tells no one himself: the players the director picks are told
                continue
            targets: tuple[str, ...] = ()
            if t.reveal is not None:
                picked = self._revealed(t.reveal, t.to, seat.name)
                if not picked:
                    continue
                text = t.text.format(picked=picked)
            elif t.pick is not None:
                picked = self._picked(t.pick, t.to) if picked is None else picked
                text = t.text.format(picked=picked)
            elif t.count:
                text = t.text.format(count=counted(b, t.count))
            elif t.going:  # the step's preview: who is about to go out (107 告死)
                targets = tuple(self.pool.going or ())
                text = t.text.format(targets="、".join(targets)) if targets else t.empty
            elif t.living:
                text = t.text.format(living="、".join(s.name for s in b.living()))
            elif holder is not None:
                targets = (holder,)
                text = t.text.format(targets=holder)
            elif t.about is not None:
                targets = tuple(dict.fromkeys(x for name in (t.about or "", *t.also)
                                              for x in self.pool.targets.get(name, ())))
                text = t.text.format(targets="、".join(targets)) if targets else t.empty
            elif t.chosen_by:
                targets = self._chosen_by(t, to, seat.name)
                text = t.text.format(targets="、".join(targets)) if targets else t.empty
            else:
                text = t.text
            b.tell(seat.name, text)
            if t.log is not None:
                b.note(t.log.format(step=n, holder=seat.name, targets="、".join(targets) if targets else "无",
                                    told=seat.name, picked=picked or "", day=self._next_day(), text=text))
            elif t.summary is None:
                b.note(f"{n} 告知{seat.name}（<{to.name}>）：{text}")
        if not told and t.untold is not None:
            b.note(t.untold.format(step=n))
        if t.one_of is not None:
            self._one_of(t, t.one_of, to, told, n)
        elif t.summary is not None and told:
            b.note(t.summary.format(step=n, told="、".join(told), picked=picked or "", targets=holder or ""))

    def _enough(self, w: WhileAlive) -> bool:
        """``while_alive``: at least ``at_least`` living players have one of ``roles``."""
        return sum(1 for p in self.board.living() if p.role in w.roles) >= w.at_least

    def _next_day(self) -> int | None:
        """The game day that follows the phase being settled (after night N: the day it opens)."""
        b = self.board
        if b.night is not None:
            return self.catalog.day_before(b.night) + 1
        return b.table.day + 1 if b.table.day is not None else None

    def _revealed(self, reveal: TellReveal, skill: str, holder: str) -> str:
        """``reveal``: the identities of ``count`` other living players, picked at random for ``holder``, one
        question each (M65 四眼预知); empty when nobody else lives."""
        b = self.board
        pool = [p.name for p in b.living() if p.name != holder]
        picks: list[str] = []
        for i in range(min(reveal.count, len(pool))):
            picks.append(b.ask(f"{skill}.{holder}.{i + 1}", reveal.question.format(holder=holder, i=i + 1, day=self._next_day()),
                               [p for p in pool if p not in picks]))
        return "；".join(reveal.each.format(player=p, role=b.seat(p).role) for p in picks)

    def _chosen_by(self, t: Tell, to: Skill, holder: str) -> tuple[str, ...]:
        """``chosen_by``: every player those of the groups chose this phase (after the redirects), in table and
        submission order; while the holder is ``distort``ed, with the chance, the director's ``wrong`` picks."""
        b = self.board
        groups = [p.name for p in b.table.players.values() if tonight.group(b, p, p.role) in t.chosen_by]
        chosen = tuple(dict.fromkeys(x for p in groups for a in self.actions if a.members[:1] == (p,)
                                     for x in tonight.targets(b, self.pool, a)))
        if t.wrong is None or learn.distorted(b, self.pool, to.name, t.distort, holder) is None:
            return chosen
        others = [p.name for p in b.living() if p.name not in chosen]
        picked: list[str] = []
        for i in range(1, t.wrong.picks + 1):
            left = [p for p in others if p not in picked]
            if left:
                picked.append(b.ask(f"{to.name}.错误.{i}", t.wrong.question, left))
        return tuple(picked)

    def _picked(self, pick: TellPick, skill: str) -> str:
        """``pick``: the director's (seeded) picks among the roles of ``groups`` that no player has, in
        the ruleset's order, one question each."""
        b = self.board
        present = {p.role for p in b.table.players.values()}
        roles = b.ruleset.roles if b.ruleset is not None else ()
        absent = [r.name for r in roles if r.group in pick.groups and r.name not in present]
        shown: list[str] = []
        for i in range(min(pick.count, len(absent))):
            shown.append(b.ask(f"{skill}.{i + 1}", pick.question.format(i=i + 1), [r for r in absent if r not in shown]))
        return "、".join(shown) if shown else "无"

    def _one_of(self, t: Tell, o: TellOne, to: Skill, holders: list[str], n: str) -> None:
        """``one_of``: the players the director picks for the living holders (one in all, or for ``each``)
        are told — never a holder (``not_holders``), never twice for the same holder (``once_each``)."""
        b = self.board
        record = dict(b.state.get(o.once_each) or {}) if o.once_each else {}
        barred = {p.name for p in b.table.players.values() if holds(p, to)} if o.not_holders else set()
        for h in holders if o.each else holders[:1]:
            used = [str(x) for x in record.get(h, [])]
            pool = [p.name for p in b.living()
                    if (not o.factions or p.faction in o.factions) and p.name not in barred and p.name not in used]
            if not pool:
                if o.once_each:
                    b.note((o.exhausted or "{step} {holder}<" + to.name + ">：没有可选的玩家").format(step=n, holder=h))
                continue
            believes = b.seat(h).fields.get("believes")
            for i in range(o.count_by_believed.get(believes, 1) if isinstance(believes, str) else 1):
                pool = [x for x in pool if x not in used]
                if not pool:
                    break
                who = b.ask(f"{t.to}.{h}.{i + 1}" if o.each else t.to, o.question, pool)
                used.append(who)
                b.tell(who, t.text)
                line = t.log or "{step} 告知{told}（<" + to.name + ">）：" + t.text
                b.note(line.format(step=n, holder=h, targets="无", told=who, picked=""))
            if o.once_each:
                record[h] = used
        if o.once_each and record:
            b.result.state_after[o.once_each] = record

    def hooked(self, step: Step, n: str) -> None:
        """A step the game's code settles: its listed skills' submissions go to the hook (which decides
        which of them count), and are settled."""
        assert step.hook is not None
        hooks = self.board.hooks
        hook = hooks.steps.get(step.hook) if hooks is not None else None
        if hook is None:
            raise RulesetError(f"规则 {self.catalog.ruleset} 的结算步骤 {n}{step.hook} 只能由钩子模块结算",
                               hint="从内置规则复制的规则保留它的 id 才用它的钩子（`tracker ruleset check` 指出是哪一个）；"
                                    "否则步骤只能用 skills / tell / resolve 写")
        names = {self.catalog.skill(n).name for n in step.skills}
        acts = [a for a in self.actions if a.skill in names and a.index not in self.done]  # which count: the hook's
        for a in acts:
            self.done.add(a.index)
        hook(self, step, acts)
        self.after_exits()

    def starts_game(self) -> bool:
        """Whether this settlement holds submissions sent 游戏开始前 not refused so far (the post's 游戏开始时)."""
        return any(a.phase == "setup" and a.index not in self.board.refused for a in self.actions)

    def walk(self, step: Step) -> None:
        n = step.n if "(" in step.n else (f"({step.n})" if step.n else "")  # 213 writes 夜(3): as it stands
        if step.game_start is not None and step.game_start != self.starts_game():
            return
        self.step_n = step.n
        if step.hook is not None:
            self.hooked(step, n)
            if step.n:
                self.at_step(step.n, n)
                check(self.board, n)
            return
        if step.preview:
            self.pool.going = self.preview(n)
        if step.tell is not None:
            self.tell(step)
        if step.feedback is not None:
            effects.feedback(self.board, self.catalog.skill(step.feedback), n)
            learn.answer(self, self.catalog.skill(step.feedback), n)
        for name in step.skills:
            skill = self.catalog.skill(name)
            if skill.trigger is not None and skill.trigger.at == "next_point":  # this step is its point
                self.point(n, skill, follows_night="night" in step.phases)
                self.after_exits()
                continue
            if skill.trigger is not None and skill.trigger.on == "idle":  # whoever had to act and did not (M160 哥谭)
                idle.act(self, skill, n)
                self.after_exits()
                continue
            if skill.trigger is not None and skill.trigger.on == "step":  # 锁定: each living holder, unsubmitted
                for seat in [s for s in self.board.living() if holds(s, skill)]:
                    if seat.alive:
                        self.settle(Action(seat.name, name, index=-1), n)
                self.after_exits()
                continue
            if skill.trigger is not None and skill.trigger.on == "partner_exit":  # the survivor's last night ends here
                lastnight.end(self.board, skill, self.out)
                self.after_exits()
                continue
            if skill.trigger is not None and skill.trigger.on != "chosen_exit":  # chosen_exit: its choice is submitted
                continue
            acts = self.effective(name)
            if victims.the_effect(skill) is not None:  # one victim among the players chosen (M160 凶杀)
                acts = victims.pick(self, skill, acts, n)
            for a in acts:
                if (step.by == "any" or self.original(a, skill) == (step.by == "holders")) and self.sent(a, step.sent):
                    self.settle(a, n)
            if any(e.top_at_least is not None for e in skill.effects):  # counted once all are in (祝福)
                effects.tally(self.board, self.pool, skill, n)
            self.after_exits()
        if step.resolve:
            effects.resolve(self.board, self.pool, self.clashes, n, self.out)
            self.after_exits()
        if step.n:
            self.at_step(step.n, n)
            check(self.board, n)  # a step the ruleset's [win_policy] checks_at names

    def preview(self, step: str) -> list[str]:
        """``preview``: who the damage pending so far would take out — the game's own flow's answer (107's
        致死伤害结算流程 run dry, ``GameHooks.preview``), else ``resolve`` on a copy of the table, nothing spent
        or taken out here and no question of the real settlement asked."""
        hooks = self.board.hooks
        if hooks is not None and hooks.preview is not None:
            return hooks.preview(self)
        b = self.board
        keep: dict[int, Any] = {id(b.catalog): b.catalog, id(b.ruleset): b.ruleset, id(b.hooks): b.hooks}
        dry = copy.deepcopy(b, keep)
        going: list[str] = []

        def out(player: str, cause: str) -> None:
            if dry.kill(player, cause):
                going.append(player)

        effects.resolve(dry, copy.deepcopy(self.pool, keep), self.clashes, step, out)
        return going

    def run(self) -> None:
        b = self.board
        if b.night == 1:  # "持续至游戏结束": a standing protection held as a status is there from the start
            effects.hold_from_start(b, "")
        for a in self.actions:  # a holder already out before this phase acts first (猎人 at 次日公告后)
            skill = self.catalog.skill(a.skill)
            if (skill.trigger is not None and skill.trigger.on == "exit" and skill.trigger.at != "next_point"
                    and a.members and not b.seat(a.members[0]).alive
                    and a.index not in self.done):
                last = [x for x in self.actions if x.skill == a.skill and x.members == a.members]
                for x in last[:-1]:
                    self.done.add(x.index)
                gone = b.seat(a.members[0]).fields.get("出局")
                cause = gone.get("cause") if isinstance(gone, dict) else None
                self.fire(last[-1], skill, cause if isinstance(cause, str) else None)
                self.after_exits()
        steps = [s for s in self.catalog.steps if applies(s, b)]
        for i, step in enumerate(steps):
            for name in step.skills:
                self.place_of.setdefault(name, i)
        for self.at, step in enumerate(steps):
            self.walk(step)
        self.at, self.step_n = len(steps), ""
        self.at_step("", "")  # exits after the last step their trigger's ``at`` names: at the phase's end
        for a in self.actions:  # skills no step lists: in submission order
            skill = self.catalog.skill(a.skill)
            if a.index not in self.done and skill.trigger is None:
                for x in self.effective(a.skill):
                    self.settle(x, "")
                if any(e.top_at_least is not None for e in skill.effects):
                    effects.tally(b, self.pool, skill, "")
                self.after_exits()
        self.settle_later("", "")  # a submission settled after the steps, its effect put off to one that has passed
        if self.pool.hits:
            effects.resolve(b, self.pool, self.clashes, "", self.out)
            self.after_exits()
        self.at_step("", "")  # the exits those dealt: their triggers' ``at`` steps have passed, so now
        for a in self.actions:
            if a.index not in self.done:
                skill = self.catalog.skill(a.skill)
                if skill.trigger is not None and skill.trigger.on == "target_exit":  # not an illegal submission
                    b.note(f"{a.actor}<{skill.name}>：{'、'.join(a.targets) or '目标'}未出局，不发动")
                else:
                    b.reject(a, f"{a.actor}未出局，<{skill.name}>只在出局时发动", skill.clause)


def run(board: Board, actions: Sequence[Action]) -> None:
    """Settle ``actions`` (already past the refusals) in the order the night file gives."""
    Flow(board, actions).run()

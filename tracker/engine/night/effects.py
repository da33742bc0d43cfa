"""The generic effects a skill composes in a night file, each a function over the table being settled.

A skill's ``effects`` name kinds from a small vocabulary (``EffectT`` in :mod:`tracker.engine.ruleset_model`):
``damage`` (a lethal hit with a strength, settled at the next ``resolve`` step), ``kill`` (out at
once: a shot), ``protect`` (stops the damage of the skills it names, if at least as strong),
``block`` (voids the target's later skills this phase), ``inspect`` (the post's words for the
target's faction or role, actual or 表面), ``convert``, ``mark`` (give, take, pass or tear a tag such
as 警长), ``status``, ``lose`` (the actor loses a skill of his own), ``vote`` (a modifier of the
next day's tally), ``tell`` (the actor is told the post's words), ``message`` (words to the target) and
``announce`` (a line of the next 公示); ``learn`` (one answer about the whole submission, maybe distorted) is :mod:`.learn`'s. :class:`Pool` holds what
is pending between steps — hits, protections, blocks — so that "守护 stops 杀人, not 毒药" and
"同守同救 → dies" (or, 213, "均无效") are decided by data at the ``resolve`` step, or by the game's
hook step that takes the pool there (213's ladder at 夜(9)).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import partial

from tracker.engine.night import flips, seats, tonight, win
from tracker.engine.night.board import Board
from tracker.engine.night.catalog import Clash, Effect, LastOf, Skill, TargetIs, UnlessTarget
from tracker.engine.night.checks import holds
from tracker.engine.night.exits import bench, send_off
from tracker.engine.night.model import Action, Seat
from tracker.engine.night.pairs import partner
from tracker.engine.night.sides import counts_in


@dataclass(frozen=True, slots=True)
class Hit:
    """Lethal damage waiting for the ``resolve`` step (``members``: the players behind ``by``)."""

    target: str
    strength: int
    cause: str
    skill: str
    by: str
    members: tuple[str, ...] = ()
    #: ``flips_instead``: a target it names who would go out by this hit flips instead, ``reason`` saying why.
    flips_instead: TargetIs | None = None
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class Guard:
    """A protection on a player for this phase."""

    skill: str
    strength: int
    stops: tuple[str, ...]
    by: str
    #: Spent by the first hit it stops (``once``), asked after the protections never spent.
    once: bool = False
    #: The survival's reason in the post's words (``reason``); None: ``by<skill>``.
    reason: str | None = None
    #: ``flips_instead``: it protects only a target it names when the hit comes, who flips by ``[flip]`` (107 死灵咒).
    flips_instead: TargetIs | None = None

    def saves(self, target: str, skill: str) -> str:
        """Why ``target`` survives a hit of ``skill`` that this protection stops."""
        if self.reason is None:
            return f"{self.by}<{self.skill}>"
        return self.reason.format(skill=skill, actor=self.by, target=target)


@dataclass(frozen=True, slots=True)
class Cover:
    """``cover``: the actor's own next lethal hit this phase falls on ``target`` instead (107 防反)."""

    target: str
    skill: str
    reason: str | None = None
    #: ``stands_in``: the question whether ``target`` (the skill's user) takes the hit (M160 彷徨 "你可能代替他而死亡").
    asks: str | None = None


@dataclass(frozen=True, slots=True)
class Sparing:
    """One block with exceptions (``spares``, ``spares_kinds``, ``spares_passive``), asked on its own: a
    second block on the same player still voids what this one spares (M65 天璇紫后 and 飞行头槌 on one player)."""

    skill: str
    voids: frozenset[str]
    kinds: frozenset[str]
    spares: frozenset[str]
    spares_kinds: frozenset[str]
    spares_passive: bool

    def stops(self, skill: str, kind: str | None, passive: bool) -> bool:
        if skill in self.spares or (kind is not None and kind in self.spares_kinds) or (passive and self.spares_passive):
            return False
        return "*" in self.voids or skill in self.voids or (kind is not None and kind in self.kinds)


@dataclass(slots=True)
class Pool:
    """What the steps so far have set up and the ``resolve`` step has not settled yet."""

    hits: list[Hit] = field(default_factory=list)
    guards: dict[str, list[Guard]] = field(default_factory=dict)
    blocked: dict[str, set[str]] = field(default_factory=dict)
    #: The kinds of skill (``kinds``: 普通, 限定 …) a block voids, by player.
    blocked_kinds: dict[str, set[str]] = field(default_factory=dict)
    #: Blocks with exceptions (``spares`` …), by player, in the order they came.
    sparing: dict[str, list[Sparing]] = field(default_factory=dict)
    #: Blocked players whose voided submissions still spend their uses (``spends``).
    spending: set[str] = field(default_factory=set)
    #: Targets each skill was used on in this phase, every settled use's (a ``tell`` step reports them).
    targets: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: Who blocked each blocked player, ``P05<禁锢>``, and the clause (the refusal names them).
    blockers: dict[str, tuple[str, str]] = field(default_factory=dict)
    #: Statuses for this phase only (``for_phase``: 今晚), by player: never written to the table.
    tonight: dict[str, set[str]] = field(default_factory=dict)
    #: ``redirect`` effects so far: (the player who may be put in, the target he may replace, the skill).
    redirects: list[tuple[str, str, str]] = field(default_factory=list)
    #: A submission's targets once the redirects had their say (by its index), decided once.
    substituted: dict[int, tuple[str, ...]] = field(default_factory=dict)
    #: ``to = "neighbour"``: the neighbour picked for (submission index, skill, target), one for all its effects.
    near: dict[tuple[int, str, str], str | None] = field(default_factory=dict)
    #: A blocked player whose later submissions are refused, not voided: (reason, the blocker's clause).
    refusing: dict[str, tuple[str, str]] = field(default_factory=dict)
    #: ``cover`` effects so far, by the player whose next hit they pass on.
    covers: dict[str, Cover] = field(default_factory=dict)
    #: ``top_at_least`` protections chosen so far, by skill: (target, who chose), counted after its step.
    tallies: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    #: The players a ``preview`` step found about to go out this phase (None: no preview yet).
    going: list[str] | None = None

    def refusal(self, player: str, skill: str) -> tuple[str, str] | None:
        """Why a blocked player's submission of ``skill`` is refused, with the clause: the block's own ``refuses``
        with ``{skill}`` filled (M65 "当晚无法使用<{skill}>"), else the blocker named; None if nothing blocked him.
        The one wording for every path that refuses a blocked player, the hook steps' included."""
        if player in self.refusing:
            reason, clause = self.refusing[player]
            return reason.replace("{skill}", skill), clause
        if player in self.blockers:
            by, clause = self.blockers[player]
            return f"{player}被{by}封锁，<{skill}>无效", clause
        return None

    def hit_by(self, target: str, skill: str) -> bool:
        return any(h.target == target and h.skill == skill for h in self.hits)

    def blocks(self, player: str, skill: str, kind: str | None = None, *, passive: bool = False) -> bool:
        """Whether a block this phase voids ``skill`` (of ``kind``, for a block by ``kinds``; ``passive``: a
        perception nobody submits) for ``player``."""
        voids = self.blocked.get(player, set())
        return ("*" in voids or skill in voids or (kind is not None and kind in self.blocked_kinds.get(player, ()))
                or self.sparing_block(player, skill, kind, passive=passive) is not None)

    def blocks_told(self, player: str, skill: str, kind: str) -> bool:
        """Whether a block voids a skill a ``tell`` step tells (of ``kind``): a block by ``kinds`` leaves it told
        (107 灾厄's 导演通知); a block with exceptions spares it by its kind (M65 天璇紫后 "不包括强制技能": <四眼预知>)."""
        voids = self.blocked.get(player, set())
        return "*" in voids or skill in voids or self.sparing_block(player, skill, kind) is not None

    def sparing_block(self, player: str, skill: str, kind: str | None = None, *, passive: bool = False) -> str | None:
        """The latest block with exceptions that voids ``skill`` for ``player`` (its skill's name), or None."""
        return next((b.skill for b in reversed(self.sparing.get(player, [])) if b.stops(skill, kind, passive)), None)


@dataclass(frozen=True, slots=True)
class Use:
    """One effect applied: the step's number, the submission, its skill and who acts."""

    step: str
    action: Action
    skill: Skill
    actor: str


#: Takes a player out now with a cause; the engine runs what the exit sets off.
Out = Callable[[str, str], None]


def block(pool: Pool, effect: Effect, target: str, skill: Skill, by: str, actor: str) -> None:
    """A ``block`` effect on ``target``: what it voids (and spares) for the rest of the phase, and how the
    blocked player's later submissions are refused (``refuses``: ``{skill}`` is the refused one's name)."""
    if effect.spares or effect.spares_kinds or effect.spares_passive:
        pool.sparing.setdefault(target, []).append(Sparing(
            skill.name, frozenset(effect.voids), frozenset(effect.kinds), frozenset(effect.spares),
            frozenset(effect.spares_kinds), effect.spares_passive))
    else:
        pool.blocked.setdefault(target, set()).update(effect.voids)
        pool.blocked_kinds.setdefault(target, set()).update(effect.kinds)
    if effect.spends:
        pool.spending.add(target)
    pool.blockers.setdefault(target, (by, effect.clause or skill.clause))
    if effect.refuses is not None:  # {actor}: who sent it, a team's members too (107 牵制 "P06+P18")
        pool.refusing[target] = (effect.refuses.format(target=target, actor=actor, skill="{skill}"),
                                 effect.clause or skill.clause)


def tell_user(board: Board, use: Use, effect: Effect, target: str | None) -> None:
    """A ``tell`` effect: what the post tells the user on a use (M65 票权掠夺 "已执行"). A ``tonight`` skill's
    day cast handed to the night is not told again: its user was told when the day was settled."""
    if use.skill.tonight and use.action.phase == "day" and board.night is not None:
        return
    # ``{chosen}``: the chosen player whose exit set off a ``chosen_exit`` trigger (M19 设计 "当目标……出局时")
    words = effect.text.format(target=target, chosen="、".join(use.action.targets))
    board.tell(use.actor, words)
    board.note(f"{use.step} 告知{use.actor}：{words}")


def tell_together(board: Board, use: Use, effect: Effect, targets: Sequence[str]) -> None:
    """A ``tell`` with ``together``: once for the whole submission, on the players it took hold on (M65 空之瞭望
    "次日全天可获知这2名目标之间的个人技能情况" is one watch of both, not one per target); a pending entry for the
    director on the actor while it lasts. A target immune to the skill (``immune_to``) is not one it took hold on."""
    held = []
    for t in targets:
        shield = immunity(board, board.seat(t), use.skill.name) if board.has(t) else None
        if shield is None:
            held.append(t)
        else:
            board.note(f"{use.step} {use.actor}<{use.skill.name}>：{t}的<{shield.name}>免疫<{use.skill.name}>，无效果")
    words = {"step": use.step, "actor": use.actor, "targets": "、".join(held), "next_day": next_day(board)}
    targets = held
    if not targets:
        board.note(effect.empty.format(**words))
        return
    if effect.log is not None:
        board.note(effect.log.format(**words))
    board.tell(use.actor, effect.text.format(**words))
    if effect.pending is not None:
        board.later(effect.pending.format(**words), use.actor, effect.until.format(**words),
                    effect.clause or use.skill.clause)


def refused(board: Board, pool: Pool, use: Use) -> str | None:
    """Why an effect cannot take hold on these targets, decided when its step comes (解药 on
    someone the wolves did not kill; a tag passed to a player already out; a target another skill
    already took this phase, ``distinct_from``)."""
    kept = use.skill.only_kept  # M19 灭口 "若绑匪选择的目标": the kept choice as it stands at the step (游戏开始前's too)
    if kept is not None and use.action.members and board.has(use.action.members[0]):
        goal = board.seat(use.action.members[0]).fields.get(kept)
        if goal is None:
            return f"{use.action.members[0]}还没有{kept}，不能发动<{use.skill.name}>"
        if any(t != goal for t in use.action.targets):
            return f"<{use.skill.name}>只能对{kept}（{goal}）发动"
    if use.skill.target_going:  # 107 死灵咒 "选择一名在当晚出局的角色": the (11) list
        when = "当晚" if board.night is not None else "当天"
        t = next((t for t in use.action.targets if t not in (pool.going or [])), None)
        if t is not None:
            return f"{t}不在{when}即将出局者名单中（<{use.skill.name}>只能选择一名在{when}出局的角色）"
    for name in use.skill.distinct_from:
        for t in use.action.targets:
            if t in pool.targets.get(name, ()):
                when = "当晚" if board.night is not None else "当天"
                return f"<{use.skill.name}>需选择与{when}<{name}>不重复的角色（{t}已是<{name}>的目标）"
    for e in use.skill.effects:
        if e.kind == "mark" and e.tags and (use.action.choice or "").strip() not in e.tags:
            return f"<{use.skill.name}>的 choice 应写 {' 或 '.join(e.tags)}"
        if e.kind == "give_uses":  # a count passed on: its user, out, has none to pass (213 亲传)
            out = next((m for m in use.action.members if board.has(m) and not board.seat(m).alive), None)
            if out is not None:
                return f"{out}已出局，不能发动<{use.skill.name}>"
        for t in use.action.targets:
            if e.kind == "protect" and e.only_if_hit_by and not pool.hit_by(t, e.only_if_hit_by):
                return f"<{use.skill.name}>只能用于当晚受到<{e.only_if_hit_by}>的玩家（{t}不是）"
            if (e.kind in ("mark", "kill", "give_uses") and not board.seat(t).alive
                    and not (e.kind == "mark" and use.skill.target_alive_or_dead)):  # 107 权术: from the player out
                return f"{t}已出局，不能成为<{use.skill.name}>的目标"
            if e.kind == "give_uses" and e.refuses is not None and _holds_uses(board, e, t):
                return e.refuses.format(target=t, skill=e.again)
        if e.kind == "give_uses":  # "若[报复]次数尚足够": a count spent earlier in the phase has nothing to pass
            spent = _spent_here(board, use)
            if spent is not None:
                return spent
    return None


def admitted(board: Board, action: Action, skill: Skill) -> str | None:
    """Why a submission's targets are not ones its skill may take, decided as it is submitted, like the other checks
    of a target (:func:`.checks.refusal`), where the ruleset is known: ``only_targets`` (213 亲传 "选择一名狼人阵营
    [群内]的角色": a [群内] role's tag is the ruleset's), then a ``give_uses`` target who already holds the uses (asked
    again at the step, for one given them earlier in the same phase)."""
    for t in action.targets:
        unmet = [c for c in skill.only_targets if board.has(t) and not tonight.matches(board, Pool(), c, t)]
        if unmet:
            return _not_allowed(skill, t, unmet)
    for e in skill.effects:
        for t in action.targets:
            if e.kind == "give_uses" and e.refuses is not None and board.has(t) and _holds_uses(board, e, t):
                return e.refuses.format(target=t, skill=e.again)
    return None


def _holds_uses(board: Board, effect: Effect, target: str) -> bool:
    again = board.catalog.skill(effect.again or "")
    return (again.uses or again.name) in board.seat(target).uses


def _spent_here(board: Board, use: Use) -> str | None:
    """A ``give_uses`` skill whose user's count ran out earlier in this phase — since its submission was accepted — by
    a submission settled before it (another of its own, or of a skill counting on the same key: 213 <报复> and <亲传>
    share [报复]): nothing is left to pass, refused at its step, the count as the post writes it. Other skills keep
    their game's own say on a use past the count (M65 时间回溯's extra use "不计入该技能原本的使用次数")."""
    key = use.skill.uses
    if key is None or use.action.index < 0 or not use.action.members or not board.has(use.action.members[0]):
        return None
    left = board.seat(use.action.members[0]).uses.get(key)
    if left is False or (isinstance(left, int) and not isinstance(left, bool) and left <= 0):
        return f"<{use.skill.name}>：[{key}]次数不足"
    return None


def _not_allowed(skill: Skill, target: str, unmet: Sequence[TargetIs]) -> str:
    """``only_targets``' refusal: the post's words, or what the target is not."""
    if skill.only_targets_reason is not None:
        return skill.only_targets_reason.format(target=target, skill=skill.name)
    return f"<{skill.name}>不能选择{target}：" + "；".join(tonight.missed(c, target).removesuffix("，无效果") for c in unmet)


def takes_hold(board: Board, pool: Pool, use: Use, effect: Effect, target: str | None) -> bool:
    """Whether the effect's conditions on its user and on ``target`` hold now (``when_actor``, ``unless_actor``,
    ``when_target``): what ``unless_before`` asks of the effects listed before it (M160 克隆's 否则)."""
    me = use.action.members[0] if use.action.members else use.actor
    if effect.when_actor is not None and (not board.has(me) or not tonight.matches(board, pool, effect.when_actor, me)):
        return False
    if effect.unless_actor is not None and board.has(me) and tonight.matches(board, pool, effect.unless_actor, me):
        return False
    if target is not None and board.has(target) and excluded(board, pool, use, effect, target) is not None:
        return False
    return (effect.when_target is None or target is None or not board.has(target)
            or tonight.matches(board, pool, effect.when_target, target))


def excluded(board: Board, pool: Pool, use: Use, effect: Effect, target: str) -> UnlessTarget | None:
    """The ``unless_target`` entry the target is one of, its user holding none of the skills that lift it (M160
    附体 "非恶魔非爪牙（附魂灵除外）", 夺魂 "你可以杀害爪牙"), or None."""
    me = use.action.members[0] if use.action.members else use.actor
    mine = board.seat(me) if board.has(me) else None
    seat = board.seat(target)
    for u in effect.unless_target:
        if mine is not None and any(holds(mine, board.catalog.skill(k)) for k in u.lifted_by):
            continue
        if u.benched_leave and seat.benched:  # 挂机 "有群的角色从自已所在的群中立即移除"
            continue
        if tonight.matches(board, pool, u.cond, target):
            return u
    return None


def apply(board: Board, pool: Pool, use: Use, effect: Effect, target: str | None, out: Out) -> None:
    """One effect on one target (``target`` None: an effect that needs none, e.g. tearing a tag)."""
    who, name, step = use.actor, use.skill.name, use.step
    if effect.when_actor is not None:  # 107 灾厄 "若[亡灵圣物]的持有者属于亡灵阵营"
        me = use.action.members[0] if use.action.members else who
        if not board.has(me) or not tonight.matches(board, pool, effect.when_actor, me):
            board.note(f"{step} {who}<{name}>：{tonight.missed(effect.when_actor, me)}")
            return
    if effect.unless_actor is not None:  # M160 寻觅 "若你未在刚刚过去的夜晚中称为【恶魔】击杀的对象"
        me = use.action.members[0] if use.action.members else who
        if board.has(me) and tonight.matches(board, pool, effect.unless_actor, me):
            board.note(f"{step} {who}<{name}>：{tonight.missed(effect.unless_actor, me, held=True)}")
            return
    if effect.kind == "mark":
        _mark(board, use, effect, target)
        return
    if effect.kind == "tell":  # told to the user, whatever shield the target holds
        tell_user(board, use, effect, target)
        return
    whole = _ON_THE_USE.get(effect.kind)
    if whole is not None and not (effect.kind == "lose" and effect.loses == "*"):  # ``*``: the target's, below
        whole(board, use, effect)
        return
    if effect.kind == "inspect" and effect.exits:
        _inspect_exits(board, use, effect)
    if effect.kind == "inspect" and effect.holder_of is not None:  # 107 夜之眼: whoever holds the tag now
        target = tag_holder(board, effect.holder_of)
        if target is None:
            board.tell(who, effect.empty)
            board.note(f"{step} {who}<{name}>：{effect.empty}")
            return
    if effect.kind == "inspect" and effect.players_of is not None:  # M19 背叛 "得知人质马甲": who plays the role
        playing = [p.name for p in board.table.players.values() if p.role == effect.players_of]
        if not playing:
            board.tell(who, effect.empty)
            board.note(f"{step} {who}<{name}>：{effect.empty}")
        for player in playing:
            apply(board, pool, use, replace(effect, players_of=None), player, out)
        return
    if effect.kind == "announce":
        if target is None or effect.when_target is None or tonight.matches(board, pool, effect.when_target, target):
            _announce(board, use, effect, target)
        return
    if effect.to == "factions":  # 213 村镇之殇 "所有[实际阵营]为村民阵营的角色永久获得状态[净化]": whatever the targets
        for seat in [p for p in board.table.players.values() if p.alive and counts_in(board, p, effect.factions, use.skill)]:
            apply(board, pool, use, replace(effect, to="target"), seat.name, out)
        return
    if effect.to == "others":  # M160 夺刀 "当前的【恶魔】变为……": every other player the condition names, once
        me = use.action.members[0] if use.action.members else who
        for seat in [p for p in board.table.players.values() if p.name != me and (
                effect.when_target is None or tonight.matches(board, pool, effect.when_target, p.name))]:
            apply(board, pool, use, replace(effect, to="target"), seat.name, out)
        return
    if effect.to == "partner":  # M19 殉情 "另一人立即出局": the other end of the actor's bond, nobody if none lives
        target = partner(board, use.action.members[0] if use.action.members else who)
        if target is None:
            return
    beside = None  # ``to = "neighbour"``: the player the submission chose, whose neighbour it lands on
    if effect.to == "neighbour" and target is not None:  # M160 毒害 "对一名与他相邻的玩家造成【致死伤害】"
        beside, target = target, _neighbour(board, pool, use, effect, target)
        if target is None:
            board.note(f"{step} {who}<{name}>：{beside}没有相邻的存活玩家")
            return
    if target is None:  # a submission without targets: only an effect on the actor himself takes hold
        if effect.to != "actor" or not use.action.members or effect.when_target is not None:
            return
        target = use.action.members[0]  # 幼狼<牺牲> "幼狼可以主动出局"
    if effect.when_target is not None and not tonight.matches(board, pool, effect.when_target, target):
        gone = not board.seat(target).alive
        board.note(f"{step} {who}<{name}>：{tonight.missed(effect.when_target, target, gone=gone)}")
        return
    unless = excluded(board, pool, use, effect, target) if board.has(target) else None
    if unless is not None:  # M160 凶杀 "非【群内】", 附体 "非恶魔非爪牙"
        board.note(f"{step} {who}<{name}>：{tonight.missed(unless.cond, target, held=True)}")
        return
    aimed = beside or target  # the player the submission chose (``{chosen}``), whoever it lands on
    if effect.to == "actor":  # 懦夫【自保】"当你选中……时，你在当晚不会死亡"; 幼狼<牺牲> "主动出局"
        target = use.action.members[0] if use.action.members else who
    if any(target in pool.targets.get(skill, ()) for skill in effect.unless_aimed_by):  # M19 空救 "若该角色没有成为指杀目标"
        return
    shield = immunity(board, board.seat(target), name) if board.has(target) else None
    if shield is not None:
        board.note(f"{step} {who}<{name}>：{target}的<{shield.name}>免疫<{name}>，无效果")
        if shield.immune_told is not None:  # M19 警觉 "得知使用该技能对象的马甲"
            user = use.action.members[0] if use.action.members else who
            board.tell(target, shield.immune_told.format(actor=user, skill=name))
        return
    if effect.kind == "redirect":
        tonight.redirect(pool, who, target, name)
        if effect.substitute is None:
            board.note(f"{step} {who}<{name}>：此后指定{target}作为目标的技能可能改以{who}为目标")
            return
        moved = "、".join(f"<{m}>" for m in effect.moves) or "技能"
        board.note(f"{step} {who}<{name}>：{target}（若其成为{moved}的目标，由{who}以<{effect.substitute}>选择替代者）")
        if effect.when and use.skill.next_day and board.night is not None:  # 107 诡辩 "在次日投票阶段"
            day = board.catalog.day_before(board.night + 1)
            board.later(name, target, effect.when.format(day=day, actor=who, target=target), use.skill.clause)
        return
    if effect.kind == "vote":
        _vote(board, use, effect, target)
        return
    if effect.kind == "counter":
        _counter(board, use, effect, target, out)
        return
    if effect.kind == "give_uses":
        _give_uses(board, use, effect, target)
        return
    if effect.kind == "watch":
        board.set_state(effect.state or "", {**_remembered(board, target), "成功": False})
        _log(board, use, effect, target, f"{step} {who}<{name}>：{target}（待反馈）")
        return
    if effect.kind == "damage":
        pool.hits.append(Hit(target, effect.strength, _cause(board, effect, use), name, who, use.action.members,
                             effect.flips_instead, effect.reason))
        _log(board, use, effect, target, f"{step} {who}<{name}>：{target}（致死，待结算）", aimed=aimed)
    elif effect.kind == "kill":
        _log(board, use, effect, target, f"{step} {who}<{name}>：{target}")
        out(target, _cause(board, effect, use))
    elif effect.kind == "protect" and effect.standing:  # its holders hold it themselves: see standing()
        return
    elif effect.kind == "protect" and effect.top_at_least is not None:  # counted once its step is over: tally()
        pool.tallies.setdefault(name, []).append((target, who))
        _log(board, use, effect, target, f"{step} {who}<{name}>：{target}（计数）")
    elif effect.kind == "cover" and effect.stands_in is not None:  # 彷徨 "当他们其中一人死亡时，你可能代替他而死亡"
        me = use.action.members[0] if use.action.members else who
        pool.covers[target] = Cover(me, name, effect.reason, effect.stands_in)
        _log(board, use, effect, target, f"{step} {who}<{name}>：{target}（若该夜{target}受到致死伤害，{me}可能代替他）")
    elif effect.kind == "cover":
        me = use.action.members[0] if use.action.members else who
        pool.covers[me] = Cover(target, name, effect.reason)
        _log(board, use, effect, target, f"{step} {who}<{name}>：{target}（若该夜{me}受到致死伤害，由其代为承担）")
    elif effect.kind == "protect":
        pool.guards.setdefault(target, []).append(Guard(name, effect.strength, effect.stops, who, effect.once,
                                                        effect.reason, effect.flips_instead))
        stops = "任何" if "*" in effect.stops else "、".join(effect.stops)
        _log(board, use, effect, target, f"{step} {who}<{name}>：{target}（当晚不受{stops}致死）")
    elif effect.kind == "block" and use.skill.tonight and board.night is None and board.table.day is not None:
        night = board.catalog.night_before(board.table.day + 1)  # cast in the day, it holds "当晚": nothing voided now
        board.later((effect.pending or f"{name}：当晚的技能无效").format(actor=who, target=target), target,
                    f"第{night}夜", effect.clause or use.skill.clause)
        _log(board, use, effect, target, f"{step} {who}<{name}>：{target}第{night}夜的技能无效")
    elif effect.kind == "block":
        block(pool, effect, target, use.skill, f"{who}<{name}>", use.action.actor)
        voids = "技能" if "*" in effect.voids else "、".join([*effect.voids, *(f"<{k}>技能" for k in effect.kinds)])
        _log(board, use, effect, target, f"{step} {who}<{name}>：{target}此后的{voids}无效")
    elif effect.kind == "inspect":
        seat = board.seat(target)
        faction, role = surface(board, seat, pool) if effect.seen == "surface" else (seat.faction, seat.role)
        found = faction if effect.answer == "faction" else role
        word = effect.words.get(found, found if effect.otherwise is None else effect.otherwise)
        board.tell(who, effect.text.format(target=target, answer=word))
        _log(board, use, effect, target, f"{step} {who}<{name}>：{target} → {word}", answer=word)
    elif effect.kind == "message":
        if effect.first_only is not None:  # 107 恩典 "第一个对其使用祝福的村民": once in the game
            if board.state.get(effect.first_only):
                return
            when = {"night": board.night} if board.night is not None else {"day": board.table.day}
            board.set_state(effect.first_only, {"player": use.actor, **when})
        board.tell(target, _words(board, effect, use, target))
        _log(board, use, effect, target, f"{step} {who}<{name}>：{target}得到消息")
    elif effect.kind == "convert":
        _convert(board, use, effect, target, aimed)
    elif effect.kind == "note":  # M160 ④ a 恶魔 who believes he is the 模仿者: his 克隆 only chooses
        _log(board, use, effect, target, "", aimed=aimed)
    elif effect.kind == "status" and effect.for_phase:
        tonight.give(pool, target, effect.status or "")
        _log(board, use, effect, target,
             f"{step} {who}<{name}>：{target}获得今晚的{effect.status}" + (f"：{effect.clause}" if effect.clause else ""))
    elif effect.kind == "gain":
        _gain(board, use, effect, target)
    elif effect.kind == "lose":
        _lose_all(board, use, effect, target)
    elif effect.kind == "bench":
        bench(board, replace(use.action, targets=(target,)), effect.clause or use.skill.clause)
    elif effect.kind == "send_off":
        send_off(board, use.action, target, _cause(board, effect, use), effect.clause or use.skill.clause, out,
                 asks=effect.asks_loss)
    elif effect.kind == "status":
        seat = board.seat(target)
        if effect.status and effect.status not in seat.status:
            seat.status.append(effect.status)
        board.result.state_after[f"{target}.status"] = list(seat.status)
        listed = [str(x) for x in board.state.get(effect.listed) or []] if effect.listed else []
        if effect.listed and target not in listed:
            board.set_state(effect.listed, [*listed, target])
        _log(board, use, effect, target, f"{step} {who}<{name}>：{target}获得{effect.status}", aimed=aimed)
        if effect.told_text is not None:
            board.tell(target, effect.told_text.format(target=target))
        if effect.nights and board.night is not None:
            board.later(f"{effect.status}结束", target, f"第{board.night + effect.nights}夜", effect.clause)
        if effect.pending is not None:  # M19 绑架 "在下一个游戏日不得主动发表观点……直到下一个游戏日结束"
            following = next_day(board)
            board.later(effect.pending.format(actor=who, target=target, next_day=following), target,
                        effect.until.format(next_day=following), effect.clause or use.skill.clause)


def _neighbour(board: Board, pool: Pool, use: Use, effect: Effect, target: str) -> str | None:
    """``to = "neighbour"``: one living player seated next to ``target``, the director's pick of two (``<skill>.相邻``),
    the same for every effect of the use (the question quotes the first one's clause)."""
    key = (use.action.index, use.skill.name, target)
    if key not in pool.near:
        near = seats.neighbours(board, target)
        why = f"{effect.clause}；" if effect.clause else ""
        pool.near[key] = near[0] if len(near) == 1 else None if not near else board.ask(
            f"{use.skill.name}.相邻", f"<{use.skill.name}>：与{target}相邻的{'、'.join(near)}中的哪一名（{why}规则未写由谁决定）",
            near)
    return pool.near[key]


def _convert(board: Board, use: Use, effect: Effect, target: str, aimed: str) -> None:
    """A new identity: the night file's ``[flip]`` (``flip``), or ``role``/``faction`` — nothing when the target
    already is that; ``new_uses``: the new role's counts replace his own (107 暗日 "其身份转变为活尸"); ``copies``:
    the role and role group of the player chosen (M160 克隆), ``unknowing``: still believing his former role."""
    if effect.flip:
        flips.flip(board, target, use.skill.name, strip=effect.strip)
        return
    seat = board.seat(target)
    model = board.seat(aimed) if effect.copies else None
    if model is not None:  # "你变为与他相同的身份": the chosen player's role
        effect = replace(effect, role=model.role)
    if effect.believed:  # M160 夺刀 "变为他自己认为的身份": the role he believes, and its group
        believes = seat.fields.get("believes")
        role = believes if isinstance(believes, str) else seat.role
        effect = replace(effect, role=role, group=effect.group or tonight.group(board, seat, role))
    if (effect.role or seat.role) == seat.role and (effect.faction or seat.faction) == seat.faction:
        if effect.group is not None and tonight.group(board, seat, seat.role) != effect.group:
            _group(board, seat, effect.group)  # M160 夺刀 "你……成为【恶魔】": the group alone
            _log(board, use, effect, target, f"{use.step} {use.actor}<{use.skill.name}>：{target}成为{effect.group}",
                 aimed=aimed)
            return
        board.note(f"{use.step} {use.actor}<{use.skill.name}>：{target}已是{seat.role}（{seat.faction}），无变化")
        return
    if effect.new_uses and effect.role is not None:
        seat.uses = {**flips.kept_team(board, seat, effect.role), **flips.new_uses(board, effect.role)}
    if model is not None:  # ... and his group (the ``type`` the post's checks read)
        seat.fields["type"] = tonight.group(board, model, model.role)
    if effect.unknowing:  # ① "模仿者并不会知道自己模仿的角色是什么": he believes what he believed
        believed = seat.fields.get("believes")
        seat.fields["believes"] = believed if isinstance(believed, str) else seat.role
        board.result.state_after[f"{target}.believes"] = seat.fields["believes"]
    if effect.group is not None:
        _group(board, seat, effect.group)
    before = seat.role
    board.convert(target, effect.role, effect.faction, effect.cause or use.skill.name)
    _log(board, use, effect, target, "", aimed=aimed)
    if effect.told_text is not None:
        board.tell(target, effect.told_text.format(target=target))
    if seat.role != before:  # "恶灵诞生时": the new identity's skills with ``trigger.on = "gain"`` act
        from tracker.engine.night.gains import gained

        gained(board, seat)


def _group(board: Board, seat: Seat, group: str) -> None:
    """A new role group (``type``, the field the post's checks read), kept in the state after for the nights to come."""
    seat.fields["type"] = group
    board.result.state_after[f"{seat.name}.type"] = group


def _gain(board: Board, use: Use, effect: Effect, target: str) -> None:
    """The actor takes the target's role's template: every skill of it but the 抉择 of the deal, held through his
    ``uses`` (M65 缥缈永恒 "拥有该身份模板的全部技能（即抉择中的两种选项技能都将拥有）": a skill with ``forms`` is held
    in both, so its once-only form's count bounds it). With ``again`` the target comes to hold that one skill (M19 寡妇刀
    "情侣获得技能<杀人>")."""
    if effect.again is not None:
        skill = hold(board, target, effect.again)
        words = {"step": use.step, "actor": use.actor, "target": target, "skill": skill, "role": "", "skills": skill}
        board.note(effect.log.format(**words) if effect.log is not None
                    else f"{use.step} {target}<{use.skill.name}>：获得技能<{skill}>".strip())
        if effect.text:  # "" : told by another effect (M19 寡妇刀's ``message`` to the whole faction)
            board.tell(target, effect.text.format(**words))
        return
    role = board.seat(target).role
    for m in use.action.members or (use.actor,):
        seat, gained = board.seat(m), []
        for s in board.catalog.skills_of(role):
            if s.phase == "setup":
                continue
            counts = [f.count for f in s.forms if f.count is not None]
            value: int | bool = s.count if s.count is not None else (min(counts) if counts else True)
            key = s.uses or s.name
            seat.uses[key] = value
            board.result.state_after[f"{m}.{key}"] = value
            gained.append(s.name)
        words = {"step": use.step, "actor": m, "target": target, "role": role, "skills": "、".join(gained),
                 "skill": use.skill.name}
        board.note(effect.log.format(**words) if effect.log is not None
                   else f"{use.step} {m}<{use.skill.name}>：拥有{target}（{role}）身份模板的全部技能：{words['skills']}".strip())
        board.tell(m, effect.text.format(**words))


def hold(board: Board, player: str, name: str) -> str:
    """``player`` holds the skill ``name`` from now on: its ``uses`` key at its ``count``, else true (what a refuse
    hook or the generic check reads as holding it); its name."""
    skill = board.catalog.skill(name)
    key = skill.uses or skill.name
    value: int | bool = skill.count if skill.count is not None else True
    board.seat(player).uses[key] = value
    board.result.state_after[f"{player}.{key}"] = value
    return skill.name


def _give_uses(board: Board, use: Use, effect: Effect, target: str) -> None:
    """The target holds ``add`` uses of ``again`` from now on; the user's own use was spent by the engine, as the
    skill's ``uses`` key says (213 亲传 "减少1点[报复]次数……使其获得1次[报复]技能")."""
    again = board.catalog.skill(effect.again or "")
    key = again.uses or again.name
    seat = board.seat(target)
    seat.uses[key] = effect.add
    board.result.state_after[f"{target}.{key}"] = effect.add
    me = use.action.members[0] if use.action.members else use.actor
    words = {"step": use.step, "actor": me, "target": target, "skill": again.name}
    board.note(effect.log.format(**words) if effect.log is not None
               else f"{use.step} {me}<{use.skill.name}>：{target}获得{effect.add}次<{again.name}>".strip())
    board.tell(target, effect.text.format(**words))
    if effect.told_actor is not None and board.has(me):
        left = board.seat(me).uses.get(use.skill.uses or use.skill.name)
        board.tell(me, effect.told_actor.format(left=left, **words))


def chosen(effect: Effect, action: Action) -> bool:
    """``when_choice``/``unless_choice``: whether the submission's ``choice`` picks this effect (107 探查
    "并选择以下效果之一")."""
    words = action.choice or ""
    if effect.when_choice and not any(w in words for w in effect.when_choice):
        return False
    return not any(w in words for w in effect.unless_choice)


def last_holds(board: Board, effect: Effect, action: Action, step: str,
               seen: dict[LastOf, tuple[str, ...]]) -> bool:
    """``when_last``/``unless_last``: whether the user is (or is not) the last living player of the factions,
    nobody else alive counting in them but the ``except_roles`` (107 腐化 "若其是当前亡灵阵营最后一名存活角色";
    "注：腐尸结算腐化时不计夜行怪"); the log says which held when the effect takes hold. Counted once per
    submission, as it is settled (``seen``): its own effects do not change the answer ("当前")."""
    rule = effect.when_last or effect.unless_last
    if rule is None:
        return True
    me = action.members[0] if action.members else action.actor
    if rule not in seen:
        seen[rule] = tuple(s.name for s in board.living() if s.name != me and s.faction in rule.factions
                           and s.role not in rule.except_roles)
    others = seen[rule]
    last = not others
    if last != (effect.when_last is not None):
        return False
    but = f"（不计{'、'.join(rule.except_roles)}）" if rule.except_roles else ""
    word = "是" if last else f"不是（尚有{'、'.join(others)}）"
    board.note(f"{step} {me}<{action.skill}>：{me}{word}{'、'.join(rule.factions)}阵营最后一名存活角色{but}")
    return True


def immunity(board: Board, seat: Seat, skill: str) -> Skill | None:
    """The skill of ``seat`` that makes him immune to ``skill``'s effects (``immune_to``: 107 神恩
    "神启者不受<诅咒>技能影响"; ``*``: every skill but ``immune_except``, M65 绝对防御), or None; a game's hook step
    settling ``skill`` asks the same. A holder whose ``uses`` of it are spent is not immune, nor one already out (his
    skills are out of play: M65 缥缈永恒 takes a voted-out 绿王's template, <绝对防御> and all)."""
    if not seat.alive:
        return None
    return next((s for s in board.catalog.skills.values()
                 if (skill in s.immune_to or ("*" in s.immune_to and skill not in s.immune_except)) and holds(seat, s)
                 and has_left(seat, s)), None)


def exposed(board: Board, seat: Seat, skill: str) -> Skill | None:
    """The skill of ``seat`` under which no protection stops ``skill``'s damage on him (``unprotected_from``:
    M19 弱受 "不论受到任何防卫性技能的保护……都将立即出局"), or None; a game's hook step that settles that
    skill's hits asks the same."""
    return next((s for s in board.catalog.skills.values() if skill in s.unprotected_from and holds(seat, s)), None)


def has_left(seat: Seat, skill: Skill) -> bool:
    """A skill counted in ``uses`` is held until its count is 0 or false (no key: held)."""
    left = seat.uses.get(skill.uses, True) if skill.uses is not None else True
    return left is not False and left != 0


def _cause(board: Board, effect: Effect, use: Use) -> str:
    """The cause a death records: the effect's ``cause`` (``{actor}`` standing in, and ``{chosen}``, the player whose exit
    set off a ``chosen_exit`` trigger: the submission's target), else the skill's name."""
    me = use.action.members[0] if use.action.members else use.actor
    role = board.seat(me).role if board.has(me) else ""
    return (effect.cause.format(actor=use.actor, chosen="、".join(use.action.targets), actor_role=role) if effect.cause
            else use.skill.name)


def _log(board: Board, use: Use, effect: Effect, target: str, line: str, answer: str = "", *,
         aimed: str | None = None) -> None:
    """The effect's line in the log: the post's words (``log``) where the night file gives them."""
    if effect.log is not None:
        day = board.table.day
        if day is None and board.night is not None:  # a day skill's line at night (107 牵制): the day it was chosen
            day = board.catalog.day_before(board.night)
        role = board.seat(target).role if board.has(target) else ""  # 213 "{step} {target}（{role}）出局"
        line = effect.log.format(step=use.step, actor=use.actor, target=target, answer=answer, day=day,
                                 next_day=next_day(board), role=role, chosen=target if aimed is None else aimed)
    if line:  # an empty ``log``: the effect has no line of its own (殉情: the exit's line says it)
        board.note(line)


def _inspect_exits(board: Board, use: Use, effect: Effect) -> None:
    """``inspect`` of who went out on the day this phase follows (or is) by one of ``exits``' causes, not
    of a target (M65 <数据收集> "游戏日夜晚，可以得知白天被投票出局角色的具体身份")."""
    day = board.catalog.day_before(board.night) if board.night is not None else board.table.day
    gone = [p for p in board.table.players.values() if isinstance(p.fields.get("出局"), dict)
            and p.fields["出局"].get("day") == day and p.fields["出局"].get("cause") in effect.exits]
    if not gone:
        text = effect.empty.format(day=day)
        board.tell(use.actor, text)
        board.note(f"{use.step} {use.actor}<{use.skill.name}>：{text}")
    for seat in gone:
        found = seat.faction if effect.answer == "faction" else seat.role
        word = effect.words.get(found, found if effect.otherwise is None else effect.otherwise)
        board.tell(use.actor, effect.text.format(target=seat.name, answer=word, day=day))
        _log(board, use, effect, seat.name, f"{use.step} {use.actor}<{use.skill.name}>：{seat.name} → {word}", answer=word)
def _words(board: Board, effect: Effect, use: Use, target: str | None) -> str:
    """``message``/``announce``'s ``text`` with the actor, the target and the submission's own words."""
    role = board.seat(target).role if target and board.has(target) else ""
    return effect.text.format(actor=use.actor, target=target or "", choice=use.action.choice or "",
                              targets="、".join(use.action.targets), next_day=next_day(board), role=role)


def _announce(board: Board, use: Use, effect: Effect, target: str | None) -> None:
    """A line of the 公示 that follows this phase (107 剑痕 "次日该留言将被导演公告"), written once."""
    line = _words(board, effect, use, target)
    if line not in board.result.lines:
        board.announce(line)
    role = board.seat(target).role if target and board.has(target) else ""
    note = f"{use.step} {use.actor}<{use.skill.name}>：公示“{line}”" if effect.log is None else \
        effect.log.format(step=use.step, actor=use.actor, target=target or "", role=role)
    if note:  # an empty ``log``: another effect's line says it (M19 绑架)
        board.note(note)


def _lose(board: Board, use: Use, effect: Effect) -> None:
    """The actor's own skill ``loses`` is gone for good (213 <救药>使用后，失去技能<灵通>)."""
    key = effect.loses or ""
    word = effect.shown or next((s.spent for s in board.catalog.skills.values() if (s.uses or s.name) == key and s.spent),
                                None)
    for m in use.action.members:
        seat = board.seat(m)
        left = seat.uses.get(key)
        if left is not False and left != 0:
            lost: int | bool = 0 if isinstance(left, int) and not isinstance(left, bool) else False
            seat.uses[key] = lost
            board.result.state_after[f"{m}.{key}"] = word if word is not None else lost
            line = f"{use.step} {m}<{use.skill.name}>：失去<{key}>" if effect.log is None else effect.log
            if line:  # an empty ``log``: the skill's other effect's line says it
                board.note(line.format(step=use.step, actor=m, loses=key))


def _lose_all(board: Board, use: Use, effect: Effect, target: str) -> None:
    """``loses = "*"``: the target loses every skill for good (M19 遗志 "失去所有技能"): each count he holds is lost, and
    the ``status`` he is given refuses every later submission of his (:func:`lost_all`)."""
    seat = board.seat(target)
    for key, left in list(seat.uses.items()):  # every one shown lost, a count already spent too
        seat.uses[key] = 0 if isinstance(left, int) and not isinstance(left, bool) else False
        board.result.state_after[f"{target}.{key}"] = effect.shown if effect.shown is not None else seat.uses[key]
    if effect.status and effect.status not in seat.status:
        seat.status.append(effect.status)
    board.result.state_after[f"{target}.status"] = list(seat.status)
    line = f"{use.step} {use.actor}<{use.skill.name}>：{target}失去所有技能" if effect.log is None else effect.log
    if line:
        board.note(line.format(step=use.step, actor=use.actor, target=target, role=seat.role))


def lost_all(board: Board, player: str) -> str | None:
    """The skill whose ``lose`` of ``*`` left ``player`` the status that says he lost every skill, or None."""
    seat = board.seat(player)
    for skill in board.catalog.skills.values():
        if any(e.kind == "lose" and e.loses == "*" and e.status in seat.status for e in skill.effects):
            return skill.name
    return None


def _choose(board: Board, use: Use, effect: Effect) -> None:
    """The actor's one choice between the ``forms`` of his role's skills (the post's 抉择): the form his
    ``choice`` names (the last one named, if several), kept in his ``choice`` field, its ``count`` his uses."""
    text = use.action.choice or ""
    for m in use.action.members:
        seat = board.seat(m)
        for skill in board.catalog.skills.values():
            if not skill.forms or seat.role not in skill.roles:
                continue
            named = [(text.rfind(f.name), i) for i, f in enumerate(skill.forms) if f.name in text]
            if not named:
                board.note(f"{use.step} {m}<{use.skill.name}>：没有选择<{skill.name}>的"
                           f"{'或'.join(f.name for f in skill.forms)}，不生效".strip())
                continue
            form = skill.forms[max(named)[1]]
            seat.fields["choice"] = form.label
            board.result.state_after[f"{m}.choice"] = form.label
            if form.count is not None:
                key = skill.uses or skill.name
                seat.uses[key] = form.count
                board.result.state_after[f"{m}.{key}"] = form.count
            words = {"step": use.step, "actor": m, "role": seat.role, "skill": skill.name, "form": form.label}
            board.note(effect.log.format(**words) if effect.log is not None
                       else f"{use.step} {m}<{use.skill.name}>：<{skill.name}>选择{form.label}".strip())
            board.tell(m, effect.text.format(**words))


def _ready(board: Board, use: Use, effect: Effect) -> None:
    """The actor declares, for the next game day, the skill's ``declared`` reactions whose ``form`` his
    ``choice`` names (M65 枯竭 "游戏日提前一天夜晚向导演说明下一游戏日使用该技能"): one use counted."""
    day = next_day(board)
    choice = use.action.choice or ""
    keys = list(dict.fromkeys(r.declared for r in use.skill.reacts
                              if r.declared is not None and (r.form is None or r.form in choice)))
    for m in use.action.members:
        if not keys or day is None:
            board.note(f"{use.step} {m}<{use.skill.name}>：没有说明要使用的形式，不生效".strip())
            continue
        board.use(board.seat(m), use.skill.name)
        for key in keys:
            on = dict(board.state.get(key) or {})
            on[m] = day
            board.set_state(key, on)
        words = {"step": use.step, "actor": m, "day": day}
        board.note(effect.log.format(**words) if effect.log is not None
                   else f"{use.step} {m}<{use.skill.name}>：说明第{day}个游戏日使用该技能".strip())
        board.tell(m, effect.text.format(**words))


def next_night(board: Board) -> int | None:
    """The night after the phase being settled: night N+1 after night N; after day D, the night that
    follows it (M19: night D; 213, whose night N opens day N: night D+1)."""
    if board.night is not None:
        return board.night + 1
    return board.catalog.night_before(board.table.day + 1) if board.table.day is not None else None


def _extra(board: Board, use: Use, effect: Effect) -> None:
    """One more use of ``again`` on the next night, recorded in ``state`` (M19 激励 "仅限下一个夜晚，狼人可以
    再使用一次<杀人>技能"); the living holders of ``tag`` are told."""
    night = next_night(board)
    if night is None or effect.state is None:
        return
    board.set_state(effect.state, {"night": night})
    line = effect.log or "{step} {actor}<{skill}>：第{night}夜可以再使用一次<{again}>"
    board.note(line.format(step=use.step, actor=use.actor, skill=use.skill.name, night=night, again=effect.again))
    if effect.tag:
        for seat in board.table.players.values():
            if seat.alive and effect.tag in seat.tags:
                board.tell(seat.name, effect.text.format(night=night))


def extra_uses(board: Board, skill: str) -> int:
    """How many more uses of ``skill`` the ``extra`` effects give the phase being settled (the generic engine
    counts that many more submissions, and raises its ``per_phase`` by as many; a game's hook step settling
    the skill asks the same)."""
    return sum(1 for _, _, held, _ in more_uses(board, skill) if held)


def more_uses(board: Board, skill: str) -> Iterator[tuple[Skill, Effect, bool, int | None]]:
    """Each ``extra`` effect of the file that names ``skill``: its skill, the effect, whether it gives one more use
    now, and (``while_alive``) how many of its roles live. One recorded for a night (M19 激励) holds on that night
    only; one ``while_alive`` (107 集群) while enough of its roles live, on every phase."""
    for own in board.catalog.skills.values():
        for e in own.effects:
            if e.kind != "extra" or e.again != skill:
                continue
            if e.while_alive is not None:
                alive = sum(1 for s in board.living() if s.role in e.while_alive.roles)
                yield own, e, alive >= e.while_alive.at_least, alive
                continue
            record = board.state.get(e.state or "")
            yield own, e, board.night is not None and isinstance(record, dict) and record.get("night") == board.night, None


def _remembered(board: Board, target: str) -> dict[str, object]:
    """What ``watch`` keeps of a use on ``target`` now: ``{target, night}`` (``day`` in a day phase)."""
    when: dict[str, object] = {"night": board.night} if board.night is not None else {"day": board.table.day}
    return {"target": target, **when}


def feedback(board: Board, skill: Skill, step: str) -> None:
    """A ``feedback`` step: the target ``skill``'s ``watch`` remembered at the night this phase belongs to,
    if announced out in this settlement, makes the record's 成功 true and its holders are told ``text``
    (213 悬赏 "若该角色在下一个[晨曦]阶段公示出局，则反馈<悬赏成功>")."""
    night = board.night if board.night is not None else (
        board.catalog.night_before(board.table.day) if board.table.day is not None else None)
    for e in skill.effects:
        if e.kind != "watch" or e.state is None:
            continue
        record = board.state.get(e.state)
        if not (isinstance(record, dict) and night is not None and record.get("night") == night):
            continue
        target = record.get("target")
        if target in board.result.out_order and not record.get("成功"):
            board.set_state(e.state, {**record, "成功": True})
            for seat in board.table.players.values():
                if holds(seat, skill):
                    board.tell(seat.name, e.text.format(target=target))
            board.note(f"{step} {skill.name}{target}公示出局 → {e.text.format(target=target)}")


def _phase(board: Board) -> str:
    """The phase being settled, as a skill's ``phases`` name it: ``night``, else the day's own phase."""
    if board.night is not None:
        return "night"
    return {None: "day", "白天": "day"}.get(board.table.phase, board.table.phase or "day")


def next_day(board: Board) -> int | None:
    """The day after the phase being settled: night N is followed by day N+1 (213, whose night N
    comes before day N: day N); a day D by day D+1."""
    if board.night is not None:
        return board.catalog.day_before(board.night) + 1
    return board.table.day + 1 if board.table.day is not None else None


def _vote(board: Board, use: Use, effect: Effect, target: str) -> None:
    """A modifier of the ruleset's voting on the target for the next day (107 流言 "该角色在下个白天被
    公告记有2票"), or from now on (``lasts = "game"``: M65 票权掠夺): recorded with the settlement, so
    the tallies count it once it is confirmed."""
    name = effect.modifier or use.skill.name
    day = next_day(board) if effect.lasts == "next_day" else None  # "game": from now on, every day
    board.mark_votes(name, target, day)
    when = f"第{day}天" if day is not None else "此后每天"
    board.note(f"{use.step} {use.actor}<{use.skill.name}>：{target}（{when}投票：{name}）")


def surface(board: Board, seat: Seat, pool: Pool | None = None) -> tuple[str, str]:
    """The faction and role a check of the 表面 sees: the game's hooks' reading as this phase's effects
    leave it (M160 面具/明晰, given the ``pool``) or as it stands (213 伪装), else the player's
    ``表面阵营``/``表面身份`` fields, else the actual ones."""
    hooks = board.hooks
    if hooks is not None and hooks.surface_now is not None and pool is not None:
        return hooks.surface_now(board, pool, seat)
    if hooks is not None and hooks.surface is not None:
        return hooks.surface(seat)
    faction, role = seat.fields.get("表面阵营"), seat.fields.get("表面身份")
    return (faction if isinstance(faction, str) else seat.faction, role if isinstance(role, str) else seat.role)


#: The effects that act on the use as a whole, not on a target: one dispatch, not a branch each.
def _concede(board: Board, use: Use, effect: Effect) -> None:
    """投降: the faction the ``choice`` names (or the only one) loses at once, quietly (its players stay in), then
    the win check at the point named as the skill (M19 "该阵营优先判负，不公示"); the refusals held the choice to
    ``factions``. ``unanimous``: only if every holder of the skill, out or not, agreed (213 "包括已出局角色")."""
    clause = effect.clause or use.skill.clause
    if effect.unanimous:
        missing = [p.name for p in board.table.players.values()
                   if holds(p, use.skill) and p.name not in use.action.members]
        if missing:
            board.reject(use.action, f"并非{effect.reason}（未同意：{'、'.join(missing)}）", clause)
            return
    faction = (use.action.choice or "").strip() or effect.factions[0]
    win.lose(board, faction, effect.reason or f"{use.skill.name}有效，优先判负，不公示", clause)
    win.check(board, use.skill.name)


def _count(board: Board, use: Use, effect: Effect) -> None:
    """``count``: the number ``key`` of the record the state keeps for ``tag`` changes by ``add`` (107 灵能
    "恶灵诞生时，[亡灵圣物]的<诅咒>技能次数+1"); with no record yet there is nothing to change."""
    tag, key = effect.tag or "", effect.key or ""
    record = board.state.get(tag)
    if not isinstance(record, dict):
        line = effect.absent or f"{{step}} {{actor}}<{use.skill.name}>：场上尚无{tag}，{key}无从改变"
        board.note(line.format(step=use.step, actor=use.actor))
        return
    now = int(record.get(key, 0)) + effect.add
    board.set_state(tag, {**record, key: now})
    line = effect.log or f"{{step}} {{actor}}<{use.skill.name}>：{tag}的{key}{effect.add:+d}（现为{{count}}）"
    board.note(line.format(step=use.step, actor=use.actor, count=now))


def _counter(board: Board, use: Use, effect: Effect, target: str, out: Out) -> None:
    """``counter``: the target's count in the ``state`` record grows by ``add``; at ``at_least`` he goes out at once
    (M19 救治 "若该角色没有成为指杀目标，累计一次空救。一名角色累计两次空救时立即出局"). A player already out is
    only counted: the exit refuses a second death."""
    key = effect.state or ""
    record = board.state.get(key)
    counts = dict(record) if isinstance(record, dict) else {}
    now = int(counts.get(target, 0)) + effect.add
    counts[target] = now
    board.set_state(key, counts)
    words = {"step": use.step, "actor": use.actor, "target": target, "count": now}
    if effect.at_least is not None and now >= effect.at_least:
        line = effect.out_log or "{step} {target}<{skill}>累计{count}次，达到{at_least}次 → 出局"
        board.note(line.format(**words, skill=use.skill.name, at_least=effect.at_least))
        out(target, _cause(board, effect, use))
        return
    line = effect.log if effect.log is not None else "{step} {actor}<{skill}>：{target}累计{count}次"
    if line:
        board.note(line.format(**words, skill=use.skill.name))


_ON_THE_USE: dict[str, Callable[[Board, Use, Effect], None]] = {
    "lose": _lose, "ready": _ready, "choose": _choose, "extra": _extra, "concede": _concede, "count": _count}


def _mark(board: Board, use: Use, effect: Effect, target: str | None) -> None:
    tag = effect.tag or ""
    if effect.tags:  # the choice names the tag (refused() holds it to one of them): 213 竞选 警长 / 牧首
        tag = (use.action.choice or "").strip()
        if target is None:
            board.set_state(tag, None)
            board.note(f"{use.step} {use.actor}<{use.skill.name}>：{tag}没有目标（无人当选），本局游戏没有{tag}")
            return
    if effect.act is not None and use.action.choice not in effect.choices:
        act, via = effect.act, use.skill.name  # 推选首领: the skill alone says how it moved
        if effect.tags:
            via = f"{use.skill.name}·{tag}"
    else:
        choice = use.action.choice or ("pass" if target else "tear")
        act = effect.choices.get(choice, choice)
        via = f"{use.skill.name}·{use.action.choice or ('传递' if act == 'pass' else act)}"
    if effect.record and not isinstance(board.state.get(tag), dict):  # 107 藏匿: the relic's record begins
        board.state[tag] = dict(effect.record)
    holder = tag_holder(board, tag)
    if act == "give" and target is None and effect.at_random is not None:  # 107 馈赠 "导演将随机一名角色"
        living = [p.name for p in board.living()]
        if not living:
            return
        target = board.ask(use.skill.name, effect.at_random.format(actor=use.actor), living)
    if act in ("pass", "give") and target is not None:
        frm = holder if act == "give" else use.actor
        if not _vanishes(board, use, tag, target, frm, via):
            had = tag in board.seat(target).tags
            board.move_tag(tag, frm, target, via)
            if effect.told_text is not None:
                board.tell(target, effect.told_text.format(target=target))
            if not had:
                _marked(board, target, tag)
    elif act == "take" and target is not None:
        if tag not in board.seat(target).tags or target == use.actor:  # "若该角色持有[亡灵圣物]，获得之"
            board.note(f"{use.step} {use.actor}<{use.skill.name}>：{target}不持有{tag} → 无事发生")
            return
        had = tag in board.seat(use.actor).tags
        board.move_tag(tag, target, use.actor, via)
        if effect.told_text is not None:
            board.tell(use.actor, effect.told_text.format(target=target))
        if not had:
            _marked(board, use.actor, tag)
    elif act == "tear":
        board.move_tag(tag, use.actor, None, via)


def _marked(board: Board, player: str, tag: str) -> None:
    """A player who has just come to carry ``tag``: the skills it sets off act (``trigger.marks``, M19 背叛)."""
    from tracker.engine.night.gains import marked

    marked(board, board.seat(player), tag)


def tag_holder(board: Board, tag: str) -> str | None:
    """Who holds a tag now: the player marked with it, else the player the table's ``state`` names for it
    (the state key the board keeps for 警长, 神眷者, 恶徒首领 … as tags move, or the ``holder`` of its record)."""
    held = next((p.name for p in board.holders(tag)), None)
    named = board.state.get(tag)
    if isinstance(named, dict):  # a tag with a record (107 亡灵圣物: holder, since, 诅咒剩余次数)
        named = named.get("holder")
    return held if held is not None else (named if isinstance(named, str) and board.has(named) else None)


def _vanishes(board: Board, use: Use, tag: str, target: str, frm: str | None, via: str) -> bool:
    """A tag given to a role the ruleset's ``[[tags]] vanishes_for`` names is gone, from whoever held it
    (107 神恩 "神启者不能成为神眷者，当神启者成为神眷者时，神眷者消失"), as the day's fold has it."""
    rule = board.ruleset.tag_rule(tag) if board.ruleset is not None else None
    role = board.seat(target).role
    if rule is None or role not in rule.vanishes_for:
        return False
    board.note(f"{use.step} {target}（{role}）不能持有{tag} → {tag}消失")
    if frm is not None and board.has(frm) and tag in board.seat(frm).tags:
        board.move_tag(tag, frm, None, f"{via}（{tag}消失）")
    elif tag in board.state:
        board.set_state(tag, None)
    return True


def meet(board: Board, pool: Pool, clashes: Sequence[Clash], target: str, step: str) -> Clash | None:
    """The protections on ``target`` that meet: a ``kill`` clash is returned (he goes out as its
    cause); a ``void`` clash's protections are taken off him here and None is returned."""
    guards = pool.guards.get(target, [])
    for c in clashes:
        if set(c.protections) <= {g.skill for g in guards}:
            if c.then == "kill":
                return c
            pool.guards[target] = [g for g in guards if g.skill not in c.protections]
            board.note(f"{step} {target}同时受到{'与'.join(c.protections)}：均无效（{c.cause}）")
            guards = pool.guards[target]
    return None


def standing(board: Board, seat: Seat, skill: str, strength: int, faction: str, phase: str,
             pool: Pool | None = None, *, once: bool = False, delays: bool = False) -> tuple[Skill, Effect] | None:
    """The protection ``seat`` holds by itself (a ``standing`` protect of a skill he holds, in one of
    its ``phases``, no ``voided_by`` status on him, carrying its ``status`` if it names one) that stops
    damage of ``skill`` at ``strength`` dealt by a player of ``faction`` (213 主宰黑夜: [不死] against
    村民阵营's skills at night and 晨曦). ``once``: only the protections spent by use (213 长寿之命, 107 长寿)
    and not spent yet, asked after every protection that is not, so that one is spent only when nothing
    else stops the hit; ``delays``: only the protections that put the exit off instead (213 坚强), asked last."""
    if not seat.alive:
        return None
    for own in board.standing:
        if (own.phases and phase not in own.phases) or not holds(seat, own):
            continue
        if tonight.voiding(board, pool or Pool(), own, (seat.name,)) is not None:
            continue
        for e in own.effects:
            if (e.kind == "protect" and e.standing and e.once == once and (e.delays is not None) == delays
                    and (e.status is None or e.status in seat.status)
                    and (skill in e.stops or "*" in e.stops) and e.strength >= strength
                    and (not e.from_factions or faction in e.from_factions)
                    and (not once or _unspent(board, seat, own, e))):
                return own, e
    return None


def spend(board: Board, seat: Seat, effect: Effect) -> None:
    """A ``once`` protection held as a status that stopped a hit is gone: its status is taken off the
    holder (213 长寿之命 "该守护状态抵消一次指杀后即失效")."""
    if effect.once and effect.status in seat.status:
        seat.status.remove(effect.status)
        board.result.state_after[f"{seat.name}.status"] = list(seat.status)


def delay(board: Board, seat: Seat, skill: Skill, effect: Effect, reason: str) -> None:
    """A ``delays`` protection keeps ``seat`` in: the exit waits for a later submission of the skill it names
    (213 坚强 "其不出局，改为下一讨论日发言满5贴时出局"), and he is told so."""
    board.survive(seat.name, reason)
    board.later(effect.delays or "", seat.name, effect.when, effect.clause or skill.clause)
    board.tell(seat.name, effect.text)


def hold_from_start(board: Board, step: str) -> None:
    """As the first night begins, the holders of a ``standing`` protect held as a ``status`` get it (213
    长寿之命 "长老获得状态[守护]，持续至游戏结束"): a new game's table need not list it, and nothing can have
    spent it before. Not on a player out, nor while a ``voided_by`` status voids the skill."""
    for own in board.catalog.skills.values():
        for e in own.effects:
            if not (e.kind == "protect" and e.standing and e.status):
                continue
            for seat in board.living():
                if (not holds(seat, own) or e.status in seat.status
                        or tonight.voiding(board, Pool(), own, (seat.name,)) is not None):
                    continue
                seat.status.append(e.status)
                board.result.state_after[f"{seat.name}.status"] = list(seat.status)
                line = (e.log or "{step} {target}<{skill}>：获得状态{status}").format(
                    step=step, target=seat.name, actor=seat.name, skill=own.name, status=e.status, answer="")
                board.note(line.strip())


def _unspent(board: Board, seat: Seat, own: Skill, e: Effect) -> bool:
    """A ``once`` standing protection not spent yet: held as a status, while carried (:func:`standing`
    asks); else its ``uses`` left, or — the key not written — no ``state`` record of its use (a scenario
    that keeps only when it was spent: 107 长寿上次)."""
    if e.status is not None:
        return True
    key = own.uses or own.name
    left = seat.uses.get(key)
    if left is None:
        return not (e.state and board.state.get(e.state)) and own.count not in (0, False)
    return left not in (0, False)


def spend_standing(board: Board, seat: Seat, own: Skill, e: Effect, hit: str) -> str:
    """Spend a ``once`` standing protection on a hit of ``hit``: its status taken off (:func:`spend`), else
    one use of its skill and when (its ``state``); gives the survival's reason."""
    if e.status is not None:
        spend(board, seat, e)
        return e.reason.format(skill=hit, actor=seat.name, target=seat.name) if e.reason else f"{seat.name}<{own.name}>"
    key = own.uses or own.name
    if key not in seat.uses:
        seat.uses[key] = own.count if isinstance(own.count, int) else 1
    board.use(seat, own)
    if e.state:
        board.set_state(e.state, {"night": board.night} if board.night is not None else {"day": board.table.day})
    return e.reason.format(skill=hit, actor=seat.name, target=seat.name) if e.reason else f"{seat.name}<{own.name}>"


def tally(board: Board, pool: Pool, skill: Skill, step: str) -> None:
    """A ``top_at_least`` protection once its step is over: the one target chosen more than any other and at
    least that often is protected, spent by one hit (``once``); a tie, or its ``no_repeat`` target of the
    night before, nobody (107 祝福)."""
    chosen = pool.tallies.pop(skill.name, [])
    effect = next((e for e in skill.effects if e.kind == "protect" and e.top_at_least is not None), None)
    if not chosen or effect is None or effect.top_at_least is None:
        return
    counts: dict[str, int] = {}
    for t, _ in chosen:
        counts[t] = counts.get(t, 0) + 1
    said = "、".join(f"{t}得{c}" for t, c in counts.items())
    top = max(counts.values())
    leaders = [t for t, c in counts.items() if c == top]
    name, night = skill.name, board.night
    if top < effect.top_at_least:
        board.note(f"{step} {name}：{said}，没有角色至少得到{effect.top_at_least} → 当晚无人受<{name}>庇护")
        return
    if len(leaders) > 1:
        board.note(f"{step} {name}：{said}，{'、'.join(leaders)}同样多 → 当晚无人能受到{name}的庇佑")
        return
    t = leaders[0]
    last = board.state.get(effect.no_repeat) if effect.no_repeat else None
    if isinstance(last, dict) and last.get("target") == t and night is not None and last.get("night") == night - 1:
        board.note(f"{step} {name}：{said} → {t}最多，但第{night - 1}夜已受<{name}>效果影响（同一名角色不能连续两夜"
                   f"受到<{name}>效果影响） → 无效果")
        return
    by = "、".join(dict.fromkeys(w for x, w in chosen if x == t))
    pool.guards.setdefault(t, []).append(Guard(name, effect.strength, effect.stops, by, effect.once, effect.reason))
    if effect.no_repeat:
        board.set_state(effect.no_repeat, {"target": t, "night": night} if night is not None else {"target": t})
    times = "一次" if effect.once else ""
    board.note(f"{step} {name}：{said} → {t}得到的{name}最多且至少为{effect.top_at_least}，当晚免疫{times}致死伤害")


def spend_guard(guards: dict[str, list[Guard]], target: str, skill: str, strength: int,
                which: Callable[[Guard], bool] = lambda g: True) -> Guard | None:
    """The first ``once`` protection on ``target`` that stops a hit of ``skill``, taken off him: spent (``which``:
    only among those it accepts — 107's flow asks 祝福 at its check (2), 死灵咒's ``flips_instead`` at (5))."""
    mine = guards.get(target, [])
    stop = next((g for g in mine if g.once and (skill in g.stops or "*" in g.stops) and g.strength >= strength
                 and which(g)), None)
    if stop is not None:
        mine.remove(stop)
    return stop


def turns(board: Board, pool: Pool | None, guard: Guard, target: str) -> bool | None:
    """A protection's ``flips_instead``: None when it has none; else whether ``target`` is one it names now (it
    protects no one else)."""
    if guard.flips_instead is None:
        return None
    return tonight.matches(board, pool or Pool(), guard.flips_instead, target)


def _holds_on(board: Board, pool: Pool, target: str, guard: Guard) -> bool:
    return turns(board, pool, guard, target) is not False


def saved(board: Board, guard: Guard, target: str, skill: str) -> None:
    """``target`` stays in by ``guard``; with ``flips_instead`` he flips by ``[flip]`` (107 死灵咒 "不出局并翻转其身份")."""
    board.survive(target, guard.saves(target, skill))
    if guard.flips_instead is not None:
        flips.flip(board, target, guard.skill)


def take_cover(board: Board, covers: dict[str, Cover], player: str, hit: str,
               guards: dict[str, list[Guard]] | None = None) -> tuple[str, str] | None:
    """A ``cover`` on ``player``'s hits this phase, spent on this hit of ``hit`` (its skill's ``uses`` too: "防反生效后，
    剑士失去此技能"): who takes the hit, and why ``player`` survives; None when there is none — or, for one that
    ``stands_in`` (M160 彷徨 "你可能代替他而死亡"), when its user is out, cannot die of it (``guards``: this phase's
    protections), or the director says 否, the cover then left for a later hit."""
    cover = covers.get(player)
    if cover is None:
        return None
    if cover.asks is not None:
        taker = cover.target
        safe = any(hit in g.stops or "*" in g.stops for g in (guards or {}).get(taker, []))
        if not board.seat(taker).alive or safe or board.ask(
                f"{cover.skill}.{player}", cover.asks.format(actor=taker, target=player), ["否", "是"]) != "是":
            return None
    covers.pop(player)
    skill = board.catalog.skill(cover.skill)
    if skill.uses is not None:  # the skill's user: the covered player, or the one who stands in
        board.use(board.seat(player if cover.asks is None else cover.target), skill)
    why = (cover.reason.format(skill=hit, actor=player, target=cover.target) if cover.reason
           else f"{player}<{cover.skill}>：由{cover.target}代为承担" if cover.asks is None
           else f"{cover.target}<{cover.skill}>：代替{player}承担")
    return cover.target, why


def resolve(board: Board, pool: Pool, clashes: Sequence[Clash], step: str, out: Out) -> None:
    """Pending damage meets the protections, in the order it was dealt: a protection stops a hit of
    a skill it names if at least as strong; protections that clash (同守同救) kill, or fail, instead."""
    hits, pool.hits = pool.hits, []
    while hits:
        h = hits.pop(0)
        if not board.seat(h.target).alive:
            continue
        bare = exposed(board, board.seat(h.target), h.skill)
        if bare is not None:
            board.note(f"{step} {h.target}<{bare.name}>：任何保护都不能阻挡<{h.skill}>")
            out(h.target, h.cause)
            continue
        clash = meet(board, pool, clashes, h.target, step)
        if clash is not None:
            board.note(f"{step} {h.target}同时受到{'与'.join(clash.protections)}：{clash.cause} → 出局（{clash.clause}）")
            out(h.target, clash.cause)
            continue
        guards = [g for g in pool.guards.get(h.target, []) if turns(board, pool, g, h.target) is not False]
        stopping = [g for g in guards if (h.skill in g.stops or "*" in g.stops) and g.strength >= h.strength]
        stop = next((g for g in stopping if not g.once), None)
        if stop is not None:
            saved(board, stop, h.target, h.skill)
            continue
        by = next((board.seat(m).faction for m in h.members if board.has(m)), "")
        seat = board.seat(h.target)
        held = standing(board, seat, h.skill, h.strength, by, _phase(board), pool)
        if held is not None:
            board.survive(h.target, held[1].reason.format(skill=h.skill, actor=h.target, target=h.target)
                          if held[1].reason else f"{h.target}<{held[0].name}>")
            continue
        # spent protections last: a hit another one stops does not spend them (祝福 "免疫一次", 长寿 "第一次")
        stop = spend_guard(pool.guards, h.target, h.skill, h.strength, partial(_holds_on, board, pool, h.target))
        if stop is not None:
            saved(board, stop, h.target, h.skill)
            continue
        covered = take_cover(board, pool.covers, h.target, h.skill, pool.guards)
        if covered is not None:  # the hit falls on the cover's target at once (防反 "改为对<防反>目标结算")
            board.survive(h.target, covered[1])
            hits.insert(0, replace(h, target=covered[0]))
            continue
        held = standing(board, seat, h.skill, h.strength, by, _phase(board), pool, once=True)
        if held is not None:
            board.survive(h.target, spend_standing(board, seat, *held, h.skill))
            continue
        put_off = standing(board, seat, h.skill, h.strength, by, _phase(board), pool, delays=True)
        if put_off is not None:
            delay(board, seat, *put_off, f"{h.target}<{put_off[0].name}>：即将出局，改为{put_off[1].when}出局")
            continue
        weak = [g.skill for g in guards]
        if weak:
            board.note(f"{step} {'、'.join(weak)}不能阻挡<{h.skill}>")
        if flips_instead(board, pool, h, step):
            continue
        out(h.target, h.cause)


def flips_instead(board: Board, pool: Pool | None, h: Hit, step: str) -> bool:
    """``flips_instead``: the target the hit would take out is one it names, so he stays in and flips
    (107 初拥 "若该角色属于人类且因将这次[致死伤害]出局，该角色不出局并翻转其身份"); a game's own damage
    flow asks it at its post's place."""
    if h.flips_instead is None or not tonight.matches(board, pool or Pool(), h.flips_instead, h.target):
        return False
    board.note(f"{step} {h.target}即将因<{h.skill}>出局：不出局，改为翻转身份")
    board.survive(h.target, (h.reason or "{actor}<{skill}>：不出局，翻转身份").format(
        skill=h.skill, actor=h.by, target=h.target))
    flips.flip(board, h.target, h.skill)
    return True

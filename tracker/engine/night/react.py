"""``reacts``: what a cast of one player's skill on another sets off in the target's own skills.

M65 writes it as a step of its own that lives inside every other one: "X、劫火净化之焰、黄王辐射炫惑嵌套
在触发的步骤中" — whichever step casts a skill on a player, that player may perceive it (持续 "可感知对自己
施放的是哪种技能，并获知技能来源"), and, on the game day he declared the night before (枯竭 "游戏日提前一天
夜晚向导演说明下一游戏日使用该技能"), reflect it onto its user or move it onto another player if he answers
("可选择反弹该技能" / "可选择更改该技能的施放目标"). A cast its target is immune to (M19 警觉 "此技能无效") is no
reaction but the skill's ``immune_to``, asked where the effects land (:func:`.effects.immunity`). So the
generic engine asks :func:`land` for every target of a skill it settles, and a game's hook that casts a
skill on a player asks the same; nothing here knows a game.

Which reaction a holder has is data: its ``form`` against his ``choice`` (the post's 抉择), its ``declared``
state key against the game day, the skills it meets (``to``/``not_to``) and those it never moves
(``keeps``). How a block stops a perception or an answer is the caller's (:data:`Stopped`): blocks are a
game's own (M65's 飞行头槌 spares 被动技能, 天璇紫后 only 强制技能).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tracker.engine.night.board import Board
from tracker.engine.night.catalog import Catalog, Reaction, Skill
from tracker.engine.night.checks import holds
from tracker.engine.night.model import Action, Seat
from tracker.engine.night.pairs import partner

#: Who stops ``holder`` from using the reaction skill now, in the log's words (``<飞行头槌>``), or None;
#: ``passive``: a perception he does not submit (``Reaction.passive``), else one of his answers.
Stopped = Callable[[str, str, bool], str | None]


def never(holder: str, skill: str, passive: bool) -> str | None:
    """No block: a day phase, or a game without blocks."""
    return None


def reacting(catalog: Catalog) -> tuple[Skill, ...]:
    """The file's skills with ``reacts``, in the file's order (the order their holders perceive in)."""
    return tuple(s for s in catalog.skills.values() if s.reacts)


def is_answer(skill: Skill, action: Action) -> bool:
    """A submission that answers a cast (kept for :func:`land`, never settled as a use): a ``reflect``
    reaction's word in its ``choice``, or a ``redirect`` reaction's new target."""
    return any((r.then == "reflect" and r.answer in (action.choice or "")) or (r.then == "redirect" and action.targets)
               for r in skill.reacts)


def game_day(board: Board) -> int | None:
    """The game day the settled phase belongs to: the day itself, or the day a night follows (213: the one
    before its night), as ``declared`` counts it."""
    return board.table.day if board.night is None else board.catalog.day_before(board.night)


def holds_form(seat: Seat, skill: Skill, r: Reaction) -> bool:
    """The holder has this reaction: the skill, and its ``form`` — chosen by his ``choice`` when he holds the
    skill by role, every form when he gained it in play (M65 缥缈永恒 "抉择中的两种选项技能都将拥有")."""
    if not holds(seat, skill):
        return False
    if r.form is None or seat.role not in skill.roles:
        return True
    return str(seat.fields.get("choice") or "").startswith(r.form)


def active(board: Board, seat: Seat, skill: Skill, r: Reaction) -> bool:
    """Held now: in its form, in one of its ``phases``, and (``declared``) on the game day he declared it for."""
    if not holds_form(seat, skill, r):
        return False
    if r.phases and ("night" if board.night is not None else (board.table.phase or "day")) not in r.phases:
        return False
    if r.declared is None:
        return True
    on = board.state.get(r.declared)
    return isinstance(on, dict) and on.get(seat.name) == game_day(board)


def _form(r: Reaction) -> str:
    return f"（{r.form}）" if r.form else ""


def perceive(board: Board, source: str, cast: str, target: str, *, label: str, stopped: Stopped = never) -> None:
    """What ``target`` is told when ``source`` casts ``cast`` on him (each reaction with a ``tell``)."""
    seat = board.seat(target)
    if not seat.alive or target == source:
        return
    for skill in reacting(board.catalog):
        for r in skill.reacts:
            if r.tell is None or not r.meets(cast) or not active(board, seat, skill, r):
                continue
            by = stopped(target, skill.name, True) if r.passive else None
            if by is not None:
                board.note(f"{label} {target}被{by}封锁，当晚<{skill.name}>{_form(r)}不能感知<{cast}>")
                continue
            line = (r.log or "{holder}<" + skill.name + ">" + _form(r) + "：感知到<{skill}>，来源{source}").format(
                holder=target, skill=cast, source=source)
            board.note(f"{label} {line}")
            board.tell(target, r.tell.format(skill=cast, source=source))


def _names(catalog: Catalog, action: Action, cast: str) -> bool:
    """An answer naming a skill (other than a reaction's own) answers that skill's cast only."""
    text = action.choice or ""
    named = [s for s, sk in catalog.skills.items() if s in text and not sk.reacts]
    return not named or cast in named


def answer(board: Board, source: str, cast: str, target: str, answers: Sequence[Action], *, label: str,
           stopped: Stopped = never) -> str:
    """Where the cast goes after ``target``'s reactions: reflected onto ``source``, moved onto the player
    his answer names, or ``target`` — the first answer of his that may act, in submission
    order; with none, the cast stays and the log says he gave it up (``missing``)."""
    seat = board.seat(target)
    if not seat.alive:
        return target
    live = [(s, r) for s in reacting(board.catalog) for r in s.reacts
            if r.then != "none" and r.meets(cast) and cast not in r.keeps and active(board, seat, s, r)]
    for s, r in live:
        if r.then == "partner":  # M19 主人 "行使于忠犬身上的全部有效技能全部为主人所承受": no answer, at once
            other = partner(board, target)
            if other is None:
                continue
            line = (r.log or "{holder}<" + s.name + ">：<{skill}>改由{target}承受").format(
                holder=target, skill=cast, source=source, target=other)
            board.note(f"{label} {line}")
            return other
    for act in answers:
        if act.members[:1] != (target,) or not _names(board.catalog, act, cast):
            continue
        found = next(((s, r) for s, r in live if s.name == act.skill), None)
        if found is None:
            continue
        by = stopped(target, act.skill, False)
        if by is not None:
            board.note(f"{label} {target}被{by}封锁，当晚不能以<{act.skill}>应对<{cast}>")
            continue
        s, r = found
        if r.then == "reflect" and r.answer in (act.choice or ""):
            board.note(f"{label} {target}<{s.name}>{_form(r)}：反弹<{cast}>，改由来源{source}承受")
            if r.done is not None:
                board.tell(target, r.done.format(skill=cast, target=source))
            return source
        if r.then == "redirect" and act.targets:
            new = act.targets[0]
            if not board.seat(new).alive:
                board.note(f"{label} {target}<{s.name}>：新目标{new}已出局，<{cast}>的目标不变")
                continue
            board.note(f"{label} {target}<{s.name}>{_form(r)}：将<{cast}>的施放目标由{target}改为{new}")
            if r.done is not None:
                board.tell(target, r.done.format(skill=cast, target=new))
            return new
    gave_up = next((r.missing for _, r in live if r.missing is not None), None)
    if gave_up is not None:
        board.note(f"{label} " + gave_up.format(holder=target, skill=cast))
    return target


def land(board: Board, source: str, cast: str, target: str, answers: Sequence[Action], *, label: str,
         stopped: Stopped = never, shield: Callable[[str], bool] | None = None) -> str | None:
    """The player ``cast`` by ``source`` on ``target`` finally takes hold on, or None: perceived, then
    answered; a cast moved is perceived by its new target, never moved again (one hop). ``shield``: whether
    the new target's immunity voids it there (the caller logs it)."""
    perceive(board, source, cast, target, label=label, stopped=stopped)
    new = answer(board, source, cast, target, answers, label=label, stopped=stopped)
    if new == target:
        return new
    if shield is not None and shield(new):
        return None
    perceive(board, source, cast, new, label=label, stopped=stopped)
    return new

"""翻转身份: the one identity flip a post defines, from the night file's ``[flip]``.

107 pairs every human identity with an 亡灵 one ("村长[恶灵]" …) and sends eight skills (诅咒, 初拥, 死灵咒,
拓印, 腐化, 圣光天启, 夜之躯, 夜之心) through the same flip; it lives here once, so a ``convert`` effect with
``flip = true`` and a game's hook step flip a player alike. What a new identity sets off in one game
(107's 灵能, 告死者, 夜之眼 …) is that game's ``GameHooks.flipped``, called after every flip; who hears of a
flip (107 灵魂链接) is the skills' ``hears`` (:meth:`~.board.Board.hear`).
"""

from __future__ import annotations

from tracker.engine.night.board import Board
from tracker.engine.night.catalog import Flip, Skill
from tracker.engine.night.checks import holds
from tracker.engine.night.model import Seat

ORIGINAL = "原身份"


def new_uses(board: Board, role: str) -> dict[str, int | bool]:
    """The counts a new identity brings: each counted skill (``uses``) of the role at its ``count``
    ("并获得对应身份的身份技能": 107 告死者's 死灵咒, 血族's 初拥, 天谴者's 暗日, one use each)."""
    return {s.uses: s.count for s in board.catalog.skills_of(role) if s.uses is not None and s.count is not None}


def kept_team(board: Board, seat: Seat, role: str) -> dict[str, int | bool]:
    """The team skills a player keeps as he becomes ``role``: where one of its skills says ``keeps_team`` (107
    伪装 "任意角色成为活尸后，不会失去原身份的<团队>技能"), those of the identity he has now and of his 原身份 (and
    any he kept before), so he stays a member of their teams; else none."""
    if not any(s.keeps_team for s in board.catalog.skills_of(role)):
        return {}
    had = {seat.role, seat.fields.get(ORIGINAL)}
    return {s.name: True for s in board.catalog.skills.values()
            if s.team is not None and (any(r in s.roles for r in had) or s.name in seat.uses)}


def member(board: Board, seat: Seat, skill: Skill) -> bool:
    """Whether ``seat`` holds ``skill`` (:func:`~.checks.holds`) or, a team skill, keeps it as a ``keeps_team`` role
    does from his ``原身份`` (107 伪装 "任意角色成为活尸后，不会失去原身份的<团队>技能": the 恶徒群's 活尸 is one of
    them, whether or not the table wrote the kept skill in his ``uses``)."""
    if holds(seat, skill):
        return True
    return (skill.team is not None and seat.fields.get(ORIGINAL) in skill.roles
            and any(s.keeps_team for s in board.catalog.skills_of(seat.role)))


def flip(board: Board, name: str, cause: str, *, strip: bool = False) -> bool:
    """Flip ``name``: to his identity's pair (its faction, the new identity's counts, the old one kept in
    ``原身份``), or back to ``原身份`` (``strip``: with no counts left). False when his identity has no
    pair and he has none to go back to (the log says so)."""
    rule = board.catalog.flip
    if rule is None:
        raise ValueError(f"{board.catalog.ruleset}: a flip needs the night file's [flip]")
    seat = board.seat(name)
    before = (seat.role, seat.faction)
    if seat.role in rule.pairs:
        _to_pair(board, rule, seat, cause)
    elif seat.role in rule.pairs.values():
        _back(board, rule, seat, cause, strip)
    else:
        board.note(f"{name}（{seat.role}）没有对应的{rule.faction}身份，不翻转")
        return False
    hooks = board.hooks
    if hooks is not None and hooks.flipped is not None:
        hooks.flipped(board, seat, before, cause)
    if seat.role != before[0]:  # ``trigger.on = "gain"``: 107 灵能 "恶灵诞生时", 夜之眼 "夜行怪加入游戏时"
        from tracker.engine.night.gains import gained  # gains → effects → flips: asked here, not at import

        gained(board, seat)
    board.hear(seat, "flip", (before[1], seat.faction))  # ``hears``: 107 灵魂链接
    return True


def _to_pair(board: Board, rule: Flip, seat: Seat, cause: str) -> None:
    old = seat.role
    new = rule.pairs[old]
    if old in rule.kept_faction:
        seat.fields[rule.kept_faction[old]] = seat.faction
    kept = kept_team(board, seat, new)
    seat.fields[ORIGINAL] = old
    seat.uses = {**kept, **new_uses(board, new)}
    board.convert(seat.name, new, rule.faction, cause)
    board.tell(seat.name, rule.told.format(role=new, faction=rule.faction, before=old))
    board.result.state_after[f"{seat.name}.{ORIGINAL}"] = old


def _back(board: Board, rule: Flip, seat: Seat, cause: str, strip: bool) -> None:
    back = seat.fields.get(ORIGINAL)
    if not isinstance(back, str) or back not in rule.pairs:
        options = [h for h, u in rule.pairs.items() if u == seat.role]
        back = board.ask(f"翻转.{seat.name}", rule.asked.format(player=seat.name, role=seat.role), options)
    kept = seat.fields.get(rule.kept_faction.get(back, ""))
    faction = kept if isinstance(kept, str) else home(board, back, seat)
    if strip:
        seat.uses = {}
    board.convert(seat.name, back, faction, cause)
    if strip:
        board.result.state_after[f"{seat.name}.技能"] = f"全部失去（{cause}）"
    board.tell(seat.name, (rule.told_stripped if strip else rule.told_back).format(role=back, faction=faction))


def home(board: Board, role: str, seat: Seat) -> str:
    """The faction of ``role`` in the ruleset's ``[[roles]]`` (the seat's own when the ruleset does not say)."""
    found = board.ruleset.role(role) if board.ruleset is not None else None
    return found.faction if found is not None else seat.faction

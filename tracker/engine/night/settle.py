"""Settling a night (or a day phase): refuse what the rules forbid, then the post's order.

Pure: the same table, actions, seed and decisions give the same :class:`Settlement`, and nothing
outside the returned value changes. The order of the steps is the post's; the order in which the
director typed the submissions matters only where the post says it does (a resubmission after a
refusal replaces the first). The generic engine (:mod:`.flow`) walks the night file's steps; a game
whose hooks (:mod:`.games`) name steps of their own is asked for those steps only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import cache
from typing import TYPE_CHECKING

from tracker.engine.night import flow, gains, joins, lastnight, losses
from tracker.engine.night.board import Board, SettlementOver
from tracker.engine.night.catalog import Catalog, Skill
from tracker.engine.night.checks import misdealt, refusal
from tracker.engine.night.effects import admitted, lost_all
from tracker.engine.night.games import GameHooks, hooks_for
from tracker.engine.night.model import Action, Settlement, Table, internal_phase
from tracker.engine.night.win import check
from tracker.errors import ConfigError, RulesetError

if TYPE_CHECKING:
    from tracker.engine.ruleset import Ruleset


@cache
def _bundled(ruleset_id: str) -> Ruleset | None:
    """A bundled ruleset with its default options, for a caller that gives none (tests, scenarios)."""
    from tracker.engine.ruleset import load_ruleset

    try:
        return load_ruleset(ruleset_id)
    except RulesetError:
        return None


def settle(catalog: Catalog, table: Table, actions: Sequence[Action], *, seed: int = 0,
           decisions: Mapping[str, str] | None = None, ruleset: Ruleset | None = None) -> Settlement:
    """Settle one phase of a game whose skills are ``catalog``.

    Unknown skills raise :class:`~tracker.errors.RulesetError` (the nearest names in its hint)
    before anything is settled: a typo must not become a silent refusal; a table a rule of the deal forbids
    (``never_believed_by``) raises :class:`~tracker.errors.ConfigError`. ``ruleset``: the game's
    rules with its options (the win check reads its ``[[win]]``); by default the bundled ruleset of
    the catalog's id.
    """
    why = misdealt(catalog, table)
    if why is not None:
        raise ConfigError(f"身份分发不符合规则：{why}", hint="改正该玩家的 role 或 believes")
    hooks = hooks_for(catalog.ruleset)
    # The public phase words (白天, 夜晚, 游戏开始前) are the internal names' in every game.
    actions = [a if internal_phase(a.phase) == a.phase else replace(a, phase=internal_phase(a.phase)) for a in actions]
    phase = internal_phase(table.phase)
    phase = None if phase in ("day", "night") else phase  # the day or night itself: no phase within it
    if phase != table.phase:
        table = replace(table, phase=phase)
    skills = [catalog.skill(a.skill) for a in actions]
    # A team may be named bare (恶徒, 放逐投票): the catalog's team names, when no player is called so.
    teams = {s.team for s in catalog.skills.values() if s.team is not None}
    actions = [replace(a, bare_team=True) if a.actor in teams and a.actor not in table.players else a
               for a in actions]
    board = Board(table, catalog, seed=seed, decisions=decisions,
                  ruleset=ruleset if ruleset is not None else _bundled(catalog.ruleset), hooks=hooks)
    try:
        _settle(board, hooks, actions, skills)
    except SettlementOver:
        board.note("胜负已分，立即终止结算")
        if hooks is not None and hooks.finish is not None:
            hooks.finish(board)
    board.result.table_after = board.table
    return board.result


def settle_setup(catalog: Catalog, table: Table, *, ruleset: Ruleset | None = None) -> Settlement:
    """What the setup facts of ``table`` (the game before it starts) set off, by the game's
    ``setup`` hook: the same steps its settlement runs for them (M19's lovers: 恋爱、私奔、双民变民,
    the arrow's own code). A game without that hook: nothing, an empty settlement. Pure."""
    hooks = hooks_for(catalog.ruleset)
    board = Board(table, catalog, ruleset=ruleset if ruleset is not None else _bundled(catalog.ruleset), hooks=hooks)
    if hooks is not None and hooks.setup is not None:
        hooks.setup(board, [])
    board.result.table_after = board.table
    return board.result


def _lost(board: Board, action: Action, skill: Skill) -> str | None:
    """A submission of a skill its user lost when he came to carry a mark (a ``gain`` trigger's ``lose``: M19 逃脱
    "当人质成为情侣时，失去<遇难><遗志>"), though the table records no spent use of it; or by any user who lost every
    skill (a ``lose`` of ``*``)."""
    for m in action.members:
        by = gains.lost_by_mark(board, board.seat(m), skill.uses or skill.name) if board.has(m) else None
        if by is not None:
            return f"{by}：{m}已失去<{skill.name}>"
        every = lost_all(board, m) if board.has(m) else None
        if every is not None:  # a ``lose`` of ``*`` (M19 遗志 "失去所有技能"): a team naming him too
            return f"{m}已因<{every}>失去所有技能"
    return None


def _settle(board: Board, hooks: GameHooks | None, actions: list[Action], skills: list[Skill]) -> None:
    losses.install(board)  # a faction's loss sets off the ``loss`` triggers (M19 寡妇刀), those recorded before too
    check(board, "start")  # a win the table already holds (M160: the day's vote put the 恶魔 out)
    lastnight.prepare(board)  # a bond's survivor on his last night holds its skill (M19 忠犬 "并在下一讨论日夜晚获得<杀人>")
    if hooks is not None and hooks.prepare is not None:
        hooks.prepare(board, list(actions))  # what the post settles before anyone chooses (107's (1) 诅咒)
    lent = hooks.grants(board.table) if hooks is not None and hooks.grants is not None else {}
    legal: list[Action] = []
    day = board.catalog.day_before(board.night) if board.night is not None else board.table.day
    for action, skill in zip(actions, skills, strict=True):
        action = action if action.skill == skill.name else replace(action, skill=skill.name)
        join = joins.joining(board, action, skill)  # 107 统御 "共群": a team skill sent by its group's other players
        if join is not None and join[1] == joins.CHAT:
            why: str | None = joins.chat_only(action, skill, join[0])
        else:
            why = refusal(board.table, action, skill, lent.get(action.actor, ()), joined=join is not None, day=day)
        if why is None and join is None and (hooks is None or skill.name not in hooks.holders):
            why = flow.refuse_team(board.table, action, skill)
        if why is None:
            why = flow.refuse_together(board.table, action, skill, legal)
        if why is None and hooks is not None and hooks.refuse is not None:
            why = hooks.refuse(board.table, action)
        if why is None:
            why = _lost(board, action, skill)
        if why is None:
            why = admitted(board, action, skill)
        if why is not None:
            board.reject(action, why, skill.clause)
        else:
            if join is not None:
                joins.acting(board, action, skill, join[0])
            legal.append(action)
    flow.run(board, legal)
    check(board, "end")

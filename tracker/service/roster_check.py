"""After a crawl: the game file's players against the accounts posting in the game's threads.

Functions over the game's context (no mixin, so the service's composition is untouched): one GROUP
BY over the stored posts of the game's threads, then :func:`tracker.engine.roster_names.check_names`;
the roster's contradictions of the ruleset, which `Votes.confirm_day` and the win check refuse on.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from tracker.engine.roster_names import RosterCheck, check_names

if TYPE_CHECKING:
    from tracker.service.context import GameContext


def roster_check(ctx: GameContext, substitutes: Iterable[str]) -> RosterCheck | None:
    """None when nothing is stored yet (a first crawl that failed says nothing about names).
    ``substitutes`` (the log's 替补) post in the threads without being in ``[[players]]``."""
    from tracker.store.posts import posts_per_author

    tids = list(ctx.game.thread_ids())
    if not tids:
        return None
    with ctx.store.unit() as s:
        counts = posts_per_author(s, tids)
    if not counts:
        return None
    others = [*ctx.game.directors, *ctx.game.spectators, *substitutes]
    return check_names(list(ctx.game.player_names), others, counts)


def substitutes_for_check(ctx: GameContext, substitutes: Callable[[], dict[str, str]]) -> dict[str, str]:
    """The log's 替补 for :func:`roster_check` after a crawl: ``substitutes`` (the log's fold,
    :meth:`GameLog.substitutes`) is asked only when the log records a substitution. A log without
    one has no substitute, and `tracker crawl` then loads neither the ruleset nor the engine."""
    from tracker.engine.events import EventKind, from_config
    from tracker.store.events import load_events

    events = from_config(ctx.game.events)
    if not any(e.kind == EventKind.SUBSTITUTED for e in events):
        with ctx.store.unit() as s:
            events = load_events(s)
        if not any(e.kind == EventKind.SUBSTITUTED for e in events):
            return {}
    return substitutes()


def stored_uids(ctx: GameContext, names: list[str]) -> dict[str, int]:
    """name → uid from any stored post of that account (any thread): the 电梯楼 at a day's opening
    links players who have not posted in the new thread yet."""
    from tracker.store.posts import uids_by_author

    if not names:
        return {}
    with ctx.store.unit() as s:
        return uids_by_author(s, names)


def roster_errors(ctx: GameContext) -> list[str]:
    """The roster's contradictions of the ruleset (errors only; warnings do not stop anything).

    A result decided on a wrong roster is wrong (seats, factions and win conditions are counted
    from it), so `Votes.confirm_day` refuses (for the CLI and the TUI alike) and the win check
    names no winner."""
    from tracker.engine.roster import check_assignment

    return [p.message for p in check_assignment(ctx.ruleset, ctx.game.players) if p.level == "error"]


def refuse_on_roster_errors(errors: list[str], what: str) -> None:
    from tracker.errors import ConfigError

    if errors:
        raise ConfigError(f"游戏文件的玩家配置与规则矛盾，{what}：{'；'.join(errors)}",
                          hint="先改正游戏文件的 [[players]]（人数、身份、阵营），再执行")

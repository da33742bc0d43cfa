"""Look up the post a card names and the game day it belongs to (helpers for ``issue_card``).

Kept apart from the card ledger service (cards.py) so the day-and-place rules stay one small file: the director
may name the post by pid or by ``TID#FLOOR`` (what the page shows), and the card's day comes from
``--day``, else from the post (its thread's day), else from the decision's time.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from tracker.config import GameConfig
from tracker.errors import UnknownIdError
from tracker.penalties.place import PostRef, day_at, day_of_post, parse_post_ref

if TYPE_CHECKING:
    from sqlmodel import Session


@dataclass(frozen=True, slots=True)
class Located:
    pid: int | None
    evidence: str | None
    day: int | None


def find_post(ref: int | str, *, session: Session) -> tuple[int, int, datetime, str]:
    """(pid, tid, posted_at, html hash) of the post named by a pid or ``TID#FLOOR``."""
    from tracker.store.posts import post_at_floor, post_by_pid

    r = PostRef(pid=ref) if isinstance(ref, int) else parse_post_ref(ref)
    if r.pid is not None:
        found = post_by_pid(session, r.pid)
        if found is None:
            raise UnknownIdError(f"数据库里没有帖子 pid {r.pid}",
                                hint="先运行 `tracker crawl GAME.toml` 抓取，或用 帖子编号#楼层（如 3#17）")
        return found
    assert r.tid is not None and r.floor is not None
    found = post_at_floor(session, r.tid, r.floor)
    if found is None:
        raise UnknownIdError(f"数据库里没有帖 {r.tid} 第 {r.floor} 楼",
                            hint="先运行 `tracker crawl GAME.toml` 抓取；`tracker posts GAME.toml --thread "
                                 f"{r.tid}` 列出这个帖子的楼层")
    return found


def locate(game: GameConfig, *, post: int | str | None, day: int | None, now: datetime,
           session: Session) -> Located:
    """The card's post (pid and evidence hash) and its day: ``day`` as given (checked against the
    game file), else the post's day, else the day open at ``now``."""
    if day is not None:
        game.day(day)  # a day the game file does not have is refused with the days it has
    if post is None:
        return Located(None, None, day if day is not None else day_at(game.days, now))
    pid, tid, posted_at, evidence = find_post(post, session=session)
    if posted_at.tzinfo is None:
        from datetime import UTC

        posted_at = posted_at.replace(tzinfo=UTC)
    return Located(pid, evidence, day if day is not None else day_of_post(game.days, tid, posted_at))


def places(pids: list[int], *, session: Session) -> dict[int, tuple[int, int, datetime]]:
    """pid → (tid, floor, posted_at), in one query."""
    from tracker.store.posts import places_of

    return places_of(session, pids)

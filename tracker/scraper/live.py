"""One thread read straight from the forum, kept in memory and never stored.

``tracker cards verify --anchors-from-forum`` compares the ledger with the anchors the directors
posted in the process thread. Read from the database, those posts prove nothing against someone who
can write the database (they rewrite the stored copy with the chain); read live, they are what the
forum shows now, dated and public. The desktop pages are read (the whole text, as posted), at most
as many as the thread's reply count fills.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING

from tracker.config import GameConfig
from tracker.errors import UNPARSABLE, NotAThreadError, ParseError
from tracker.records import Post
from tracker.scraper.auth import open_session
from tracker.scraper.desktop import parse_thread_page
from tracker.scraper.fetch import Fetcher, FetchPolicy

if TYPE_CHECKING:
    import httpx

MAX_PAGES = 200  # a process thread holds the director's announcements: a few hundred posts at most


async def thread_posts(game: GameConfig, tid: int, *, transport: httpx.AsyncBaseTransport | None = None,
                       password: Callable[[], str] | None = None) -> list[Post]:
    """Every post of thread ``tid`` as the forum shows it now (desktop pages, page 1 first)."""
    async with Fetcher(game.forum, FetchPolicy.from_config(game.crawl), transport=transport) as fetcher:
        await open_session(fetcher, game, password=password)
        posts: dict[int, Post] = {}
        page, last = 1, 1
        while page <= last:
            got = await fetcher.get(f"forum.php?mod=viewthread&tid={tid}&page={page}", kind="html")
            try:
                tp = parse_thread_page(got.body, page_url=got.url, tz=game.tz, content_type=got.content_type)
            except UNPARSABLE as exc:
                raise ParseError(f"页面无法解析（{type(exc).__name__}）", page=got.url) from None
            if tp.tid != tid:
                raise NotAThreadError(f"请求主题 {tid} 的第 {page} 页，论坛却返回了主题 {tp.tid}", page=got.url)
            if page > 1 and tp.page != page:
                break  # past the end Discuz repeats the last page
            fresh = [p for p in tp.posts if p.pid not in posts]
            posts.update((p.pid, p) for p in fresh)
            if page == 1:
                per_page = max(1, len(tp.posts))
                by_replies = -(-(tp.replies + 1) // per_page) + 1 if tp.replies is not None else MAX_PAGES
                last = min(tp.pages, by_replies, MAX_PAGES)
            elif not fresh:
                break
            page += 1
        return sorted(posts.values(), key=lambda p: (p.floor, p.pid))


def thread_posts_sync(game: GameConfig, tid: int, *, transport: httpx.AsyncBaseTransport | None = None,
                      password: Callable[[], str] | None = None) -> list[Post]:
    return asyncio.run(thread_posts(game, tid, transport=transport, password=password))

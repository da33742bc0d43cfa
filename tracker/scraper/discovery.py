"""Finding a game's threads and players on the forum, before the game file is written.

Without this a director probes ``viewthread&tid=N`` by hand. Two reads, both over the crawler's own
fetcher (politeness, retries, login cookies):

- a section's thread list: the mobile API's ``forumdisplay`` (or the desktop list when the API is
  off), with tid, title, author and replies — the section defaults to the one holding the game's
  process thread (or first configured thread);
- a sign-up thread's posting accounts with their uids, in the order they first posted, from the
  mobile API's ``viewthread`` (one request with a large ``ppp``), or the desktop pages.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from tracker.config import GameConfig
from tracker.errors import ConfigError, NotAThreadError, ThreadMissingError
from tracker.records import Post, ThreadSummary
from tracker.scraper.fetch import Fetcher, FetchPolicy

SIGNUP_PPP = 1000


@dataclass(frozen=True, slots=True)
class SignUp:
    """The accounts that posted in a sign-up thread (directors left out), in order of their first post."""

    tid: int
    subject: str
    accounts: tuple[tuple[str, int | None, int], ...]
    """(name, uid, floor of the first post)."""


def _fetcher(game: GameConfig) -> Fetcher:
    return Fetcher(game.forum, FetchPolicy.from_config(game.crawl))


async def _viewthread(f: Fetcher, game: GameConfig, tid: int) -> tuple[str, list[Post], int | None]:
    """(subject, every post, fid) of a thread: the mobile listing, paged while pages come back full."""
    from tracker.scraper.desktop import parse_thread_page
    from tracker.scraper.mobile import parse_viewthread

    posts: list[Post] = []
    subject, fid = "", None
    if game.crawl.mobile_api:
        page = 1
        while True:
            url = f"api/mobile/index.php?version=4&module=viewthread&tid={tid}&page={page}&ppp={SIGNUP_PPP}"
            got = await f.get(url, kind="json")
            tp = parse_viewthread(got.body, page_url=f.absolute(url), tz=game.tz)
            subject, fid = tp.subject, tp.fid
            new = [p for p in tp.posts if p.pid not in {q.pid for q in posts}]
            posts += new
            if not new or tp.page >= tp.pages:
                return subject, posts, fid
            page += 1
    page, pages = 1, 1
    while page <= pages:
        url = f"forum.php?mod=viewthread&tid={tid}&page={page}"
        got = await f.get(url)
        tp = parse_thread_page(got.body, content_type=got.content_type, tz=game.tz, page_url=f.absolute(url))
        subject, fid, pages = tp.subject, tp.fid, tp.pages
        posts += tp.posts
        page += 1
    return subject, posts, fid


async def _threads(game: GameConfig, fid: int | None) -> tuple[int, list[ThreadSummary]]:
    from tracker.scraper.auth import open_session

    async with _fetcher(game) as f:
        await open_session(f, game)
        if fid is None:
            tids = game.thread_ids()
            if not tids:
                raise ConfigError("不知道看哪个版块", hint="用 --forum FID 指定版块编号（版块地址里的 fid=…）")
            _, _, fid = await _viewthread(f, game, tids[0])
            if fid is None:
                raise ConfigError(f"帖 {tids[0]} 的页面没有写版块编号", hint="用 --forum FID 指定版块编号")
        if game.crawl.mobile_api:
            from tracker.scraper.mobile import parse_forumdisplay_mobile

            url = f"api/mobile/index.php?version=4&module=forumdisplay&fid={fid}"
            got = await f.get(url, kind="json")
            try:
                return fid, parse_forumdisplay_mobile(got.body, page_url=f.absolute(url), tz=game.tz)
            except NotAThreadError:
                # Not the mobile API's JSON: a missing section answered with an error page, or a
                # forum whose API is off; the desktop list says which.
                if got.status == 404:
                    raise _no_section(fid, got.status) from None
        from tracker.scraper.desktop import parse_forumdisplay

        url = f"forum.php?mod=forumdisplay&fid={fid}"
        got = await f.get(url)
        if got.status == 404:
            raise _no_section(fid, got.status)
        try:
            return fid, list(parse_forumdisplay(got.body, tz=game.tz, content_type=got.content_type,
                                                page_url=f.absolute(url)))
        except NotAThreadError as exc:
            exc.hint = exc.hint or ("检查 --forum 的编号：版块地址 forum.php?mod=forumdisplay&fid=… 里的数字；"
                                    "版块需要登录时在游戏文件的 [login] 写账号")
            raise


def _no_section(fid: int, status: int) -> ThreadMissingError:
    return ThreadMissingError(f"论坛上没有版块 fid {fid}（论坛回应 HTTP {status}）",
                              hint="检查 --forum 的编号：版块地址 forum.php?mod=forumdisplay&fid=… 里的数字；"
                                   "不写 --forum 时取游戏文件里第一个帖子所在的版块")


async def _signup(game: GameConfig, tid: int) -> SignUp:
    from tracker.scraper.auth import open_session

    async with _fetcher(game) as f:
        await open_session(f, game)
        subject, posts, _ = await _viewthread(f, game, tid)
    directors = set(game.directors)
    seen: dict[str, tuple[str, int | None, int]] = {}
    for p in sorted(posts, key=lambda p: p.floor):
        if p.author in directors or p.author in seen or not p.author:
            continue
        seen[p.author] = (p.author, p.uid, p.floor)
    return SignUp(tid, subject, tuple(seen.values()))


def forum_threads(game: GameConfig, fid: int | None = None) -> tuple[int, list[ThreadSummary]]:
    """(the section's fid, its threads as the list shows them)."""
    return asyncio.run(_threads(game, fid))


def signup_accounts(game: GameConfig, tid: int) -> SignUp:
    return asyncio.run(_signup(game, tid))

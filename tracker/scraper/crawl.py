"""One crawl of a game: fetch → parse → store, incrementally, and safe to kill at any moment.

Per thread: one mobile listing (``ppp`` sized from the stored reply count, at least 1000; paged
only if the forum caps it) is compared with the store (:func:`tracker.scraper.plan.plan_thread`); only the desktop pages holding new, edited or
never-seen-on-desktop posts are fetched. Without the mobile API every desktop page is fetched.

Order of writes, so that a crawl killed anywhere (SIGKILL included) leaves a consistent store that
the next run completes without duplicates:

1. the listing's posts are upserted in one transaction: edits, blocks, new floors of known posts;
2. deletions are marked only from a complete listing (never removed);
3. desktop pages are upserted 20 to a transaction as they arrive; a new post is first written
   from its desktop page (one write with sizes and edit marker);
4. new posts whose page did not come (an error, a page that moved) are written from the listing,
   "pending desktop".

A post stored without its desktop page, or not stored because the process was killed before its
page came, is planned again next run. The crawl record is written first (status ``running``) and
finished last, so a killed crawl stays visible. Unchanged posts are not rewritten and an unchanged
listing's raw answer is not kept: re-crawling an unchanged game writes only the crawl record. A
listed message identical to the one last stored (its digest, ``post.listing_digest``) is not even
extracted again: the listing gives only its place.

Errors: a thread that is missing, forbidden or not a thread is reported and the other threads are
still crawled; an unreachable forum or an expired login stops the crawl. Either way nothing stored
before is lost.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from tracker.clock import Clock, SystemClock
from tracker.config import GameConfig
from tracker.errors import (
    UNPARSABLE,
    ConfigError,
    ForumError,
    LoginError,
    NetworkError,
    NoPermissionError,
    NotAThreadError,
    ParseError,
    ThreadMissingError,
    TrackerError,
)
from tracker.records import ListedPost, Post, ThreadPage
from tracker.scraper.auth import Session, expired_error, fresh_login, is_guest_view, open_session
from tracker.scraper.desktop import is_logged_in, parse_thread_page
from tracker.scraper.fetch import Fetched, Fetcher, FetchPolicy
from tracker.scraper.mobile import parse_viewthread
from tracker.scraper.plan import (
    DESKTOP_PER_PAGE,
    LISTING_PPP,
    CrawlPlan,
    Listing,
    follow_up_pages,
    listing_complete,
    plan_thread,
)
from tracker.store.db import Store, UnitOfWork
from tracker.store.posts import (
    ListingSeen,
    RawAnswer,
    ThreadState,
    close_stale_crawls,
    content_key,
    finish_crawl,
    mark_deleted,
    move_listed,
    note_listing_digests,
    observation_changed,
    pack_raw,
    save_raws,
    save_thread,
    start_crawl,
    thread_state,
    touch_as_stored,
    upsert_posts,
)

if TYPE_CHECKING:
    import httpx

MAX_LISTING_PAGES = 200
LISTING_SLACK = 50  # pids a listing may hold beyond the ppp asked (a quoted pid, a few extra keys)
# What a Discuz answer can weigh, checked before it is parsed (an absurd one is refused, not stored):
# a post is at most a few tens of KB of HTML (Discuz's default limit is 10,000 characters), so a
# listing of ppp posts is at most ppp × LISTING_POST_BYTES and a desktop page of ten posts far
# below MAX_DESKTOP_PAGE_BYTES. Both are under [crawl] max_page_mb, which bounds any answer.
LISTING_POST_BYTES = 64 * 1024
MAX_DESKTOP_PAGE_BYTES = 16 * 1024 * 1024
MAX_DESKTOP_PAGES = 5000  # 50,000 posts at Discuz's 10 a page; without a reply count, the walk stops here
DESKTOP_BATCH = 20  # desktop pages stored per transaction
T = TypeVar("T")

ThreadStatus = Literal["ok", "missing", "no_permission", "not_a_thread", "parse_error", "forum_error"]


@dataclass(frozen=True, slots=True)
class CrawlProgress:
    """What a progress display needs; sent after every document and at each thread's start/end."""

    event: Literal["start", "thread", "document", "thread_done", "done", "step"]  # step: work after the crawl
    tid: int | None
    threads_done: int
    threads_total: int
    requests: int
    pages_fetched: int
    detail: str = ""


Progress = Callable[[CrawlProgress], None]


@dataclass(slots=True)
class ThreadReport:
    tid: int
    subject: str = ""
    status: ThreadStatus = "ok"
    source: Literal["mobile+desktop", "desktop"] = "mobile+desktop"
    requests: int = 0
    pages_fetched: int = 0
    listing_complete: bool = False
    desktop_pages: list[int] = field(default_factory=list)
    posts_seen: int = 0
    posts_new: int = 0
    posts_changed: int = 0
    posts_deleted: int = 0
    pending_desktop: list[int] = field(default_factory=list)
    error: str | None = None
    cause: TrackerError | None = field(default=None, repr=False, compare=False)
    """The error itself, raised as is (its hint and page kept) when the command ends."""

    def to_json(self) -> dict[str, Any]:
        return {
            "tid": self.tid, "subject": self.subject, "status": self.status, "source": self.source,
            "requests": self.requests, "pages_fetched": self.pages_fetched,
            "listing_complete": self.listing_complete, "desktop_pages": self.desktop_pages,
            "posts_seen": self.posts_seen, "posts_new": self.posts_new, "posts_changed": self.posts_changed,
            "posts_deleted": self.posts_deleted, "pending_desktop": self.pending_desktop, "error": self.error,
        }


@dataclass(slots=True)
class CrawlReport:
    crawl_id: int
    threads: list[ThreadReport]
    requests: int
    pages_fetched: int
    status: Literal["ok", "partial", "failed"] = "ok"
    errors: list[TrackerError] = field(default_factory=list)

    @property
    def posts_new(self) -> int:
        return sum(t.posts_new for t in self.threads)

    @property
    def posts_changed(self) -> int:
        return sum(t.posts_changed for t in self.threads)

    @property
    def posts_deleted(self) -> int:
        return sum(t.posts_deleted for t in self.threads)

    def to_json(self) -> dict[str, Any]:
        return {
            "threads": [t.to_json() for t in self.threads], "requests": self.requests,
            "pages_fetched": self.pages_fetched, "posts_new": self.posts_new, "posts_changed": self.posts_changed,
            "posts_deleted": self.posts_deleted, "crawl_id": self.crawl_id, "status": self.status,
        }


class _LoginExpired(Exception):
    """Internal: a page came back as a guest's while the session should be a member's."""


class _MobileUnavailable(Exception):
    """Internal: the forum's mobile API is off or absent; crawl from desktop pages."""


def mobile_url(tid: int, page: int, ppp: int) -> str:
    return f"api/mobile/index.php?version=4&module=viewthread&tid={tid}&page={page}&ppp={ppp}"


def listing_ppp_for(replies: int | None, floor: int = LISTING_PPP) -> int:
    """A ``ppp`` large enough for the whole thread in one answer, with room to grow, in thousands.

    A thread stored with 2,700 replies is asked with ppp 4000: one request, where ppp 1000 would
    page three times on every crawl.
    """
    if not replies:
        return floor
    return max(floor, -(-int((replies + 1) * 1.25) // 1000) * 1000)


def desktop_url(tid: int, page: int) -> str:
    return f"forum.php?mod=viewthread&tid={tid}&page={page}"


def _status_of(exc: TrackerError) -> ThreadStatus:
    if isinstance(exc, ThreadMissingError):
        return "missing"
    if isinstance(exc, NoPermissionError):
        return "no_permission"
    if isinstance(exc, NotAThreadError):
        return "not_a_thread"
    if isinstance(exc, ParseError):
        return "parse_error"
    return "forum_error"


async def _all(coros: Sequence[Coroutine[Any, Any, T]]) -> list[T]:
    """``gather`` that cancels the siblings when one fails (no request outlives the crawl's client)."""
    tasks = [asyncio.ensure_future(c) for c in coros]
    try:
        return list(await asyncio.gather(*tasks))
    except BaseException:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise


@dataclass(frozen=True, slots=True)
class _Listed:
    """What the desktop pages of a listing's plan take from it, computed once per listing (not once
    per batch of 20 pages: for a 2,700-post thread that was 40,000 content keys on a first crawl)."""

    positions: dict[int, int | None]
    seen: dict[int, ListingSeen]
    stored: dict[int, str]
    """pid → the stored desktop message's digest, for the posts the listing left as they were: a
    page showing one of them with that HTML gives it as seen, not extracted (SeenAsStored)."""

    @classmethod
    def of(cls, listing: Listing, state: ThreadState, plan: CrawlPlan) -> _Listed:
        moved = {*plan.new, *plan.changed}
        stored = {pid: digest for pid, known in state.known.items()
                  if pid not in moved and (digest := known.as_stored_if()) is not None}
        return cls(positions={p.pid: p.position for p in listing.placed}, seen=_seen(listing, state), stored=stored)


def _seen(listing: Listing, state: ThreadState) -> dict[int, ListingSeen]:
    """What the listing showed of each post, stored with it: the content key of an extracted one,
    the stored listing key of one listed unchanged, each with its message's digest."""
    seen = {p.pid: ListingSeen(content_key(p), listing.digests.get(p.pid)) for p in listing.posts if not p.blocked}
    for same in listing.unchanged:
        known = state.known.get(same.pid)
        if known is not None and known.listing_key is not None:
            seen[same.pid] = ListingSeen(known.listing_key, same.digest)
    return seen


def _parsed_and_packed(body: bytes, pack: bool, **parse: Any) -> tuple[ThreadPage, bytes | None]:
    """A desktop page parsed, and (``pack``) its body compressed to be kept, in one worker thread.

    Compressing the pages was the crawl's largest cost left on the event loop's thread (~0.1 s of a
    first 3,000-post crawl), which also fetches and stores; zlib lets go of the GIL while it works, so
    on a machine with a second core it runs beside them."""
    return parse_thread_page(body, **parse), (pack_raw(body) if pack else None)


def _packed(raws: Sequence[RawAnswer]) -> list[RawAnswer]:
    return [r.packed() for r in raws]


class _Crawler:
    def __init__(self, game: GameConfig, store: Store, fetcher: Fetcher, session: Session, clock: Clock,
                 crawl_id: int, progress: Progress | None, *, per_page: int, listing_ppp: int,
                 keep_raw: bool) -> None:
        self.game = game
        self.store = store
        self.fetcher = fetcher
        self.session = session
        self.clock = clock
        self.crawl_id = crawl_id
        self.progress = progress
        self.per_page = per_page
        self.listing_ppp = listing_ppp
        self.keep_raw = keep_raw
        self.use_mobile = game.crawl.mobile_api
        self._listing_raws: dict[int, list[RawAnswer]] = {}
        self.password: Callable[[], str] | None = None
        self.session_file: Path | None = None
        self.pages_fetched = 0
        self.threads_done = 0
        self.threads_total = 0
        self.tz = game.tz

    # -- progress and bookkeeping -------------------------------------------------------------

    def emit(self, event: Literal["start", "thread", "document", "thread_done", "done"], tid: int | None,
             detail: str = "") -> None:
        if self.progress is not None:
            self.progress(CrawlProgress(event=event, tid=tid, threads_done=self.threads_done,
                                        threads_total=self.threads_total, requests=self.fetcher.stats.requests,
                                        pages_fetched=self.pages_fetched, detail=detail))

    def now(self) -> datetime:
        return self.clock.now()

    def raw(self, got: Fetched, into: list[RawAnswer], packed: bytes | None = None) -> None:
        """Note an answer to keep raw, with the time it came (stored later, with its batch).
        ``packed``: its body already compressed by :func:`pack_raw` (in a worker thread)."""
        if self.keep_raw:
            into.append(RawAnswer(got.url, got.status, got.content_type, got.body, self.now(), packed))

    def keep(self, s: UnitOfWork, raws: Sequence[RawAnswer]) -> None:
        """Keep raw answers in the caller's session: one statement and one commit for a batch of pages,
        not a session, an insert and a commit per page (304 of them on a first 3,000-post crawl)."""
        save_raws(s, raws, self.crawl_id)

    def keep_now(self, raws: Sequence[RawAnswer]) -> None:
        if raws:
            with self.store.unit() as s:
                self.keep(s, raws)

    def counted(self, rep: ThreadReport, got: Fetched) -> None:
        rep.requests += got.requests
        rep.pages_fetched += 1
        self.pages_fetched += 1

    def check_member(self, member_uid: int | None, member_name: str | None) -> None:
        if self.session.expect_member and is_guest_view(member_uid, member_name):
            raise _LoginExpired

    # -- one thread ---------------------------------------------------------------------------

    async def thread(self, tid: int, *, may_relogin: bool = False) -> ThreadReport:
        try:
            return await self._thread(tid)
        except _LoginExpired:
            if may_relogin and self.session.mode == "saved":
                self.session = await fresh_login(self.fetcher, self.game, password=self.password,
                                                 store_path=self.session_file)
                try:
                    return await self._thread(tid)
                except _LoginExpired:
                    pass
            raise expired_error(self.session) from None

    async def _thread(self, tid: int) -> ThreadReport:
        rep = ThreadReport(tid=tid)
        self.emit("thread", tid)
        try:
            with self.store.unit() as s:
                state = thread_state(s, tid)
            listing: Listing | None = None
            if self.use_mobile:
                try:
                    listing = await self.listing(tid, rep, ppp=listing_ppp_for(state.replies, self.listing_ppp),
                                                 state=state)
                except _MobileUnavailable:
                    self.use_mobile = False
            if listing is not None:
                await self.incremental(listing, state, rep)
            else:
                await self.desktop_everything(tid, state, rep)
        except (ForumError, ParseError) as exc:
            if isinstance(exc, LoginError):
                raise
            rep.status = _status_of(exc)
            rep.error = str(exc)
            rep.cause = exc
        self.threads_done += 1
        self.emit("thread_done", tid, rep.status)
        return rep

    # -- the mobile listing -------------------------------------------------------------------

    def _mobile_doc(self, got: Fetched, first: bool, ppp: int) -> dict[str, Any]:
        if len(got.body) > ppp * LISTING_POST_BYTES + (1 << 20):
            raise ParseError(f"移动版接口的回应有 {len(got.body) >> 20} MB，每页 {ppp} 帖的列表不会这么大：已放弃",
                             page=got.url)
        claimed = got.body.count(b'"pid"')
        if claimed > ppp + LISTING_SLACK:
            # a listing holds at most the ppp asked for: 880,000 posts answering ppp=1000 is refused
            # before json.loads builds them (it took 3.9 GB), and nothing of it is stored
            raise ParseError(f"移动版接口的回应含有 {claimed} 个帖子，而请求的是每页 {ppp} 个：不像 Discuz 的回应，已放弃",
                             page=got.url)
        try:  # the fetcher's truncation check parsed it already (nothing else reads it meanwhile)
            data = got.document if got.document is not None else json.loads(got.body)
        except RecursionError:
            raise ParseError("移动版接口返回的 JSON 嵌套过深，无法解析", page=got.url) from None
        except ValueError:
            data = None
        if not isinstance(data, dict) or ("Variables" not in data and "Message" not in data):
            # {"error":"mobile_is_closed"}, an HTML 404 where the plugin is absent, anything else
            if first:
                raise _MobileUnavailable
            raise NotAThreadError("移动版接口的回应不是主题列表", page=got.url)
        variables = data.get("Variables")
        if isinstance(variables, dict) and self.session.expect_member:
            uid = str(variables.get("member_uid") or "0")
            self.check_member(None if uid == "0" else int(uid) if uid.isdigit() and len(uid) < 19 else None,
                              str(variables.get("member_username") or "") or None)
        return data

    async def listing(self, tid: int, rep: ThreadReport, *, ppp: int, state: ThreadState | None = None) -> Listing:
        raws = self._listing_raws.setdefault(tid, [])
        raws.clear()
        # the messages as last listed: a post listed with the same one is not extracted again
        stored = {pid: d for pid, k in state.known.items() if (d := k.unchanged_if()) is not None} if state else {}
        posts: dict[int, Post | ListedPost] = {}
        digests: dict[int, str] = {}
        page = 1
        first_doc: ThreadPage | None = None
        ended = False
        last_len = 0
        while True:
            got = await self.fetcher.get(mobile_url(tid, page, ppp), kind="json")
            # parsed off the event loop: the watcher's heartbeat and the TUI keep their beat meanwhile
            data = await asyncio.to_thread(self._mobile_doc, got, page == 1, ppp)
            self.raw(got, raws)
            try:
                doc = await asyncio.to_thread(parse_viewthread, data, page_url=got.url, tz=self.tz, stored=stored)
            except UNPARSABLE as exc:
                raise ParseError(f"移动版接口的回应无法解析（{type(exc).__name__}）", page=got.url) from None
            self.counted(rep, got)
            self.emit("document", tid, f"列表第 {page} 页")
            first_doc = first_doc or doc
            listed: list[Post | ListedPost] = [*doc.posts, *doc.unchanged]
            fresh = [p for p in listed if p.pid not in posts]
            for p in fresh:
                posts[p.pid] = p
            digests.update(doc.digests)
            answered_ppp = doc.ppp or ppp
            last_len = len(doc.posts) + len(doc.unchanged)
            expected = doc.replies + 1 if doc.replies is not None else None
            if not fresh or last_len < answered_ppp:
                ended = True  # a short page, or a page past the end (Discuz repeats the last one)
                break
            if expected is not None and len(posts) >= expected:
                break
            if page >= MAX_LISTING_PAGES:
                break
            page += 1
        ordered = tuple(sorted(posts.values(), key=lambda p: (p.floor, p.pid)))
        expected = first_doc.replies + 1 if first_doc.replies is not None else None
        complete = listing_complete(ordered) and (ended or len(ordered) == expected)
        rep.subject = first_doc.subject
        rep.listing_complete = complete
        return Listing(tid=tid, subject=first_doc.subject, posts=tuple(p for p in ordered if isinstance(p, Post)),
                       replies=first_doc.replies, maxposition=first_doc.maxposition, complete=complete,
                       requests=page, unchanged=tuple(p for p in ordered if isinstance(p, ListedPost)),
                       digests=digests)

    async def incremental(self, listing: Listing, state: ThreadState, rep: ThreadReport) -> None:
        """Store what the listing says, then the planned desktop pages.

        A new post whose desktop page is about to be fetched is stored from that page (one write,
        with its sizes and edit marker), not first from the listing and then again. If its page
        does not come (an error, a page that moved), it is stored from the listing, pending desktop;
        if the process is killed first, it is simply still new to the next run, which plans its
        page again. Everything else the listing says (edits, blocks, new floors) is stored at once.
        """
        plan = plan_thread(listing, state, per_page=self.per_page)
        # An unchanged listing is not kept: it would only repeat the stored one every crawl.
        raws = self._listing_raws.pop(listing.tid, []) if not plan.quiet else []
        if raws:  # compressed off the event loop, as the desktop pages are (see desktop_page)
            raws = await asyncio.to_thread(_packed, raws)
        wanted = set(plan.wanted)
        deferred = [p for p in listing.posts if p.pid in wanted and p.pid not in state.known]
        deferred_pids = {p.pid for p in deferred}
        now = self.now()
        # Posts the listing shows exactly as stored are not rewritten: the thread's listed_at says when
        # they were last seen alive, and an unchanged thread then costs one read, no write.
        writes = [p for p in listing.posts
                  if p.pid not in deferred_pids and observation_changed(state.known.get(p.pid), p)]
        seen = _seen(listing, state)
        written = {p.pid for p in writes}
        # said as stored, but listed with a message whose digest the store lacks: noted for next time
        notes = [(p.pid, seen[p.pid]) for p in listing.posts
                 if p.pid not in written and p.pid in seen and p.pid in state.known
                 and state.known[p.pid].listing_digest != seen[p.pid].digest]
        moved = [p for p in listing.unchanged if p.pid in state.known and (
            state.known[p.pid].floor != p.floor
            or (p.position is not None and state.known[p.pid].position != p.position))]
        placed = listing.placed
        with self.store.unit() as s:
            self.keep(s, raws)
            move_listed(s, moved, seen_at=now)
            note_listing_digests(s, notes)
            result = upsert_posts(s, writes, seen_at=now, crawl_id=self.crawl_id, known=state.known, listed=seen)
            deleted: list[int] = []
            if listing.complete and placed:
                deleted = mark_deleted(s, listing.tid, [p.pid for p in placed], seen_at=now)
            pages = -(-len(placed) // self.per_page) if placed else None
            save_thread(s, listing.tid, listing.subject or None, listing.replies, listing.maxposition, pages,
                        seen_at=now, listed_at=now if listing.complete else None)
        rep.posts_seen = len(placed)
        rep.posts_new += len(result.new_pids)
        rep.posts_changed += len(result.changed_pids)
        rep.posts_deleted += len(deleted)
        stored: set[int] = set()
        try:
            await self.desktop_for(plan, listing, state, rep, stored)
        finally:
            leftovers = [p for p in deferred if p.pid not in stored]
            if leftovers:
                with self.store.unit() as s:
                    rep.posts_new += len(upsert_posts(s, leftovers, seen_at=self.now(), crawl_id=self.crawl_id,
                                                      listed=seen).new_pids)

    async def desktop_for(self, plan: CrawlPlan, listing: Listing, state: ThreadState, rep: ThreadReport,
                          stored: set[int]) -> None:
        """Fetch the planned pages, then look once more for wanted posts the thread moved meanwhile."""
        wanted = set(plan.wanted)
        fetched: dict[int, Sequence[Post]] = {}
        todo = list(plan.desktop_pages)
        listed = _Listed.of(listing, state, plan) if todo else None
        for _round in range(2):
            if not todo:
                break
            pages = await self.desktop_pages(listing.tid, todo, rep, stored, listed)
            for n, tp in zip(todo, pages, strict=True):
                fetched[n] = tp.posts
                fetched.setdefault(tp.page, tp.posts)
                wanted -= set(tp.pids)
            rep.desktop_pages.extend(todo)
            missing = [p for p in listing.placed if p.pid in wanted]
            todo = list(follow_up_pages(missing, fetched, self.per_page)) if missing else []
        rep.pending_desktop = sorted(wanted)

    # -- desktop pages ------------------------------------------------------------------------

    async def desktop_pages(self, tid: int, pages: Sequence[int], rep: ThreadReport,
                            stored: set[int] | None = None, listed: _Listed | None = None) -> list[ThreadPage]:
        """Fetch pages (concurrently, within the fetcher's bounds) and store them a batch at a time.

        Each batch is one transaction for its posts, preceded by one for its raw pages: a kill loses
        at most the batch in flight, never consistency, and the listing already stored those posts
        as pending desktop. If a page of the batch fails, the pages that came are still kept raw.
        """
        out: list[ThreadPage] = []
        for i in range(0, len(pages), DESKTOP_BATCH):
            raws: list[RawAnswer] = []
            try:
                answers = await _all([self.desktop_page(tid, n, rep, raws, listed.stored if listed else None)
                                      for n in pages[i:i + DESKTOP_BATCH]])
            except BaseException:
                self.keep_now(raws)
                raise
            batch = [tp for tp, _ in answers]
            seen: dict[int, ListingSeen] | None = None
            positions: dict[int, int | None] = {}
            if listed is not None:
                # The desktop does not show the database position; the listing just did.
                positions = listed.positions
                # What the listing said of each post: the next listing is compared with it.
                seen = listed.seen
            same = [p for tp in batch for p in tp.as_stored]
            now = self.now()
            with self.store.unit() as s:
                self.keep(s, raws)
                if same and not touch_as_stored(s, same, seen_at=now, positions=positions, listed=seen or {}):
                    # A row changed since the crawl read the thread: its pages are extracted in full
                    # and merged like any other (a row the guard matched already holds the same).
                    batch = [self._extracted(tp, got) if tp.as_stored else tp for tp, got in answers]
                posts = [p for tp in batch for p in tp.posts]
                if positions:
                    posts = [replace(p, position=positions[p.pid]) if p.position is None and positions.get(p.pid)
                             else p for p in posts]
                result = upsert_posts(s, posts, seen_at=now, crawl_id=self.crawl_id, listed=seen)
            rep.posts_new += len(result.new_pids)
            rep.posts_changed += len(result.changed_pids)
            if stored is not None:
                stored.update(pid for tp in batch for pid in tp.pids)
            for tp in batch:
                shown = len(tp.posts) + len(tp.as_stored)
                if tp.page < tp.pages and shown and shown != self.per_page:
                    self.per_page = shown  # the forum's postperpage is not Discuz's default
            out.extend(batch)
        return out

    def _extracted(self, tp: ThreadPage, got: Fetched) -> ThreadPage:
        """The page parsed again with every message extracted (what it was before the store moved)."""
        return parse_thread_page(got.body, page_url=got.url, tz=self.tz, content_type=got.content_type)

    async def desktop_page(self, tid: int, page: int, rep: ThreadReport, raws: list[RawAnswer],
                           stored: dict[int, str] | None = None) -> tuple[ThreadPage, Fetched]:
        """One desktop page, fetched, checked and parsed (stored, and appended to ``raws`` to be kept
        raw, by :meth:`desktop_pages`), with the answer it came from. ``stored``: see
        :attr:`_Listed.stored`."""
        got = await self.fetcher.get(desktop_url(tid, page), kind="html")
        if len(got.body) > MAX_DESKTOP_PAGE_BYTES:
            raise ParseError(f"帖子页面有 {len(got.body) >> 20} MB，Discuz 的一页帖子不会这么大：已放弃", page=got.url)
        try:  # parsed off the event loop (see listing), and packed to be kept in the same trip
            tp, packed = await asyncio.to_thread(_parsed_and_packed, got.body, self.keep_raw, page_url=got.url,
                                                 tz=self.tz, content_type=got.content_type, stored=stored)
        except UNPARSABLE as exc:
            raise ParseError(f"页面无法解析（{type(exc).__name__}）", page=got.url) from None
        except NoPermissionError:
            if self.session.expect_member and is_logged_in(got.body, content_type=got.content_type) is None:
                raise _LoginExpired from None
            raise
        self.check_member(tp.member_uid, tp.member_name)
        if tp.tid != tid:
            raise NotAThreadError(f"请求主题 {tid} 的第 {page} 页，论坛却返回了主题 {tp.tid}", page=got.url)
        self.raw(got, raws, packed)
        rep.subject = rep.subject or tp.subject
        self.counted(rep, got)
        self.emit("document", tid, f"第 {page} 页")
        return tp, got

    def _believable_pages(self, first: ThreadPage, rep: ThreadReport) -> int:
        """The page count to walk: the page's claim, bounded by what its reply count allows.

        A hostile or broken page may claim 共 1000000 页; with the reply count known (page 1 shows
        it) the walk stops at the pages those replies fill, otherwise at MAX_DESKTOP_PAGES.
        """
        per_page = max(1, len(first.posts) if first.pages > 1 and first.posts else self.per_page)
        bound = MAX_DESKTOP_PAGES
        if first.replies is not None:
            bound = min(bound, -(-(first.replies + 1) // per_page) + 1)  # +1: a post arriving meanwhile
        if first.pages > bound:
            shown = f"回复数 {first.replies}" if first.replies is not None else f"上限 {MAX_DESKTOP_PAGES} 页"
            rep.status = "parse_error"
            rep.error = (f"帖 {first.tid} 第 1 页声称共 {first.pages} 页，与{shown}不符；"
                         f"只抓了前 {bound} 页以内（页面 {desktop_url(first.tid, 1)}）")
            return bound
        return first.pages

    async def desktop_everything(self, tid: int, state: ThreadState, rep: ThreadReport) -> None:
        """No mobile API: every desktop page, every time (the only way to see edits and deletions)."""
        rep.source = "desktop"
        first, = await self.desktop_pages(tid, [1], rep)
        last = self._believable_pages(first, rep)
        rest: list[ThreadPage] = []
        pids = {p.pid for p in first.posts}
        for start in range(2, last + 1, DESKTOP_BATCH):
            asked = list(range(start, min(last, start + DESKTOP_BATCH - 1) + 1))
            batch = await self.desktop_pages(tid, asked, rep)
            rest.extend(batch)
            # Past the real end Discuz answers with the last page: a page that is not the one asked
            # for, or one with nothing new, is the end, whatever the page count claimed.
            fresh = {p.pid for tp in batch for p in tp.posts} - pids
            pids |= fresh
            wrong = [(n, tp.page) for n, tp in zip(asked, batch, strict=True) if tp.page != n]
            if wrong or not fresh:
                n, got_page = wrong[0] if wrong else (asked[0], asked[0])
                self.fetcher.stats.log.append(f"帖 {tid}：第 {n} 页返回第 {got_page} 页或无新帖，到此为止")
                break
        rep.desktop_pages = [1, *(tp.page for tp in rest)]
        seen = [p for tp in (first, *rest) for p in tp.posts]
        rep.posts_seen = len({p.pid for p in seen})
        now = self.now()
        with self.store.unit() as s:
            if listing_complete(list({p.pid: p for p in seen}.values())):
                rep.listing_complete = True
                gone_now = mark_deleted(s, tid, [p.pid for p in seen], seen_at=now)
                rep.posts_deleted += len(gone_now)
            save_thread(s, tid, first.subject or None, None, None, first.pages, fid=first.fid, seen_at=now,
                        listed_at=now if rep.listing_complete else None)


async def crawl_game(
    game: GameConfig,
    store: Store,
    *,
    tids: Sequence[int] | None = None,
    clock: Clock | None = None,
    progress: Progress | None = None,
    policy: FetchPolicy | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
    password: Callable[[], str] | None = None,
    session_file: Path | None = None,
    per_page: int = DESKTOP_PER_PAGE,
    listing_ppp: int = LISTING_PPP,
    keep_raw: bool = True,
    deadline_minutes: float | None = None,
) -> CrawlReport:
    """Crawl the game's threads into the store. Async, so a Textual worker can run it; see :func:`crawl_game_sync`.

    Raises NetworkError (forum unreachable) and LoginError (login failed or expired) after recording
    the crawl as failed; per-thread problems are in the report (``status``/``errors``).
    """
    clock = clock or SystemClock()
    wanted = list(dict.fromkeys(tids if tids is not None else game.thread_ids()))
    if not wanted:
        raise ConfigError("游戏文件里没有要抓取的帖子", hint="在 [[days]] 中写 discussion / vote，或在 [game] 写 process_thread")
    minutes = game.crawl.crawl_deadline_minutes if deadline_minutes is None else deadline_minutes
    with store.unit() as s:
        # a crawl older than any deadline and still 'running' was killed: record it as failed
        close_stale_crawls(s, started_before=clock.now() - timedelta(minutes=minutes + 10), finished_at=clock.now())
        crawl_id = start_crawl(s, wanted, started_at=clock.now())
    reports: list[ThreadReport] = []
    status: Literal["ok", "partial", "failed"] = "failed"
    errors: list[str] = []
    fetcher = Fetcher(game.forum, policy or FetchPolicy.from_config(game.crawl), transport=transport)
    crawler: _Crawler | None = None
    try:
        try:
            async with fetcher, asyncio.timeout(minutes * 60):
                session = await open_session(fetcher, game, password=password, store_path=session_file)
                crawler = _Crawler(game, store, fetcher, session, clock, crawl_id, progress, per_page=per_page,
                                   listing_ppp=listing_ppp, keep_raw=keep_raw)
                crawler.threads_total = len(wanted)
                crawler.password, crawler.session_file = password, session_file
                crawler.emit("start", None)
                # The first thread alone: it shows whether the login holds before anything runs in parallel.
                reports.append(await crawler.thread(wanted[0], may_relogin=True))
                reports.extend(await _all([crawler.thread(t) for t in wanted[1:]]))
        except TimeoutError:
            raise NetworkError(f"抓取超过 {minutes:g} 分钟仍未完成，已停止（论坛太慢或在拖延应答）；已存的帖子不受影响",
                               hint="稍后再运行 tracker crawl；若游戏确实很大，在 game.toml 的 [crawl] 里调大 "
                                    "crawl_deadline_minutes") from None
        status = "ok" if all(r.status == "ok" for r in reports) else "partial"
        errors = [f"{r.tid}: {r.error}" for r in reports if r.error]
    except TrackerError as exc:
        errors.append(str(exc))
        raise
    except BaseException as exc:
        # Whatever ends the crawl (a bug, a cancellation, memory), its record says failed, not running.
        errors.append(f"抓取中断：{type(exc).__name__}")
        raise
    finally:
        with store.unit() as s:
            finish_crawl(s, crawl_id, fetcher.stats.requests, crawler.pages_fetched if crawler else 0,
                         sum(r.posts_new for r in reports), sum(r.posts_changed for r in reports),
                         errors, status, finished_at=clock.now())
    report = CrawlReport(crawl_id=crawl_id, threads=reports, requests=fetcher.stats.requests,
                         pages_fetched=crawler.pages_fetched if crawler else 0, status=status)
    if crawler is not None:
        crawler.emit("done", None, status)
    for r in reports:
        if r.error:
            report.errors.append(_error_for(r))
    return report


def _error_for(rep: ThreadReport) -> TrackerError:
    if rep.cause is not None:
        return rep.cause
    message = rep.error or ""
    kinds: dict[ThreadStatus, type[TrackerError]] = {
        "missing": ThreadMissingError, "no_permission": NoPermissionError, "not_a_thread": NotAThreadError,
        "parse_error": ParseError, "forum_error": ForumError,
    }
    return kinds.get(rep.status, ForumError)(message)


def crawl_game_sync(game: GameConfig, store: Store, **kw: Any) -> CrawlReport:
    """The CLI's way in: run :func:`crawl_game` on a fresh event loop."""
    return asyncio.run(crawl_game(game, store, **kw))

"""A re-fetched desktop page extracts only the posts whose message changed (issue 22, item 9).

A re-crawl fetches a desktop page for one new or edited post; the page's other posts are shown
exactly as stored. The parser, given the digest of each post's stored desktop HTML
(``post.html_hash``), returns those as :class:`~tracker.records.SeenAsStored` (their floor, uid
and 来自手机 mark only); the store marks them seen by a guarded UPDATE. Whatever it saves, the
store must end exactly as if every post had been extracted and merged: edits with and without
Discuz's marker still give a new version, and a row another writer changed meanwhile falls back to
the full merge. Served from the growth fixtures (``growth/epoch1`` → ``epoch2``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import test_crawl_growth
from sqlalchemy import select, update

import tracker.scraper.crawl as crawl
import tracker.scraper.desktop as desktop
import tracker.store.posts as posts
from tracker.clock import FrozenClock
from tracker.config import GameConfig
from tracker.demo.server import ReplayForum
from tracker.records import Post, SeenAsStored, html_digest
from tracker.scraper.crawl import crawl_game_sync
from tracker.scraper.desktop import parse_thread_page
from tracker.store.db import Store
from tracker.store.posts import KnownPost, post_versions
from tracker.store.tables import post_t, version_t

GROWTH = Path(__file__).parent / "fixtures" / "discuz" / "growth"
#: The growth forum and game, defined once in test_crawl_growth (pytest collects fixtures by name).
forum = test_crawl_growth.forum
game = test_crawl_growth.game
AT = datetime(2025, 4, 12, 12, 0, tzinfo=UTC)


def desktop_html(epoch: str) -> dict[int, str]:
    """pid → the message HTML the epoch's desktop pages show."""
    out: dict[int, str] = {}
    for page in sorted((GROWTH / epoch).glob("*-p[0-9].html")):
        out.update((p.pid, p.html) for p in parse_thread_page(page.read_bytes()).posts)
    return out


@pytest.fixture
def extracted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The pids whose desktop message the parser extracts, in order."""
    pids: list[int] = []
    monkeypatch.setattr(desktop, "_parse_post", _counting(pids))
    return pids


def _rows(store: Store) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Every post row and version row as stored, times included (the crawls run on a frozen clock)."""
    with store.engine.connect() as conn:
        posts = [tuple(r) for r in conn.execute(select(post_t).order_by(post_t.c.pid))]
        versions = [tuple(r)[1:] for r in conn.execute(select(version_t).order_by(version_t.c.id))]
    return posts, versions


def _crawl(game: GameConfig, store: Store, clock: FrozenClock) -> crawl.CrawlReport:
    report = crawl_game_sync(game, store, clock=clock)
    assert report.status == "ok"
    clock.advance(hours=1)
    return report


def test_a_refetched_page_extracts_only_the_posts_whose_message_changed(
        tmp_path: Path, game: GameConfig, forum: ReplayForum, extracted: list[int]) -> None:
    old, new = desktop_html("epoch1"), desktop_html("epoch2")
    store = test_crawl_growth.open_store(tmp_path, "g.db")
    clock = FrozenClock(AT)
    try:
        _crawl(game, store, clock)
        forum.switch(GROWTH / "epoch2")
        extracted.clear()
        report = _crawl(game, store, clock)
        pages = {n.tid: n.desktop_pages for n in report.threads}
        extracted_now = list(extracted)
        fetched = {p.pid for tid, numbers in pages.items() for p in _page_posts(tid, numbers)}
        differ = {pid for pid in fetched if old.get(pid) != new.get(pid)}
        same = fetched - differ
        assert same and differ  # pages fetched for a change hold posts shown as they were
        assert sorted(extracted_now) == sorted(differ)
        with store.engine.connect() as conn:
            html = dict(conn.execute(select(post_t.c.pid, post_t.c.html).where(post_t.c.pid.in_(fetched))).all())
            seen = dict(conn.execute(select(post_t.c.pid, post_t.c.last_seen).where(post_t.c.pid.in_(same))).all())
        blocked = {p.pid for tid, numbers in pages.items() for p in _page_posts(tid, numbers) if p.blocked}
        # the desktop's HTML of every post, edited or not (a block shows a placeholder, the text is kept)
        assert blocked and all(html[pid] == new[pid] for pid in fetched - blocked)
        with store.session() as s:
            edited = differ & old.keys()
            assert edited
            for pid in edited:  # each edit still recorded: a version after the first
                assert len(post_versions(s, pid)) >= 2, pid
            for pid in same:  # seen now, unchanged
                assert [v.kind for v in post_versions(s, pid)] == ["first"]
        assert len(seen) == len(same) and all(at.replace(tzinfo=UTC) == AT.replace(hour=13) for at in seen.values())
    finally:
        store.close()


def _page_posts(tid: int, pages: list[int]) -> list[Post]:
    name = {14: "discussion", 15: "vote"}[tid]
    return [p for n in pages if (GROWTH / "epoch2" / f"{name}-p{n}.html").exists()
            for p in parse_thread_page((GROWTH / "epoch2" / f"{name}-p{n}.html").read_bytes()).posts]


def _crawl_through(game: GameConfig, store: Store, forum: ReplayForum) -> list[Any]:
    clock = FrozenClock(AT)
    states = []
    for epoch in ("epoch1", "epoch2", "epoch1", "epoch2", "epoch2"):  # back and forth: reverts, restores
        forum.switch(GROWTH / epoch)
        _crawl(game, store, clock)
        states.append(_rows(store))
    return states


def test_the_store_ends_as_if_every_desktop_post_had_been_extracted(
        tmp_path: Path, game: GameConfig, forum: ReplayForum, monkeypatch: pytest.MonkeyPatch) -> None:
    with_skip, without = test_crawl_growth.with_and_without_skip(
        tmp_path, lambda store: _crawl_through(game, store, forum), monkeypatch, "as_stored_if")
    assert with_skip == without


def test_a_row_changed_under_the_crawl_is_extracted_and_merged(
        tmp_path: Path, game: GameConfig, forum: ReplayForum, monkeypatch: pytest.MonkeyPatch,
        extracted: list[int]) -> None:
    """Another writer moves a post between the crawl's reading of the thread and its page's store:
    the guard does not match it, and the page is extracted and merged as before the skip."""
    reference = test_crawl_growth.open_store(tmp_path, "ref.db")
    try:
        monkeypatch.setattr(KnownPost, "as_stored_if", lambda self: None)
        expected = _crawl_through(game, reference, forum)
    finally:
        reference.close()
    monkeypatch.undo()
    monkeypatch.setattr(desktop, "_parse_post", _counting(extracted))
    touch = posts.touch_as_stored
    moved: list[int] = []

    def meanwhile(session: Any, seen: list[SeenAsStored], **kw: Any) -> bool:
        victim = seen[0].pid
        moved.append(victim)
        session.connection().execute(update(post_t).where(post_t.c.pid == victim).values(floor=999))
        return touch(session, seen, **kw)

    monkeypatch.setattr(crawl, "touch_as_stored", meanwhile)
    store = test_crawl_growth.open_store(tmp_path, "g.db")
    try:
        got = _crawl_through(game, store, forum)
    finally:
        store.close()
    assert moved and set(moved) <= set(extracted)  # its page read in full
    assert got == expected  # the merge put every moved post back at its floor, nothing else differs


def _counting(pids: list[int]) -> Any:
    parse = desktop._parse_post

    def counting(*args: Any, **kw: Any) -> Post:
        post = parse(*args, **kw)
        pids.append(post.pid)
        return post

    return counting


def test_the_parser_reads_only_the_place_of_a_post_it_was_given() -> None:
    body = (GROWTH / "epoch2" / "discussion-p1.html").read_bytes()
    whole = parse_thread_page(body)
    everything = {p.pid: html_digest(p.html) for p in whole.posts}
    changed = whole.posts[1].pid
    stored = {pid: d for pid, d in everything.items() if pid != changed}
    stored[whole.posts[2].pid] = html_digest("another message")  # the store holds another HTML: read
    page = parse_thread_page(body, stored=stored)
    blocked = {p.pid for p in whole.posts if p.blocked}
    assert blocked  # a block shows a placeholder, never the stored message: read
    read = {changed, whole.posts[2].pid} | blocked
    assert {p.pid for p in page.posts} == read
    by_pid = {p.pid: p for p in whole.posts}
    assert {(s.pid, s.floor, s.uid, s.from_mobile, s.html_digest) for s in page.as_stored} == {
        (pid, by_pid[pid].floor, by_pid[pid].uid, by_pid[pid].from_mobile, everything[pid])
        for pid in stored if pid not in read}
    assert page.pids == [*(p.pid for p in page.posts), *(s.pid for s in page.as_stored)]
    assert sorted(page.pids) == sorted(everything)
    assert (page.page, page.pages, page.replies, page.author_filter) == (
        whole.page, whole.pages, whole.replies, whole.author_filter)


def test_an_image_resolved_against_the_pages_own_address_is_always_read() -> None:
    body = (GROWTH / "epoch2" / "discussion-p1.html").read_text(encoding="utf-8")
    first = parse_thread_page(body).posts[0]
    marker = f'id="postmessage_{first.pid}">'
    body = body.replace(marker, marker + '<img src="?page=2#pic">', 1)
    url = "http://f/forum.php?mod=viewthread&tid=14&page=1"
    whole = parse_thread_page(body, page_url=url)
    assert whole.posts[0].images == ("http://f/forum.php?page=2#pic",)
    stored = {p.pid: html_digest(p.html) for p in whole.posts if not p.blocked}
    page = parse_thread_page(body, page_url=url, stored=stored)
    assert [p.pid for p in page.posts if not p.blocked] == [first.pid]  # the others are seen as stored
    assert {s.pid for s in page.as_stored} == set(stored) - {first.pid}

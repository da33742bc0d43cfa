"""Two crawls of a thread that changed in between (``growth/epoch1`` → ``epoch2``), served over HTTP.

Between the crawls players posted, two players edited (marker), the administrator edited without a
marker, a post was deleted (floors after it renumbered, page boundaries shifted) and one was
blocked. The second crawl must see all of it, on every page, with the fewest requests.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tracker.config import GameConfig, load_game
from tracker.demo.server import ReplayForum
from tracker.scraper.crawl import CrawlReport, crawl_game_sync
from tracker.scraper.plan import page_of
from tracker.store.db import Store
from tracker.store.posts import KnownPost, all_posts, post_versions

GROWTH = Path(__file__).parent / "fixtures" / "discuz" / "growth"
SCENARIO = json.loads((GROWTH / "scenario.json").read_text(encoding="utf-8"))
CHANGES = SCENARIO["changes_between_epochs"]
POSTS: dict[int, dict[str, Any]] = {p["pid"]: p for p in SCENARIO["posts"]}
TIDS = (14, 15)


def open_store(tmp_path: Path, name: str) -> Store:
    return Store.open(f"sqlite:///{tmp_path / name}")


def with_and_without_skip(tmp_path: Path, crawl_through: Callable[[Store], list[Any]],
                          monkeypatch: pytest.MonkeyPatch, skip: str) -> tuple[list[Any], list[Any]]:
    """The same crawls into two stores: first as the crawl runs, then with ``KnownPost.<skip>`` answering None, so
    every post is extracted — the skip of unchanged posts must leave the store as a full extraction does."""
    states = []
    for name in ("skip.db", "full.db"):
        if name == "full.db":
            monkeypatch.setattr(KnownPost, skip, lambda self: None)
        store = open_store(tmp_path, name)
        try:
            states.append(crawl_through(store))
        finally:
            store.close()
    return states[0], states[1]


@pytest.fixture
def forum() -> Iterator[ReplayForum]:
    with ReplayForum(GROWTH / "epoch1") as f:
        yield f


@pytest.fixture
def game(tmp_path: Path, forum: ReplayForum) -> GameConfig:
    return growth_game(tmp_path, forum)


def growth_game(tmp_path: Path, forum: ReplayForum) -> GameConfig:
    """The growth threads' one-day game on the replayed forum (shared with the crawl's skip tests)."""
    path = tmp_path / "game.toml"
    path.write_text(
        f'[game]\nname = "增量A"\nruleset = "luoluo-m19"\nforum = "{forum.base_url}"\n'
        '[crawl]\nconcurrency = 2\ndelay = 0\n'
        "[[days]]\nday = 1\ndiscussion = 14\nvote = 15\n"
        "opens = 2025-04-12T10:00:00+08:00\ncloses = 2025-04-12T18:00:00+08:00\n", encoding="utf-8")
    return load_game(path)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store.open(f"sqlite:///{tmp_path / 'game.db'}")
    yield s
    s.close()


def two_crawls(game: GameConfig, store: Store, forum: ReplayForum) -> CrawlReport:
    first = crawl_game_sync(game, store)
    assert first.status == "ok"
    forum.switch(GROWTH / "epoch2")
    forum.reset_counts()
    return crawl_game_sync(game, store)


def changed_pages() -> dict[int, set[int]]:
    """Desktop pages (by epoch-2 floors) that hold a new or edited post: what must be fetched."""
    pages: dict[int, set[int]] = {tid: set() for tid in TIDS}
    for pid in CHANGES["new_posts"] + CHANGES["edited_by_author_with_marker"] + CHANGES["edited_by_admin_without_marker"]:
        p = POSTS[pid]
        pages[p["tid"]].add(page_of(p["floor_epoch2"]))
    return pages


def test_the_second_crawl_sees_every_change_with_the_new_floors(game: GameConfig, store: Store,
                                                                 forum: ReplayForum) -> None:
    report = two_crawls(game, store, forum)
    assert report.status == "ok"
    with store.session() as s:
        stored = {p.pid: p for p in all_posts(s)}
        versions = {pid: post_versions(s, pid) for pid in stored}
    assert set(stored) == set(POSTS)  # nothing removed, the deleted post included
    for pid in CHANGES["new_posts"]:
        assert stored[pid].has_desktop and stored[pid].versions == 1
    for pid, p in POSTS.items():
        if p["expect"]["deleted_in_epoch2"]:
            continue
        assert stored[pid].floor == p["floor_epoch2"], pid
    # Author edits: the marker from the desktop page, the earlier text kept as a version.
    for pid in CHANGES["edited_by_author_with_marker"]:
        post, expect = stored[pid], POSTS[pid]["expect"]
        assert post.edited_by == expect["edited_by"] and post.versions == 2
        texts = [v.text for v in versions[pid]]
        assert len(set(texts)) == 2 and texts[-1] == post.text
    # The administrator's edit has no marker: only the body changed.
    for pid in CHANGES["edited_by_admin_without_marker"]:
        assert stored[pid].edited_by is None and stored[pid].versions == 2
        assert len({v.text for v in versions[pid]}) == 2
    # Deleted: marked, not removed, text kept. Blocked: flagged, the text seen before kept.
    for pid in CHANGES["deleted_to_recycle_bin"]:
        assert stored[pid].deleted and stored[pid].text
    for pid in CHANGES["blocked"]:
        assert stored[pid].blocked and not stored[pid].deleted and stored[pid].text
        assert [v.kind for v in versions[pid]][-1] == "blocked"
    assert report.posts_new == len(CHANGES["new_posts"])
    assert report.posts_deleted == len(CHANGES["deleted_to_recycle_bin"])
    edits = CHANGES["edited_by_author_with_marker"] + CHANGES["edited_by_admin_without_marker"]
    assert report.posts_changed == len(edits) + len(CHANGES["blocked"])


def test_the_second_crawl_asks_only_for_the_listing_and_the_changed_pages(game: GameConfig, store: Store,
                                                                          forum: ReplayForum) -> None:
    report = two_crawls(game, store, forum)
    want = changed_pages()
    by_tid = {t.tid: t for t in report.threads}
    for tid in TIDS:
        assert set(by_tid[tid].desktop_pages) == want[tid]
        assert by_tid[tid].pending_desktop == []
    distinct = set(forum.requests)
    assert len(distinct) == len(TIDS) + sum(len(p) for p in want.values())
    # The only repeated request is Discuz's one-time 302 after the deletion, asked again.
    repeated = [r for r in distinct if forum.requests.count(r) > 1]
    assert repeated == ["/forum.php?mod=viewthread&tid=14&page=2"]
    assert report.requests == len(forum.requests) == len(distinct) + 1


def test_a_third_crawl_of_the_unchanged_thread_costs_one_request_per_thread(game: GameConfig, store: Store,
                                                                            forum: ReplayForum) -> None:
    two_crawls(game, store, forum)
    with store.session() as s:
        before = {p.pid: (p.versions, p.content_key, p.floor, p.deleted, p.blocked) for p in all_posts(s)}
    forum.reset_counts()
    third = crawl_game_sync(game, store)
    assert third.requests == len(TIDS) and third.posts_new == third.posts_changed == third.posts_deleted == 0
    with store.session() as s:
        assert {p.pid: (p.versions, p.content_key, p.floor, p.deleted, p.blocked) for p in all_posts(s)} == before



def test_changes_undone_are_seen_too(game: GameConfig, store: Store, forum: ReplayForum) -> None:
    """Back to epoch 1: the deleted post restored, the block lifted, the edits reverted (a third
    version each), the posts that no longer show marked deleted, the old floors back."""
    two_crawls(game, store, forum)
    with store.session() as s:
        texts_before = {p.pid: p.text for p in all_posts(s)}
    forum.switch(GROWTH / "epoch1")
    report = crawl_game_sync(game, store)
    assert report.status == "ok"
    with store.session() as s:
        stored = {p.pid: p for p in all_posts(s)}
    for pid in CHANGES["deleted_to_recycle_bin"] + CHANGES["blocked"]:
        assert not stored[pid].deleted and not stored[pid].blocked
    for pid in CHANGES["new_posts"]:
        assert stored[pid].deleted
    for pid in CHANGES["edited_by_author_with_marker"] + CHANGES["edited_by_admin_without_marker"]:
        assert stored[pid].versions == 3 and stored[pid].text != texts_before[pid]
    for pid, p in POSTS.items():
        if p.get("floor_epoch1"):
            assert stored[pid].floor == p["floor_epoch1"], pid
    assert report.posts_deleted == len(CHANGES["new_posts"])

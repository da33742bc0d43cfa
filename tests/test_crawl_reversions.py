"""A re-crawl of threads that were edited, had posts deleted and grew (issue 22, item 9).

The forum is ``benchmarks/synth_game.py`` at a small size: long posts, quotes, Discuz's 本帖最后由 …
编辑 marker on the desktop only, mobile messages that differ from the desktop's ([attach]), posts
deleted before the first crawl; then epoch 2, a share edited by their author (new marker) or
silently by the director, a share deleted (every later floor renumbers), new posts.

What the crawl must do, whatever makes it fast: record exactly one version per edit and none for
a post that only moved, fetch only the pages holding a change, and read in full only the rows it
may have to merge. A deletion moves most of a thread: those posts take the floor the listing
gives them without their rows being read and written back (the fast path of ``upsert_posts``).
"""

from __future__ import annotations

import importlib.util
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select

from tracker.config import GameConfig, parse_game
from tracker.scraper.crawl import crawl_game_sync
from tracker.store import crawl_statements as cs
from tracker.store.db import Store
from tracker.store.posts import all_posts, thread_state, upsert_posts
from tracker.store.sql import CoreStatements, LiteStatements
from tracker.store.tables import version_t

BASE = "http://forum.test/"
ROOT = Path(__file__).resolve().parent.parent / "benchmarks"


def _load(name: str) -> ModuleType:
    """A benchmark module loaded by path, without leaving ``benchmarks/`` on ``sys.path``."""
    import sys

    before = list(sys.path)
    spec = importlib.util.spec_from_file_location(f"_bench_{name}", ROOT / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up while being made
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path[:] = before
        sys.modules.pop(spec.name, None)
        sys.modules.pop("synth_forum", None)
    return module


@pytest.fixture(scope="module")
def game() -> Any:
    # one day: a 100-post discussion and a 20-post vote thread, both growing by epoch 2
    return _load("synth_game").Game(days=1, sizes=(100, 20), grown=(7, 3), seed=1)


def _config(tids: list[int]) -> GameConfig:
    return parse_game({"game": {"name": "t", "ruleset": "accel-m65", "forum": BASE},
                       "crawl": {"delay": 0, "concurrency": 2},
                       "days": [{"day": 1, "discussion": tids[0], "vote": tids[1],
                                 "opens": "2025-03-01T10:00:00+08:00", "closes": "2025-03-02T22:00:00+08:00"}]})


class Forum:
    """The game's documents over a mock transport, one epoch at a time, with the pages asked."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.epoch = 1
        self.asked: list[tuple[int, str, int]] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        q = dict(request.url.params)
        tid, page = int(q["tid"]), int(q.get("page", "1"))
        if "api/mobile" in request.url.path:
            self.asked.append((tid, "listing", page))
            return httpx.Response(200, content=self.game.listing(self.epoch, tid, page, int(q["ppp"])),
                                  headers={"content-type": "application/json"})
        self.asked.append((tid, "desktop", page))
        return httpx.Response(200, content=self.game.desktop(self.epoch, tid, page),
                              headers={"content-type": "text/html; charset=utf-8"})


@contextmanager
def rows_read(store: Store) -> Iterator[list[int]]:
    """The pids whose whole post row is read (upsert_posts' merge), statement by statement, whichever
    way the statements run (sqlite3 on a SQLite file, SQLAlchemy on another database)."""
    pids: list[int] = []
    originals = {cls: cls.dicts for cls in (LiteStatements, CoreStatements)}

    def spy(cls: Any) -> Any:
        def dicts(self: Any, sql: str, params: Any = None) -> list[dict[str, Any]]:
            if sql == cs.SELECT_POSTS:
                pids.extend(params["in_pids"])
            return originals[cls](self, sql, params)
        return dicts

    for cls in originals:
        cls.dicts = spy(cls)  # type: ignore[method-assign]
    try:
        yield pids
    finally:
        for cls, original in originals.items():
            cls.dicts = original  # type: ignore[method-assign]


def _versions(store: Store) -> Counter[int]:
    with store.session() as s:
        rows = s.connection().execute(select(version_t.c.pid, func.count()).group_by(version_t.c.pid))
        return Counter({int(pid): int(n) for pid, n in rows})


def test_a_recrawl_after_edits_and_deletions_records_each_edit_once_and_reads_only_what_it_merges(
        game: Any, tmp_path: Path) -> None:
    new, edited, deleted = game.changes()
    moved_before = {tid: [s.pid for s in game.visible(2, tid)] for tid in game.tids}
    # the scenario holds what the test is about: edits, deletions that renumber, new posts
    assert edited and deleted and new
    forum = Forum(game)
    config = _config(game.tids)
    store = Store.open(f"sqlite:///{tmp_path / 'g.db'}")
    try:
        first = crawl_game_sync(config, store, transport=httpx.MockTransport(forum))
        assert first.status == "ok" and first.posts_new == game.posts(1) and first.posts_changed == 0
        with store.session() as s:
            stored = {p.pid: p for p in all_posts(s)}
        # markers written before the first crawl are read from the desktop; one version per post
        marked = {s.pid for t in game.tids for s in game.visible(1, t) if "pstatus" in game._body(s)[0]}
        assert marked and {pid for pid, p in stored.items() if p.edited_by} == marked
        assert set(_versions(store).values()) == {1}

        forum.epoch, forum.asked = 2, []
        with store.session() as s:
            known = {tid: thread_state(s, tid).known for tid in game.tids}
        with rows_read(store) as read:
            again = crawl_game_sync(config, store, transport=httpx.MockTransport(forum))
        assert again.status == "ok"
        assert (again.posts_new, again.posts_changed, again.posts_deleted) == (len(new), len(edited), len(deleted))
        # only the pages holding a new or edited post, at their new floors
        assert sorted(a for a in forum.asked if a[1] == "desktop") == sorted(
            (tid, "desktop", n) for tid in game.tids for n in game.changed_pages(tid))

        versions = _versions(store)
        assert {pid for pid, n in versions.items() if n == 2} == edited
        assert set(versions.values()) == {1, 2} and set(versions) == set(stored) | new
        with store.session() as s:
            now = {p.pid: p for p in all_posts(s)}
        assert {pid for pid, p in now.items() if p.deleted} == deleted | {pid for pid, p in stored.items() if p.deleted}
        for pids in moved_before.values():  # every visible post at the floor epoch 2 shows it
            assert [now[pid].floor for pid in pids] == list(range(1, len(pids) + 1))
        assert all(now[pid].edited_by for pid in edited if "pstatus" in (game._body(
            next(s for s in game.epochs[2][now[pid].tid] if s.pid == pid))[0]))

        # Rows read in full are the edited posts' alone: not those that only moved (off the fetched
        # pages), nor the unchanged ones sharing a fetched page with an edit, nor the new ones.
        on_pages = {s.pid for tid in game.tids for n in game.changed_pages(tid)
                    for s in game.visible(2, tid)[(n - 1) * 10: n * 10]}
        moved_only = {pid for tid in game.tids for pid, k in known[tid].items()
                      if pid in now and not now[pid].deleted and pid not in edited and now[pid].floor != k.floor}
        assert moved_only - on_pages, "the deletions moved posts off the fetched pages"
        assert on_pages - edited - new, "the fetched pages hold unchanged posts"
        assert set(read) == edited
        # the unchanged posts of the fetched pages were seen again all the same
        assert all(now[pid].last_seen > stored[pid].last_seen for pid in on_pages - edited - new)

        # A third crawl of the same forum: listings only, nothing written, no version.
        forum.asked = []
        third = crawl_game_sync(config, store, transport=httpx.MockTransport(forum))
        assert (third.posts_new, third.posts_changed, third.posts_deleted) == (0, 0, 0)
        assert {a[1] for a in forum.asked} == {"listing"} and _versions(store) == versions
    finally:
        store.close()


def test_a_moved_post_whose_row_changed_meanwhile_goes_through_the_full_merge(game: Any, tmp_path: Path) -> None:
    """The light update is guarded by the state the caller read: if the row moved on (here: deleted
    since), the post is merged as any other, and comes back as restored with a version."""
    from dataclasses import replace
    from datetime import UTC, datetime

    from tracker.scraper.mobile import parse_viewthread
    from tracker.store.posts import mark_deleted

    tid = game.tids[0]
    store = Store.open(f"sqlite:///{tmp_path / 'g.db'}")
    try:
        crawl_game_sync(_config(game.tids), store, transport=httpx.MockTransport(Forum(game)))
        listed = parse_viewthread(game.listing(1, tid, 1, 1000)).posts
        with store.session() as s:
            known = thread_state(s, tid).known
        victim = listed[-1]
        at = datetime.now(UTC)
        with store.session() as s:  # deleted after the caller read its state
            mark_deleted(s, tid, [p.pid for p in listed if p.pid != victim.pid], seen_at=at)
        moved = replace(victim, floor=victim.floor + 1)
        with store.session() as s:
            result = upsert_posts(s, [moved], seen_at=at, known=known)
        assert victim.pid in result.changed_pids and result.restored_pids == [victim.pid]
        with store.session() as s:
            now = {p.pid: p for p in all_posts(s)}
        assert not now[victim.pid].deleted and now[victim.pid].floor == victim.floor + 1
        assert _versions(store)[victim.pid] == 2
    finally:
        store.close()


def test_a_refetched_page_still_sees_what_changed_on_it_besides_the_post_it_was_fetched_for(
        game: Any, tmp_path: Path) -> None:
    """The unchanged posts of a re-fetched page skip the merge only when they are exactly as stored:
    a post deleted meanwhile comes back restored, one whose [size] alone changed (same text, the
    listing cannot see it) is an edit, and the rest get nothing but last_seen."""
    from dataclasses import replace
    from datetime import UTC, datetime

    from tracker.scraper.desktop import parse_thread_page
    from tracker.scraper.mobile import parse_viewthread
    from tracker.store.posts import mark_deleted

    tid = game.tids[0]
    store = Store.open(f"sqlite:///{tmp_path / 'g.db'}")
    try:
        crawl_game_sync(_config(game.tids), store, transport=httpx.MockTransport(Forum(game)))
        page = parse_thread_page(game.desktop(1, tid, 2), page_url="p2").posts
        gone, resized = page[0], page[1]
        with store.session() as s:  # a complete listing without `gone` marks it deleted
            listed = parse_viewthread(game.listing(1, tid, 1, 1000)).posts
            assert mark_deleted(s, tid, [p.pid for p in listed if p.pid != gone.pid],
                                seen_at=datetime.now(UTC)) == [gone.pid]
        bigger = replace(resized, html=f'<font size="5">{resized.html}</font>', sizes=("5",))
        before = _versions(store)
        with store.session() as s:
            result = upsert_posts(s, [gone, bigger, *page[2:]], seen_at=datetime.now(UTC))
        assert result.restored_pids == [gone.pid] and set(result.changed_pids) == {gone.pid, resized.pid}
        assert result.unchanged == len(page) - 2
        after = _versions(store)
        assert {pid for pid in after if after[pid] != before[pid]} == {gone.pid, resized.pid}
    finally:
        store.close()

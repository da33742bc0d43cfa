"""Whole crawls of the demo game served over loopback HTTP by the replay server.

Ground truth is ``scenario.json`` (which posts each thread shows a guest, on which floor); the pages
come from the real captures through :class:`tracker.demo.server.ReplayForum`.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.captured_pages import PAGES
from tracker.config import GameConfig, load_game
from tracker.demo.server import ReplayForum
from tracker.errors import LoginError, NetworkError
from tracker.scraper.crawl import crawl_game_sync
from tracker.scraper.fetch import FetchPolicy
from tracker.store.db import Store
from tracker.store.posts import all_posts, crawls, iter_raw, posts_for_thread

ROOT = Path(__file__).parent.parent
DISCUZ = Path(__file__).parent / "fixtures" / "discuz"
SCENARIO = json.loads((DISCUZ / "scenario.json").read_text(encoding="utf-8"))
GAME_TIDS = (2, 3, 4, 5, 6)


def visible(tid: int) -> dict[int, dict[str, Any]]:
    return {p["pid"]: p for p in SCENARIO["posts"] if p["tid"] == tid and p["visible_to_guest"]}


def write_game(tmp_path: Path, base_url: str, *, extra: str = "", tids: tuple[int, ...] = GAME_TIDS) -> Path:
    """A game file naming the threads to follow; the crawl needs nothing else from it."""
    process, d1, v1, d2, v2 = (*tids, None, None, None, None, None)[:5]
    days = ""
    if d1 is not None:
        days += f"[[days]]\nday = 1\ndiscussion = {d1}\nvote = {v1 if v1 is not None else []}\n" \
                "opens = 2025-03-01T10:00:00+08:00\ncloses = 2025-03-02T22:00:00+08:00\n"
    if d2 is not None:
        days += f"[[days]]\nday = 2\ndiscussion = {d2}\nvote = {v2 if v2 is not None else []}\n" \
                "opens = 2025-03-03T10:00:00+08:00\ncloses = 2025-03-04T22:00:00+08:00\n"
    text = (f'[game]\nname = "演示局"\nruleset = "luoluo-m19"\nforum = "{base_url}"\n'
            f'timezone = "Asia/Shanghai"\ndirectors = ["导演A"]\nprocess_thread = {process}\n\n'
            f"[crawl]\nconcurrency = 2\ndelay = 0\nretries = 2\n{extra}\n{days}")
    path = tmp_path / "game.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def forum() -> Iterator[ReplayForum]:
    with ReplayForum(PAGES) as f:
        yield f


@pytest.fixture
def game(tmp_path: Path, forum: ReplayForum) -> GameConfig:
    return load_game(write_game(tmp_path, forum.base_url))


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = Store.open(f"sqlite:///{tmp_path / 'game.db'}")
    yield s
    s.close()


def assert_matches_scenario(store: Store, tids: tuple[int, ...] = GAME_TIDS) -> None:
    with store.session() as s:
        for tid in tids:
            stored = {p.pid: p for p in posts_for_thread(s, tid)}
            truth = visible(tid)
            assert set(stored) == set(truth), tid
            for pid, post in stored.items():
                assert post.floor == truth[pid]["floor"] and post.author == truth[pid]["author"]
                assert post.has_desktop or post.blocked, f"pid {pid} never seen on a desktop page"
                assert not post.deleted and post.versions == 1


def test_a_full_crawl_stores_every_visible_post(game: GameConfig, store: Store, forum: ReplayForum) -> None:
    report = crawl_game_sync(game, store)
    assert report.status == "ok" and not report.errors
    assert_matches_scenario(store)
    total = sum(len(visible(t)) for t in GAME_TIDS)
    assert report.posts_new == total and report.posts_changed == 0
    # One listing per thread plus every desktop page, nothing else.
    pages = {t["tid"]: t["desktop_pages"] for t in SCENARIO["threads"]}
    assert report.requests == len(forum.requests) == sum(1 + pages[t] for t in GAME_TIDS)
    assert report.pages_fetched == report.requests
    by_tid = {t.tid: t for t in report.threads}
    assert by_tid[3].desktop_pages == list(range(1, 10)) and by_tid[3].listing_complete
    with store.session() as s:
        posts = {p.pid: p for p in all_posts(s)}
    # What only the desktop shows made it in: sizes and the edit marker.
    size5 = next(p for p in SCENARIO["posts"] if p["key"] == "d1_size5")
    assert posts[size5["pid"]].sizes
    edited = next(p for p in SCENARIO["posts"] if p["key"] == "d1_edit")
    assert posts[edited["pid"]].edited_by == edited["expect"]["edited"]["by"]


def test_a_second_crawl_asks_once_per_thread_and_changes_nothing(game: GameConfig, store: Store,
                                                                 forum: ReplayForum) -> None:
    crawl_game_sync(game, store)
    with store.session() as s:
        before = [(p.pid, p.floor, p.position, p.content_key, p.versions, p.html_hash, p.last_seen)
                  for p in all_posts(s)]
    assert all(row[2] for row in before)  # positions from the listing, though stored from desktop pages
    forum.reset_counts()
    report = crawl_game_sync(game, store)
    assert len(forum.requests) == report.requests == len(GAME_TIDS)
    assert all("api/mobile" in r for r in forum.requests)
    assert report.posts_new == report.posts_changed == report.posts_deleted == 0
    with store.session() as s:
        after = [(p.pid, p.floor, p.position, p.content_key, p.versions, p.html_hash, p.last_seen)
                 for p in all_posts(s)]
        assert after == before
        assert [c.status for c in crawls(s)] == ["ok", "ok"]
        kept = list(iter_raw(s))
    # Raw answers are kept for offline re-parsing, but an unchanged listing is not kept again.
    assert len(kept) == sum(1 + {t["tid"]: t["desktop_pages"] for t in SCENARIO["threads"]}[t] for t in GAME_TIDS)


def test_a_forum_that_caps_ppp_is_paged_through(tmp_path: Path, store: Store) -> None:
    with ReplayForum(PAGES, mobile_ppp_cap=20) as capped:
        game = load_game(write_game(tmp_path, capped.base_url, tids=(3,)))
        report = crawl_game_sync(game, store)
        listings = [r for r in capped.requests if "api/mobile" in r]
    assert len(listings) == 5  # 89 posts at 20 a page
    assert report.threads[0].listing_complete
    assert_matches_scenario(store, (3,))


def test_without_the_mobile_api_every_desktop_page_is_read(tmp_path: Path, store: Store) -> None:
    with ReplayForum(PAGES, mobile_api=False) as closed:
        game = load_game(write_game(tmp_path, closed.base_url))
        first = crawl_game_sync(game, store)
        closed.reset_counts()
        second = crawl_game_sync(game, store)
        mobile_tries = [r for r in closed.requests if "api/mobile" in r]
    assert {t.source for t in first.threads} == {"desktop"}
    assert_matches_scenario(store)
    # After the first refusal the run stops asking the mobile API.
    assert len(mobile_tries) == 1
    pages = {t["tid"]: t["desktop_pages"] for t in SCENARIO["threads"]}
    assert second.requests == 1 + sum(pages[t] for t in GAME_TIDS)
    assert second.posts_new == second.posts_changed == 0


def test_a_missing_and_a_forbidden_thread_are_reported_the_rest_is_stored(tmp_path: Path, store: Store,
                                                                          forum: ReplayForum) -> None:
    game = load_game(write_game(tmp_path, forum.base_url, tids=(2, 3, 4242, 7)))
    report = crawl_game_sync(game, store)
    by_tid = {t.tid: t for t in report.threads}
    assert by_tid[4242].status == "missing" and "不存在" in (by_tid[4242].error or "")
    assert by_tid[7].status == "no_permission" and "权限" in (by_tid[7].error or "")
    assert by_tid[2].status == by_tid[3].status == "ok" and report.status == "partial"
    assert [e.exit_code for e in report.errors] == [4, 4]
    assert_matches_scenario(store, (2, 3))


def test_an_unreachable_forum_fails_the_crawl_and_keeps_what_was_stored(game: GameConfig, store: Store,
                                                                        tmp_path: Path) -> None:
    crawl_game_sync(game, store)
    dead = load_game(write_game(tmp_path, "http://127.0.0.1:9/"))
    with pytest.raises(NetworkError) as err:
        crawl_game_sync(dead, store, policy=FetchPolicy(delay=0.0, retries=2, backoff=0.01))
    assert err.value.exit_code == 5
    assert_matches_scenario(store)
    with store.session() as s:
        assert crawls(s)[0].status == "failed"


def test_an_expired_cookie_login_is_a_clear_error(tmp_path: Path, store: Store, forum: ReplayForum) -> None:
    (tmp_path / "cookies.txt").write_text("Cookie: dz35_2132_saltkey=SSSSSSSS; dz35_2132_auth=AAAAAAAA",
                                          encoding="utf-8")
    game = load_game(write_game(tmp_path, forum.base_url, extra='[login]\ncookie_file = "cookies.txt"\n'))
    with pytest.raises(LoginError, match="登录已过期") as err:
        crawl_game_sync(game, store)
    assert err.value.exit_code == 4
    with store.session() as s:
        assert all_posts(s) == []  # a guest's view was not stored as the member's


def test_a_fault_midway_is_completed_by_the_next_crawl(game: GameConfig, store: Store, forum: ReplayForum) -> None:
    forum.fail("tid=3&page=6", 500, times=3)
    quick = FetchPolicy(concurrency=2, delay=0.0, retries=2, backoff=0.01)
    with pytest.raises(NetworkError):
        crawl_game_sync(game, store, policy=quick)
    with store.session() as s:
        pending = [p for p in posts_for_thread(s, 3) if not p.has_desktop]
    assert pending  # listed on mobile, desktop page never came
    forum.reset_counts()
    report = crawl_game_sync(game, store)
    assert report.status == "ok" and report.posts_new == 0  # no duplicates: they were stored already
    assert_matches_scenario(store)
    t3 = next(t for t in report.threads if t.tid == 3)
    assert 6 in t3.desktop_pages and t3.pending_desktop == []


def test_a_crawl_killed_midway_is_completed_by_the_next(tmp_path: Path, forum: ReplayForum) -> None:
    game_path = write_game(tmp_path, forum.base_url)
    forum.stall_after(4)
    code = f"import sys; from tracker.cli import main; sys.exit(main(['crawl', {str(game_path)!r}, '--json']))"
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while len(forum.requests) <= 4 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        assert len(forum.requests) > 4, proc.stderr.read().decode() if proc.poll() is not None else "no requests"
        time.sleep(0.3)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
        forum.stall_after(None)
        forum.release()
    assert proc.returncode == -signal.SIGKILL

    store = Store.open(f"sqlite:///{tmp_path / 'game.db'}")
    try:
        with store.session() as s:
            killed = crawls(s)[0]
            assert killed.status == "running" and not killed.finished
            partial = all_posts(s)
        # What the killed crawl stored is a consistent part of the forum: right floors, nothing twice.
        total = sum(len(visible(t)) for t in GAME_TIDS)
        assert 0 < len(partial) < total
        for p in partial:
            assert p.floor == visible(p.tid)[p.pid]["floor"] and not p.deleted and p.versions == 1
        game = load_game(game_path)
        report = crawl_game_sync(game, store)
        assert report.status == "ok"
        assert_matches_scenario(store)
        forum.reset_counts()
        again = crawl_game_sync(game, store)
        assert again.requests == len(GAME_TIDS) and again.posts_new == again.posts_changed == 0
    finally:
        store.close()


def test_a_thread_longer_than_ppp_pages_once_then_is_asked_in_one_request(tmp_path: Path, store: Store,
                                                                          forum: ReplayForum) -> None:
    game = load_game(write_game(tmp_path, forum.base_url, tids=(3,)))
    first = crawl_game_sync(game, store, listing_ppp=50)
    listings = [r for r in forum.requests if "api/mobile" in r]
    assert len(listings) == 2 and first.threads[0].listing_complete  # 89 posts at 50 a page
    assert_matches_scenario(store, (3,))
    forum.reset_counts()
    again = crawl_game_sync(game, store, listing_ppp=50)
    assert again.requests == 1 and "ppp=1000" in forum.requests[0]  # sized from the stored replies


def test_a_forum_with_another_posts_per_page_is_learned_from_the_pages(tmp_path: Path, store: Store,
                                                                       forum: ReplayForum) -> None:
    game = load_game(write_game(tmp_path, forum.base_url, tids=(3,)))
    report = crawl_game_sync(game, store, per_page=20)  # planned as if 20 a page; the forum shows 10
    t = report.threads[0]
    assert t.pending_desktop == [] and sorted(set(t.desktop_pages)) == list(range(1, 10))
    assert_matches_scenario(store, (3,))

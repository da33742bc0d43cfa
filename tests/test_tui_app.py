"""The app shell and the 帖子/玩家 screens, driven by Pilot over the demo store with a frozen clock."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from tui_demo import open_demo

from tracker.clock import FrozenClock
from tracker.service import Service
from tui.app import TrackerApp
from tui.screens.help import HelpScreen
from tui.timing import day_timing, format_span
from tui.widgets.game_header import GameHeader
from tui.widgets.post_table import PostTable
from tui.widgets.post_view import PostView
from tui.widgets.sidebar import Sidebar


@pytest.fixture
def service(tmp_path: Path) -> Iterator[Service]:
    svc = open_demo(tmp_path)
    yield svc
    svc.close()


def make_app(service: Service) -> TrackerApp:
    return TrackerApp(service, crawl_interval=0)


def test_timing_counts_to_close_and_freeze(service: Service) -> None:
    clock = service.clock
    assert isinstance(clock, FrozenClock)
    t = day_timing(service.game.days, clock.now(), 60)
    assert (t.day, format_span(t.to_close), format_span(t.to_freeze), t.state) == (2, "3:12:40", "2:12:40", "open")
    clock.advance(hours=2, minutes=30)
    t = day_timing(service.game.days, clock.now(), 60)
    assert (format_span(t.to_close), t.to_freeze, t.state) == ("0:42:40", None, "frozen")
    clock.advance(hours=1)
    assert day_timing(service.game.days, clock.now(), 60).state == "closed"


async def test_header_counts_down_with_the_clock(service: Service) -> None:
    app = make_app(service)
    async with app.run_test(size=(120, 36)) as pilot:
        header = app.query_one(GameHeader)
        line = header.render().plain
        assert line.startswith("演示局 · luoluo-m19 · 第2日")
        assert "距关门 3:12:40" in line and "改票冻结 2:12:40" in line and "未抓取" in line
        assert isinstance(service.clock, FrozenClock)
        service.clock.advance(seconds=5)
        await pilot.pause()
        assert "距关门 3:12:35" in header.render().plain


async def test_keys_switch_screens_and_sidebar_follows(service: Service) -> None:
    app = make_app(service)
    async with app.run_test(size=(120, 36)) as pilot:
        for key, pane in (("7", "posts"), ("6", "players"), ("1", "overview")):
            await pilot.press(key)
            await pilot.pause()
            assert app.query_one("#panes").current == pane  # type: ignore[attr-defined]
            assert app.query_one(Sidebar).current == pane
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


async def test_narrow_terminal_collapses_sidebar_to_numbers(service: Service) -> None:
    app = make_app(service)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        sidebar = app.query_one(Sidebar)
        assert sidebar.compact and sidebar.size.width <= 7
        assert "概览" not in sidebar.render().plain and " 7" in sidebar.render().plain
        assert "关门" in app.query_one(GameHeader).render().plain
        await pilot.resize_terminal(120, 36)
        await pilot.pause()
        assert not sidebar.compact and "概览" in sidebar.render().plain


async def test_posts_screen_pages_and_filters_from_the_store(service: Service) -> None:
    app = make_app(service)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("7")
        await app.workers.wait_for_complete()
        await pilot.pause()
        table = app.query_one(PostTable)
        total = service.browsing.search_posts().total
        assert table.row_count == min(50, total) and total > 50
        await pilot.press("right_square_bracket")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert table.posts[0].pid == service.browsing.search_posts(offset=50, limit=1).posts[0].pid
        await pilot.press("slash", *"作者:泡泡 日:1", "enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        expected = service.browsing.search_posts(author="泡泡", day=1, limit=100)
        assert [p.pid for p in table.posts] == [p.pid for p in expected.posts] and expected.total > 0
        assert all(p.author == "泡泡" and p.tid in (3, 4) for p in table.posts)
        await pilot.press("down")
        await pilot.pause()
        assert app.query_one(PostView).post.pid == table.posts[1].pid


async def test_posts_search_by_text_highlights_the_words(service: Service) -> None:
    app = make_app(service)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("7", "slash", *"投票对象", "enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        view = app.query_one(PostView)
        assert "投票对象" in view.body_text
        body = view.query_one(".post-body").content
        assert any(body.plain[s.start:s.end] == "投票对象" for s in body.spans)


async def test_crawl_failure_shows_reason_and_keeps_running(service: Service) -> None:
    app = make_app(service)

    async def broken(progress: object) -> None:
        raise RuntimeError("连接被拒绝")

    app.gateway.crawl = broken  # type: ignore[method-assign]
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("r")
        await app.workers.wait_for_complete()
        await pilot.pause()
        line = app.query_one(GameHeader).render().plain
        assert "✗" in line and "连接被拒绝" in line
        await pilot.press("7")
        assert app.query_one(Sidebar).current == "posts"


def test_week_long_countdown_folds_days_into_hours() -> None:
    assert format_span(timedelta(days=1, hours=2, seconds=3)) == "26:00:03"


async def test_r_crawls_the_replay_forum_and_new_posts_appear(tmp_path: Path) -> None:
    from tui_demo import PAGES

    from tracker.demo.server import ReplayForum

    with ReplayForum(PAGES) as forum:
        game = (Path(__file__).resolve().parent.parent / "tracker/demo/data/game.toml").read_text("utf-8")
        (tmp_path / "game.toml").write_text(
            game.replace('forum = "http://127.0.0.1:8080/"', f'forum = "{forum.base_url}"'), "utf-8")
        service = open_demo_at(tmp_path)
        try:
            assert service.browsing.search_posts().total == 0
            app = make_app(service)
            async with app.run_test(size=(120, 36)) as pilot:
                await pilot.press("7", "r")
                await app.workers.wait_for_complete()
                for _ in range(3):
                    await pilot.pause()
                    await app.workers.wait_for_complete()
                assert app.query_one(GameHeader).crawl.state == "ok", app.query_one(GameHeader).crawl
                assert app.crawl_count == 1 and "✓" in app.query_one(GameHeader).render().plain
                total = service.browsing.search_posts().total
                assert total > 100
                assert app.query_one(PostTable).row_count == 50
                # The child process ran the detectors after crawling (this process never did):
                # the new flags are stored and the 违规 badge counts them.
                flagged = service.flag_review.flag_count(status="open")
                assert flagged > 0
                assert app.query_one(Sidebar).badges.get("flags") == flagged
        finally:
            service.close()


def open_demo_at(tmp: Path) -> Service:
    from tui_demo import FROZEN_AT

    from tracker.demo.nights import play_nights

    service = Service.open(tmp / "game.toml", db_url=f"sqlite:///{tmp / 'game.db'}", clock=FrozenClock(FROZEN_AT))
    play_nights(service)  # night 1, as the demo settles it: 阿狸 and 老王 out
    return service

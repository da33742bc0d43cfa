"""What a director saw wrong on the screen (issue 21), driven by Pilot over the demo store with a
frozen clock: the help lists the 夜晚 keys, Enter on 玩家 opens the player, `c` on a decided flag
says why nothing happens, a search pinned to one author gives the content that column's room,
and every time shown is in the game's zone with the header following recorded delays and 加速.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.widgets import DataTable, Static
from tui_demo import DEMO_GAME, FROZEN_AT, fill_store, open_demo

from tracker.clock import FrozenClock
from tracker.demo.nights import play_nights
from tracker.service import Service
from tui.app import TrackerApp
from tui.screens.help import HelpScreen
from tui.timing import format_span
from tui.widgets.game_header import GameHeader
from tui.widgets.post_table import PostTable


@pytest.fixture
def service(tmp_path: Path) -> Iterator[Service]:
    svc = open_demo(tmp_path)
    yield svc
    svc.close()


async def settle(app: TrackerApp) -> None:
    await app.workers.wait_for_complete()
    await app.workers.wait_for_complete()


def told(app: TrackerApp) -> list[str]:
    return [n.message for n in app._notifications]


async def test_help_lists_the_night_keys(service: Service) -> None:
    app = TrackerApp(service, crawl_interval=0)
    async with app.run_test(size=(120, 50)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        from tui.screens.help import KEYS

        night = {key: what for where, key, what in KEYS if where == "夜晚"}
        assert set(night) == {"[ ]", "a", "d", "c"}
        assert "撤回" in night["d"] and "确认" in night["c"] and "提交" in night["a"]


async def test_enter_on_a_player_opens_the_player(service: Service) -> None:
    service.cards.issue_card("泡泡", "blue", "6-(1)", "红字", day=2)
    app = TrackerApp(service, crawl_interval=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("6")
        await settle(app)
        table = app.query_one("#players-table", DataTable)
        row = [str(k.value) for k in table.rows].index("泡泡")
        table.move_cursor(row=row)
        await pilot.press("enter")
        await settle(app)
        detail = app.query_one("#player-detail", Static).content.plain  # type: ignore[attr-defined]
        assert detail.startswith("泡泡") and "身份 预言家" in detail
        assert "判罚 蓝牌 [6-(1)]：红字" in detail and "第2日 记于" in detail


async def test_c_on_a_carded_flag_says_so(service: Service) -> None:
    flag = service.flag_review.flags(status="open")[0]
    decision = service.flag_review.card_from_flag(flag.id)
    app = TrackerApp(service, crawl_interval=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("3")
        await settle(app)
        pane = app.query_one("#flags")
        ids = [f.id for f in pane.flags]  # type: ignore[attr-defined]
        app.query_one("#flags DataTable", DataTable).move_cursor(row=ids.index(flag.id))
        await pilot.press("c")
        await pilot.pause()
        assert any(f"违规 #{flag.id} 已判罚（第 {decision.entry.id} 条）" in m for m in told(app)), told(app)


async def test_a_search_by_author_gives_the_content_the_authors_room(service: Service) -> None:
    app = TrackerApp(service, crawl_interval=0)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("7")
        await settle(app)
        table = app.query_one(PostTable)
        assert "作者" in str(next(iter(table.columns.values())).label)
        await pilot.press("slash", *"作者:泡泡", "enter")
        await settle(app)
        header = str(next(iter(table.columns.values())).label)
        assert "作者" not in header and "内容" in header
        assert table.row_count and all(p.author == "泡泡" for p in table.posts)
        first = table.get_row_at(0)[0].plain
        assert table.posts[0].text.split()[0][:6] in first


def _demo_in_zone(tmp: Path, tz: str, extra: str = "") -> Service:
    game = tmp / "game.toml"
    shutil.copy(DEMO_GAME, game)
    text = game.read_text(encoding="utf-8").replace('timezone = "Asia/Shanghai"', f'timezone = "{tz}"') + extra
    game.write_text(text, encoding="utf-8")
    svc = Service.open(game, db_url=f"sqlite:///{tmp / 'game.db'}", clock=FrozenClock(FROZEN_AT))
    play_nights(svc)
    fill_store(svc)
    return svc


async def test_every_time_on_screen_is_in_the_games_zone(tmp_path: Path) -> None:
    svc = _demo_in_zone(tmp_path, "Asia/Tokyo")  # an hour ahead of Shanghai
    try:
        app = TrackerApp(svc, crawl_interval=0)
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.press("7")
            await settle(app)
            table = app.query_one(PostTable)
            post = table.posts[0]
            tokyo = post.posted_at.astimezone(svc.game.tz)
            assert f"{tokyo:%m-%d %H:%M}" in table.get_row_at(0)[0].plain
            assert tokyo.utcoffset() != post.posted_at.astimezone(FROZEN_AT.tzinfo).utcoffset()
    finally:
        svc.close()


async def test_the_header_follows_the_recorded_delay_and_acceleration(service: Service) -> None:
    app = TrackerApp(service, crawl_interval=0)
    async with app.run_test(size=(140, 36)) as pilot:
        header = app.query_one(GameHeader)
        assert "距关门 3:12:40" in header.render().plain and "已加速" not in header.render().plain
        # the director records a delay of day 2 and its acceleration
        service.log.record_event("delayed", data={"day": 2}, at=FROZEN_AT)
        service.log.record_event("accelerated", data={"day": 2}, at=FROZEN_AT)
        app.refresh_days()
        await settle(app)
        await pilot.pause()
        line = header.render().plain
        closes = next(d.closes for d in service.summary().days if d.day == 2)
        assert closes > service.game.day(2).closes  # the delay moved the close
        assert "已加速" in line and f"距关门 {format_span(closes - FROZEN_AT)}" in line, line


async def test_the_cards_screen_issues_and_amends_cards(service: Service) -> None:
    from textual.widgets import Input, Select

    from tui.screens.dialogs import CardForm, IssueCardForm

    app = TrackerApp(service, crawl_interval=0)
    async with app.run_test(size=(120, 44)) as pilot:
        await pilot.press("4")
        await settle(app)
        await pilot.press("i")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, IssueCardForm)
        form.query_one("#player", Input).value = "泡泡"
        form.query_one("#clause", Input).value = "6-(1)"
        form.query_one("#reason", Input).value = "红字"
        form.query_one("#post", Input).value = "3#2"
        form.query_one("#ok").press()
        await pilot.pause()
        await settle(app)
        issued = [e for e in service.cards.ledger() if e.action == "issue"]
        assert [(e.player, e.color, e.clause, e.reason) for e in issued] == [("泡泡", "blue", "6-(1)", "红字")]
        assert issued[0].post is not None and issued[0].day == 1  # 帖 3 is day 1's discussion
        await pilot.press("e")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, CardForm)
        form.query_one("#color", Select).value = "yellow"
        form.query_one("#reason", Input).value = "重复红字，应为黄牌"
        form.query_one("#ok").press()
        await pilot.pause()
        await settle(app)
    amended = [e for e in service.cards.ledger() if e.action == "amend"]
    assert [(e.ref, e.color, e.clause, e.reason) for e in amended] == [(issued[0].id, "yellow", "6-(1)", "重复红字，应为黄牌")]
    assert service.cards.standing()["泡泡"].yellow == 1 and service.cards.standing()["泡泡"].blue == 0


async def test_the_players_screen_records_an_event(service: Service) -> None:
    from textual.widgets import Select

    from tui.screens.dialogs import EventForm

    app = TrackerApp(service, crawl_interval=0)
    async with app.run_test(size=(120, 44)) as pilot:
        await pilot.press("6")
        await settle(app)
        table = app.query_one("#players-table", DataTable)
        table.move_cursor(row=[str(k.value) for k in table.rows].index("小白"))
        await pilot.press("v")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, EventForm)
        form.query_one("#kind", Select).value = "benched"
        form.query_one("#ok").press()
        await pilot.pause()
        await settle(app)
        assert any("已记录事件" in m and "小白" in m for m in told(app)), told(app)
    assert service.summary().state.players["小白"].status == "benched"

"""The 潜水 screen's 发牌 keys (issue #15 item 1), driven by Pilot over the demo store at 140×40."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.text import Text
from textual.geometry import Region
from textual.widgets import DataTable
from tui_demo import open_demo

from tracker.service import Service
from tui.app import TrackerApp
from tui.screens.dialogs import ConfirmDialog
from tui.screens.lurkers import LurkersPane


@pytest.fixture
def service(tmp_path: Path) -> Iterator[Service]:
    svc = open_demo(tmp_path)
    yield svc
    svc.close()


async def settle(pilot: object) -> None:
    app = pilot.app  # type: ignore[attr-defined]
    for _ in range(3):
        await app.workers.wait_for_complete()
        await pilot.pause()  # type: ignore[attr-defined]


def penalties_shown(app: TrackerApp) -> str:
    """What the penalties pane shows on screen, as text."""
    w = app.screen.query_one("#lurk-penalties")
    strips = w.render_lines(Region(0, 0, w.size.width, w.size.height))
    return "\n".join("".join(seg.text for seg in strip) for strip in strips)


async def test_c_cards_the_selected_player_and_shift_c_the_rest_of_the_day(service: Service) -> None:
    day1 = service.lurking.lurkers(1)
    assert len(day1.penalties) >= 2
    first = day1.penalties[0].player
    app = TrackerApp(service, crawl_interval=0)
    async with app.run_test(size=(140, 40)) as pilot:
        await pilot.press("5")
        await settle(pilot)
        await pilot.press("left_square_bracket")
        await settle(pilot)
        pane = app.query_one(LurkersPane)
        assert pane.day == 1
        assert "待判罚" in penalties_shown(app) and "C 当日全部发牌" in penalties_shown(app)

        table = pane.query_one(DataTable)
        table.move_cursor(row=table.get_row_index(first))
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("y")
        await settle(pilot)
        issued = [e for e in service.cards.ledger() if e.action == "issue"]
        assert {e.player for e in issued} == {first} and all(e.day == 1 for e in issued)
        assert "已判罚（第 1 条）" in penalties_shown(app)

        await pilot.press("C")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("y")
        await settle(pilot)
        issued = [e for e in service.cards.ledger() if e.action == "issue"]
        assert len(issued) == len(day1.penalties)
        assert "待判罚" not in penalties_shown(app)

        await pilot.press("C")  # nothing left: a bell and a notice, no dialog
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmDialog)


def shown(app: TrackerApp, selector: str) -> str:
    w = app.screen.query_one(selector)
    strips = w.render_lines(Region(0, 0, w.size.width, w.size.height))
    return "\n".join("".join(seg.text for seg in strip) for strip in strips)


async def test_the_ledger_screen_shows_day_and_place_and_a_forged_card_loudly(service: Service) -> None:
    """判罚 at 140×40: the day and 帖·楼 of each card, the reason readable; a tampered ledger is announced."""
    from sqlalchemy import text

    flag = next(f for f in service.flag_review.flags(detect=True) if f.status == "open")
    service.flag_review.card_from_flag(flag.id)
    app = TrackerApp(service, crawl_interval=0)
    async with app.run_test(size=(140, 40)) as pilot:
        await pilot.press("4")
        await settle(pilot)
        table = shown(app, "#ledger-table")
        header, row = table.splitlines()[:2]
        assert "日" in header and "帖·楼" in header and "理由" in header
        assert f"{flag.tid}·{flag.floor}楼" in row and "判罚" in row
        assert shown(app, "#ledger-alarm").strip() == ""
        with service.store.engine.begin() as conn:
            conn.execute(text("UPDATE card_ledger SET color = 'red' WHERE id = 1"))
        app.gateway.invalidate()
        app.query_one("CardsPane").reload()  # type: ignore[attr-defined]
        await settle(pilot)
        assert "！！！记牌账本已损坏：第 1 条记录在记牌工具之外被改动" in shown(app, "#ledger-alarm")


async def test_no_english_in_the_flag_details_or_the_command_palette(service: Service) -> None:
    from textual.command import CommandInput, CommandList, CommandPalette

    app = TrackerApp(service, crawl_interval=0)
    async with app.run_test(size=(140, 40)) as pilot:
        await pilot.press("3")
        await settle(pilot)
        detail = shown(app, "#flag-detail")
        assert "字体 · " in detail and "font" not in detail
        await pilot.press("ctrl+p")
        await settle(pilot)
        assert isinstance(app.screen, CommandPalette)
        assert app.screen.query_one(CommandInput).placeholder == "搜索命令（中文或英文）…"
        found = ""
        for _ in range(20):  # the palette lists its commands asynchronously
            await pilot.pause(0.05)
            options = app.screen.query_one(CommandList)
            found = " ".join(str(options.get_option_at_index(i).prompt) for i in range(options.option_count))
            if "退出" in found:
                break
        assert "退出（quit）" in found and "帮助（help）" in found
        assert not any(word in found for word in ("Quit", "Keys", "Screenshot", "Theme"))


async def test_a_confirmed_day_offers_no_confirmation_and_the_overview_states_the_win_check(
        service: Service) -> None:
    app = TrackerApp(service, crawl_interval=0)
    async with app.run_test(size=(140, 40)) as pilot:
        await pilot.press("1")
        await settle(pilot)
        assert "胜负：尚未分出" in shown(app, "#overview-summary")
        await pilot.press("2")
        await settle(pilot)
        await pilot.press("left_square_bracket")  # day 1, closed
        await settle(pilot)
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("y")
        await settle(pilot)
        assert any(e["kind"] == "tag_given" for e in service.log.events_json())
        await pilot.press("y")  # confirmed already: a notice, no dialog
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmDialog)
        assert any("第1日结果已确认过" in n.message for n in app._notifications)


async def test_a_roster_the_ruleset_contradicts_shows_in_the_overview_and_stops_confirm(tmp_path: Path) -> None:
    from dataclasses import replace

    svc = open_demo(tmp_path)
    try:
        svc.ctx.game = replace(svc.game, players=svc.game.players[:-1])  # 13 players for a 14-player ruleset
        app = TrackerApp(svc, crawl_interval=0)
        async with app.run_test(size=(140, 40)) as pilot:
            await pilot.press("1")
            await settle(pilot)
            # the demo's last player is the cupid: the role count is wrong too
            assert "胜负：不判定（配置错误：玩家人数为 13，规则 luoluo-m19 为 14 人局；变异丘比特 有 0 人" in \
                shown(app, "#overview-summary").replace("\n", "")
            await pilot.press("2")
            await settle(pilot)
            await pilot.press("left_square_bracket")
            await settle(pilot)
            await pilot.press("y")
            await pilot.pause()
            await pilot.press("y")
            await settle(pilot)
            assert not [e for e in svc.log.events_json() if e["kind"] == "tag_given"]
            assert any("不能确认结果" in n.message for n in app._notifications)
    finally:
        svc.close()


async def test_the_overview_names_an_open_day_and_a_closed_one_truthfully_and_notices_stay_on_their_screen(
        service: Service) -> None:
    from tracker.clock import FrozenClock

    clock = service.clock
    assert isinstance(clock, FrozenClock)
    app = TrackerApp(service, crawl_interval=0)
    async with app.run_test(size=(140, 40)) as pilot:
        await pilot.press("1")
        await settle(pilot)
        days = shown(app, "#overview-days")
        assert "◀ 进行中" in next(x for x in days.splitlines() if "第2日" in x) and "今日" not in days
        await pilot.press("2", "b")
        await settle(pilot)
        assert any("BBCode" in (n.title or "") for n in app._notifications)
        await pilot.press("4")  # another screen: the 票型 notice does not follow
        await settle(pilot)
        assert not list(app._notifications)
        clock.advance(hours=24 * 7)
        await pilot.press("1")
        await settle(pilot)
        days = shown(app, "#overview-days")
        assert "◀ 最近关门" in next(x for x in days.splitlines() if "第2日" in x) and "进行中" not in days


async def test_the_audit_trail_puts_each_field_on_its_own_line(service: Service) -> None:
    flag = next(f for f in service.flag_review.flags(detect=True) if f.status == "open")
    service.flag_review.card_from_flag(flag.id)
    app = TrackerApp(service, crawl_interval=0)
    async with app.run_test(size=(140, 40)) as pilot:
        await pilot.press("4")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        trail = [x.strip() for x in shown(app, "#card-trail").splitlines() if x.strip()]
        assert trail[0] == "第 1 条的审计记录"
        assert trail[1].startswith("#1 ") and f"帖 {flag.tid} 第 {flag.floor} 楼" in trail[1]
        assert trail[2].startswith("条款：") and trail[3].startswith("理由：") and trail[4].startswith("哈希 ")


async def test_the_lurk_table_is_sized_by_its_rows_before_any_idle(service: Service) -> None:
    """A frame drawn between ``show`` and the table's next idle (a busy machine; a full CI run's snapshot of 5)
    showed 花千树 as 花千 and the 今日发言 bars cut: the columns' widths are given with the rows, not measured later."""
    app = TrackerApp(service, crawl_interval=0)
    async with app.run_test(size=(140, 40)) as pilot:
        await pilot.press("5")
        await settle(pilot)
        pane = app.query_one(LurkersPane)
        view = pane.gateway.lurkers(pane.day or 2)
        pane.view = None
        pane.show(view)  # no pause: what the very next frame would draw
        table = pane.query_one(DataTable)
        widest = max(Text(r.player).cell_len for r in view.rows)
        first = table.ordered_columns[0]
        assert not first.auto_width and first.width >= widest
        assert all(not c.auto_width for c in table.ordered_columns)

"""8 夜晚, driven by Pilot on the toy ruleset: type submissions with completion, watch the preview
follow, withdraw one, and confirm through a dialog whose focus starts on 取消."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from night_toy_hooks import toy_game
from textual.widgets import Button, DataTable, Input, Static

from tracker.clock import SHANGHAI, FrozenClock
from tracker.engine.night.games import MODULES
from tracker.service import Service
from tui.app import TrackerApp
from tui.screens.dialogs import ConfirmDialog
from tui.screens.night import NightPane


@pytest.fixture
def service(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Service]:
    monkeypatch.setitem(MODULES, "toy-night", "night_toy_hooks")
    svc = Service.open(toy_game(tmp_path), clock=FrozenClock(datetime(2025, 3, 4, 23, 0, tzinfo=SHANGHAI)))
    yield svc
    svc.close()


def preview(app: TrackerApp) -> str:
    return str(app.query_one("#night-preview", Static).content)


async def settle(app: TrackerApp) -> None:
    await app.workers.wait_for_complete()
    await app.workers.wait_for_complete()


async def test_enter_preview_withdraw_and_confirm(service: Service) -> None:
    app = TrackerApp(service, crawl_interval=0)
    async with app.run_test(size=(140, 40)) as pilot:
        await pilot.press("8")
        await settle(app)
        pane = app.query_one(NightPane)
        assert pane.night == 1 and "还没有提交的行动" in preview(app)
        await pilot.press("right_square_bracket")
        await settle(app)
        assert pane.night == 2
        box = app.query_one("#night-input", Input)
        await pilot.press("a")
        assert app.focused is box
        # completion: 饺 → 饺子, 守 → 守护
        await pilot.press(*"饺")
        await pilot.pause()
        await pilot.press("right")
        assert box.value == "饺子"
        await pilot.press("space", *"守")
        await pilot.pause()
        await pilot.press("right")
        assert box.value == "饺子 守护"
        await pilot.press("space", *"包子", "enter")
        await settle(app)
        assert app.focused is not box  # a submission hands the keys back to the screen
        for line in ("狼群(银鸦) 杀人 包子", "狼群(银鸦) 杀人 栗子"):
            await pilot.press("a")
            box.value = line
            await pilot.press("enter")
            await settle(app)
        assert app.query_one(DataTable).row_count == 3
        assert "栗子出局" in preview(app)
        # withdraw the pack's last submission: the earlier one (包子, guarded) stands again
        app.query_one(DataTable).move_cursor(row=2)
        app.query_one(DataTable).focus()
        await pilot.press("d")
        await settle(app)
        assert app.query_one(DataTable).row_count == 2
        assert "包子存活" in preview(app) and "无人出局" in preview(app)
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        assert app.focused is app.screen.query_one("#cancel", Button)
        await pilot.press("enter")  # Enter on 取消 writes nothing
        await settle(app)
        assert pane.preview.confirmed is None
        await pilot.press("c")
        await pilot.pause()
        await pilot.press("y")
        await settle(app)
        assert pane.preview.confirmed is not None
        assert "已确认" in str(app.query_one("#night-title", Static).content)


async def test_a_typo_is_explained_not_crashed(service: Service) -> None:
    app = TrackerApp(service, crawl_interval=0)
    async with app.run_test(size=(140, 40)) as pilot:
        await pilot.press("8")
        await settle(app)
        box = app.query_one("#night-input", Input)
        await pilot.press("a")
        box.value = "饺子 守卫 包子"
        await pilot.press("enter")
        await settle(app)
        assert box.value == "饺子 守卫 包子"  # kept for the director to fix
        assert app.query_one(DataTable).row_count == 0


async def test_the_demo_nights_on_screen_8(tmp_path: Path) -> None:
    """The demo store as `tracker demo` leaves it (both days confirmed, both nights settled through
    the desk): 8 opens on the last night, confirmed, and `[` goes back to night 1's settlement."""
    from tui_demo import open_demo

    from tracker.demo.nights import play_nights

    service = open_demo(tmp_path, at=datetime(2025, 3, 5, 9, 0, tzinfo=SHANGHAI))  # night 1 played
    try:
        for day in (1, 2):
            service.votes.tally_day(day)
            service.votes.confirm_day(day, recorded_by="演示")
        play_nights(service, (2,))
        app = TrackerApp(service, crawl_interval=0)
        async with app.run_test(size=(140, 40)) as pilot:
            await pilot.press("8")
            await settle(app)
            pane = app.query_one(NightPane)
            title = str(app.query_one("#night-title", Static).content)
            assert pane.night == 2 and "已确认" in title
            assert app.query_one(DataTable).row_count == 6
            text = preview(app)
            assert "泡泡存活" in text and "第2天因投票出局：栗子" in text and "第2夜无人出局" in text
            assert "通灵：被指杀的角色是泡泡" in text  # the feedback to paste
            await pilot.press("left_square_bracket")
            await settle(app)
            assert pane.night == 1 and app.query_one(DataTable).row_count == 3
            text = preview(app)
            assert "第1夜出局：阿狸、老王" in text and "殉情（阿狸出局）" in text
            assert "通灵：被指杀的角色是阿狸" in text  # history: as confirmed, not re-settled after night 2
    finally:
        service.close()

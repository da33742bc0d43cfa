"""The director's decisions from the keyboard, asserted on the store afterwards (not on the screen)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable
from tui_demo import open_demo

from tracker.service import Service
from tui.app import TrackerApp
from tui.screens.dialogs import CardForm, ReasonDialog
from tui.screens.flags import FlagsPane
from tui.widgets.post_view import PostView
from tui.widgets.sidebar import Sidebar


@pytest.fixture
def service(tmp_path: Path) -> Iterator[Service]:
    svc = open_demo(tmp_path)
    yield svc
    svc.close()


async def settle(pilot: Pilot[Any]) -> None:
    for _ in range(3):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()


async def test_flags_queue_shows_open_flags_and_the_post(service: Service) -> None:
    app = TrackerApp(service, crawl_interval=0)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("3")
        await settle(pilot)
        pane = app.query_one(FlagsPane)
        open_flags = service.flag_review.flags(status="open")
        assert open_flags and len(pane.flags) == len(service.flag_review.flags())
        assert app.query_one(Sidebar).badges.get("flags") == len(open_flags)
        first = pane.current
        assert first.status == "open"
        view = app.query_one("#flag-post", PostView)
        assert view.post.pid == first.pid and view.body_text
        await pilot.press("n")
        await pilot.pause()
        assert view.post.pid == pane.flags[1].pid
        await pilot.press("p")
        await pilot.pause()
        assert view.post.pid == first.pid


async def test_card_from_flag_writes_ledger_and_closes_flag(service: Service) -> None:
    app = TrackerApp(service, crawl_interval=0)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("3")
        await settle(pilot)
        flag = app.query_one(FlagsPane).current
        suggestion = service.flag_review.suggest_card(flag.id)
        await pilot.press("c")
        await settle(pilot)
        assert isinstance(app.screen, CardForm)
        assert app.screen.query_one("#clause").value == suggestion.clause  # type: ignore[attr-defined]
        assert app.focused is app.screen.query_one("#cancel")  # Enter right away must not issue a card
        await pilot.click("#ok")
        await settle(pilot)
        assert not isinstance(app.screen, CardForm)
    issued = [e for e in service.cards.ledger() if e.action == "issue"]
    assert len(issued) == 1
    e = issued[0]
    assert (e.player, e.color, e.clause, e.flag, e.post) == (suggestion.player, suggestion.color,
                                                             suggestion.clause, flag.id, flag.pid)
    assert service.flag_review.flag(flag.id).status == "carded"


async def test_cancelled_card_form_writes_nothing(service: Service) -> None:
    app = TrackerApp(service, crawl_interval=0)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("3")
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
    assert service.cards.ledger() == []


async def test_dismiss_flag_with_reason(service: Service) -> None:
    app = TrackerApp(service, crawl_interval=0)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("3")
        await settle(pilot)
        flag = app.query_one(FlagsPane).current
        before = len(service.flag_review.flags(status="open"))
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, ReasonDialog)
        await pilot.press("enter")  # an empty reason is refused
        assert isinstance(app.screen, ReasonDialog)
        await pilot.press(*"广场助威不是场外助理", "enter")
        await settle(pilot)
        stored = service.flag_review.flag(flag.id)
        assert stored.status == "dismissed" and stored.decision_reason == "广场助威不是场外助理"
        assert len(service.flag_review.flags(status="open")) == before - 1
        assert app.query_one(Sidebar).badges.get("flags") == before - 1


async def test_revoke_card_with_reason_and_audit_trail(service: Service) -> None:
    card = service.cards.issue_card("泡泡", "yellow", "潜水", "第1日发言不足5帖").entry
    app = TrackerApp(service, crawl_interval=0)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("4")
        await settle(pilot)
        table = app.query_one("#ledger-table", DataTable)
        assert table.row_count == 1
        await pilot.press("enter")
        await settle(pilot)
        trail = app.query_one("#card-trail").content.plain  # type: ignore[attr-defined]
        assert f"#{card.id}" in trail and "第1日发言不足5帖" in trail
        await pilot.press("x")
        await pilot.pause()
        assert isinstance(app.screen, ReasonDialog)
        await pilot.press(*"统计有误", "enter")
        await settle(pilot)
        assert table.row_count == 2
    revokes = [e for e in service.cards.ledger() if e.action == "revoke"]
    assert len(revokes) == 1 and revokes[0].ref == card.id and revokes[0].reason == "统计有误"
    assert service.cards.standing()["泡泡"].yellow == 0


async def test_a_failing_service_call_is_told_in_chinese_and_the_screen_stays(service: Service,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from tracker.errors import LedgerBrokenError
    from tui.screens.cards import CardsPane

    def broken() -> Any:
        raise LedgerBrokenError("记牌账本校验失败：第 2 条被改动", hint="从备份恢复")

    monkeypatch.setattr(service.cards, "ledger", broken)
    app = TrackerApp(service, crawl_interval=0)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("4")
        await settle(pilot)
        assert app.query_one(CardsPane).display
        told = [n.message for n in app._notifications]
        assert any("记牌账本校验失败" in m and "从备份恢复" in m for m in told), told

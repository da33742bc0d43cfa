"""Decisions with one home (issue 23 item 3): who records a confirmation, which day it is now.

Each was decided twice (the confirmation's recorder fell back to "tracker" where every other
decision says 导演 and strips the name given; the reports and the TUI each had a "today"); these
hold the one answer.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest

from tests.demo_game import copy_demo
from tracker.clock import SHANGHAI
from tracker.config import DayConfig
from tracker.engine.days import day_now
from tracker.service import Service
from tui.timing import current_day

T0 = datetime(2025, 3, 1, 10, 0, tzinfo=SHANGHAI)


def _days() -> tuple[DayConfig, ...]:
    return (DayConfig(day=1, discussion=None, vote=None, opens=T0, closes=T0 + timedelta(hours=30)),
            DayConfig(day=2, discussion=None, vote=None, opens=T0 + timedelta(hours=32), closes=T0 + timedelta(hours=62)))


def test_which_day_it_is_now() -> None:
    days = _days()
    assert day_now(days, T0 - timedelta(minutes=1)) is None
    assert day_now(days, T0).day == 1 and day_now(days, days[0].closes).day == 1  # type: ignore[union-attr]
    between = days[0].closes + timedelta(hours=1)  # day 1 closed, day 2 not open: day 1's results to settle
    assert day_now(days, between).day == 1  # type: ignore[union-attr]
    assert day_now(days, days[1].opens).day == 2  # type: ignore[union-attr]
    assert day_now(days, days[1].closes + timedelta(days=9)).day == 2  # type: ignore[union-attr]


def test_the_tui_header_and_the_reports_read_the_same_day(demo_crawled: Path, tmp_path: Path) -> None:
    svc = Service.open(copy_demo(demo_crawled, tmp_path))
    try:
        days = tuple(svc.log.effective_days())
        for now in (days[0].opens, days[0].closes, days[0].closes + timedelta(minutes=1), days[-1].opens,
                    days[-1].closes + timedelta(days=1)):
            svc.ctx.clock.now = lambda now=now: now  # type: ignore[method-assign]
            tui_day = current_day(days, now)
            assert tui_day is not None and svc.reports.current_day() == tui_day.day
    finally:
        svc.close()


def test_a_confirmation_is_recorded_by_the_director_as_every_decision_is(demo_crawled: Path, tmp_path: Path) -> None:
    svc = Service.open(copy_demo(demo_crawled, tmp_path))
    try:
        results = svc.votes.confirm_day(1, recorded_by="  导演B ")
        events = [e for r in results for e in r.events]
        assert events and {e.recorded_by for e in events} == {"导演B"}
    finally:
        svc.close()


def test_init_writes_the_games_zone_and_reads_opens_in_it(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    from zoneinfo import ZoneInfo

    from tracker.cli import main
    from tracker.config import load_game

    out = tmp_path / "game.toml"
    code = main(["init", "--ruleset", "luoluo-m19", "--out", str(out), "--timezone", "Europe/Berlin",
                 "--opens", "2025-03-01T10:00:00"])
    assert code == 0, capsys.readouterr().err
    game = load_game(out)
    assert game.tz == ZoneInfo("Europe/Berlin")
    assert game.days[0].opens == datetime(2025, 3, 1, 10, 0, tzinfo=ZoneInfo("Europe/Berlin"))
    code = main(["init", "--ruleset", "luoluo-m19", "--timezone", "Mars/Olympus"])
    assert code == 2 and "--timezone 'Mars/Olympus' 不是时区" in capsys.readouterr().err


def test_the_night_desk_is_built_once(demo_crawled: Path, tmp_path: Path) -> None:
    svc = Service.open(copy_demo(demo_crawled, tmp_path))
    try:
        assert svc.night_desk is svc.night_desk
    finally:
        svc.close()

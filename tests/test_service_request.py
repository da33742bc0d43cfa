"""One request, one read of the event log and one fold per distinct state (issue #11).

`standing()` used to fold the whole log once per player; the 潜水 count re-read the log for every
day it looked at. These pin the figures bench_folds.py reports, and that a request never serves
stale state after it records an event.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import tracker.engine.state as engine_state
import tracker.service.gamelog as gamelog
from tests.tui_demo import open_demo
from tracker.service import Service


@pytest.fixture
def svc(tmp_path: Path) -> Iterator[Service]:
    s = open_demo(tmp_path)
    try:
        yield s
    finally:
        s.close()


@pytest.fixture
def counts(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    seen = {"reads": 0, "folds": 0}
    load, fold_cls = gamelog.load_events, engine_state._Fold

    def counted_load(*a: Any, **kw: Any) -> Any:
        seen["reads"] += 1
        return load(*a, **kw)

    class Counted(fold_cls):  # type: ignore[misc, valid-type]
        def __init__(self, *a: Any, **kw: Any) -> None:
            seen["folds"] += 1
            super().__init__(*a, **kw)

    monkeypatch.setattr(gamelog, "load_events", counted_load)
    monkeypatch.setattr(engine_state, "_Fold", Counted)
    return seen


def test_standing_reads_the_log_once_and_folds_once(svc: Service, counts: dict[str, int]) -> None:
    assert len(svc.standing()) == len(svc.game.players)
    assert counts == {"reads": 1, "folds": 1}


def test_a_lurk_count_reads_the_log_once(svc: Service, counts: dict[str, int]) -> None:
    svc.lurkers(2)
    assert counts["reads"] == 1 and counts["folds"] <= 4


def test_each_call_reads_afresh_and_one_request_shares_a_read(svc: Service, counts: dict[str, int]) -> None:
    svc.standing()
    svc.standing()
    assert counts["reads"] == 2
    with svc.request():
        svc.standing()
        svc.tally_day(2)
        svc.game_state()
    assert counts["reads"] == 3


def test_an_event_recorded_in_a_request_is_seen_by_what_follows(svc: Service) -> None:
    with svc.request():
        assert svc.game_state().players["风行"].status == "alive"
        svc.record_event("benched", "风行")
        assert svc.game_state().players["风行"].status == "benched"
        assert svc.standing()["风行"].status == "benched"

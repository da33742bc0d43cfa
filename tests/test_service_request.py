"""One request, one read of the event log and one fold of it (issue #11).

`standing()` used to fold the whole log once per player; the 潜水 count re-read the log for every
day it looked at, and a count folded it again for each moment it needed (a day's opening, its
close, the log with a provisional election). These pin the figures bench_folds.py reports: one read,
one fold (the request's pass), the other states resumed from the pass's marks with few events
replayed; and that a request never serves stale state after it records an event.
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
    seen = {"reads": 0, "folds": 0, "applied": 0}
    load, fold_cls = gamelog.load_events, engine_state._Fold

    def counted_load(*a: Any, **kw: Any) -> Any:
        seen["reads"] += 1
        return load(*a, **kw)

    class Counted(fold_cls):  # type: ignore[misc, valid-type]
        def __init__(self, *a: Any, **kw: Any) -> None:
            seen["folds"] += 1
            super().__init__(*a, **kw)

        def apply(self, *a: Any, **kw: Any) -> Any:
            seen["applied"] += 1
            return super().apply(*a, **kw)

    monkeypatch.setattr(gamelog, "load_events", counted_load)
    monkeypatch.setattr(engine_state, "_Fold", Counted)
    return seen


def test_standing_reads_the_log_once_and_folds_once(svc: Service, counts: dict[str, int]) -> None:
    assert len(svc.cards.standing()) == len(svc.game.players)
    assert (counts["reads"], counts["folds"]) == (1, 1)


@pytest.mark.parametrize("ask", ["standing", "state", "tally_day", "lurkers", "several"])
def test_every_request_reads_the_log_once_and_folds_it_once(svc: Service, counts: dict[str, int], ask: str) -> None:
    """The 潜水 count needs day 1's and day 2's openings and closes, and day 2's count the log with
    day 1's provisional 警长: all from one pass, replaying at most the log once more in all."""
    logged = len(svc.log.events())
    counts.update(reads=0, folds=0, applied=0)
    with svc.log.request():
        if ask in ("standing", "several"):
            svc.cards.standing()
        if ask in ("state", "several"):
            svc.summary()  # the summary: the state now and each day's opening
        if ask in ("tally_day", "several"):
            svc.votes.tally_day(2)
        if ask in ("lurkers", "several"):
            svc.lurking.lurkers(2)
    assert (counts["reads"], counts["folds"]) == (1, 1)
    assert logged <= counts["applied"] <= 2 * logged


def test_each_call_reads_afresh_and_one_request_shares_a_read(svc: Service, counts: dict[str, int]) -> None:
    svc.cards.standing()
    svc.cards.standing()
    assert counts["reads"] == 2
    with svc.log.request():
        svc.cards.standing()
        svc.votes.tally_day(2)
        svc.log.state()
    assert counts["reads"] == 3


def test_an_event_recorded_in_a_request_is_seen_by_what_follows(svc: Service) -> None:
    with svc.log.request():
        assert svc.log.state().players["风行"].status == "alive"
        svc.log.record_event("benched", "风行")
        assert svc.log.state().players["风行"].status == "benched"
        assert svc.cards.standing()["风行"].status == "benched"

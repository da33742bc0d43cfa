"""One pass over the event log that gives the state after any set of its events.

Why: one request needs the state at several moments — a day's opening (who may be voted for,
加速 by count), its close (who may vote, 潜水 statuses), now — and a day's count also needs the log
with a provisional day-1 election added, or without the day's own confirmation. Each was a fold
from the first event (1–3 per request, issue #11). A pass folds the log once and keeps a mark at
every batch boundary (simultaneous events, the unit the fold checks win and loss by), a few dict
copies each. The state after a set of events then resumes from the last mark the set shares with
the log and replays only what differs: nothing, for a cut in time of the log; the events after a
provisional election's time, for a log with one added.

The answer is the fold's, exactly (``tests/test_fold_pass.py`` compares them): the set's events
in force are worked out from the set itself (an undo after a cut does not reach before it), and a
mark is used only where the fold of the set would also have ended a batch.
"""

from __future__ import annotations

from collections.abc import Sequence

from tracker.config import DayConfig, PlayerConfig
from tracker.engine.events import Event, effective
from tracker.engine.ruleset import Ruleset
from tracker.engine.state import GameState, Mark, begin, finish, replay


class FoldPass:
    """The log ``events`` folded once, with a mark after each batch."""

    def __init__(self, ruleset: Ruleset, roster: Sequence[PlayerConfig], events: Sequence[Event],
                 days: Sequence[DayConfig] = ()) -> None:
        self.live, _ = effective(events)
        self._fold = begin(ruleset, roster, days)
        self._marks: dict[int, Mark] = {0: self._fold.mark()}
        replay(self._fold, self.live, self._marks)

    def state(self, events: Sequence[Event]) -> GameState:
        """The state after ``events`` (any set: a cut of the log, the log plus or minus a few), as
        :func:`tracker.engine.state.fold` gives it."""
        live, undone = effective(events)
        k = self._shared(live)
        f = self._fold.branch(self._marks[k])
        rest = live[k:]
        replay(f, rest)
        return finish(f, live, undone, frozenset(e.seq for e in events))

    def _shared(self, live: Sequence[Event]) -> int:
        """How many of ``live``'s first events to take from a mark: the longest run it shares with
        the pass that ends a batch in both (so the same win checks ran)."""
        mine = self.live
        n = 0
        while n < len(live) and n < len(mine) and (live[n] is mine[n] or live[n] == mine[n]):
            n += 1
        for k in range(n, 0, -1):
            if k in self._marks and (k == len(live) or live[k].at != live[k - 1].at):
                return k
        return 0

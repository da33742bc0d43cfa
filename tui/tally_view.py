"""The 票型 screen's values: a day's vote thread(s) as rows the screen draws, built from the service's tally.

Why a converter: the screen must not learn the engine's types (CountedBallot, Verdict, Outcome);
everything it shows — the Chinese reason of each ballot, which floor a 改票 quoted, who weighs more
than one vote — is decided here once, in a worker thread, so drawing is only formatting.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from tracker.engine.tally_model import CountedBallot

if TYPE_CHECKING:
    from tracker.service.votes import DayTally

PURPOSE_WORDS = {"exile": "放逐投票", "election": "竞选投票"}


@dataclass(frozen=True, slots=True)
class BallotRow:
    pid: int
    tid: int
    floor: int
    voter: str
    kind: str  # vote | change | proxy (the ballot's form)
    change: bool
    target: str | None  # the resolved player, else the target as written
    valid: bool
    final: bool  # the voter's ballot that counts at the close
    reason: str | None  # why it does not count, in the rule posts' words
    flags: tuple[str, ...] = ()  # counts, but the director should look (edited, noon exception …)
    posted_at: datetime | None = None
    weight: float = 0.0
    public_weight: float = 0.0
    quoted_floors: tuple[int, ...] = ()
    proxy_by: str | None = None
    earlier_text: str | None = None


@dataclass(frozen=True, slots=True)
class TotalRow:
    player: str
    public: float
    true: float
    note: str = ""  # who weighs other than 1 (饺子 ×1.5), director-only when it differs from public


@dataclass(frozen=True, slots=True)
class TallySheet:
    """One vote thread of the day: totals, every ballot, the outcome and whether it is recorded."""

    tid: int
    purpose: str
    closes: datetime
    accelerated: bool
    totals: tuple[TotalRow, ...]
    ballots: tuple[BallotRow, ...]
    outcome: str
    outcome_kind: str
    public_differs: bool
    confirmed: bool
    abstain_word: str  # the ruleset's (Tally.abstain_word): werewolf-12 prints 弃票
    abstained: tuple[str, ...] = ()
    no_vote: tuple[str, ...] = ()  # no ballot at all (Tally.silent)
    only_invalid: tuple[str, ...] = ()  # every ballot invalid (Tally.only_invalid)
    auto_abstain: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def invalid(self) -> int:
        return sum(1 for b in self.ballots if not b.valid)


@dataclass(frozen=True, slots=True)
class TallyView:
    day: int
    sheets: tuple[TallySheet, ...]
    closed: bool  # the day's vote has closed (by the clock): the outcome waits for `y`

    @property
    def invalid(self) -> int:
        return sum(s.invalid for s in self.sheets)

    @property
    def waiting(self) -> bool:
        return self.closed and any(not s.confirmed for s in self.sheets)

    def history(self, voter: str) -> tuple[BallotRow, ...]:
        """Every ballot the voter posted that day, in every vote thread, in forum order."""
        return tuple(b for s in self.sheets for b in s.ballots if b.voter == voter)

    def find(self, pid: int) -> BallotRow | None:
        return next((b for s in self.sheets for b in s.ballots if b.pid == pid), None)


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def _notes(counted: Iterable[CountedBallot]) -> dict[str, str]:
    """Per target: the final ballots that weigh other than one vote, with the public weight if it differs."""
    out: dict[str, list[str]] = {}
    for cb in counted:
        if not (cb.final and cb.valid and cb.target):
            continue
        if cb.weight != 1 or cb.public_weight != cb.weight:
            part = f"{cb.voter} ×{_num(cb.weight)}"
            if cb.public_weight != cb.weight:
                part += f"（公开 ×{_num(cb.public_weight)}）"
            out.setdefault(cb.target, []).append(part)
    return {k: "、".join(v) for k, v in out.items()}


def sheet_from(dt: DayTally, *, confirmed: Collection[int], floor_of: Callable[[int], int | None]) -> TallySheet:
    """``floor_of`` maps a quoted pid to its floor (a ballot quoting an earlier post)."""
    t = dt.tally
    w = t.window
    floors = {cb.ballot.pid: cb.ballot.floor for cb in t.ballots}
    ballots = []
    for cb in t.ballots:
        b = cb.ballot
        quoted = tuple(f for f in (floors.get(p) or floor_of(p) for p in b.quoted_pids) if f is not None)
        ballots.append(BallotRow(
            pid=b.pid, tid=b.tid, floor=b.floor, voter=cb.voter, kind=b.kind, change=b.change,
            target=cb.target if cb.target is not None else b.target, valid=cb.valid, final=cb.final,
            reason=cb.verdict.message if cb.verdict is not None else None,
            flags=tuple(f.message for f in cb.flags), posted_at=b.posted_at, weight=cb.weight,
            public_weight=cb.public_weight, quoted_floors=quoted, proxy_by=b.proxy_by,
            earlier_text=cb.earlier_text))
    notes = _notes(t.ballots)
    names = list(dict.fromkeys([*t.totals, *t.public_totals]))
    totals = sorted((TotalRow(n, float(t.public_totals.get(n, 0)), float(t.totals.get(n, 0)), notes.get(n, ""))
                     for n in names), key=lambda r: (-r.true, -r.public))
    purpose = PURPOSE_WORDS.get(w.purpose, w.purpose) + (f"（{w.office}）" if w.office else "")
    o = t.outcome
    return TallySheet(
        tid=dt.tid, purpose=purpose, closes=w.closes, accelerated=w.accelerated, totals=tuple(totals),
        ballots=tuple(ballots), outcome=o.message, outcome_kind=o.kind, public_differs=o.public_differs,
        confirmed=dt.tid in confirmed, abstained=tuple(t.abstained), no_vote=t.silent, only_invalid=t.only_invalid,
        auto_abstain=tuple(t.auto_abstain), notes=(*dt.provisional, *dt.warnings), abstain_word=t.abstain_word)

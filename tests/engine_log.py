"""A tiny in-memory event log for the engine's scenario tests: record, fold, undo, in a few lines."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from tracker.clock import SHANGHAI
from tracker.config import PlayerConfig
from tracker.engine.days import VoteResult, confirm_vote
from tracker.engine.events import Event, EventDraft, make_draft
from tracker.engine.ruleset import Ruleset, load_ruleset
from tracker.engine.state import GameState, check_event, fold
from tracker.engine.tally import (
    VoteOutcome,
    VoteWindow,
    decide,
    election_window,
    roster_from_states,
    rules_for_vote,
)

START = datetime(2025, 3, 3, 22, 0, tzinfo=SHANGHAI)   # a Monday close


def outcome_for_totals(ruleset: Ruleset, state: GameState, *, day: int, purpose: str, totals: dict[str, float],
                       first_to_top: str | None = None) -> VoteOutcome:
    """The tally's decision for totals alone (a hand count): the same :func:`decide` the count calls,
    on ``state``. Without ballots the tally cannot replay who reached the top first, so
    ``first_to_top`` names them where the tie rule needs it."""
    on_day1 = purpose != "exile" or day == 1  # an election on any day, an exile vote only on day 1
    election = next((e for e in ruleset.voting.day1 if e.purpose == purpose), None) if on_day1 else None
    purpose_kind, office = election_window(election)
    when = datetime(2000, 1, 1, tzinfo=UTC)  # no one leaves mid-day here: any instant will do
    window = VoteWindow(day=day, opens=when, closes=when, purpose=purpose_kind, office=office)
    return decide(totals, rules=rules_for_vote(ruleset.voting, election), roster=roster_from_states(state, state, day),
                  window=window, first_to_top=first_to_top)


def roster(spec: Sequence[tuple[str, str] | tuple[str, str, str]]) -> list[PlayerConfig]:
    """(name, role) or (name, role, faction)."""
    return [PlayerConfig(name=s[0], role=s[1], faction=s[2] if len(s) > 2 else None) for s in spec]  # type: ignore[misc]


class Game:
    def __init__(self, ruleset: str | Ruleset, players: Sequence[PlayerConfig]) -> None:
        self.rs = load_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
        self.players = list(players)
        self.events: list[Event] = []
        self.clock = START

    def tick(self, hours: float = 1) -> datetime:
        self.clock += timedelta(hours=hours)
        return self.clock

    @property
    def state(self) -> GameState:
        return fold(self.rs, self.players, self.events)

    def add(self, draft: EventDraft) -> Event:
        e = draft.to_event(seq=len(self.events) + 1, recorded_at=draft.at)
        self.events.append(e)
        return e

    def record(self, kind: str, player: str | None = None, *, same_time: bool = False, **data: Any) -> GameState:
        at = self.clock if same_time else self.tick()
        check_event(self.state, kind, player, data)
        self.add(make_draft(kind, at=at, player=player, data=data, recorded_by="导演A"))
        return self.state

    def undo(self, seq: int | None = None) -> GameState:
        target = seq if seq is not None else self.events[-1].seq
        return self.record("undo", seq=target)

    def confirm(self, day: int, purpose: str, totals: dict[str, float], first: str | None = None,
                voters: Sequence[str] = ()) -> tuple[GameState, str]:
        """Decide with the tally's rule (totals only: ``first`` names who reached the top first), then
        record; ``voters`` stands for the final ballots, of which the dead ones are last votes."""
        state = self.state
        outcome = outcome_for_totals(self.rs, state, day=day, purpose=purpose, totals=totals, first_to_top=first)
        last = [n for n in voters if n in state.players and state.players[n].life == "dead"]
        c = confirm_vote(self.rs, state, VoteResult(day, purpose, outcome, last), at=self.tick(), recorded_by="导演A")
        for d in c.drafts:
            self.add(d)
        return self.state, c.explanation

    def status(self, name: str) -> str:
        return self.state.players[name].status

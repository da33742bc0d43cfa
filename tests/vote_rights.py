"""A player's vote right and weight on a day, asked of the count's own rules.

The engine's scenario tests used to ask ``GameState.can_vote`` / ``GameState.weight``, a second copy
of the rules the count never used (issue #11). They now ask what the count asks: the day's roster
built from the folded state as the service builds it (``roster_from_states``), the voting clauses
resolved for the vote (``rules_for_vote``: day 1's elections let everyone vote), and the tally's
:func:`~tracker.engine.tally.vote_right` / :func:`~tracker.engine.tally.vote_weight`.
"""

from __future__ import annotations

from tracker.engine.state import GameState
from tracker.engine.tally import (
    PlayerView,
    Roster,
    TallyRules,
    roster_from_states,
    rules_for_vote,
    vote_right,
    vote_weight,
)


def asked(s: GameState, name: str, day: int, purpose: str = "exile") -> tuple[PlayerView, TallyRules, Roster]:
    """(the player as the day's count sees them, the vote's rules, the day's roster)."""
    election = next((e for e in s.ruleset.voting.day1 if e.purpose == purpose), None) if day == 1 else None
    roster = roster_from_states(s, s, day)
    p = roster.find(name)
    assert p is not None, name
    return p, rules_for_vote(s.ruleset.voting, election), roster


def can_vote(s: GameState, name: str, day: int, purpose: str = "exile", *, public: bool = False) -> bool:
    """Whether ``name``'s ballot counts on ``day`` (``public``: in the count the players can check)."""
    right = vote_right(*asked(s, name, day, purpose))
    return right.counts_in_public if public else right.counts


def weight(s: GameState, name: str, day: int) -> float:
    """What ``name``'s ballot weighs on ``day`` in the director's true count."""
    return vote_weight(*asked(s, name, day)).true

"""The decision of one vote from its totals: who goes (or is elected), or why nobody does.

Kept apart from the count because it is the one place the rule posts' outcome clauses live (平票则无人
出局 or 最先获得最高票, M160's half-the-living threshold, M65's day-1 预知者), and because
``confirm_vote`` calls :func:`decide` on totals alone. Re-exported by :mod:`tracker.engine.tally`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from tracker.engine.tally_model import (
    CountedBallot,
    OutcomeKind,
    PlayerView,
    Roster,
    TallyRules,
    VoteWindow,
    apply_modifiers,
    status_at,
)


@dataclass(frozen=True, slots=True)
class VoteOutcome:
    kind: OutcomeKind
    player: str | None
    reason: str  # code
    message: str  # Chinese, in the rule posts' words
    top: float = 0.0
    tied: tuple[str, ...] = ()
    office: str | None = None
    public_differs: bool = False


def _living_at_close(roster: Roster, window: VoteWindow) -> list[PlayerView]:
    """Who is living when the vote closes: a player out *at* the close (the day's own result, entered
    as an event at the close) was living when the vote was decided, so is still a candidate."""
    return [p for p in roster.players if not p.dead  # M160 【死亡】 and 挂机: not 存活
            and (p.status if p.out_at is not None and p.out_at >= window.closes else status_at(p, window.closes))
            in ("alive", "benched")]


def decide_counts(ballots: Sequence[CountedBallot], totals: Mapping[str, float], public: Mapping[str, float], *,
                  rules: TallyRules, roster: Roster, window: VoteWindow) -> VoteOutcome:
    """The decision on the true count, flagged ``public_differs`` when the public count decides otherwise."""
    decided = _decide(ballots, totals, rules=rules, roster=roster, window=window, public=False)
    other = _decide(ballots, public, rules=rules, roster=roster, window=window, public=True)
    if (other.kind, other.player) != (decided.kind, decided.player):
        from dataclasses import replace

        return replace(decided, public_differs=True)
    return decided


def _decide(ballots: Sequence[CountedBallot], totals: Mapping[str, float], *, rules: TallyRules,
            roster: Roster, window: VoteWindow, public: bool) -> VoteOutcome:
    return decide(totals, rules=rules, roster=roster, window=window,
                  first_to_top=lambda tied, top: _first_to_reach(ballots, tied, top, roster, public=public,
                                                                 needs_votes=rules.received_add_needs_votes,
                                                                 abstain=rules.abstain_word))


FirstToTop = Callable[[tuple[str, ...], float], str | None]


def decide(totals: Mapping[str, float], *, rules: TallyRules, roster: Roster, window: VoteWindow,
           first_to_top: FirstToTop | str | None = None) -> VoteOutcome:
    """The result of one vote from its totals: THE decision, which ``confirm_vote`` only records.

    Exile: the unique top goes (平票则无人出局, or 最先获得最高票 where the tie rule says so), unless
    M160's threshold (大于等于场上存活角色一半) or M65's day-1 预知者 (天罡护体) says nobody. An election
    gives its office to the unique top (or the first to reach it). Only living targets count.
    ``first_to_top`` breaks a tie under the first_to_top rule: the tally replays its ballots; a
    caller holding only totals names the player (or None).
    """
    living = {p.name for p in _living_at_close(roster, window)}
    scores = {t: v for t, v in totals.items() if t in living and v > 0}
    election = window.purpose == "election"
    office = window.office
    if not scores:
        what = f"无人当选{office or ''}" if election else "无人出局"
        return VoteOutcome("nobody", None, "no_votes", f"没有有效票，{what}", office=office)
    top = max(scores.values())
    tied = tuple(sorted(t for t, v in scores.items() if v == top))
    winner: str | None = tied[0] if len(tied) == 1 else None
    if winner is None:
        if rules.tie == "first_to_top":
            first = first_to_top(tied, top) if callable(first_to_top) else first_to_top
            winner = first if first in tied else None
        if winner is None:
            what = f"本局没有{office or '当选者'}" if election else "无人出局"
            return VoteOutcome("nobody", None, "tie", f"{'、'.join(tied)} 平票（{_fmt(top)} 票），{what}",
                           top=top, tied=tied, office=office)
        how = "最先获得最高票"
    else:
        how = "票数最高"
    if election:
        return VoteOutcome("elected", winner, "top_votes" if len(tied) == 1 else "first_to_top",
                       f"{winner} {how}（{_fmt(top)} 票），当选{office or ''}", top=top, tied=tied,
                       office=office)
    if rules.threshold == "half_living" and top < len(living) / 2:
        return VoteOutcome("nobody", None, "threshold",
                       f"{winner} 票数最高（{_fmt(top)} 票）但未达到存活角色（{len(living)} 人）的一半，无人死亡",
                       top=top, tied=tied)
    wp = roster.find(winner)
    if rules.nobody_out_if_top and wp is not None and wp.role == rules.nobody_out_if_top:
        return VoteOutcome("nobody", None, "day1_immunity",
                       f"{winner} 成为得票数最高的角色（{_fmt(top)} 票），当日无人出局",
                       top=top, tied=tied)
    # M160: 该玩家【死亡】 — dead, not out: the last vote is still theirs
    what = "【死亡】（仍保留最后一票）" if rules.dead_last_vote else "被投票出局"
    return VoteOutcome("exiled", winner, "top_votes" if len(tied) == 1 else "first_to_top",
                   f"{winner} {how}（{_fmt(top)} 票），{what}", top=top, tied=tied)


def _first_to_reach(ballots: Sequence[CountedBallot], tied: tuple[str, ...], top: float,
                    roster: Roster, *, public: bool, abstain: str, needs_votes: bool = False) -> str | None:
    """Replay the valid ballots in time order; the tied candidate whose running count first hit ``top``.

    Weights and received modifiers are those of the final count (they are the day's facts).
    """
    final_weight = {cb.voter: (cb.public_weight if public else cb.weight) for cb in ballots if cb.final}
    current: dict[str, str | None] = {}
    for cb in ballots:  # already in time order
        if not cb.valid:
            continue
        current[cb.voter] = cb.target
        running: dict[str, float] = {}
        for voter, t in current.items():
            if t is not None and t != abstain:
                running[t] = running.get(t, 0.0) + final_weight.get(voter, 1.0)
        apply_modifiers(running, roster, hidden_too=not public, needs_votes=needs_votes)
        for t in tied:
            if running.get(t, 0.0) >= top:
                return t
    return None


def _fmt(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"

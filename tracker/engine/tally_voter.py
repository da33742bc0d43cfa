"""Who may vote and with what weight: the one home of both rules, the functions the count calls.

There used to be two: ``GameState.can_vote`` / ``GameState.weight`` beside the tally's own, and only
the tally's decided a real count (issue #11). Now the count (:mod:`tracker.engine.tally`) asks
:func:`vote_right` whether a ballot may be cast and counts, and :func:`vote_weight` what it weighs;
anyone else who needs the answer (a test, a report) builds the day's roster the way the service does
(:func:`tracker.engine.tally_model.roster_from_states`) and asks the same two functions.

Both answer in the two views the tally keeps: the director's true count and the players' public one
(hidden rules — 107's 票权 by role, 票权掠夺, 恶徒首领's bonus — only move the true count).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from tracker.engine.normalize import name_key
from tracker.engine.tally_model import PlayerView, Roster, TallyRules, VoteModifier, status_at
from tracker.engine.verdicts import Code


@dataclass(frozen=True, slots=True)
class VoteRight:
    """Whether a player's ballot is accepted, and whether it weighs anything in each view.

    ``barred``: why no ballot of theirs is accepted at that moment (挂机, 出局, 死亡 without M160's
    last vote), None when one is. ``granted``: the 票权 after the day's 权势 toggles, true view;
    ``shown``: what the players see (only announced toggles move it). ``voided``: 票权掠夺 took the
    vote (flagged apart from having none), ``voided_in_public`` when that was announced.
    """

    barred: Code | None
    granted: bool
    shown: bool
    voided: bool = False
    voided_in_public: bool = False

    @property
    def counts(self) -> bool:
        """The ballot counts in the director's true count."""
        return self.barred is None and self.granted and not self.voided

    @property
    def counts_in_public(self) -> bool:
        """The ballot counts in the count the players can check."""
        return self.barred is None and self.shown and not self.voided_in_public


#: The answer without a modifier of the day, built once: the count asks once per ballot.
_PLAIN = {(barred, granted): VoteRight(barred=barred, granted=granted, shown=True)
          for barred in (None, Code.VOTER_BENCHED, Code.VOTER_NOT_ALIVE) for granted in (True, False)}


@dataclass(frozen=True, slots=True)
class VoteWeight:
    """What one counted ballot weighs, before the vote right zeroes it: (true, public)."""

    true: float
    public: float


def vote_right(p: PlayerView, rules: TallyRules, roster: Roster, at: datetime | None = None) -> VoteRight:
    """``p``'s vote right on the roster's day, at ``at`` (None: as the day opens).

    Status: 挂机 never votes; 出局 only with a granted ``vote_right`` (107 恶灵·虚体 "视为出局，但仍保留
    发言权和投票权"); 死亡 only under M160's last vote. Then the 票权 (107: roles ∪ tags ∪ factions, a
    director's ``vote_right``), the day's announced or hidden 权势 toggles, and 票权掠夺.
    """
    status = p.status if at is None else status_at(p, at)
    if status == "out" and p.vote_right is True:
        status = "alive"
    barred: Code | None = None
    if status == "benched":
        barred = Code.VOTER_BENCHED
    elif status == "out" or (status == "dead" and not rules.dead_last_vote):
        barred = Code.VOTER_NOT_ALIVE
    granted = _holds_vote_right(p, rules)
    shown = True  # 107's 票权 by role is not announced: the public count takes every ballot
    mods = _own(p, roster)
    if not mods:
        return _PLAIN[barred, granted]
    for m in mods:
        if m.kind == "toggle_vote_right":
            granted = not granted
            if m.public:
                shown = granted
    voids = [m for m in mods if m.kind == "void_voter"]
    return VoteRight(barred=barred, granted=granted, shown=shown, voided=bool(voids),
                     voided_in_public=any(m.public for m in voids))


def vote_weight(p: PlayerView, rules: TallyRules, roster: Roster) -> VoteWeight:
    """The largest tag/role weight (警长, 神眷者 1.5), 107 恶徒首领's +1 per 恶徒 out (hidden), and
    the day's ``voter_add`` modifiers (public when announced)."""
    public = true = 1.0
    for w in rules.weights:
        if (w.tag is not None and w.tag in p.tags) or (w.role is not None and w.role == p.role):
            true = max(true, w.weight)
            if not w.hidden:
                public = max(public, w.weight)
    bonus = rules.per_dead_bonus
    if bonus is not None and bonus.tag in p.tags:
        true += bonus.bonus * roster.dead_by_role.get(bonus.per_role, 0)
    for m in _own(p, roster):
        if m.kind == "voter_add":
            true += m.value
            if m.public:
                public += m.value
    return VoteWeight(true=true, public=public)


def _holds_vote_right(p: PlayerView, rules: TallyRules) -> bool:
    """107: "仅村民、学者、守夜人、慰魂师、神眷者和亡灵阵营的角色拥有票权" (roles ∪ tags ∪ factions);
    a director's ``vote_right`` event overrides it, and one for this day only overrides both."""
    if p.day_vote_right is not None:
        return p.day_vote_right
    if p.vote_right is not None:
        return p.vote_right
    if rules.eligible_voter_roles is None:
        return True
    return (p.role in rules.eligible_voter_roles or bool(p.tags & rules.eligible_voter_tags)
            or (p.faction is not None and p.faction in rules.eligible_voter_factions))


def _own(p: PlayerView, roster: Roster) -> list[VoteModifier]:
    if not roster.modifiers:  # most days: asked once per ballot, so the common case stays cheap
        return []
    key = name_key(p.name)
    return [m for m in roster.modifiers if name_key(m.player) == key]

"""The vocabulary of a vote's count: the resolved rules, the roster, the window, a judged ballot.

Split from :mod:`tracker.engine.tally` so that the count (``tally``) and the decision
(:mod:`tracker.engine.tally_outcome`) share one set of inputs without importing each other; the
roster facts both need (who is out at a moment, the received modifiers) live here for that reason.
Every public name is re-exported by :mod:`tracker.engine.tally`, the module callers import.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Literal, Protocol, cast, get_args

from tracker.engine.ballots import ABSTAIN, Ballot, BallotKind
from tracker.engine.events import Event, EventKind, effective, given
from tracker.engine.normalize import name_key
from tracker.engine.verdicts import Verdict

if TYPE_CHECKING:
    from tracker.engine.ruleset import Election, VotingRules
    from tracker.engine.state import GameState, Status

Purpose = Literal["exile", "election"]
OutcomeKind = Literal["exiled", "elected", "nobody"]


# --------------------------------------------------------------------------- inputs


class WeightRuleLike(Protocol):
    """One weight clause (``Ruleset.voting.weights``): a tag (警长) or a role → votes per ballot."""

    @property
    def weight(self) -> float: ...
    @property
    def tag(self) -> str | None: ...
    @property
    def role(self) -> str | None: ...
    @property
    def hidden(self) -> bool: ...


class PerDeadBonusLike(Protocol):
    """107 恶徒首领: the holder of ``tag`` votes ``bonus`` more for each ``per_role`` already out."""

    @property
    def tag(self) -> str: ...
    @property
    def per_role(self) -> str: ...
    @property
    def bonus(self) -> float: ...


Tie = Literal["nobody", "first_to_top"]


@dataclass(frozen=True, slots=True)
class TallyRules:
    """The voting clauses resolved for *one* vote (an exile, or one of day 1's elections).

    Built from ``Ruleset.voting`` by :func:`rules_for_vote`; the tally
    itself only needs this resolved view (the tie rule of this vote, who is immune on this day).
    ``change_limit`` None = unlimited ("改票不限制次数"); ``freeze_minutes`` 0 = no freeze;
    ``tie``: "nobody" (平票则无人出局) or "first_to_top" (最先获得投票数最多的角色当选);
    ``threshold`` "half_living" (M160: 大于等于场上存活角色一半). Eligibility (107: 仅…拥有票权)
    is role ∪ tag ∪ faction; None = everyone votes.
    """

    change_limit: int | None = 1
    freeze_minutes: int = 60
    freeze_blocks_proxy: bool = False
    proxy_deadline_minutes: int = 0
    accelerated_changes: Literal["allowed", "forbidden", "void_all"] = "forbidden"
    tie: Tie = "nobody"
    threshold: Literal["none", "half_living"] = "none"
    weights: tuple[WeightRuleLike, ...] = ()
    eligible_voter_roles: frozenset[str] | None = None
    eligible_voter_tags: frozenset[str] = frozenset()
    eligible_voter_factions: frozenset[str] = frozenset()
    per_dead_bonus: PerDeadBonusLike | None = None
    dead_last_vote: bool = False
    noon_exception: bool = False
    nobody_out_if_top: str | None = None  # a role: M65 预知者 top-voted on day 1 = nobody out
    edits_allowed: bool | None = None  # see VotingRules.edits_allowed
    proxy_window: Literal["freeze", "thirty_minutes"] = "freeze"  # see VotingRules.proxy_window
    noon_exception_accelerated: bool = False
    received_add_needs_votes: bool = False
    change_rule: Literal["quote_own", "latest_valid"] = "quote_own"  # see VotingRules.change_rule
    freeze_blocks_first_votes: bool = False
    no_vote_abstains: bool = False
    abstain_word: str = ABSTAIN                   # see VotingRules.abstain_word
    edits_as_new_ballot: bool = False
    candidates_may_vote: bool = True              # an election's (Election.candidates_may_vote)
    no_office_if_all_or_none: bool = False


@dataclass(frozen=True, slots=True)
class Candidacy:
    """Who stood in a day-1 election (werewolf-12 上警 / 退水 posts): ``entered`` all who signed up
    (退水 included: "上警（含已退水者）不得投票"), ``standing`` those still in the race, the only
    valid targets. ``evidence``: (player, floor, word) of each post that decided it."""

    entered: frozenset[str] = frozenset()
    standing: frozenset[str] = frozenset()
    evidence: tuple[tuple[str, int, str], ...] = ()


def rules_for_vote(voting: VotingRules, election: Election | None = None) -> TallyRules:
    """The ruleset's voting clauses resolved for one vote.

    ``election`` is the day-1 vote being counted (``Ruleset.voting.day1``), or None for an ordinary
    exile: its tie rule replaces the exile's ("竞选投票产生平票时，本局游戏没有警长" vs "最先获得投票数
    最多的角色当选"), and its ``nobody_out_if_top`` role (M65 预知者) applies only that day.
    """
    roles = voting.eligible_voter_roles
    all_vote = election is not None and election.all_may_vote and election.purpose != "exile"
    return TallyRules(
        change_limit=voting.change_limit,
        freeze_minutes=(election.freeze_minutes if election is not None and election.freeze_minutes is not None
                        else voting.freeze_minutes),
        freeze_blocks_proxy=voting.freeze_blocks_proxy,
        proxy_deadline_minutes=voting.proxy_deadline_minutes,
        accelerated_changes=voting.accelerated_changes,
        tie=election.tie if election is not None else voting.tie,
        threshold=voting.threshold,
        weights=voting.weights,
        eligible_voter_roles=None if roles is None or all_vote else frozenset(roles),
        eligible_voter_tags=frozenset(voting.eligible_voter_tags),
        eligible_voter_factions=frozenset(voting.eligible_voter_factions),
        per_dead_bonus=voting.per_dead_bonus,
        dead_last_vote=voting.dead_last_vote,
        noon_exception=voting.noon_exception,
        nobody_out_if_top=election.nobody_out_if_top if election is not None else None,
        edits_allowed=voting.edits_allowed,
        proxy_window=voting.proxy_window,
        noon_exception_accelerated=voting.noon_exception_accelerated,
        received_add_needs_votes=voting.received_add_needs_votes,
        change_rule=voting.change_rule,
        freeze_blocks_first_votes=voting.freeze_blocks_first_votes,
        no_vote_abstains=voting.no_vote_abstains,
        abstain_word=voting.abstain_word,
        edits_as_new_ballot=voting.edits_as_new_ballot,
        candidates_may_vote=election.candidates_may_vote if election is not None else True,
        no_office_if_all_or_none=election.no_office_if_all_or_none if election is not None else False,
    )


def election_window(election: Election | None) -> tuple[Purpose, str | None]:
    """What a vote decides: an ``election`` of the tag it gives (警长, 牧首, 神眷者) or an exile."""
    if election is None or election.purpose == "exile":
        return "exile", None
    return "election", election.tag


@dataclass(frozen=True, slots=True)
class PlayerView:
    """A player as the tally needs them on one day.

    ``status`` is at the day's opening; ``out_at`` is when the player left the game during the day
    (正午出局, a red card) — they stop being a valid voter and target from then on.
    """

    name: str
    status: Status = "alive"
    out_at: datetime | None = None
    role: str | None = None
    faction: str | None = None
    tags: frozenset[str] = frozenset()
    vote_right: bool | None = None  # a director's vote_right event (107 恶灵·虚体); None = as the ruleset says
    day_vote_right: bool | None = None  # a director's vote_right for this day only; before ``vote_right``
    # 挂机 during the day (a red card in 107/M160, the director's 挂机): no ballot from then on.
    benched_at: datetime | None = None
    # M160 【死亡】 and 挂机 at once: ``status`` says "benched", but the player is not living
    # ("场上存活角色") and "再不能成为被选择的目标".
    dead: bool = False
    seat: int | None = None  # the game file's [[players]] seat (werewolf-12 "投票对象：7")


ModifierKind = Literal["received_add", "received_multiply", "void_voter", "toggle_vote_right",
                      "announced_add", "voter_add"]


@dataclass(frozen=True, slots=True)
class VoteModifier:
    """A director-recorded effect on one day's count (the ruleset's ``voting.modifiers`` effects).

    received_add (基佬情深 ±2, hidden), announced_add (流言 +2, public), received_multiply
    (深青之桩 ×2, hidden), void_voter (票权掠夺, hidden), toggle_vote_right (权势, announced),
    voter_add (a voter's ballot weighs ``value`` more).
    """

    kind: ModifierKind
    player: str
    value: float = 0.0
    public: bool = False
    source: str = ""


@dataclass(frozen=True, slots=True)
class VoteWindow:
    """One vote thread's day: when it opens and closes, whether accelerated, what it decides."""

    day: int
    opens: datetime
    closes: datetime
    accelerated: bool = False
    accelerated_at: datetime | None = None
    purpose: Purpose = "exile"
    office: str | None = None  # the tag an election gives (警长, 牧首, 神眷者)


@dataclass(frozen=True, slots=True)
class Roster:
    players: tuple[PlayerView, ...]
    modifiers: tuple[VoteModifier, ...] = ()
    dead_by_role: Mapping[str, int] = field(default_factory=dict)
    _index: dict[str, PlayerView] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        index = {name_key(p.name): p for p in self.players}
        for p in self.players:  # "7" and "7号" mean seat 7 where the game file gives seats
            if p.seat is not None:
                for written in (str(p.seat), f"{p.seat}号"):
                    index.setdefault(name_key(written), p)
        object.__setattr__(self, "_index", index)

    def find(self, name: str) -> PlayerView | None:
        """The player a written name (or seat number, "7" / "7号") means, comparing only what a reader
        cannot see (width, blanks)."""
        return self._index.get(name_key(name))

    @property
    def has_seats(self) -> bool:
        return any(p.seat is not None for p in self.players)


# --------------------------------------------------------------------------- outputs


@dataclass(frozen=True, slots=True)
class CountedBallot:
    """A ballot with its verdict. ``voter``/``target`` are resolved player names when they resolve."""

    ballot: Ballot
    voter: str
    target: str | None
    valid: bool
    final: bool
    verdict: Verdict | None
    flags: tuple[Verdict, ...] = ()
    public_weight: float = 0.0
    weight: float = 0.0
    earlier_text: str | None = None

    @property
    def kind(self) -> BallotKind:
        return self.ballot.kind

    @property
    def reason(self) -> str | None:
        return self.verdict.reason if self.verdict else None


def status_at(p: PlayerView, at: datetime) -> Status:
    if p.out_at is not None and at >= p.out_at:
        return "out"
    if p.benched_at is not None and at >= p.benched_at and p.status == "alive":
        return "benched"
    return p.status


def apply_modifiers(totals: dict[str, float], roster: Roster, *, hidden_too: bool,
                    needs_votes: bool = False) -> None:
    """×N received first ("被投票数加倍"), then the ±N received (暗记 ±2, 流言's announced +2).

    ``needs_votes`` (M19 option ``received_add_needs_votes``): a hidden ±N only adds to a player who
    received at least one vote ("投到攻身上的票数" read as the votes actually cast on them).
    """
    voted = {k for k, v in totals.items() if v}
    mods = [m for m in roster.modifiers if hidden_too or m.public or m.kind == "announced_add"]
    for m in mods:
        if m.kind == "received_multiply":
            p = roster.find(m.player)
            name = p.name if p else m.player
            if name in totals:
                totals[name] *= m.value
    for m in mods:
        if m.kind in ("received_add", "announced_add"):
            p = roster.find(m.player)
            name = p.name if p else m.player
            if needs_votes and m.kind == "received_add" and name not in voted:
                continue
            totals[name] = totals.get(name, 0.0) + m.value


def roster_from_states(at_open: GameState, at_close: GameState, day: int,
                       out_times: Mapping[str, datetime] | None = None,
                       benched_times: Mapping[str, datetime] | None = None,
                       seats: Mapping[str, int] | None = None) -> Roster:
    """The day's roster from two folds of the event log: at the opening, and at the close.

    A player alive at the opening and out at the close left during the day (正午出局, a red card):
    ``out_times`` gives when (the event's time), and from then on they neither vote nor are voted.
    Tags and day tags are those in force at the opening; a 票权 given or taken for the day only
    (``vote_right`` with ``day``) is the one recorded by the close, as the day's modifiers are.
    """
    views: list[PlayerView] = []
    for name, p in at_open.players.items():
        later = at_close.players.get(name)
        out_at = None
        if p.status != "out" and later is not None and later.status == "out":
            out_at = (out_times or {}).get(name)
        benched_at = None
        if not p.benched and later is not None and later.benched:
            benched_at = (benched_times or {}).get(name)
        tags = frozenset(p.tags) | frozenset(t for t, d in p.day_tags if d == day)
        views.append(PlayerView(name=name, status=p.status, out_at=out_at, role=p.role, faction=p.faction,
                                tags=tags, vote_right=p.vote_right, benched_at=benched_at,
                                dead=p.life == "dead", day_vote_right=at_close.vote_right_on(name, day),
                                seat=(seats or {}).get(name)))
    # The modifiers in force when the vote is counted: one recorded during the day counts too (M65
    # 票权掠夺 "游戏日任意时刻"; 深青之桩/天枢剑圣 recorded after the opening), not only the opening's.
    mods = tuple(VoteModifier(kind=cast(ModifierKind, m.effect), player=m.player, value=m.value, public=m.public,
                              source=m.kind)  # the effect is one of ModifierKind's: the filter below
                 for m in at_close.modifiers(day) if m.effect in get_args(ModifierKind))
    dead: dict[str, int] = {}
    for p in at_open.players.values():
        if p.life != "out":
            continue
        # 107 恶徒首领 "每出局一名恶徒，恶徒首领的投票数量+1": a 恶徒 who became 活尸 and then went out
        # was dealt a 恶徒, so they count under the role they were dealt as well as the one they had.
        for role in {r for r in (p.role, p.original_role) if r}:
            dead[role] = dead.get(role, 0) + 1
    return Roster(players=tuple(views), modifiers=mods, dead_by_role=dead)


_AFTER = timedelta(seconds=1)  # "after the vote": later than the close, so the count never sees it
_OUT_KINDS = frozenset({EventKind.ELIMINATED.value, EventKind.LAST_VOTE_USED.value,
                        EventKind.CARD_CONSEQUENCE.value})


def day_out_times(events: Sequence[Event], window: VoteWindow, *,
                  red_settled: Literal["before_vote", "after_vote"] = "before_vote") -> dict[str, datetime]:
    """When each player left the game during the day, as the day's vote must see it.

    Events in force (undone ones ignored) between the opening and the close, inclusive. A red card's
    出局 is placed by the ruleset's ``red_settled``:

    * ``before_vote`` (213 "白天结束时红牌罚下的出局结算在投票结算之前执行", M19 "白天红牌罚下在被投票出局之前"):
      the player is out for the whole count, from the opening: their ballots and the votes on them are void,
      even when the card is settled at the close (``tracker card issue --at``);
    * ``after_vote`` (M65 "白天红牌罚下导致的出局结算在投票结算之后执行"): the day's vote is counted as
      if it had not happened: no time is given, so the player votes and is voted on all day.
    """
    live, _ = effective(list(events))
    out: dict[str, datetime] = {}
    for e in sorted(live, key=lambda x: (x.at, x.seq)):
        if not e.player or e.kind not in _OUT_KINDS or not window.opens <= e.at <= window.closes:
            continue
        if e.kind == EventKind.CARD_CONSEQUENCE.value:
            if str(given(e.payload.color, "red")) != "red":
                continue
            if red_settled == "after_vote":
                out.setdefault(e.player, window.closes + _AFTER)
                continue
            out[e.player] = min(out.get(e.player, window.opens), window.opens)
            continue
        out.setdefault(e.player, e.at)
    return out


def day_benched_times(events: Sequence[Event], window: VoteWindow) -> dict[str, datetime]:
    """When each player went 挂机 during the day (events in force between the opening and the close):
    the director's 挂机, or a red card whose consequence is 挂机 (107, M160). From then on their
    ballots do not count ("a player benched mid-day cannot vote later that day")."""
    live, _ = effective(list(events))
    out: dict[str, datetime] = {}
    for e in sorted(live, key=lambda x: (x.at, x.seq)):
        if not e.player or not window.opens <= e.at <= window.closes:
            continue
        benched = e.kind == EventKind.BENCHED.value or (
            e.kind == EventKind.CARD_CONSEQUENCE.value and str(e.payload.consequence) == "benched"
            and str(given(e.payload.color, "red")) == "red")
        if benched:
            out.setdefault(e.player, e.at)
    return out

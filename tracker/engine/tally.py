"""Ballots + ruleset + the day's roster → Tally: every verdict, the final votes, two counts, the outcome.

Pure and deterministic. The ballots are replayed in forum time order (``posted_at``, then floor,
then pid: "时间以论坛发帖时间为准"), so the order in which the store returns them never matters.

Two counts come out, because the rule posts hide some effects from the players:

* ``public_totals``: what the players can check from the thread and the director's announcements
  (警长/神眷者 weigh 1.5, 流言's announced +2, 权势's announced vote-right toggles);
* ``totals``: the director's true count, with the hidden ones too (深青之桩/天枢剑圣 ×2 received,
  基佬情深 ±2 received, 票权掠夺 voids a voter, 107's 票权 only for some roles, 恶徒首领's +1 per
  dead 恶徒). The outcome follows the true count; the announcement shows the public one.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import lru_cache
from typing import TYPE_CHECKING, Literal, Protocol

from tracker.engine.ballots import ABSTAIN, Ballot, BallotKind
from tracker.engine.normalize import name_key
from tracker.engine.verdicts import Code, Verdict

if TYPE_CHECKING:
    from tracker.engine.ruleset import Election, VotingRules
    from tracker.engine.state import GameState

Status = Literal["alive", "dead", "out", "benched"]
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
        freeze_minutes=voting.freeze_minutes,
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


ModifierKind = Literal["received_add", "received_multiply", "void_voter", "toggle_vote_right",
                      "announced_add", "voter_add"]


@dataclass(frozen=True, slots=True)
class Modifier:
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
class DayWindow:
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
    modifiers: tuple[Modifier, ...] = ()
    dead_by_role: Mapping[str, int] = field(default_factory=dict)
    _index: dict[str, PlayerView] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", {name_key(p.name): p for p in self.players})

    def find(self, name: str) -> PlayerView | None:
        """The player a written name means, comparing only what a reader cannot see (width, blanks)."""
        return self._index.get(name_key(name))


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


@dataclass(frozen=True, slots=True)
class Outcome:
    kind: OutcomeKind
    player: str | None
    reason: str  # code
    message: str  # Chinese, in the rule posts' words
    top: float = 0.0
    tied: tuple[str, ...] = ()
    office: str | None = None
    public_differs: bool = False


@dataclass(frozen=True, slots=True)
class Tally:
    day: int
    window: DayWindow
    ballots: tuple[CountedBallot, ...]
    final: Mapping[str, str | None]
    totals: Mapping[str, float]
    public_totals: Mapping[str, float]
    outcome: Outcome
    abstained: tuple[str, ...] = ()
    no_vote: tuple[str, ...] = ()
    auto_abstain: tuple[str, ...] = ()
    last_votes_used: tuple[str, ...] = ()

    @property
    def invalid(self) -> tuple[CountedBallot, ...]:
        return tuple(b for b in self.ballots if not b.valid)


# --------------------------------------------------------------------------- the count


@dataclass
class _VoterRun:
    current: CountedBallot | None = None
    own_pids: set[int] = field(default_factory=set)
    changes: int = 0
    noon_used: bool = False


def tally(ballots: Sequence[Ballot], *, rules: TallyRules, roster: Roster, window: DayWindow,
          earlier_versions: Mapping[int, str] | None = None) -> Tally:
    """Count one vote thread's day. Pure: the same ballots in any order give the same Tally."""
    ordered = sorted(_dedupe(ballots), key=lambda b: b.order_key)
    runs: dict[str, _VoterRun] = {}
    counted: list[CountedBallot] = []
    earlier = earlier_versions or {}
    void_changes = window.accelerated and rules.accelerated_changes == "void_all"

    for b in ordered:
        cb = _judge(b, rules=rules, roster=roster, window=window, runs=runs, void_changes=void_changes)
        if b.edited_at is not None or b.pid in earlier:
            flags = list(cb.flags)
            if b.edited_at is not None:
                flags.append(Verdict(Code.EDITED_AFTER_CLOSE if b.edited_at > window.closes else Code.EDITED,
                                     f"编辑于 {b.edited_at.astimezone(window.closes.tzinfo):%m-%d %H:%M}"))
            cb = _replace(cb, flags=tuple(flags), earlier_text=earlier.get(b.pid))
        if cb.valid:
            run = runs.setdefault(cb.voter, _VoterRun())
            if run.current is not None and (b.change or b.kind == "proxy"):
                run.changes += 1
            run.current = cb
            run.own_pids.add(b.pid)
        counted.append(cb)

    finals = {id(run.current): run.current for run in runs.values() if run.current is not None}
    out: list[CountedBallot] = []
    for cb in counted:
        if id(cb) in finals:
            out.append(_weigh(cb, rules=rules, roster=roster, window=window))
        else:
            out.append(cb)

    voters = [p for p in roster.players if _may_vote_today(p, rules)]
    final: dict[str, str | None] = {p.name: None for p in voters}
    abstained: list[str] = []
    auto_abstain: list[str] = []
    last_votes: list[str] = []
    for cb in out:
        if cb.final:
            final[cb.voter] = cb.target
            if cb.target == ABSTAIN:
                abstained.append(cb.voter)
            p = roster.find(cb.voter)
            if rules.dead_last_vote and p is not None and p.status == "dead":
                last_votes.append(cb.voter)
    if rules.dead_last_vote:
        for p in voters:
            if p.status == "dead" and final.get(p.name) is None:
                auto_abstain.append(p.name)
    no_vote = tuple(n for n, t in final.items() if t is None and n not in auto_abstain)
    for n in auto_abstain:
        final[n] = ABSTAIN

    totals, public = _sum(out, roster, window)
    outcome = _outcome(out, totals, public, rules=rules, roster=roster, window=window)
    return Tally(day=window.day, window=window, ballots=tuple(out), final=final, totals=totals,
                 public_totals=public, outcome=outcome, abstained=tuple(abstained), no_vote=no_vote,
                 auto_abstain=tuple(auto_abstain), last_votes_used=tuple(last_votes))


def _dedupe(ballots: Sequence[Ballot]) -> list[Ballot]:
    """One ballot per pid: a re-crawl of an edited post keeps the latest version."""
    by_pid: dict[int, Ballot] = {}
    for b in ballots:
        seen = by_pid.get(b.pid)
        if seen is None or _version_key(b) > _version_key(seen):
            by_pid[b.pid] = b
    return list(by_pid.values())


def _version_key(b: Ballot) -> tuple[int, datetime, str | None, str | None]:
    return (b.edited_at is not None, b.edited_at or b.posted_at, b.target, b.reason_text)


def _replace(cb: CountedBallot, **kw: object) -> CountedBallot:
    from dataclasses import replace

    return replace(cb, **kw)  # type: ignore[arg-type]


def _status_at(p: PlayerView, at: datetime) -> Status:
    if p.out_at is not None and at >= p.out_at:
        return "out"
    return p.status


def _may_vote_today(p: PlayerView, rules: TallyRules) -> bool:
    """Who is expected to vote today (the `final` map lists them, with None when they did not)."""
    if p.status == "alive":
        return True
    return p.status == "dead" and rules.dead_last_vote


def nearest_names(written: str, names: Sequence[str], n: int = 3) -> list[str]:
    """Players whose names look like what was written: a hint for the director, never a correction."""
    return list(_nearest(written, tuple(names), n))


@lru_cache(maxsize=1024)
def _nearest(written: str, names: tuple[str, ...], n: int) -> tuple[str, ...]:
    keys = {name_key(x): x for x in names}
    hits = difflib.get_close_matches(name_key(written), list(keys), n=n, cutoff=0.4)
    if not hits:
        wk = set(name_key(written))
        scored = sorted(((len(wk & set(k)), k) for k in keys), key=lambda t: (-t[0], t[1]))
        hits = [k for score, k in scored[:n] if score > 0]
    return tuple(keys[h] for h in hits)


def _judge(b: Ballot, *, rules: TallyRules, roster: Roster, window: DayWindow,
           runs: dict[str, _VoterRun], void_changes: bool) -> CountedBallot:
    voter_p = roster.find(b.voter)
    voter = voter_p.name if voter_p else b.voter
    target_p = roster.find(b.target) if b.target else None
    target = ABSTAIN if b.abstain else (target_p.name if target_p else b.target)

    def bad(code: Code, detail: str = "", flags: tuple[Verdict, ...] = ()) -> CountedBallot:
        return CountedBallot(ballot=b, voter=voter, target=target, valid=False, final=False,
                             verdict=Verdict(code, detail), flags=flags)

    if b.errors:
        return CountedBallot(ballot=b, voter=voter, target=target, valid=False, final=False,
                             verdict=b.errors[0], flags=b.errors[1:])
    if voter_p is None:
        if b.kind == "proxy":
            return bad(Code.PROXY_UNKNOWN_VOTER, f"代投：{b.voter}")
        return bad(Code.VOTER_NOT_PLAYER, b.voter)
    at = b.posted_at
    local = at.astimezone(window.closes.tzinfo)  # the forum's zone, as the game file gives it
    if at < window.opens:
        return bad(Code.POSTED_BEFORE_OPEN, f"发帖 {local:%m-%d %H:%M:%S}，开门 {window.opens:%m-%d %H:%M}")
    if at > window.closes:
        return bad(Code.POSTED_AFTER_CLOSE, f"发帖 {local:%m-%d %H:%M:%S}，关门 {window.closes:%m-%d %H:%M}")
    vstatus = _status_at(voter_p, at)
    if vstatus == "benched":
        return bad(Code.VOTER_BENCHED, voter)
    if vstatus == "out" or (vstatus == "dead" and not rules.dead_last_vote):
        return bad(Code.VOTER_NOT_ALIVE, voter)
    if not b.abstain:
        if target_p is None:
            hint = nearest_names(b.target or "", [p.name for p in roster.players])
            detail = f"写的是“{b.target}”" + (f"，最接近的玩家：{'、'.join(hint)}" if hint else "")
            return bad(Code.UNKNOWN_TARGET, detail)
        tstatus = _status_at(target_p, at)
        if tstatus in ("out", "dead"):
            return bad(Code.TARGET_NOT_ALIVE, f"{target_p.name}{'已死亡' if tstatus == 'dead' else '已出局'}")

    run = runs.get(voter)
    current = run.current if run else None
    flags: tuple[Verdict, ...] = ()
    is_change = b.change or (b.kind == "proxy" and current is not None)
    if b.kind == "proxy":
        deadline = window.closes - timedelta(minutes=rules.proxy_deadline_minutes)
        if rules.proxy_deadline_minutes and at > deadline:
            return bad(Code.PROXY_TOO_LATE, f"须在关门前 {rules.proxy_deadline_minutes} 分钟发出")
        if rules.freeze_blocks_proxy and rules.freeze_minutes and \
                at >= window.closes - timedelta(minutes=rules.freeze_minutes):
            return bad(Code.PROXY_TOO_LATE, f"关门前 {rules.freeze_minutes} 分钟内不允许代投")
    if not is_change:
        if current is not None:
            return bad(Code.SECOND_VOTE, f"原投票在 {current.ballot.floor} 楼")
        return CountedBallot(ballot=b, voter=voter, target=target, valid=True, final=False, verdict=None)

    # a change (改票), or a proxy replacing the voter's vote
    if current is None or run is None:
        return bad(Code.CHANGE_WITHOUT_VOTE)
    if b.kind != "proxy":
        if not b.quoted_pids:
            return bad(Code.CHANGE_WITHOUT_QUOTE, f"原投票在 {current.ballot.floor} 楼")
        if not set(b.quoted_pids) & run.own_pids:
            return bad(Code.CHANGE_QUOTES_OTHER, f"原投票在 {current.ballot.floor} 楼")
    accelerated_now = window.accelerated and (window.accelerated_at is None or at >= window.accelerated_at)
    if accelerated_now and rules.accelerated_changes == "forbidden":
        return bad(Code.CHANGE_ACCELERATED)
    if void_changes:
        return bad(Code.CHANGE_VOIDED_BY_ACCELERATION)
    noon = (rules.noon_exception and not run.noon_used and current.target not in (None, ABSTAIN)
            and _target_out_before(roster, current.target, at))
    if noon:
        run.noon_used = True
        return CountedBallot(ballot=b, voter=voter, target=target, valid=True, final=False, verdict=None,
                             flags=(Verdict(Code.NOON_EXCEPTION, f"原投票对象 {current.target}"),))
    if rules.freeze_minutes and at >= window.closes - timedelta(minutes=rules.freeze_minutes):
        return bad(Code.CHANGE_IN_FREEZE, f"关门前 {rules.freeze_minutes} 分钟内不允许改票")
    if rules.change_limit is not None and run.changes >= rules.change_limit:
        return bad(Code.CHANGE_LIMIT, f"本局每日只能改票 {rules.change_limit} 次")
    return CountedBallot(ballot=b, voter=voter, target=target, valid=True, final=False, verdict=None,
                         flags=flags)


def _target_out_before(roster: Roster, target: str | None, at: datetime) -> bool:
    p = roster.find(target) if target else None
    return p is not None and p.out_at is not None and p.out_at <= at


def _weigh(cb: CountedBallot, *, rules: TallyRules, roster: Roster, window: DayWindow) -> CountedBallot:
    """The final ballot's weight in both views, with the hidden reasons as flags for the director."""
    p = roster.find(cb.voter)
    flags = list(cb.flags)
    if cb.target == ABSTAIN or p is None:
        return _replace(cb, final=True, flags=tuple(flags))
    public = true = 1.0
    for w in rules.weights:
        if (w.tag is not None and w.tag in p.tags) or (w.role is not None and w.role == p.role):
            true = max(true, w.weight)
            if not w.hidden:
                public = max(public, w.weight)
    bonus = rules.per_dead_bonus
    if bonus is not None and bonus.tag in p.tags:
        true += bonus.bonus * roster.dead_by_role.get(bonus.per_role, 0)
    mods = [m for m in roster.modifiers if name_key(m.player) == name_key(p.name)]
    for m in mods:
        if m.kind == "voter_add":
            true += m.value
            if m.public:
                public += m.value
    has_right = _has_vote_right(p, rules)
    public_right = True
    for m in mods:
        if m.kind == "toggle_vote_right":
            has_right = not has_right
            if m.public:
                public_right = has_right
    if not public_right:
        public = 0.0
    if not has_right:
        true = 0.0
        flags.append(Verdict(Code.NO_VOTE_RIGHT, cb.voter))
    if any(m.kind == "void_voter" for m in mods):
        if true:
            flags.append(Verdict(Code.VOTER_VOIDED, cb.voter))
        true = 0.0
        if any(m.kind == "void_voter" and m.public for m in mods):
            public = 0.0
    if cb.target is not None and _target_out_before(roster, cb.target, window.closes):
        flags.append(Verdict(Code.TARGET_OUT_BY_CLOSE, cb.target))
        public = true = 0.0
    return _replace(cb, final=True, weight=true, public_weight=public, flags=tuple(flags))


def _has_vote_right(p: PlayerView, rules: TallyRules) -> bool:
    """107: "仅村民、学者、守夜人、慰魂师、神眷者和亡灵阵营的角色拥有票权" (roles ∪ tags ∪ factions)."""
    if p.vote_right is not None:
        return p.vote_right
    if rules.eligible_voter_roles is None:
        return True
    return (p.role in rules.eligible_voter_roles or bool(p.tags & rules.eligible_voter_tags)
            or (p.faction is not None and p.faction in rules.eligible_voter_factions))


def _sum(ballots: Sequence[CountedBallot], roster: Roster, window: DayWindow,
         ) -> tuple[dict[str, float], dict[str, float]]:
    true: dict[str, float] = {}
    public: dict[str, float] = {}
    for cb in ballots:
        if not cb.final or cb.target in (None, ABSTAIN):
            continue
        assert cb.target is not None
        if cb.weight or cb.public_weight:
            true[cb.target] = true.get(cb.target, 0.0) + cb.weight
            public[cb.target] = public.get(cb.target, 0.0) + cb.public_weight
    _apply_modifiers(true, roster, hidden_too=True)
    _apply_modifiers(public, roster, hidden_too=False)
    return _ordered(true), _ordered(public)


def _ordered(totals: dict[str, float]) -> dict[str, float]:
    """Highest first, then by name (the announcement's order); a target left at 0 is not listed."""
    return dict(sorted(((k, v) for k, v in totals.items() if v != 0), key=lambda kv: (-kv[1], kv[0])))


def _apply_modifiers(totals: dict[str, float], roster: Roster, *, hidden_too: bool) -> None:
    """×N received first ("被投票数加倍"), then the ±N received (暗记 ±2, 流言's announced +2)."""
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
            totals[name] = totals.get(name, 0.0) + m.value


def _living_at_close(roster: Roster, window: DayWindow) -> list[PlayerView]:
    return [p for p in roster.players if _status_at(p, window.closes) in ("alive", "benched")]


def _outcome(ballots: Sequence[CountedBallot], totals: Mapping[str, float], public: Mapping[str, float], *,
             rules: TallyRules, roster: Roster, window: DayWindow) -> Outcome:
    decided = _decide(ballots, totals, rules=rules, roster=roster, window=window, public=False)
    other = _decide(ballots, public, rules=rules, roster=roster, window=window, public=True)
    if (other.kind, other.player) != (decided.kind, decided.player):
        from dataclasses import replace

        return replace(decided, public_differs=True)
    return decided


def _decide(ballots: Sequence[CountedBallot], totals: Mapping[str, float], *, rules: TallyRules,
            roster: Roster, window: DayWindow, public: bool) -> Outcome:
    return decide(totals, rules=rules, roster=roster, window=window,
                  first_to_top=lambda tied, top: _first_to_reach(ballots, tied, top, roster, public=public))


FirstToTop = Callable[[tuple[str, ...], float], str | None]


def decide(totals: Mapping[str, float], *, rules: TallyRules, roster: Roster, window: DayWindow,
           first_to_top: FirstToTop | str | None = None) -> Outcome:
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
        return Outcome("nobody", None, "no_votes", f"没有有效票，{what}", office=office)
    top = max(scores.values())
    tied = tuple(sorted(t for t, v in scores.items() if v == top))
    winner: str | None = tied[0] if len(tied) == 1 else None
    if winner is None:
        if rules.tie == "first_to_top":
            first = first_to_top(tied, top) if callable(first_to_top) else first_to_top
            winner = first if first in tied else None
        if winner is None:
            what = f"本局没有{office or '当选者'}" if election else "无人出局"
            return Outcome("nobody", None, "tie", f"{'、'.join(tied)} 平票（{_fmt(top)} 票），{what}",
                           top=top, tied=tied, office=office)
        how = "最先获得最高票"
    else:
        how = "票数最高"
    if election:
        return Outcome("elected", winner, "top_votes" if len(tied) == 1 else "first_to_top",
                       f"{winner} {how}（{_fmt(top)} 票），当选{office or ''}", top=top, tied=tied,
                       office=office)
    if rules.threshold == "half_living" and top < len(living) / 2:
        return Outcome("nobody", None, "threshold",
                       f"{winner} 票数最高（{_fmt(top)} 票）但未达到存活角色（{len(living)} 人）的一半，无人死亡",
                       top=top, tied=tied)
    wp = roster.find(winner)
    if rules.nobody_out_if_top and wp is not None and wp.role == rules.nobody_out_if_top:
        return Outcome("nobody", None, "day1_immunity",
                       f"{winner} 成为得票数最高的角色（{_fmt(top)} 票），当日无人出局",
                       top=top, tied=tied)
    # M160: 该玩家【死亡】 — dead, not out: the last vote is still theirs
    what = "【死亡】（仍保留最后一票）" if rules.dead_last_vote else "被投票出局"
    return Outcome("exiled", winner, "top_votes" if len(tied) == 1 else "first_to_top",
                   f"{winner} {how}（{_fmt(top)} 票），{what}", top=top, tied=tied)


def _first_to_reach(ballots: Sequence[CountedBallot], tied: tuple[str, ...], top: float,
                    roster: Roster, *, public: bool) -> str | None:
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
            if t is not None and t != ABSTAIN:
                running[t] = running.get(t, 0.0) + final_weight.get(voter, 1.0)
        _apply_modifiers(running, roster, hidden_too=not public)
        for t in tied:
            if running.get(t, 0.0) >= top:
                return t
    return None


def _fmt(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def number(x: float) -> int | float:
    """JSON form of a count: 5 not 5.0, 3.5 stays."""
    return int(x) if float(x).is_integer() else x


def roster_from_states(at_open: GameState, at_close: GameState, day: int,
                       out_times: Mapping[str, datetime] | None = None) -> Roster:
    """The day's roster from two folds of the event log: at the opening, and at the close.

    A player alive at the opening and out at the close left during the day (正午出局, a red card):
    ``out_times`` gives when (the event's time), and from then on they neither vote nor are voted.
    Tags, day tags and the day's modifiers are those in force at the opening.
    """
    views: list[PlayerView] = []
    for name, p in at_open.players.items():
        later = at_close.players.get(name)
        out_at = None
        if p.status != "out" and later is not None and later.status == "out":
            out_at = (out_times or {}).get(name)
        tags = frozenset(p.tags) | frozenset(t for t, d in p.day_tags if d == day)
        views.append(PlayerView(name=name, status=p.status, out_at=out_at, role=p.role, faction=p.faction,
                                tags=tags, vote_right=p.vote_right))
    mods = tuple(Modifier(kind=m.effect, player=m.player, value=m.value, public=m.public, source=m.kind)  # type: ignore[arg-type]
                 for m in at_open.modifiers(day)
                 if m.effect in ("received_add", "received_multiply", "void_voter", "toggle_vote_right",
                                 "announced_add", "voter_add"))
    dead: dict[str, int] = {}
    for p in at_open.players.values():
        if p.life == "out" and p.role:
            dead[p.role] = dead.get(p.role, 0) + 1
    return Roster(players=tuple(views), modifiers=mods, dead_by_role=dead)

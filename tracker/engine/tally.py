"""Ballots + ruleset + the day's roster → Tally: every verdict, the final votes, two counts, the outcome.

Pure and deterministic. The ballots are replayed in forum time order (``posted_at``, then floor,
then pid: "时间以论坛发帖时间为准"), so the order in which the store returns them never matters.

Two counts come out, because the rule posts hide some effects from the players:

* ``public_totals``: what the players can check from the thread and the director's announcements
  (警长/神眷者 weigh 1.5, 流言's announced +2, 权势's announced vote-right toggles);
* ``totals``: the director's true count, with the hidden ones too (深青之桩/天枢剑圣 ×2 received,
  基佬情深 ±2 received, 票权掠夺 voids a voter, 107's 票权 only for some roles, 恶徒首领's +1 per
  dead 恶徒). The outcome follows the true count; the announcement shows the public one.

This module holds the count itself. Its inputs (rules, roster, window, judged ballot) live in
:mod:`tracker.engine.tally_model` and the decision in :mod:`tracker.engine.tally_outcome`, so each
file stays readable; every public name is re-exported here, so callers import ``tracker.engine.tally``.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from functools import lru_cache

from tracker.engine.ballots import ABSTAIN, Ballot, parse_ballot, quote_matches
from tracker.engine.normalize import name_key
from tracker.engine.tally_model import (
    Candidacy,
    CountedBallot,
    ModifierKind,
    OutcomeKind,
    PerDeadBonusLike,
    PlayerView,
    Purpose,
    Roster,
    TallyRules,
    Tie,
    VoteModifier,
    VoteWindow,
    WeightRuleLike,
    apply_modifiers,
    day_benched_times,
    day_out_times,
    election_window,
    roster_from_states,
    rules_for_vote,
    status_at,
)
from tracker.engine.tally_outcome import FirstToTop, VoteOutcome, decide, decide_counts
from tracker.engine.tally_voter import VoteRight, VoteWeight, vote_right, vote_weight
from tracker.engine.verdicts import Code, Verdict
from tracker.records import Post, Quote

__all__ = [
    "Candidacy",
    "CountedBallot",
    "FirstToTop",
    "ModifierKind",
    "OutcomeKind",
    "PerDeadBonusLike",
    "PlayerView",
    "Purpose",
    "Roster",
    "Tally",
    "TallyRules",
    "Tie",
    "VoteModifier",
    "VoteOutcome",
    "VoteRight",
    "VoteWeight",
    "VoteWindow",
    "WeightRuleLike",
    "day_benched_times",
    "day_out_times",
    "decide",
    "election_window",
    "nearest_names",
    "number",
    "roster_from_states",
    "rules_for_vote",
    "tally",
    "vote_right",
    "vote_weight",
]


@dataclass(frozen=True, slots=True)
class Tally:
    day: int
    window: VoteWindow
    ballots: tuple[CountedBallot, ...]
    final: Mapping[str, str | None]
    totals: Mapping[str, float]
    public_totals: Mapping[str, float]
    outcome: VoteOutcome
    abstained: tuple[str, ...] = ()
    no_vote: tuple[str, ...] = ()
    auto_abstain: tuple[str, ...] = ()
    last_votes_used: tuple[str, ...] = ()
    #: The ruleset's word for an abstention (VotingRules.abstain_word): ``final`` holds it for who
    #: abstained, and the 公示, the CLI and the TUI print it (werewolf-12 弃票, the seed posts 弃权).
    abstain_word: str = ABSTAIN

    @property
    def invalid(self) -> tuple[CountedBallot, ...]:
        return tuple(b for b in self.ballots if not b.valid)

    @property
    def only_invalid(self) -> tuple[str, ...]:
        """Who voted, wrongly: every ballot invalid. Shown 仅有无效票, apart from 未投票, by every output."""
        tried = {cb.voter for cb in self.ballots if not cb.valid}
        return tuple(n for n in self.no_vote if n in tried)

    @property
    def silent(self) -> tuple[str, ...]:
        """Who cast no ballot at all (未投票)."""
        tried = {cb.voter for cb in self.ballots if not cb.valid}
        return tuple(n for n in self.no_vote if n not in tried)


# --------------------------------------------------------------------------- the count


@dataclass
class _VoterRun:
    current: CountedBallot | None = None
    own_pids: set[int] = field(default_factory=set)
    own: list[Ballot] = field(default_factory=list)
    changes: int = 0
    noon_used: bool = False


def _when(b: Ballot, rules: TallyRules) -> datetime:
    """When a ballot was cast: its post time, or its edit time where an edit is a new ballot
    (werewolf-12 "编辑帖以导演看到的最后编辑时间为准，21:00 前编辑视为新帖")."""
    return b.edited_at if rules.edits_as_new_ballot and b.edited_at is not None else b.posted_at


def tally(ballots: Sequence[Ballot], *, rules: TallyRules, roster: Roster, window: VoteWindow,
          earlier_versions: Mapping[int, str] | None = None, candidacy: Candidacy | None = None) -> Tally:
    """Count one vote thread's day. Pure: the same ballots in any order give the same Tally.

    ``candidacy``: a day-1 election's candidates (上警 / 退水), when the ruleset has them."""
    ordered = sorted(_dedupe(ballots), key=lambda b: (_when(b, rules), b.floor, b.pid))
    runs: dict[str, _VoterRun] = {}
    counted: list[CountedBallot] = []
    earlier = earlier_versions or {}
    void_changes = window.accelerated and rules.accelerated_changes == "void_all"

    names = tuple(p.name for p in roster.players)
    for shown in ordered:
        b, edit_flag = _as_the_rules_count_edits(shown, earlier.get(shown.pid), rules, names)
        cb = _judge(b, rules=rules, roster=roster, window=window, runs=runs, void_changes=void_changes,
                    candidacy=candidacy)
        if b.edited_at is not None and rules.edits_as_new_ballot:
            if cb.valid:
                cb = replace(cb, flags=(*cb.flags, Verdict(Code.EDIT_AS_NEW, _edit_words(b, window))))
        elif b.edited_at is not None or b.pid in earlier:
            flags = list(cb.flags)
            edited = (f"编辑于 {b.edited_at.astimezone(window.closes.tzinfo):%m-%d %H:%M}"
                      + ("（关门之后）" if b.edited_at > window.closes else "")) if b.edited_at is not None else ""
            if edit_flag is not None:
                # the ruleset decided which text counts: one note saying so (a second one saying "as the
                # forum shows it" would contradict an edit that does not count)
                flags.append(replace(edit_flag, detail="；".join(x for x in (edited, edit_flag.detail) if x)))
            elif b.edited_at is not None:
                flags.append(Verdict(Code.EDITED_AFTER_CLOSE if b.edited_at > window.closes else Code.EDITED,
                                     edited.removesuffix("（关门之后）")))
            cb = replace(cb, flags=tuple(flags), earlier_text=earlier.get(b.pid))
        if cb.valid:
            run = runs.setdefault(cb.voter, _VoterRun())
            if run.current is not None and (b.change or b.kind == "proxy"):
                run.changes += 1
            run.current = cb
            run.own_pids.add(b.pid)
            run.own.append(b)
        counted.append(cb)

    finals = {id(run.current): run.current for run in runs.values() if run.current is not None}
    out: list[CountedBallot] = []
    for cb in counted:
        if id(cb) in finals:
            out.append(_weigh(cb, rules=rules, roster=roster, window=window))
        else:
            out.append(cb)

    # who is expected to vote today (`final` lists them, with None when they did not); an election's
    # candidates who may not vote are not expected to
    voters = [p for p in roster.players if vote_right(p, rules, roster).barred is None
              and not _candidate_barred(p.name, rules, candidacy)]
    final: dict[str, str | None] = {p.name: None for p in voters}
    abstained: list[str] = []
    auto_abstain: list[str] = []
    last_votes: list[str] = []
    for cb in out:
        if cb.final:
            final[cb.voter] = cb.target
            if cb.target == rules.abstain_word:
                abstained.append(cb.voter)
            p = roster.find(cb.voter)
            if rules.dead_last_vote and p is not None and p.status == "dead":
                last_votes.append(cb.voter)
    if rules.dead_last_vote and not window.accelerated:
        # M160 "【死亡】但未【出局】玩家在未执行加速的讨论日若未投票，自动视为【弃权】": a 弃权 is their
        # vote, so it uses up the last one ("在使用此票后该玩家【出局】") — else a silent dead player
        # would never leave and the faction counts would never move.
        for p in voters:
            if p.status == "dead" and final.get(p.name) is None:
                auto_abstain.append(p.name)
                last_votes.append(p.name)
    if rules.no_vote_abstains:
        # werewolf-12 "21:00 之前从未有效投票者，视为弃票": an abstention, but not a ballot
        # (无效票 "计为该玩家未投票" still holds for the 潜水 count, which reads auto_abstain)
        auto_abstain += [n for n, t in final.items() if t is None and n not in auto_abstain]
    no_vote = tuple(n for n, t in final.items() if t is None and n not in auto_abstain)
    for n in auto_abstain:
        final[n] = rules.abstain_word

    totals, public = _sum(out, roster, window, needs_votes=rules.received_add_needs_votes,
                          abstain=rules.abstain_word)
    outcome = decide_counts(out, totals, public, rules=rules, roster=roster, window=window)
    lost = _office_lost(candidacy, rules, roster, window)
    if lost is not None:
        outcome = lost
    return Tally(day=window.day, window=window, ballots=tuple(out), final=final, totals=totals,
                 public_totals=public, outcome=outcome, abstained=tuple(abstained), no_vote=no_vote,
                 auto_abstain=tuple(auto_abstain), last_votes_used=tuple(last_votes),
                 abstain_word=rules.abstain_word)


def _edit_words(b: Ballot, window: VoteWindow) -> str:
    assert b.edited_at is not None
    return f"编辑于 {b.edited_at.astimezone(window.closes.tzinfo):%m-%d %H:%M}"


def _candidate_barred(name: str, rules: TallyRules, candidacy: Candidacy | None) -> bool:
    return candidacy is not None and not rules.candidates_may_vote and name in candidacy.entered


def _office_lost(candidacy: Candidacy | None, rules: TallyRules, roster: Roster,
                 window: VoteWindow) -> VoteOutcome | None:
    """werewolf-12 "全员上警或无人上警 → 警徽流失": nobody to elect, or nobody left to vote."""
    if candidacy is None or not rules.no_office_if_all_or_none or window.purpose != "election":
        return None
    office = window.office or ""
    living = {p.name for p in roster.players if status_at(p, window.opens) in ("alive", "benched") and not p.dead}
    if not candidacy.entered:
        return VoteOutcome("nobody", None, "no_candidates", f"无人上警，本局无{office}", office=office)
    if living <= candidacy.entered:
        return VoteOutcome("nobody", None, "all_candidates", f"全员上警，本局无{office}", office=office)
    if not candidacy.standing:
        return VoteOutcome("nobody", None, "no_candidates", f"上警者全部退水，本局无{office}", office=office)
    return None


def _as_the_rules_count_edits(b: Ballot, first_text: str | None, rules: TallyRules,
                              names: tuple[str, ...]) -> tuple[Ballot, Verdict | None]:
    """The ballot an edited post counts as, under the ruleset's ``edits_allowed``.

    None (the post is silent): what the forum shows now, flagged for the director (unchanged).
    True (M19 "修改错别字不算做改票"): an edit that keeps the target is a typo fix and counts; one that
    changes the target would be a change without the 引用 a change needs, so the first text counts.
    False (213 "无效票须通过重新发帖来更正"): no edit counts; the first recorded text does.
    """
    if rules.edits_allowed is None or first_text is None:
        return b, None
    first = _reparse(b, first_text, names)
    if first is None:
        first = replace(b, target=None, reason_text=None, errors=(Verdict(Code.MISSING_LABEL, "最初的内容不是投票"),))
    same_target = (first.target is not None and b.target is not None
                   and name_key(first.target) == name_key(b.target))
    if rules.edits_allowed and same_target:
        return b, Verdict(Code.EDIT_TYPO, f"最初写的是：{first.target}")
    return first, Verdict(Code.EDIT_NOT_COUNTED, f"现在显示：{b.target or '（无法识别）'}")


def _reparse(b: Ballot, text: str, names: tuple[str, ...]) -> Ballot | None:
    """``b``'s post as first recorded, read again (the same author, time, quotes and edit time)."""
    post = Post(pid=b.pid, tid=b.tid, floor=b.floor, author=b.author, uid=None, posted_at=b.posted_at, html="",
                text=text, edited_at=b.edited_at, source="store",
                quotes=tuple(Quote(pid=pid, author=None, posted_at=None, text="") for pid in b.quoted_pids)
                + tuple(Quote(pid=None, author=None, posted_at=at, text=q) for at, q in b.quoted_unlinked))
    return parse_ballot(post, directors=(b.author,) if b.proxy_by else (), names=names)


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


def _judge(b: Ballot, *, rules: TallyRules, roster: Roster, window: VoteWindow,
           runs: dict[str, _VoterRun], void_changes: bool, candidacy: Candidacy | None = None) -> CountedBallot:
    # A look-alike author is not the player it looks like (tracker.engine.identity), however loosely alike.
    lookalike = bool(b.errors) and b.errors[0].code == Code.VOTER_LOOKALIKE
    voter_p = None if lookalike else roster.find(b.voter)
    voter = voter_p.name if voter_p else b.voter
    target_p = roster.find(b.target) if b.target else None
    target = rules.abstain_word if b.abstain else (target_p.name if target_p else b.target)

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
    at = _when(b, rules)
    local = at.astimezone(window.closes.tzinfo)  # the forum's zone, as the game file gives it
    if at < window.opens:
        return bad(Code.POSTED_BEFORE_OPEN, f"发帖 {local:%m-%d %H:%M:%S}，开门 {window.opens:%m-%d %H:%M}")
    if at > window.closes:
        return bad(Code.POSTED_AFTER_CLOSE, f"发帖 {local:%m-%d %H:%M:%S}，关门 {window.closes:%m-%d %H:%M}")
    freeze = window.closes - timedelta(minutes=rules.freeze_minutes) if rules.freeze_minutes else None
    if rules.edits_as_new_ballot and b.edited_at is not None and freeze is not None and b.edited_at >= freeze:
        return bad(Code.EDITED_IN_FREEZE, f"编辑于 {local:%m-%d %H:%M}，截止 {freeze.astimezone(local.tzinfo):%H:%M}")
    if rules.freeze_blocks_first_votes and freeze is not None and at >= freeze:
        return bad(Code.VOTE_IN_FREEZE, f"发帖 {local:%m-%d %H:%M:%S}，截止 {freeze.astimezone(local.tzinfo):%H:%M}")
    barred = vote_right(voter_p, rules, roster, at).barred  # 挂机, 出局 (but 107 恶灵·虚体), 死亡
    if barred is not None:
        return bad(barred, voter)
    if _candidate_barred(voter, rules, candidacy):
        return bad(Code.CANDIDATE_MAY_NOT_VOTE, voter)
    if not b.abstain:
        if target_p is None:
            seat = _seat_written(b.target or "") if roster.has_seats else None
            if seat is not None:
                return bad(Code.UNKNOWN_TARGET, f"写的是“{b.target}”，本局没有 {seat} 号")
            hint = nearest_names(b.target or "", [p.name for p in roster.players])
            detail = f"写的是“{b.target}”" + (f"，最接近的玩家：{'、'.join(hint)}" if hint else "")
            return bad(Code.UNKNOWN_TARGET, detail)
        tstatus = "dead" if target_p.dead and status_at(target_p, at) != "out" else status_at(target_p, at)
        who = f"{target_p.seat} 号 {target_p.name}" if target_p.seat is not None else target_p.name
        if tstatus in ("out", "dead"):
            return bad(Code.TARGET_NOT_ALIVE, f"{who}{'已死亡' if tstatus == 'dead' else '已出局'}")
        if candidacy is not None and target_p.name not in candidacy.standing:
            return bad(Code.TARGET_NOT_CANDIDATE,
                       f"{who}{'已退水' if target_p.name in candidacy.entered else '未上警'}")

    run = runs.get(voter)
    current = run.current if run else None
    flags: tuple[Verdict, ...] = ()
    latest = rules.change_rule == "latest_valid"  # werewolf-12: the last valid ballot counts, unquoted
    is_change = b.change or (b.kind == "proxy" and current is not None) or (latest and current is not None)
    if b.kind == "proxy":
        deadline = window.closes - timedelta(minutes=rules.proxy_deadline_minutes)
        if rules.proxy_deadline_minutes and at > deadline:
            return bad(Code.PROXY_TOO_LATE, f"须在关门前 {rules.proxy_deadline_minutes} 分钟发出")
        if rules.freeze_blocks_proxy and rules.freeze_minutes and \
                at >= window.closes - timedelta(minutes=rules.freeze_minutes) and \
                (rules.proxy_window == "freeze" or current is not None):
            # proxy_window "thirty_minutes" (M65 玩家须知 9): only a 代投改票 needs the hour
            return bad(Code.PROXY_TOO_LATE, f"关门前 {rules.freeze_minutes} 分钟内不允许代投"
                       + ("改票" if rules.proxy_window != "freeze" else ""))
    if not is_change:
        if current is not None:
            if run is not None and (run.own_pids & set(b.quoted_pids) or _quotes_own_unlinked(b, run)):
                # it quotes the voter's own vote, as a change must, under the wrong label
                return bad(Code.CHANGE_WRITTEN_AS_VOTE, f"引用了自己 {current.ballot.floor} 楼的投票")
            return bad(Code.SECOND_VOTE, f"原投票在 {current.ballot.floor} 楼")
        return CountedBallot(ballot=b, voter=voter, target=target, valid=True, final=False, verdict=None)

    # a change (改票), or a proxy replacing the voter's vote
    if current is None or run is None:
        return bad(Code.CHANGE_WITHOUT_VOTE)
    if b.kind != "proxy" and not latest:
        quotes_own = bool(set(b.quoted_pids) & run.own_pids) or _quotes_own_unlinked(b, run)
        if not quotes_own and not b.quoted_pids and not b.quoted_unlinked:
            return bad(Code.CHANGE_WITHOUT_QUOTE, f"原投票在 {current.ballot.floor} 楼")
        if not quotes_own:
            return bad(Code.CHANGE_QUOTES_OTHER, f"原投票在 {current.ballot.floor} 楼")
    noon = (rules.noon_exception and not run.noon_used and current.target not in (None, rules.abstain_word)
            and _target_out_before(roster, current.target, at))
    accelerated_now = window.accelerated and (window.accelerated_at is None or at >= window.accelerated_at)
    if accelerated_now and rules.accelerated_changes == "forbidden" and not (noon and rules.noon_exception_accelerated):
        return bad(Code.CHANGE_ACCELERATED)
    if void_changes:
        return bad(Code.CHANGE_VOIDED_BY_ACCELERATION)
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


_SEAT = re.compile(r"(\d{1,4})号?")


def _seat_written(target: str) -> int | None:
    """The seat number a target is written as ("13", "13号"), if it is one."""
    m = _SEAT.fullmatch(name_key(target))
    return int(m.group(1)) if m else None


def _quotes_own_unlinked(b: Ballot, run: _VoterRun) -> bool:
    """A change posted from a mobile client quotes without a findpost link: only "NAME 发表于 TIME"
    and the quoted text. It quotes the voter's own vote when one of their earlier valid ballots was
    posted in that minute (the header has no seconds) and says what is quoted. The NAME is not
    compared: it is the account's name when it posted, which a rename since has changed."""
    for minute, text in b.quoted_unlinked:
        for own in run.own:
            posted = own.posted_at.astimezone(minute.tzinfo).replace(second=0, microsecond=0)
            if posted == minute and quote_matches(text, own.said):
                return True
    return False


def _target_out_before(roster: Roster, target: str | None, at: datetime, *, strictly: bool = False) -> bool:
    """Whether ``target`` was out at ``at`` (``strictly``: before it, not at it).

    The close uses ``strictly``: a player out *at* the close (the day's own result entered as an
    event, ``cause = "vote"``, or anything the director dates at the close) was not out before it,
    and the day's result must never void the votes that produced it.
    """
    p = roster.find(target) if target else None
    if p is None or p.out_at is None:
        return False
    return p.out_at < at if strictly else p.out_at <= at


def _weigh(cb: CountedBallot, *, rules: TallyRules, roster: Roster, window: VoteWindow) -> CountedBallot:
    """The final ballot's weight in both views, with the hidden reasons as flags for the director."""
    p = roster.find(cb.voter)
    flags = list(cb.flags)
    if cb.target == rules.abstain_word or p is None:
        return replace(cb, final=True, flags=tuple(flags))
    weight, right = vote_weight(p, rules, roster), vote_right(p, rules, roster)
    true, public = weight.true, weight.public
    if not right.shown:
        public = 0.0
    if not right.granted:
        true = 0.0
        flags.append(Verdict(Code.NO_VOTE_RIGHT, cb.voter))
    if right.voided:
        if true:
            flags.append(Verdict(Code.VOTER_VOIDED, cb.voter))
        true = 0.0
        if right.voided_in_public:
            public = 0.0
    if cb.target is not None and _target_out_before(roster, cb.target, window.closes, strictly=True):
        flags.append(Verdict(Code.TARGET_OUT_BY_CLOSE, cb.target))
        public = true = 0.0
    return replace(cb, final=True, weight=true, public_weight=public, flags=tuple(flags))


def _sum(ballots: Sequence[CountedBallot], roster: Roster, window: VoteWindow, *, needs_votes: bool = False,
         abstain: str,
         ) -> tuple[dict[str, float], dict[str, float]]:
    true: dict[str, float] = {}
    public: dict[str, float] = {}
    for cb in ballots:
        if not cb.final or cb.target in (None, abstain):
            continue
        assert cb.target is not None
        if cb.weight or cb.public_weight:
            true[cb.target] = true.get(cb.target, 0.0) + cb.weight
            public[cb.target] = public.get(cb.target, 0.0) + cb.public_weight
    apply_modifiers(true, roster, hidden_too=True, needs_votes=needs_votes)
    apply_modifiers(public, roster, hidden_too=False, needs_votes=needs_votes)
    return _ordered(true), _ordered(public)


def _ordered(totals: dict[str, float]) -> dict[str, float]:
    """Highest first, then by name (the announcement's order); a target left at 0 is not listed."""
    return dict(sorted(((k, v) for k, v in totals.items() if v != 0), key=lambda kv: (-kv[1], kv[0])))


def number(x: float) -> int | float:
    """JSON form of a count: 5 not 5.0, 3.5 stays."""
    return int(x) if float(x).is_integer() else x

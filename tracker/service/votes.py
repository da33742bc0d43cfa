"""Votes: the day's vote thread(s) from the store, parsed and tallied under the game's ruleset.

The state a day is counted against is the fold of the event log (game file + recorded events) at
the day's opening and close. A day-1 election that the director has not confirmed yet still shapes
the later days (饺子 elected 警长 weighs 1.5 on day 2): its tally's winner is applied as a provisional
event, and the result says so (``provisional``), until ``tracker confirm`` records it.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime, time, timedelta, tzinfo
from typing import TYPE_CHECKING, cast

from tracker.config import DayConfig
from tracker.engine.ballots import SEED_FORMAT, Ballot, BallotFormat, cannot_be_ballot, parse_ballot
from tracker.engine.candidacy import SignupPost, candidacy
from tracker.engine.days import VoteResult, confirm_vote
from tracker.engine.events import Event, EventDraft, EventKind, as_of, effective
from tracker.engine.identity import Authors
from tracker.engine.ruleset import Election, Ruleset
from tracker.engine.state import GameState
from tracker.engine.tally import (
    Candidacy,
    Roster,
    Tally,
    VoteWindow,
    day_benched_times,
    day_out_times,
    roster_from_states,
    rules_for_vote,
    tally,
)
from tracker.errors import ConfigError, GameRuleError
from tracker.service.context import GameContext
from tracker.service.request import one_request
from tracker.store.posts import ballot_rows, post_versions, posts_for_thread

if TYPE_CHECKING:  # the services this one is given (tracker.service composes them)
    from sqlmodel import Session

    from tracker.engine.night import Settlement
    from tracker.service.gamelog import GameLog
    from tracker.service.night_desk import DayExit, NightDesk

_MISS = object()
#: A stored post as the ballot memo keys it: what a Ballot carries from its row.
BallotKey = tuple[int, str, int, int, str, "int | None", datetime, "datetime | None"]
_MEMO_LOCK = threading.Lock()

#: The seq of the first provisional event (a day-1 election not yet confirmed, applied to later
#: days): above any seq the store hands out, so it sorts after every recorded event of its instant.
PROVISIONAL_SEQ = 10**9



@dataclass(frozen=True, slots=True)
class DayTally:
    """One vote thread's count with what it was counted against."""

    tid: int
    ruleset_id: str
    election: Election | None
    tally: Tally
    provisional: tuple[str, ...] = ()
    warnings: tuple[str, ...] = field(default_factory=tuple)

    @property
    def purpose(self) -> str:
        """The vote's purpose: the election's office, else the window's (``exile`` …)."""
        return self.tally.window.purpose if self.election is None else self.election.purpose


@dataclass(frozen=True, slots=True)
class ConfirmResult:
    """What confirming one vote thread recorded (or that it had been confirmed before)."""

    tid: int
    explanation: str
    events: tuple[Event, ...] = ()
    already_confirmed: bool = False
    purpose: str | None = None
    clause: str | None = None
    chosen: str | None = None
    tally_outcome: str | None = None
    #: The day phase the exile was settled in with what it set off (None: this game's night file has
    #: no exile skill, the 出局 alone was recorded), and that settlement.
    phase: str | None = None
    settlement: Settlement | None = None


class Votes:
    """The count of each vote thread and its confirmation as game events."""

    # Parsed ballots per post, kept across requests; 0 turns the memo (and the cheap skip) off.
    ballot_memo_size: int = 50_000

    def __init__(self, ctx: GameContext, log: GameLog,
                 desk: Callable[[Session], NightDesk] | None = None) -> None:
        self.ctx = ctx
        self.log = log
        #: The night desk over a transaction: where an exile is settled with what it sets off.
        self._desk = desk
        self._ballot_memo: tuple[tuple[tuple[str, ...], tuple[str, ...], BallotFormat], dict[BallotKey, Ballot | None]] | None = None

    # ------------------------------------------------------------------ inputs

    def vote_ballots(self, tid: int, fmt: BallotFormat = SEED_FORMAT) -> tuple[list[Ballot], dict[int, str]]:
        """Every ballot of a vote thread (deleted posts excluded: the forum no longer shows them),
        with the first recorded text of each edited ballot. ``fmt``: the ruleset's ballot words for
        this vote (reason line, abstain words, an election's own keyword).

        Each post is parsed once per (pid, content_key, and the other fields a Ballot carries): a second
        tally, a 潜水 count or the next day's provisional election re-use the parsed ballot; an edited
        post has a new content_key and is parsed again. Posts with none of the characters any ballot or
        attempt needs (:func:`cannot_be_ballot`) are not parsed at all.
        """
        game = self.ctx.game
        # seat numbers are names a ballot may write ("投票对象：7", "7号"): they make "7、8" two targets
        names = tuple(game.player_names) + tuple(w for n in game.seats.values() for w in (str(n), f"{n}号"))
        directors = tuple(game.directors)
        authors = Authors(game.players)
        memo = self._ballot_memo_for(directors, names + tuple(f"uid:{p.uid}" for p in game.players), fmt)
        prefilter = fmt.keyword is None or not cannot_be_ballot(fmt.keyword)
        ballots: list[Ballot] = []
        earlier: dict[int, str] = {}
        with self.ctx.store.session() as session:
            for row in ballot_rows(session, tid):
                key = (row.pid, row.content_key, row.tid, row.floor, row.author, row.uid, row.posted_at,
                       row.edited_at)
                hit = memo.get(key, _MISS) if memo is not None else _MISS
                b: Ballot | None
                if hit is _MISS:
                    if memo is not None and prefilter and cannot_be_ballot(row.text):
                        b = None
                    else:
                        b = parse_ballot(row.to_post(), directors=directors, names=names, authors=authors, fmt=fmt)
                    if memo is not None:
                        self._remember_ballot(memo, key, b)
                else:
                    b = cast("Ballot | None", hit)  # the memo holds only what parse_ballot returned
                if b is None:
                    continue
                ballots.append(b)
                if row.versions > 1 or row.edited_at is not None:
                    versions = post_versions(session, row.pid)
                    if versions and versions[0].text != row.text:
                        earlier[row.pid] = versions[0].text
        return ballots, earlier

    def _ballot_memo_for(self, directors: tuple[str, ...], names: tuple[str, ...],
                         fmt: BallotFormat = SEED_FORMAT) -> dict[BallotKey, Ballot | None] | None:
        """The memo for this roster and ballot format: a changed director or player list, or another
        vote's words (an election's keyword), reads every post afresh."""
        if self.ballot_memo_size <= 0:
            return None
        ctx = (directors, names, fmt)
        held = self._ballot_memo
        if held is None or held[0] != ctx:
            held = (ctx, {})
            self._ballot_memo = held
        return held[1]

    def _remember_ballot(self, memo: dict[BallotKey, Ballot | None], key: BallotKey,
                         ballot: Ballot | None) -> None:
        if len(memo) >= self.ballot_memo_size:
            # bounded: drop the oldest quarter (dicts keep insertion order); re-parsing is only slower.
            # Locked: TUI workers count on several threads, and a dict must not change while listed.
            with _MEMO_LOCK:
                for old in list(itertools.islice(memo, max(1, self.ballot_memo_size // 4))):
                    memo.pop(old, None)
        memo[key] = ballot

    def _window(self, d: DayConfig, ruleset: Ruleset, events: Sequence[Event],
                election: Election | None) -> VoteWindow:
        """The vote's window from :meth:`GameLog.day_status`, the answer the 潜水 count uses too:
        effective close (延时 / day_extended), acceleration in force (blocks or voids 改票)."""
        window = self.log.day_status(d.day, ruleset=ruleset, requests=False, events=events).window(election)
        if election is None:
            return window
        # werewolf-12 "警长投票：16:00 — 18:00": the election's own hours on the day's date
        tz = self.ctx.game.tz
        on = window.opens.astimezone(tz).date()
        opens = _at(on, election.opens, tz) if election.opens else window.opens
        closes = _at(on, election.closes, tz) if election.closes else window.closes
        return replace(window, opens=opens, closes=closes)

    def _fold(self, ruleset: Ruleset, events: Sequence[Event], until: datetime, *, inclusive: bool) -> GameState:
        upto = as_of(events, until, inclusive=inclusive)
        return self.log.fold(upto, ruleset)

    # ------------------------------------------------------------------ the count

    @one_request
    def tally_day(self, day: int, *, ruleset_id: str | None = None) -> list[DayTally]:
        """One DayTally per vote thread of the day (213's day 1 has two: 警长 and 牧首)."""
        ruleset = self.ctx.other_ruleset(ruleset_id)
        d = self.ctx.game.day(day)
        if not d.vote:
            raise ConfigError(f"第 {day} 日没有配置投票帖", hint=f"在 [[days]] day = {day} 下加 vote = 投票帖 tid")
        events = self.log.events()
        provisional = self._provisional_elections(ruleset, day, events)
        events = events + [p for p, _ in provisional]
        out: list[DayTally] = []
        for tid, election in self.day_votes(ruleset, d):
            out.append(self._count(ruleset, d, tid, election, events,
                                   provisional=tuple(msg for _, msg in provisional)))
        return out

    def day_votes(self, ruleset: Ruleset, d: DayConfig) -> list[tuple[int, Election | None]]:
        """The votes a day holds, thread by thread: (tid, the election, or None for the exile).

        By default day 1 holds the ruleset's ``[[voting.day1]]`` elections, each in its ``thread``,
        and later days the exile. The game file's ``purpose`` names the day's votes instead (an
        election held another day). An election with its own ``keyword`` (werewolf-12 "警长投票：X")
        shares its thread with the exile; any other fills its thread.
        """
        if d.purpose is None:
            held = ruleset.voting.day1 if d.day == 1 else ()
            exile = True
        else:
            known = {e.purpose for e in ruleset.voting.day1} | {"exile"}
            bad = [p for p in d.purpose if p not in known]
            if bad:
                raise ConfigError(f"第 {d.day} 日的 purpose {'、'.join(bad)} 不是本规则的投票",
                                  hint=f"可用：{'、'.join(sorted(known))}")
            held = tuple(e for e in ruleset.voting.day1 if e.purpose in d.purpose)
            exile = "exile" in d.purpose
        out: list[tuple[int, Election | None]] = []
        for index, tid in enumerate(d.vote):
            here = [e for e in held if e.thread == index]
            out += [(tid, e) for e in here]
            if exile and all(e.keyword for e in here):
                out.append((tid, None))
        return out

    def _count(self, ruleset: Ruleset, d: DayConfig, tid: int, election: Election | None,
               events: Sequence[Event], provisional: tuple[str, ...] = ()) -> DayTally:
        """A vote counted once per request against the same events (the seqs are their identity)."""
        key = ("tally", ruleset.id, d.day, tid, election, provisional, tuple(e.seq for e in events), d.purpose)
        return self.log.remember(key, lambda: self._count_now(ruleset, d, tid, election, events, provisional))

    def _count_now(self, ruleset: Ruleset, d: DayConfig, tid: int, election: Election | None,
                   events: Sequence[Event], provisional: tuple[str, ...] = ()) -> DayTally:
        # The count of a vote never sees its own confirmed result: after `confirm` the exiled player
        # is out at the close, and recounting must not turn the votes that exiled them invalid.
        purpose = election.purpose if election is not None else "exile"
        events = [e for e in events if not _own_result(e, tid, purpose)]
        window = self._window(d, ruleset, events, election)
        at_open = self._fold(ruleset, events, window.opens, inclusive=False)
        at_close = self._fold(ruleset, events, window.closes, inclusive=True)
        # red_settled places a day's red before (M19, 213) or after (M65) the vote; 挂机 mid-day stops voting
        out_times = day_out_times(events, window, red_settled=ruleset.cards.red_settled)
        roster = roster_from_states(at_open, at_close, d.day, out_times, day_benched_times(events, window),
                                    seats=self.ctx.game.seats)
        if election is None:
            roster = _with_elected(roster, events, window)
        fmt = self._format(ruleset, d, election)
        ballots, earlier = self.vote_ballots(tid, fmt)
        cands = self._candidacy(d, election, at_open, window) if election is not None else None
        result = tally(ballots, rules=rules_for_vote(ruleset.voting, election), roster=roster, window=window,
                       earlier_versions=earlier, candidacy=cands)
        return DayTally(tid=tid, ruleset_id=ruleset.id, election=election, tally=result,
                        provisional=provisional, warnings=at_close.warnings)

    def _format(self, ruleset: Ruleset, d: DayConfig, election: Election | None) -> BallotFormat:
        """The ballot words of one vote: the ruleset's, the election's keyword, the thread's other keywords."""
        v = ruleset.voting
        others = tuple(e.keyword for tid, e in self.day_votes(ruleset, d)
                       if e is not None and e.keyword and e is not election)
        return BallotFormat(reason_required=v.reason_required and (election is None or election.keyword is None),
                            abstain_words=v.abstain_words, keyword=election.keyword if election else None,
                            other_keywords=others)

    def _candidacy(self, d: DayConfig, election: Election, at_open: GameState,
                   window: VoteWindow) -> Candidacy | None:
        """werewolf-12 上警 / 退水 in the day's discussion thread, from the opening to the signup close."""
        if election.signup_word is None:
            return None
        if d.discussion is None:
            raise ConfigError(f"第 {d.day} 日没有配置讨论帖，无法统计上警",
                              hint=f"在 [[days]] day = {d.day} 下加 discussion = 讨论帖 tid")
        tz = self.ctx.game.tz
        opens = self.log.day_status(d.day, requests=False).opens
        closes = _at(opens.astimezone(tz).date(), election.signup_closes, tz) if election.signup_closes \
            else window.opens
        authors = Authors(self.ctx.game.players)
        with self.ctx.store.session() as session:
            rows = posts_for_thread(session, d.discussion, include_deleted=False)
        posts = [SignupPost(player=authors.identify(r.author, r.uid).player, floor=r.floor, pid=r.pid,
                            posted_at=r.posted_at, text=r.text) for r in rows]
        living = {n for n, p in at_open.players.items() if p.status == "alive"}
        return candidacy(posts, signup_word=election.signup_word, withdraw_word=election.withdraw_word,
                         opens=opens, closes=closes, living=living)

    def _provisional_elections(self, ruleset: Ruleset, day: int, events: list[Event],
                               ) -> list[tuple[Event, str]]:
        """Elections not yet recorded, held on an earlier day or earlier the same day (an election with
        its own keyword shares the day's vote thread: werewolf-12's 警长 weighs 1.5 in the day-1
        放逐投票): their tally's winner, as events marked provisional."""
        if not ruleset.voting.day1:
            return []
        given = {str(e.payload.tag) for e in events if e.kind == EventKind.TAG_GIVEN.value}
        out: list[tuple[Event, str]] = []
        for d in self.ctx.game.days:
            if d.day > day or not d.vote:
                continue
            for tid, election in self.day_votes(ruleset, d):
                if election is None or election.tag is None or election.purpose == "exile" or election.tag in given:
                    continue
                if d.day == day and election.keyword is None:
                    continue
                counted = self._count(ruleset, d, tid, election, events)
                o = counted.tally.outcome
                if o.kind != "elected" or o.player is None:
                    continue
                draft = EventDraft(at=counted.tally.window.closes + timedelta(seconds=1),
                                   kind=EventKind.TAG_GIVEN.value, player=o.player,
                                   data={"tag": election.tag, "cause": "election", "provisional": True},
                                   recorded_by="tracker tally（未确认）")
                out.append((draft.to_event(seq=PROVISIONAL_SEQ + len(out)),
                            f"第{d.day}日{election.tag}竞选尚未确认，按计票结果暂以 {o.player} 为{election.tag}"))
        return out

    # ------------------------------------------------------------------ confirm

    @one_request
    def confirmed_tids(self) -> set[int]:
        """Vote threads whose result is recorded as game events (and not undone)."""
        live, _ = effective(self.log.events())
        return {int(tid) for e in live if (tid := e.payload.vote_tid) is not None}

    def _confirmed_votes(self) -> set[tuple[int, str | None]]:
        """(vote thread, vote purpose) of each recorded result; purpose None: the whole thread."""
        live, _ = effective(self.log.events())
        return {(int(tid), None if (purpose := e.payload.vote_purpose) is None else str(purpose))
                for e in live if (tid := e.payload.vote_tid) is not None}

    @one_request
    def confirm_day(self, day: int, *, recorded_by: str | None = None) -> list[ConfirmResult]:
        """Record each vote of the day as game events (elected tag, exile/death, last votes used).

        Refused when the day's vote thread was already confirmed and not undone: a second
        confirmation would eliminate twice. Undo the earlier events first (``undo`` events). Refused
        too, before anything is counted, when the roster contradicts the ruleset (the one place: the
        CLI's `confirm` and the TUI's `y` both reach it).
        """
        from tracker.service.roster_check import refuse_on_roster_errors, roster_errors

        refuse_on_roster_errors(roster_errors(self.ctx), "不能确认结果")
        who = self.ctx.director(recorded_by)
        done = self.confirmed_tids()
        results: list[ConfirmResult] = []
        tallies = self.tally_day(day)
        # Checked before anything is written: a day whose every vote is confirmed is refused whole;
        # on a two-vote day (213) the thread already confirmed is skipped and said so, never re-recorded.
        shared = {dt.tid for dt in tallies if sum(x.tid == dt.tid for x in tallies) > 1}
        done_votes = self._confirmed_votes()

        def confirmed(dt: DayTally) -> bool:
            # a thread holding two votes (werewolf-12 警长投票 + 投票对象) is confirmed vote by vote
            if dt.tid not in shared:
                return dt.tid in done
            return (dt.tid, None) in done_votes or (dt.tid, _purpose(dt)) in done_votes

        if all(confirmed(dt) for dt in tallies):
            tids = "、".join(str(dt.tid) for dt in tallies)
            raise GameRuleError(f"第 {day} 日投票帖 {tids} 的结果已经确认过",
                                hint="如需更正，先用 undo 事件撤销原记录，再重新确认")
        ruleset = self.ctx.ruleset
        for dt in tallies:
            if confirmed(dt):
                results.append(ConfirmResult(dt.tid, f"投票帖 {dt.tid} 的结果此前已确认，未重复记录",
                                             already_confirmed=True))
                continue
            t = dt.tally
            state = self._fold(ruleset, self.log.events(), t.window.closes, inclusive=True)
            purpose = dt.election.purpose if dt.election is not None else "exile"
            # the tally decided; confirming only records its outcome (one authority for the result)
            conf = confirm_vote(ruleset, state, VoteResult.of(t, purpose), at=t.window.closes, recorded_by=who)
            mark = {"vote_tid": dt.tid, **({"vote_purpose": purpose} if dt.tid in shared else {})}
            drafts = [replace(d, data={"day": day, **d.data, **mark}) for d in conf.drafts]
            if not drafts:  # nobody elected or out: still mark the thread confirmed
                drafts = [EventDraft(at=t.window.closes, kind=EventKind.NOTE.value, player=None,
                                     data={**mark, "day": day, "text": conf.explanation},
                                     recorded_by=who)]
            with self.ctx.store.session() as session:
                drafts, settled = self._settle_exile(session, day, dt.tid, conf.chosen, drafts, at=t.window.closes)
                drafts = [replace(d, data={**d.data, **mark}) for d in drafts]
                recorded = self.log.append(session, drafts)
            explanation = conf.explanation
            if settled is not None and conf.chosen is not None:
                explanation += _settled_words(conf.chosen, settled.result)
            results.append(ConfirmResult(dt.tid, explanation, tuple(recorded), purpose=purpose,
                                         clause=conf.clause, chosen=conf.chosen, tally_outcome=t.outcome.message,
                                         phase=settled.key if settled else None,
                                         settlement=settled.result if settled else None))
        return results

    def _settle_exile(self, session: Session, day: int, tid: int, chosen: str | None,
                      drafts: list[EventDraft], *, at: datetime) -> tuple[list[EventDraft], DayExit | None]:
        """The vote's 出局 settled at the night desk with what it sets off (殉情, 诡辩, a 决斗 that
        voids the vote, the win check …), where the game's night file names its exile skill: the
        tally decided who; the settlement decides what follows, in the post's order."""
        exile = next((d for d in drafts if d.player == chosen and d.payload.cause == "vote"
                      and d.kind in (EventKind.ELIMINATED.value, EventKind.DIED.value)), None)
        desk = self._desk(session) if self._desk is not None and exile is not None else None
        if desk is None or exile is None or chosen is None or not desk.has_exit_skill("exile"):
            return drafts, None
        settled = desk.settle_exit("exile", day, chosen, at=at, own_exit=exile, via=f"tracker confirm（投票帖 {tid}）")
        tagged = [replace(d, data={"day": day, **d.data, "vote_tid": tid}) for d in settled.drafts]
        return [d for d in drafts if d is not exile] + tagged, settled


def _at(on: date, clock: str, tz: tzinfo) -> datetime:
    hh, mm = (int(x) for x in clock.split(":"))
    return datetime.combine(on, time(hh, mm), tzinfo=tz)


def _purpose(dt: DayTally) -> str:
    return dt.election.purpose if dt.election is not None else "exile"


def _own_result(e: Event, tid: int, purpose: str) -> bool:
    """Whether an event is this vote's own confirmed result (a thread holding two votes — werewolf-12's
    警长投票 and 投票对象 — tells them apart by ``vote_purpose``; older records name only the thread)."""
    recorded = e.payload.vote_tid
    if recorded is None or int(recorded) != tid:
        return False
    said = e.payload.vote_purpose
    return said is None or str(said) == purpose


def _with_elected(roster: Roster, events: Sequence[Event], window: VoteWindow) -> Roster:
    """The exile's roster with the titles elected earlier the same day (werewolf-12: 警长竞选 before the
    day-1 放逐投票, the new 警长 weighs 1.5 in it): a tag given by an election during the window."""
    live, _ = effective(list(events))
    given = {(e.player, str(e.payload.tag)) for e in live
             if e.kind == EventKind.TAG_GIVEN.value and e.payload.cause == "election" and e.player
             and window.opens <= e.at <= window.closes}
    if not given:
        return roster
    players = tuple(replace(p, tags=p.tags | {t for who, t in given if who == p.name}) for p in roster.players)
    return replace(roster, players=players)


def _settled_words(chosen: str, result: Settlement) -> str:
    """What the settlement did to the vote's result, when it was not simply the exile: another
    player exiled in the chosen one's place (107 诡辩), or nobody (213 决斗 voided the vote)."""
    if chosen in {d.player for d in result.deaths}:
        return ""
    from tracker.engine.night.desk import voted_out

    instead = voted_out(result)
    if instead:
        return f"；结算：{'、'.join(instead)} 代替 {chosen} 被投票出局"
    why = next((s.reason for s in result.survivals if s.player == chosen), None) or \
        next((line for line in reversed(result.log) if "放逐投票" in line or chosen in line), None)
    return f"；结算：{chosen} 未出局" + (f"（{why}）" if why else "（见结算过程）")

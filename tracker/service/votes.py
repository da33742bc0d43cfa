"""Votes: the day's vote thread(s) from the store, parsed and tallied under the game's ruleset.

The state a day is counted against is the fold of the event log (game file + recorded events) at
the day's opening and close. A day-1 election that the director has not confirmed yet still shapes
the later days (饺子 elected 警长 weighs 1.5 on day 2): its tally's winner is applied as a provisional
event, and the result says so (``provisional``), until ``tracker confirm`` records it.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta, tzinfo
from typing import Any

from tracker.config import DayConfig
from tracker.engine.ballots import Ballot, cannot_be_ballot, parse_ballot
from tracker.engine.events import Event, EventDraft, EventKind, from_config
from tracker.engine.identity import Authors
from tracker.engine.ruleset import Election, Ruleset, load_ruleset
from tracker.engine.state import GameState, fold
from tracker.engine.tally import (
    DayWindow,
    Tally,
    day_benched_times,
    day_out_times,
    number,
    roster_from_states,
    rules_for_vote,
    tally,
)
from tracker.errors import ConfigError, GameRuleError
from tracker.service.state import StateOps

_MISS = object()

# Every ballot or attempt parse_ballot recognises needs one of these after NFKC: 投票/改票 labels,
# 代投, the near-labels (票/对象/对像/目标/理由), the verbs (投/选/票给) and a bare 弃权.
@dataclass
class _Scope:
    events: list[Event] | None = None
    counts: dict[Any, DayTally] = field(default_factory=dict)
    keep: list[Any] = field(default_factory=list)  # keeps the keyed objects alive, so their ids stay theirs


_SCOPE_LOCK = threading.Lock()


def _scopes(service: object) -> threading.local:
    with _SCOPE_LOCK:
        local: threading.local | None = getattr(service, "_tally_scopes", None)
        if local is None:
            local = threading.local()
            service._tally_scopes = local  # type: ignore[attr-defined]
        return local




@dataclass(frozen=True, slots=True)
class DayTally:
    """One vote thread's count with what it was counted against."""

    tid: int
    ruleset_id: str
    election: Election | None
    tally: Tally
    provisional: tuple[str, ...] = ()
    warnings: tuple[str, ...] = field(default_factory=tuple)


class VoteOps(StateOps):
    # ------------------------------------------------------------------ inputs

    def _vote_ruleset(self, ruleset_id: str | None) -> Ruleset:
        if ruleset_id is None:
            return self.ruleset
        base = self.game.path.parent if self.game.path is not None else None
        return load_ruleset(ruleset_id, base_dir=base)

    @contextmanager
    def tally_scope(self) -> Iterator[None]:
        """Within the block (on this thread), the event log is read once and a vote counted against the
        same events is counted once: 潜水 for day 2 needs day 1's tally and day 2's, whose provisional
        election is day 1's count again. Outside a scope every call reads the store afresh."""
        local = _scopes(self)
        if getattr(local, "scope", None) is not None:
            yield
            return
        local.scope = _Scope()
        try:
            yield
        finally:
            local.scope = None

    def _scope(self) -> _Scope | None:
        scope: _Scope | None = getattr(_scopes(self), "scope", None)
        return scope

    def _recorded_events(self) -> list[Event]:
        """Game-file events plus those recorded in the store's event log (read once per tally scope)."""
        scope = self._scope()
        if scope is None:
            return self._read_events()
        if scope.events is None:
            scope.events = self._read_events()
        return list(scope.events)

    def _read_events(self) -> list[Event]:
        events = from_config(self.game.events)
        try:
            from tracker.store.events import load_events
        except ImportError:  # an install without the event log yet: the game file alone
            return events
        with self.store.session() as session:
            events.extend(load_events(session))
        return events

    def vote_ballots(self, tid: int) -> tuple[list[Ballot], dict[int, str]]:
        """Every ballot of a vote thread (deleted posts excluded: the forum no longer shows them),
        with the first recorded text of each edited ballot.

        Each post is parsed once per (pid, content_key, and the other fields a Ballot carries): a second
        tally, a 潜水 count or the next day's provisional election re-use the parsed ballot; an edited
        post has a new content_key and is parsed again. Posts with none of the characters any ballot or
        attempt needs (:func:`cannot_be_ballot`) are not parsed at all.
        """
        from tracker.store.posts import ballot_rows, post_versions

        names = tuple(self.game.player_names)
        directors = tuple(self.game.directors)
        authors = Authors(self.game.players)
        memo = self._ballot_memo_for(directors, names + tuple(f"uid:{p.uid}" for p in self.game.players))
        ballots: list[Ballot] = []
        earlier: dict[int, str] = {}
        with self.store.session() as session:
            for row in ballot_rows(session, tid):
                key = (row.pid, row.content_key, row.tid, row.floor, row.author, row.uid, row.posted_at,
                       row.edited_at)
                hit = memo.get(key, _MISS) if memo is not None else _MISS
                if hit is _MISS:
                    if memo is not None and cannot_be_ballot(row.text):
                        b = None
                    else:
                        b = parse_ballot(row.to_post(), directors=directors, names=names, authors=authors)
                    if memo is not None:
                        self._remember_ballot(memo, key, b)
                else:
                    b = hit  # type: ignore[assignment]
                if b is None:
                    continue
                ballots.append(b)
                if row.versions > 1 or row.edited_at is not None:
                    versions = post_versions(session, row.pid)
                    if versions and versions[0].text != row.text:
                        earlier[row.pid] = versions[0].text
        return ballots, earlier

    # Parsed ballots per post, kept across calls; 0 turns the memo (and the cheap skip) off.
    ballot_memo_size: int = 50_000

    def _ballot_memo_for(self, directors: tuple[str, ...], names: tuple[str, ...]) -> dict[Any, Any] | None:
        """The memo for this roster: a changed director or player list reads every post afresh."""
        if self.ballot_memo_size <= 0:
            return None
        ctx = (directors, names)
        held: tuple[tuple[tuple[str, ...], tuple[str, ...]], dict[Any, Any]] | None = getattr(
            self, "_ballot_memo", None)
        if held is None or held[0] != ctx:
            held = (ctx, {})
            self._ballot_memo = held
        return held[1]

    def _remember_ballot(self, memo: dict[Any, Any], key: Any, ballot: Ballot | None) -> None:
        if len(memo) >= self.ballot_memo_size:
            # bounded: drop the oldest quarter (dicts keep insertion order); re-parsing is only slower.
            # Locked: TUI workers count on several threads, and a dict must not change while listed.
            with _SCOPE_LOCK:
                for old in list(itertools.islice(memo, max(1, self.ballot_memo_size // 4))):
                    memo.pop(old, None)
        memo[key] = ballot

    def _window(self, d: DayConfig, ruleset: Ruleset, events: Sequence[Event],
                election: Election | None) -> DayWindow:
        """The vote's window from :meth:`StateOps.day_status`, the answer the 潜水 count uses too:
        effective close (延时 / day_extended), acceleration in force (blocks or voids 改票)."""
        return self.day_status(d.day, ruleset=ruleset, requests=False, events=events).window(election)

    def _fold(self, ruleset: Ruleset, events: Sequence[Event], until: datetime, *, inclusive: bool) -> GameState:
        upto = [e for e in events if (e.at <= until if inclusive else e.at < until)]
        return fold(ruleset, self.game.players, upto, self.game.days)

    # ------------------------------------------------------------------ the count

    def tally_day(self, day: int, *, ruleset_id: str | None = None) -> list[DayTally]:
        """One DayTally per vote thread of the day (213's day 1 has two: 警长 and 牧首)."""
        ruleset = self._vote_ruleset(ruleset_id)
        d = self.game.day(day)
        if not d.vote:
            raise ConfigError(f"第 {day} 日没有配置投票帖", hint=f"在 [[days]] day = {day} 下加 vote = 投票帖 tid")
        events = self._recorded_events()
        provisional = self._provisional_elections(ruleset, day, events)
        events = events + [p for p, _ in provisional]
        out: list[DayTally] = []
        for index, tid in enumerate(d.vote):
            election = None
            if day == 1:
                election = next((e for e in ruleset.voting.day1 if e.thread == index), None)
            out.append(self._count(ruleset, d, tid, election, events,
                                   provisional=tuple(msg for _, msg in provisional)))
        return out

    def _count(self, ruleset: Ruleset, d: DayConfig, tid: int, election: Election | None,
               events: Sequence[Event], provisional: tuple[str, ...] = ()) -> DayTally:
        scope = self._scope()
        if scope is None:
            return self._count_now(ruleset, d, tid, election, events, provisional)
        # identity of the (scope-held) event objects: the same events, never merely equal ones
        key = (id(ruleset), d.day, tid, id(election), provisional, tuple(map(id, events)))
        hit = scope.counts.get(key)
        if hit is None:
            hit = scope.counts[key] = self._count_now(ruleset, d, tid, election, events, provisional)
            scope.keep.append((ruleset, election, list(events)))
        return hit

    def _count_now(self, ruleset: Ruleset, d: DayConfig, tid: int, election: Election | None,
                   events: Sequence[Event], provisional: tuple[str, ...] = ()) -> DayTally:
        # The count of a vote never sees its own confirmed result: after `confirm` the exiled player
        # is out at the close, and recounting must not turn the votes that exiled them invalid.
        events = [e for e in events if e.get("vote_tid") is None or int(e.get("vote_tid")) != tid]
        window = self._window(d, ruleset, events, election)
        at_open = self._fold(ruleset, events, window.opens, inclusive=False)
        at_close = self._fold(ruleset, events, window.closes, inclusive=True)
        out_times = day_out_times(events, window, red_settled=ruleset.cards.red_settled)
        roster = roster_from_states(at_open, at_close, d.day, out_times, day_benched_times(events, window))
        ballots, earlier = self.vote_ballots(tid)
        result = tally(ballots, rules=rules_for_vote(ruleset.voting, election), roster=roster, window=window,
                       earlier_versions=earlier)
        return DayTally(tid=tid, ruleset_id=ruleset.id, election=election, tally=result,
                        provisional=provisional, warnings=at_close.warnings)

    def _provisional_elections(self, ruleset: Ruleset, day: int, events: list[Event],
                               ) -> list[tuple[Event, str]]:
        """Day-1 elections not yet recorded: their tally's winner, as events marked provisional."""
        if day <= 1 or not ruleset.voting.day1:
            return []
        try:
            d1 = self.game.day(1)
        except ConfigError:
            return []
        given = {str(e.get("tag")) for e in events if e.kind == EventKind.TAG_GIVEN.value}
        out: list[tuple[Event, str]] = []
        for election in ruleset.voting.day1:
            if election.tag is None or election.purpose == "exile" or election.tag in given:
                continue
            if election.thread >= len(d1.vote):
                continue
            counted = self._count(ruleset, d1, d1.vote[election.thread], election, events)
            o = counted.tally.outcome
            if o.kind != "elected" or o.player is None:
                continue
            draft = EventDraft(at=counted.tally.window.closes + timedelta(seconds=1), kind=EventKind.TAG_GIVEN.value,
                               player=o.player,
                               data={"tag": election.tag, "cause": "election", "provisional": True},
                               recorded_by="tracker tally（未确认）")
            out.append((draft.to_event(seq=10**9 + len(out)),
                        f"第1日{election.tag}竞选尚未确认，按计票结果暂以 {o.player} 为{election.tag}"))
        return out

    # ------------------------------------------------------------------ confirm

    def confirm_day(self, day: int, *, recorded_by: str | None = None) -> list[dict[str, Any]]:
        """Record each vote of the day as game events (elected tag, exile/death, last votes used).

        Refused when the day's vote thread was already confirmed and not undone: a second
        confirmation would eliminate twice. Undo the earlier events first (``undo`` events).
        """
        from tracker.engine.days import VoteResult, confirm_vote
        from tracker.engine.events import effective, event_to_json
        from tracker.store.events import append_event

        who = recorded_by or (self.game.directors[0] if self.game.directors else "tracker")
        live, _ = effective(self._recorded_events())
        done = {int(e.get("vote_tid")) for e in live if e.get("vote_tid") is not None}
        results: list[dict[str, Any]] = []
        tallies = self.tally_day(day)
        # Checked before anything is written: a day whose every vote is confirmed is refused whole;
        # on a two-vote day (213) the thread already confirmed is skipped and said so, never re-recorded.
        if all(dt.tid in done for dt in tallies):
            tids = "、".join(str(dt.tid) for dt in tallies)
            raise GameRuleError(f"第 {day} 日投票帖 {tids} 的结果已经确认过",
                                hint="如需更正，先用 undo 事件撤销原记录，再重新确认")
        for dt in tallies:
            if dt.tid in done:
                results.append({"tid": dt.tid, "already_confirmed": True,
                                "explanation": f"投票帖 {dt.tid} 的结果此前已确认，未重复记录", "events": []})
                continue
            t = dt.tally
            state = self._fold(self.ruleset, self._recorded_events(), t.window.closes, inclusive=True)
            purpose = dt.election.purpose if dt.election is not None else "exile"
            # the tally decided; confirming only records its outcome (one authority for the result)
            conf = confirm_vote(self.ruleset, state, VoteResult.of(t, purpose), at=t.window.closes, recorded_by=who)
            drafts = [replace(d, data={"day": day, **d.data, "vote_tid": dt.tid}) for d in conf.drafts]
            if not drafts:  # nobody elected or out: still mark the thread confirmed
                drafts = [EventDraft(at=t.window.closes, kind=EventKind.NOTE.value, player=None,
                                     data={"vote_tid": dt.tid, "day": day, "text": conf.explanation},
                                     recorded_by=who)]
            with self.store.session() as session:
                recorded = [append_event(session, d, recorded_at=self.clock.now()) for d in drafts]
            results.append({"tid": dt.tid, "purpose": purpose, "explanation": conf.explanation,
                            "clause": conf.clause, "chosen": conf.chosen,
                            "tally_outcome": t.outcome.message,
                            "events": [event_to_json(e) for e in recorded]})
        return results


def tally_to_json(dt: DayTally, tz: tzinfo | None = None) -> dict[str, Any]:
    """The CLI contract: day, ballots, final, totals, public_totals, outcome (plus context keys).

    ``tz`` (the forum's zone) writes the ballots' times as `tracker posts` writes the same posts'.
    """
    t = dt.tally
    o = t.outcome
    return {
        "day": t.day,
        "tid": dt.tid,
        "ruleset": dt.ruleset_id,
        "purpose": t.window.purpose if dt.election is None else dt.election.purpose,
        "ballots": [{
            "pid": cb.ballot.pid, "floor": cb.ballot.floor, "voter": cb.voter, "target": cb.target,
            "kind": cb.kind, "valid": cb.valid, "reason": cb.reason, "final": cb.final,
            "posted_at": (cb.ballot.posted_at.astimezone(tz) if tz else cb.ballot.posted_at).isoformat(),
            "proxy_by": cb.ballot.proxy_by,
            "weight": number(cb.weight), "public_weight": number(cb.public_weight),
            "flags": [f.reason for f in cb.flags],
            **({"earlier_text": cb.earlier_text} if cb.earlier_text is not None else {}),
        } for cb in t.ballots],
        "final": dict(t.final),
        "totals": {k: number(v) for k, v in t.totals.items()},
        "public_totals": {k: number(v) for k, v in t.public_totals.items()},
        "outcome": {"kind": o.kind, "player": o.player, "office": o.office, "reason": o.reason,
                    "message": o.message, "top": number(o.top), "tied": list(o.tied),
                    "public_differs": o.public_differs},
        "abstained": list(t.abstained),
        "no_vote": list(t.no_vote),
        "auto_abstain": list(t.auto_abstain),
        "last_votes_used": list(t.last_votes_used),
        "provisional": list(dt.provisional),
    }

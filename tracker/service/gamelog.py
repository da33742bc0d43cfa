"""The game log: the event log (game file + store) read once and folded once per request.

Every other service asks this one "is this player out?", "what did the day look like at its
close?", so there is one answer. Why a request: a 潜水 count for day 2 needs day 1's tally and
day 2's, whose provisional election is day 1's count again, and each needs the state at the same
few instants; inside one :meth:`GameLog.request` the log is read from the store once and folded once
(a :class:`~tracker.engine.fold_pass.FoldPass`: every other state is resumed from its marks), each
distinct set of events is worked out once (keyed by the events' ``seq``s, their identity in the
log), and any other answer computed from them is kept (:meth:`GameLog.remember`). Recording an event ends the
snapshot: what follows in the same request reads the log afresh.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Concatenate, ParamSpec, TypeVar, cast

from sqlmodel import Session

from tracker.config import DayConfig
from tracker.engine.days import DayStatus, day_status
from tracker.engine.events import (
    Event,
    EventDraft,
    EventKind,
    as_of,
    effective,
    event_to_json,
    from_config,
    given,
    make_draft,
)
from tracker.engine.fold_pass import FoldPass
from tracker.engine.ruleset import Ruleset
from tracker.engine.state import GameState, check_event
from tracker.jsonvalue import JSON, Doc
from tracker.penalties.kidnap import Kidnap
from tracker.penalties.last_words import exit_of
from tracker.penalties.presence import FROM_ENGINE, StatusChange
from tracker.records import Post
from tracker.service.context import GameContext
from tracker.store.events import append_event, load_events
from tracker.store.posts import posts_for_thread

T = TypeVar("T")
P = ParamSpec("P")
R = TypeVar("R")

def _in_request(method: Callable[Concatenate[GameLog, P], R]) -> Callable[Concatenate[GameLog, P], R]:
    """The log's own answer within one request (a caller's own request is joined); the services'
    calls do the same through :func:`tracker.service.request.one_request`."""
    @functools.wraps(method)
    def within(self: GameLog, /, *args: P.args, **kwargs: P.kwargs) -> R:
        with self.request():
            return method(self, *args, **kwargs)
    return within


@dataclass
class _Request:
    """One request's snapshot: the events as read, their folds, and answers computed from them."""

    events: list[Event] | None = None
    passes: dict[str, FoldPass] = field(default_factory=dict)
    folds: dict[Hashable, GameState] = field(default_factory=dict)
    answers: dict[Hashable, object] = field(default_factory=dict)


class _PerThread(threading.local):
    """TUI workers call on several threads: each has its own request (None outside one)."""

    request: _Request | None = None


class GameLog:
    def __init__(self, ctx: GameContext) -> None:
        self.ctx = ctx
        self._local = _PerThread()

    # -- the request ------------------------------------------------------------------------------
    @contextmanager
    def request(self) -> Iterator[None]:
        """Within the block (on this thread) the log is read once and each fold done once; nested
        requests join the outer one. Outside a request every call reads the store afresh."""
        if self._local.request is not None:
            yield
            return
        self._local.request = _Request()
        try:
            yield
        finally:
            self._local.request = None

    def _current(self) -> _Request:
        current = self._local.request
        return current if current is not None else _Request()

    def remember(self, key: Hashable, compute: Callable[[], T]) -> T:
        """An answer computed from this request's events, computed once per request."""
        req = self._current()
        if key not in req.answers:
            req.answers[key] = compute()
        value = cast("T", req.answers[key])  # the key was computed by this same compute
        return value

    def _changed(self) -> None:
        """The log grew: later reads in this request see the new events."""
        if self._local.request is not None:
            self._local.request = _Request()

    # -- reading and folding ----------------------------------------------------------------------
    def events(self) -> list[Event]:
        """Game-file ``[[events]]`` (seq < 0) then the store's log (seq > 0)."""
        req = self._current()
        if req.events is None:
            events = from_config(self.ctx.game.events)
            with self.ctx.store.session() as session:
                events.extend(load_events(session))
            req.events = events
        return list(req.events)

    def fold(self, events: Sequence[Event], ruleset: Ruleset | None = None) -> GameState:
        """The state after ``events`` (the one place the service folds). A request folds its log
        once per ruleset (:class:`FoldPass`); every state it asks for — a cut in time, the log plus
        a provisional election or minus a day's confirmation — comes from that pass, and is kept
        per distinct set of events."""
        rs = ruleset or self.ctx.ruleset
        key = (rs.id, tuple(e.seq for e in events))
        req = self._current()
        state = req.folds.get(key)
        if state is None:
            state = req.folds[key] = self._pass(req, rs, events).state(events)
        return state

    def _pass(self, req: _Request, rs: Ruleset, events: Sequence[Event]) -> FoldPass:
        """The request's pass under ``rs``: over its log when read (never read here: a caller inside
        a write transaction passes the events it sees), else over the events first asked about."""
        found = req.passes.get(rs.id)
        if found is None:
            base = req.events if req.events is not None else events
            found = req.passes[rs.id] = FoldPass(rs, self.ctx.game.players, base, self.ctx.game.days)
        return found

    @_in_request
    def state(self, at: datetime | None = None) -> GameState:
        """The state now, or as it was at ``at`` (events that happened at or before it)."""
        events = self.events()
        return self.fold(events if at is None else as_of(events, at))

    def state_before(self, until: datetime, events: Sequence[Event] | None = None,
                     ruleset: Ruleset | None = None) -> GameState:
        """The state from the events strictly before ``until`` (a day's opening)."""
        log = self.events() if events is None else events
        return self.fold(as_of(log, until, inclusive=False), ruleset)

    def statuses(self) -> dict[str, str]:
        return {n: p.status for n, p in self.state().players.items()}

    def substitutes(self) -> dict[str, str]:
        """substitute's name → the account (game-file player) they play: cards stay with the account
        (M65: "替补玩家……继承前任玩家受到的一切判罚")."""
        return {sub: n for n, p in self.state().players.items() for sub in p.substitutes}

    def account(self, name: str) -> str:
        return self.substitutes().get(name, name)

    # -- days ---------------------------------------------------------------------------------------
    @_in_request
    def day_status(self, day: int, *, ruleset: Ruleset | None = None, requests: bool = True,
                   events: Sequence[Event] | None = None) -> DayStatus:
        """Day ``day`` as it stands: effective opens/closes, acceleration in force, the request count.

        The one answer the tally's window, the 潜水 count and the watcher's schedule share (see
        :func:`tracker.engine.days.day_status` for what is automatic and what is a suggestion).
        ``ruleset`` recounts under another ruleset (``tally --ruleset``); ``requests=False`` skips
        reading the 进程帖 (acceleration in force never depends on it); ``events`` replaces the log.
        """
        log = self.events() if events is None else list(events)
        return self._day_status(day, ruleset or self.ctx.ruleset, log, self._process_posts() if requests else None)

    @_in_request
    def day_statuses(self, *, requests: bool = True) -> list[DayStatus]:
        """Every day of the game file, the log and the 进程帖 read once."""
        log = self.events()
        posts = self._process_posts() if requests else None
        return [self._day_status(d.day, self.ctx.ruleset, log, posts) for d in self.ctx.game.days]

    @_in_request
    def effective_days(self) -> list[DayConfig]:
        """The game file's days with the effective opens and closes (a delayed day closes later)."""
        by_day = {s.day: s for s in self.day_statuses(requests=False)}
        return [replace(d, opens=by_day[d.day].opens, closes=by_day[d.day].closes) for d in self.ctx.game.days]

    def _day_status(self, day: int, rs: Ruleset, log: Sequence[Event], posts: Sequence[Post] | None) -> DayStatus:
        game = self.ctx.game
        d = game.day(day)
        recorded = self.fold(log, rs).day(day)
        opens = recorded.opens if recorded is not None and recorded.opens is not None else d.opens
        at_open = self.state_before(opens, log, rs)
        ref = game.path.name if game.path is not None else "GAME.toml"
        return day_status(rs, d, recorded, at_open=at_open, process_posts=posts, game_ref=ref)

    def _process_posts(self) -> list[Post] | None:
        """The 进程帖's posts as stored (deleted ones left out: the forum no longer shows them)."""
        tid = self.ctx.game.process_thread
        if tid is None:
            return None
        with self.ctx.store.session() as session:
            return [sp.to_post() for sp in posts_for_thread(session, tid, include_deleted=False)]

    # -- what the detectors ask of the state -----------------------------------------------------
    def timeline(self) -> list[StatusChange]:
        """When each player became out / benched / dead-not-out / alive again (for 诈尸 checks)."""
        live, _ = effective(self.events())
        # presence, not status: 107 恶灵·虚体 "视为出局，但仍保留发言权" posts as the living do
        before = {n: p.presence for n, p in self.fold([]).players.items()}
        changes: list[StatusChange] = []
        tz = self.ctx.game.tz
        start = 0
        for i, e in enumerate(live):
            if i + 1 < len(live) and live[i + 1].at == e.at:
                continue
            batch, start = live[start:i + 1], i + 1  # simultaneous events (a settled night's deaths) at once
            now = {n: p.presence for n, p in self.fold(live[:i + 1]).players.items()}
            for n, st in now.items():
                if st != before.get(n):
                    # the reason in the rule posts' words (the 诈尸 evidence quotes it), not the event's kind
                    mine = [x for x in batch if x.player == n]
                    why = next((x for x in mine if x.kind in _EXITS), mine[0] if mine else None)
                    cause = str(given(why.payload.cause, "")) if why is not None else ""
                    # how the player went out, for the 遗言 the ruleset allows ([last_words])
                    exit_kind, night = exit_of(str(why.kind), why.data) if why is not None and st == "out" \
                        else (None, None)
                    changes.append(StatusChange(player=n, status=FROM_ENGINE[st], at=e.at.astimezone(tz),
                                                reason=_CAUSE_WORDS.get(cause, "" if cause.isascii() else cause),
                                                exit=exit_kind, night=night, cause=cause))
            before = now
        return changes

    def kidnaps(self) -> list[Kidnap]:
        """M19 绑架: from the event to the end of the day it names (or of the next game day)."""
        days = self.ctx.game.days
        live, _ = effective(self.events())
        out = []
        for e in live:
            if e.kind != "tag_given" or e.payload.tag != "绑架" or not e.player:
                continue
            day = e.payload.day
            ends = None
            if day is not None:
                ends = next((d.closes for d in days if d.day == int(day)), None)
            if ends is None:
                ends = next((d.closes for d in days if d.opens > e.at), e.at + timedelta(days=2))
            out.append(Kidnap(player=e.player, starts=e.at, ends=ends))
        return out

    # -- recording --------------------------------------------------------------------------------
    @_in_request
    def record_event(self, kind: str, player: str | None = None, data: Mapping[str, JSON] | None = None, *,
                     at: datetime | None = None, recorded_by: str | None = None) -> Event:
        """Check the event against the current state (GameRuleError with the fix), then append it."""
        data = dict(data or {})
        now = self.ctx.clock.now()
        day = data.get("day")
        if isinstance(day, int) and not isinstance(day, bool):
            self.ctx.game.day(day)  # ConfigError (exit 2) naming the days the file has
        check_event(self.state(), kind, player, data)
        draft = make_draft(kind, at=at or now, player=player, data=data,
                           recorded_by=self.ctx.director(recorded_by))
        with self.ctx.store.session() as session:
            return self.append(session, [draft])[0]

    @_in_request
    def undo_event(self, seq: int, reason: str = "", *, recorded_by: str | None = None) -> Event:
        return self.record_event("undo", data={"seq": seq, "reason": reason}, recorded_by=recorded_by)

    @_in_request
    def undo_notes(self, seq: int) -> list[str]:
        """What undoing event ``seq`` leaves standing: the later results built on it (settlements
        and vote confirmations are not recomputed by an undo), and, for a settlement's confirmation,
        the events it recorded (reopening the phase undoes them together)."""
        from tracker.engine.night.desk import built_on, desk_command, phase_words, settled_with

        events = self.events()
        target = next((x for x in events if x.seq == seq), None)
        if target is None:
            return []
        notes: list[str] = []
        later = built_on(events, target)
        if later:
            notes.append(f"其后已确认的结果是在事件 #{seq} 之上得出的，没有随撤销改变：{'、'.join(later)}；"
                         "如需更正，从最后一个起重新打开（tracker night GAME.toml --night N reopen）或撤销后重新确认")
        if target.kind == EventKind.NIGHT_SETTLED.value:
            kept = [x for x in settled_with(events, target) if x.seq != seq]
            if kept:
                key = str(target.payload.phase)
                notes.append(f"{phase_words(key)}这次确认记录的 {len(kept)} 个事件（出局、标记 …）仍然有效；"
                             f"整体撤销请用 tracker night GAME.toml {desk_command(key)} reopen")
        return notes

    def append(self, session: Session, drafts: Sequence[EventDraft]) -> list[Event]:
        """Append events in the caller's transaction (a red card's consequence goes with its ledger
        entry); the request's snapshot is dropped, so the next read sees them."""
        recorded = [append_event(session, d, recorded_at=self.ctx.clock.now()) for d in drafts]
        self._changed()
        return recorded

    def events_in(self, session: Session) -> list[Event]:
        """The log as the caller's transaction sees it (before its own appends are committed)."""
        return from_config(self.ctx.game.events) + load_events(session)

    @_in_request
    def events_json(self) -> list[Doc]:
        events = self.events()
        _, undone = effective(events)
        out = [event_to_json(e) for e in events]
        for e in out:
            e["undone"] = e["seq"] in undone
        return out


#: Why a player went out or was benched, as the 诈尸 evidence says it.
#: The events that take a player out (the one whose data says how, for 遗言).
_EXITS = frozenset({EventKind.ELIMINATED, EventKind.DIED, EventKind.CARD_CONSEQUENCE, EventKind.LAST_VOTE_USED})
_CAUSE_WORDS = {"vote": "白天投票出局", "night": "夜晚出局", "red_card": "红牌罚下", "card": "红牌罚下",
                "skill": "技能"}

"""Game state: the event log (game file + store) folded by the engine, and recording new events.

Other areas read who is alive, benched or sheriff from :meth:`StateOps.game_state`; the penalties
area's hooks (statuses, the status timeline, kidnaps, red-card consequences) are filled in here
from the same fold, so there is one answer to "is this player out?".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from sqlmodel import Session

from tracker.config import DayConfig
from tracker.engine.days import DayStatus, day_status
from tracker.engine.events import Event, effective, event_to_json, from_config, make_draft
from tracker.engine.ruleset import Ruleset
from tracker.engine.state import STATUS_WORDS, GameState, check_event, fold
from tracker.records import Post
from tracker.service.base import ServiceBase


class StateOps(ServiceBase):
    def director(self) -> str:
        return self.game.directors[0] if self.game.directors else "导演"

    def all_events(self) -> list[Event]:
        """Game-file ``[[events]]`` (seq < 0) then the store's log (seq > 0)."""
        from tracker.store.events import load_events

        events = from_config(self.game.events)
        with self.store.session() as session:
            events.extend(load_events(session))
        return events

    def game_state(self, at: datetime | None = None) -> GameState:
        """The state now, or as it was at ``at`` (events that happened at or before it)."""
        events = self.all_events()
        if at is not None:
            events = [e for e in events if e.at <= at]
        return fold(self.ruleset, self.game.players, events, self.game.days)

    # -- days ----------------------------------------------------------------------------------
    def day_status(self, day: int, *, ruleset: Ruleset | None = None, requests: bool = True,
                   events: Sequence[Event] | None = None) -> DayStatus:
        """Day ``day`` as it stands: effective opens/closes, acceleration in force, the request count.

        The one answer the tally's window, the 潜水 count and the watcher's schedule share (see
        :func:`tracker.engine.days.day_status` for what is automatic and what is a suggestion).
        ``ruleset`` recounts under another ruleset (``tally --ruleset``); ``requests=False`` skips
        reading the 进程帖 (acceleration in force never depends on it); ``events`` replaces the log.
        """
        log = self.all_events() if events is None else list(events)
        return self._day_status(day, ruleset or self.ruleset, log, self._process_posts() if requests else None)

    def day_statuses(self, *, requests: bool = True) -> list[DayStatus]:
        """Every day of the game file, the log and the 进程帖 read once."""
        log = self.all_events()
        posts = self._process_posts() if requests else None
        return [self._day_status(d.day, self.ruleset, log, posts) for d in self.game.days]

    def effective_days(self) -> list[DayConfig]:
        """The game file's days with the effective opens and closes (a delayed day closes later)."""
        by_day = {s.day: s for s in self.day_statuses(requests=False)}
        return [replace(d, opens=by_day[d.day].opens, closes=by_day[d.day].closes) for d in self.game.days]

    def _day_status(self, day: int, rs: Ruleset, log: Sequence[Event], posts: Sequence[Post] | None) -> DayStatus:
        d = self.game.day(day)
        recorded = fold(rs, self.game.players, log, self.game.days).day(day)
        opens = recorded.opens if recorded is not None and recorded.opens is not None else d.opens
        at_open = fold(rs, self.game.players, [e for e in log if e.at < opens], self.game.days)
        ref = self.game.path.name if self.game.path is not None else "GAME.toml"
        return day_status(rs, d, recorded, at_open=at_open, process_posts=posts, game_ref=ref)

    def _process_posts(self) -> list[Post] | None:
        """The 进程帖's posts as stored (deleted ones left out: the forum no longer shows them)."""
        if self.game.process_thread is None:
            return None
        from tracker.store.posts import posts_for_thread

        with self.store.session() as session:
            return [sp.to_post() for sp in posts_for_thread(session, self.game.process_thread,
                                                            include_deleted=False)]

    def state(self) -> dict[str, Any]:
        """The `tracker state --json` document (players carry their cards when the ledger has them).

        ``days`` are the game file's days as :meth:`day_status` sees them (effective closes,
        acceleration in force, the 进程帖's request count, suggestions), then any day known only
        from events, as the fold has it.
        """
        doc = self.game_state().to_json()
        statuses = {s.day: s.to_json() for s in self.day_statuses()}
        doc["days"] = [*statuses.values(), *(d for d in doc["days"] if d["day"] not in statuses)]
        standing = getattr(self, "standing", None)
        cards: Mapping[str, Any] = {}
        if callable(standing):
            try:
                cards = standing()
            except Exception:  # the ledger is its own area: the state still answers without it
                cards = {}
        for p in doc["players"]:
            s = cards.get(p["name"])
            p["cards"] = {"blue": s.blue, "yellow": s.yellow, "red": s.red} if s is not None else \
                {"blue": 0, "yellow": 0, "red": p["reds"]}
        return doc

    def record_event(self, kind: str, player: str | None = None, data: Mapping[str, Any] | None = None, *,
                     at: datetime | None = None, recorded_by: str | None = None) -> Event:
        """Check the event against the current state (GameRuleError with the fix), then append it."""
        from tracker.store.events import append_event

        data = dict(data or {})
        now = self.clock.now()
        check_event(self.game_state(), kind, player, data)
        draft = make_draft(kind, at=at or now, player=player, data=data, recorded_by=recorded_by or self.director())
        with self.store.session() as session:
            return append_event(session, draft, recorded_at=now)

    def undo_event(self, seq: int, reason: str = "", *, recorded_by: str | None = None) -> Event:
        return self.record_event("undo", data={"seq": seq, "reason": reason}, recorded_by=recorded_by)

    def events_json(self) -> list[dict[str, Any]]:
        events = self.all_events()
        _, undone = effective(events)
        out = [event_to_json(e) for e in events]
        for e in out:
            e["undone"] = e["seq"] in undone
        return out

    # -- what the penalties area asks of the state --------------------------------------------
    def _statuses(self) -> dict[str, str]:
        return {n: p.status for n, p in self.game_state().players.items()}

    def _substitutes(self) -> dict[str, str]:
        return {sub: n for n, p in self.game_state().players.items() for sub in p.substitutes}

    def _timeline(self) -> list[Any]:
        """When each player became out / benched / dead-not-out / alive again (for 诈尸 checks)."""
        from tracker.penalties.presence import StatusChange

        live, _ = effective(self.all_events())
        words: dict[str, Any] = {"dead": "dead_not_out", "alive": "alive", "out": "out", "benched": "benched"}
        before = {n: p.presence for n, p in fold(self.ruleset, self.game.players, [], self.game.days).players.items()}
        changes: list[Any] = []
        for i, e in enumerate(live):
            if i + 1 < len(live) and live[i + 1].at == e.at:
                continue
            now = {n: p.presence for n, p in fold(self.ruleset, self.game.players, live[:i + 1], self.game.days)
                   .players.items()}
            for n, st in now.items():
                if st != before.get(n):
                    changes.append(StatusChange(player=n, status=words[st], at=e.at, reason=e.kind))
            before = now
        return changes

    def _kidnaps(self) -> list[Any]:
        """M19 绑架: from the event to the end of the day it names (or of the next game day)."""
        from tracker.penalties.kidnap import Kidnap

        live, _ = effective(self.all_events())
        out = []
        for e in live:
            if e.kind != "tag_given" or e.get("tag") != "绑架" or not e.player:
                continue
            day = e.get("day")
            ends = None
            if day is not None:
                ends = next((d.closes for d in self.game.days if d.day == int(day)), None)
            if ends is None:
                ends = next((d.closes for d in self.game.days if d.opens > e.at), e.at + timedelta(days=2))
            out.append(Kidnap(player=e.player, starts=e.at, ends=ends))
        return out

    def _record_consequences(self, cons: Sequence[Any], written: Sequence[Any], *, session: Session) -> list[str]:
        """A red card's effect on the game, recorded in the ledger's own transaction."""
        from tracker.service.penalties import consequence_drafts
        from tracker.store.events import append_event, load_events

        events = from_config(self.game.events) + load_events(session)
        # at the decision's own time (a card settled `--at` the close takes effect at the close)
        at = max((e.at for e in written), default=None) or self.clock.now()
        drafts = consequence_drafts(cons, events=events, red_consequence=self.ruleset.cards.red_consequence,
                                    at=at, by=self.director())
        recorded = [append_event(session, d, recorded_at=self.clock.now()) for d in drafts]
        words = STATUS_WORDS
        out = []
        for e in recorded:
            if e.kind == "undo":
                out.append(f"事件 #{e.seq}：撤销事件 #{e.get('seq')}（{e.get('reason') or '红牌已撤销'}）")
            elif e.get("again"):
                out.append(f"事件 #{e.seq}：{e.player} 再获红牌，计入阵营红牌数")
            else:
                what = words.get(str(e.get("consequence")), str(e.get("consequence")))
                turn = f"，成为{self.ruleset.cards.red_turns_role}" if self.ruleset.cards.red_turns_role else ""
                out.append(f"事件 #{e.seq}：{e.player} 红牌罚下，{what}{turn}")
        return out

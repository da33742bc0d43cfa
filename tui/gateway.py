"""The TUI's one door to the tracker: every read and every decision goes through the Service.

Why a layer at all: the panes run these calls in thread workers and must get plain values back;
keeping every service call in one module means the screens never learn how the store works, and
an import-hygiene test can check that nothing under ``tui/`` imports ``tracker.store``.
"""

from __future__ import annotations

import threading
from collections.abc import Awaitable, Callable
from typing import Any

from tracker.clock import Clock
from tracker.config import GameConfig
from tracker.errors import TrackerError
from tracker.service import Service
from tui.timing import current_day
from tui.views import Overview, PlayerRow, PostPage, PostQuery, StandingRow


class Gateway:
    def __init__(self, service: Service, clock: Clock | None = None) -> None:
        self.service = service
        self.clock: Clock = clock or service.clock
        # Thread workers call in concurrently; flag detection writes as it reads and decisions append
        # to a hash chain, so those run one at a time. Plain reads do not wait behind them.
        self.lock = threading.RLock()

    @property
    def game(self) -> GameConfig:
        return self.service.game

    def freeze_minutes(self) -> int | None:
        """The ruleset's change freeze; None when the ruleset cannot be loaded (the header says so)."""
        try:
            return int(self.service.ruleset.voting.freeze_minutes)
        except TrackerError:
            return None

    def ruleset_name(self) -> str:
        try:
            return str(self.service.ruleset.id)
        except TrackerError:
            return self.game.ruleset

    # -- crawling -------------------------------------------------------------------------------------
    def crawl(self, progress: Callable[[Any], None]) -> Awaitable[Any]:
        return self.service.crawl_async(progress=progress)

    # -- reads (thread workers call these) ----------------------------------------------------------
    def today(self) -> int | None:
        d = current_day(self.game.days, self.clock.now())
        return d.day if d is not None else None

    def players(self) -> tuple[PlayerRow, ...]:
        """The roster with status and cards from the game state; the game file's roster before it lands."""
        state_of = getattr(self.service, "state", None)  # StateOps: the game file's roster until it lands
        if state_of is None:
            standing = self.service.standing()
            out = []
            for p in self.game.players:
                s = standing.get(p.name)
                out.append(PlayerRow(p.name, s.status if s else "alive", p.role, p.faction, p.tags,
                                     s.blue if s else 0, s.yellow if s else 0, s.red if s else 0))
            return tuple(out)
        state = state_of()
        return tuple(player_row(p) for p in _field(state, "players", ()))

    def overview(self) -> Overview:
        problems: list[str] = []

        def attempt(fn: Callable[[], Any]) -> Any:
            try:
                return fn()
            except TrackerError as exc:
                problems.append(exc.message)
            except AttributeError as exc:  # a service area not merged yet: say so, do not hide it
                problems.append(f"服务尚未提供：{exc.name}")
            return None

        players = attempt(self.players) or ()
        flags = attempt(lambda: self.open_flag_count(detect=False))
        return Overview(players=players, open_flags=flags, posts=attempt(lambda: self.search_posts(
            PostQuery(), 0, 1).total), problems=tuple(problems))

    def search_posts(self, query: PostQuery, offset: int, limit: int) -> PostPage:
        found = self.service.search_posts(author=query.author, tid=query.tid, day=query.day,
                                          text=query.text, offset=offset, limit=limit)
        return PostPage(query=query, offset=found.offset, limit=limit, total=found.total, posts=found.posts)

    def post(self, pid: int) -> Any:
        return self.service.post(pid)

    def open_flag_count(self, *, detect: bool) -> int:
        """Open flags; ``detect`` runs the detectors first (after a crawl), otherwise a plain read."""
        if detect:
            with self.lock:
                return len(self.service.flags(status="open"))
        return len(self.service.flags(detect=False, status="open"))

    def lurker_count(self) -> int | None:
        day = self.today()
        lurkers = getattr(self.service, "lurkers", None)
        if day is None or lurkers is None:
            return None
        return len(_field(lurkers(day), "penalties", ()))

    # -- flags and cards ------------------------------------------------------------------------------
    def flags(self) -> list[Any]:
        """Open flags first (the queue), then the decided ones, each group in forum order."""
        with self.lock:
            flags = self.service.flags()
        return sorted(flags, key=lambda f: (f.status != "open", f.posted_at, f.pid, f.id))

    def suggest_card(self, flag_id: int) -> Any:
        return self.service.suggest_card(flag_id)

    def card_from_flag(self, flag_id: int, color: str, clause: str, reason: str) -> Any:
        with self.lock:
            return self.service.card_from_flag(flag_id, color=color, clause=clause, reason=reason)

    def dismiss_flag(self, flag_id: int, reason: str) -> Any:
        with self.lock:
            return self.service.dismiss_flag(flag_id, reason)

    def cards(self) -> tuple[list[Any], list[StandingRow]]:
        ledger = self.service.ledger()
        standing = self.service.standing()
        rows = [StandingRow(s.player, s.blue, s.yellow, s.red, s.status) for s in standing.values()]
        return ledger, rows

    def card_history(self, card_id: int) -> list[Any]:
        return self.service.card_history(card_id)

    def revoke_card(self, card_id: int, reason: str) -> Any:
        with self.lock:
            return self.service.revoke_card(card_id, reason)


def _field(obj: Any, name: str, default: Any = None) -> Any:
    """Read a field from a service answer whether it is a dataclass or the CLI's JSON-shaped dict."""
    if isinstance(obj, dict):
        return obj.get(name, default)
    return getattr(obj, name, default)


def player_row(p: Any) -> PlayerRow:
    cards = _field(p, "cards", None) or {}
    return PlayerRow(
        name=str(_field(p, "name", "")), status=str(_field(p, "status", "alive")),
        role=_field(p, "role"), faction=_field(p, "faction"), tags=tuple(_field(p, "tags", ()) or ()),
        blue=int(_field(cards, "blue", 0) or 0), yellow=int(_field(cards, "yellow", 0) or 0),
        red=int(_field(cards, "red", 0) or 0),
    )


"""The night desk: submissions in, a previewed settlement out, confirmed once into the event log.

Composed, not inherited: it is given the few things it needs (the event log, the fold, a way to
append events, when each day closes, the clock) so the night engine plugs into the service layer
without knowing how the rest of it is built. Everything it decides is the engine's
(:mod:`tracker.engine.night`); this class only reads and writes events.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from tracker.engine.events import Event, EventDraft, EventKind, make_draft
from tracker.engine.night import Catalog, Settlement, Table, load_catalog, settle
from tracker.engine.night.desk import (
    phase_key,
    phase_words,
    record,
    settled_event,
    submission_events,
    submissions,
    table_for,
)
from tracker.engine.ruleset import Ruleset
from tracker.engine.state import GameState
from tracker.errors import GameRuleError


@dataclass(frozen=True, slots=True)
class NightPreview:
    """A phase as it would settle now: the table it starts from, what was submitted, the result."""

    key: str
    words: str
    table: Table
    submitted: list[Event]
    result: Settlement
    confirmed: Event | None


class NightDesk:
    """Add and remove submissions, preview the settlement, confirm it (once)."""

    def __init__(self, ruleset: Ruleset, *, log: Callable[[], list[Event]],
                 fold: Callable[[Sequence[Event]], GameState], append: Callable[[Sequence[EventDraft]], list[Event]],
                 window: Callable[[int], tuple[datetime, datetime]], now: Callable[[], datetime],
                 director: str) -> None:
        self.ruleset = ruleset
        self._log = log
        self._fold = fold
        self._append = append
        self._window = window
        self._now = now
        self.director = director

    @property
    def catalog(self) -> Catalog:
        return load_catalog(self.ruleset.id, self.ruleset.night_path, tuple(r.name for r in self.ruleset.roles))

    def at(self, key: str) -> datetime:
        """When a phase's results happen in the game: night N just after day N's close (after the
        day's own vote results), or just before day N opens where the post plays night N first
        (213's 首夜); a day phase now, within its day."""
        parts = key.split(":")
        opens, closes = self._window(int(parts[1]))
        if parts[0] == "night":
            if self.catalog.night_precedes_day:
                return opens - timedelta(seconds=1)
            return closes + timedelta(seconds=1)
        return max(opens, min(self._now(), closes))

    def preview(self, key: str, *, seed: int = 0, decisions: Mapping[str, str] | None = None) -> NightPreview:
        events = self._log()
        state = self._fold([e for e in events if e.at < self.at(key)])
        table = table_for(state, self.catalog, events, key)
        result = settle(self.catalog, table, submissions(events, key), seed=seed, decisions=decisions)
        return NightPreview(key, phase_words(key), table, submission_events(events, key), result,
                            settled_event(events, key))

    def add(self, key: str, actor: str, skill: str, targets: Sequence[str], *, choice: str | None = None,
            in_phase: str | None = None) -> Event:
        """Record one submission. The skill's name is checked now (the nearest names if misspelt);
        whether the rules allow it is the settlement's to say, with the reason, in the preview."""
        name = self.catalog.skill(skill).name
        state = self._fold(self._log())
        for who in (*_members(actor), *targets):
            state.player(who)  # GameRuleError naming the players, for a typo
        data: dict[str, Any] = {"phase": key, "actor": actor, "skill": name, "targets": list(targets)}
        if choice is not None:
            data["choice"] = choice
        if in_phase is not None:
            data["in_phase"] = in_phase
        draft = make_draft(EventKind.NIGHT_ACTION.value, at=self.at(key), data=data, recorded_by=self.director)
        return self._append([draft])[0]

    def remove(self, key: str, actor: str, skill: str) -> Event:
        """Withdraw the latest standing submission of ``skill`` by ``actor`` (an undo event)."""
        name = self.catalog.skill(skill).name
        found = [e for e in submission_events(self._log(), key)
                 if e.data.get("actor") == actor and e.data.get("skill") == name]
        if not found:
            raise GameRuleError(f"{phase_words(key)}没有 {actor} 提交的<{name}>", hint="用 tracker night GAME.toml --night N 查看已提交的行动")
        draft = make_draft(EventKind.UNDO.value, at=self._now(), data={"seq": found[-1].seq, "reason": "撤回提交"},
                           recorded_by=self.director)
        return self._append([draft])[0]

    def setup(self, field: str, value: Any, player: str | None = None) -> Event:
        """A fact the post fixes before the game (英雄, 设计目标, 情侣, a seat, a 抉择)."""
        if player is not None:
            self._fold(self._log()).player(player)
        draft = make_draft(EventKind.NIGHT_SETUP.value, at=self._now(), player=player,
                           data={"field": field, "value": value}, recorded_by=self.director)
        return self._append([draft])[0]

    def confirm(self, key: str, *, seed: int = 0, decisions: Mapping[str, str] | None = None) -> tuple[NightPreview, list[Event]]:
        """Record the settlement as events, once; a phase confirmed before is refused (undo it first)."""
        preview = self.preview(key, seed=seed, decisions=decisions)
        if preview.confirmed is not None:
            raise GameRuleError(f"{preview.words}已经确认过结算（事件 {preview.confirmed.seq}）",
                                hint=f"如需更正，先撤销：tracker event GAME.toml undo --seq {preview.confirmed.seq}")
        drafts = record(preview.result, preview.table, key, at=self.at(key), recorded_by=self.director,
                        seed=seed, decisions=decisions or {})
        return preview, self._append(drafts)


def _members(actor: str) -> tuple[str, ...]:
    from tracker.engine.night.model import Action

    return Action(actor, "").members


__all__ = ["NightDesk", "NightPreview", "phase_key"]

"""The game at a glance: the fold of the log, each day as it stands, and each player's cards.

What `tracker state` prints and the TUI's 玩家 screen draws, as one typed answer; the CLI turns it
into its JSON document (:func:`tracker.cli.json_docs.state_json`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tracker.engine.days import DayStatus
from tracker.engine.state import GameState

if TYPE_CHECKING:  # the services a summary is drawn from (tracker.service composes them)
    from tracker.service.cards import Cards, PlayerStanding
    from tracker.service.gamelog import GameLog


@dataclass(frozen=True, slots=True)
class CardCount:
    blue: int
    yellow: int
    red: int


@dataclass(frozen=True, slots=True)
class GameSummary:
    state: GameState
    days: tuple[DayStatus, ...]
    """The game file's days as :meth:`GameLog.day_status` sees them (effective closes, acceleration
    in force, the 进程帖's request count, suggestions)."""
    cards: Mapping[str, CardCount]
    """Cards held per player: the ledger's standing, or the reds the state counted without it."""
    marks: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Statuses and marks the nights put on each player (净化, 绑架, 中毒, 英雄：X …): :mod:`tracker.engine.marks`."""


def summary(log: GameLog, cards: Cards) -> GameSummary:
    state = log.state()
    standing: Mapping[str, PlayerStanding]
    try:
        standing = cards.standing()
    except Exception:  # the ledger is its own area: the state still answers without it
        standing = {}
    counts: dict[str, CardCount] = {}
    for name, p in state.players.items():
        s = standing.get(name)
        counts[name] = CardCount(s.blue, s.yellow, s.red) if s is not None else CardCount(0, 0, p.reds)
    from tracker.engine.marks import standing_marks

    marks = standing_marks(log.events(), list(state.players))
    return GameSummary(state=state, days=tuple(log.day_statuses()), cards=counts,
                       marks={name: tuple(m) for name, m in marks.items()})

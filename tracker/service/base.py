"""What every area of the service shares: the game file, the store, the ruleset, the clock.

The CLI and the TUI hold one :class:`tracker.service.Service`; widgets and commands never open
the database themselves. The store's engine is built here, once, from the game file and ``--db``
(never at import time).
"""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Self

from tracker.clock import Clock, SystemClock
from tracker.config import GameConfig, load_game

if TYPE_CHECKING:
    from tracker.engine.ruleset import Ruleset
    from tracker.store.db import Store


class ServiceBase:
    def __init__(self, game: GameConfig, store: Store, clock: Clock | None = None) -> None:
        self.game = game
        self.store = store
        self.clock: Clock = clock or SystemClock()

    @classmethod
    def open(cls, game_path: str | Path, db_url: str | None = None, clock: Clock | None = None) -> Self:
        from tracker.engine.ruleset import load_ruleset
        from tracker.store.db import Store

        game = load_game(game_path)
        # The ruleset is checked before the database is touched: a typo in its id or file must not
        # leave an empty GAME.db behind.
        ruleset = load_ruleset(game.ruleset, base_dir=game.path.parent if game.path is not None else None,
                               options=game.options)
        url = db_url or f"sqlite:///{game.default_db_path()}"
        svc = cls(game, Store.open(url), clock)
        svc.__dict__["ruleset"] = ruleset  # fills the cached_property
        return svc

    @cached_property
    def ruleset(self) -> Ruleset:
        from tracker.engine.ruleset import load_ruleset

        base = self.game.path.parent if self.game.path is not None else None
        return load_ruleset(self.game.ruleset, base_dir=base, options=self.game.options)

    def close(self) -> None:
        self.store.close()

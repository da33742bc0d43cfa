"""What every service of the tracker is built over: the game file, the store, the clock, the ruleset.

One :class:`GameContext` per opened game; each small service (``GameLog``, ``Votes``, ``Cards``
…) receives it, and the other services it needs, in its constructor. The store's engine is built
by :meth:`GameContext.open`, once, from the game file and ``--db`` (never at import time).
"""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from tracker.clock import Clock, SystemClock
from tracker.config import GameConfig, load_game
from tracker.store.db import Store

if TYPE_CHECKING:  # the ruleset's models load with the first ruleset: `tracker crawl` needs none
    from tracker.engine.ruleset import Ruleset


class GameContext:
    def __init__(self, game: GameConfig, store: Store, clock: Clock | None = None, *,
                 ruleset: Ruleset | None = None) -> None:
        self.game = game
        self.store = store
        self.clock: Clock = clock or SystemClock()
        if ruleset is not None:
            self.__dict__["ruleset"] = ruleset  # already loaded (and checked): fills the cached_property

    @classmethod
    def open(cls, game_path: str | Path, db_url: str | None = None, clock: Clock | None = None, *,
             check_ruleset: bool = True) -> GameContext:
        """The game file read, then (``check_ruleset``) its ruleset, then the store.

        The ruleset is checked before the database is touched: a typo in its id or file must not
        leave an empty GAME.db behind. ``check_ruleset=False`` is for `tracker crawl`, which reads
        no rule: it stores what the forum shows whatever the ruleset says, and pays neither the
        ruleset's models nor reading it (the ruleset still loads on first use, if something asks).
        """
        game = load_game(game_path)
        ruleset = None
        if check_ruleset:
            from tracker.engine.ruleset import load_ruleset

            ruleset = load_ruleset(game.ruleset, base_dir=game.path.parent if game.path is not None else None,
                                   options=game.options)
        url = db_url or f"sqlite:///{game.default_db_path()}"
        return cls(game, Store.open(url), clock, ruleset=ruleset)

    @cached_property
    def ruleset(self) -> Ruleset:
        """Loaded on first use when the context was built in memory (the TUI shows a bad ruleset id)
        or opened without checking it (`tracker crawl`)."""
        from tracker.engine.ruleset import load_ruleset

        return load_ruleset(self.game.ruleset, base_dir=self.base_dir, options=self.game.options)

    @property
    def base_dir(self) -> Path | None:
        """Where the game file lives: rulesets, lexicons and reports are found beside it."""
        return self.game.path.parent if self.game.path is not None else None

    def other_ruleset(self, ruleset_id: str | None) -> Ruleset:
        """The game's ruleset, or another one by id or path (``tally --ruleset``)."""
        from tracker.engine.ruleset import load_ruleset

        return self.ruleset if ruleset_id is None else load_ruleset(ruleset_id, base_dir=self.base_dir)

    def director(self, by: str | None = None) -> str:
        """Who records a decision: the one named, else the game file's first director."""
        if by and by.strip():
            return by.strip()
        return self.game.directors[0] if self.game.directors else "导演"

    def close(self) -> None:
        self.store.close()

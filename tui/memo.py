"""Answers of slow service calls kept until the store changes (a crawl finished, a decision written).

Why: the 潜水 count takes seconds on a 30,000-post game and both the sidebar badge and the screen
ask for it; switching screens must not recompute it. Two workers asking for the same key at once
compute it once (the second waits for the first). A value computed while :meth:`clear` ran is not
kept: it may have read the store before the change.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

T = TypeVar("T")


class Memo:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._generation = 0
        self._values: dict[Hashable, Any] = {}
        self._key_locks: dict[Hashable, threading.Lock] = {}

    def get(self, key: Hashable, compute: Callable[[], T]) -> T:
        with self._lock:
            if key in self._values:
                return self._values[key]  # type: ignore[no-any-return]
            key_lock = self._key_locks.setdefault(key, threading.Lock())
        with key_lock:
            with self._lock:
                if key in self._values:
                    return self._values[key]  # type: ignore[no-any-return]
                generation = self._generation
            value = compute()
            with self._lock:
                if generation == self._generation:
                    self._values[key] = value
            return value

    def peek(self, key: Hashable) -> Any:
        with self._lock:
            return self._values.get(key)

    def clear(self) -> None:
        with self._lock:
            self._generation += 1
            self._values.clear()

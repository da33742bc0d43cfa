"""Answers of slow service calls kept until the store changes (a crawl finished, a decision written).

Why: the 潜水 count takes seconds on a 30,000-post game and both the sidebar badge and the screen
ask for it; switching screens must not recompute it. Two workers asking for the same key at once
compute it once (the second waits for the first). A value computed while :meth:`clear` ran is not
kept: it may have read the store before the change. Values also expire after ``max_age`` seconds,
for writes the app is not told about (a `tracker watch` in another process crawling the same store).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable
from typing import TypeVar, cast

T = TypeVar("T")


class Memo:
    def __init__(self, max_age: float = 60.0) -> None:
        self.max_age = max_age
        self._lock = threading.Lock()
        self._generation = 0
        self._values: dict[Hashable, tuple[float, object]] = {}
        self._key_locks: dict[Hashable, threading.Lock] = {}

    def _fresh(self, key: Hashable) -> tuple[bool, object]:  # each key holds its own compute's type (get casts)
        hit = self._values.get(key)
        if hit is None or time.monotonic() - hit[0] > self.max_age:
            return False, None
        return True, hit[1]

    def get(self, key: Hashable, compute: Callable[[], T]) -> T:
        with self._lock:
            ok, value = self._fresh(key)
            if ok:
                return cast(T, value)  # the value compute() returned for this key
            key_lock = self._key_locks.setdefault(key, threading.Lock())
        with key_lock:
            with self._lock:
                ok, value = self._fresh(key)
                if ok:
                    return cast(T, value)  # the value compute() returned for this key
                generation = self._generation
            value = compute()
            with self._lock:
                if generation == self._generation:
                    self._values[key] = (time.monotonic(), value)
            return value

    def clear(self) -> None:
        with self._lock:
            self._generation += 1
            self._values.clear()

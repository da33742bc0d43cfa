"""Keep Python's full garbage collections off the keyboard's path.

A full (generation 2) collection scans every tracked object and stops the UI thread while it
runs: measured at ~140 ms each, 54 of them during a crawl of a 30,000-post game, on this 2-core
machine (benchmarks/bench_tui.py). Most of what it scans is the app itself: imported modules,
widgets, styles, the service, which live until the app exits. ``gc.freeze()`` moves everything
alive at that moment out of the collector's sight (CPython's own advice for long-lived state), so
later collections only scan what was made afterwards. Called once the first screen has its data
and again after each screen is first mounted: the points where long-lived objects were just made.
Reference counting still frees frozen objects; only cycles frozen before becoming garbage stay.

Measured (same benchmark): full collections during the crawl 54 → 56, but the longest 174 → 89 ms
and their total 7.6 → 2.7 s. Fewer, larger collections (a higher threshold) were worse: Textual's
rendering makes cyclic garbage steadily (strips with self-referencing caches, the virtual nodes
of component classes), ~400k objects per 90 s there, and one late collection took 650 ms.
"""

from __future__ import annotations

import gc


def freeze_long_lived() -> None:
    gc.freeze()

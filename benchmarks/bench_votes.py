"""票型 and 潜水 counts at the service level on a generated 30,000-post game (no TUI, no other workers).

Measures (medians over runs, this machine): tally_day(2) first and again on one service (the second
re-uses the parsed-ballot memo), lurkers(2) after that tally, and lurkers(2) on a fresh service (cold:
day 1's vote is counted once for its own 潜水 input and re-used for day 2's provisional election).
``--memo-off`` sets ``ballot_memo_size = 0`` (every post parsed every time, no cheap skip) to compare.

Run: .venv/bin/python benchmarks/bench_votes.py [--posts 30000] [--runs 3] [--memo-off]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_tui import generate  # noqa: E402
from tui_demo import open_demo  # noqa: E402

from tracker.service import Service  # noqa: E402


def _game(posts: int, memo_off: bool) -> Service:
    where = Path(tempfile.mkdtemp(prefix="bench-votes-"))
    svc = open_demo(where)
    if memo_off:
        svc.votes.ballot_memo_size = 0
    generate(svc, posts)
    return svc


def _timed(fn: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--posts", type=int, default=30_000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--memo-off", action="store_true")
    args = ap.parse_args()
    res: dict[str, list[float]] = {"tally first": [], "tally again": [], "lurkers after tally": [],
                                   "lurkers first (fresh service)": []}
    for _ in range(args.runs):
        svc = _game(args.posts, args.memo_off)
        res["tally first"].append(_timed(lambda: svc.votes.tally_day(2)))  # noqa: B023 - called at once
        res["tally again"].append(_timed(lambda: svc.votes.tally_day(2)))  # noqa: B023
        res["lurkers after tally"].append(_timed(lambda: svc.lurking.lurkers(2)))  # noqa: B023
        svc.close()
        fresh = _game(args.posts, args.memo_off)
        res["lurkers first (fresh service)"].append(_timed(lambda: fresh.lurking.lurkers(2)))  # noqa: B023
        fresh.close()
    for name, values in res.items():
        print(f"{name}: median {statistics.median(values) * 1000:.0f} ms "
              f"(runs: {', '.join(f'{v * 1000:.0f}' for v in values)})")


if __name__ == "__main__":
    main()

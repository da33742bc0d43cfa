"""Event-log folds and reads per request on a generated 30,000-post game, with the request's time.

Why: the service used to fold the whole event log once per player in ``standing()`` and several
times per 潜水 day; issue #11 asks for one read and one fold per request. This counts, for each
request the CLI or a TUI screen makes, how many times the store's event log was read
(``tracker.store.events.load_events``) and how the engine folded it, on a fresh service (nothing
memoised from an earlier request):

* folds: replays that start from the roster at the first event (``tracker.engine.state`` builds
  one ``_Fold`` per fold; a request's ``FoldPass`` is one);
* branches: states resumed from a pass's mark (``_Fold.branch``) rather than folded from the
  start, e.g. the log plus a provisional election resumes at the election's time;
* events applied: every event any fold or branch applied, against the log's length, so a branch
  that replays most of the log could not pass for free.

Run: .venv/bin/python benchmarks/bench_folds.py [--posts 30000] [--runs 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_tui import generate  # noqa: E402
from tui_demo import open_demo  # noqa: E402

import tracker.engine.state as engine_state  # noqa: E402
import tracker.store.events as store_events  # noqa: E402
from tracker.service import Service  # noqa: E402
from tui.gateway import Gateway  # noqa: E402


@contextmanager
def counting() -> Iterator[dict[str, int]]:
    """Count folds, branches, events applied and event-log reads while the block runs (module
    attributes patched, restored after)."""
    counts = {"folds": 0, "branches": 0, "applied": 0, "reads": 0}
    fold_cls = engine_state._Fold
    load = store_events.load_events

    class Counted(fold_cls):  # type: ignore[misc, valid-type]
        def __init__(self, *a: Any, **kw: Any) -> None:
            counts["folds"] += 1
            super().__init__(*a, **kw)

        def branch(self, *a: Any, **kw: Any) -> Any:
            counts["branches"] += 1
            return super().branch(*a, **kw)

        def apply(self, *a: Any, **kw: Any) -> Any:
            counts["applied"] += 1
            return super().apply(*a, **kw)

    def counted_load(*a: Any, **kw: Any) -> Any:
        counts["reads"] += 1
        return load(*a, **kw)

    # every module that imported the function by name holds its own reference: patch them all
    holders = [m for m in list(sys.modules.values())
               if getattr(m, "__name__", "").startswith("tracker") and getattr(m, "load_events", None) is load]
    engine_state._Fold = Counted  # type: ignore[misc]
    for m in holders:
        m.load_events = counted_load  # type: ignore[attr-defined]
    try:
        yield counts
    finally:
        engine_state._Fold = fold_cls  # type: ignore[misc]
        for m in holders:
            m.load_events = load  # type: ignore[attr-defined]


REQUESTS: dict[str, Callable[[Service], object]] = {
    "standing()": lambda s: s.standing(),
    "state()": lambda s: s.state(),
    "tally_day(2)": lambda s: s.tally_day(2),
    "lurkers(2)": lambda s: s.lurkers(2),
    "TUI 票型 screen (day 2)": lambda s: Gateway(s).tally(2),
    "TUI 潜水 screen (day 2)": lambda s: Gateway(s).lurkers(2),
    "TUI 玩家 screen": lambda s: Gateway(s).players(),
}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--posts", type=int, default=30_000)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    where = Path(tempfile.mkdtemp(prefix="bench-folds-"))
    svc = open_demo(where)
    generate(svc, args.posts)
    svc.close()
    game, db = where / "game.toml", f"sqlite:///{where / 'game.db'}"
    counter = Service.open(game, db_url=db, clock=svc.clock)
    logged = len(counter.log.events())
    counter.close()
    for name, request in REQUESTS.items():
        times: list[float] = []
        per_run: list[dict[str, int]] = []
        for _ in range(args.runs):
            fresh = Service.open(game, db_url=db, clock=svc.clock)
            with counting() as counted:
                t0 = time.perf_counter()
                request(fresh)
                times.append(time.perf_counter() - t0)
            per_run.append(counted)
            fresh.close()
        c = per_run[-1]
        print(f"{name}: {c['folds']} folds, {c['branches']} branches, {c['applied']} events applied "
              f"(log: {logged}), {c['reads']} event-log reads, median {statistics.median(times) * 1000:.0f} ms "
              f"(runs: {', '.join(f'{t * 1000:.0f}' for t in times)})")


if __name__ == "__main__":
    main()

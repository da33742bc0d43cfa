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
from tui_demo import FROZEN_AT, open_demo  # noqa: E402

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
    "standing()": lambda s: s.cards.standing(),
    "summary()": lambda s: s.summary(),
    "tally_day(2)": lambda s: s.votes.tally_day(2),
    "lurkers(2)": lambda s: s.lurking.lurkers(2),
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
    long_log(args.runs)


def long_log(runs: int, n: int = 500) -> None:
    """The benchmark game's log is short (10 events); a long one shows what the pass costs and saves:
    ``n`` events in batches of three, the pass against one fold, a cut from it against a fold of the cut."""
    import random
    from datetime import timedelta

    from tracker.config import PlayerConfig
    from tracker.engine.events import make_draft
    from tracker.engine.fold_pass import FoldPass
    from tracker.engine.ruleset import load_ruleset
    from tracker.engine.state import fold

    rs = load_ruleset("luoluo-m19")
    players = [PlayerConfig(name=f"玩家{i:02d}", role="村民") for i in range(20)]
    rnd = random.Random(1)
    start = FROZEN_AT - timedelta(days=30)
    log = [make_draft("action", at=start + timedelta(minutes=10 * (seq // 3)), player=f"玩家{rnd.randrange(20):02d}",
                      data={"name": "查验"}, recorded_by="bench").to_event(seq=seq) for seq in range(1, n + 1)]
    cuts = sorted({e.at for e in log})[::10]

    def best(f: Callable[[], object]) -> float:
        out = []
        for _ in range(max(runs, 5)):
            t0 = time.perf_counter()
            f()
            out.append(time.perf_counter() - t0)
        return min(out) * 1000

    folded = best(lambda: fold(rs, players, log))
    passed = best(lambda: FoldPass(rs, players, log))
    p = FoldPass(rs, players, log)
    cut_pass = best(lambda: [p.state([e for e in log if e.at < c]) for c in cuts]) / len(cuts)
    cut_fold = best(lambda: [fold(rs, players, [e for e in log if e.at < c]) for c in cuts]) / len(cuts)
    print(f"a {n}-event log ({len({e.at for e in log})} batches), fastest of {max(runs, 5)}: a fold {folded:.1f} ms, "
          f"the pass {passed:.1f} ms; a cut from the pass {cut_pass:.2f} ms, a cut folded {cut_fold:.2f} ms")


if __name__ == "__main__":
    main()

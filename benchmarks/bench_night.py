"""How long one night takes to settle, per game, on the worked examples' tables.

Run on demand: `.venv/bin/python benchmarks/bench_night.py [repeats]`. For each shared example
whose game has night hooks, settles its table and submissions `repeats` times (the catalog loaded
once, as in a long-running TUI) and prints the median and the worst per night. The 213 tables
have 24 players, the largest the posts allow. Target (issue 16): a 24-player night under 20 ms.
"""

from __future__ import annotations

import importlib.util
import json
import statistics
import sys
import time
from pathlib import Path

from tracker.engine.night import load_catalog, settle
from tracker.engine.night.games import module_name
from tracker.engine.night.scenario import load, validate
from tracker.engine.ruleset import load_ruleset

ROOT = Path(__file__).resolve().parent.parent
GAMES = {"000_4699463e7e8ec455.txt": "dnf-107", "001_a3a63ea6957c226f.txt": "sanguo-213",
         "002_558fa90179aecb96.txt": "luoluo-m19", "003_7c6681f418104c25.txt": "gourmet-m160",
         "004_757e71c89bc341d0.txt": "accel-m65"}


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    scenarios = json.loads((ROOT / "tests/fixtures/night/examples.json").read_text("utf-8"))["scenarios"]
    for sc in scenarios:
        rid = GAMES[sc["game"]]
        if importlib.util.find_spec(module_name(rid)) is None:
            print(f"{sc['id']}: no night hooks for {rid}")
            continue
        rs = load_ruleset(rid)
        catalog = load_catalog(rid, rs.night_path, tuple(r.name for r in rs.roles))
        started = time.perf_counter()
        validate(sc)
        table, actions = load(sc)
        read_ms = (time.perf_counter() - started) * 1000
        times = []
        for _ in range(repeats):
            t0 = time.perf_counter()
            settle(catalog, table, actions, seed=1)
            times.append((time.perf_counter() - t0) * 1000)
        print(f"{sc['id']} ({len(table.players)} players, {len(actions)} submissions): "
              f"median {statistics.median(times):.2f} ms, max {max(times):.2f} ms; schema check + read {read_ms:.1f} ms")


if __name__ == "__main__":
    main()

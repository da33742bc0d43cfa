"""The fixed cost of every read-only command, as a ratio to the floor of its imports.

Run on demand: `.venv/bin/python benchmarks/bench_cli_start.py [runs]`. Builds the demo game once
(`tracker demo --no-tui --dir`), then times, from fresh interpreters interleaved so machine load
hits all alike, the floor `python -c "import sqlalchemy, httpx, selectolax.lexbor"` and each of
`state`, `tally --day 1`, `lurkers --day 1`, `flags`, `cards` with `--json` on the demo game.
Prints each command's median wall time and its ratio to the floor's median, PASS or FAIL against
the target (issue 13: ≤ 2×), and exits 1 if any command fails it. The CPU time (user + system) of
each is printed beside it: on a busy machine it moves less than the wall time does.

Python's bytecode cache matters here: with PYTHONDONTWRITEBYTECODE set (as on some shells) an
editable install recompiles the tracker on every call, which no installed copy does; the script
unsets it so it measures what a director's `pip install .` runs.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

COMMANDS = (["state"], ["tally", "--day", "1"], ["lurkers", "--day", "1"], ["flags"], ["cards"])
TARGET = 2.0  # issue 13: every read-only command within 2× the floor


def timed(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child: user + system)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(argv, capture_output=True, check=True, env=env)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    tracker = str(Path(sys.executable).with_name("tracker"))
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([tracker, "demo", "--no-tui", "--dir", tmp], capture_output=True, check=True, env=env)
        game = str(Path(tmp) / "demo.toml")
        floor_argv = [sys.executable, "-c", "import sqlalchemy, httpx, selectolax.lexbor"]
        walls: dict[str, list[float]] = {"floor": []}
        cpus: dict[str, list[float]] = {"floor": []}
        for cmd in COMMANDS:  # warm the bytecode cache once
            subprocess.run([tracker, *cmd, game, "--json"], capture_output=True, check=True, env=env)
        for _ in range(runs):
            for name, argv in [("floor", floor_argv)] + [(" ".join(c), [tracker, *c, game, "--json"]) for c in COMMANDS]:
                wall, cpu = timed(argv, env)
                walls.setdefault(name, []).append(wall)
                cpus.setdefault(name, []).append(cpu)
    floor, floor_cpu = statistics.median(walls["floor"]), statistics.median(cpus["floor"])
    print(f"floor (import sqlalchemy, httpx, selectolax.lexbor): {floor * 1000:.0f} ms median of {runs} "
          f"(CPU {floor_cpu * 1000:.0f} ms)")
    failed = []
    for name, values in walls.items():
        if name == "floor":
            continue
        med, cpu = statistics.median(values), statistics.median(cpus[name])
        ok = med / floor <= TARGET
        if not ok:
            failed.append(name)
        print(f"tracker {name} --json: {med * 1000:.0f} ms median, {med / floor:.2f}× the floor "
              f"{'PASS' if ok else 'FAIL'} (≤ {TARGET:g}×); CPU {cpu * 1000:.0f} ms, {cpu / floor_cpu:.2f}×")
    print(f"{'all within' if not failed else 'over'} {TARGET:g}× the floor" + (f": {', '.join(failed)}" if failed else ""))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

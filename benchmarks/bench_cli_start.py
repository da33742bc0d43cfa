"""The fixed cost of every read-only command, as a ratio to the floor of its imports.

Run on demand: `.venv/bin/python benchmarks/bench_cli_start.py [runs]`. Builds the demo game once
(`tracker demo --no-tui --dir`), then times, from fresh interpreters interleaved so machine load
hits all alike, the floor `python -c "import sqlalchemy, httpx, selectolax.lexbor"` and each of
`state`, `tally --day 1`, `lurkers --day 1`, `flags`, `cards` with `--json` on the demo game.
Prints each command's median and its ratio to the floor's median (target, issue 13: ≤ 2×).

Python's bytecode cache matters here: with PYTHONDONTWRITEBYTECODE set (as on some shells) an
editable install recompiles the tracker on every call, which no installed copy does; the script
unsets it so it measures what a director's `pip install .` runs.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

COMMANDS = (["state"], ["tally", "--day", "1"], ["lurkers", "--day", "1"], ["flags"], ["cards"])


def timed(argv: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    subprocess.run(argv, capture_output=True, check=True, env=env)
    return time.perf_counter() - started


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    tracker = str(Path(sys.executable).with_name("tracker"))
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([tracker, "demo", "--no-tui", "--dir", tmp], capture_output=True, check=True, env=env)
        game = str(Path(tmp) / "demo.toml")
        floor_argv = [sys.executable, "-c", "import sqlalchemy, httpx, selectolax.lexbor"]
        times: dict[str, list[float]] = {"floor": []}
        for cmd in COMMANDS:  # warm the bytecode cache once
            subprocess.run([tracker, *cmd, game, "--json"], capture_output=True, check=True, env=env)
        for _ in range(runs):
            times["floor"].append(timed(floor_argv, env))
            for cmd in COMMANDS:
                times.setdefault(" ".join(cmd), []).append(timed([tracker, *cmd, game, "--json"], env))
    floor = statistics.median(times["floor"])
    print(f"floor (import sqlalchemy, httpx, selectolax.lexbor): {floor * 1000:.0f} ms median of {runs}")
    for name, values in times.items():
        if name != "floor":
            med = statistics.median(values)
            print(f"tracker {name} --json: {med * 1000:.0f} ms median, {med / floor:.2f}× the floor")


if __name__ == "__main__":
    main()

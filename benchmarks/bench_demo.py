"""How long `tracker demo --no-tui` takes, from a fresh interpreter, as a newcomer runs it.

Run on demand: `.venv/bin/python benchmarks/bench_demo.py [runs]`. Prints each run's wall time
(start-up, replay server, crawl, tally and confirm, flags, lurkers, reports) and the median.
Target (issue 7): under 10 s including the crawl.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def one() -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        out = subprocess.run([str(Path(sys.executable).with_name("tracker")), "demo", "--json", "--dir", tmp],
                             capture_output=True, text=True, check=True).stdout
        wall = time.perf_counter() - started
    return wall, float(json.loads(out)["seconds"])


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    walls, jobs = [], []
    for i in range(runs):
        wall, job = one()
        walls.append(wall)
        jobs.append(job)
        print(f"run {i + 1}: {wall:.2f} s wall ({job:.2f} s inside the job, the rest is start-up)")
    print(f"median: {statistics.median(walls):.2f} s wall, {statistics.median(jobs):.2f} s job; "
          f"min {min(walls):.2f} s")


if __name__ == "__main__":
    main()

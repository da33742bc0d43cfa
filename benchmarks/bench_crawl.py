"""What `tracker crawl` costs beyond fetching and parsing, as ratios measured in one run (issues 13, 22).

A generated 3,000-post, 300-page game (a 2,700-post discussion and a 300-post vote thread, templated
from the captured pages by ``synth_forum.Template``) is served over loopback by
``benchmarks/synth_forum.py --cache`` in another process (a real forum is another machine; the
server's CPU is not the client's). Each round times, interleaved so machine load hits all alike:

(a) the floor: a fresh interpreter fetching the very documents the crawl fetches (the listings, then
    the desktop pages) one by one with a plain ``httpx.Client``, parsing each page with
    ``LexborHTMLParser`` and each listing with ``json.loads``, nothing more;
(b) a BeautifulSoup(html.parser) parse alone of the same desktop pages (in this process, no network);
(c) ``tracker crawl GAME.toml --db … --json`` as cron runs it: a fresh interpreter, the game file's
    ``[crawl] delay = 0``, raw pages kept. A first crawl starts from a copy of an already-migrated
    empty database (creating the schema is the first command's one-time cost, timed once, printed
    apart, not the crawl's).

(a) and (c) are both wall times of whole processes, so both pay the interpreter's start; the
floor's own in-process time is printed too, and each process's CPU (user + system) and peak memory
(its own maximum resident set, from ``wait4``), which a shared machine's load disturbs less than
wall time. Prints medians and the ratios (c)/(a) (target ≤ 2.5) and (b)/(c) (target ≥ 5), each in wall time
and in CPU (the parse's own ``time.process_time``). Each crawl
is checked against what the forum holds: posts new, changed and deleted, requests, status ok.

    .venv/bin/python benchmarks/bench_crawl.py [--runs 3] [--compare DIR] [--no-bs] [--profile OUT.prof] [--big]

``--big`` (issue 22) crawls what a real finished game holds instead (``benchmarks/synth_game.py``):
10 days, each a 270-post discussion and a 45-post vote thread (3,150 posts, 20 threads, 320 desktop
pages, 20 listings), with long posts, quotes, posts edited before the crawl (Discuz's 本帖最后由 …
编辑 marker on the desktop only), mobile messages that differ from the desktop's, and deleted posts.
It times two crawls, each against its own floor and BeautifulSoup:

- the first crawl, into an empty store;
- the re-crawl, into a copy of the store that first crawl left, after the forum moved on (epoch 2:
  5% of posts edited by their author, 0.5% silently by the director, 1% deleted so later floors
  renumber, the last day's threads grown by 40 posts). Its floor fetches the same 20 listings and
  the desktop pages that hold a change, which is what the crawl must fetch, no more.

``--profile`` runs one more crawl of each kind under cProfile (in the CLI's process) and writes the stats.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from synth_forum import PER_PAGE, Template  # noqa: E402

SIZES = {2001: 2700, 2002: 300}  # one 3,000-post day: discussion and vote, 270 + 30 desktop pages
LISTING_PPP = 1000  # what the crawler asks a thread it has never seen (tracker.scraper.plan.LISTING_PPP)

GAME = """\
[game]
name = "bench-crawl"
ruleset = "accel-m65"
forum = "{url}"

[crawl]
delay = 0
concurrency = 2
"""
DAY = """
[[days]]
day = {day}
discussion = {discussion}
vote = {vote}
opens = "2025-03-{open:02d}T10:00:00+08:00"
closes = "2025-03-{close:02d}T22:00:00+08:00"
"""


def game_text(url: str, tids: list[int]) -> str:
    days = [DAY.format(day=i + 1, discussion=tids[2 * i], vote=tids[2 * i + 1], open=2 * i + 1, close=2 * i + 2)
            for i in range(len(tids) // 2)]
    return GAME.format(url=url) + "".join(days)


def listing_path(tid: int, page: int = 1) -> str:
    return f"api/mobile/index.php?version=4&module=viewthread&tid={tid}&page={page}&ppp={LISTING_PPP}"


def desktop_path(tid: int, page: int) -> str:
    return f"forum.php?mod=viewthread&tid={tid}&page={page}"


@dataclass
class Phase:
    """One kind of crawl timed against its floor: what it fetches and what it must find."""

    name: str
    paths: list[str]  # the documents the crawl fetches, in its order (the floor fetches the same)
    floor_count: int  # listed posts + desktop pages with a #postlist: the floor's check of its work
    bs_pages: list[bytes]
    expect: dict[str, int]  # report fields the crawl must show
    epoch: int = 1
    start_db: Path | None = None  # a copy of it is crawled into; None: the empty store
    floor: list[float] = field(default_factory=list)
    floor_cpu: list[float] = field(default_factory=list)
    floor_rss: list[float] = field(default_factory=list)
    inproc: list[float] = field(default_factory=list)
    crawl: list[float] = field(default_factory=list)
    crawl_cpu: list[float] = field(default_factory=list)
    crawl_rss: list[float] = field(default_factory=list)
    other: list[float] = field(default_factory=list)
    other_cpu: list[float] = field(default_factory=list)
    bs: list[float] = field(default_factory=list)
    bs_cpu: list[float] = field(default_factory=list)


def small_phases() -> tuple[list[str], list[Phase]]:
    paths: list[str] = []
    for tid, n in SIZES.items():
        paths.extend(listing_path(tid, page) for page in range(1, n // LISTING_PPP + 2))  # on until a short page
        paths.extend(desktop_path(tid, p) for p in range(1, -(-n // PER_PAGE) + 1))
    tpl = Template()
    pages = [tpl.desktop(tid, p, -(-n // PER_PAGE), n) for tid, n in SIZES.items()
             for p in range(1, -(-n // PER_PAGE) + 1)]
    count = sum(SIZES.values()) + len(pages)
    return list(SIZES), [Phase("first crawl", paths, count, pages, {"posts_new": sum(SIZES.values()),
                                                                     "requests": len(paths)})]


def big_phases() -> tuple[list[str], list[Phase]]:
    from synth_game import Game

    game = Game()
    first: list[str] = []
    pages1: list[bytes] = []
    for tid in game.tids:
        first.append(listing_path(tid))
        first.extend(desktop_path(tid, p) for p in range(1, game.pages(1, tid) + 1))
        pages1.extend(game.desktop(1, tid, p) for p in range(1, game.pages(1, tid) + 1))
    again: list[str] = []
    pages2: list[bytes] = []
    for tid in game.tids:
        again.append(listing_path(tid))  # ppp 1000 still holds every thread (listing_ppp_for)
        again.extend(desktop_path(tid, p) for p in game.changed_pages(tid))
        pages2.extend(game.desktop(2, tid, p) for p in game.changed_pages(tid))
    new, edited, deleted = map(len, game.changes())
    phases = [
        Phase("first crawl", first, game.posts(1) + len(pages1), pages1,
              {"posts_new": game.posts(1), "posts_changed": 0, "posts_deleted": 0, "requests": len(first)}),
        Phase("re-crawl", again, game.posts(2) + len(pages2), pages2,
              {"posts_new": new, "posts_changed": edited, "posts_deleted": deleted, "requests": len(again)},
              epoch=2),
    ]
    return [str(t) for t in game.tids], phases


FLOOR = """\
import json, sys, time
t0 = time.perf_counter()
import httpx
from selectolax.lexbor import LexborHTMLParser
base, paths = sys.argv[1], sys.argv[2:]
n = 0
with httpx.Client(base_url=base) as client:
    for path in paths:
        body = client.get(path).content
        if "api/mobile" in path:
            n += len(json.loads(body)["Variables"]["postlist"])
        else:
            n += LexborHTMLParser(body).css_first("#postlist") is not None
print(n, time.perf_counter() - t0)
""" + '''
for line in open("/proc/self/status"):
    if line.startswith("VmHWM:"):
        print(int(line.split()[1]) / 1024)
'''
# The peak resident set of the process itself, from its own mm: wait4's ru_maxrss would carry the
# forking benchmark's own size over the exec.
PEAK = """import atexit, runpy, sys
def peak():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            sys.stderr.write(f"\\nPEAK-MB {int(line.split()[1]) / 1024}\\n")
atexit.register(peak)
sys.argv[0] = "tracker"
runpy.run_module("tracker", run_name="__main__", alter_sys=True)
"""


def start_server(big: bool) -> tuple[subprocess.Popen[str], str]:
    if big:
        cmd = [sys.executable, str(ROOT / "benchmarks" / "synth_game.py")]
    else:
        cmd = [sys.executable, str(ROOT / "benchmarks" / "synth_forum.py"), "--cache",
               *(f"{t}:{n}" for t, n in SIZES.items())]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    url = proc.stdout.readline().strip()
    if not url.startswith("http://127.0.0.1:"):
        proc.kill()
        raise SystemExit(f"synth forum did not start: {url!r}")
    return proc, url


def set_epoch(url: str, epoch: int) -> None:
    with urllib.request.urlopen(f"{url}__epoch/{epoch}") as answer:
        answer.read()


def run(cmd: list[str], env: dict[str, str], cwd: Path | None = None) -> tuple[int, str, str, float, float]:
    """(exit code, stdout, stderr, wall, CPU) of one child, from its own rusage (``wait4``)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, env=env, cwd=cwd)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return proc.returncode, out.read().decode(), err.read().decode(), wall, usage.ru_utime + usage.ru_stime


def run_floor(url: str, phase: Phase, env: dict[str, str]) -> tuple[float, float, float, float]:
    """(wall, CPU, peak MB, in-process wall) of the floor in a fresh interpreter."""
    code, out, err, wall, cpu = run([sys.executable, "-c", FLOOR, url, *phase.paths], env)
    if code != 0:
        raise SystemExit(f"floor failed:\n{err}")
    n, inside, rss = out.split()
    assert int(n) == phase.floor_count, (n, phase.floor_count)
    return wall, cpu, float(rss), float(inside)


def run_crawl(game: Path, phase: Phase, empty_db: Path, work: Path, env: dict[str, str], root: Path = ROOT,
              profile: Path | None = None) -> tuple[float, float, float]:
    """``python -m tracker crawl`` with the tracker imported from ``root`` (this checkout, or another
    one to compare with: ``--compare``). Run from ``root``: ``-m`` puts the working directory first
    on ``sys.path``, before PYTHONPATH and the editable install. Returns (wall, CPU, peak MB)."""
    db = work / "crawl.db"
    for p in work.glob("crawl.db*"):
        p.unlink()
    shutil.copyfile(phase.start_db or empty_db, db)
    tracker = [sys.executable, "-c", PEAK]
    if profile is not None:
        tracker = [sys.executable, "-m", "cProfile", "-o", str(profile), "-m", "tracker"]
    code, out, err, wall, cpu = run([*tracker, "crawl", str(game), "--db", f"sqlite:///{db}", "--json"],
                                         {**env, "PYTHONPATH": str(root)}, cwd=root)
    if code != 0:
        raise SystemExit(f"tracker crawl failed:\n{out}\n{err}")
    peak = [line for line in err.splitlines() if line.startswith("PEAK-MB ")]
    rss = float(peak[-1].split()[1]) if peak else 0.0
    report = json.loads(out)
    assert report["status"] == "ok", report["status"]
    got = {k: report[k] for k in phase.expect}
    assert got == phase.expect, (phase.name, got, phase.expect)
    return wall, cpu, rss


def run_bs(pages: list[bytes]) -> tuple[float, float]:
    """(wall, CPU) of the parse: its CPU (``time.process_time``, this process only) is what the
    crawl's CPU is compared with when machine load makes wall times drift."""
    from bs4 import BeautifulSoup

    started, cpu = time.perf_counter(), time.process_time()
    for body in pages:
        BeautifulSoup(body, "html.parser")
    return time.perf_counter() - started, time.process_time() - cpu


def report(phase: Phase, compare: Path | None) -> None:
    fmt = ", ".join
    med = statistics.median
    f, c, fc, cc = med(phase.floor), med(phase.crawl), med(phase.floor_cpu), med(phase.crawl_cpu)
    print(f"-- {phase.name}: {len(phase.paths)} requests, {len(phase.bs_pages)} desktop pages "
          f"({sum(map(len, phase.bs_pages)) / 1e6:.1f} MB)")
    print(f"(a) floor, httpx.Client + lexbor, whole process: {f:.2f} s median [{fmt(f'{x:.2f}' for x in phase.floor)}]"
          f" (in-process {med(phase.inproc):.2f} s; CPU {fc:.2f} s; peak {max(phase.floor_rss):.0f} MB)")
    print(f"(c) tracker crawl, whole process:                 {c:.2f} s median [{fmt(f'{x:.2f}' for x in phase.crawl)}]"
          f" (CPU {cc:.2f} s [{fmt(f'{x:.2f}' for x in phase.crawl_cpu)}]; peak {max(phase.crawl_rss):.0f} MB)")
    print(f"(c)/(a) = {c / f:.2f}×  [target ≤ 2.5: {'OK' if c / f <= 2.5 else 'MISSED'}]; in CPU {cc / fc:.2f}× "
          f"[{'OK' if cc / fc <= 2.5 else 'MISSED'}]")
    if phase.other:
        o, oc = med(phase.other), med(phase.other_cpu)
        print(f"(c0) tracker crawl of {compare}: {o:.2f} s median [{fmt(f'{x:.2f}' for x in phase.other)}]"
              f" (CPU {oc:.2f} s); (c0)/(a) = {o / f:.2f}× (in CPU {oc / fc:.2f}×), (c)/(c0) = {c / o:.2f}")
    if phase.bs:
        b, bc = med(phase.bs), med(phase.bs_cpu)
        print(f"(b) BeautifulSoup(html.parser) parse alone:        {b:.2f} s median [{fmt(f'{x:.2f}' for x in phase.bs)}]"
              f" (CPU {bc:.2f} s [{fmt(f'{x:.2f}' for x in phase.bs_cpu)}])")
        print(f"(b)/(c) = {b / c:.2f}×  [target ≥ 5: {'OK' if b / c >= 5 else 'MISSED'}]; in CPU {bc / cc:.2f}× "
              f"[{'OK' if bc / cc >= 5 else 'MISSED'}]")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--profile", type=Path, default=None, help="also profile one crawl of each kind: OUT.<n>.prof")
    ap.add_argument("--no-bs", action="store_true", help="skip the BeautifulSoup parse")
    ap.add_argument("--big", action="store_true", help="a real 10-day game's shape and edits, crawled twice (issue 22)")
    ap.add_argument("--compare", type=Path, default=None, metavar="DIR",
                    help="also time the crawl of another checkout (e.g. `git archive main | tar -x -C DIR`)")
    args = ap.parse_args()
    tids, phases = big_phases() if args.big else small_phases()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    print(f"machine load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
    server, url = start_server(args.big)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp)
            game = work / "game.toml"
            game.write_text(game_text(url, [int(t) for t in tids]), encoding="utf-8")
            from tracker.store.db import Store

            empty = work / "empty.db"
            started = time.perf_counter()
            Store.open(f"sqlite:///{empty}").close()
            print(f"creating the empty store's schema (once, not timed below): {time.perf_counter() - started:.2f} s")
            print(f"game: {len(tids)} threads, server {url}")
            switch: Callable[[int], None] = (lambda e: set_epoch(url, e)) if args.big else (lambda e: None)
            # warm: the server's documents, the bytecode cache, the page cache; the re-crawl's store
            for i, phase in enumerate(phases):
                switch(phase.epoch)
                run_floor(url, phase, env)
                run_crawl(game, phase, empty, work, env)
                if i + 1 < len(phases):
                    kept = phases[i + 1].start_db = work / f"after-{i}.db"
                    shutil.copyfile(work / "crawl.db", kept)
                if args.compare is not None:
                    run_crawl(game, phase, empty, work, env, root=args.compare)
            for _ in range(args.runs):
                for phase in phases:
                    switch(phase.epoch)
                    wall, cpu, rss, inside = run_floor(url, phase, env)
                    phase.floor.append(wall)
                    phase.floor_cpu.append(cpu)
                    phase.floor_rss.append(rss)
                    phase.inproc.append(inside)
                    wall, cpu, rss = run_crawl(game, phase, empty, work, env)
                    phase.crawl.append(wall)
                    phase.crawl_cpu.append(cpu)
                    phase.crawl_rss.append(rss)
                    if args.compare is not None:
                        wall, cpu, _ = run_crawl(game, phase, empty, work, env, root=args.compare)
                        phase.other.append(wall)
                        phase.other_cpu.append(cpu)
                    if not args.no_bs:
                        wall, cpu = run_bs(phase.bs_pages)
                        phase.bs.append(wall)
                        phase.bs_cpu.append(cpu)
            for phase in phases:
                report(phase, args.compare)
            if args.profile is not None:
                for i, phase in enumerate(phases):
                    switch(phase.epoch)
                    out = args.profile.with_suffix(f".{i}{args.profile.suffix}")
                    run_crawl(game, phase, empty, work, env, profile=out)
                    print(f"profile of one {phase.name}: {out}")
            print(f"machine load average at the end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    finally:
        server.kill()
        server.wait()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""What `tracker crawl` costs beyond fetching and parsing, as ratios measured in one run (issue 13).

A generated 3,000-post, 300-page game (a 2,700-post discussion and a 300-post vote thread, templated
from the captured pages by ``synth_forum.Template``) is served over loopback by
``benchmarks/synth_forum.py --cache`` in another process (a real forum is another machine; the
server's CPU is not the client's). Each round times, interleaved so machine load hits all alike:

(a) the floor: a fresh interpreter fetching the very documents the crawl fetches (4 listing pages
    at ppp 1000, then the 300 desktop pages) one by one with a plain ``httpx.Client``, parsing each
    page with ``LexborHTMLParser`` and each listing with ``json.loads``, nothing more;
(b) a BeautifulSoup(html.parser) parse alone of the same 300 pages (in this process, no network);
(c) ``tracker crawl GAME.toml --db … --json`` into an empty store, as cron runs it: a fresh
    interpreter, the game file's ``[crawl] delay = 0``, raw pages kept. The store is a copy of an
    already-migrated empty database: creating the schema is the first command's one-time cost
    (timed once, printed apart), not the crawl's.

(a) and (c) are both wall times of whole processes, so both pay the interpreter's start; the
floor's own in-process time is printed too, and each process's CPU (user + system), which a shared
machine's load disturbs less than wall time. Prints medians and the ratios (c)/(a) (target ≤ 2.5)
and (b)/(c) (target ≥ 5). Each crawl is checked: 3,000 new posts, 304 requests, status ok.

    .venv/bin/python benchmarks/bench_crawl.py [--runs 3] [--compare DIR] [--no-bs] [--profile OUT.prof] [--big]

``--big`` (issue 22) crawls the shape of a real finished game instead: 10 days, each a 270-post
discussion and a 45-post vote thread (3,150 posts, 20 threads, 320 desktop pages, 20 listings),
so the per-thread costs (a listing, a plan, a thread row, a transaction) count 20 times, not twice.

``--profile`` runs one more crawl under cProfile (in the CLI's process) and writes the stats.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from synth_forum import PER_PAGE, Template  # noqa: E402

SIZES = {2001: 2700, 2002: 300}  # one 3,000-post day: discussion and vote, 270 + 30 desktop pages
# --big: ten days of a real game's shape (discussion 270, vote 45 posts a day)
BIG = {tid: n for day in range(10) for tid, n in ((3001 + 2 * day, 270), (3002 + 2 * day, 45))}
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


def game_text(url: str) -> str:
    tids = list(SIZES)
    days = [DAY.format(day=i + 1, discussion=tids[2 * i], vote=tids[2 * i + 1], open=2 * i + 1, close=2 * i + 2)
            for i in range(len(tids) // 2)]
    return GAME.format(url=url) + "".join(days)


def urls() -> list[str]:
    """The documents a first crawl of the game asks for, in the crawler's order."""
    out: list[str] = []
    for tid, n in SIZES.items():
        for page in range(1, n // LISTING_PPP + 2):  # pages on until a short page
            out.append(f"api/mobile/index.php?version=4&module=viewthread&tid={tid}&page={page}&ppp={LISTING_PPP}")
        out.extend(f"forum.php?mod=viewthread&tid={tid}&page={p}" for p in range(1, -(-n // PER_PAGE) + 1))
    return out


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
"""


def start_server() -> tuple[subprocess.Popen[str], str]:
    cmd = [sys.executable, str(ROOT / "benchmarks" / "synth_forum.py"), "--cache",
           *(f"{t}:{n}" for t, n in SIZES.items())]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    url = proc.stdout.readline().strip()
    if not url.startswith("http://127.0.0.1:"):
        proc.kill()
        raise SystemExit(f"synth forum did not start: {url!r}")
    return proc, url


def child_cpu() -> float:
    """User + system CPU of the children waited for so far (a child's cost, whatever the load)."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_floor(url: str, env: dict[str, str]) -> tuple[float, float, float]:
    """(wall, CPU, in-process wall) of the floor in a fresh interpreter."""
    cpu = child_cpu()
    started = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", FLOOR, url, *urls()], capture_output=True, text=True,
                         check=True, env=env).stdout.split()
    wall = time.perf_counter() - started
    assert int(out[0]) == sum(SIZES.values()) + sum(-(-n // PER_PAGE) for n in SIZES.values()), out
    return wall, child_cpu() - cpu, float(out[1])


def run_crawl(game: Path, empty_db: Path, work: Path, env: dict[str, str], root: Path = ROOT,
              profile: Path | None = None) -> tuple[float, float]:
    """``python -m tracker crawl`` with the tracker imported from ``root`` (this checkout, or another
    one to compare with: ``--compare``). Run from ``root``: ``-m`` puts the working directory first
    on ``sys.path``, before PYTHONPATH and the editable install."""
    db = work / "crawl.db"
    for p in work.glob("crawl.db*"):
        p.unlink()
    shutil.copyfile(empty_db, db)
    tracker = [sys.executable, "-m", "tracker"]
    if profile is not None:
        tracker = [sys.executable, "-m", "cProfile", "-o", str(profile), "-m", "tracker"]
    cpu = child_cpu()
    started = time.perf_counter()
    done = subprocess.run([*tracker, "crawl", str(game), "--db", f"sqlite:///{db}", "--json"],
                          capture_output=True, text=True, env={**env, "PYTHONPATH": str(root)}, cwd=root)
    wall, cpu = time.perf_counter() - started, child_cpu() - cpu
    if done.returncode != 0:
        raise SystemExit(f"tracker crawl failed:\n{done.stdout}\n{done.stderr}")
    report = json.loads(done.stdout)
    want = len(urls())
    assert report["status"] == "ok" and report["posts_new"] == sum(SIZES.values()), report
    assert report["requests"] == want, (report["requests"], want)
    return wall, cpu


def bs_pages(tpl: Template) -> list[bytes]:
    return [tpl.desktop(tid, p, -(-n // PER_PAGE), n) for tid, n in SIZES.items()
            for p in range(1, -(-n // PER_PAGE) + 1)]


def run_bs(pages: list[bytes]) -> float:
    from bs4 import BeautifulSoup

    started = time.perf_counter()
    for body in pages:
        BeautifulSoup(body, "html.parser")
    return time.perf_counter() - started


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--profile", type=Path, default=None, help="also profile one crawl into this file")
    ap.add_argument("--no-bs", action="store_true", help="skip the BeautifulSoup parse")
    ap.add_argument("--big", action="store_true", help="a 10-day, 3,150-post, 20-thread game (issue 22)")
    ap.add_argument("--compare", type=Path, default=None, metavar="DIR",
                    help="also time the crawl of another checkout (e.g. `git archive main | tar -x -C DIR`)")
    args = ap.parse_args()
    if args.big:
        SIZES.clear()
        SIZES.update(BIG)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    print(f"machine load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    server, url = start_server()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp)
            game = work / "game.toml"
            game.write_text(game_text(url), encoding="utf-8")
            from tracker.store.db import Store

            empty = work / "empty.db"
            started = time.perf_counter()
            Store.open(f"sqlite:///{empty}").close()
            print(f"creating the empty store's schema (once, not timed below): {time.perf_counter() - started:.2f} s")
            pages = bs_pages(Template())
            print(f"game: {sum(SIZES.values()):,} posts, {len(pages)} desktop pages "
                  f"({sum(map(len, pages)) / 1e6:.1f} MB), {len(urls())} requests a crawl; server {url}")
            run_floor(url, env)  # warm: the server's cache, the bytecode cache, the page cache
            run_crawl(game, empty, work, env)
            if args.compare is not None:
                run_crawl(game, empty, work, env, root=args.compare)
            floor: list[float] = []
            other: list[float] = []
            inproc: list[float] = []
            crawl: list[float] = []
            bs: list[float] = []
            cpu: dict[str, list[float]] = {"floor": [], "crawl": [], "other": []}
            for _ in range(args.runs):
                wall, spent, inside = run_floor(url, env)
                floor.append(wall)
                cpu["floor"].append(spent)
                inproc.append(inside)
                wall, spent = run_crawl(game, empty, work, env)
                crawl.append(wall)
                cpu["crawl"].append(spent)
                if args.compare is not None:
                    wall, spent = run_crawl(game, empty, work, env, root=args.compare)
                    other.append(wall)
                    cpu["other"].append(spent)
                if not args.no_bs:
                    bs.append(run_bs(pages))
            f, c = statistics.median(floor), statistics.median(crawl)
            fc, cc = statistics.median(cpu["floor"]), statistics.median(cpu["crawl"])
            fmt = ", ".join
            print(f"(a) floor, httpx.Client + lexbor, whole process: {f:.2f} s median "
                  f"[{fmt(f'{x:.2f}' for x in floor)}] (in-process {statistics.median(inproc):.2f} s; "
                  f"CPU {fc:.2f} s)")
            print(f"(c) tracker crawl, whole process:                 {c:.2f} s median "
                  f"[{fmt(f'{x:.2f}' for x in crawl)}] (CPU {cc:.2f} s)")
            print(f"(c)/(a) = {c / f:.2f}×  [target ≤ 2.5: {'OK' if c / f <= 2.5 else 'MISSED'}]; "
                  f"in CPU {cc / fc:.2f}×")
            if other:
                o, oc = statistics.median(other), statistics.median(cpu["other"])
                print(f"(c0) tracker crawl of {args.compare}: {o:.2f} s median [{fmt(f'{x:.2f}' for x in other)}]"
                      f" (CPU {oc:.2f} s); (c0)/(a) = {o / f:.2f}× (in CPU {oc / fc:.2f}×), (c)/(c0) = {c / o:.2f}")
            if bs:
                b = statistics.median(bs)
                print(f"(b) BeautifulSoup(html.parser) parse alone:        {b:.2f} s median "
                      f"[{fmt(f'{x:.2f}' for x in bs)}]")
                print(f"(b)/(c) = {b / c:.2f}×  [target ≥ 5: {'OK' if b / c >= 5 else 'MISSED'}]")
            if args.profile is not None:
                run_crawl(game, empty, work, env, profile=args.profile)

                print(f"profile of one crawl: {args.profile}")
    finally:
        server.kill()
        server.wait()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

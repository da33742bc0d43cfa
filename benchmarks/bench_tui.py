"""TUI start-up and key latency on a generated 30,000-post game.

Measures (medians over runs, this machine):
- first screen: from constructing the app to the overview drawn (header, sidebar, roster);
- 帖子 screen: from the key to the first page of rows on screen (one page read from the DB);
- key presses answered while a crawl writes to the store: a background writer upserts pages of
  20 posts every 20 ms through the store, the way a crawl does, while keys are pressed;
- 票型 and 潜水: from the key to the count on screen, first time (computed in a worker) and again
  (kept until the store changes), and screen-switch keys answered while that first count runs.

Run: .venv/bin/python benchmarks/bench_tui.py [--posts 30000]
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from tui_demo import DEMO_GAME, FROZEN_AT  # noqa: E402

from tracker.clock import FrozenClock  # noqa: E402
from tracker.records import Post  # noqa: E402
from tracker.service import Service  # noqa: E402


def generate(service: Service, n: int, start_pid: int = 1_000_000) -> None:
    from tracker.store.posts import upsert_posts

    names = service.game.player_names
    days = service.game.days
    batch: list[Post] = []
    for i in range(n):
        d = days[i % len(days)]
        tid = d.discussion if i % 5 else d.vote[0]
        at = d.opens + timedelta(seconds=(i * 7) % int((d.closes - d.opens).total_seconds()))
        text = f"第{i}帖 [b]测试[/b] 今天我站边{names[(i * 3) % len(names)]}，大家怎么看？"
        batch.append(Post(pid=start_pid + i, tid=tid or 3, floor=i // 3 + 1, author=names[i % len(names)], uid=None,
                          posted_at=at, html=text.replace("[b]", "<strong>").replace("[/b]", "</strong>"), text=text))
        if len(batch) == 1000:
            with service.store.session() as s:
                upsert_posts(s, batch, seen_at=FROZEN_AT)
            batch = []
    if batch:
        with service.store.session() as s:
            upsert_posts(s, batch, seen_at=FROZEN_AT)


async def until(cond: Callable[[], bool], step: float = 0.0005, limit: float = 30.0) -> None:
    """Poll ``cond`` on the app's loop; a benchmark that waits forever measures nothing."""
    deadline = time.perf_counter() + limit
    while not cond():
        if time.perf_counter() > deadline:
            raise TimeoutError("the TUI did not answer within 30 s")
        await asyncio.sleep(step)


async def settle(app: Any, pilot: Any) -> None:
    for _ in range(3):
        await app.workers.wait_for_complete()
        await pilot.pause()


async def first_screen(service: Service) -> tuple[float, float]:
    """(shell drawn: header, sidebar, days; roster and counts filled in by the overview's worker)."""
    from textual.widgets import Static

    from tui.app import TrackerApp

    t0 = time.perf_counter()
    app = TrackerApp(service, crawl_interval=0)
    async with app.run_test(size=(120, 36)) as pilot:
        while not app.query("#overview-days") or not app.query_one("#overview-days", Static).content:
            await pilot.pause(0.002)
        shell = time.perf_counter() - t0
        while not app.query_one("#overview-roster", Static).content:
            await pilot.pause(0.002)
        return shell, time.perf_counter() - t0


async def keys_during_writes(service: Service, presses: int = 20,
                             ) -> tuple[list[float], list[float], list[float]]:
    from tui.app import TrackerApp
    from tui.widgets.post_table import PostTable
    from tui.widgets.sidebar import Sidebar

    stop = threading.Event()

    def writer() -> None:
        from tracker.store.posts import upsert_posts

        pid = 5_000_000
        d = service.game.days[-1]
        while not stop.is_set():
            posts = [Post(pid=pid + k, tid=d.discussion or 5, floor=pid + k, author=service.game.player_names[k % 5],
                          uid=None, posted_at=d.opens + timedelta(minutes=k), html="新帖", text="新帖")
                     for k in range(20)]
            with service.store.session() as s:
                upsert_posts(s, posts, seen_at=FROZEN_AT)
            pid += 20
            time.sleep(0.02)

    app = TrackerApp(service, crawl_interval=0)
    switch: list[float] = []
    page: list[float] = []
    alone: list[float] = []
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(app, pilot)  # the first screen and the badges' counts done: only the writer runs
        th = threading.Thread(target=writer, daemon=True)
        th.start()
        try:
            # Pilot.press waits for the whole app to go idle (up to 1 s), which a busy writer never
            # lets happen; post the key and poll for its effect instead.
            sidebar = app.query_one(Sidebar)
            for i in range(presses):
                want = "posts" if i % 2 == 0 else "players"
                t0 = time.perf_counter()
                app.simulate_key("7" if want == "posts" else "6")
                await until(lambda: sidebar.current == want)  # noqa: B023 - awaited at once
                switch.append(time.perf_counter() - t0)
                if want == "posts":
                    table = app.query_one(PostTable)
                    await until(lambda: bool(table.posts))  # noqa: B023 - awaited at once
                    first = table.posts[0].pid
                    t0 = time.perf_counter()
                    app.simulate_key("right_square_bracket")
                    await until(lambda: table.posts[0].pid != first)  # noqa: B023 - awaited at once
                    page.append(time.perf_counter() - t0)
                    # the same key once the screen has drawn (the back-to-back figure above also
                    # waits for the switch's own repaint, which is still running when `]` comes)
                    await asyncio.sleep(0.4)
                    first = table.posts[0].pid
                    t0 = time.perf_counter()
                    app.simulate_key("right_square_bracket")
                    await until(lambda: table.posts[0].pid != first)  # noqa: B023 - awaited at once
                    alone.append(time.perf_counter() - t0)
                await asyncio.sleep(0.05)
        finally:
            stop.set()
            th.join()
    return switch, page, alone


async def keys_during_real_crawl(tmp: Path, rounds: int = 3) -> list[float]:
    """Switch keys while `r` crawls the demo forum replayed over loopback (parse + store in the worker)."""
    from tracker.demo.run import start
    from tui.app import TrackerApp
    from tui.widgets.game_header import GameHeader
    from tui.widgets.sidebar import Sidebar

    out: list[float] = []
    for n in range(rounds):
        run = start(tmp / f"crawl{n}")
        try:
            service = Service.open(run.game_path, clock=FrozenClock(FROZEN_AT))
            app = TrackerApp(service, crawl_interval=0)
            async with app.run_test(size=(120, 36)) as pilot:
                await settle(app, pilot)
                sidebar = app.query_one(Sidebar)
                header = app.query_one(GameHeader)
                app.action_crawl()
                i = 0
                while header.crawl.state == "running":
                    want = "posts" if i % 2 == 0 else "players"
                    t0 = time.perf_counter()
                    app.simulate_key("7" if want == "posts" else "6")
                    await until(lambda: sidebar.current == want)  # noqa: B023 - awaited at once
                    out.append(time.perf_counter() - t0)
                    i += 1
                    await asyncio.sleep(0.03)
                await app.workers.wait_for_complete()
            service.close()
        finally:
            run.forum.stop()
    return out


async def heavy_screens(service: Service) -> dict[str, float | list[float]]:
    """票型/潜水 first and second time, and switch keys pressed while the 潜水 count runs."""
    from tui.app import TrackerApp
    from tui.screens.lurkers import LurkersPane
    from tui.screens.tally import TallyPane
    from tui.widgets.sidebar import Sidebar

    out: dict[str, float | list[float]] = {}
    app = TrackerApp(service, crawl_interval=0)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(app, pilot)
        app.gateway.invalidate()  # as after a crawl: nothing counted yet
        sidebar = app.query_one(Sidebar)
        for key, name, cls in (("2", "tally", TallyPane), ("5", "lurkers", LurkersPane)):
            for run in ("first", "again"):
                if run == "again":
                    app.simulate_key("1")
                    await until(lambda: sidebar.current == "overview")
                    pane = app.query_one(cls)
                    pane.view = None  # force the redraw, the count itself comes from the memo
                t0 = time.perf_counter()
                app.simulate_key(key)
                await until(lambda: bool(app.query(cls)) and app.query_one(cls).view is not None)  # noqa: B023 - awaited at once
                out[f"{name} {run}"] = time.perf_counter() - t0
        # switch keys while the 潜水 count runs in its worker (thread): the UI must keep answering
        app.gateway.invalidate()
        app.query_one(LurkersPane).view = None
        app.simulate_key("5")
        await asyncio.sleep(0.01)
        lat: list[float] = []
        i = 0
        while app.query_one(LurkersPane).view is None and i < 40:
            want = ("players", "6") if i % 2 == 0 else ("lurkers", "5")
            t0 = time.perf_counter()
            app.simulate_key(want[1])
            await until(lambda: sidebar.current == want[0])  # noqa: B023 - awaited at once
            lat.append(time.perf_counter() - t0)
            await asyncio.sleep(0.05)
            i += 1
        out["keys during 潜水 count"] = lat
        await app.workers.wait_for_complete()
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--posts", type=int, default=30_000)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp())
    try:
        shutil.copy(DEMO_GAME, tmp / "game.toml")
        service = Service.open(tmp / "game.toml", db_url=f"sqlite:///{tmp / 'game.db'}", clock=FrozenClock(FROZEN_AT))
        t0 = time.perf_counter()
        generate(service, args.posts)
        print(f"generated {service.search_posts().total} posts in {time.perf_counter() - t0:.2f} s")
        service.flags()  # detection once, as after the first crawl
        starts = [asyncio.run(first_screen(service)) for _ in range(args.runs)]
        shells = [a for a, _ in starts]
        fills = [b for _, b in starts]
        print(f"first screen drawn (header, sidebar, days): median {statistics.median(shells) * 1000:.0f} ms "
              f"(runs: {', '.join(f'{s * 1000:.0f}' for s in shells)})")
        print(f"overview roster filled by its worker: median {statistics.median(fills) * 1000:.0f} ms")
        switch, page, alone = asyncio.run(keys_during_writes(service))
        print(f"screen switch key while the store is written: median {statistics.median(switch) * 1000:.1f} ms, "
              f"max {max(switch) * 1000:.1f} ms")
        print(f"next page (DB read in a worker) while written: median {statistics.median(page) * 1000:.1f} ms, "
              f"max {max(page) * 1000:.1f} ms")
        print(f"next page once the screen has drawn, while written: median {statistics.median(alone) * 1000:.1f} ms, "
              f"max {max(alone) * 1000:.1f} ms")
        during = asyncio.run(keys_during_real_crawl(tmp))
        if during:
            print(f"screen switch key during a real crawl (demo forum replayed): {len(during)} keys, median "
                  f"{statistics.median(during) * 1000:.1f} ms, max {max(during) * 1000:.1f} ms")
        for name, value in asyncio.run(heavy_screens(service)).items():
            if isinstance(value, list):
                if value:
                    print(f"{name}: {len(value)} switch keys, median {statistics.median(value) * 1000:.1f} ms, "
                          f"max {max(value) * 1000:.1f} ms")
                else:
                    print(f"{name}: the count finished before a key could be pressed")
            else:
                print(f"{name}: {value * 1000:.0f} ms")
        service.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()

"""What the crawl's speed-ups must not cost: ``[crawl] delay = 0`` means no sleeping at all (the
benchmark's game relies on it), a positive delay still spaces requests, and raw pages kept a batch
per transaction are all there, once each."""

from __future__ import annotations

import asyncio
import importlib.util
from pathlib import Path
from types import ModuleType

import httpx
import pytest

from tracker.config import parse_game
from tracker.scraper.crawl import crawl_game_sync
from tracker.scraper.fetch import Fetcher, FetchPolicy
from tracker.store.db import Store
from tracker.store.posts import all_posts, iter_raw

BASE = "http://forum.test/"


def _synth_forum() -> ModuleType:
    """The benchmark's forum pages, loaded by path: putting ``benchmarks/`` on ``sys.path`` (or its
    module in ``sys.modules``) would leak into every test collected after this one."""
    path = Path(__file__).resolve().parent.parent / "benchmarks" / "synth_forum.py"
    spec = importlib.util.spec_from_file_location("_bench_synth_forum", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _game(delay: float) -> object:
    return parse_game({"game": {"name": "t", "ruleset": "accel-m65", "forum": BASE},
                       "crawl": {"delay": delay, "concurrency": 2},
                       "days": [{"day": 1, "discussion": 1, "opens": "2025-03-01T10:00:00+08:00",
                                 "closes": "2025-03-02T22:00:00+08:00"}]})


@pytest.mark.parametrize(("delay", "sleeps_expected"), [(0, False), (0.05, True)])
async def test_a_zero_delay_in_the_game_file_never_sleeps(delay: float, sleeps_expected: bool) -> None:
    game = _game(delay)
    policy = FetchPolicy.from_config(game.crawl)  # type: ignore[attr-defined]
    assert policy.delay == delay
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    transport = httpx.MockTransport(lambda request: httpx.Response(200, text="<html>ok</html>"))
    async with Fetcher(BASE, policy, transport=transport, sleep=sleep) as f:
        await asyncio.gather(*(f.get(f"forum.php?mod=viewthread&tid=1&page={n}") for n in range(1, 13)))
    assert f.stats.requests == 12
    assert bool(slept) is sleeps_expected, slept


def test_raw_pages_kept_by_batch_are_all_there_in_order(tmp_path: Path) -> None:
    tpl = _synth_forum().Template()
    posts, pages = 250, 25  # two batches of desktop pages and a short one
    asked: list[str] = []

    def handle(request: httpx.Request) -> httpx.Response:
        q = dict(request.url.params)
        asked.append(str(request.url))
        page = int(q.get("page", "1"))
        if "api/mobile" in request.url.path:
            return httpx.Response(200, content=tpl.listing(1, posts, page=page, ppp=int(q["ppp"])),
                                  headers={"content-type": "application/json"})
        return httpx.Response(200, content=tpl.desktop(1, page, pages, posts),
                              headers={"content-type": "text/html; charset=utf-8"})

    store = Store.open(f"sqlite:///{tmp_path / 'raw.db'}")
    try:
        report = crawl_game_sync(_game(0), store, transport=httpx.MockTransport(handle))  # type: ignore[arg-type]
        assert report.status == "ok" and report.posts_new == posts and report.requests == 1 + pages
        with store.session() as s:
            raws = list(iter_raw(s))
            stored = all_posts(s)
        # Every answer once, the listing first (two pages may arrive in either order).
        assert sorted(r.url for r in raws) == sorted(asked) and "api/mobile" in raws[0].url
        assert all(r.crawl_id == report.crawl_id and r.status == 200 for r in raws)
        first_page = next(r for r in raws if r.url.endswith("tid=1&page=1"))
        assert first_page.body == tpl.desktop(1, 1, pages, posts)
        assert len(stored) == posts and len({p.pid for p in stored}) == posts
        assert all(p.has_desktop and p.versions == 1 for p in stored)
    finally:
        store.close()


def test_loading_the_benchmark_forum_leaves_no_trace_on_the_import_path() -> None:
    import sys

    before_path, before_modules = list(sys.path), set(sys.modules)
    assert hasattr(_synth_forum(), "Template")
    assert sys.path == before_path and not {m for m in set(sys.modules) - before_modules if "synth" in m}

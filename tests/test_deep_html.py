"""A post of 10^5 nested <div> (the attack that froze the watcher for three minutes): its cost is
bounded before parsing, the crawl parses off the event loop so a heartbeat keeps its beat, and the
TUI renders such a post at once."""

from __future__ import annotations

import asyncio
import json
import re
import time
import zlib
from collections.abc import Iterator
from pathlib import Path

from tests.hostile_forum import JSON, PAGES, Answer, HostileForum, game_file
from tests.test_inputs_hostile import PEAK_LIMIT_MB, peak_rss_mb
from tracker.config import load_game
from tracker.scraper.crawl import crawl_game
from tracker.scraper.desktop import parse_thread_page
from tracker.scraper.html_depth import MAX_DEPTH, cap_depth
from tracker.store.db import Store
from tracker.store.posts import posts_for_thread

DEEP = "<div>" * 100_000 + "深处的字" + "</div>" * 100_000


def deep_page(n: int) -> bytes:
    name = {1: "day1-vote-p1.html", 2: "day1-vote-p2.html"}.get(n, "day1-vote-p3.html")
    html = (PAGES / name).read_text(encoding="utf-8")
    if n == 3:
        html = html.replace("投票截止。统计：饺子 5 票", "投票截止。" + DEEP + "统计：饺子 5 票")
    return html.encode("utf-8")


def test_cap_depth_keeps_the_text_and_bounds_the_nesting() -> None:
    capped = cap_depth(DEEP)
    assert "深处的字" in capped and capped.count("<div>") == MAX_DEPTH == capped.count("</div>")
    ordinary = (PAGES / "day1-discussion-p1.html").read_text(encoding="utf-8")
    assert cap_depth(ordinary) is ordinary  # an ordinary page is not even scanned
    nested = "<b>" * 5000 + "x" + "</b>" * 5000 + "<p>after</p>"
    assert cap_depth(nested).endswith("x" + "</b>" * MAX_DEPTH + "<p>after</p>")


def test_a_page_with_a_post_nested_a_hundred_thousand_deep_parses_in_moments() -> None:
    started = time.monotonic()
    page = parse_thread_page(deep_page(3), page_url="forum.php?mod=viewthread&tid=4&page=3")
    took = time.monotonic() - started
    print(f"page with a 10^5-deep post parsed in {took:.2f} s")
    assert took < 10  # 65 s before the cap
    assert any("深处的字" in p.text and "统计：饺子 5 票" in p.text for p in page.posts)


def test_the_crawl_keeps_the_event_loop_beating_while_it_parses(tmp_path: Path) -> None:
    def forum(path: str) -> Answer:
        n = int(m.group(1)) if (m := re.search(r"[?&]page=(\d+)", path)) else 1
        return Answer([deep_page(n)])

    gaps: list[float] = []

    async def scenario(game_path: Path) -> None:
        store = Store.open(f"sqlite:///{tmp_path / 'game.db'}")
        done = asyncio.Event()

        async def beat() -> None:
            last = time.monotonic()
            while not done.is_set():
                await asyncio.sleep(0.05)
                now = time.monotonic()
                gaps.append(now - last)
                last = now

        ticker = asyncio.create_task(beat())
        try:
            await crawl_game(load_game(game_path), store)
        finally:
            done.set()
            await ticker
        with store.session() as s:
            assert any("深处的字" in p.text for p in posts_for_thread(s, 4))
        store.close()

    with HostileForum(forum) as server:
        asyncio.run(scenario(game_file(tmp_path, server.base_url, crawl="mobile_api = false")))
    print(f"longest gap between beats during the crawl: {max(gaps):.2f} s")
    assert max(gaps) < 2.0


def test_the_tui_renders_such_a_post_at_once() -> None:
    from tui.post_render import render_post_html

    started = time.monotonic()
    text = render_post_html(DEEP)
    assert "深处的字" in text.plain
    assert time.monotonic() - started < 3


# -- an absurd listing: 880,000 posts, 121 MB unpacked from a few MB of gzip ------------------------

def gzip_listing(posts: int) -> Iterator[bytes]:
    """A mobile listing of ``posts`` posts as a gzip stream, made lazily (it unpacks to ~120 MB)."""
    doc = json.loads((PAGES / "day1-vote-p1.mobile.json").read_text(encoding="utf-8"))
    full = doc["Variables"]["postlist"][1]
    item = {**{k: full[k] for k in ("tid", "author", "authorid", "dateline")}, "message": "顶"}
    doc["Variables"]["thread"]["replies"] = str(posts - 1)
    head, tail = json.dumps(doc, ensure_ascii=False).split('"postlist": [', 1)
    tail = tail.split("]", 1)[1] if tail.startswith("{") else tail
    z = zlib.compressobj(6, zlib.DEFLATED, zlib.MAX_WBITS | 16)
    yield z.compress((head + '"postlist": [').encode())
    batch = []
    for pid in range(1, posts + 1):
        batch.append(json.dumps({**item, "pid": str(pid), "position": str(pid), "number": str(pid)},
                                ensure_ascii=False, separators=(",", ":")))
        if len(batch) == 10_000 or pid == posts:
            out = z.compress(((",".join(batch)) + ("," if pid < posts else "")).encode())
            batch = []
            if out:
                yield out
    yield z.compress(("]" + tail).encode())
    yield z.flush()


def test_an_absurd_mobile_listing_ends_clearly_in_bounded_memory(tmp_path: Path) -> None:
    def forum(path: str) -> Answer:
        if "api/mobile" in path:
            return Answer(gzip_listing(880_000), headers={"Content-Type": JSON, "Content-Encoding": "gzip"})
        return Answer([deep_page(1)])

    with HostileForum(forum) as server:
        game = game_file(tmp_path, server.base_url)
        code, peak, err = peak_rss_mb(["crawl", str(game)], tmp_path)
    db = tmp_path / "game.db"
    print(f"peak RSS, 880,000-post listing: {peak:.0f} MB; database {db.stat().st_size >> 10} KB")
    assert code == 3 and "Traceback" not in err and "不会这么大" in err, err
    assert peak < PEAK_LIMIT_MB
    assert db.stat().st_size < 5 << 20  # nothing of it stored (it grew the database to 514 MB)

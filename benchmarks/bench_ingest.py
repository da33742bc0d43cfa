"""Ingest a whole synthetic 30,000-post game from cached pages: target under 10 s. Also: what a
3,000-post day costs in requests.

The game is templated from real captures (``tests/fixtures/discuz/pages``): the ten posts of
``day1-discussion-p2.html`` and their mobile-API items are repeated with fresh pids, floors and
tids, so every page parses exactly like the real one and desktop and mobile agree on each post.
Default: 30 threads x 1,000 posts = 3,000 desktop pages + 30 mobile listings (ppp 1000).

Figures printed:

- parse only: every document once;
- INGEST (the target): what the crawler does with the documents, minus the network: parse each
  listing, plan against the store, upsert, parse the planned desktop pages, upsert 20 pages a
  transaction; then the same again with nothing changed;
- a simulated day (``--day-crawls``, default 48): a 2,700-post discussion and a 300-post vote
  thread growing over 48 crawls with one earlier post edited before each, through the real
  ``crawl_game`` and an in-memory transport; requests counted against a crawler that re-reads
  every desktop page (the README's "What a crawl costs");
- ``crawl_game`` end to end over an in-memory transport (fetch plumbing and raw pages included),
  unless ``--no-crawl``.

Wall times on a shared machine suffer from other jobs: the load average is printed first, and CPU
times next to wall times.

    .venv/bin/python benchmarks/bench_ingest.py [--threads 30] [--posts-per-thread 1000] [--day-crawls 48] [--no-crawl]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import sys
import tempfile
import time
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import httpx  # noqa: E402
from synth_forum import BASE, PER_PAGE, Template, pid_of  # noqa: E402

from tracker.config import parse_game  # noqa: E402
from tracker.scraper.crawl import DESKTOP_BATCH, crawl_game  # noqa: E402
from tracker.scraper.desktop import parse_thread_page  # noqa: E402
from tracker.scraper.fetch import FetchPolicy  # noqa: E402
from tracker.scraper.mobile import parse_viewthread  # noqa: E402
from tracker.scraper.plan import Listing, listing_complete, plan_thread  # noqa: E402
from tracker.store.db import Store  # noqa: E402
from tracker.store.posts import (  # noqa: E402
    all_posts,
    mark_deleted,
    observation_changed,
    thread_state,
    upsert_posts,
)


def build(threads: int, posts: int) -> dict[tuple[str, int, int], bytes]:
    tpl = Template()
    pages = -(-posts // PER_PAGE)
    docs: dict[tuple[str, int, int], bytes] = {}
    for t in range(threads):
        tid = 1000 + t
        docs[("mobile", tid, 1)] = tpl.listing(tid, posts)
        for n in range(1, pages + 1):
            docs[("desktop", tid, n)] = tpl.desktop(tid, n, pages, posts)
    return docs


def transport(docs: dict[tuple[str, int, int], bytes], counter: list[int]) -> httpx.MockTransport:
    def handle(request: httpx.Request) -> httpx.Response:
        counter[0] += 1
        q = {k: v[0] for k, v in parse_qs(urlsplit(str(request.url)).query).items()}
        kind = "mobile" if "api/mobile" in request.url.path else "desktop"
        tid, page = int(q["tid"]), int(q.get("page", "1"))
        body = docs.get((kind, tid, page)) or docs[(kind, tid, 1)]
        ctype = "application/json" if kind == "mobile" else "text/html; charset=utf-8"
        return httpx.Response(200, content=body, headers={"content-type": ctype})

    return httpx.MockTransport(handle)


def game(threads: int) -> Any:
    tids = [1000 + t for t in range(threads)]
    days = [{"day": i + 1, "discussion": tid, "opens": "2025-03-01T10:00:00+08:00",
             "closes": "2025-03-02T22:00:00+08:00"} for i, tid in enumerate(tids)]
    return parse_game({"game": {"name": "bench", "ruleset": "x", "forum": BASE},
                       "crawl": {"delay": 0, "concurrency": 2}, "days": days})


def ingest(store: Store, docs: dict[tuple[str, int, int], bytes], threads: int) -> tuple[int, int]:
    """What the crawler does with the documents, minus the network: listing, plan, upserts by batch."""
    seen_at = datetime.now(UTC)
    new = pages = 0
    for t in range(threads):
        tid = 1000 + t
        doc = parse_viewthread(docs[("mobile", tid, 1)], page_url=BASE)
        listing = Listing(tid=tid, subject=doc.subject, posts=doc.posts, replies=doc.replies,
                          maxposition=doc.maxposition, complete=listing_complete(doc.posts))
        with store.session() as s:
            state = thread_state(s, tid)
        plan = plan_thread(listing, state)
        # As the crawler does: a new post is written once, from its desktop page.
        deferred = set(plan.wanted) - set(state.known)
        with store.session() as s:
            writes = [p for p in listing.posts
                      if p.pid not in deferred and observation_changed(state.known.get(p.pid), p)]
            new += len(upsert_posts(s, writes, seen_at=seen_at).new_pids)
            if listing.complete:
                mark_deleted(s, tid, [p.pid for p in listing.posts], seen_at=seen_at)
        todo = list(plan.desktop_pages)
        for i in range(0, len(todo), DESKTOP_BATCH):
            batch = [parse_thread_page(docs[("desktop", tid, n)], page_url=BASE) for n in todo[i:i + DESKTOP_BATCH]]
            pages += len(batch)
            position = {p.pid: p.position for p in listing.posts}
            posts = [replace(p, position=position.get(p.pid)) for tp in batch for p in tp.posts]
            with store.session() as s:
                new += len(upsert_posts(s, posts, seen_at=seen_at).new_pids)
    return new, pages


class Day:
    """A 3,000-post game day crawled every 30 minutes: threads grow, one earlier post is edited per crawl."""

    def __init__(self, sizes: dict[int, int], crawls: int) -> None:
        self.tpl = Template()
        self.sizes = sizes
        self.crawls = crawls
        self.now: dict[int, int] = dict.fromkeys(sizes, 0)
        self.edits: dict[int, dict[int, str]] = {tid: {} for tid in sizes}
        self.requests = 0

    def step(self, k: int) -> None:
        for tid, size in self.sizes.items():
            self.now[tid] = -(-size * k // self.crawls)
            if k > 1 and self.now[tid] > 20:
                floor = 1 + (k * 7919) % (self.now[tid] - 10)  # somewhere before the newest page
                self.edits[tid][floor] = f"第 {k} 次抓取前改过的内容：投票对象：包子"

    def transport(self) -> httpx.MockTransport:
        def handle(request: httpx.Request) -> httpx.Response:
            self.requests += 1
            q = {k: v[0] for k, v in parse_qs(urlsplit(str(request.url)).query).items()}
            tid, page = int(q["tid"]), int(q.get("page", "1"))
            n = self.now[tid]
            if "api/mobile" in request.url.path:
                body = self.tpl.listing(tid, n, self.edits[tid], page=page, ppp=int(q["ppp"]))
                return httpx.Response(200, content=body, headers={"content-type": "application/json"})
            pages = max(1, -(-n // PER_PAGE))
            body = self.tpl.desktop(tid, min(page, pages), pages, n, self.edits[tid])
            return httpx.Response(200, content=body, headers={"content-type": "text/html; charset=utf-8"})

        return httpx.MockTransport(handle)


def simulate_day(crawls: int) -> None:
    sizes = {2001: 2700, 2002: 300}
    day = Day(sizes, crawls)
    days = [{"day": 1, "discussion": 2001, "vote": 2002, "opens": "2025-03-01T10:00:00+08:00",
             "closes": "2025-03-02T22:00:00+08:00"}]
    g = parse_game({"game": {"name": "day", "ruleset": "x", "forum": BASE}, "crawl": {"delay": 0}, "days": days})
    per_crawl: list[int] = []
    desktop_only = 0
    with tempfile.TemporaryDirectory() as tmp:
        store = Store.open(f"sqlite:///{Path(tmp) / 'day.db'}")
        for k in range(1, crawls + 1):
            day.step(k)
            before = day.requests
            report = asyncio.run(crawl_game(g, store, policy=FetchPolicy(concurrency=2, delay=0.0),
                                            transport=day.transport(), keep_raw=False))
            assert report.status == "ok", report.to_json()
            per_crawl.append(day.requests - before)
            desktop_only += sum(max(1, -(-n // PER_PAGE)) for n in day.now.values())
        with store.session() as s:
            stored = all_posts(s)
        assert len(stored) == sum(sizes.values()) and all(p.has_desktop for p in stored)
        edited = sum(1 for p in stored if p.versions > 1)
        store.close()
    total = sum(per_crawl)
    print(f"a {sum(sizes.values()):,}-post day ({', '.join(f'{n:,}' for n in sizes.values())} posts), "
          f"crawled {crawls} times, one earlier post edited before each crawl ({edited} edited posts found):")
    print(f"  requests: {total:,} in all; first crawl {per_crawl[0]}, median crawl "
          f"{sorted(per_crawl)[len(per_crawl) // 2]}, last crawl {per_crawl[-1]}")
    print(f"  a crawler re-reading every desktop page instead: {desktop_only:,} requests")
    print(f"  the finished day from nothing: {2 + sum(-(-n // PER_PAGE) for n in sizes.values())} requests "
          f"(listings + every desktop page once); re-crawled unchanged: {len(sizes)} requests")


def timed(fn: Any) -> tuple[Any, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - wall, time.process_time() - cpu


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threads", type=int, default=30)
    ap.add_argument("--posts-per-thread", type=int, default=1000)
    ap.add_argument("--no-crawl", action="store_true", help="skip the end-to-end crawl_game figures")
    ap.add_argument("--day-crawls", type=int, default=48, help="crawls in the simulated 3,000-post day (0: skip)")
    args = ap.parse_args()
    total = args.threads * args.posts_per_thread
    print(f"machine load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (wall times suffer above ~1)")

    docs, wall, _ = timed(lambda: build(args.threads, args.posts_per_thread))
    size = sum(len(b) for b in docs.values())
    print(f"synthetic game: {args.threads} threads, {total:,} posts, {len(docs):,} documents, "
          f"{size / 1e6:.0f} MB (built in {wall:.1f} s)")
    # Sanity: the templated pages parse as the game they claim to be.
    first = parse_thread_page(docs[("desktop", 1000, 2)], page_url=BASE)
    assert [p.floor for p in first.posts] == list(range(11, 21)) and first.tid == 1000
    assert first.posts[0].pid == pid_of(1000, 11)

    def parse_all() -> int:
        return sum(len(parse_viewthread(b).posts) if k[0] == "mobile" else len(parse_thread_page(b).posts)
                   for k, b in docs.items())

    n, wall, cpu = timed(parse_all)
    print(f"parse only, every document once: {wall:.2f} s wall / {cpu:.2f} s cpu ({n / wall:,.0f} posts/s)")

    with tempfile.TemporaryDirectory() as tmp:
        store = Store.open(f"sqlite:///{Path(tmp) / 'ingest.db'}")
        (new, pages), wall, cpu = timed(lambda: ingest(store, docs, args.threads))
        assert new == total and pages == len(docs) - args.threads
        with store.session() as s:
            stored = all_posts(s)
        assert len(stored) == total and all(p.has_desktop and p.versions == 1 for p in stored)
        verdict = "OK" if wall < 10 else "MISSED"
        print(f"INGEST whole game (parse + plan + upsert, no network): {wall:.2f} s wall / {cpu:.2f} s cpu, "
              f"{total / wall:,.0f} posts/s  [target < 10 s: {verdict}]")
        (new, pages), wall, cpu = timed(lambda: ingest(store, docs, args.threads))
        assert new == 0 and pages == 0
        print(f"re-ingest, nothing changed (listings only): {wall:.2f} s wall / {cpu:.2f} s cpu")
        store.close()

    if args.day_crawls:
        simulate_day(args.day_crawls)
    if args.no_crawl:
        return 0
    g = game(args.threads)
    policy = FetchPolicy(concurrency=2, delay=0.0)
    with tempfile.TemporaryDirectory() as tmp:
        store = Store.open(f"sqlite:///{Path(tmp) / 'crawl.db'}")
        counter = [0]
        report, wall, cpu = timed(lambda: asyncio.run(crawl_game(g, store, policy=policy,
                                                                 transport=transport(docs, counter))))
        assert report.status == "ok" and report.posts_new == total, report.to_json()
        print(f"crawl_game end to end (in-memory transport, raw pages kept): {wall:.2f} s wall / {cpu:.2f} s cpu "
              f"for {report.requests:,} requests")
        again, wall, cpu = timed(lambda: asyncio.run(crawl_game(g, store, policy=policy,
                                                                transport=transport(docs, counter))))
        assert again.posts_new == again.posts_changed == 0 and again.requests == args.threads
        print(f"crawl_game again, nothing changed: {wall:.2f} s wall / {cpu:.2f} s cpu for {again.requests} requests")

        # One edit on an early page of every thread: one listing + one desktop page each.
        edited = dict(docs)
        for tnum in range(args.threads):
            tid = 1000 + tnum
            doc = json.loads(edited[("mobile", tid, 1)])
            doc["Variables"]["postlist"][4]["message"] = "改过的内容：投票对象：包子"
            edited[("mobile", tid, 1)] = json.dumps(doc, ensure_ascii=False).encode()
            page = edited[("desktop", tid, 1)].decode()
            pid = pid_of(tid, 5)
            page = re.sub(rf'(<td class="t_f" id="postmessage_{pid}">).*?(</td>)', r"\1改过的内容：投票对象：包子\2",
                          page, count=1, flags=re.S)
            edited[("desktop", tid, 1)] = page.encode()
        third, wall, cpu = timed(lambda: asyncio.run(crawl_game(g, store, policy=policy,
                                                                transport=transport(edited, counter))))
        assert third.posts_changed == args.threads and third.requests == 2 * args.threads, third.to_json()
        print(f"crawl_game, one early edit per thread: {wall:.2f} s wall / {cpu:.2f} s cpu "
              f"for {third.requests} requests")
        store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

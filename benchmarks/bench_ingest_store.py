"""Ingest 30,000 synthetic posts into the store, one transaction per page: target under 10 s.

Pages of 10 are what a desktop crawl hands over; pages of 200 what one mobile-API listing with a
large ``ppp`` gives. Each page is one ``upsert_posts`` call in its own session (a fresh
transaction, as the crawler does). Also timed: the same posts again (a re-crawl that finds nothing
new), a re-crawl where every 20th post was edited, and the per-author count of one day.

    .venv/bin/python benchmarks/bench_ingest_store.py [--posts 30000] [--db URL]

Without ``--db`` each run uses a fresh SQLite file in a temporary folder. With ``--db`` the URL must
name an empty database or schema (e.g. ``postgresql+psycopg://u:p@127.0.0.1/db?options=-csearch_path%3Dbench``).
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

from tracker.clock import SHANGHAI
from tracker.records import FontUse, Post, Quote
from tracker.store.db import Store
from tracker.store.posts import author_post_counts, upsert_posts

PLAYERS = ["泡泡", "花千树", "饺子", "包子", "栗子", "碎碎", "取酒", "阿狸", "小白", "老王", "青铃", "银鸦",
           "风行", "劫火", "曹操", "刘备", "孙权", "关羽", "张飞", "赵云"]
T0 = datetime(2025, 3, 1, 10, 0, tzinfo=SHANGHAI)


def make_posts(n: int, threads: int = 10) -> list[Post]:
    rng = random.Random(7)
    posts = []
    for i in range(n):
        tid = 100 + i % threads
        author = rng.choice(PLAYERS)
        text = f"第{i}条：我觉得{rng.choice(PLAYERS)}的发言有点问题，票型也对不上。" * rng.randint(1, 4)
        quotes = (Quote(pid=i, author=rng.choice(PLAYERS), posted_at=None, text="投票对象：包子"),) if i % 7 == 0 else ()
        fonts = (FontUse(color="red", size="5", text="重要"),) if i % 50 == 0 else ()
        posts.append(Post(pid=1000 + i, tid=tid, floor=i // threads + 1, author=author, uid=PLAYERS.index(author) + 2,
                          posted_at=T0 + timedelta(seconds=20 * i), html=f"<div>{text}</div>", text=text,
                          quotes=quotes, fonts=fonts, colors=tuple(f.color for f in fonts if f.color),
                          sizes=tuple(f.size for f in fonts if f.size)))
    return posts


def ingest(store: Store, posts: Sequence[Post], page: int, seen_at: datetime) -> tuple[float, float, int, int]:
    """Wall and CPU seconds (CPU shows the cost when other work shares the two cores), new, changed."""
    t = time.perf_counter()
    c = time.process_time()
    new = changed = 0
    for i in range(0, len(posts), page):
        with store.session() as s:
            r = upsert_posts(s, posts[i:i + page], seen_at=seen_at)
        new += len(r.new_pids)
        changed += len(r.changed_pids)
    return time.perf_counter() - t, time.process_time() - c, new, changed


def run(url: str, posts: list[Post], page: int) -> None:
    store = Store.open(url)
    try:
        n = len(posts)
        first, first_cpu, new, _ = ingest(store, posts, page, T0 + timedelta(days=3))
        assert new == n, new
        again, again_cpu, new2, changed = ingest(store, posts, page, T0 + timedelta(days=3, hours=1))
        assert new2 == 0 and changed == 0
        edited = [replace(p, text=p.text + "（已编辑）") if p.pid % 20 == 0 else p for p in posts]
        edits, _, _, changed = ingest(store, edited, page, T0 + timedelta(days=3, hours=2))
        assert changed == n // 20, changed
        t = time.perf_counter()
        with store.session() as s:
            day = datetime(2025, 3, 1, tzinfo=SHANGHAI)
            counts = author_post_counts(s, 100, day, day + timedelta(days=1))
        count_ms = (time.perf_counter() - t) * 1000
        print(f"pages of {page:>3}: first ingest {first:6.2f} s ({n / first:7,.0f} posts/s; CPU {first_cpu:5.2f} s) | "
              f"re-crawl unchanged {again:5.2f} s ({n / again:7,.0f} posts/s; CPU {again_cpu:5.2f} s) | "
              f"re-crawl with {n // 20} edits {edits:5.2f} s | "
              f"per-author day count {count_ms:.1f} ms ({sum(counts.values())} posts)")
    finally:
        store.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--posts", type=int, default=30_000)
    ap.add_argument("--db", help="an empty database URL (default: a fresh SQLite file per run)")
    args = ap.parse_args()
    posts = make_posts(args.posts)
    for page in (10, 200):
        if args.db:
            run(args.db, posts, page)
            return  # one run only: the second would find the posts already there
        with tempfile.TemporaryDirectory() as tmp:
            run(f"sqlite:///{Path(tmp) / 'bench.db'}", posts, page)


if __name__ == "__main__":
    main()

"""Crawl log, raw responses, thread counters, per-author counts, and a store that survives a kill."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from datetime import datetime, timedelta

import pytest
from sqlalchemy import func, select

from tracker.clock import SHANGHAI
from tracker.records import Post
from tracker.store.db import Store
from tracker.store.posts import (
    author_post_counts,
    crawls,
    finish_crawl,
    iter_raw,
    last_crawl,
    mark_deleted,
    post_versions,
    save_raw,
    save_thread,
    start_crawl,
    thread_state,
    upsert_posts,
)
from tracker.store.tables import post_t, raw_t, version_t

T0 = datetime(2025, 4, 12, 10, 0, tzinfo=SHANGHAI)


def post(pid: int, author: str, at: datetime, tid: int = 14) -> Post:
    return Post(pid=pid, tid=tid, floor=pid, author=author, uid=None, posted_at=at, html=str(pid), text=f"发言{pid}")


def test_crawl_log_records_start_end_and_counts(store: Store) -> None:
    with store.session() as s:
        assert last_crawl(s) is None
        cid = start_crawl(s, [14, 15], started_at=T0)
        running = last_crawl(s)
        r = upsert_posts(s, [post(1, "泡泡", T0)], seen_at=T0, crawl_id=cid)
        finish_crawl(s, cid, requests=7, pages=5, posts_new=len(r.new_pids), posts_changed=0,
                     errors=["第3页：超时"], status="partial", finished_at=T0 + timedelta(minutes=2))
        done = last_crawl(s)
        [version] = post_versions(s, 1)
    assert running is not None and running.id == cid and not running.finished and running.status == "running"
    assert running.threads == [14, 15]
    assert done is not None and done.finished and done.finished_at == T0 + timedelta(minutes=2)
    assert (done.requests, done.pages, done.posts_new, done.posts_changed) == (7, 5, 1, 0)
    assert done.errors == ["第3页：超时"] and done.status == "partial"
    assert version.crawl_id == cid


def test_an_interrupted_crawl_stays_visible(store: Store) -> None:
    with store.session() as s:
        first = start_crawl(s, [14], started_at=T0)
        finish_crawl(s, first, 1, 1, 0, 0, [], "ok", finished_at=T0 + timedelta(minutes=1))
        killed = start_crawl(s, [14], started_at=T0 + timedelta(hours=1))
    with store.session() as s:  # a later process looks
        latest = last_crawl(s)
        history = crawls(s)
    assert latest is not None and latest.id == killed and not latest.finished
    assert [c.id for c in history] == [killed, first] and history[1].finished


def test_finishing_an_unknown_crawl_fails(store: Store) -> None:
    with pytest.raises(ValueError), store.session() as s:
        finish_crawl(s, 12345, 0, 0, 0, 0, [], "ok")


def test_raw_pages_are_kept_compressed_and_iterated_for_reparse(store: Store) -> None:
    page = ("<html>" + "<div class='pl'>楼层</div>" * 500 + "</html>").encode("gbk")
    doc = b'{"Variables": {"postlist": []}}'
    with store.session() as s:
        cid = start_crawl(s, [14], started_at=T0)
        a = save_raw(s, "/forum.php?mod=viewthread&tid=14&page=1", 200, "text/html; charset=gbk", page, T0, cid)
        b = save_raw(s, "/api/mobile/index.php?module=viewthread&tid=14", 200, "application/json", doc,
                     T0 + timedelta(seconds=1))
        save_raw(s, "/forum.php?mod=viewthread&tid=14&page=2", 302, None, b"", T0 + timedelta(seconds=2), cid)
        stored_size = s.connection().execute(
            select(func.length(raw_t.c.body_gz)).where(raw_t.c.id == a)).scalar_one()
    with store.session() as s:
        every = list(iter_raw(s, batch=2))
        of_crawl = list(iter_raw(s, crawl_id=cid))
    assert [p.id for p in every][:2] == [a, b] and len(every) == 3
    assert every[0].body == page and every[0].content_type == "text/html; charset=gbk"
    assert every[1].body == doc and every[1].crawl_id is None and every[1].fetched_at == T0 + timedelta(seconds=1)
    assert every[2].status == 302 and every[2].body == b""
    assert [p.id for p in of_crawl] == [a, every[2].id]
    assert stored_size < len(page) / 10


def test_thread_counters_keep_what_a_source_does_not_know(store: Store) -> None:
    with store.session() as s:
        assert thread_state(s, 14).replies is None
        save_thread(s, 14, "【增量A】第一天白天讨论帖", 24, 25, 3, fid=4, seen_at=T0)
        save_thread(s, 14, "【增量A】第一天白天讨论帖", None, None, 4, seen_at=T0 + timedelta(hours=1))
        upsert_posts(s, [post(1, "导演A", T0)], seen_at=T0)
        state = thread_state(s, 14)
    assert (state.subject, state.replies, state.maxposition, state.pages) == ("【增量A】第一天白天讨论帖", 24, 25, 4)
    assert set(state.known) == {1} and state.known[1].floor == 1


def test_posts_before_their_thread_create_it(store: Store) -> None:
    with store.session() as s:
        upsert_posts(s, [post(1, "导演A", T0, tid=77)], seen_at=T0)
        save_thread(s, 77, "讨论帖", 0, 1, 1, seen_at=T0)
        state = thread_state(s, 77)
    assert state.subject == "讨论帖" and 1 in state.known


def test_per_author_counts_in_a_window(store: Store) -> None:
    day_start = datetime(2025, 4, 12, 0, 0, tzinfo=SHANGHAI)
    day_end = day_start + timedelta(days=1)
    rows = [post(1, "泡泡", day_start - timedelta(seconds=1)),  # the day before (Shanghai time)
            post(2, "泡泡", day_start), post(3, "泡泡", day_start + timedelta(hours=7, minutes=59)),
            post(4, "花千树", day_start + timedelta(hours=12)), post(5, "花千树", day_end),
            post(6, "饺子", day_start + timedelta(hours=1)), post(7, "饺子", day_start + timedelta(hours=2), tid=15)]
    with store.session() as s:
        upsert_posts(s, rows, seen_at=day_end)
        mark_deleted(s, 14, [1, 2, 3, 4, 5], seen_at=day_end)
        counts = author_post_counts(s, 14, day_start, day_end)
        both = author_post_counts(s, [14, 15], day_start, day_end)
        visible = author_post_counts(s, 14, day_start, day_end, include_deleted=False)
        with pytest.raises(ValueError):
            author_post_counts(s, 14, datetime(2025, 4, 12), day_end)
    assert counts == {"泡泡": 2, "花千树": 1, "饺子": 1}
    assert both == {"泡泡": 2, "花千树": 1, "饺子": 2}
    assert visible == {"泡泡": 2, "花千树": 1}


_WRITER = textwrap.dedent("""
    import sys
    from dataclasses import replace
    from datetime import datetime, timedelta, timezone
    from tracker.records import Post
    from tracker.store.db import Store
    from tracker.store.posts import upsert_posts
    store = Store.open(sys.argv[1])
    t0 = datetime(2025, 4, 12, tzinfo=timezone.utc)
    n = 0
    while n < 20000:  # bounded: the test kills it long before
        posts = [Post(pid=n * 10 + i, tid=14, floor=n * 10 + i, author="a", uid=None, posted_at=t0,
                      html="x" * 2000, text=f"{n}-{i}") for i in range(10)]
        edits = [replace(p, text=p.text + "改") for p in posts[:5]]
        with store.session() as s:  # one call: a page and the edits seen on it, one transaction
            upsert_posts(s, posts + edits, seen_at=t0 + timedelta(seconds=n))
        n += 1
        if n == 3:
            print("ready", flush=True)
""")


def test_a_killed_writer_leaves_a_consistent_store(db_url: str) -> None:
    Store.open(db_url).close()
    proc = subprocess.Popen([sys.executable, "-c", _WRITER, db_url], stdout=subprocess.PIPE,
                            env={**os.environ, "PYTHONPATH": os.getcwd()})
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == b"ready"
        time.sleep(0.3)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    store = Store.open(db_url)
    try:
        with store.session() as s:
            conn = s.connection()
            pids = list(conn.execute(select(post_t.c.pid)).scalars())
            per_pid = dict(conn.execute(select(version_t.c.pid, func.count()).group_by(version_t.c.pid)).all())
            counters = dict(conn.execute(select(post_t.c.pid, post_t.c.versions)).all())
        assert len(pids) >= 30 and len(pids) % 10 == 0  # whole pages only
        for pid in pids:  # every post has its first version; edited ones exactly one more
            assert per_pid[pid] == counters[pid] == (2 if pid % 10 < 5 else 1), pid
    finally:
        store.close()


"""The pages a crawl keeps raw are compressed in a worker thread, never on the event loop (issue 22, item 9).

The event loop's thread fetches and stores; on a 2-core machine it is the crawl's critical path
(~85% of a re-crawl's CPU). Compressing the kept pages (gzip, ~0.1 s of a first 3,000-post crawl)
was the largest piece of work left there that needs no GIL: done in the worker that parses a desktop
page, or in one for a listing's answers, it runs beside the loop. What is stored is unchanged: the
same gzip bytes of the same bodies, every kept page still kept.
"""

from __future__ import annotations

import gzip
import threading
from pathlib import Path

import pytest
import test_crawl_growth
from test_crawl_growth import GROWTH, growth_game

from tracker.demo.server import ReplayForum
from tracker.scraper.crawl import crawl_game_sync
from tracker.store.db import Store
from tracker.store.posts import RAW_GZIP_LEVEL, RawAnswer, iter_raw, pack_raw, save_raws
from tracker.store.tables import raw_t

#: The growth forum, defined once in test_crawl_growth (pytest collects fixtures by name).
forum = test_crawl_growth.forum


def test_kept_pages_are_compressed_off_the_event_loop(tmp_path: Path, forum: ReplayForum,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    where: list[int] = []
    compress = gzip.compress

    def watched(data: bytes, *args: object, **kw: object) -> bytes:
        where.append(threading.get_ident())
        return compress(data, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(gzip, "compress", watched)
    loop_thread = threading.get_ident()  # crawl_game_sync runs its event loop on the caller's thread
    game = growth_game(tmp_path, forum)
    store = Store.open(f"sqlite:///{tmp_path / 'g.db'}")
    try:
        assert crawl_game_sync(game, store).status == "ok"
        forum.switch(GROWTH / "epoch2")  # a re-crawl keeps its changed listings and pages too
        assert crawl_game_sync(game, store).status == "ok"
        with store.unit() as s:
            rows = s.connection().execute(raw_t.select().order_by(raw_t.c.id)).mappings().all()
            pages = list(iter_raw(s))
    finally:
        store.close()
    listings = [r for r in rows if "api/mobile" in r["url"]]
    desktop = [r for r in rows if "mod=viewthread" in r["url"] and "api/mobile" not in r["url"]]
    assert listings and desktop
    assert len(where) == len(rows)  # each kept answer compressed once
    assert loop_thread not in where
    for row, page in zip(rows, pages, strict=True):  # the bytes the store always kept
        assert row["size"] == len(page.body) > 0
        assert row["body_gz"] == compress(page.body, compresslevel=RAW_GZIP_LEVEL, mtime=0)


def test_an_answer_not_packed_beforehand_is_packed_when_stored(tmp_path: Path) -> None:
    from datetime import UTC, datetime

    store = Store.open(f"sqlite:///{tmp_path / 'g.db'}")
    body = "<html>帖子</html>".encode()
    at = datetime(2025, 4, 12, 2, 0, tzinfo=UTC)
    try:
        with store.unit() as s:
            save_raws(s, [RawAnswer("u1", 200, "text/html", body, at),
                          RawAnswer("u2", 200, "text/html", body, at).packed()])
            stored = s.connection().execute(raw_t.select().order_by(raw_t.c.id)).mappings().all()
    finally:
        store.close()
    assert [r["body_gz"] for r in stored] == [pack_raw(body)] * 2
    assert gzip.decompress(stored[0]["body_gz"]) == body

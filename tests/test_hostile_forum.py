"""A hostile or broken forum, over real loopback sockets: each test performs the attack and shows the
clear error, the bounded cost, and that what was stored before is intact and the crawl is recorded."""

from __future__ import annotations

import asyncio
import json
import re
import time
import tracemalloc
from pathlib import Path

import pytest

from tests.hostile_forum import JSON, PAGES, Answer, HostileForum, game_file, gzip_zeros, page
from tracker.cli import main
from tracker.config import load_game
from tracker.errors import NetworkError, ResponseTooLargeError
from tracker.scraper.crawl import crawl_game
from tracker.scraper.fetch import Fetcher, FetchPolicy
from tracker.store.db import Store
from tracker.store.posts import all_posts, crawls, posts_for_thread

VOTE_PAGES = {1: "day1-vote-p1.html", 2: "day1-vote-p2.html", 3: "day1-vote-p3.html"}


def desktop_page_no(path: str) -> int:
    m = re.search(r"[?&]page=(\d+)", path)
    return int(m.group(1)) if m else 1


def vote_thread(path: str) -> Answer:
    """Thread 4 as the captured forum shows it (3 desktop pages, 21 posts)."""
    return page(VOTE_PAGES.get(desktop_page_no(path), VOTE_PAGES[3]))


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def stored(db: Path) -> list[tuple[int, str, str]]:
    store = Store.open(f"sqlite:///{db}")
    try:
        with store.session() as s:
            return [(p.pid, p.author, p.text) for p in all_posts(s)]
    finally:
        store.close()


def crawl_records(db: Path) -> list[tuple[str, list[str]]]:
    store = Store.open(f"sqlite:///{db}")
    try:
        with store.session() as s:
            return [(c.status, c.errors) for c in crawls(s)]
    finally:
        store.close()


# -- item 6: response size ------------------------------------------------------------------------

async def test_a_gzip_bomb_is_refused_at_the_cap_without_unpacking_it() -> None:
    bomb = Answer(gzip_zeros(512 << 20), headers={"Content-Type": "text/html", "Content-Encoding": "gzip"})
    with HostileForum(lambda _p: bomb) as forum:
        tracemalloc.start()
        try:
            async with Fetcher(forum.base_url, FetchPolicy(delay=0, retries=0, max_body=4 << 20)) as f:
                with pytest.raises(ResponseTooLargeError, match="解压后超过 4 MiB") as err:
                    await f.get("forum.php?mod=viewthread&tid=4")
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert err.value.exit_code == 4 and "max_page_mb" in str(err.value)
    assert peak < 32 << 20  # 512 MiB behind it; we held at most a few times the cap
    assert len(forum.requests) == 1  # a bomb is not asked for again


async def test_an_honest_gzip_page_still_arrives_whole() -> None:
    import gzip

    raw = (PAGES / "day1-vote-p1.html").read_bytes()
    ans = Answer([gzip.compress(raw)], headers={"Content-Type": "text/html; charset=utf-8",
                                                "Content-Encoding": "gzip"})
    with HostileForum(lambda _p: ans) as forum:
        async with Fetcher(forum.base_url, FetchPolicy(delay=0, retries=0, max_body=len(raw))) as f:
            got = await f.get("forum.php?mod=viewthread&tid=4")
    assert got.body == raw


def test_a_bomb_in_one_thread_fails_that_thread_and_keeps_the_others(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def handler(path: str) -> Answer:
        if "tid=5" in path:
            return Answer(gzip_zeros(64 << 20), headers={"Content-Type": "text/html", "Content-Encoding": "gzip"})
        return vote_thread(path)

    with HostileForum(handler) as forum:
        game = game_file(tmp_path, forum.base_url, tids=(4, 5), crawl="mobile_api = false\nmax_page_mb = 2")
        code, out, err = run(capsys, "crawl", str(game))
    assert code == 4
    assert "帖 5：论坛错误" in out and "解压后超过 2 MiB" in err and "Traceback" not in err
    assert len([p for p in stored(tmp_path / "game.db") if p[0]]) == 21  # thread 4 whole
    assert crawl_records(tmp_path / "game.db")[0][0] == "partial"


def test_the_crawl_record_is_closed_as_failed_whatever_ends_the_crawl(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tracker.scraper.crawl as crawl_mod

    def boom(*_a: object, **_k: object) -> None:
        raise MemoryError

    monkeypatch.setattr(crawl_mod, "parse_thread_page", boom)
    with HostileForum(vote_thread) as forum:
        game = load_game(game_file(tmp_path, forum.base_url, crawl="mobile_api = false"))
        store = Store.open(f"sqlite:///{tmp_path / 'game.db'}")
        with pytest.raises(MemoryError):
            asyncio.run(crawl_game(game, store))
        store.close()
    [(status, errors)] = crawl_records(tmp_path / "game.db")
    assert status == "failed" and errors == ["抓取中断：MemoryError"]


# -- item 7: deadlines ----------------------------------------------------------------------------

def trickle(_path: str) -> Answer:
    """A byte every 0.2 s: each read is quick, the page never ends (well, in 40 s)."""
    return Answer([b"<", *([0.2, b" "] * 200)])


async def test_a_trickling_server_meets_the_per_request_deadline() -> None:
    with HostileForum(trickle) as forum:
        started = time.monotonic()
        async with Fetcher(forum.base_url, FetchPolicy(delay=0, retries=1, backoff=0.01, timeout=5,
                                                       deadline=1.0)) as f:
            with pytest.raises(NetworkError, match="超时"):
                await f.get("forum.php?mod=viewthread&tid=4")
    assert time.monotonic() - started < 4  # two tries of one second, not 2 x 40 s
    assert len(forum.requests) == 2


def test_a_stuck_crawl_meets_the_crawl_deadline_and_is_recorded_failed(tmp_path: Path) -> None:
    with HostileForum(trickle) as forum:
        game = load_game(game_file(tmp_path, forum.base_url, crawl="mobile_api = false\ntimeout = 30"))
        store = Store.open(f"sqlite:///{tmp_path / 'game.db'}")
        started = time.monotonic()
        with pytest.raises(NetworkError, match="分钟仍未完成") as err:
            asyncio.run(crawl_game(game, store, deadline_minutes=1.5 / 60))
        store.close()
    assert time.monotonic() - started < 5 and err.value.exit_code == 5
    [(status, errors)] = crawl_records(tmp_path / "game.db")
    assert status == "failed" and "分钟仍未完成" in errors[0]


# -- item 8: a page count that lies ---------------------------------------------------------------

def lying_pages(path: str) -> Answer:
    """Every page of thread 4 claims 共 1000000 页; past page 3 the forum answers with page 3."""
    n = desktop_page_no(path)
    html = (PAGES / VOTE_PAGES.get(n, VOTE_PAGES[3])).read_text(encoding="utf-8")
    html = re.sub(r"共\s*\d+\s*页", "共 1000000 页", html)
    return Answer([html.encode()])


def test_a_million_page_claim_stops_at_the_reply_count(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with HostileForum(lying_pages) as forum:
        game = game_file(tmp_path, forum.base_url, crawl="mobile_api = false")
        code, out, err = run(capsys, "crawl", str(game))
    assert len(forum.requests) <= 4  # 20 replies = 3 pages (+1 for a post arriving meanwhile)
    assert code == 3 and "声称共 1000000 页" in err and "回复数 20" in err and "无法解析" in out
    assert len(stored(tmp_path / "game.db")) == 21  # every real post is stored all the same
    assert crawl_records(tmp_path / "game.db")[0][0] == "partial"


def test_without_a_reply_count_a_page_that_is_not_the_one_asked_for_ends_the_walk(tmp_path: Path) -> None:
    def no_replies(path: str) -> Answer:
        ans = lying_pages(path)
        body = b"".join(b for b in ans.body if isinstance(b, bytes))
        return Answer([re.sub(rb'\xe5\x9b\x9e\xe5\xa4\x8d:', b"", body)])  # drop the 回复: cell label

    with HostileForum(no_replies) as forum:
        game = load_game(game_file(tmp_path, forum.base_url, crawl="mobile_api = false"))
        store = Store.open(f"sqlite:///{tmp_path / 'game.db'}")
        report = asyncio.run(crawl_game(game, store))
        store.close()
    assert len(forum.requests) <= 1 + 20  # page 1, then one batch: page 4 came back as page 3
    assert report.threads[0].desktop_pages[:3] == [1, 2, 3]
    assert len(stored(tmp_path / "game.db")) == 21


# -- item 9: answers that used to end in a traceback --------------------------------------------------

def mobile_doc(post: dict[str, object]) -> bytes:
    doc = json.loads((PAGES / "day1-vote-p1.mobile.json").read_bytes())
    doc["Variables"]["postlist"] = [{**doc["Variables"]["postlist"][0], **post}]
    doc["Variables"]["thread"]["replies"] = "0"
    return json.dumps(doc, ensure_ascii=True).encode()


@pytest.mark.parametrize(("body", "words"), [
    (mobile_doc({"pid": str(2**63)}), "pid 不是可用的数字"),
    (b'{"Variables": ' + b"[" * 200_000 + b"]" * 200_000 + b"}", "嵌套过深"),
    (mobile_doc({"message": "\ud800"}), "孤立的代理项"),
    (mobile_doc({"author": "\udfff"}), "孤立的代理项"),
], ids=["pid-2**63", "nested-200k", "surrogate-message", "surrogate-author"])
def test_a_broken_mobile_answer_is_a_parse_error_naming_the_page(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], body: bytes, words: str) -> None:
    def handler(path: str) -> Answer:
        if "api/mobile" in path:
            return Answer([body], headers={"Content-Type": JSON})
        return vote_thread(path)

    # Something stored before, which the broken answer must leave alone.
    with HostileForum(vote_thread) as forum:
        game = game_file(tmp_path, forum.base_url, crawl="mobile_api = false")
        assert run(capsys, "crawl", str(game))[0] == 0
    before = stored(tmp_path / "game.db")
    with HostileForum(handler) as forum:
        game = game_file(tmp_path, forum.base_url)
        code, _out, err = run(capsys, "crawl", str(game))
    assert code == 3, err
    assert words in err and "api/mobile/index.php" in err and "Traceback" not in err
    assert stored(tmp_path / "game.db") == before
    assert [s for s, _ in crawl_records(tmp_path / "game.db")] == ["partial", "ok"]


def test_store_still_reads_thread_4_after_everything(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with HostileForum(vote_thread) as forum:
        game = game_file(tmp_path, forum.base_url, crawl="mobile_api = false")
        assert run(capsys, "crawl", str(game))[0] == 0
    store = Store.open(f"sqlite:///{tmp_path / 'game.db'}")
    with store.session() as s:
        assert len(posts_for_thread(s, 4)) == 21
    store.close()


def test_a_crawl_killed_before_its_end_is_recorded_failed_by_the_next(tmp_path: Path) -> None:
    """SIGKILL or the OOM killer leave a 'running' record; past any deadline, the next crawl closes it."""
    from datetime import UTC, datetime, timedelta

    from tracker.store.posts import start_crawl

    with HostileForum(vote_thread) as forum:
        game = load_game(game_file(tmp_path, forum.base_url, crawl="mobile_api = false"))
        store = Store.open(f"sqlite:///{tmp_path / 'game.db'}")
        now = datetime.now(UTC)
        with store.session() as s:
            killed = start_crawl(s, [4], started_at=now - timedelta(hours=3))
            alive = start_crawl(s, [4], started_at=now - timedelta(minutes=1))  # another crawl, running now
        asyncio.run(crawl_game(game, store))
        with store.session() as s:
            by_id = {c.id: c for c in crawls(s)}
        store.close()
    assert by_id[killed].status == "failed" and "被终止" in by_id[killed].errors[0]
    assert by_id[alive].status == "running"


@pytest.mark.parametrize("step", [1, 7, 65536])
@pytest.mark.parametrize("enc", ["gzip", "deflate", "raw-deflate", ""])
def test_bodies_are_unpacked_whole_however_they_are_chunked(enc: str, step: int) -> None:
    import zlib

    from tracker.scraper.fetch import _BoundedBody

    data = "投票对象：栗子\n".encode() * 500
    wbits = {"gzip": 31, "deflate": 15, "raw-deflate": -15}.get(enc)
    if wbits is None:
        packed = data
    else:
        z = zlib.compressobj(6, zlib.DEFLATED, wbits)
        packed = z.compress(data) + z.flush()
    body = _BoundedBody("deflate" if enc == "raw-deflate" else enc, 1 << 20)
    for i in range(0, len(packed), step):
        body.add(packed[i:i + step])
    assert body.finish() == data

"""What a director sees when the forum is not what the game file says: charsets, non-Discuz pages."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
import respx

from tests.captured_pages import PAGES
from tracker.config import load_game
from tracker.errors import NotAThreadError
from tracker.scraper.crawl import crawl_game
from tracker.scraper.desktop import parse_thread_page
from tracker.scraper.fetch import Fetcher, FetchPolicy
from tracker.store.db import Store
from tracker.store.posts import all_posts

BASE = "http://bbs.example.test/"


@respx.mock
@pytest.mark.parametrize("content_type", ["text/html; charset=gbk", "text/html"])
async def test_a_gbk_page_is_decoded_from_the_header_or_its_meta(content_type: str) -> None:
    gbk = (PAGES / "day1-discussion-p1.gbk.html").read_bytes()
    respx.get(BASE + "forum.php?mod=viewthread&tid=3&page=1").mock(
        return_value=httpx.Response(200, content=gbk, headers={"content-type": content_type}))
    async with Fetcher(BASE, FetchPolicy(delay=0)) as f:
        got = await f.get("forum.php?mod=viewthread&tid=3&page=1")
    page = parse_thread_page(got.body, page_url=got.url, content_type=got.content_type)
    utf8 = parse_thread_page((PAGES / "day1-discussion-p1.html").read_bytes())
    assert [(p.pid, p.author, p.text) for p in page.posts] == [(p.pid, p.author, p.text) for p in utf8.posts]
    assert "第一日讨论帖" in got.text


@respx.mock
async def test_a_site_that_is_not_discuz_is_named_as_such(tmp_path: Path) -> None:
    respx.get(url__startswith=BASE).mock(return_value=httpx.Response(
        200, text="<html><head><title>Welcome</title></head><body>nginx</body></html>",
        headers={"content-type": "text/html"}))
    path = tmp_path / "game.toml"
    path.write_text(f'[game]\nname = "x"\nruleset = "luoluo-m19"\nforum = "{BASE}"\nprocess_thread = 2\n'
                    "[crawl]\ndelay = 0\n", encoding="utf-8")
    store = Store.open(f"sqlite:///{tmp_path / 'game.db'}")
    try:
        report = await crawl_game(load_game(path), store)
        with store.session() as s:
            assert all_posts(s) == []
    finally:
        store.close()
    assert report.status == "partial" and report.threads[0].status == "not_a_thread"
    assert report.threads[0].source == "desktop"  # the mobile API answered no JSON: desktop tried
    err = report.errors[0]
    assert isinstance(err, NotAThreadError) and err.exit_code == 3 and "Discuz" in err.message

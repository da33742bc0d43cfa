"""A crawl parses each listing's JSON once (issue 22, item 9).

The fetcher tells a listing cut short in transit from a whole one by parsing it; the crawl then
reads the document the check parsed (``Fetched.document``) instead of parsing the same ~130 KB
answer again, once per thread on every crawl.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
import test_crawl_growth
from test_crawl_growth import growth_game

from tracker.demo.server import ReplayForum
from tracker.scraper.crawl import crawl_game_sync
from tracker.scraper.fetch import Fetcher, FetchPolicy, looks_truncated
from tracker.store.db import Store

#: The growth forum, defined once in test_crawl_growth (pytest collects fixtures by name).
forum = test_crawl_growth.forum


def test_each_listing_is_parsed_once(tmp_path: Path, forum: ReplayForum, monkeypatch: pytest.MonkeyPatch) -> None:
    parsed: list[int] = []
    loads = json.loads

    def counting(doc: Any, *args: Any, **kw: Any) -> Any:
        if isinstance(doc, bytes) and b'"Variables"' in doc:
            parsed.append(len(doc))
        return loads(doc, *args, **kw)

    monkeypatch.setattr(json, "loads", counting)
    store = Store.open(f"sqlite:///{tmp_path / 'g.db'}")
    try:
        report = crawl_game_sync(growth_game(tmp_path, forum), store)
    finally:
        store.close()
    assert report.status == "ok"
    listings = [u for u in forum.requests if "api/mobile" in u and "module=viewthread" in u]
    assert listings and len(parsed) == len(listings)


async def test_the_fetcher_hands_on_the_document_it_checked() -> None:
    body = b' {"Variables": {"postlist": [{"pid": "1"}]}} '
    cut = body[:20]
    answers = iter([cut, body])

    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=next(answers), headers={"content-type": "application/json"})

    async def no_wait(_: float) -> None:
        return None

    async with Fetcher("http://forum.test/", FetchPolicy(delay=0), transport=httpx.MockTransport(answer),
                       sleep=no_wait) as fetcher:
        got = await fetcher.get("api/mobile/index.php?module=viewthread", kind="json")
    assert got.attempts == 2  # the cut answer was asked again
    assert got.document == {"Variables": {"postlist": [{"pid": "1"}]}}
    html = await _html_document()
    assert html is None and not looks_truncated(body, httpx.Headers(), "json")


async def _html_document() -> object:
    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=b"<html><body>x</body></html>")

    async with Fetcher("http://forum.test/", FetchPolicy(delay=0), transport=httpx.MockTransport(answer)) as fetcher:
        return (await fetcher.get("forum.php?mod=viewthread&tid=1", kind="html")).document

"""The crawl's client reads the CA bundle only for a forum it reaches over https (issue 22, item 9):
building the TLS context was ~25 ms of CPU on every crawl, a tenth of a small re-crawl's floor,
for forums served over plain http that never use it."""

from __future__ import annotations

import asyncio
import ssl
from pathlib import Path
from typing import Any

import pytest

from tracker.demo.server import ReplayForum
from tracker.errors import NetworkError
from tracker.scraper.fetch import Fetcher, FetchPolicy

PAGES = Path(__file__).parent / "fixtures" / "discuz" / "pages"


@pytest.fixture
def contexts(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The ``verify`` of every TLS context httpx builds for a transport."""
    import httpx._transports.default as transports

    real = transports.create_ssl_context  # type: ignore[attr-defined]
    asked: list[Any] = []

    def counting(verify: Any = True, cert: Any = None, trust_env: bool = True) -> ssl.SSLContext:
        asked.append(verify)
        return real(verify=verify, cert=cert, trust_env=trust_env)

    monkeypatch.setattr(transports, "create_ssl_context", counting)
    return asked


def test_a_forum_over_plain_http_never_reads_the_ca_bundle(contexts: list[Any]) -> None:
    async def fetch(base: str) -> int:
        async with Fetcher(base, FetchPolicy(delay=0, retries=0)) as f:
            got = await f.get("forum.php?mod=viewthread&tid=3&page=1", kind="html")
            return got.status

    with ReplayForum(PAGES) as forum:
        assert asyncio.run(fetch(forum.base_url)) == 200
    assert contexts == [False]  # one transport, built without the CA bundle


def test_a_forum_over_https_gets_httpx_s_verifying_context(contexts: list[Any]) -> None:
    async def fetch() -> None:
        async with Fetcher("https://127.0.0.1:9/", FetchPolicy(delay=0, retries=0, timeout=5)) as f:
            assert contexts == []  # nothing built before the first request
            await f.get("forum.php?mod=viewthread&tid=3&page=1", kind="html")

    with pytest.raises(NetworkError):  # nothing listens there: the context was built all the same
        asyncio.run(fetch())
    assert contexts.count(True) == 1

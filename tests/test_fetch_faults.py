"""The fetcher against a misbehaving forum (respx stands in for it; no network).

Each case is something a real Discuz forum does to a crawler: slow answers, 5xx while it restarts,
429 with Retry-After, its anti-CC "频繁刷新限制" page, a body cut short, the one-time 302 after a
deletion, and redirects to another host.
"""

from __future__ import annotations

import asyncio

import httpx
import pytest
import respx

from tests.captured_pages import PAGES
from tracker.errors import ForumError, NetworkError
from tracker.scraper.fetch import Fetcher, FetchPolicy, is_flood_page, looks_truncated, parse_retry_after

BASE = "http://127.0.0.1:8080/"
PAGE = (PAGES / "day1-discussion-p1.html").read_bytes()
MOBILE = (PAGES / "day1-discussion.mobile-ppp200.json").read_bytes()
HTML = "text/html; charset=utf-8"
THREAD = "forum.php?mod=viewthread&tid=3&page=2"

# What Discuz's securitymessage() (attackevasive = 1) sends: subject and message as hex entities.
FLOOD = (
    b'<!DOCTYPE html><html><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8" />'
    b'<title>&#x9891;&#x7e41;&#x5237;&#x65b0;&#x9650;&#x5236;</title>'
    b'<meta http-equiv="refresh" content="2;url=forum.php?mod=viewthread&amp;tid=3" /></head><body>'
    b'<div>&#x60a8;&#x8bbf;&#x95ee;&#x672c;&#x7ad9;&#x901f;&#x5ea6;&#x8fc7;&#x5feb;&#x6216;&#x8005;'
    b'&#x5237;&#x65b0;&#x95f4;&#x9694;&#x65f6;&#x95f4;&#x5c0f;&#x4e8e;&#x4e24;&#x79d2;&#xff01;</div>'
    b'</body></html>'
)


class Sleeps:
    """A sleep that records how long it was asked to wait and returns at once."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


def fetcher(sleeps: Sleeps, **policy: float) -> Fetcher:
    kw: dict[str, float] = {"delay": 0.0, "retries": 3, "backoff": 1.0, **policy}
    return Fetcher(BASE, FetchPolicy(**kw), sleep=sleeps, jitter=lambda: 0.5)  # type: ignore[arg-type]


def ok(body: bytes = PAGE, content_type: str = HTML) -> httpx.Response:
    return httpx.Response(200, content=body, headers={"content-type": content_type})


@respx.mock
async def test_timeouts_are_retried_with_growing_backoff() -> None:
    route = respx.get(BASE + THREAD).mock(side_effect=[httpx.ReadTimeout("slow"), httpx.ConnectTimeout("slow"), ok()])
    sleeps = Sleeps()
    async with fetcher(sleeps) as f:
        page = await f.get(THREAD)
    assert page.status == 200 and page.body == PAGE
    assert route.call_count == 3 and f.stats.requests == 3 and f.stats.retries == 2
    assert sleeps.waits == [1.0, 2.0]  # backoff 1, 2 with the jitter fixed at its middle


@respx.mock
async def test_an_unreachable_forum_is_a_network_error_after_the_retries() -> None:
    respx.get(BASE + THREAD).mock(side_effect=httpx.ConnectError("refused"))
    async with fetcher(Sleeps(), retries=2) as f:
        with pytest.raises(NetworkError) as err:
            await f.get(THREAD)
    assert err.value.exit_code == 5 and "无法连接论坛" in err.value.message and "3 次" in err.value.message
    assert f.stats.requests == 3


@respx.mock
async def test_server_errors_are_retried_then_given_up() -> None:
    respx.get(BASE + THREAD).mock(side_effect=[httpx.Response(500), httpx.Response(502), ok()])
    async with fetcher(Sleeps()) as f:
        assert (await f.get(THREAD)).status == 200
    respx.get(BASE + "forum.php?mod=viewthread&tid=4").mock(return_value=httpx.Response(503))
    async with fetcher(Sleeps(), retries=1) as f:
        with pytest.raises(NetworkError, match="HTTP 503"):
            await f.get("forum.php?mod=viewthread&tid=4")


@respx.mock
async def test_429_waits_as_long_as_retry_after_says() -> None:
    respx.get(BASE + THREAD).mock(side_effect=[httpx.Response(429, headers={"retry-after": "7"}), ok()])
    sleeps = Sleeps()
    async with fetcher(sleeps) as f:
        assert (await f.get(THREAD)).status == 200
    assert sleeps.waits == [7.0]


@respx.mock
async def test_a_retry_after_beyond_the_cap_stops_at_once() -> None:
    route = respx.get(BASE + THREAD).mock(return_value=httpx.Response(429, headers={"retry-after": "3600"}))
    async with fetcher(Sleeps()) as f:
        with pytest.raises(NetworkError, match="3600"):
            await f.get(THREAD)
    assert route.call_count == 1


def test_retry_after_as_an_http_date() -> None:
    from datetime import UTC, datetime

    now = datetime(2026, 11, 29, 16, 0, 0, tzinfo=UTC)
    assert parse_retry_after("Sun, 29 Nov 2026 16:00:30 GMT", now=now) == 30.0
    assert parse_retry_after("12", now=now) == 12.0
    assert parse_retry_after("soon", now=now) is None


@respx.mock
async def test_the_flood_control_page_is_waited_out() -> None:
    route = respx.get(BASE + THREAD).mock(side_effect=[ok(FLOOD), ok(FLOOD), ok()])
    sleeps = Sleeps()
    async with fetcher(sleeps) as f:
        page = await f.get(THREAD)
    assert page.body == PAGE and route.call_count == 3
    assert all(w >= 2.0 for w in sleeps.waits)


@respx.mock
async def test_a_flood_control_page_that_never_ends_names_the_fix() -> None:
    respx.get(BASE + THREAD).mock(return_value=ok(FLOOD))
    async with fetcher(Sleeps(), retries=2) as f:
        with pytest.raises(NetworkError) as err:
            await f.get(THREAD)
    assert "防刷新" in err.value.message and "delay" in (err.value.hint or "")


def test_flood_detection_does_not_fire_on_thread_pages() -> None:
    assert is_flood_page(FLOOD, HTML)
    assert not is_flood_page(PAGE, HTML)
    # A post quoting the flood message is still a thread page: it has a post list.
    assert not is_flood_page(b'<div id="postlist">' + FLOOD, HTML)


@respx.mock
async def test_a_truncated_body_is_fetched_again() -> None:
    cut = PAGE[: len(PAGE) // 2]
    respx.get(BASE + THREAD).mock(side_effect=[ok(cut), ok()])
    mobile = "api/mobile/index.php?version=4&module=viewthread&tid=3&ppp=1000"
    respx.get(BASE + mobile).mock(side_effect=[ok(MOBILE[:-300], "application/json"),
                                               ok(MOBILE, "application/json")])
    async with fetcher(Sleeps()) as f:
        assert (await f.get(THREAD)).body == PAGE
        assert (await f.get(mobile, kind="json")).body == MOBILE
        assert f.stats.retries == 2


def test_truncation_checks() -> None:
    h = httpx.Headers({"content-length": "10"})
    assert looks_truncated(b"12345", h, "any")
    assert not looks_truncated(PAGE, httpx.Headers(), "html")
    assert looks_truncated(PAGE[:1000], httpx.Headers(), "html")
    assert not looks_truncated(b'{"error":"mobile_is_closed"}', httpx.Headers(), "json")
    assert looks_truncated(b'{"Variables": {', httpx.Headers(), "json")


@respx.mock
async def test_peer_closing_mid_body_is_retried() -> None:
    respx.get(BASE + THREAD).mock(side_effect=[httpx.RemoteProtocolError("peer closed connection"), ok()])
    async with fetcher(Sleeps()) as f:
        assert (await f.get(THREAD)).status == 200


@respx.mock
async def test_the_one_time_302_to_itself_is_answered_by_asking_again() -> None:
    route = respx.get(BASE + THREAD).mock(side_effect=[
        httpx.Response(302, headers={"location": BASE + THREAD}), ok()])
    sleeps = Sleeps()
    async with fetcher(sleeps) as f:
        page = await f.get(THREAD)
    assert page.status == 200 and route.call_count == 2 and f.stats.self_redirects == 1
    assert sleeps.waits == []  # not a failure: no backoff


@respx.mock
async def test_the_302_for_page_1_drops_the_page_parameter_and_is_still_itself() -> None:
    url = "forum.php?mod=viewthread&tid=14&page=1"
    route = respx.get(BASE + url).mock(side_effect=[
        httpx.Response(302, headers={"location": BASE + "forum.php?mod=viewthread&tid=14"}), ok()])
    async with fetcher(Sleeps()) as f:
        assert (await f.get(url)).status == 200
    assert route.call_count == 2


@respx.mock
async def test_a_mobile_request_redirected_to_the_desktop_page_is_asked_again() -> None:
    mobile = "api/mobile/index.php?version=4&module=viewthread&tid=14&page=1&ppp=1000"
    route = respx.get(BASE + mobile).mock(side_effect=[
        httpx.Response(302, headers={"location": BASE + "forum.php?mod=viewthread&tid=14&page=2"}),
        ok(MOBILE, "application/json")])
    async with fetcher(Sleeps()) as f:
        page = await f.get(mobile, kind="json")
    assert page.body == MOBILE and route.call_count == 2 and page.url == BASE + mobile


@respx.mock
async def test_a_redirect_to_another_host_is_not_followed() -> None:
    respx.get(BASE + THREAD).mock(return_value=httpx.Response(302, headers={"location": "http://evil.example/x"}))
    other = respx.get("http://evil.example/x")
    async with fetcher(Sleeps()) as f:
        with pytest.raises(ForumError, match="另一个站点"):
            await f.get(THREAD)
    assert other.call_count == 0


@respx.mock
async def test_a_redirect_on_the_same_forum_is_followed() -> None:
    find = "forum.php?mod=redirect&goto=findpost&ptid=3&pid=80"
    respx.get(BASE + find).mock(return_value=httpx.Response(
        301, headers={"location": "forum.php?mod=viewthread&tid=3&page=6#pid80"}))
    respx.get(BASE + "forum.php?mod=viewthread&tid=3&page=6").mock(return_value=ok())
    async with fetcher(Sleeps()) as f:
        page = await f.get(find)
    assert page.status == 200 and page.url.endswith("page=6")


@respx.mock
async def test_a_missing_thread_is_handed_back_not_retried() -> None:
    missing = (PAGES / "nonexistent-tid.html").read_bytes()
    route = respx.get(BASE + "forum.php?mod=viewthread&tid=99999").mock(
        return_value=httpx.Response(404, content=missing, headers={"content-type": HTML}))
    async with fetcher(Sleeps()) as f:
        page = await f.get("forum.php?mod=viewthread&tid=99999")
    assert page.status == 404 and route.call_count == 1


@respx.mock
async def test_a_form_post_is_never_sent_twice() -> None:
    route = respx.post(BASE + "member.php?mod=logging&action=login&loginsubmit=yes&inajax=1").mock(
        return_value=httpx.Response(503, content=b"System Error"))
    async with fetcher(Sleeps()) as f:
        answer = await f.post_form("member.php?mod=logging&action=login&loginsubmit=yes&inajax=1", {"a": "b"})
    assert answer.status == 503 and route.call_count == 1


class CountingTransport(httpx.AsyncBaseTransport):
    """Counts requests in flight to check the concurrency bound."""

    def __init__(self) -> None:
        self.in_flight = 0
        self.peak = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)
        await asyncio.sleep(0.01)
        self.in_flight -= 1
        return ok()


async def test_no_more_requests_in_flight_than_the_concurrency() -> None:
    transport = CountingTransport()
    async with Fetcher(BASE, FetchPolicy(concurrency=2, delay=0.0), transport=transport) as f:
        await asyncio.gather(*(f.get(f"forum.php?mod=viewthread&tid=3&page={i}") for i in range(1, 9)))
    assert transport.peak == 2 and f.stats.requests == 8


async def test_each_connection_waits_the_politeness_delay_between_requests() -> None:
    sleeps = Sleeps()
    async with Fetcher(BASE, FetchPolicy(concurrency=1, delay=0.5), transport=CountingTransport(),
                       sleep=sleeps) as f:
        for i in range(1, 4):
            await f.get(f"forum.php?mod=viewthread&tid=3&page={i}")
    assert len(sleeps.waits) == 2 and all(0.4 < w <= 0.5 for w in sleeps.waits)

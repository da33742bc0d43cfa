"""The only code (with :mod:`tracker.scraper.auth`) that talks to the forum.

Politeness first: at most ``concurrency`` requests in flight and, per connection slot, ``delay``
seconds between the end of one request and the start of the next. Everything a forum does to a
crawler that a human would answer with "wait and press F5" is retried with exponential backoff and
jitter; everything else is handed back to the caller, who knows what the page should be.

What httpx can raise, and what we make of it::

    httpx.HTTPError
    ├── httpx.TransportError                    → retried, then NetworkError (forum unreachable)
    │   ├── httpx.TimeoutException              (connect / read / write / pool timeouts)
    │   ├── httpx.NetworkError                  (connect refused, connection reset …)
    │   ├── httpx.ProtocolError                 (RemoteProtocolError: body cut short …)
    │   ├── httpx.ProxyError, UnsupportedProtocol
    └── httpx.HTTPStatusError                   (never raised: we read the status ourselves)

and what the forum answers::

    5xx, 429 (Retry-After honoured)             → retried, then NetworkError
    Discuz's 防CC page (频繁刷新限制 / 页面重载开启) → retried (the cookie it sets is kept)
    a body shorter than its Content-Length, an HTML page without ``</html>``,
    a JSON document that does not parse         → retried (truncated), then NetworkError
    302 to the very same URL (the one-time "disable position" redirect after a deletion), or
    from the mobile API to a desktop thread URL → the ORIGINAL URL is requested again
    a viewthread request redirected to another host once (that one-time redirect names the
    forum's configured site URL: http/https, www, a port, a proxy)
                                                → the ORIGINAL URL is requested again, once
    a redirect to another host                  → ForumError, never followed
    a redirect elsewhere on the same forum      → followed (at most a few hops)
    a body larger than ``max_body`` once unpacked → ResponseTooLargeError at once, never retried
      (bodies are streamed and gzip/deflate unpacked here with a bound, so a gzip bomb costs at most
      ``max_body`` bytes of memory)
    an answer not complete within ``timeout``   → retried like any timeout: the one setting bounds
      the whole answer, from the request sent to its last byte (a server trickling a byte a second
      resets every per-read timeout, never this one)
    anything else (200, 404 …)                  → returned; the parsers decide what it means

The password never passes through here except as a form field of :meth:`Fetcher.post_form`, and
nothing here logs request bodies.
"""

from __future__ import annotations

import asyncio
import email.utils
import html
import json
import logging
import random
import time
import zlib
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Literal
from urllib.parse import parse_qsl, urldefrag, urljoin, urlsplit

from tracker.config import DEFAULT_USER_AGENT, CrawlConfig
from tracker.errors import ForumError, NetworkError, ResponseTooLargeError
from tracker.scraper.charset import decode_body
from tracker.scraper.lean_httpx import httpx

_log = logging.getLogger(__name__)

Kind = Literal["html", "json", "any"]
Sleep = Callable[[float], Awaitable[None]]

_REDIRECTS = frozenset({301, 302, 303, 307, 308})
_MAX_SELF_REDIRECTS = 3
_MAX_FOLLOWED = 5
# Discuz's securitymessage() (attackevasive) pages, in Simplified and Traditional editions; the page
# writes them as hex entities, hence the unescape before matching.
_FLOOD_MARKERS = ("频繁刷新限制", "刷新间隔时间", "页面重载开启", "頻繁刷新限制", "重新載入",
                  "请求过于频繁", "访问过于频繁")
_FLOOD_MIN_WAIT = 2.0
_FLOOD_SCAN_LIMIT = 64 * 1024
DEFAULT_MAX_BODY = 128 * 1024 * 1024  # a 38,000-post mobile listing is ~60 MB; a desktop page ~1 MB
_ACCEPT_ENCODING = "gzip, deflate"  # the encodings unpacked here, with a bound


class _BodyTooLarge(Exception):
    """Internal: the body passed ``max_body`` bytes (after unpacking)."""


class _BoundedBody:
    """Collect a response body, unpacking gzip/deflate ourselves so no chunk may exceed the cap.

    httpx's decoders unpack a whole network chunk at once (64 KiB of a gzip bomb is 64 MiB);
    ``zlib``'s ``max_length`` lets us stop at the cap. Other encodings (a server ignoring our
    Accept-Encoding) go through httpx's decoder and are capped after each chunk.
    """

    def __init__(self, encoding: str, cap: int) -> None:
        self.cap = cap
        self.size = 0
        self.parts: list[bytes] = []
        enc = encoding.strip().lower()
        self.raw = enc in ("", "identity", "gzip", "x-gzip", "deflate")
        self._first = True
        self._z: zlib._Decompress | None = None
        self._enc = enc
        self._head = b""

    def _decompressor(self, head: bytes) -> zlib._Decompress | None:
        if self._enc in ("gzip", "x-gzip"):
            return zlib.decompressobj(zlib.MAX_WBITS | 16)
        if self._enc == "deflate":
            # RFC "deflate" is zlib-wrapped; many servers send it raw.
            zlib_header = len(head) >= 2 and (head[0] & 0x0F) == 8 and ((head[0] << 8) | head[1]) % 31 == 0
            return zlib.decompressobj(zlib.MAX_WBITS if zlib_header else -zlib.MAX_WBITS)
        return None

    def add(self, chunk: bytes) -> None:
        if self._first and chunk:
            if self._enc == "deflate" and len(self._head + chunk) < 2:
                self._head += chunk  # a trickled first byte: the zlib header needs two
                return
            chunk, self._head = self._head + chunk, b""
            self._first = False
            self._z = self._decompressor(chunk) if self.raw else None
        if self._z is None:
            self._keep(chunk)
            return
        data = chunk
        while data:
            room = self.cap - self.size
            try:
                out = self._z.decompress(data, room + 1)
            except zlib.error as exc:
                raise httpx.DecodingError(f"zlib: {exc}") from None
            self._keep(out)
            data = self._z.unconsumed_tail
            if self._z.eof:
                break

    def _keep(self, data: bytes) -> None:
        self.size += len(data)
        if self.size > self.cap:
            raise _BodyTooLarge
        if data:
            self.parts.append(data)

    def finish(self) -> bytes:
        if self._head:  # a deflate body of one byte: no valid stream is that short
            raise httpx.DecodingError("zlib: truncated")
        if self._z is not None:
            self._keep(self._z.flush())
        return b"".join(self.parts)


@dataclass(frozen=True, slots=True)
class FetchPolicy:
    """How hard we may lean on the forum. Tests use ``delay=0`` and a recording ``sleep``."""

    concurrency: int = 2
    delay: float = 0.5
    timeout: float = 60.0
    retries: int = 4
    backoff: float = 1.0
    max_backoff: float = 60.0
    max_retry_after: float = 300.0
    user_agent: str = DEFAULT_USER_AGENT
    max_body: int = DEFAULT_MAX_BODY
    deadline: float | None = None
    """Seconds for one whole answer; None: ``timeout`` (the game file's one setting, see :attr:`whole`)."""

    @property
    def whole(self) -> float:
        return self.timeout if self.deadline is None else self.deadline

    @classmethod
    def from_config(cls, crawl: CrawlConfig) -> FetchPolicy:
        return cls(concurrency=max(1, crawl.concurrency), delay=max(0.0, crawl.delay),
                   timeout=crawl.timeout, retries=max(0, crawl.retries), user_agent=crawl.user_agent,
                   max_body=crawl.max_page_mb * 1024 * 1024)


@dataclass(frozen=True, slots=True)
class Fetched:
    """One answer, as bytes: decoding belongs to whoever knows what the document is."""

    url: str
    status: int
    content_type: str | None
    body: bytes
    attempts: int = 1
    headers: tuple[tuple[str, str], ...] = ()
    requests: int = 1
    document: object = field(default=None, compare=False, repr=False)
    """A JSON answer's document, as the truncation check parsed it (None when not parsed)."""

    @property
    def text(self) -> str:
        return decode_body(self.body, self.content_type)

    def header(self, name: str) -> str | None:
        low = name.lower()
        for k, v in self.headers:
            if k.lower() == low:
                return v
        return None


@dataclass(slots=True)
class FetchStats:
    """Counters for the crawl summary: ``requests`` counts every request sent, retries included."""

    requests: int = 0
    retries: int = 0
    self_redirects: int = 0
    bytes: int = 0
    waited: float = 0.0
    log: list[str] = field(default_factory=list)


@dataclass(slots=True)
class _Slot:
    ready_at: float = 0.0


class _Retry(Exception):
    """Internal: this answer deserves another try after ``after`` seconds (or the backoff)."""

    def __init__(self, reason: str, *, after: float | None = None, kind: str = "server") -> None:
        super().__init__(reason)
        self.reason = reason
        self.after = after
        self.kind = kind


def parse_retry_after(value: str | None, *, now: datetime | None = None) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (delta-seconds or an HTTP date), or ``None``."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())


def is_flood_page(body: bytes, content_type: str | None) -> bool:
    """Discuz's anti-CC page: a short HTML message, no post list, no mobile ``Variables``."""
    if len(body) > _FLOOD_SCAN_LIMIT or b"postlist" in body or b'"Variables"' in body:
        return False
    text = html.unescape(decode_body(body, content_type))
    return any(m in text for m in _FLOOD_MARKERS)


_JSON_CHECK_LIMIT = 16 * 1024 * 1024


def looks_truncated(body: bytes, headers: httpx.Headers, kind: Kind) -> bool:
    """A body cut short in transit: shorter than announced, or a document missing its end."""
    return _truncation(body, headers, kind)[0]


def _truncation(body: bytes, headers: httpx.Headers, kind: Kind) -> tuple[bool, object]:
    """:func:`looks_truncated`, with the JSON document it parsed to tell (else None): the caller
    hands it on (:attr:`Fetched.document`) instead of parsing the same listing a second time."""
    declared = headers.get("content-length")
    if declared and declared.isdigit() and "content-encoding" not in headers and int(declared) != len(body):
        return True, None
    if kind == "html":
        head = body[:2048].lower()
        if b"<html" in head and b"</html>" not in body[-4096:].lower():
            return True, None
    elif kind == "json":
        if len(body) > _JSON_CHECK_LIMIT:
            # no listing a Discuz sends is this large: not parsed here (json.loads of a 121 MB
            # listing took 3.9 GB); the caller refuses it by its size before parsing it
            return False, None
        stripped = body.strip()
        if stripped.startswith((b"{", b"[")):
            try:
                return False, json.loads(stripped)
            except ValueError:
                return True, None
            except RecursionError:
                return False, None  # whole, but nested too deep to read: the parser says so, naming the page
    return False, None


def _canonical(url: str) -> tuple[str, str, tuple[tuple[str, str], ...]]:
    """Host, path and query of a URL as Discuz compares them: ``page=1`` is the same as no page."""
    parts = urlsplit(urldefrag(url)[0])
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if not (k == "page" and v == "1")]
    path = parts.path or "/"
    return parts.netloc.lower(), path, tuple(sorted(query))


def _is_mobile_api(url: str) -> bool:
    return "api/mobile/" in urlsplit(url).path


def _is_desktop_thread(url: str) -> bool:
    parts = urlsplit(url)
    q = dict(parse_qsl(parts.query))
    return parts.path.endswith("forum.php") and q.get("mod") == "viewthread"


def _is_viewthread(url: str) -> bool:
    """A thread request, mobile API or desktop: the ones Discuz answers with its one-time redirect."""
    if _is_desktop_thread(url):
        return True
    return _is_mobile_api(url) and dict(parse_qsl(urlsplit(url).query)).get("module") == "viewthread"


class _TlsWhenAsked(httpx.AsyncBaseTransport):
    """httpx's own transport, whose TLS context (the CA bundle read and parsed: ~25 ms of CPU, a
    tenth of a small re-crawl's floor) is built on the first https:// request, not for a forum
    served over plain http, which never needs it. An https forum gets exactly httpx's default."""

    def __init__(self, limits: httpx.Limits) -> None:
        self._limits = limits
        self._plain: httpx.AsyncHTTPTransport | None = None
        self._tls: httpx.AsyncHTTPTransport | None = None

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.scheme == "https":
            if self._tls is None:
                self._tls = httpx.AsyncHTTPTransport(limits=self._limits)
            return await self._tls.handle_async_request(request)
        if self._plain is None:  # verify=False: no CA bundle read; plain http has no certificate to check
            self._plain = httpx.AsyncHTTPTransport(limits=self._limits, verify=False)
        return await self._plain.handle_async_request(request)

    async def aclose(self) -> None:
        for t in (self._plain, self._tls):
            if t is not None:
                await t.aclose()


class Fetcher:
    """An httpx client for one forum: bounded, polite, retrying. Use as an async context manager."""

    def __init__(
        self,
        base_url: str,
        policy: FetchPolicy | None = None,
        *,
        cookies: httpx.Cookies | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        sleep: Sleep = asyncio.sleep,
        jitter: Callable[[], float] = random.random,
        on_request: Callable[[str], None] | None = None,
    ) -> None:
        if not base_url.endswith("/"):
            base_url += "/"
        self.base_url = base_url
        self.policy = policy or FetchPolicy()
        self.stats = FetchStats()
        self._sleep = sleep
        self._jitter = jitter
        self._on_request = on_request
        self._host = urlsplit(base_url).netloc.lower()
        self._slots: asyncio.Queue[_Slot] | None = None
        limits = httpx.Limits(max_connections=self.policy.concurrency,
                              max_keepalive_connections=self.policy.concurrency)
        self._client = httpx.AsyncClient(
            base_url=base_url,
            cookies=cookies,
            transport=transport if transport is not None else _TlsWhenAsked(limits),
            timeout=httpx.Timeout(self.policy.timeout),
            follow_redirects=False,
            headers={"User-Agent": self.policy.user_agent, "Accept-Language": "zh-CN,zh;q=0.9",
                     "Accept-Encoding": _ACCEPT_ENCODING},
            limits=limits,
        )

    async def __aenter__(self) -> Fetcher:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._client.aclose()

    @property
    def cookies(self) -> httpx.Cookies:
        return self._client.cookies

    def absolute(self, url: str) -> str:
        return urljoin(self.base_url, url)

    # -- politeness ---------------------------------------------------------------------------

    def _slot_queue(self) -> asyncio.Queue[_Slot]:
        # Created lazily: the queue must belong to the running loop, not to the constructor's caller.
        if self._slots is None:
            self._slots = asyncio.Queue()
            for _ in range(self.policy.concurrency):
                self._slots.put_nowait(_Slot())
        return self._slots

    async def _send(self, method: str, url: str,
                    data: Mapping[str, str] | None) -> tuple[httpx.Response, bytes]:
        slots = self._slot_queue()
        slot = await slots.get()
        try:
            wait = slot.ready_at - time.monotonic()
            if wait > 0:
                await self._sleep(wait)
            self.stats.requests += 1
            self.stats.log.append(f"{method} {url}")
            _log.debug("请求 %d：%s %s", self.stats.requests, method, url)  # the URL only: never a form or a cookie
            if self._on_request is not None:
                self._on_request(url)
            try:
                return await self._exchange(method, url, data)
            finally:
                slot.ready_at = time.monotonic() + self.policy.delay
        finally:
            slots.put_nowait(slot)

    async def _exchange(self, method: str, url: str,
                        data: Mapping[str, str] | None) -> tuple[httpx.Response, bytes]:
        """One request and its whole body, streamed under the size cap, within the total deadline."""
        request = self._client.build_request(method, url, data=data)
        try:
            async with asyncio.timeout(self.policy.whole):
                resp = await self._client.send(request, stream=True)
                try:
                    try:
                        ready: bytes | None = resp.content  # answered from memory (a mock transport)
                    except httpx.ResponseNotRead:
                        ready = None
                    if ready is not None:
                        body = _BoundedBody("", self.policy.max_body)
                        body.add(ready)
                    else:
                        body = _BoundedBody(resp.headers.get("content-encoding", ""), self.policy.max_body)
                        chunks = resp.aiter_raw() if body.raw else resp.aiter_bytes()
                        async for chunk in chunks:
                            body.add(chunk)
                    return resp, body.finish()
                finally:
                    await resp.aclose()
        except httpx.DecodingError:
            raise _Retry("回应无法解压（传输中断或压缩数据损坏）", kind="truncated") from None
        except TimeoutError:
            raise httpx.ReadTimeout(f"{self.policy.whole:g} 秒内没有收完回应（总时限）",
                                    request=request) from None
        except _BodyTooLarge:
            mib = self.policy.max_body / (1024 * 1024)
            raise ResponseTooLargeError(
                f"论坛对 {url} 的回应解压后超过 {mib:.0f} MiB，已放弃这一页（可能是压缩炸弹或出错的服务器）",
                hint="若这确实是正常页面，在 game.toml 的 [crawl] 里把 max_page_mb 调大") from None

    async def _backoff(self, attempt: int, after: float | None) -> None:
        base = min(self.policy.max_backoff, self.policy.backoff * (2 ** (attempt - 1)))
        wait = base * (0.5 + self._jitter())
        if after is not None:
            wait = max(wait, after)
        self.stats.retries += 1
        self.stats.waited += wait
        await self._sleep(wait)

    # -- requests -----------------------------------------------------------------------------

    async def get(self, url: str, *, kind: Kind = "html") -> Fetched:
        """GET with retries; returns any final answer that is not a transient failure."""
        return await self._request("GET", url, None, kind=kind, retry=True)

    async def post_form(self, url: str, data: Mapping[str, str], *, kind: Kind = "any") -> Fetched:
        """POST a form once: a login or a reply must never be sent twice behind the user's back."""
        return await self._request("POST", url, data, kind=kind, retry=False)

    async def _request(self, method: str, url: str, data: Mapping[str, str] | None, *,
                       kind: Kind, retry: bool) -> Fetched:
        original = self.absolute(url)
        target = original
        attempts = 0
        self_redirects = 0
        off_host_retried = False
        followed = 0
        sent = 0
        last: _Retry | None = None
        while True:
            attempts += 1
            try:
                sent += 1
                resp, body = await self._send(method, target, data)
                self.stats.bytes += len(body)
                if resp.status_code in _REDIRECTS:
                    location = resp.headers.get("location")
                    if location:
                        nxt = urldefrag(urljoin(target, location))[0]
                        off_host = urlsplit(nxt).netloc.lower() != self._host
                        if off_host and method == "GET" and not off_host_retried and _is_viewthread(original):
                            # Discuz's one-time 302 after a deletion names the forum's configured site
                            # URL, which may differ from ours (http/https, www, a port, a proxy): ask
                            # the original URL again, once; the Location is never followed off-host,
                            # so no cookie goes anywhere else.
                            off_host_retried = True
                            self.stats.self_redirects += 1
                            target = original
                            attempts -= 1
                            continue
                        if off_host:
                            raise ForumError(
                                f"论坛把 {target} 重定向到了另一个站点 {nxt}，已停止（不跟随跨站重定向）",
                                hint="检查 game.toml 的 forum 地址是否是论坛的正式地址（含 http/https 与 www）")
                        if method == "GET" and self._is_one_time_redirect(original, nxt):
                            self_redirects += 1
                            self.stats.self_redirects += 1
                            if self_redirects > _MAX_SELF_REDIRECTS:
                                raise ForumError(f"论坛对 {original} 反复重定向到自身，无法取得页面")
                            target = original
                            attempts -= 1
                            continue
                        if method == "GET" and followed < _MAX_FOLLOWED:
                            followed += 1
                            target = nxt
                            attempts -= 1
                            continue
                document = self._check_transient(resp, body, kind) if retry else None
                return Fetched(url=target, status=resp.status_code,
                               content_type=resp.headers.get("content-type"), body=body,
                               attempts=attempts, headers=tuple(resp.headers.multi_items()), requests=sent,
                               document=document)
            except httpx.TimeoutException as exc:
                last = _Retry(f"超时（{type(exc).__name__}）：{self.policy.whole:g} 秒内没有收完回应（[crawl] timeout）",
                              kind="network")
            except httpx.TransportError as exc:
                hopeless = _hopeless(exc)
                last = _Retry(hopeless or f"连接错误（{type(exc).__name__}: {exc}）", kind="network")
                if hopeless is not None:
                    # nothing listens there, or the name does not resolve: waiting will not fix a
                    # wrong address, so the director hears at once (retries are for what recovers)
                    raise self._give_up(original, last, attempts) from None
            except _Retry as exc:
                last = exc
            if not retry or attempts > self.policy.retries:
                # INFO: the error itself is raised and told (the watcher logs it as a WARNING)
                _log.info("放弃请求 %s %s：%s（共 %d 次）", method, original, last.reason, attempts)
                raise self._give_up(original, last, attempts)
            if last.after is not None and last.after > self.policy.max_retry_after:
                raise NetworkError(
                    f"论坛要求等待 {last.after:.0f} 秒后再访问（{original}），超过上限 {self.policy.max_retry_after:.0f} 秒",
                    hint="稍后再运行 tracker crawl")
            _log.info("重试 %s %s：%s（第 %d 次失败）", method, original, last.reason, attempts)
            await self._backoff(attempts, last.after)

    def _is_one_time_redirect(self, original: str, location: str) -> bool:
        if _canonical(location) == _canonical(original):
            return True
        return _is_mobile_api(original) and _is_desktop_thread(location)

    def _check_transient(self, resp: httpx.Response, body: bytes, kind: Kind) -> object:
        """Raise _Retry for an answer worth asking again; return the JSON document parsed to tell."""
        status = resp.status_code
        if status == 429 or status >= 500:
            after = parse_retry_after(resp.headers.get("retry-after"))
            raise _Retry(f"HTTP {status}", after=after, kind="status")
        if status == 200 and kind != "any" and is_flood_page(body, resp.headers.get("content-type")):
            raise _Retry("防刷新限制（频繁刷新限制）", after=_FLOOD_MIN_WAIT, kind="flood")
        if status != 200:
            return None
        cut, document = _truncation(body, resp.headers, kind)
        if cut:
            raise _Retry("页面不完整（传输中断）", kind="truncated")
        return document

    def _give_up(self, url: str, last: _Retry | None, attempts: int) -> NetworkError:
        reason = last.reason if last is not None else "未知错误"
        tries = f"共尝试 {attempts} 次"
        if last is not None and last.kind == "network":
            return NetworkError(f"无法连接论坛 {self.base_url}：{reason}，{tries}（{url}）",
                                hint="检查网络，以及 game.toml 里 [game] forum 的地址")
        if last is not None and last.kind == "flood":
            return NetworkError(f"论坛的防刷新限制一直拦截请求，{tries}（{url}）",
                                hint="在 game.toml 的 [crawl] 里把 delay 调大、concurrency 调小后再试")
        return NetworkError(f"论坛暂时无法正常应答：{reason}，{tries}（{url}）",
                            hint="论坛可能在维护或负载过高，稍后再运行 tracker crawl")


def _hopeless(exc: BaseException) -> str | None:
    """Connection refused or a name that does not resolve, in words; None for what may recover
    (a reset, a timeout, a proxy hiccup)."""
    import errno
    import socket

    seen: set[int] = set()
    cur: BaseException | None = exc
    while cur is not None and id(cur) not in seen:
        seen.add(id(cur))
        if isinstance(cur, socket.gaierror):
            return "找不到论坛的主机名（域名无法解析）"
        if isinstance(cur, ConnectionRefusedError) or (isinstance(cur, OSError) and cur.errno == errno.ECONNREFUSED):
            return "连接被拒绝（该地址和端口上没有论坛在运行）"
        cur = cur.__cause__ or cur.__context__
    text = str(exc)
    if "Connection refused" in text or "[Errno 111]" in text:
        return "连接被拒绝（该地址和端口上没有论坛在运行）"
    if "Name or service not known" in text or "nodename nor servname" in text or "getaddrinfo failed" in text \
            or "Temporary failure in name resolution" in text:
        return "找不到论坛的主机名（域名无法解析）"
    return None

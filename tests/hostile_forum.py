"""A loopback forum that misbehaves on purpose: the test gives it a function from path+query to an answer.

An answer's body is a sequence of byte strings and pauses (floats, seconds), so a test can trickle
a page a byte at a time, send a gzip bomb or claim a million pages. 127.0.0.1, an ephemeral port.
"""

from __future__ import annotations

import threading
import time
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from tests.captured_pages import PAGES

HTML = "text/html; charset=utf-8"
JSON = "application/json; charset=utf-8"


@dataclass
class Answer:
    body: Iterable[bytes | float] = ()
    status: int = 200
    headers: dict[str, str] = field(default_factory=lambda: {"Content-Type": HTML})


Handler = Callable[[str], Answer]


def page(name: str, content_type: str = HTML) -> Answer:
    return Answer([(PAGES / name).read_bytes()], headers={"Content-Type": content_type})


def gzip_zeros(size: int) -> Iterator[bytes]:
    """A gzip stream of ``size`` zero bytes (a 1 MiB answer that unpacks to 1 GiB), made lazily."""
    z = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)
    block = b"\0" * (1 << 20)
    for _ in range(size >> 20):
        out = z.compress(block)
        if out:
            yield out
    yield z.flush()


class HostileForum:
    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        self.requests: list[str] = []
        self._server: ThreadingHTTPServer | None = None

    @property
    def base_url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}/"

    def __enter__(self) -> HostileForum:
        forum = self

        class H(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:
                forum.requests.append(self.path)
                ans = forum.handler(self.path.lstrip("/"))
                self.send_response(ans.status)
                for k, v in ans.headers.items():
                    self.send_header(k, v)
                self.send_header("Connection", "close")
                self.end_headers()
                try:
                    for part in ans.body:
                        if isinstance(part, float):
                            time.sleep(part)
                        else:
                            self.wfile.write(part)
                            self.wfile.flush()
                except (BrokenPipeError, ConnectionResetError):
                    pass
                self.close_connection = True

            def log_message(self, format: str, *args: Any) -> None:
                return None

        server = ThreadingHTTPServer(("127.0.0.1", 0), H)
        server.daemon_threads = True
        server.block_on_close = False  # a trickling answer must not hold the test's end
        self._server = server
        threading.Thread(target=server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.shutdown()
        self._server.server_close()


def game_file(tmp: Path, base_url: str, *, tids: tuple[int, ...] = (4,), crawl: str = "") -> Path:
    """A game following ``tids`` as vote threads of day 1 (the crawl needs nothing else)."""
    vote = ", ".join(str(t) for t in tids)
    text = (f'[game]\nname = "演示局"\nruleset = "luoluo-m19"\nforum = "{base_url}"\n'
            f'timezone = "Asia/Shanghai"\ndirectors = ["导演A"]\n\n'
            f"[crawl]\nconcurrency = 2\ndelay = 0\nretries = 1\n{crawl}\n"
            f"[[days]]\nday = 1\nvote = [{vote}]\n"
            "opens = 2025-03-01T10:00:00+08:00\ncloses = 2025-03-02T22:00:00+08:00\n")
    path = tmp / "game.toml"
    path.write_text(text, encoding="utf-8")
    return path

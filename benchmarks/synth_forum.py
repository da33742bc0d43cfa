"""A synthetic Discuz! forum of any size, templated from a real capture, for the benchmarks.

``Template`` cuts ``day1-discussion-p2.html`` (ten real posts) and its mobile-API items into pieces
and repeats them with fresh pids, floors and tids, so every generated page parses exactly like the
real one and desktop and mobile agree on each post. ``bench_ingest`` feeds the documents to the
crawler in memory; ``bench_tui`` serves them over loopback from another process (as a real forum
is another machine) and crawls a 30,000-post game while it presses keys:

    python benchmarks/synth_forum.py 1000:13500 1001:1500   # tid:posts ...; prints the base URL
"""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

ROOT = Path(__file__).resolve().parent.parent
PAGES = ROOT / "tracker" / "demo" / "data" / "pages"  # the demo's captures, stored once (in the package)
TEMPLATE_HTML = PAGES / "day1-discussion-p2.html"
TEMPLATE_JSON = PAGES / "day1-discussion.mobile-ppp200.json"
TEMPLATE_TID = 3
PER_PAGE = 10
BASE = "http://forum.bench/"

_POST_START = re.compile(r'<div id="post_(\d+)"')
_FLOOR = re.compile(r"<em>\d+</em><sup>#</sup>")
_PG = re.compile(r'<div class="pg">.*?</div>', re.S)


class Template:
    """The real page cut into head, ten post chunks and tail, plus the matching mobile items."""

    def __init__(self) -> None:
        html = TEMPLATE_HTML.read_text(encoding="utf-8")
        starts = [m.start() for m in _POST_START.finditer(html)]
        end = html.index('<div id="postlistreply"')
        self.head = html[: starts[0]]
        self.tail = html[end:]
        self.chunks = [(int(_POST_START.match(html, s).group(1)), html[s:e])  # type: ignore[union-attr]
                       for s, e in zip(starts, [*starts[1:], end], strict=True)]
        doc = json.loads(TEMPLATE_JSON.read_text(encoding="utf-8"))
        items = {int(p["pid"]): p for p in doc["Variables"]["postlist"]}
        self.items = [items[pid] for pid, _ in self.chunks]
        self.mobile = doc

    @staticmethod
    def _retid(text: str, tid: int) -> str:
        return re.sub(rf"tid={TEMPLATE_TID}(?!\d)", f"tid={tid}", text)

    def desktop(self, tid: int, page: int, pages: int, posts: int, edits: dict[int, str] | None = None) -> bytes:
        head = self._retid(self.head, tid)
        tail = self._retid(self.tail, tid)
        pg = f'<div class="pg"><strong>{page}</strong><span title="共 {pages} 页"> / {pages} 页</span></div>'
        head = _PG.sub(pg, head, count=1)
        tail = _PG.sub(pg, tail, count=1)
        body = []
        for i in range((page - 1) * PER_PAGE, min(page * PER_PAGE, posts)):
            old, chunk = self.chunks[i % PER_PAGE]
            new = pid_of(tid, i + 1)
            chunk = re.sub(rf"(?<!\d){old}(?!\d)", str(new), chunk)
            chunk = _FLOOR.sub(f"<em>{i + 1}</em><sup>#</sup>", chunk, count=1)
            if edits and i + 1 in edits:
                chunk = re.sub(rf'(<td class="t_f" id="postmessage_{new}">).*?(</td>)',
                               lambda m, t=edits[i + 1]: m.group(1) + t + m.group(2), chunk, count=1, flags=re.S)
            body.append(self._retid(chunk, tid))
        return (head + "".join(body) + tail).encode("utf-8")

    def listing(self, tid: int, posts: int, edits: dict[int, str] | None = None, *, page: int = 1,
                ppp: int = 1000) -> bytes:
        doc = json.loads(json.dumps(self.mobile))
        v = doc["Variables"]
        items = []
        for i in range(posts):
            item = dict(self.items[i % PER_PAGE])
            item.update(pid=str(pid_of(tid, i + 1)), tid=str(tid), number=str(i + 1), position=str(i + 1),
                        first="1" if i == 0 else "0")
            if edits and i + 1 in edits:
                item["message"] = edits[i + 1]
            items.append(item)
        v["postlist"] = items[(page - 1) * ppp: page * ppp]
        v["ppp"] = str(ppp)
        v["thread"].update(tid=str(tid), replies=str(posts - 1), maxposition=str(posts))
        return json.dumps(doc, ensure_ascii=False).encode("utf-8")


def pid_of(tid: int, floor: int) -> int:
    return tid * 100_000 + floor


class QuietHandler(BaseHTTPRequestHandler):
    """Keep-alive, no-delay, silent: the part both synthetic servers share (``synth_game`` too)."""

    protocol_version = "HTTP/1.1"
    # Headers and body are two writes: without TCP_NODELAY, Nagle holds the body until the
    # client's delayed ACK (40 ms a request on Linux loopback), which a real forum does not do.
    disable_nagle_algorithm = True

    def _send(self, status: int, body: bytes, ctype: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


def start(handler: type[BaseHTTPRequestHandler], host: str, port: int) -> tuple[ThreadingHTTPServer, str]:
    server = ThreadingHTTPServer((host, port), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://{host}:{server.server_address[1]}/"


def serve(sizes: dict[int, int], host: str = "127.0.0.1", port: int = 0, *,
          cache: bool = False) -> tuple[ThreadingHTTPServer, str]:
    """Answer viewthread (desktop pages of 10) and the mobile API (any ppp/page) for ``sizes``.

    ``cache``: keep every document once built, so a repeated request costs the server only the
    socket write (``bench_crawl`` times the client, not the templating; memory grows with the game).
    """
    tpl = Template()
    built: dict[tuple[str, int, int, int], bytes] = {}

    def document(kind: str, tid: int, page: int, n: int) -> bytes:
        key = (kind, tid, page, n)
        body = built.get(key) if cache else None
        if body is None:
            if kind == "mobile":
                body = tpl.listing(tid, sizes[tid], page=page, ppp=n)
            else:
                body = tpl.desktop(tid, page, n, sizes[tid])
            if cache:
                built[key] = body
        return body

    class Handler(QuietHandler):
        def do_GET(self) -> None:
            url = urlsplit(self.path)
            q = {k: v[0] for k, v in parse_qs(url.query).items()}
            tid = int(q.get("tid", "0") or 0)
            if tid not in sizes:
                self._send(404, b"not found", "text/plain")
                return
            n, page = sizes[tid], max(1, int(q.get("page", "1") or 1))
            if url.path.endswith("api/mobile/index.php"):
                body = document("mobile", tid, page, int(q.get("ppp", "10") or 10))
                self._send(200, body, "application/json")
                return
            pages = max(1, -(-n // PER_PAGE))
            self._send(200, document("desktop", tid, min(page, pages), pages), "text/html; charset=utf-8")

    return start(Handler, host, port)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Serve a synthetic Discuz! forum over loopback")
    ap.add_argument("threads", nargs="+", help="tid:posts, e.g. 1000:13500")
    ap.add_argument("--cache", action="store_true", help="keep every document once built")
    args = ap.parse_args(argv)
    sizes = {int(t): int(n) for t, n in (x.split(":") for x in args.threads)}
    _, url = serve(sizes, cache=args.cache)
    print(url, flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        threading.Event().wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())

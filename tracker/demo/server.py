"""A loopback HTTP server that answers like the Discuz! forum the captures came from.

It serves a directory of captured documents described by an ``index.json`` (``file``, ``url`` =
path+query, ``status``, ``content_type``, ``location``, ``as``; ``more``: further folders, relative to
the index, holding the files it names that its own folder does not — the tests' corpus names the
demo's pages, which are stored once, in the package), and reproduces the behaviour of
Discuz that a crawler must cope with, not just the bytes:

- the query is matched as Discuz reads it: parameter order does not matter, ``page`` defaults to 1;
- ``page`` past the end of a thread answers 200 with the last page (desktop and mobile API);
- a missing thread answers the captured 404 (``nonexistent-tid``), desktop or mobile;
- the read-permission page is the captured HTTP 200 alert;
- a captured "302 to itself" (Discuz's one-time redirect after a deletion) is answered once, then
  the page itself;
- the mobile API honours any ``ppp`` by slicing the whole-thread capture (``…&ppp=200``), unless
  ``mobile_ppp_cap`` imitates a forum that caps it; ``mobile_api=False`` answers as a forum whose
  mobile plugin is switched off (``{"error":"mobile_is_closed"}``).

Tests use :meth:`ReplayForum.switch` to move from one crawl epoch to the next, :attr:`requests` to
count what a crawl asked for, and :meth:`fail` / :meth:`stall_after` to inject faults. ``tracker demo``
serves the bundled pages with it. Real sockets, 127.0.0.1, an ephemeral port.
"""

from __future__ import annotations

import argparse
import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

Key = tuple[str, tuple[tuple[str, str], ...]]

CAPTURE_BASE = "http://127.0.0.1:8080/"
DEMO_PAGES = Path(__file__).parent / "data" / "pages"  # the bundled demo game's captures
DEFAULT_PPP = 10
# Parameters Discuz ignores for what it renders (cache busters, the desktop's ppp, anchors' extras).
_IGNORED = frozenset({"extra", "_", "mobile", "ppp_desktop"})


def _query(raw: str) -> dict[str, str]:
    return {k: v for k, v in parse_qsl(raw, keep_blank_values=True) if k not in _IGNORED}


def _is_viewthread(path: str, q: dict[str, str]) -> str | None:
    """``desktop`` / ``mobile`` for a thread request, else ``None``."""
    if path.endswith("forum.php") and q.get("mod") == "viewthread" and "action" not in q:
        return "desktop"
    if path.endswith("api/mobile/index.php") and q.get("module") == "viewthread":
        return "mobile"
    return None


def canonical(path_query: str) -> Key:
    """The key two requests share when Discuz would render the same document for them."""
    parts = urlsplit(path_query)
    path = parts.path.lstrip("/")
    q = _query(parts.query)
    kind = _is_viewthread(path, q)
    if kind is not None:
        q.setdefault("page", "1")
        if kind == "desktop":
            q.pop("ppp", None)  # the desktop ignores ppp (guest and member alike)
        elif q.get("ppp") == str(DEFAULT_PPP):
            q.pop("ppp")
    return path, tuple(sorted(q.items()))


@dataclass(frozen=True, slots=True)
class ReplayEntry:
    file: str
    status: int
    content_type: str
    location: str | None = None


@dataclass(slots=True)
class Capture:
    """One directory of captured documents, indexed the way requests will look them up."""

    root: Path
    base_url: str = CAPTURE_BASE
    more: tuple[Path, ...] = ()
    pages: dict[Key, ReplayEntry] = field(default_factory=dict)
    redirects: dict[Key, ReplayEntry] = field(default_factory=dict)
    missing: dict[str, ReplayEntry] = field(default_factory=dict)

    @classmethod
    def load(cls, root: Path) -> Capture:
        index = json.loads((root / "index.json").read_text(encoding="utf-8"))
        cap = cls(root=root, base_url=index.get("base_url", CAPTURE_BASE),
                  more=tuple((root / m).resolve() for m in index.get("more", ())))
        for item in index["files"]:
            url = item.get("url")
            if url is None or not str(item.get("as", "guest")).startswith("guest"):
                continue  # derived files and logged-in views are not what a guest gets
            key = canonical(url)
            entry = ReplayEntry(file=item["file"], status=int(item.get("status", 200)),
                          content_type=item.get("content_type", "text/html; charset=utf-8"),
                          location=item.get("location"))
            parts = urlsplit(url)
            q = _query(parts.query)
            kind = _is_viewthread(parts.path.lstrip("/"), q)
            if entry.status in (301, 302) and entry.location and canonical_location(entry.location) == key:
                cap.redirects[key] = entry
                continue
            if kind is not None and entry.status == 404:
                cap.missing[kind] = entry
            cap.pages.setdefault(key, entry)
        return cap

    def file(self, name: str) -> Path:
        """Where a file the index names is stored: this folder, else the first of ``more`` holding it."""
        for folder in (self.root, *self.more):
            if (folder / name).is_file():
                return folder / name
        return self.root / name  # missing everywhere: reading it says which file


def canonical_location(location: str) -> Key:
    parts = urlsplit(location)
    return canonical(parts.path + ("?" + parts.query if parts.query else ""))


@dataclass(frozen=True, slots=True)
class Answer:
    status: int
    content_type: str
    body: bytes
    headers: tuple[tuple[str, str], ...] = ()


class ReplayForum:
    """The replaying forum. Start with :meth:`start` (or ``with``); ``base_url`` is where it listens."""

    def __init__(self, root: Path | str, *, mobile_api: bool = True, mobile_ppp_cap: int | None = None,
                 host: str = "127.0.0.1", port: int = 0) -> None:
        self._lock = threading.Lock()
        self.capture = Capture.load(Path(root))
        self.mobile_api = mobile_api
        self.mobile_ppp_cap = mobile_ppp_cap
        self.requests: list[str] = []
        self._consumed: set[Key] = set()
        self._faults: list[tuple[str, int, int]] = []
        self._stall_after: int | None = None
        self._released = threading.Event()
        self._host = host
        self._port = port
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- life cycle ---------------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        if self._server is None:
            raise RuntimeError("server not started")
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/"

    def start(self) -> str:
        forum = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:
                forum._handle(self)

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                if length:
                    self.rfile.read(length)
                forum._handle(self)

            def log_message(self, format: str, *args: Any) -> None:
                return

        self._server = ThreadingHTTPServer((self._host, self._port), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, name="replay-forum", daemon=True)
        self._thread.start()
        return self.base_url

    def stop(self) -> None:
        self._released.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> ReplayForum:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- test controls ------------------------------------------------------------------------

    def switch(self, root: Path | str) -> None:
        """Serve another epoch of the same forum (the next crawl sees the changed threads)."""
        with self._lock:
            self.capture = Capture.load(Path(root))
            self._consumed.clear()

    def fail(self, match: str, status: int, times: int = 1) -> None:
        """Answer ``status`` (empty body) the next ``times`` requests whose path+query contains ``match``."""
        with self._lock:
            self._faults.append((match, status, times))

    def stall_after(self, n: int | None) -> None:
        """Hold every request after the first ``n`` until :meth:`release` (to kill a crawler mid-way)."""
        with self._lock:
            self._stall_after = n
            self._released.clear()

    def release(self) -> None:
        self._released.set()

    def reset_counts(self) -> None:
        with self._lock:
            self.requests.clear()

    # -- answering ----------------------------------------------------------------------------

    def _handle(self, handler: BaseHTTPRequestHandler) -> None:
        with self._lock:
            self.requests.append(handler.path)
            n = len(self.requests)
            stall = self._stall_after is not None and n > self._stall_after
        if stall:
            self._released.wait(timeout=120)
        try:
            answer = self.answer(handler.path)
        except Exception as exc:  # a bug here must not hang the client
            answer = Answer(500, "text/plain; charset=utf-8", f"replay error: {exc!r}".encode())
        try:
            handler.send_response(answer.status)
            handler.send_header("Content-Type", answer.content_type)
            handler.send_header("Content-Length", str(len(answer.body)))
            for name, value in answer.headers:
                handler.send_header(name, value)
            handler.end_headers()
            if handler.command != "HEAD":
                handler.wfile.write(answer.body)
        except (BrokenPipeError, ConnectionResetError):
            handler.close_connection = True  # the client went away (a killed crawler): not our error

    def answer(self, path_query: str) -> Answer:
        """What the forum answers to ``path_query`` (usable without sockets, e.g. by a benchmark)."""
        with self._lock:
            for i, (match, status, times) in enumerate(self._faults):
                if match in path_query and times > 0:
                    self._faults[i] = (match, status, times - 1)
                    return Answer(status, "text/html; charset=utf-8", b"")
            cap = self.capture
            key = canonical(path_query)
            redirect = cap.redirects.get(key)
            if redirect is not None and key not in self._consumed:
                self._consumed.add(key)
                return Answer(redirect.status, redirect.content_type, b"",
                              (("Location", self._rebase(redirect.location or "")),))
        path, items = key
        q = dict(items)
        kind = _is_viewthread(path, q)
        if kind == "mobile" and not self.mobile_api:
            return Answer(200, "application/json", b'{"error":"mobile_is_closed"}')
        if kind == "mobile" and "ppp" in q:
            return self._mobile_ppp(cap, q)
        entry = cap.pages.get(key)
        if entry is None and kind is not None:
            entry = self._last_page(cap, path, q)
            if entry is None:
                entry = cap.missing.get(kind)
        if entry is None:
            return Answer(404, "text/html; charset=utf-8", "<html><body>未录制的页面</body></html>".encode())
        return self._serve(cap, entry)

    def _serve(self, cap: Capture, entry: ReplayEntry) -> Answer:
        body = cap.file(entry.file).read_bytes()
        headers: tuple[tuple[str, str], ...] = ()
        if entry.location:
            headers = (("Location", self._rebase(entry.location)),)
        return Answer(entry.status, entry.content_type, body, headers)

    def _rebase(self, location: str) -> str:
        if location.startswith(self.capture.base_url):
            return self.base_url + location[len(self.capture.base_url):]
        return location

    @staticmethod
    def _pages_of(cap: Capture, path: str, q: dict[str, str]) -> dict[int, ReplayEntry]:
        """Every captured page of the same view (same parameters but ``page``)."""
        rest = {k: v for k, v in q.items() if k != "page"}
        found: dict[int, ReplayEntry] = {}
        for (p, items), entry in cap.pages.items():
            if p != path or entry.status != 200:
                continue
            other = dict(items)
            page = other.pop("page", "1")
            if other == rest and page.isdigit():
                found[int(page)] = entry
        return found

    def _last_page(self, cap: Capture, path: str, q: dict[str, str]) -> ReplayEntry | None:
        pages = self._pages_of(cap, path, q)
        page = q.get("page", "1")
        if not pages or not page.isdigit():
            return None
        # The real pages run 1..n; a capture of a page far past the end (page=999) is not page n+1.
        last = 1 if 1 in pages else min(pages)
        while last + 1 in pages:
            last += 1
        return pages[last] if int(page) > last else None

    def _mobile_ppp(self, cap: Capture, q: dict[str, str]) -> Answer:
        ppp = int(q["ppp"]) if q["ppp"].isdigit() and int(q["ppp"]) > 0 else DEFAULT_PPP
        if self.mobile_ppp_cap is not None:
            ppp = min(ppp, self.mobile_ppp_cap)
        page = int(q.get("page", "1")) if q.get("page", "1").isdigit() else 1
        whole = self._whole_thread(cap, q)
        if whole is None:
            # No whole-thread capture: a thread that answers the same whatever ppp says (a permission
            # message), a one-page thread, or a missing one.
            plain = {k: v for k, v in q.items() if k != "ppp"}
            path = "api/mobile/index.php"
            entry = cap.pages.get((path, tuple(sorted(plain.items())))) or self._last_page(cap, path, plain)
            if entry is not None:
                return self._serve(cap, entry)
            entry = cap.missing.get("mobile")
            if entry is None:
                return Answer(404, "application/json", b'{"Message":{"messageval":"thread_nonexistence"}}')
            return self._serve(cap, entry)
        doc = json.loads(cap.file(whole.file).read_text(encoding="utf-8"))
        variables = doc.get("Variables", {})
        posts = variables.get("postlist") or []
        if posts:
            pages = max(1, -(-len(posts) // ppp))
            page = min(max(page, 1), pages)
            variables["postlist"] = posts[(page - 1) * ppp: page * ppp]
        variables["ppp"] = str(ppp)
        body = json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        return Answer(whole.status, whole.content_type, body)

    @staticmethod
    def _whole_thread(cap: Capture, q: dict[str, str]) -> ReplayEntry | None:
        """The capture holding the whole thread (the largest-ppp document captured for it)."""
        best: tuple[int, ReplayEntry] | None = None
        for (path, items), entry in cap.pages.items():
            other = dict(items)
            if other.get("module") != "viewthread" or other.get("tid") != q.get("tid"):
                continue
            if not path.endswith("api/mobile/index.php") or "ppp" not in other or not other["ppp"].isdigit():
                continue
            size = int(other["ppp"])
            if best is None or size > best[0]:
                best = (size, entry)
        return best[1] if best else None


def main(argv: list[str] | None = None) -> int:
    """``python -m tracker.demo.server DIR``: serve captures until interrupted (prints the base URL)."""
    parser = argparse.ArgumentParser(description="Replay captured Discuz! pages over loopback HTTP")
    parser.add_argument("root", type=Path, nargs="?", default=DEMO_PAGES,
                        help="directory holding index.json and the captured files (default: the demo game)")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--no-mobile", action="store_true", help="answer as a forum with the mobile plugin off")
    args = parser.parse_args(argv)
    forum = ReplayForum(args.root, mobile_api=not args.no_mobile, port=args.port)
    print(forum.start(), flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        forum.stop()
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())

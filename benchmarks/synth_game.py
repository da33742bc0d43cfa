"""A synthetic finished game with what a real one holds beyond its size, for ``bench_crawl --big``.

``synth_forum.Template`` repeats ten short real posts, none edited: every listing message is plain
text and desktop and mobile always agree. A real 10-day game differs in ways that cost a crawler
more than a bigger number of posts (issue 22, item 9), and this forum has each of them, in shares
picked with a fixed seed:

- long posts (several lines, a colour, a ``[size]`` the mobile API drops) and quotes of earlier
  posts (the desktop's ``div.quote``, the mobile API's ``div.reply_wrap`` with its double-escaped
  link), whose listing messages are HTML, not text;
- posts edited before the first crawl: the desktop shows Discuz's ``本帖最后由 X 于 … 编辑`` marker,
  the mobile message does not (as in the corpus's growth case, ``tests/fixtures/discuz/growth``);
- posts whose mobile text differs from the desktop's: an inline picture stays ``[attach]N[/attach]``
  in the mobile message, the desktop shows the image;
- posts deleted before the first crawl (a gap in positions, floors renumbered).

Epoch 2 is the same forum a few hours on, for the incremental re-crawl: a share of posts edited by
their author (new text, a later marker) or silently by the director (no marker), a share deleted
(every later floor renumbers, pages shift), and the last day's threads grown. ``changed_pages``
says which desktop pages hold something the listing cannot show, i.e. what a re-crawl must fetch.

    python benchmarks/synth_game.py     # prints the base URL; GET /__epoch/2 switches the answers
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import sys
import threading
from dataclasses import dataclass, replace
from http.server import ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))

from synth_forum import _FLOOR, _PG, PER_PAGE, QuietHandler, Template, start

DAYS = 10
DISCUSSION, VOTE = 270, 45  # visible posts a day at the first crawl
GROWN = {DISCUSSION: 30, VOTE: 10}  # posts the last day's threads gain before the re-crawl
SHARES = {"long": 0.30, "quote": 0.15, "marker": 0.08, "attach": 0.04}  # of the first crawl's posts
DELETED_BEFORE = 0.01
EDITED, SILENT, DELETED_AFTER = 0.05, 0.005, 0.01  # of the first crawl's visible posts, by epoch 2
SEED = 22

LONG_LINES = ("我先整理一下昨天的投票情况，看看谁在跟票谁在带节奏。",
              "前置位的发言我都看了，有几位明显在划水，只是附和楼上没有自己的判断。",
              "我的站边是这样的：预言家我认，女巫我暂时保留意见，守卫没跳我也不逼。",
              "今天我会把票投给发言最空的那位，理由我在投票帖里写清楚。",
              "如果明天有新的查验结果，我会重新考虑，不会死守一个位置。",
              "另外提醒一下，截止时间前记得投票，别又被导演记潜水。")


@dataclass(frozen=True, slots=True)
class Spec:
    """One post of a thread: its ``chunk`` of the template (author, time, frame) and its body."""

    pid: int
    position: int
    chunk: int
    desktop: str | None = None  # the td.t_f body when not the template's
    mobile: str | None = None  # the listing's message when not the template's
    deleted: bool = False


def _long(rng: random.Random) -> tuple[str, str]:
    lines = rng.sample(LONG_LINES, rng.randint(3, 6))
    lines[1] = f'<font color="#0000FF">{lines[1]}</font>'
    desktop = "<br />\r\n".join([f'<font size="4">{lines[0]}</font>', *lines[1:]])
    return desktop, "<br />\n".join(lines)


def _quote(tid: int, quoted: Spec, author: str, reply: str) -> tuple[str, str]:
    said = "投票对象：饺子<br />\n投票理由：发言太空"
    link = f"http://127.0.0.1:8080/forum.php?mod=redirect&amp;goto=findpost&amp;pid={quoted.pid}&amp;ptid={tid}"
    head = f'<font color="#999999">{author} 发表于 2025-3-1 11:00</font></a>'
    desktop = (f'<div class="quote"><blockquote><font size="2"><a href="{link}" target="_blank">{head}</font><br />\n'
               f"{said}</blockquote></div><br />\n{reply}")
    mobile = (f'<div class="reply_wrap"><a href="{link.replace("&amp;", "&amp;amp;")}">{head}<br />\n{said}</div>'
              f"<br />\n{reply}")
    return desktop, mobile


def _marker(author: str, day: int, hour: int) -> str:
    return f'<i class="pstatus"> 本帖最后由 {author} 于 2025-3-{day} {hour}:{day:02d} 编辑 </i><br />\n<br />\n'


class Game:
    """The threads of both epochs, as specs; documents are rendered from them on demand."""

    def __init__(self, tpl: Template | None = None, *, days: int = DAYS, sizes: tuple[int, int] = (DISCUSSION, VOTE),
                 grown: tuple[int, int] = (GROWN[DISCUSSION], GROWN[VOTE]), seed: int = SEED) -> None:
        self.tpl = tpl or Template()
        self.authors = [str(item["author"]) for item in self.tpl.items]
        rng = random.Random(seed)
        self.tids = [t for day in range(days) for t in (3001 + 2 * day, 3002 + 2 * day)]
        self.epochs: dict[int, dict[int, list[Spec]]] = {1: {}, 2: {}}
        for tid in self.tids:
            vote = tid % 2 == 0
            first = self._first(rng, tid, sizes[vote])
            self.epochs[1][tid] = first
            self.epochs[2][tid] = self._later(rng, tid, first, grown[vote] if tid >= self.tids[-2] else 0)

    def _body(self, spec: Spec) -> tuple[str, str]:
        """(desktop body, mobile message) of a spec, the template's when not overridden."""
        _, chunk = self.tpl.chunks[spec.chunk]
        found = re.search(r'<td class="t_f" id="postmessage_\d+">\n?(.*?)</td>', chunk, re.S)
        assert found is not None
        return (spec.desktop if spec.desktop is not None else found.group(1),
                spec.mobile if spec.mobile is not None else str(self.tpl.items[spec.chunk]["message"]))

    def _first(self, rng: random.Random, tid: int, size: int) -> list[Spec]:
        out: list[Spec] = []
        position = 0
        while sum(not s.deleted for s in out) < size:
            position += 1
            spec = Spec(pid=tid * 100_000 + position, position=position, chunk=position % PER_PAGE)
            roll = rng.random()
            author = self.authors[spec.chunk]
            visible = [s for s in out if not s.deleted]
            if position > 1 and rng.random() < DELETED_BEFORE:
                spec = replace(spec, deleted=True)
            elif roll < SHARES["long"]:
                desktop, mobile = _long(rng)
                spec = replace(spec, desktop=desktop, mobile=mobile)
            elif roll < SHARES["long"] + SHARES["quote"] and visible:
                quoted = rng.choice(visible)
                desktop, mobile = _quote(tid, quoted, self.authors[quoted.chunk], "同意楼上，我也这么看。")
                spec = replace(spec, desktop=desktop, mobile=mobile)
            elif roll < SHARES["long"] + SHARES["quote"] + SHARES["marker"]:
                desktop, mobile = self._body(spec)
                spec = replace(spec, desktop=_marker(author, 1 + tid % 28, 12) + desktop, mobile=mobile)
            elif roll < sum(SHARES.values()):
                aid = spec.pid % 1_000_000
                picture = (f'<ignore_js_op>\n<img id="aimg_{aid}" aid="{aid}" src="data/attachment/forum/{aid}.jpg"'
                           f' class="zoom" width="600" alt="{aid}.jpg" title="{aid}.jpg" />\n</ignore_js_op>')
                spec = replace(spec, desktop=f"截图在这里，大家自己看：<br />\r\n{picture}",
                               mobile=f"截图在这里，大家自己看：<br />\n[attach]{aid}[/attach]")
            out.append(spec)
        return out

    def _later(self, rng: random.Random, tid: int, first: list[Spec], grow: int) -> list[Spec]:
        out: list[Spec] = []
        for spec in first:
            if spec.deleted or spec.position == 1:
                out.append(spec)
                continue
            roll = rng.random()
            desktop, mobile = self._body(spec)
            desktop = re.sub(r'^<i class="pstatus">.*?</i><br />\n<br />\n', "", desktop)
            extra = "<br />\n（补充：看了后面的发言，我改主意了。）"
            if roll < DELETED_AFTER:
                spec = replace(spec, deleted=True)
            elif roll < DELETED_AFTER + EDITED:
                author = self.authors[spec.chunk]
                spec = replace(spec, desktop=_marker(author, 1 + tid % 28, 20) + desktop + extra, mobile=mobile + extra)
            elif roll < DELETED_AFTER + EDITED + SILENT:
                spec = replace(spec, desktop="（此楼内容涉及场外信息，已由导演删除。）", mobile="（此楼内容涉及场外信息，已由导演删除。）")
            out.append(spec)
        position = first[-1].position
        for _ in range(grow):
            position += 1
            out.append(Spec(pid=tid * 100_000 + position, position=position, chunk=position % PER_PAGE))
        return out

    # -- what the forum shows ---------------------------------------------------------------------

    def visible(self, epoch: int, tid: int) -> list[Spec]:
        return [s for s in self.epochs[epoch][tid] if not s.deleted]

    def pages(self, epoch: int, tid: int) -> int:
        return max(1, -(-len(self.visible(epoch, tid)) // PER_PAGE))

    def posts(self, epoch: int) -> int:
        return sum(len(self.visible(epoch, t)) for t in self.tids)

    def desktop(self, epoch: int, tid: int, page: int) -> bytes:
        tpl = self.tpl
        pages = self.pages(epoch, tid)
        page = min(max(page, 1), pages)
        pg = f'<div class="pg"><strong>{page}</strong><span title="共 {pages} 页"> / {pages} 页</span></div>'
        head = _PG.sub(pg, tpl._retid(tpl.head, tid), count=1)
        tail = _PG.sub(pg, tpl._retid(tpl.tail, tid), count=1)
        shown = self.visible(epoch, tid)
        body = []
        for floor, spec in enumerate(shown[(page - 1) * PER_PAGE: page * PER_PAGE], (page - 1) * PER_PAGE + 1):
            old, chunk = tpl.chunks[spec.chunk]
            chunk = re.sub(rf"(?<!\d){old}(?!\d)", str(spec.pid), chunk)
            chunk = _FLOOR.sub(f"<em>{floor}</em><sup>#</sup>", chunk, count=1)
            if spec.desktop is not None:
                chunk = re.sub(rf'(<td class="t_f" id="postmessage_{spec.pid}">\n?).*?(</td>)',
                               lambda m, t=spec.desktop: m.group(1) + t + m.group(2), chunk, count=1, flags=re.S)
            body.append(tpl._retid(chunk, tid))
        return (head + "".join(body) + tail).encode("utf-8")

    def listing(self, epoch: int, tid: int, page: int, ppp: int) -> bytes:
        doc = json.loads(json.dumps(self.tpl.mobile))
        v = doc["Variables"]
        shown = self.visible(epoch, tid)
        items = []
        for floor, spec in enumerate(shown, 1):
            item = dict(self.tpl.items[spec.chunk])
            item.update(pid=str(spec.pid), tid=str(tid), number=str(floor), position=str(spec.position),
                        first="1" if spec.position == 1 else "0")
            if spec.mobile is not None:
                item["message"] = spec.mobile
            items.append(item)
        v["postlist"] = items[(page - 1) * ppp: page * ppp]
        v["ppp"] = str(ppp)
        v["thread"].update(tid=str(tid), replies=str(len(shown) - 1),
                           maxposition=str(self.epochs[epoch][tid][-1].position))
        return json.dumps(doc, ensure_ascii=False).encode("utf-8")

    def changes(self) -> tuple[set[int], set[int], set[int]]:
        """(new, edited, deleted) pids between the two epochs: what a re-crawl must report."""
        before = {s.pid: s for t in self.tids for s in self.visible(1, t)}
        after = {s.pid: s for t in self.tids for s in self.visible(2, t)}
        edited = {pid for pid, s in after.items() if pid in before and self._body(before[pid])[1] != self._body(s)[1]}
        return set(after) - set(before), edited, set(before) - set(after)

    def changed_pages(self, tid: int) -> list[int]:
        """The desktop pages of epoch 2 holding a post the first crawl did not see as it is now."""
        before = {s.pid: s for s in self.visible(1, tid)}
        pages = {(floor - 1) // PER_PAGE + 1 for floor, s in enumerate(self.visible(2, tid), 1)
                 if s.pid not in before or self._body(before[s.pid])[1] != self._body(s)[1]}
        return sorted(pages)


def serve(game: Game, host: str = "127.0.0.1", port: int = 0) -> tuple[ThreadingHTTPServer, str]:
    """Answer viewthread and the mobile API from epoch 1 until ``GET /__epoch/2`` (and back with 1)."""
    state = {"epoch": 1}
    built: dict[tuple[int, str, int, int, int], bytes] = {}
    lock = threading.Lock()

    class Handler(QuietHandler):

        def do_GET(self) -> None:
            url = urlsplit(self.path)
            if url.path.startswith("/__epoch/"):
                state["epoch"] = int(url.path.rsplit("/", 1)[1])
                self._send(200, b"ok", "text/plain")
                return
            q = {k: v[0] for k, v in parse_qs(url.query).items()}
            tid = int(q.get("tid", "0") or 0)
            if tid not in game.tids:
                self._send(404, b"not found", "text/plain")
                return
            epoch, page = state["epoch"], max(1, int(q.get("page", "1") or 1))
            mobile = url.path.endswith("api/mobile/index.php")
            ppp = int(q.get("ppp", "10") or 10) if mobile else PER_PAGE
            key = (epoch, "mobile" if mobile else "desktop", tid, page, ppp)
            with lock:
                body = built.get(key)
            if body is None:
                body = game.listing(epoch, tid, page, ppp) if mobile else game.desktop(epoch, tid, page)
                with lock:
                    built[key] = body
            self._send(200, body, "application/json" if mobile else "text/html; charset=utf-8")

    return start(Handler, host, port)


def main() -> int:
    _, url = serve(Game())
    print(url, flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        threading.Event().wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())

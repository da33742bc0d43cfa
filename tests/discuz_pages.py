"""Discuz! thread pages for any posts, templated from a real capture (tests/fixtures/discuz/pages).

The first post chunk of ``day1-discussion-p2.html`` (a real desktop page) is repeated with the given
author, uid, time, floor, message HTML and, for an edited post, Discuz's own edit marker
(``<i class="pstatus"> 本帖最后由 … 于 … 编辑 </i>``), so each generated page goes through the real page
parser (:func:`tracker.scraper.desktop.parse_thread_page`) exactly as a crawl of a live forum would.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from tests.captured_pages import PAGES
from tracker.records import Post
from tracker.scraper.desktop import parse_thread_page

TEMPLATE = PAGES / "day1-discussion-p2.html"
TEMPLATE_TID = 3
_POST_START = re.compile(r'<div id="post_(\d+)"')
_PG = re.compile(r'<div class="pg">.*?</div>', re.S)


@dataclass(frozen=True, slots=True)
class Said:
    """One post to put on a page: who, when, what (BBCode already rendered as Discuz renders it)."""

    author: str
    uid: int
    at: datetime
    html: str
    edited_at: datetime | None = None


def _template() -> tuple[str, str, str, int]:
    html = TEMPLATE.read_text(encoding="utf-8")
    starts = [m.start() for m in _POST_START.finditer(html)]
    end = html.index('<div id="postlistreply"')
    pid = int(_POST_START.match(html, starts[0]).group(1))  # type: ignore[union-attr]
    return html[: starts[0]], html[starts[0]:starts[1]], html[end:], pid


def _stamp(at: datetime) -> str:
    return f"{at.year}-{at.month}-{at.day} {at:%H:%M:%S}"


def thread_page(tid: int, said: list[Said], *, first_pid: int | None = None) -> bytes:
    """One desktop page of thread ``tid`` holding ``said`` as floors 1, 2, …; pids from ``first_pid``."""
    head, chunk, tail, old = _template()
    head, tail = (re.sub(rf"tid={TEMPLATE_TID}(?!\d)", f"tid={tid}", x) for x in (head, tail))
    pg = '<div class="pg"><strong>1</strong><span title="共 1 页"> / 1 页</span></div>'
    head, tail = _PG.sub(pg, head, count=1), _PG.sub(pg, tail, count=1)
    base = first_pid if first_pid is not None else tid * 1000
    body = []
    for floor, s in enumerate(said, 1):
        pid = base + floor
        c = re.sub(rf"(?<!\d){old}(?!\d)", str(pid), chunk)
        c = re.sub(r"tid=3(?!\d)", f"tid={tid}", c)
        c = c.replace(">银鸦</a>", f">{s.author}</a>").replace("uid=13", f"uid={s.uid}")
        c = re.sub(r"<em>\d+</em><sup>#</sup>", f"<em>{floor}</em><sup>#</sup>", c, count=1)
        c = re.sub(r"发表于 [0-9: -]+</em>", f"发表于 {_stamp(s.at)}</em>", c, count=1)
        message = s.html
        if s.edited_at is not None:
            message = (f'<i class="pstatus"> 本帖最后由 {s.author} 于 {s.edited_at.year}-{s.edited_at.month}-'
                       f'{s.edited_at.day} {s.edited_at:%H:%M} 编辑 </i><br />\n<br />\n{message}')
        cell = re.compile(rf'(<td class="t_f" id="postmessage_{pid}">).*?(</td>)', re.S).search(c)
        assert cell is not None
        c = f"{c[:cell.start()]}{cell.group(1)}\n{message}{cell.group(2)}{c[cell.end():]}"
        body.append(c)
    return (head + "".join(body) + tail).encode("utf-8")


def posts_of(tid: int, said: list[Said], *, first_pid: int | None = None) -> list[Post]:
    """The posts the real parser reads from the generated page."""
    return list(parse_thread_page(thread_page(tid, said, first_pid=first_pid),
                                  content_type="text/html; charset=utf-8").posts)

"""A demo forum written from its description when the demo starts, not stored as pages.

A generated demo game's ``forum.toml`` (werewolf-12's) says who posted what and when; each thread becomes
desktop pages of 10 floors cut from a real Discuz! X3.5 capture (the seed demo's
``day1-discussion-p2.html``): its page head, one post chunk repeated with the author, uid, floor,
time and message replaced, and its pager and reply count rewritten. ``index.json`` lists them as
the replay server (:mod:`tracker.demo.server`) reads a capture. The demo game crawls them with the
mobile API off (``[crawl] mobile_api = false``), the desktop-only path a forum without the mobile
plugin takes. Writing ten pages takes a few milliseconds, so storing them (570 KB of one template
repeated, and a test to hold the copy equal to its source) bought nothing.
"""

from __future__ import annotations

import json
import re
import tomllib
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

TEMPLATE = "day1-discussion-p2.html"  # of the seed demo's captures (data/pages)
TEMPLATE_TID = 3
PER_PAGE = 10
_POST_START = re.compile(r'<div id="post_(\d+)"')
_PG = re.compile(r'<div class="pg">.*?</div>', re.S)


def _template(html: str) -> tuple[str, str, str, int, str]:
    starts = [m.start() for m in _POST_START.finditer(html)]
    end = html.index('<div id="postlistreply"')
    first = _POST_START.match(html, starts[0])
    assert first is not None
    author = re.search(r'class="xw1">([^<]+)</a>', html[starts[0]:starts[1]])
    assert author is not None
    return html[: starts[0]], html[starts[0]:starts[1]], html[end:], int(first.group(1)), author.group(1)


def _pager(tid: int, page: int, pages: int) -> str:
    if pages == 1:
        return ""
    link = f"forum.php?mod=viewthread&tid={tid}&extra=&amp;page="
    parts = [f'<a href="{link}{page - 1}" class="prev">&nbsp;&nbsp;</a>'] if page > 1 else []
    parts += [f"<strong>{n}</strong>" if n == page else f'<a href="{link}{n}">{n}</a>' for n in range(1, pages + 1)]
    if page < pages:
        parts.append(f'<a href="{link}{page + 1}" class="nxt">下一页</a>')
    return f'<div class="pg">{"".join(parts)}<span title="共 {pages} 页"> / {pages} 页</span></div>'


def _page(parts: tuple[str, str, str, int, str], thread: dict[str, Any], page: int, pages: int,
          names: list[str], first_uid: int) -> str:
    head, chunk, tail, old_pid, old_author = parts
    tid = int(thread["tid"])
    title = str(thread["title"])
    posts = list(thread["posts"])
    head, tail = (re.sub(rf"tid={TEMPLATE_TID}(?!\d)", f"tid={tid}", x) for x in (head, tail))
    head = re.sub(r"<title>.*?</title>", f"<title>{title} - 第{page}页 - 版杀区 -  Discuz! Board -  Powered by "
                  "Discuz!</title>", head, count=1, flags=re.S)
    head = re.sub(r'<span id="thread_subject">.*?</span>', f'<span id="thread_subject">{title}</span>', head)
    head = re.sub(r'(回复:</span> <span class="xi1">)\d+', rf"\g<1>{len(posts) - 1}", head)
    head, tail = _PG.sub(_pager(tid, page, pages), head, count=1), _PG.sub(_pager(tid, page, pages), tail, count=1)
    body = []
    for floor in range((page - 1) * PER_PAGE + 1, min(page * PER_PAGE, len(posts)) + 1):
        at, who, html = posts[floor - 1]
        name, uid = ("导演", first_uid - 1) if who == "导演" else (names[int(who) - 1], first_uid + int(who) - 1)
        pid = tid * 1000 + floor
        c = re.sub(rf"(?<!\d){old_pid}(?!\d)", str(pid), chunk)
        c = re.sub(rf"tid={TEMPLATE_TID}(?!\d)", f"tid={tid}", c)
        c = c.replace(f">{old_author}</a>", f">{name}</a>")
        c = re.sub(r"uid=\d+", f"uid={uid}", c)
        c = re.sub(r"<em>\d+</em><sup>#</sup>", f"<em>{floor}</em><sup>#</sup>", c, count=1)
        y, m, d = (int(x) for x in str(thread["date"]).split("-"))
        c = re.sub(r"发表于 [0-9: -]+</em>", f"发表于 {y}-{m}-{d} {at}:00</em>", c, count=1)
        cell = re.compile(rf'(<td class="t_f" id="postmessage_{pid}">).*?(</td>)', re.S).search(c)
        assert cell is not None
        c = f"{c[:cell.start()]}{cell.group(1)}\n{html}{cell.group(2)}{c[cell.end():]}"
        body.append(c)
    return head + "".join(body) + tail


def write_pages(game: Traversable, captures: Traversable, out: Path) -> Path:
    """Write ``game``'s forum.toml as pages and their index.json into ``out`` (emptied first), cut from
    ``captures``' template page; returns ``out`` for the replay server."""
    forum = tomllib.loads((game / "forum.toml").read_text(encoding="utf-8"))
    parts = _template((captures / TEMPLATE).read_text(encoding="utf-8"))
    out.mkdir(parents=True, exist_ok=True)
    for old in out.iterdir():
        old.unlink()
    files = []
    for thread in forum["threads"]:
        pages = -(-len(thread["posts"]) // PER_PAGE)
        for page in range(1, pages + 1):
            name = f"t{thread['tid']}-p{page}.html"
            data = _page(parts, thread, page, pages, forum["players"], forum["first_uid"]).encode("utf-8")
            (out / name).write_bytes(data)
            files.append({"file": name, "url": f"/forum.php?mod=viewthread&tid={thread['tid']}&page={page}",
                          "status": 200, "content_type": "text/html; charset=utf-8", "bytes": len(data),
                          "as": "guest"})
    index = {"base_url": "http://127.0.0.1:8080/", "note": f"written from {game.name}/forum.toml", "files": files}
    (out / "index.json").write_text(json.dumps(index, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return out

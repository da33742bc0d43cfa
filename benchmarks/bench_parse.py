"""Parse throughput: our selectolax/Lexbor parsers vs a BeautifulSoup(html.parser) equivalent.

Run: ``.venv/bin/python benchmarks/bench_parse.py [--rounds N]``. Pinned to one core. The bs4
side extracts the same core fields (pid, floor, author, uid, time, edit marker, blocked, text
without quotes, quoted pids, colours, sizes) from the same saved Discuz pages, so the ratio is a
like-for-like comparison, not a strawman. Prints posts/s (median of rounds) as a small table.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bs4 import BeautifulSoup, Tag  # noqa: E402
from selectolax.lexbor import LexborHTMLParser  # noqa: E402

from tests.captured_pages import PAGES  # noqa: E402
from tracker.clock import SHANGHAI  # noqa: E402
from tracker.scraper.charset import decode_body  # noqa: E402
from tracker.scraper.desktop import parse_thread_page  # noqa: E402
from tracker.scraper.mobile import parse_viewthread  # noqa: E402
from tracker.scraper.times import from_epoch, parse_forum_time  # noqa: E402

_POST_ID = re.compile(r"^post_(\d+)$")
_UID = re.compile(r"uid=(\d+)")
_PID = re.compile(r"[?&;]pid=(\d+)")
_LABELS = {"楼主": 1, "沙发": 2, "板凳": 3, "地板": 4}


# --- the BeautifulSoup reference implementation -------------------------------------------------

def _bs4_text(node: Tag) -> tuple[str, list[int], list[str], list[str], str | None]:
    quotes: list[int] = []
    marker = None
    for q in node.select("div.quote, div.reply_wrap"):
        link = q.find("a", href=re.compile("findpost"))
        m = _PID.search(link["href"]) if link is not None else None
        quotes.append(int(m.group(1)) if m else 0)
        q.decompose()
    status = node.select_one("i.pstatus")
    if status is not None:
        marker = status.get_text()
        status.decompose()
    colors = [f["color"] for f in node.find_all("font", color=True)]
    sizes = [f["size"] for f in node.find_all("font", size=True)]
    for br in node.find_all("br"):
        br.replace_with("\n")
    text = node.get_text().replace("\xa0", " ")
    text = "\n".join(line.rstrip() for line in text.replace("\n\n", "\n").split("\n")).strip()
    return text, quotes, colors, sizes, marker


def bs4_desktop(html: str) -> list[dict[str, Any]]:
    soup = BeautifulSoup(html, "html.parser")
    postlist = soup.find("div", id="postlist")
    posts = []
    for div in postlist.find_all("div", id=_POST_ID, recursive=False):
        pid = int(_POST_ID.match(div["id"]).group(1))
        num = div.find("a", id=f"postnum{pid}")
        em = num.find("em")
        floor = int(em.get_text()) if em else _LABELS.get(num.get_text().strip(), 0)
        author = div.select_one("td.pls div.authi a.xw1")
        uid = int(_UID.search(author["href"]).group(1))
        time_node = div.find("em", id=f"authorposton{pid}")
        span = time_node.find("span", title=True)
        posted_at = parse_forum_time(span["title"] if span else time_node.get_text(), SHANGHAI)
        body = div.find("td", id=f"postmessage_{pid}")
        blocked = body is None and div.select_one("div.locked") is not None
        text, quotes, colors, sizes, marker = _bs4_text(body) if body is not None else ("", [], [], [], None)
        posts.append(dict(pid=pid, floor=floor, author=author.get_text().strip(), uid=uid, posted_at=posted_at,
                          text=text, quotes=quotes, colors=colors, sizes=sizes, marker=marker, blocked=blocked))
    return posts


def bs4_mobile(raw: bytes) -> list[dict[str, Any]]:
    data = json.loads(raw)
    posts = []
    for item in data["Variables"]["postlist"]:
        blocked = int(item["status"]) & 1
        soup = BeautifulSoup(item["message"], "html.parser")
        text, quotes, colors, _sizes, _marker = _bs4_text(soup) if not blocked else ("", [], [], [], None)
        posts.append(dict(pid=int(item["pid"]), floor=int(item["number"]), position=int(item["position"]),
                          author=item["author"], uid=int(item["authorid"]),
                          posted_at=from_epoch(item["dbdateline"], SHANGHAI), blocked=blocked,
                          text=text, quotes=quotes, colors=colors))
    return posts


# --- harness -------------------------------------------------------------------------------------

def _corpus() -> tuple[list[bytes], list[bytes]]:
    desktop = [p.read_bytes() for p in sorted(PAGES.glob("*-p[0-9].html")) if "archiver" not in p.name]
    mobile = [p.read_bytes() for p in sorted(PAGES.glob("*.mobile*.json"))
              if not p.name.startswith(("forumdisplay", "members-only-guest", "nonexistent"))]
    return desktop, mobile


def _rate(fn: Callable[[Any], int], docs: list[Any], rounds: int, min_seconds: float) -> tuple[float, float]:
    """Median posts/s and ms/document over ``rounds`` timed passes over the corpus.

    Timed in CPU seconds of this process (``process_time``): on a shared machine wall time also
    counts the other processes' turns on the core, which is noise, not parser cost.
    """
    rates, per_doc = [], []
    for _ in range(rounds):
        posts = 0
        start = time.process_time()
        passes = 0
        while True:
            for doc in docs:
                posts += fn(doc)
            passes += 1
            elapsed = time.process_time() - start
            if elapsed >= min_seconds:
                break
        rates.append(posts / elapsed)
        per_doc.append(elapsed / (passes * len(docs)) * 1000)
    return statistics.median(rates), statistics.median(per_doc)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=1.0, help="minimum time per round")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})

    desktop, mobile = _corpus()
    desktop_str = [decode_body(b, "text/html; charset=utf-8") for b in desktop]
    # sanity: both implementations see the same posts, texts and quotes
    for html in desktop_str:
        ours = parse_thread_page(html).posts
        ref = bs4_desktop(html)
        assert [(p.pid, p.floor, p.uid, p.posted_at, p.text, [q.pid for q in p.quotes]) for p in ours] == \
            [(r["pid"], r["floor"], r["uid"], r["posted_at"], r["text"], r["quotes"]) for r in ref]
    for raw in mobile:
        ours_m = parse_viewthread(raw).posts
        assert [(p.pid, p.text) for p in ours_m] == [(r["pid"], r["text"]) for r in bs4_mobile(raw)]

    n_desktop = sum(len(parse_thread_page(h).posts) for h in desktop_str)
    n_mobile = sum(len(parse_viewthread(m).posts) for m in mobile)
    rows = [
        ("desktop, Lexbor parse alone", lambda d: (LexborHTMLParser(d), 0)[1] or 1, desktop_str),
        ("desktop, ours (str)", lambda d: len(parse_thread_page(d).posts), desktop_str),
        ("desktop, ours (bytes+decode)", lambda d: len(parse_thread_page(d).posts), desktop),
        ("desktop, bs4 html.parser", lambda d: len(bs4_desktop(d)), desktop_str),
        ("mobile, ours", lambda d: len(parse_viewthread(d).posts), mobile),
        ("mobile, bs4 html.parser", lambda d: len(bs4_mobile(d)), mobile),
    ]
    print(f"corpus: {len(desktop)} desktop pages ({n_desktop} posts), "
          f"{len(mobile)} mobile documents ({n_mobile} posts); one core, CPU time, median of {args.rounds} rounds; "
          f"load average {os.getloadavg()[0]:.1f}")
    results: dict[str, float] = {}
    print(f"{'parser':<30} {'posts/s':>10} {'ms/doc':>8}")
    for name, fn, docs in rows:
        rounds = args.rounds if "bs4" not in name else max(1, args.rounds // 2)
        rate, ms = _rate(fn, docs, rounds, args.seconds)
        results[name] = rate
        shown = f"{'-':>10}" if "alone" in name else f"{rate:>10,.0f}"
        print(f"{name:<30} {shown} {ms:>8.2f}")
    print(f"desktop speed-up vs bs4: x{results['desktop, ours (str)'] / results['desktop, bs4 html.parser']:.1f}")
    print(f"mobile speed-up vs bs4:  x{results['mobile, ours'] / results['mobile, bs4 html.parser']:.1f}")
    print(f"mobile µs/post (ours):   {1e6 / results['mobile, ours']:.1f}")


if __name__ == "__main__":
    main()

"""Issue 12, case 1: two crawls of an unchanged thread add no version and no request, for any text.

A post's text may hold BBCode Discuz renders badly: a hand-typed nested ``[quote][quote]…[/quote]…[/quote]``
leaves a literal ``[quote]`` inside the rendered quote and the rest outside (Discuz's quote pattern is
non-greedy and applied once); stray ``[b]``, ``[/color]`` or ``[/size]`` become unbalanced tags. The crawl
compares each listing with the post's previous listing, so nothing about how the two renderings
(desktop page, mobile API) read such a post can make an unchanged thread look edited.

The thread is the captured day-2 vote (tid 6, two desktop pages, one mobile listing); one post's message
is replaced by generated BBCode, rendered the way Discuz renders it for each view (see the corpus
README: the mobile ``reply_wrap`` quote, ``[size]`` dropped, links double-escaped).
"""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Callable
from pathlib import Path
from urllib.parse import parse_qsl

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.captured_pages import PAGES
from tracker.config import GameConfig, load_game
from tracker.scraper.crawl import crawl_game_sync
from tracker.store.db import Store
from tracker.store.posts import post_versions

FORUM = "http://127.0.0.1:8080/"
TID = 6  # day2-vote
DESKTOP = {n: (PAGES / f"day2-vote-p{n}.html").read_text(encoding="utf-8") for n in (1, 2)}
LISTING = json.loads((PAGES / "day2-vote.mobile-ppp200.json").read_text(encoding="utf-8"))
TARGET = int(LISTING["Variables"]["postlist"][-1]["pid"])  # the last post, on desktop page 2


def discuzcode(message: str, *, mobile: bool) -> str:
    """BBCode → HTML as Discuz's discuzcode() does it, for the desktop page or the mobile API.

    The stored message is already HTML-escaped (dhtmlspecialchars at posting); ``[quote]`` is one
    non-greedy pass (``/\\s?\\[quote\\][\\n\\r]*(.+?)[\\n\\r]*\\[\\/quote\\]\\s?/is``); the closing tags and
    ``[b]`` are plain string replacements, balanced or not; newlines become ``<br />``.
    """
    m = message.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;").replace(">", "&gt;")
    if "[/quote]" in m.lower():
        quote = r'<div class="reply_wrap">\1</div>' if mobile else r'<div class="quote"><blockquote>\1</blockquote></div>'
        m = re.sub(r"\s?\[quote\][\n\r]*(.+?)[\n\r]*\[/quote\]\s?", quote, m, flags=re.I | re.S)
    m = re.sub(r"\[color=([#\w]+?)\]", r'<font color="\1">', m, flags=re.I)
    if mobile:
        m = re.sub(r"\[size=\d{1,2}\]|\[/size\]", "", m, flags=re.I)
    else:
        m = re.sub(r"\[size=(\d{1,2})\]", r'<font size="\1">', m, flags=re.I)

    def url(found: re.Match[str]) -> str:
        href = found.group(1).replace("&amp;", "&amp;amp;" if mobile else "&amp;")
        return f'<a href="{href}" target="_blank">'

    m = re.sub(r"\[url=([^\]]+)\]", url, m, flags=re.I)
    for bb, tag in (("[/color]", "</font>"), ("[/size]", "</font>"), ("[b]", "<strong>"), ("[/b]", "</strong>"),
                    ("[/url]", "</a>")):
        m = re.sub(re.escape(bb), tag, m, flags=re.I)
    return m.replace("\n", "<br />\n")


Render = Callable[[str, bool], str]


class Thread:
    """The captured thread with one post's message replaced, answering like Discuz; counts requests."""

    def __init__(self, message: str, render: Render) -> None:
        page2 = DESKTOP[2]
        start = page2.index(f'id="postmessage_{TARGET}">') + len(f'id="postmessage_{TARGET}">')
        end = page2.index("</td>", start)
        self.desktop = {1: DESKTOP[1], 2: page2[:start] + render(message, False) + page2[end:]}
        listing = json.loads(json.dumps(LISTING))
        listing["Variables"]["postlist"][-1]["message"] = render(message, True)
        self.listing = json.dumps(listing, ensure_ascii=False).encode()
        self.requests: list[str] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(str(request.url))
        if "api/mobile/" in request.url.path:
            return httpx.Response(200, content=self.listing, headers={"content-type": "application/json"})
        page = min(int(dict(parse_qsl(request.url.query.decode())).get("page", "1")), 2)
        return httpx.Response(200, content=self.desktop[page].encode(),
                              headers={"content-type": "text/html; charset=utf-8"})


def _game(where: Path) -> GameConfig:
    (where / "game.toml").write_text(
        f'[game]\nname = "稳定"\nruleset = "luoluo-m19"\nforum = "{FORUM}"\n[crawl]\nconcurrency = 1\ndelay = 0\n'
        f"[[days]]\nday = 1\nvote = {TID}\nopens = 2025-03-01T10:00:00+08:00\ncloses = 2025-03-02T21:00:00+08:00\n",
        encoding="utf-8")
    return load_game(where / "game.toml")


def crawl_twice(message: str, render: Render) -> tuple[int, int, list[str]]:
    """(versions after the first crawl, after the second, the second crawl's requests)."""
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(tmp)
        game = _game(where)
        store = Store.open(f"sqlite:///{where / 'game.db'}")
        try:
            thread = Thread(message, render)
            crawl_game_sync(game, store, transport=httpx.MockTransport(thread))
            with store.session() as s:
                first = len(post_versions(s, TARGET))
            thread.requests.clear()
            crawl_game_sync(game, store, transport=httpx.MockTransport(thread))
            with store.session() as s:
                second = len(post_versions(s, TARGET))
            return first, second, thread.requests
        finally:
            store.close()


def discuz(message: str, mobile: bool) -> str:
    return discuzcode(message, mobile=mobile)


TAGS = ["[quote]", "[/quote]", "[b]", "[/b]", "[color=Red]", "[/color]", "[size=5]", "[/size]",
        "[url=forum.php?mod=redirect&goto=findpost&pid=5&ptid=6]", "[/url]", "[i=s]", "[/i]",
        "花花 发表于 2025-3-1 10:00", "投票对象：", "投票理由：", "\n", " ", "<", "&", "&#20320;"]
messages = st.lists(st.one_of(st.sampled_from(TAGS), st.text(alphabet="甲乙丙abc[]/=", min_size=1, max_size=6)),
                    min_size=1, max_size=14).map("".join)


def test_a_nested_hand_typed_quote_is_stored_once_and_never_fetched_again() -> None:
    first, second, requests = crawl_twice("[quote][quote]投票对象：甲[/quote]改成乙[/quote]\n投票对象：乙\n投票理由：跟票",
                                          discuz)
    assert (first, second) == (1, 1)
    assert len(requests) == 1 and "api/mobile/" in requests[0]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(messages)
def test_two_crawls_of_an_unchanged_thread_add_no_version_and_no_request(message: str) -> None:
    first, second, requests = crawl_twice(message, discuz)
    assert second == first
    assert len(requests) == 1 and "api/mobile/" in requests[0]  # the listing, nothing else


def _disagreeing(message: str, mobile: bool) -> str:
    """A forum whose two views read the post differently (the mobile API keeps only what is outside
    the quote, say): whatever the renderings make of a post, an unchanged one stays unchanged."""
    html = discuzcode(message, mobile=mobile)
    return re.sub(r'<div class="reply_wrap">.*?</div>', "", html, flags=re.S) + "（手机版）" if mobile else html


def test_the_listing_is_compared_with_the_last_listing_not_with_the_desktop_rendering() -> None:
    first, second, requests = crawl_twice("[quote][quote]投票对象：甲[/quote]改成乙[/quote]\n投票对象：乙", _disagreeing)
    assert (first, second) == (1, 1)
    assert len(requests) == 1


def test_an_edit_after_that_is_still_seen() -> None:
    """Stable is not blind: the same thread with the post edited between crawls stores one new version."""
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(tmp)
        game = _game(where)
        store = Store.open(f"sqlite:///{where / 'game.db'}")
        try:
            crawl_game_sync(game, store, transport=httpx.MockTransport(Thread("[quote][quote]甲[/quote]乙[/quote]",
                                                                              _disagreeing)))
            edited = Thread("[quote][quote]甲[/quote]乙[/quote]\n补充：丙", _disagreeing)
            crawl_game_sync(game, store, transport=httpx.MockTransport(edited))
            with store.session() as s:
                versions = post_versions(s, TARGET)
            assert len(versions) == 2 and "丙" in versions[-1].text
            assert any("viewthread" in r and "page=2" in r for r in edited.requests)
        finally:
            store.close()

"""The parsers meet truncated, corrupted and hostile pages: they either parse or raise a TrackerError.

Anything else escaping would reach the director as a traceback, so the contract is checked with
generated input: arbitrary text, real pages cut and spliced with Discuz markup, deeply nested
bodies, and mobile documents whose fields hold the wrong JSON types.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scraper_corpus import PAGES

from tracker.errors import TrackerError
from tracker.records import ThreadPage
from tracker.scraper.charset import decode_body
from tracker.scraper.desktop import is_logged_in, parse_forumdisplay, parse_thread_page
from tracker.scraper.mobile import parse_forumdisplay_mobile, parse_viewthread

PAGE = (PAGES / "day1-discussion-p3.html").read_text("utf-8")
POSTLIST = PAGE[PAGE.index('<div id="postlist"'):PAGE.index('<div id="postlistreply"')] \
    if '<div id="postlistreply"' in PAGE else PAGE[PAGE.index('<div id="postlist"'):]
MOBILE = json.loads((PAGES / "day1-discussion-p3.mobile.json").read_bytes())

SNIPPETS = [
    '<div id="postlist">', '<div id="post_7">', '<div id="post_99999999999999999999">', "</div>", "</td>",
    '<a id="postnum7" href="forum.php?mod=redirect&goto=findpost&ptid=3&pid=7">', "<em>5</em>", "<em>²</em>",
    '<em id="authorposton7">发表于 2025-13-45 99:99:99</em>', '<span title="0000-0-0 0:0">', "楼主",
    '<div class="authi"><a class="xw1" href="home.php?mod=space&uid=9999999999999999999999">x</a></div>',
    '<td class="t_f" id="postmessage_7">', '<div class="quote"><blockquote>', "</blockquote>",
    '<a href="forum.php?mod=redirect&goto=findpost&pid=&ptid=3">', '<i class="pstatus"> 本帖最后由 于 编辑 </i>',
    '<font color="', '<font size="99">', '<font style="color:;font-size:">', '<img smilieid="1">', "<img>",
    '<div class="locked">提示: <em>该帖被管理员或版主屏蔽</em></div>', '<span title="共 0 页">', '<div class="pg">',
    '<div id="messagetext" class="alert_error"><p>', '<strong class="vwmy"><a>', "<br />\n", "&nbsp;", "&#0;",
    '<link rel="canonical" href="thread-0-1-1.html">', '<tbody id="normalthread_x">', '<a class="s xst">',
    '<div class="reply_wrap">', "<script>", "<!--", "\x00", "\ud7ff", "<table>", "<tr>", "<td>",
]


def _only_tracker_errors(call: Any, *args: Any, **kwargs: Any) -> Any:
    try:
        return call(*args, **kwargs)
    except TrackerError:
        return None


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=400))
def test_arbitrary_text(text: str) -> None:
    for parse in (parse_thread_page, parse_forumdisplay, parse_viewthread, parse_forumdisplay_mobile):
        _only_tracker_errors(parse, text, page_url="x")
    is_logged_in(text)


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=400), st.sampled_from([None, "text/html", "text/html; charset=gbk",
                                                  "text/html; charset=bogus", "application/json"]))
def test_arbitrary_bytes(body: bytes, content_type: str | None) -> None:
    assert isinstance(decode_body(body, content_type), str)
    _only_tracker_errors(parse_thread_page, body, content_type=content_type)
    _only_tracker_errors(parse_viewthread, body)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, len(POSTLIST)), st.integers(0, 400),
                          st.lists(st.sampled_from(SNIPPETS), max_size=4)), min_size=1, max_size=6))
def test_mutated_thread_page(edits: list[tuple[int, int, list[str]]]) -> None:
    body = POSTLIST
    for at, cut, inserted in edits:
        at = min(at, len(body))
        body = body[:at] + "".join(inserted) + body[at + cut:]
    page = _only_tracker_errors(parse_thread_page, PAGE[:PAGE.index('<div id="postlist"')] + body,
                                page_url="forum.php?mod=viewthread&tid=3&page=3")
    if page is not None:
        assert isinstance(page, ThreadPage)
        assert all(p.pid > 0 and p.author for p in page.posts)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(SNIPPETS), max_size=30))
def test_spliced_snippets(parts: list[str]) -> None:
    html = "".join(parts)
    _only_tracker_errors(parse_thread_page, html)
    _only_tracker_errors(parse_forumdisplay, html)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30)
    | st.sampled_from(["99999999999999999999999", "-1", "0", "1e9", "<div class=\"reply_wrap\"><a href=\"findpost&amp;amp;pid=x\">"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8)
POST_KEYS = ["pid", "tid", "number", "position", "author", "authorid", "dbdateline", "dateline", "status", "message",
             "anonymous"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 9), st.sampled_from(POST_KEYS), JSON_VALUES), max_size=6),
       st.sampled_from(["thread", "ppp", "postlist", "Message", "member_uid", "formhash"]), JSON_VALUES)
def test_mutated_mobile_document(changes: list[tuple[int, str, Any]], top_key: str, top_value: Any) -> None:
    doc = json.loads(json.dumps(MOBILE))
    for index, key, value in changes:
        doc["Variables"]["postlist"][index][key] = value
    _only_tracker_errors(parse_viewthread, doc)
    doc["Variables"][top_key] = top_value
    _only_tracker_errors(parse_viewthread, json.dumps(doc).encode())
    _only_tracker_errors(parse_forumdisplay_mobile, doc)


def test_deeply_nested_body_does_not_overflow_the_stack() -> None:
    deep = '<font color="red">' * 20000 + "投票对象：饺子" + "</font>" * 20000
    html = PAGE.replace("注意文明用语哈，大家冷静一点。", deep)
    page = parse_thread_page(html)
    post = next(p for p in page.posts if p.pid == 32)
    assert post.text == "投票对象：饺子" and post.colors == ("red",)
    doc = json.loads(json.dumps(MOBILE))
    doc["Variables"]["postlist"][0]["message"] = deep
    assert parse_viewthread(doc).posts[0].text == "投票对象：饺子"

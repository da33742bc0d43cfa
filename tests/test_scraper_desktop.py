"""Desktop viewthread/forumdisplay parsing, golden against the real Discuz pages and scenario.json."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
from scraper_corpus import (
    GROWTH,
    PAGES,
    content_type,
    desktop_thread_pages,
    expected_formatting,
    growth_files,
    growth_posts_by_pid,
    iso,
    page_url,
    posts_by_pid,
    scenario,
)

from tracker.errors import NoPermissionError, NotAThreadError, ParseError, ThreadMissingError
from tracker.records import ThreadPage
from tracker.scraper.desktop import is_logged_in, parse_forumdisplay, parse_thread_page


def parse(path: Path) -> ThreadPage:
    return parse_thread_page(path.read_bytes(), page_url=page_url(path), content_type=content_type(path))


@pytest.mark.parametrize("path", desktop_thread_pages(), ids=lambda p: p.name)
def test_every_post_agrees_with_the_scenario(path: Path) -> None:
    truth = posts_by_pid()
    page = parse(path)
    author_view = page.author_filter is not None
    assert author_view == ("author2" in path.name)
    assert page.posts, "a thread page always has posts"
    assert page.tid == truth[page.posts[0].pid]["tid"]
    for post in page.posts:
        want = truth[post.pid]
        assert post.tid == want["tid"]
        assert (post.author, post.uid) == (want["author"], want["uid"])
        assert post.posted_at == iso(want["dateline"])
        assert post.posted_at.utcoffset() == timedelta(hours=8)
        if not author_view:  # 只看该作者 numbers the author's posts 1, 2, 3 … (a view ordinal)
            assert post.floor == want["floor"]
        assert [q.pid for q in post.quotes] == ([want["quotes_pid"]] if "quotes_pid" in want else [])
        edited = want["expect"].get("edited")
        assert (post.edited_by, post.edited_at) == (
            (edited["by"], iso(edited["at"])) if edited else (None, None))
        assert post.blocked == bool(want["expect"].get("blocked", False)) == bool(want["post_status"] & 1)
        assert post.from_mobile == bool(want["post_status"] & 8)
        colors, sizes = expected_formatting(want["bbcode"])
        assert post.colors == colors
        assert post.sizes == sizes
        assert post.source == "desktop"


def test_author_view_is_marked() -> None:
    for name in ("day1-discussion-author2-p1.html", "day1-discussion-author2-p2.html"):
        page = parse_thread_page((PAGES / name).read_bytes())  # no URL given: the page itself says so
        assert page.author_filter == 2
        assert {p.uid for p in page.posts} == {2}
    assert parse(PAGES / "day1-discussion-p1.html").author_filter is None


def test_every_visible_post_is_found_on_its_page() -> None:
    seen: dict[int, int] = {}
    for path in desktop_thread_pages():
        if "author" in path.name:
            continue
        for post in parse(path).posts:
            seen[post.pid] = post.floor
    for want in scenario()["posts"]:
        if want["floor"] is None:
            assert want["pid"] not in seen, "a deleted post must not appear"
        else:
            assert seen.get(want["pid"]) == want["floor"], want["key"]


def test_page_header_fields() -> None:
    page = parse(PAGES / "day1-discussion-p3.html")
    assert (page.tid, page.page, page.pages, page.fid) == (3, 3, 9, 2)
    assert page.subject == "【演示局】第一日讨论帖"
    assert page.formhash and len(page.formhash) == 8
    assert (page.member_name, page.member_uid) == (None, None)
    assert [p.floor for p in page.posts] == list(range(21, 31))

    single = parse(PAGES / "rules-p1.html")
    assert (single.page, single.pages) == (1, 1)
    past_end = parse(PAGES / "day1-discussion-p99.html")
    assert (past_end.page, past_end.pages) == (9, 9)


def test_logged_in_page_names_the_member() -> None:
    page = parse(PAGES / "day1-discussion-p1.loggedin.html")
    assert (page.member_name, page.member_uid) == ("泡泡", 2)
    guest = parse(PAGES / "day1-discussion-p1.html")
    assert [p.text for p in page.posts] == [p.text for p in guest.posts]
    assert is_logged_in((PAGES / "day1-discussion-p1.loggedin.html").read_text("utf-8")) == "泡泡"
    assert is_logged_in((PAGES / "day1-discussion-p1.html").read_bytes()) is None


def test_gbk_page_gives_the_same_posts_as_its_utf8_twin() -> None:
    gbk = parse_thread_page((PAGES / "day1-discussion-p1.gbk.html").read_bytes(), content_type="text/html")
    utf8 = parse(PAGES / "day1-discussion-p1.html")
    assert gbk.posts == utf8.posts
    assert gbk.subject == utf8.subject


def test_relative_times_come_from_the_title() -> None:
    page = parse(PAGES / "chat-relative-times-p1.html")
    truth = posts_by_pid()
    assert [p.posted_at for p in page.posts] == [iso(truth[p.pid]["dateline"]) for p in page.posts]
    assert len(page.posts) == 7


def test_text_quotes_and_markers() -> None:
    truth = posts_by_pid()
    posts = {p.pid: p for path in desktop_thread_pages() for p in parse(path).posts}
    quoted = posts[32]
    assert quoted.text == "注意文明用语哈，大家冷静一点。"
    (q,) = quoted.quotes
    assert (q.pid, q.author, q.text) == (31, "饺子", "卧槽，这发言也太离谱了吧")
    assert q.posted_at == iso("2025-03-01T15:10:00+08:00")
    assert "卧槽" not in quoted.text and "999999" not in quoted.colors
    edited = posts[28]
    assert edited.text == "我重新整理一下站边：泡泡、饺子是我认的好人，包子待定。"
    assert "本帖最后由" in edited.html and "本帖最后由" not in edited.text
    smiley = posts[80]
    assert smiley.text == "早上好各位  今天继续"
    assert smiley.smilies == ("default/smile.gif", "default/lol.gif", "coolmonkey/01.gif")
    assert posts[39].images == ("static/image/common/logo.png",) and posts[39].smilies == ()
    director = posts[94]
    assert [(f.color, f.size) for f in director.fonts] == [("#FF0000", None), (None, "5")]
    assert all(f.text.startswith("【导演公告】") for f in director.fonts)
    blocked = posts[139]
    assert blocked.blocked and blocked.text == "" and "屏蔽" in blocked.html
    vote = posts[157]  # [color=Purple][b]投票对象：栗子[/b]\n投票理由：跟警长[/color]
    assert vote.text == "投票对象：栗子\n投票理由：跟警长"
    # multi-line posts keep their lines, in the order typed
    rules = posts[1]
    assert rules.text.splitlines()[2] == "2. 投票格式："
    assert truth[1]["bbcode"].count("\n") == rules.text.count("\n")


@pytest.mark.parametrize(("name", "error"), [
    ("nonexistent-tid.html", ThreadMissingError),
    ("members-only-guest.html", NoPermissionError),
    ("day1-discussion.printable.html", NotAThreadError),
    ("day1-discussion.archiver-p1.html", NotAThreadError),
    ("forum.archiver.html", NotAThreadError),
    ("forumdisplay.html", NotAThreadError),
    ("findpost-redirect.html", NotAThreadError),
])
def test_pages_that_are_not_threads_raise_the_right_error(name: str, error: type[Exception]) -> None:
    path = PAGES / name
    with pytest.raises(error) as caught:
        parse(path)
    assert page_url(path) in str(caught.value)


def test_empty_redirect_body_is_not_a_thread() -> None:
    # the 302-to-itself Discuz answers once after a deletion: empty body, the crawler must retry
    with pytest.raises(NotAThreadError):
        parse_thread_page((GROWTH / "epoch2" / "discussion-p2.first-302.html").read_bytes(), page_url="p2")


def test_missing_mandatory_field_names_pid_and_page() -> None:
    html = (PAGES / "day1-discussion-p3.html").read_text("utf-8").replace('id="authorposton33"', 'id="x"')
    with pytest.raises(ParseError) as caught:
        parse_thread_page(html, page_url="forum.php?mod=viewthread&tid=3&page=3")
    assert caught.value.pid == 33 and "tid=3&page=3" in str(caught.value)
    html = (PAGES / "day1-discussion-p3.html").read_text("utf-8").replace('class="xw1">包子', 'class="z">包子')
    page = parse_thread_page(html)  # uid still known from 只看该作者, but the name is gone: bare-name fallback
    assert page.posts[1].author


def test_forumdisplay_lists_the_days_threads() -> None:
    threads = parse_forumdisplay((PAGES / "forumdisplay.html").read_bytes())
    by_tid = {t.tid: t for t in threads}
    for thread in scenario()["threads"]:
        if thread["tid"] in by_tid:
            assert by_tid[thread["tid"]].subject
    assert by_tid[1].sticky and not by_tid[3].sticky
    assert by_tid[6].subject == "【演示局】第二日投票帖（放逐投票）"
    assert (by_tid[6].author, by_tid[6].replies) == ("导演A", 15)
    assert by_tid[6].last_post_at == iso("2025-03-04T22:10:00+08:00")
    assert by_tid[8].last_post_at == iso("2026-11-30T00:07:00+08:00")  # relative, from the title
    assert {3, 4, 5, 6}.issubset(by_tid)
    with pytest.raises(NotAThreadError):
        parse_forumdisplay((PAGES / "day1-discussion-p1.html").read_bytes())
    growth = parse_forumdisplay((GROWTH / "epoch2" / "forumdisplay.html").read_bytes())
    assert {t.tid: t.replies for t in growth} == {14: 37, 15: 8}


@pytest.mark.parametrize("path", growth_files("*.html"), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_growth_pages(path: Path) -> None:
    if path.name.startswith("forumdisplay"):
        return
    epoch = path.parent.name
    truth = growth_posts_by_pid()
    page = parse(path)
    assert page.posts
    for post in page.posts:
        want = truth[post.pid]
        assert post.floor == want[f"floor_{epoch}"]
        assert (post.author, post.uid, post.tid) == (want["author"], want["uid"], want["tid"])
        assert post.posted_at == iso(want["dateline"])
        expect = want["expect"]
        marker = epoch == "epoch2" and expect["edit_marker_visible"]
        assert (post.edited_by is not None) == marker
        if marker:
            assert post.edited_by == expect["edited_by"]
            assert post.edited_at == iso(expect["edited_at"]).replace(second=0)  # the marker has minutes only
        assert post.blocked == (epoch == "epoch2" and expect["blocked_in_epoch2"])
        assert [q.pid for q in post.quotes] == ([want["quotes_pid"]] if "quotes_pid" in want else [])


@pytest.mark.parametrize("path", desktop_thread_pages() + growth_files("*-p[0-9].html"), ids=lambda p: p.name)
def test_trimming_the_page_changes_nothing(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tracker.scraper import desktop

    trimmed = parse(path)
    monkeypatch.setattr(desktop, "trim_page", lambda text: (text, None))
    assert parse(path) == trimmed


def test_unexpected_sidebar_shapes_are_left_whole() -> None:
    html = (PAGES / "day1-discussion-p3.html").read_text("utf-8")
    # a sidebar without the name link (anonymous-style), and one whose authi nests a div first
    html = html.replace('target="_blank" class="xw1">包子</a>', 'target="_blank" class="xi2">包子</a>', 1)
    html = html.replace('<div class="authi"><a href="home.php?mod=space&amp;uid=11"',
                        '<div class="authi"><div class="medal"></div><a href="home.php?mod=space&amp;uid=11"', 1)
    page = parse_thread_page(html)
    assert [p.pid for p in page.posts] == [32, 33, 34, 35, 36, 38, 39, 40, 41, 43]
    by_pid = {p.pid: p for p in page.posts}
    assert by_pid[33].uid == 5 and by_pid[33].text == "爬完楼了，花千树 的发言最有信息量。"
    assert by_pid[34].uid == 11 and by_pid[34].text.startswith("导演说")


def test_header_in_an_unexpected_form_is_read_from_the_tree() -> None:
    html = (PAGES / "day1-discussion-p1.loggedin.html").read_text("utf-8")
    html = html.replace('title="访问我的空间">泡泡</a>', 'title="访问我的空间"><span>泡泡</span></a>')
    html = html.replace('<link href="http://127.0.0.1:8080/forum.php?mod=viewthread&tid=3" rel="canonical" />',
                        "<link rel='canonical' href='forum.php?mod=viewthread&tid=3' />")
    page = parse_thread_page(html)
    assert (page.member_name, page.member_uid, page.tid) == ("泡泡", 2, 3)
    assert page.formhash and len(page.posts) == 10

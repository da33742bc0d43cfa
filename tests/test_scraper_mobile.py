"""Mobile API parsing, golden against the saved JSON, and its agreement with the desktop parse."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from scraper_corpus import (
    GROWTH,
    PAGES,
    desktop_thread_pages,
    expected_formatting,
    growth_files,
    growth_posts_by_pid,
    iso,
    page_url,
    posts_by_pid,
)

from tracker.errors import NoPermissionError, NotAThreadError, ParseError, ThreadMissingError
from tracker.records import Post
from tracker.scraper.desktop import parse_thread_page
from tracker.scraper.mobile import parse_forumdisplay_mobile, parse_viewthread

MOBILE = [p for p in sorted(PAGES.glob("*.mobile*.json"))
          if not p.name.startswith(("forumdisplay", "members-only-guest", "nonexistent"))]
BASE = "http://127.0.0.1:8080"


@pytest.mark.parametrize("path", MOBILE, ids=lambda p: p.name)
def test_every_post_agrees_with_the_scenario(path: Path) -> None:
    truth = posts_by_pid()
    page = parse_viewthread(path.read_bytes(), page_url=page_url(path))
    assert page.posts and page.source == "mobile"
    raw = json.loads(path.read_bytes())["Variables"]
    assert page.replies == int(raw["thread"]["replies"])
    assert page.maxposition == int(raw["thread"]["maxposition"])
    assert page.ppp == int(raw["ppp"])
    for post in page.posts:
        want = truth[post.pid]
        assert (post.tid, post.floor, post.position) == (want["tid"], want["floor"], want["position"])
        assert (post.author, post.uid) == (want["author"], want["uid"])
        assert post.posted_at == iso(want["dateline"])
        assert [q.pid for q in post.quotes] == ([want["quotes_pid"]] if "quotes_pid" in want else [])
        assert post.blocked == bool(want["post_status"] & 1)
        assert post.from_mobile == bool(want["post_status"] & 8)
        assert post.edited_by is None  # the API drops the marker
        colors, _sizes = expected_formatting(want["bbcode"])
        assert post.colors == colors
        assert post.sizes == ()  # the API drops [size]
        assert post.source == "mobile"


def _pairs(desktop: list[Path], mobile: list[Path]) -> list[tuple[Post, Post]]:
    d: dict[int, Post] = {}
    for path in desktop:
        for post in parse_thread_page(path.read_bytes(), page_url=BASE + page_url(path)).posts:
            d[post.pid] = post
    pairs = []
    for path in mobile:
        for post in parse_viewthread(path.read_bytes()).posts:
            if post.pid in d:
                pairs.append((d[post.pid], post))
    return pairs


def _assert_same_content(pairs: list[tuple[Post, Post]]) -> None:
    for desk, mob in pairs:
        assert mob.text == desk.text, mob.pid
        assert mob.quotes == desk.quotes, mob.pid
        assert mob.colors == desk.colors, mob.pid
        assert (mob.smilies, mob.images) == (desk.smilies, desk.images), mob.pid
        assert (mob.floor, mob.author, mob.uid, mob.posted_at, mob.blocked) == (
            desk.floor, desk.author, desk.uid, desk.posted_at, desk.blocked), mob.pid


def test_text_and_quotes_are_identical_to_the_desktop_for_every_shared_pid() -> None:
    pairs = _pairs(desktop_thread_pages(), MOBILE)
    assert len({m.pid for _, m in pairs}) >= 200
    _assert_same_content(pairs)


@pytest.mark.parametrize("epoch", ["epoch1", "epoch2"])
def test_growth_text_is_identical_to_the_desktop(epoch: str) -> None:
    folder = GROWTH / epoch
    pairs = _pairs([p for p in folder.glob("*.html") if "forumdisplay" not in p.name and "302" not in p.name],
                   [p for p in folder.glob("*.json") if "forumdisplay" not in p.name and p.name != "index.json"])
    assert len({m.pid for _, m in pairs}) >= 30
    _assert_same_content(pairs)


@pytest.mark.parametrize("path", [p for p in growth_files("*.json")
                                  if "forumdisplay" not in p.name and p.name != "index.json"],
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_growth_documents(path: Path) -> None:
    epoch = path.parent.name
    truth = growth_posts_by_pid()
    page = parse_viewthread(path.read_bytes())
    for post in page.posts:
        want = truth[post.pid]
        assert (post.floor, post.position) == (want[f"floor_{epoch}"], want["position"])
        assert post.posted_at == iso(want["dateline"])
        assert post.blocked == (epoch == "epoch2" and want["expect"]["blocked_in_epoch2"])
        assert post.edited_by is None
        if post.blocked:
            assert post.text == "" and "屏蔽" in post.html
    if epoch == "epoch2" and path.name == "discussion-p2.mobile.json":
        assert (page.page, page.pages, page.ppp) == (2, 4, 10)
    if epoch == "epoch2" and path.name == "discussion.mobile-ppp200.json":
        assert 588 not in {p.pid for p in page.posts}  # deleted to the recycle bin
        assert (page.replies, page.maxposition, page.pages) == (37, 39, 1)  # ppp=200: one page
        p589 = next(p for p in page.posts if p.pid == 589)
        assert (p589.floor, p589.position) == (14, 15)


def test_page_past_the_end_says_which_page_it_is() -> None:
    page = parse_viewthread((GROWTH / "epoch2" / "discussion-p999.mobile.json").read_bytes(),
                            page_url="api/mobile/index.php?version=4&module=viewthread&tid=14&page=999")
    assert (page.page, page.pages) == (4, 4)
    assert parse_viewthread((PAGES / "day1-discussion-p3.mobile.json").read_bytes()).page == 3


def test_relative_dateline_is_not_used() -> None:
    path = PAGES / "chat-relative-times-p1.mobile.json"
    raw = json.loads(path.read_bytes())["Variables"]["postlist"]
    assert any("前" in p["dateline"] for p in raw)
    truth = posts_by_pid()
    for post in parse_viewthread(path.read_bytes()).posts:
        assert post.posted_at == iso(truth[post.pid]["dateline"])


def test_thread_and_member_fields() -> None:
    page = parse_viewthread((PAGES / "day1-discussion-p1.loggedin.mobile.json").read_text("utf-8"))
    assert (page.tid, page.fid, page.subject) == (3, 2, "【演示局】第一日讨论帖")
    assert (page.member_uid, page.member_name) == (2, "泡泡")
    assert page.formhash and (page.replies, page.pages) == (88, 9)
    guest = parse_viewthread(json.loads((PAGES / "day1-discussion-p1.mobile.json").read_bytes()))
    assert (guest.member_uid, guest.member_name) == (None, None)
    whole = parse_viewthread((PAGES / "day1-discussion.mobile-ppp200.json").read_bytes())
    assert len(whole.posts) == 89 and whole.ppp == 200 and whole.pages == 1


@pytest.mark.parametrize(("name", "error"), [
    ("nonexistent-tid.mobile.json", ThreadMissingError),
    ("members-only-guest.mobile.json", NoPermissionError),
])
def test_error_documents(name: str, error: type[Exception]) -> None:
    with pytest.raises(error) as caught:
        parse_viewthread((PAGES / name).read_bytes(), page_url=name)
    assert name in str(caught.value)


@pytest.mark.parametrize("doc", [b"", b"<html>login</html>", b"[]", b'{"Version":"4"}', "\u00ff", b"\xff\xfe\x00"])
def test_not_a_thread_document(doc: bytes | str) -> None:
    with pytest.raises(NotAThreadError):
        parse_viewthread(doc, page_url="x")


def test_missing_mandatory_field_names_the_pid() -> None:
    data = json.loads((PAGES / "day1-discussion-p3.mobile.json").read_bytes())
    data["Variables"]["postlist"][1].pop("number")
    with pytest.raises(ParseError) as caught:
        parse_viewthread(data, page_url="tid=3&page=3")
    assert caught.value.pid == 33


def test_forumdisplay_mobile() -> None:
    threads = {t.tid: t for t in parse_forumdisplay_mobile((PAGES / "forumdisplay.mobile.json").read_bytes())}
    assert threads[1].sticky and not threads[3].sticky
    assert threads[6].replies == 15 and threads[6].subject == "【演示局】第二日投票帖（放逐投票）"
    assert threads[6].last_post_at == iso("2025-03-04T22:10:00+08:00")
    growth = parse_forumdisplay_mobile((GROWTH / "epoch1" / "forumdisplay.mobile.json").read_bytes())
    assert {t.tid: t.replies for t in growth} == {14: 24, 15: 5}

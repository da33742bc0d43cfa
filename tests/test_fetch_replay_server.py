"""The replay server answers the way the captured Discuz answered, over real loopback sockets."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.captured_pages import PAGES
from tracker.demo.server import ReplayForum, canonical

FIXTURES = Path(__file__).parent / "fixtures" / "discuz"
EPOCH2 = FIXTURES / "growth" / "epoch2"


@pytest.fixture
def forum() -> Iterator[ReplayForum]:
    with ReplayForum(PAGES) as f:
        yield f


def get(forum: ReplayForum, url: str) -> httpx.Response:
    with httpx.Client(base_url=forum.base_url) as c:
        return c.get(url)


def test_it_listens_on_loopback_on_an_ephemeral_port(forum: ReplayForum) -> None:
    assert forum.base_url.startswith("http://127.0.0.1:") and not forum.base_url.endswith(":8080/")


def test_a_captured_page_is_served_byte_for_byte_whatever_the_parameter_order(forum: ReplayForum) -> None:
    want = (PAGES / "day1-discussion-p4.html").read_bytes()
    for url in ("forum.php?mod=viewthread&tid=3&page=4", "forum.php?page=4&tid=3&mod=viewthread"):
        r = get(forum, url)
        assert r.status_code == 200 and r.content == want
        assert r.headers["content-type"] == "text/html; charset=utf-8"
    assert get(forum, "forum.php?mod=viewthread&tid=3").content == (PAGES / "day1-discussion-p1.html").read_bytes()


def test_page_past_the_end_is_the_last_page(forum: ReplayForum) -> None:
    last = (PAGES / "day1-vote-p3.html").read_bytes()
    assert get(forum, "forum.php?mod=viewthread&tid=4&page=40").content == last
    mobile = get(forum, "api/mobile/index.php?version=4&module=viewthread&tid=4&page=40")
    assert mobile.content == (PAGES / "day1-vote-p3.mobile.json").read_bytes()


def test_a_missing_thread_is_a_404_on_both_sides(forum: ReplayForum) -> None:
    desk = get(forum, "forum.php?mod=viewthread&tid=4242&page=1")
    assert desk.status_code == 404 and "主题不存在" in desk.text
    mob = get(forum, "api/mobile/index.php?version=4&module=viewthread&tid=4242&page=1&ppp=1000")
    assert mob.status_code == 404 and "thread_nonexistence" in mob.text


def test_the_permission_page_is_a_200_alert(forum: ReplayForum) -> None:
    r = get(forum, "forum.php?mod=viewthread&tid=7&page=1")
    assert r.status_code == 200 and "阅读权限" in r.text


def test_mobile_ppp_is_honoured_by_slicing_the_whole_thread(forum: ReplayForum) -> None:
    whole = json.loads((PAGES / "day1-discussion.mobile-ppp200.json").read_bytes())["Variables"]["postlist"]
    big = get(forum, "api/mobile/index.php?version=4&module=viewthread&tid=3&page=1&ppp=1000").json()
    assert [p["pid"] for p in big["Variables"]["postlist"]] == [p["pid"] for p in whole]
    assert big["Variables"]["ppp"] == "1000"
    second = get(forum, "api/mobile/index.php?version=4&module=viewthread&tid=3&page=2&ppp=50").json()
    assert [p["pid"] for p in second["Variables"]["postlist"]] == [p["pid"] for p in whole[50:100]]


def test_a_capped_forum_and_a_closed_mobile_plugin() -> None:
    with ReplayForum(PAGES, mobile_ppp_cap=20) as capped:
        doc = get(capped, "api/mobile/index.php?version=4&module=viewthread&tid=3&page=1&ppp=1000").json()
        assert len(doc["Variables"]["postlist"]) == 20 and doc["Variables"]["ppp"] == "20"
    with ReplayForum(PAGES, mobile_api=False) as closed:
        r = get(closed, "api/mobile/index.php?version=4&module=viewthread&tid=3&page=1&ppp=1000")
        assert r.json() == {"error": "mobile_is_closed"}
        assert get(closed, "forum.php?mod=viewthread&tid=3&page=1").status_code == 200


def test_the_302_to_itself_is_answered_once_then_the_page() -> None:
    with ReplayForum(EPOCH2) as forum:
        first = get(forum, "forum.php?mod=viewthread&tid=14&page=2")
        assert first.status_code == 302
        assert first.headers["location"] == forum.base_url + "forum.php?mod=viewthread&tid=14&page=2"
        again = get(forum, "forum.php?mod=viewthread&tid=14&page=2")
        assert again.status_code == 200 and again.content == (EPOCH2 / "discussion-p2.html").read_bytes()
        forum.switch(EPOCH2)  # a new epoch (another deletion) can redirect once more
        assert get(forum, "forum.php?mod=viewthread&tid=14&page=2").status_code == 302
        assert len(forum.requests) == 3


def test_injected_faults_are_served_then_cleared(forum: ReplayForum) -> None:
    forum.fail("tid=3&page=2", 500, times=2)
    assert get(forum, "forum.php?mod=viewthread&tid=3&page=2").status_code == 500
    assert get(forum, "forum.php?mod=viewthread&tid=3&page=2").status_code == 500
    assert get(forum, "forum.php?mod=viewthread&tid=3&page=2").status_code == 200


def test_canonical_keys() -> None:
    assert canonical("/forum.php?mod=viewthread&tid=3") == canonical("forum.php?tid=3&page=1&mod=viewthread")
    assert canonical("forum.php?mod=viewthread&tid=3&page=1&ppp=50") == canonical("forum.php?mod=viewthread&tid=3")
    assert canonical("api/mobile/index.php?version=4&module=viewthread&tid=3&ppp=10") == \
        canonical("api/mobile/index.php?module=viewthread&version=4&tid=3&page=1")

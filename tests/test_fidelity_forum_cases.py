"""Issue 12's four real-forum cases, each against the Discuz behaviour (or the rule) it comes from."""

from __future__ import annotations

from datetime import datetime, timedelta

import httpx
import pytest

from tracker.clock import SHANGHAI
from tracker.engine.ballots import Ballot, parse_ballot
from tracker.engine.tally import PlayerView, Roster, TallyRules, VoteWindow, tally
from tracker.errors import ForumError
from tracker.scraper.fetch import Fetcher, FetchPolicy
from tracker.scraper.mobile import parse_viewthread

OPENS = datetime(2025, 3, 1, 10, 0, tzinfo=SHANGHAI)
CLOSES = datetime(2025, 3, 2, 21, 0, tzinfo=SHANGHAI)
EXILE = VoteWindow(day=2, opens=OPENS, closes=CLOSES)


def _vote(pid: int, voter: str, target: str, at: datetime) -> Ballot:
    return Ballot(pid=pid, tid=4, floor=pid - 98, author=voter, posted_at=at, voter=voter, kind="vote",
                  change=False, target=target, reason_text="理由")


# --------------------------------------------------------------------------- case 3: out at the close

def test_an_elimination_at_exactly_the_close_does_not_void_the_days_ballots() -> None:
    """A day decided before the tracker is entered as ``cause = "vote"`` at the close: the player is
    out *at* the close, not before it, so the votes that exiled them stay valid ("投票对象在关门前已出局"
    is for players out before the close)."""
    ballots = [_vote(100, "甲", "丙", OPENS + timedelta(hours=2)), _vote(101, "乙", "丙", OPENS + timedelta(hours=3)),
               _vote(102, "丙", "甲", OPENS + timedelta(hours=4))]
    players = (PlayerView("甲"), PlayerView("乙"), PlayerView("丙", out_at=CLOSES))
    result = tally(ballots, rules=TallyRules(), roster=Roster(players=players), window=EXILE)
    assert [cb.valid for cb in result.ballots] == [True, True, True]
    assert not any(f.code.value == "target_out_by_close" for cb in result.ballots for f in cb.flags)
    assert result.totals == {"丙": 2.0, "甲": 1.0}
    assert (result.outcome.kind, result.outcome.player) == ("exiled", "丙")


def test_an_elimination_a_second_before_the_close_still_voids_votes_on_them() -> None:
    """The other side of the boundary: out before the close (正午出局, a red card) → the votes on
    them do not count."""
    ballots = [_vote(100, "甲", "丙", OPENS + timedelta(hours=2)), _vote(101, "乙", "丙", OPENS + timedelta(hours=3))]
    players = (PlayerView("甲"), PlayerView("乙"), PlayerView("丙", out_at=CLOSES - timedelta(seconds=1)))
    result = tally(ballots, rules=TallyRules(), roster=Roster(players=players), window=EXILE)
    assert "丙" not in result.totals
    assert all(any(f.code.value == "target_out_by_close" for f in cb.flags) for cb in result.ballots)


# --------------------------------------------------------------------------- case 4: the 302 to the site URL

FORUM = "http://bbs.example.test/"
PAGE_BODY = b"<html><body>thread</body></html>"
JSON_BODY = b'{"Variables": {}}'


class _Forum:
    """A forum whose configured site URL differs from the one in the game file: the first request to
    each thread URL answers Discuz's one-time 302 naming ``site``, or every request does (``always``)."""

    def __init__(self, site: str, *, always: bool = False) -> None:
        self.site = site
        self.always = always
        self.seen: list[httpx.Request] = []
        self.redirected: set[str] = set()

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.seen.append(request)
        url = str(request.url)
        path_query = url[len(FORUM):]
        if self.always or url not in self.redirected:
            self.redirected.add(url)
            return httpx.Response(302, headers={"location": self.site + path_query})
        mobile = "api/mobile/" in url
        return httpx.Response(200, content=JSON_BODY if mobile else PAGE_BODY,
                              headers={"content-type": "application/json" if mobile else "text/html; charset=utf-8"})


def _fetcher(forum: _Forum) -> Fetcher:
    cookies = httpx.Cookies()
    cookies.set("auth", "secret", domain="bbs.example.test")
    return Fetcher(FORUM, FetchPolicy(retries=0, delay=0), cookies=cookies, transport=httpx.MockTransport(forum))


@pytest.mark.parametrize("site", ["https://bbs.example.test/", "http://www.bbs.example.test/",
                                  "http://bbs.example.test:8080/", "https://proxy.example.test/bbs/"])
@pytest.mark.parametrize("url", ["forum.php?mod=viewthread&tid=3&page=2",
                                 "api/mobile/index.php?version=4&module=viewthread&tid=3&page=1&ppp=1000"])
async def test_the_one_time_redirect_to_the_site_url_is_retried_at_the_original_url(site: str, url: str) -> None:
    """Discuz's one-time 302 after a deletion builds its Location from the forum's configured site URL
    ($_G['siteurl']), which may differ from the address in the game file: the viewthread request is
    asked again, once, at the original URL; nothing is sent to the Location's host."""
    forum = _Forum(site)
    async with _fetcher(forum) as f:
        got = await f.get(url, kind="json" if "mobile" in url else "html")
    assert got.status == 200 and got.url == FORUM + url
    assert [str(r.url) for r in forum.seen] == [FORUM + url, FORUM + url]
    assert all(r.url.host == "bbs.example.test" and r.url.port is None for r in forum.seen)


async def test_a_second_redirect_off_the_host_is_refused_and_never_followed() -> None:
    """Retried once only: a forum that keeps sending us elsewhere is refused, and the Location's host
    never receives a request, so the login cookie goes nowhere else."""
    forum = _Forum("https://elsewhere.example.test/", always=True)
    async with _fetcher(forum) as f:
        with pytest.raises(ForumError, match="另一个站点"):
            await f.get("forum.php?mod=viewthread&tid=3&page=2")
    assert len(forum.seen) == 2
    assert {r.url.host for r in forum.seen} == {"bbs.example.test"}
    assert all("auth=secret" in r.headers.get("cookie", "") for r in forum.seen)


async def test_other_requests_redirected_off_the_host_are_refused_at_once() -> None:
    """Only viewthread answers carry Discuz's one-time redirect; a login page sent elsewhere is not retried."""
    forum = _Forum("https://elsewhere.example.test/")
    async with _fetcher(forum) as f:
        with pytest.raises(ForumError, match="另一个站点"):
            await f.get("member.php?mod=logging&action=login")
    assert len(forum.seen) == 1


# --------------------------------------------------------------------------- case 2: a mobile change vote

def _mobile_post(pid: int, number: int, author: str, at: datetime, message: str) -> dict[str, str]:
    return {"pid": str(pid), "tid": "15", "number": str(number), "author": author, "authorid": str(pid),
            "dbdateline": str(int(at.timestamp())), "message": message, "status": "8", "position": str(number)}


def _mobile_thread(*posts: dict[str, str]) -> list[Ballot]:
    doc = {"Variables": {"thread": {"tid": "15", "subject": "第一天投票", "replies": str(len(posts) - 1)},
                         "postlist": list(posts), "ppp": "1000"}}
    page = parse_viewthread(doc, tz=SHANGHAI)
    out = [parse_ballot(p, directors=("主持",), names=("花千树", "包子", "取酒")) for p in page.posts]
    return [b for b in out if b is not None]


VOTE_AT = datetime(2025, 4, 12, 12, 14, 37, tzinfo=SHANGHAI)
DAY = VoteWindow(day=1, opens=datetime(2025, 4, 12, 10, 0, tzinfo=SHANGHAI),
                closes=datetime(2025, 4, 12, 21, 0, tzinfo=SHANGHAI))
PLAYERS = Roster(players=(PlayerView("花千树"), PlayerView("包子"), PlayerView("取酒")))


def _change_quoting(header_name: str, header_time: str, quoted: str) -> str:
    """A mobile client's 引用: the header is plain text, no findpost link (so no pid)."""
    return (f'<div class="reply_wrap"><font color="#999999">{header_name} 发表于 {header_time}</font><br />\n'
            f'{quoted}</div><br />\n改票对象：取酒<br />\n改票理由：取酒更可疑')


def test_a_mobile_change_vote_quoting_without_a_findpost_link_matches_the_own_vote_by_time_and_text() -> None:
    """Every post: "改票需引用自己的原投票楼层". From a mobile client the quote carries only
    "NAME 发表于 TIME" (minute, no seconds) and the quoted text; NAME is the account's name when it
    posted, here before a rename (花花 → 花千树), so it is not what the voter is called today."""
    ballots = _mobile_thread(
        _mobile_post(600, 1, "花千树", VOTE_AT, "投票对象：包子<br />\n投票理由：包子很可疑"),
        _mobile_post(645, 2, "花千树", VOTE_AT + timedelta(hours=1),
                     _change_quoting("花花", "2025-4-12 12:14", "投票对象：包子<br />\n投票理由：包子很可疑")))
    result = tally(ballots, rules=TallyRules(), roster=PLAYERS, window=DAY)
    assert [cb.valid for cb in result.ballots] == [True, True]
    assert result.final["花千树"] == "取酒"


def test_a_cut_quote_still_matches_the_start_of_the_vote() -> None:
    """Discuz quotes with messagecutstr(): at most 100 characters, ending in " ..." when cut."""
    reason = "包子" * 80
    ballots = _mobile_thread(
        _mobile_post(600, 1, "花千树", VOTE_AT, f"投票对象：包子<br />\n投票理由：{reason}"),
        _mobile_post(645, 2, "花千树", VOTE_AT + timedelta(hours=1),
                     _change_quoting("花花", "2025-4-12 12:14", f"投票对象：包子<br />\n投票理由：{reason[:40]} ...")))
    assert [cb.valid for cb in tally(ballots, rules=TallyRules(), roster=PLAYERS, window=DAY).ballots] == [True, True]


@pytest.mark.parametrize(("header_time", "quoted", "author"), [
    ("2025-4-12 12:15", "投票对象：包子<br />\n投票理由：包子很可疑", "花千树"),  # another minute
    ("2025-4-12 12:14", "投票对象：取酒<br />\n投票理由：别的", "花千树"),  # another text
    ("2025-4-12 12:14", "投票对象：包子<br />\n投票理由：包子很可疑", "包子"),  # someone else's vote
])
def test_an_unlinked_quote_of_anything_but_the_own_vote_is_not_a_change(header_time: str, quoted: str,
                                                                          author: str) -> None:
    """The time, the text and the voter must all be the own vote's; otherwise "改票引用的不是自己的投票"."""
    first = _mobile_post(600, 1, author, VOTE_AT, "投票对象：包子<br />\n投票理由：包子很可疑")
    mine = [] if author == "花千树" else [_mobile_post(601, 2, "花千树", VOTE_AT + timedelta(minutes=5),
                                                       "投票对象：包子<br />\n投票理由：跟票")]
    ballots = _mobile_thread(first, *mine, _mobile_post(645, 3, "花千树", VOTE_AT + timedelta(hours=1),
                                                        _change_quoting("花花", header_time, quoted)))
    change = tally(ballots, rules=TallyRules(), roster=PLAYERS, window=DAY).ballots[-1]
    assert not change.valid and change.verdict is not None and change.verdict.code.value == "change_quotes_other"

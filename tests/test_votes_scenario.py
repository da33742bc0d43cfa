"""The demo corpus end to end: real Discuz vote pages → ballots → verdicts → final votes and tallies.

The expectations are scenario.json's (its own rules: one change a day, a one-hour freeze, no
weights). Posts come from the saved desktop pages through the real page parser, so quotes, bold
and colour wrappers, and the edit markers are exactly what a crawl of a live forum would give.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from tests.captured_pages import PAGES
from tracker.engine.ballots import Ballot, parse_ballot
from tracker.engine.tally import PlayerView, Roster, Tally, TallyRules, VoteWindow, tally
from tracker.records import Post
from tracker.scraper.desktop import parse_thread_page

FIXTURES = Path(__file__).parent / "fixtures" / "discuz"
SCENARIO: dict[str, Any] = json.loads((FIXTURES / "scenario.json").read_text("utf-8"))
PLAYERS = [u["name"] for u in SCENARIO["users"] if u["role"] == "player"]
DIRECTORS = [u["name"] for u in SCENARIO["users"] if u["role"] == "director"]
DEAD_AFTER_NIGHT1 = SCENARIO["deaths"]["night1"]


def thread(key: str) -> dict[str, Any]:
    return next(t for t in SCENARIO["threads"] if t["key"] == key)


def vote_posts(key: str) -> list[Post]:
    t = thread(key)
    posts: list[Post] = []
    for n in range(1, t["desktop_pages"] + 1):
        page = PAGES / f"{key.replace('d1vote', 'day1-vote').replace('d2vote', 'day2-vote')}-p{n}.html"
        posts.extend(parse_thread_page(page.read_bytes()).posts)
    return posts


def window(key: str) -> VoteWindow:
    t = thread(key)
    purpose = "election" if t.get("vote_purpose") == "sheriff" else "exile"
    return VoteWindow(day=t["day"], opens=datetime.fromisoformat(t["opens"]),
                     closes=datetime.fromisoformat(t["closes"]), purpose=purpose,
                     office="警长" if purpose == "election" else None)


def roster(day: int, sheriff: str | None = None) -> Roster:
    views = []
    for name in PLAYERS:
        status = "out" if day >= 2 and name in DEAD_AFTER_NIGHT1 else "alive"
        tags = frozenset({"警长"}) if name == sheriff else frozenset()
        views.append(PlayerView(name=name, status=status, tags=tags))  # type: ignore[arg-type]
    return Roster(players=tuple(views))


# The scenario's own rules: "max_changes_per_day": 1, "change_freeze_seconds_before_close": 3600.
SCENARIO_RULES = TallyRules(change_limit=1, freeze_minutes=60, tie="first_to_top")


def ballots_of(key: str) -> tuple[list[Ballot], dict[int, Post]]:
    posts = vote_posts(key)
    out = [b for p in posts if (b := parse_ballot(p, directors=DIRECTORS, names=PLAYERS)) is not None]
    return out, {p.pid: p for p in posts}


def run(key: str, rules: TallyRules = SCENARIO_RULES, sheriff: str | None = None) -> Tally:
    ballots, _ = ballots_of(key)
    return tally(ballots, rules=rules, roster=roster(thread(key)["day"], sheriff), window=window(key))


# What each scenario "reason" means in our codes (their words are English prose).
REASON_CODES = {
    "unknown target (typo of 饺子)": "unknown_target",
    "missing 投票对象 label": "missing_label",
    "change vote does not quote the original vote": "change_without_quote",
    "not a player (spectator)": "voter_not_player",
    "second change vote (only one change allowed)": "change_limit",
    "target is dead": "target_not_alive",
    "voter is dead": "voter_not_alive",
    "change vote inside the last hour before close (freeze)": "change_in_freeze",
    "posted after close": "posted_after_close",
}


@pytest.mark.parametrize("key", ["d1vote", "d2vote"])
def test_every_vote_post_gets_the_expected_verdict(key: str) -> None:
    result = run(key)
    by_pid = {cb.ballot.pid: cb for cb in result.ballots}
    posts = [p for p in SCENARIO["posts"] if p["thread"] == key and p["floor"] is not None]
    assert posts
    for p in posts:
        expect = p["expect"]["vote"]
        if expect is None:
            assert p["pid"] not in by_pid, f"pid {p['pid']} is not a ballot"
            continue
        cb = by_pid[p["pid"]]
        assert cb.voter == expect["voter"], p["pid"]
        assert cb.valid is expect["valid"], (p["pid"], cb.reason)
        if "target" in expect:
            assert cb.target == expect["target"], p["pid"]
        assert cb.final is bool(expect.get("final", False)), p["pid"]
        want = "proxy" if "proxy_by" in expect else "change" if expect.get("change", False) else "vote"
        assert cb.kind == want, p["pid"]
        assert cb.ballot.abstain is bool(expect.get("abstain", False))
        assert cb.ballot.proxy_by == expect.get("proxy_by")
        if not expect["valid"]:
            assert cb.verdict is not None
            assert cb.verdict.code.value == REASON_CODES[expect["reason"]], (p["pid"], cb.reason)
            assert cb.reason is not None and cb.reason.startswith(f"{cb.verdict.code.value}: ")
        else:
            assert cb.reason is None


@pytest.mark.parametrize("key,day", [("d1vote", "day1"), ("d2vote", "day2")])
def test_final_votes_and_tallies_match_the_scenario(key: str, day: str) -> None:
    result = run(key)
    expected = SCENARIO["expected"][day]
    assert dict(result.final) == expected["final_votes"]
    assert {k: v for k, v in result.totals.items()} == expected["tally"]
    assert result.public_totals == result.totals
    assert sorted(result.abstained) == sorted(expected["abstained"])
    assert sorted(result.no_vote) == sorted(expected["no_valid_vote"])


def test_day1_elects_the_sheriff_and_day2_exiles() -> None:
    d1 = run("d1vote")
    assert (d1.outcome.kind, d1.outcome.player) == ("elected", SCENARIO["results"]["day1"]["sheriff"])
    d2 = run("d2vote")
    assert (d2.outcome.kind, d2.outcome.player) == ("exiled", SCENARIO["results"]["day2"]["exiled"])


def test_unknown_target_names_the_nearest_player_but_is_not_corrected() -> None:
    result = run("d1vote")
    typo = next(cb for cb in result.ballots if cb.verdict and cb.verdict.code.value == "unknown_target")
    assert typo.target == "饺字"
    assert "饺子" in typo.verdict.message  # type: ignore[union-attr]
    assert "饺字" not in result.totals


def test_m19_sheriff_weighs_one_and_a_half_on_day2() -> None:
    """M19 警长·带队<强制>："计算投票数量时警长投出的票计为1.5票。" (README: 包子 3.5, 栗子 6)."""

    class W:
        tag: str | None = "警长"
        role: str | None = None
        weight = 1.5
        hidden = False

    rules = TallyRules(change_limit=1, freeze_minutes=60, accelerated_changes="void_all",
                       weights=(W(),))
    d1 = run("d1vote", rules)
    result = run("d2vote", rules, sheriff=d1.outcome.player)
    assert result.totals == {"栗子": 6, "包子": 3.5}
    assert result.public_totals == result.totals
    assert (result.outcome.kind, result.outcome.player) == ("exiled", "栗子")

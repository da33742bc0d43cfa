"""The demo corpus end to end: real Discuz pages → parser → detectors and 潜水 counts vs scenario.json.

Every post of every saved page goes through the real desktop parser, so quotes, colours, sizes and
edit markers are what a crawl would give. Precision and recall are computed per flag kind and
printed (``pytest -s``); recall must be 1.0 and there must be no false positive anywhere.
"""

from __future__ import annotations

import json
from collections import Counter
from datetime import datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tests.captured_pages import PAGES
from tracker.engine.ballots import parse_ballot
from tracker.engine.ruleset import LurkRules, load_ruleset
from tracker.engine.tally import PlayerView, Roster, TallyRules, tally
from tracker.engine.tally import VoteWindow as TallyWindow
from tracker.penalties.detect import DetectContext, detect_posts
from tracker.penalties.findings import Finding
from tracker.penalties.lurk import LurkDayInput, LurkWindow, PlayerDay, lurk_report, lurk_reports
from tracker.penalties.presence import StatusChange, ThreadKind
from tracker.records import Post
from tracker.scraper.desktop import parse_thread_page

DISCUZ = Path(__file__).parent / "fixtures" / "discuz"
SCENARIO: dict[str, Any] = json.loads((DISCUZ / "scenario.json").read_text("utf-8"))
PLAYERS = [u["name"] for u in SCENARIO["users"] if u["role"] == "player"]
DIRECTORS = [u["name"] for u in SCENARIO["users"] if u["role"] == "director"]
DEAD = SCENARIO["deaths"]["night1"]
THREADS = {t["key"]: t for t in SCENARIO["threads"]}
# scenario.json's label for 诈尸 → the flag kind (docs/cli.md)
LABELS = {"dead_player_post": "posted_while_out"}


@cache
def corpus() -> tuple[Post, ...]:
    """Every post a crawl would store, parsed from the saved desktop pages."""
    posts: dict[int, Post] = {}
    for name in sorted({p["page_file"] for p in SCENARIO["posts"] if p.get("page_file")}):
        for post in parse_thread_page((PAGES / name).read_bytes()).posts:
            posts.setdefault(post.pid, post)
    return tuple(sorted(posts.values(), key=lambda p: (p.posted_at, p.pid)))


def thread_kinds() -> dict[int, ThreadKind]:
    kinds: dict[str, ThreadKind] = {"discussion": "discussion", "vote": "vote", "process": "process"}
    return {t["tid"]: kinds.get(t["kind"], "other") for t in SCENARIO["threads"]}


def timeline() -> list[StatusChange]:
    # Night 1's deaths take effect when day 2 opens (the director's announcement).
    opens = datetime.fromisoformat(THREADS["d2talk"]["opens"])
    return [StatusChange(name, "out", opens, "第一夜死亡") for name in DEAD]


def context() -> DetectContext:
    return DetectContext(players=PLAYERS, directors=DIRECTORS, threads=thread_kinds(), timeline=timeline())


@cache
def findings() -> tuple[Finding, ...]:
    return tuple(detect_posts(corpus(), context=context()))


def expected_labels() -> set[tuple[int, str]]:
    return {(p["pid"], LABELS.get(f, f)) for p in SCENARIO["posts"] for f in p["expect"].get("flags", [])}


def test_corpus_parses_every_visible_post() -> None:
    visible = {p["pid"] for p in SCENARIO["posts"] if p["floor"] is not None}
    assert visible <= {p.pid for p in corpus()}


def test_precision_and_recall_per_flag_kind() -> None:
    got = {(f.pid, f.label) for f in findings()}
    want = expected_labels()
    kinds = sorted({label.split(":")[0] for _, label in got | want})
    lines = []
    for kind in kinds:
        g = {x for x in got if x[1].split(":")[0] == kind}
        w = {x for x in want if x[1].split(":")[0] == kind}
        tp = len(g & w)
        precision = tp / len(g) if g else 1.0
        recall = tp / len(w) if w else 1.0
        lines.append(f"{kind:<18} expected {len(w):>2}  found {len(g):>2}  precision {precision:.2f}  recall {recall:.2f}")
    print("\n" + "\n".join(lines))
    assert want, "the scenario has flags"
    assert want - got == set(), f"missed: {sorted(want - got)}"
    assert got - want == set(), f"false positives: {sorted(got - want)}"


def test_keyword_hits_match_the_expected_phrase() -> None:
    by_pid = {p["pid"]: p for p in SCENARIO["posts"]}
    keyword = [f for f in findings() if f.kind == "keyword"]
    assert keyword
    for f in keyword:
        assert f.matched == by_pid[f.pid]["expect"]["matched"], f


def test_innocent_look_alikes_and_quotes_are_not_flagged() -> None:
    flagged = {f.pid for f in findings()}
    innocent = [p for p in SCENARIO["posts"] if "innocent" in p["expect"].get("note", "")
                or ("quote" in p.get("key", "") and p["expect"].get("flags") == [])]
    keys = {p["key"] for p in innocent}
    assert {"d1_guangchang", "d1_zhudao", "d1_mashang", "d1_daiti", "d1_quote_woc", "d2_quote_oath"} <= keys
    for p in innocent:
        assert p["pid"] not in flagged, p["key"]


def test_directors_are_exempt_even_with_red_large_font() -> None:
    director_pids = {p["pid"] for p in SCENARIO["posts"] if p["role"] == "director"}
    assert not director_pids & {f.pid for f in findings()}
    # ... and the same post by a player would be flagged twice.
    d1_dir = next(p for p in corpus() if p.author in DIRECTORS and "size=\"5\"" in p.html)
    as_player = detect_posts([Post(**{**{s: getattr(d1_dir, s) for s in Post.__slots__}, "author": "泡泡"})],
                             context=context())
    assert {f.kind for f in as_player} == {"red_text", "large_font"}


def test_findings_carry_evidence() -> None:
    by_pid = {p.pid: p for p in corpus()}
    for f in findings():
        post = by_pid[f.pid]
        assert (f.tid, f.floor, f.author, f.posted_at) == (post.tid, post.floor, post.author, post.posted_at)
        assert len(f.html_hash) == 64 and f.clause and f.evidence and f.excerpt


def test_dead_vote_is_left_to_the_tally_unless_asked() -> None:
    ctx = DetectContext(players=PLAYERS, directors=DIRECTORS, threads=thread_kinds(), timeline=timeline(),
                        flag_dead_votes=True)
    out = {f.pid for f in detect_posts(corpus(), context=ctx) if f.kind == "posted_while_out"}
    laowang_vote = next(p["pid"] for p in SCENARIO["posts"] if p["key"] == "v2_laowang")
    assert laowang_vote in out


# ------------------------------------------------------------------ 潜水


def voters(key: str, day: int) -> tuple[set[str], set[str]]:
    """(players with a counted vote, players whose ballots were all invalid) from the real tally."""
    t = THREADS[key]
    posts = [p for p in corpus() if p.tid == t["tid"]]
    ballots = [b for p in posts if (b := parse_ballot(p, directors=DIRECTORS, names=PLAYERS)) is not None]
    roster = Roster(players=tuple(
        PlayerView(name=n, status="out" if day >= 2 and n in DEAD else "alive") for n in PLAYERS))
    purpose = "election" if t.get("vote_purpose") == "sheriff" else "exile"
    window = TallyWindow(day=day, opens=datetime.fromisoformat(t["opens"]),
                         closes=datetime.fromisoformat(t["closes"]), purpose=purpose,
                         office="警长" if purpose == "election" else None)
    result = tally(ballots, rules=TallyRules(change_limit=1, freeze_minutes=60, tie="first_to_top"),
                   roster=roster, window=window)
    valid = {v for v, target in result.final.items() if target is not None}
    valid |= set(result.abstained)
    tried = {b.voter for b in result.ballots if b.voter in PLAYERS}
    return valid, tried - valid


def day_input(day: int) -> LurkDayInput:
    talk = THREADS[f"d{day}talk"]
    window = LurkWindow(day=day, discussion_tid=talk["tid"], opens=datetime.fromisoformat(talk["opens"]),
                       closes=datetime.fromisoformat(talk["closes"]))
    players = [PlayerDay(n, "out" if day >= 2 and n in DEAD else "alive") for n in PLAYERS]
    valid, invalid = voters(f"d{day}vote", day)
    return LurkDayInput(window, players, valid, invalid)


# The demo game's own rules (scenario.json "rules"): 5 posts a day, nothing about missed votes.
DEMO_RULES = LurkRules(min_posts=5, three_day_min=10, no_vote_penalty=False)


@pytest.mark.parametrize("day", [1, 2])
def test_post_counts_and_lurkers_match_the_scenario(day: int) -> None:
    d = day_input(day)
    rep = lurk_report(window=d.window, posts=corpus(), players=d.players, rules=DEMO_RULES,
                      valid_voters=d.valid_voters, invalid_voters=d.invalid_voters)
    expected = SCENARIO["expected"][f"day{day}"]
    assert rep.posts == expected["discussion_post_counts"]
    assert sorted(p.player for p in rep.penalties if p.rule == "min_posts") == sorted(expected["yellow_cards"])
    assert {p.rule for p in rep.penalties} == {"min_posts"}
    assert sorted(n for n, v in rep.voted.items() if not v) == sorted(expected["no_valid_vote"])


def test_counts_for_lurk_per_post() -> None:
    """Each post's own verdict: counted exactly when scenario.json says it counts."""
    counted: set[int] = set()
    for day in (1, 2):
        d = day_input(day)
        judged = {p.name for p in d.players if p.status == "alive"}
        counted |= {p.pid for p in corpus() if p.tid == d.window.discussion_tid and p.author in judged
                    and d.window.contains(p.posted_at)}
    want = {p["pid"] for p in SCENARIO["posts"] if p["expect"].get("counts_for_lurk")}
    assert counted == want


def test_missed_votes_under_a_ruleset_that_cards_them() -> None:
    rules = load_ruleset("luoluo-m19").lurk
    reps = lurk_reports([day_input(1), day_input(2)], list(corpus()), rules)
    day1, day2 = reps
    no_vote1 = sorted(p.player for p in day1.penalties if p.rule == "no_vote")
    assert no_vote1 == sorted(SCENARIO["expected"]["day1"]["no_valid_vote"])
    # 栗子 (typo target) and 碎碎 (missing label) posted ballots; 银鸦 only agreed with a vote.
    assert sorted(day1.invalid_only) == ["栗子", "碎碎"]
    assert sorted(day2.invalid_only) == ["劫火", "风行"]
    assert "银鸦" not in day2.invalid_only and day2.voted["银鸦"] is False
    assert all(p.clause for p in day1.penalties)


def test_acceleration_suspends_everything() -> None:
    d = day_input(2)
    accelerated = LurkWindow(2, d.window.discussion_tid, d.window.opens, d.window.closes, accelerated=True)
    rep = lurk_report(window=accelerated, posts=corpus(), players=d.players,
                      rules=load_ruleset("luoluo-m19").lurk, valid_voters=d.valid_voters)
    assert rep.penalties == [] and rep.posts["银鸦"] == 0


def test_day_window_bounds_the_count() -> None:
    d = day_input(1)
    early_close = LurkWindow(1, d.window.discussion_tid, d.window.opens, d.window.opens + timedelta(hours=6))
    rep = lurk_report(window=early_close, posts=corpus(), players=d.players, rules=DEMO_RULES)
    full = lurk_report(window=d.window, posts=corpus(), players=d.players, rules=DEMO_RULES)
    assert sum(rep.posts.values()) < sum(full.posts.values())
    assert Counter(rep.posts) != Counter(full.posts)

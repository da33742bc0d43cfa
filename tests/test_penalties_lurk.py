"""潜水 rules one by one, on small made-up days (the demo corpus is in test_penalties_corpus)."""

from __future__ import annotations

from datetime import datetime, timedelta

from tracker.clock import SHANGHAI
from tracker.engine.ruleset import LurkRules, load_ruleset
from tracker.penalties.lurk import LurkDayInput, LurkWindow, PlayerDay, lurk_report, lurk_reports
from tracker.records import Post

D0 = datetime(2025, 3, 1, 10, 0, tzinfo=SHANGHAI)


def window(day: int, *, accelerated: bool = False) -> LurkWindow:
    opens = D0 + timedelta(days=2 * (day - 1))
    return LurkWindow(day, 100 + day, opens, opens + timedelta(hours=36), accelerated)


def posts_for(day: int, counts: dict[str, int], *, tid: int | None = None) -> list[Post]:
    w = window(day)
    out = []
    for name, n in counts.items():
        for i in range(n):
            pid = day * 10000 + hash(name) % 1000 * 10 + i
            out.append(Post(pid=pid, tid=tid or w.discussion_tid or 0, floor=i + 2, author=name, uid=None,
                            posted_at=w.opens + timedelta(minutes=i + 1), html="x", text="x"))
    return out


RULES_213 = load_ruleset("sanguo-213").lurk
RULES_M19 = load_ruleset("luoluo-m19").lurk
RULES_M160 = load_ruleset("gourmet-m160").lurk


def test_min_posts_and_what_counts() -> None:
    posts = posts_for(1, {"甲": 4, "乙": 5, "导演A": 9, "路人": 9})
    posts += posts_for(1, {"乙": 3}, tid=999)  # another thread does not count
    late = Post(pid=1, tid=101, floor=99, author="甲", uid=None, posted_at=window(1).closes + timedelta(seconds=1),
                html="x", text="x")
    rep = lurk_report(window=window(1), posts=[*posts, late], players=[PlayerDay("甲"), PlayerDay("乙")],
                      rules=LurkRules(min_posts=5, three_day_min=10), valid_voters=["甲", "乙"])
    assert rep.posts == {"甲": 4, "乙": 5}
    assert [(p.player, p.rule) for p in rep.penalties] == [("甲", "min_posts")]


def test_out_and_benched_players_are_not_judged() -> None:
    rep = lurk_report(window=window(2), posts=[], players=[PlayerDay("甲", "out"), PlayerDay("乙", "benched")],
                      rules=RULES_213)
    assert rep.posts == {} and rep.penalties == []


def test_no_vote_and_invalid_only() -> None:
    players = [PlayerDay(n) for n in "甲乙丙"]
    posts = posts_for(1, {"甲": 6, "乙": 6, "丙": 6})
    rep = lurk_report(window=window(1), posts=posts, players=players, rules=RULES_213,
                      valid_voters=["甲"], invalid_voters=["乙"])
    assert rep.voted == {"甲": True, "乙": False, "丙": False}
    assert rep.invalid_only == ["乙"]
    assert sorted((p.player, p.rule) for p in rep.penalties) == [("丙", "no_vote"), ("乙", "no_vote")]
    assert "5（3）" in rep.penalties[0].clause and "未投票" in rep.penalties[0].clause
    # 107 has no vote penalty
    rep107 = lurk_report(window=window(1), posts=posts, players=players, rules=load_ruleset("dnf-107").lurk)
    assert rep107.penalties == []


def test_m160_dead_not_out_players_auto_abstain() -> None:
    assert RULES_M160.dead_not_out_exempt_from_vote and not RULES_M160.no_vote_penalty
    players = [PlayerDay("甲", "dead_not_out"), PlayerDay("乙")]
    # The exemption matters where missed votes are carded: M160's exemption on a vote-carding base.
    rules = LurkRules(min_posts=5, three_day_min=10, no_vote_penalty=True, dead_not_out_exempt_from_vote=True)
    rep = lurk_report(window=window(1), posts=posts_for(1, {"甲": 5, "乙": 5}), players=players, rules=rules)
    assert [(p.player, p.rule) for p in rep.penalties] == [("乙", "no_vote")]
    assert "甲" in rep.exempt
    strict = lurk_report(window=window(1), posts=posts_for(1, {"甲": 5, "乙": 5}), players=players,
                         rules=LurkRules(min_posts=5, three_day_min=10, no_vote_penalty=True))
    assert sorted(p.player for p in strict.penalties) == ["乙", "甲"]


def test_m19_kidnapped_player_exempt_from_min_posts_only() -> None:
    players = [PlayerDay("甲", kidnapped=True), PlayerDay("乙", kidnapped=True)]
    rep = lurk_report(window=window(1), posts=posts_for(1, {"甲": 1}), players=players, rules=RULES_M19,
                      valid_voters=["甲"])
    assert [(p.player, p.rule) for p in rep.penalties] == [("乙", "no_vote")]
    rep213 = lurk_report(window=window(1), posts=posts_for(1, {"甲": 1}), players=players[:1], rules=RULES_213,
                         valid_voters=["甲"])
    assert [(p.player, p.rule) for p in rep213.penalties] == [("甲", "min_posts")]


def test_acceleration_suspends_posts_and_votes() -> None:
    rep = lurk_report(window=window(1, accelerated=True), posts=[], players=[PlayerDay("甲")], rules=RULES_213)
    assert rep.penalties == [] and rep.accelerated and rep.posts == {"甲": 0}


def test_three_consecutive_days_under_ten() -> None:
    days = [LurkDayInput(window(d), [PlayerDay("甲"), PlayerDay("乙")], ["甲", "乙"]) for d in (1, 2, 3)]
    posts = [p for d in (1, 2, 3) for p in posts_for(d, {"甲": 9, "乙": 9 if d != 2 else 10})]
    reps = lurk_reports(days, posts, RULES_213)
    assert [[(p.player, p.rule) for p in r.penalties] for r in reps] == [[], [], [("甲", "three_day_min")]]


def test_accelerated_day_neither_breaks_nor_extends_a_run() -> None:
    days = [LurkDayInput(window(d, accelerated=(d == 2)), [PlayerDay("甲")], ["甲"]) for d in (1, 2, 3, 4)]
    posts = [p for d in (1, 2, 3, 4) for p in posts_for(d, {"甲": 7})]
    reps = lurk_reports(days, posts, RULES_213)
    assert [[p.rule for p in r.penalties] for r in reps] == [[], [], [], ["three_day_min"]]


def test_a_carded_run_starts_over() -> None:
    days = [LurkDayInput(window(d), [PlayerDay("甲")], ["甲"]) for d in range(1, 7)]
    posts = [p for d in range(1, 7) for p in posts_for(d, {"甲": 8})]
    reps = lurk_reports(days, posts, RULES_213)
    assert [d + 1 for d, r in enumerate(reps) if r.penalties] == [3, 6]


def test_json_shape() -> None:
    rep = lurk_report(window=window(1), posts=[], players=[PlayerDay("甲")], rules=RULES_213, invalid_voters=["甲"])
    data = rep.to_json()
    assert {"day", "posts", "voted", "penalties", "invalid_only"} <= set(data)
    assert data["penalties"] and {"player", "rule", "clause"} <= set(data["penalties"][0])  # type: ignore[index]

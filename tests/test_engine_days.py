"""Day lengths, acceleration/delay requests and confirming a day's vote, from the rule posts."""

from __future__ import annotations

from datetime import datetime, timedelta

from engine_log import Game, roster

from tests.engine_log import outcome_for_totals
from tracker.clock import SHANGHAI
from tracker.engine.days import (
    VoteResult,
    auto_accelerate,
    confirm_vote,
    count_requests,
    find_request,
    needed,
    planned_close,
)
from tracker.engine.events import EventKind
from tracker.engine.ruleset import load_ruleset
from tracker.records import Post

MON = datetime(2025, 3, 3, 10, 0, tzinfo=SHANGHAI)   # Monday
THU = datetime(2025, 3, 6, 10, 0, tzinfo=SHANGHAI)
FRI = datetime(2025, 3, 7, 10, 0, tzinfo=SHANGHAI)


def test_two_days_and_one_more_over_a_weekend() -> None:
    rules = load_ruleset("sanguo-213").days
    # 一般讨论日持续两天，逢周末延时一天; 关门 21:00 ("讨论日结束三个小时前（一般为最后一个自然日的18:00）")
    assert planned_close(MON, rules) == datetime(2025, 3, 4, 21, 0, tzinfo=SHANGHAI)
    assert planned_close(THU, rules) == datetime(2025, 3, 7, 21, 0, tzinfo=SHANGHAI)
    assert planned_close(FRI, rules) == datetime(2025, 3, 9, 21, 0, tzinfo=SHANGHAI)


def test_m19_first_day_not_extended_and_m160_one_day() -> None:
    m19 = load_ruleset("luoluo-m19").days
    # 例外的，第一天讨论日不因周末而延长。
    assert planned_close(FRI, m19, first_day=True) == datetime(2025, 3, 8, 22, 0, tzinfo=SHANGHAI)
    assert planned_close(FRI, m19) == datetime(2025, 3, 9, 22, 0, tzinfo=SHANGHAI)
    m160 = load_ruleset("gourmet-m160").days
    assert planned_close(FRI, m160) == datetime(2025, 3, 7, 21, 0, tzinfo=SHANGHAI)


def test_thresholds() -> None:
    # 大于等于存活人数的一半 / 超过所有存活玩家的二分之一
    assert [needed(n, "half_living") for n in (13, 14)] == [7, 7]
    assert [needed(n, "more_than_half_living") for n in (13, 14)] == [7, 8]
    r213 = load_ruleset("sanguo-213").days
    assert auto_accelerate(r213, 16) and not auto_accelerate(r213, 17)
    assert not auto_accelerate(load_ruleset("accel-m65").days, 3)


def test_find_request_ignores_negations() -> None:
    assert find_request("申请加速") == "accelerate"
    assert find_request("我申请 延时，明天有事") == "delay"
    assert find_request("不申请加速") is None            # "不申请加速" is not a request
    assert find_request("大家别申请加速啊") is None
    assert find_request("我不想申请加速") is None
    assert find_request("加速吧") is None
    assert find_request("之前说不申请加速，现在改主意：申请加速") == "accelerate"


def _post(pid: int, author: str, text: str, at: datetime) -> Post:
    return Post(pid=pid, tid=3, floor=pid, author=author, uid=None, posted_at=at, html=text, text=text)


def test_count_requests_against_half_the_living_before_close_minus_3h() -> None:
    rules = load_ruleset("accel-m65").days
    closes = datetime(2025, 3, 4, 22, 0, tzinfo=SHANGHAI)
    living = ["甲", "乙", "丙", "丁", "戊", "己"]
    early = MON + timedelta(hours=2)
    posts = [
        _post(1, "甲", "申请加速", early),
        _post(2, "乙", "申请加速！", early),
        _post(3, "丙", "不申请加速", early),
        _post(4, "出局者", "申请加速", early),                                   # not living
        _post(5, "丁", "申请加速", closes - timedelta(hours=2)),                # after 19:00
        _post(6, "甲", "申请加速 again", early + timedelta(minutes=5)),         # one voice per player
        _post(7, "戊", "申请延时", early),
    ]
    c = count_requests(posts, living=living, rules=rules, closes=closes, opens=MON, day=2)
    assert c.cutoff == datetime(2025, 3, 4, 19, 0, tzinfo=SHANGHAI)
    assert c.needed == 3 and [x.player for x in c.accelerate] == ["甲", "乙"] and not c.accelerate_ok
    assert [x.player for x in c.delay] == ["戊"]
    assert {pid for pid, _ in c.ignored} == {4, 5}
    posts.append(_post(8, "己", "申请加速", early))
    assert count_requests(posts, living=living, rules=rules, closes=closes, opens=MON).accelerate_ok


def test_m19_has_no_delay_request() -> None:
    rules = load_ruleset("luoluo-m19").days
    closes = datetime(2025, 3, 4, 22, 0, tzinfo=SHANGHAI)
    c = count_requests([_post(1, "甲", "申请延时", MON)], living=["甲", "乙"], rules=rules, closes=closes)
    assert c.delay == () and c.ignored[0][1].startswith("request_not_allowed")


def test_confirm_vote_m160_threshold_and_last_votes() -> None:
    rs = load_ruleset("gourmet-m160")
    g = Game(rs, roster([("甲", "护士长"), ("乙", "心理学家"), ("丙", "狂煞"), ("丁", "告死天使")]))
    g.record("died", "丁", cause="凶杀")
    outcome = outcome_for_totals(rs, g.state, day=2, purpose="exile", totals={"丙": 2, "甲": 1})
    c = confirm_vote(rs, g.state, VoteResult(2, "exile", outcome, last_votes_used=["甲", "丁"]),
                     at=g.tick(), recorded_by="导演A")
    kinds = [(d.kind, d.player) for d in c.drafts]
    # 3 living: 2 votes ≥ 1.5 → 丙 dies; 丁 (dead) used the last vote
    assert kinds == [(EventKind.LAST_VOTE_USED, "丁"), (EventKind.DIED, "丙")]


def test_confirm_vote_abstain_only() -> None:
    rs = load_ruleset("sanguo-213")
    g = Game(rs, roster([("甲", "狼人"), ("乙", "村民")]))
    outcome = outcome_for_totals(rs, g.state, day=2, purpose="exile", totals={"弃权": 2})
    c = confirm_vote(rs, g.state, VoteResult(2, "exile", outcome), at=g.tick(), recorded_by="导演A")
    assert c.drafts == () and "无人出局" in c.explanation

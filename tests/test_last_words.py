"""遗言: the one post a player out may make, not 诈尸 — as werewolf-12's post allows it.

三、1 "死者如有遗言可在讨论帖发一帖遗言（第1夜死者有遗言，之后夜晚死亡无遗言；白天被放逐者有遗言）。"
三、2 "死者（遗言除外）、旁观者不得发言。"
三、6 "累计 3 张黄牌 = 1 张红牌 = 立即出局（在当天投票结算之后执行，不触发猎人开枪、有遗言、不翻身份）"
六、4 "开枪带走的人立即出局，无遗言。"

The five seed posts have 遗言 submitted to the director and published in the 公示 (107 "出局玩家遗言在
下一个讨论日开门前提交", 213 "出局角色的遗言立即公示", M19 "遗言在下一个游戏日白天开始时公示", M65
"遗言数量等于0", M160 "本局游戏没有遗言"), so a dead player's own post there stays 诈尸.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from discuz_pages import Said, posts_of
from test_day_rules_werewolf12_game import TALK_POSTS, VOTE_POSTS, at, by, open_game

from tracker.clock import SHANGHAI
from tracker.engine.ruleset import Ruleset, load_ruleset
from tracker.penalties.detect import DetectContext, detect_posts
from tracker.penalties.last_words import exit_of, last_words_posts
from tracker.penalties.presence import StatusChange, ThreadKind
from tracker.records import Post

WW12 = load_ruleset("werewolf-12")
TALK, VOTE, PROCESS = 21, 22, 20
THREADS: dict[int, ThreadKind] = {TALK: "discussion", VOTE: "vote", PROCESS: "process"}
PLAYERS = ["一号", "二号", "三号", "四号"]
OPENS = datetime(2026, 3, 2, 10, 0, tzinfo=SHANGHAI)


def t(hh: int, mm: int = 0) -> datetime:
    return OPENS.replace(hour=hh, minute=mm)


def said(n: int, hh: int, text: str, mm: int = 0) -> Said:
    return Said(PLAYERS[n - 1], 200 + n, t(hh, mm), text)


def flagged(posts: list[Post], timeline: list[StatusChange], *, ruleset: Ruleset = WW12,
            dead_votes: bool = False) -> list[tuple[str, str]]:
    ctx = DetectContext(players=PLAYERS, threads=THREADS, timeline=timeline, ruleset=ruleset,
                        flag_dead_votes=dead_votes)
    by_pid = {p.pid: p for p in posts}
    return [(by_pid[f.pid].author, by_pid[f.pid].text) for f in detect_posts(posts, context=ctx)
            if f.kind == "posted_while_out"]


def night(player: str, n: int, cause: str = "狼刀") -> StatusChange:
    """Out as the night desk records it: the settled phase ``night:N``, the skill's name as cause."""
    exit_kind, number = exit_of("eliminated", {"cause": cause, "phase": f"night:{n}", "via": "night"})
    return StatusChange(player, "out", t(10), "夜晚出局", exit=exit_kind, night=number, cause=cause)


def test_a_night_one_death_posts_one_last_words_and_no_more() -> None:
    """"第1夜死者有遗言" … "发一帖遗言": the first post is the 遗言, the second is 诈尸."""
    posts = posts_of(TALK, [said(1, 10, "遗言：我是预言家，2 号查杀", 5), said(1, 11, "再补一句：3 号金水")])
    assert flagged(posts, [night("一号", 1)]) == [("一号", "再补一句：3 号金水")]


def test_a_later_night_death_has_none() -> None:
    """"之后夜晚死亡无遗言": a night-2 death's every post is 诈尸."""
    posts = posts_of(TALK, [said(2, 10, "遗言：我是好人", 5)])
    assert flagged(posts, [night("二号", 2)]) == [("二号", "遗言：我是好人")]


def test_a_player_shot_by_the_hunter_has_none_even_on_night_one() -> None:
    """六、4 "开枪带走的人立即出局，无遗言。" — the shot settles with the night, cause 开枪."""
    posts = posts_of(TALK, [said(3, 10, "遗言：冤枉", 5)])
    assert flagged(posts, [night("三号", 1, cause="开枪")]) == [("三号", "遗言：冤枉")]


@pytest.mark.parametrize(("kind", "data"), [("eliminated", {"cause": "vote", "day": 1}),
                                            ("card_consequence", {"color": "red", "consequence": "out"})])
def test_an_exiled_or_red_carded_player_posts_one(kind: str, data: dict[str, object]) -> None:
    """"白天被放逐者有遗言"; 红牌 "……有遗言": one post, then 诈尸."""
    exit_kind, number = exit_of(kind, data)
    change = StatusChange("四号", "out", t(22), exit=exit_kind, night=number, cause=str(data.get("cause", "")))
    posts = posts_of(TALK, [said(4, 22, "遗言：我是村民", 5), said(4, 22, "还有", 30)])
    assert flagged(posts, [change]) == [("四号", "还有")]


def test_only_the_discussion_thread_holds_it() -> None:
    """"可在讨论帖发一帖遗言": a post in the 投票帖 or 进程帖 is 诈尸 and spends nothing."""
    vote = posts_of(VOTE, [said(1, 10, "投票对象：2", 1)], first_pid=70_000)
    process = posts_of(PROCESS, [said(1, 10, "我的遗言", 2)], first_pid=80_000)
    talk = posts_of(TALK, [said(1, 10, "遗言：2 号狼", 5)])
    posts = [*vote, *process, *talk]
    assert flagged(posts, [night("一号", 1)], dead_votes=True) == [("一号", "投票对象：2"), ("一号", "我的遗言")]
    assert last_words_posts(posts, [night("一号", 1)], THREADS, WW12.last_words) == {talk[0].pid}


def test_a_post_before_the_exit_is_not_the_last_words() -> None:
    """The 遗言 comes after the exit: posts made alive spend nothing."""
    posts = posts_of(TALK, [said(4, 21, "我不是狼"), said(4, 22, "遗言：好人", 5), said(4, 22, "还有", 30)])
    change = StatusChange("四号", "out", t(22), exit="vote")
    assert flagged(posts, [change]) == [("四号", "还有")]


def test_a_seed_ruleset_writes_no_last_words_and_flags_every_post() -> None:
    """107 "出局玩家遗言在下一个讨论日开门前提交": 遗言 go to the director; the player's own post is 诈尸."""
    for rid in ("dnf-107", "sanguo-213", "luoluo-m19", "accel-m65", "gourmet-m160"):
        rs = load_ruleset(rid)
        assert rs.last_words.exits == ()
        posts = posts_of(TALK, [said(1, 10, "遗言：我是好人", 5)])
        assert flagged(posts, [night("一号", 1)], ruleset=rs) == [("一号", "遗言：我是好人")]


def test_werewolf12_writes_its_last_words_as_data() -> None:
    lw = WW12.last_words
    assert set(lw.exits) == {"night", "vote", "red_card"} and lw.nights == (1,)
    assert lw.posts == 1 and lw.thread == "discussion" and lw.none_for == ("开枪",)
    assert lw.clause.startswith("三、1")


def test_the_exit_in_the_event_log_decides(tmp_path: Path) -> None:
    """Through the service: the causes the event log records (the night desk's ``night:N`` phase, a
    hand-recorded ``night`` with its night number, ``vote``) reach the 诈尸 check."""
    talk = [*TALK_POSTS, by(10, at(13), "遗言：10 号是好人"), by(10, at(14), "再说一句"),
            by(11, at(13), "遗言：11 号是好人"), by(12, at(13), "遗言：12 号是好人")]
    svc = open_game(tmp_path, talk, VOTE_POSTS)
    svc.log.record_event("eliminated", "阿十", {"cause": "狼刀", "phase": "night:1", "via": "night"}, at=at(10))
    svc.log.record_event("eliminated", "十一", {"cause": "night", "night": 1}, at=at(10))
    svc.log.record_event("eliminated", "十二", {"cause": "night", "night": 2}, at=at(10))
    out = sorted((f.excerpt, f.kind) for f in svc.flag_review.flags(detect=True) if f.kind == "posted_while_out")
    assert out == [("再说一句", "posted_while_out"), ("遗言：12 号是好人", "posted_while_out")]

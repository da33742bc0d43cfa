"""A werewolf-12 day 1 through the service: pages stored as a crawl stores them, counted as `tracker
tally`, `tracker lurkers` and `tracker confirm` count them.

The game file gives seats ("玩家按报名顺序编号 1—12 号"); the day's one vote thread holds both the
警长投票 (16:00–18:00, candidates by 上警 posts in the discussion thread) and the 放逐投票, where the
new 警长 weighs 1.5 ("第1天（警长竞选 + 讨论 + 放逐投票）", 四、2).
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from discuz_pages import Said, posts_of

from tracker.clock import SHANGHAI, FrozenClock
from tracker.engine.events import EventKind, effective
from tracker.errors import ConfigError, GameRuleError
from tracker.service import Service
from tracker.store.posts import upsert_posts

NAMES = ["阿一", "阿二", "阿三", "阿四", "阿五", "阿六", "阿七", "阿八", "阿九", "阿十", "十一", "十二"]
ROLES = ["狼人", "狼人", "狼人", "狼人", "预言家", "女巫", "猎人", "守卫", "村民", "村民", "村民", "村民"]
DAY = datetime(2026, 3, 2, 10, 0, tzinfo=SHANGHAI)
TALK, VOTE = 11, 12

GAME = """
[game]
name = "十二人测试局"
ruleset = "werewolf-12"
forum = "http://127.0.0.1:9/"
timezone = "Asia/Shanghai"
directors = ["导演"]

{players}

[[days]]
day = 1
discussion = 11
vote = 12
opens = 2026-03-02T10:00:00+08:00
closes = 2026-03-02T22:00:00+08:00
{purpose}
"""


def at(hh: int, mm: int = 0) -> datetime:
    return DAY.replace(hour=hh, minute=mm)


def by(n: int, when: datetime, text: str) -> Said:
    return Said(NAMES[n - 1], 100 + n, when, text)


def open_game(tmp_path: Path, talk: list[Said], vote: list[Said], purpose: str = "") -> Service:
    players = "\n".join(f'[[players]]\nname = "{n}"\nuid = {100 + i}\nseat = {i}\nrole = "{r}"\n'
                        f'faction = "{"狼人" if r == "狼人" else "好人"}"\n'
                        for i, (n, r) in enumerate(zip(NAMES, ROLES, strict=True), 1))
    path = tmp_path / "ww.toml"
    path.write_text(GAME.format(players=players, purpose=purpose), encoding="utf-8")
    svc = Service.open(path, db_url=f"sqlite:///{tmp_path / 'ww.db'}", clock=FrozenClock(at(23)))
    with svc.store.session() as s:
        upsert_posts(s, posts_of(TALK, talk), seen_at=at(23))
        upsert_posts(s, posts_of(VOTE, vote, first_pid=90_000), seen_at=at(23))
    return svc


TALK_POSTS = [by(1, at(10, 5), "上警"), by(2, at(10, 6), "上警！我是预言家"), by(3, at(10, 30), "上警"),
              by(3, at(11, 50), "退水"), by(4, at(12, 30), "上警")]  # 4 号 too late
VOTE_POSTS = [
    # 警长投票 16:00–18:00: 5–9 号 vote; 3 号 withdrew but may not vote; 2 号 gets two
    by(5, at(16, 5), "警长投票：1"), by(6, at(16, 6), "警长投票：2"), by(7, at(16, 7), "警长投票：2号"),
    by(8, at(16, 8), "警长投票：1"), by(9, at(16, 9), "警长投票：1"), by(3, at(16, 10), "警长投票：1"),
    # 放逐投票: 1 号 (the new 警长) and 2 号 against 10 号 and 11 号 …
    by(1, at(18, 30), "投票对象：10"), by(2, at(18, 31), "投票对象：11"), by(3, at(18, 32), "投票对象：11"),
    by(4, at(18, 33), "投票对象：10"), by(5, at(18, 34), "投票对象：弃票"),
    by(6, at(21, 10), "投票对象：10"),  # in the freeze: invalid, and 6 号 never voted before it
]


def test_day1_election_then_exile_with_the_new_sheriff(tmp_path: Path) -> None:
    svc = open_game(tmp_path, TALK_POSTS, VOTE_POSTS)
    sheriff, exile = svc.votes.tally_day(1)
    assert sheriff.tid == exile.tid == VOTE
    assert sheriff.election is not None and exile.election is None
    s = sheriff.tally
    assert (s.window.opens, s.window.closes) == (at(16), at(18))
    assert s.outcome.kind == "elected" and s.outcome.player == "阿一" and s.totals == {"阿一": 3.0, "阿二": 2.0}
    assert [(b.voter, b.verdict.code.value) for b in s.ballots if b.verdict] == [("阿三", "candidate_may_not_vote")]
    e = exile.tally
    # 阿一's 1.5 (provisional until confirmed) makes 10 号 the top: 1.5 + 1 against 1 + 1
    assert e.totals == {"阿十": 2.5, "十一": 2.0}
    assert e.outcome.kind == "exiled" and e.outcome.player == "阿十"
    assert any("警长竞选尚未确认" in p for p in exile.provisional)
    assert e.final["阿六"] == "弃票" and "阿六" in e.auto_abstain  # the post's word: "视为弃票"
    assert [(b.voter, b.verdict.code.value) for b in e.ballots if b.verdict] == [("阿六", "vote_in_freeze")]


def test_confirming_the_day_records_both_votes_once(tmp_path: Path) -> None:
    svc = open_game(tmp_path, TALK_POSTS, VOTE_POSTS)
    results = svc.votes.confirm_day(1, recorded_by="导演")
    assert [r.purpose for r in results] == ["sheriff", "exile"] and results[1].chosen == "阿十"
    live, _ = effective(svc.log.events())
    tags = [e for e in live if e.kind == EventKind.TAG_GIVEN.value]
    assert [(e.player, e.get("tag"), e.get("vote_purpose")) for e in tags] == [("阿一", "警长", "sheriff")]
    # recounted after the confirmation: the sheriff's own record still weighs 1.5 in the exile
    again = svc.votes.tally_day(1)[1].tally
    assert again.outcome.player == "阿十" and again.totals["阿十"] == 2.5
    with pytest.raises(GameRuleError, match="已经确认过"):
        svc.votes.confirm_day(1)


def test_no_candidate_no_sheriff(tmp_path: Path) -> None:
    """四、1 "全员上警或无人上警 → 警徽流失"."""
    svc = open_game(tmp_path, [by(1, at(10, 5), "我不上警")], VOTE_POSTS)
    sheriff, exile = svc.votes.tally_day(1)
    assert sheriff.tally.outcome.kind == "nobody" and sheriff.tally.outcome.message == "无人上警，本局无警长"
    assert exile.tally.totals.get("阿十") == 2.0  # nobody weighs 1.5


def test_the_game_file_names_the_days_votes(tmp_path: Path) -> None:
    """A day's purpose in the game file: day 1 holding only the exile (the election put off)."""
    svc = open_game(tmp_path, TALK_POSTS, VOTE_POSTS, purpose='purpose = ["exile"]')
    [exile] = svc.votes.tally_day(1)
    assert exile.election is None and exile.tally.totals.get("阿十") == 2.0
    other = tmp_path / "other"
    other.mkdir()
    bad = open_game(other, TALK_POSTS, VOTE_POSTS, purpose='purpose = ["mayor"]')
    with pytest.raises(ConfigError, match="不是本规则的投票"):
        bad.votes.tally_day(1)


def test_lurkers_count_content_only(tmp_path: Path) -> None:
    """三、4: at least 3 posts a day in the discussion thread, 顶/路过/pure punctuation not counted."""
    talk = [*TALK_POSTS, by(1, at(13), "顶"), by(1, at(13, 1), "路过"), by(1, at(13, 2), "我觉得 10 号在划水"),
            by(2, at(13), "10号发言像狼"), by(2, at(13, 5), "同意楼上，11号也可疑")]
    svc = open_game(tmp_path, talk, VOTE_POSTS)
    rep = svc.lurking.lurkers(1)
    assert rep.posts["阿一"] == 2 and rep.posts["阿二"] == 3
    carded = {p.player for p in rep.penalties}
    assert "阿一" in carded and "阿二" not in carded
    assert {p.rule for p in rep.penalties} == {"min_posts"}  # no three-day rule, no vote penalty


def test_seats_are_checked_in_the_game_file() -> None:
    """A seat is a number from 1, once per player; with seats, a player's name may not be a number."""
    from tracker.config import parse_game

    def game(*players: str) -> dict[str, object]:
        import tomllib

        return tomllib.loads('[game]\nname = "g"\nruleset = "werewolf-12"\nforum = "http://x/"\n' + "\n".join(players))

    ok = parse_game(game('[[players]]\nname = "阿一"\nseat = 1', '[[players]]\nname = "阿二"\nseat = 2'))
    assert ok.seats == {"阿一": 1, "阿二": 2}
    with pytest.raises(ConfigError, match="玩家号码重复：1 号"):
        parse_game(game('[[players]]\nname = "阿一"\nseat = 1', '[[players]]\nname = "阿二"\nseat = 1'))
    with pytest.raises(ConfigError, match="与号码相同"):
        parse_game(game('[[players]]\nname = "阿一"\nseat = 1', '[[players]]\nname = "7"\nseat = 2'))
    with pytest.raises(ConfigError, match="seat"):
        parse_game(game('[[players]]\nname = "阿一"\nseat = 0'))

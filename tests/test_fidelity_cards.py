"""Issue 12, cards and timing: when a red card takes effect on the day's vote, per rule post.

A game file in tmp_path, the day's vote posts put in the store, `tracker card issue … --at` and
`tracker tally` run through `tracker.cli.main`.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from tracker.cli import main
from tracker.clock import SHANGHAI
from tracker.records import Post
from tracker.store.db import Store
from tracker.store.posts import upsert_posts

VOTE = 5
OPENS = datetime(2025, 3, 1, 10, 0, tzinfo=SHANGHAI)
CLOSES = datetime(2025, 3, 2, 21, 0, tzinfo=SHANGHAI)

GAME = """
[game]
name = "测试局"
ruleset = "{ruleset}"
forum = "http://127.0.0.1:9/"
directors = ["导演A"]

[[players]]
name = "泡泡"
[[players]]
name = "栗子"
[[players]]
name = "包子"
[[players]]
name = "饺子"

[[days]]
day = 2
discussion = 4
vote = 5
opens = 2025-03-01T10:00:00+08:00
closes = 2025-03-02T21:00:00+08:00
"""


def _game(tmp_path: Path, ruleset: str) -> Path:
    path = tmp_path / "game.toml"
    path.write_text(GAME.format(ruleset=ruleset), encoding="utf-8")
    votes = [("泡泡", "包子", 1), ("栗子", "包子", 2), ("包子", "泡泡", 3), ("饺子", "泡泡", 30)]
    posts = [Post(pid=100 + i, tid=VOTE, floor=i + 2, author=voter, uid=None,
                  posted_at=OPENS + timedelta(hours=hours), html="",
                  text=f"投票对象：{target}\n投票理由：理由") for i, (voter, target, hours) in enumerate(votes)]
    store = Store.open(f"sqlite:///{path.with_suffix('.db')}")
    try:
        with store.session() as s:
            upsert_posts(s, posts, seen_at=datetime.now(SHANGHAI))
    finally:
        store.close()
    return path


def _tally(game: Path, capsys: pytest.CaptureFixture[str]) -> dict:  # type: ignore[type-arg]
    assert main(["tally", str(game), "--day", "2", "--json"]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def _red(game: Path, capsys: pytest.CaptureFixture[str], player: str, at: datetime) -> None:
    assert main(["card", str(game), "issue", player, "--color", "red", "--reason", "贴脸",
                 "--at", at.isoformat(), "--json"]) == 0
    capsys.readouterr()


def _valid(doc: dict, voter: str) -> bool:  # type: ignore[type-arg]
    return any(b["voter"] == voter and b["valid"] for b in doc["ballots"])


@pytest.mark.parametrize("ruleset", ["luoluo-m19", "sanguo-213"])
def test_before_the_vote_a_red_during_the_day_voids_the_players_ballot_and_the_votes_on_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], ruleset: str) -> None:
    """M19 "白天红牌罚下在被投票出局之前"; 213 "白天结束时红牌罚下的出局结算在投票结算之前执行": the
    carded player is out when the vote is counted, so their morning ballot and the votes on them go."""
    game = _game(tmp_path, ruleset)
    before = _tally(game, capsys)
    assert before["totals"] == {"包子": 2, "泡泡": 2}
    _red(game, capsys, "包子", OPENS + timedelta(hours=20))
    after = _tally(game, capsys)
    assert not _valid(after, "包子")
    assert after["totals"] == {"泡泡": 1}  # 饺子's vote; 包子's own is void


def test_213_a_red_settled_at_the_close_after_the_fact_still_comes_before_the_vote(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A day's red settled after the close is dated `--at` the close: "白天结束时红牌罚下的出局结算在投票结算
    之前执行" — it counts for that day's vote; without --at (now) it would belong to no day."""
    game = _game(tmp_path, "sanguo-213")
    _red(game, capsys, "包子", CLOSES)
    after = _tally(game, capsys)
    assert after["totals"] == {"泡泡": 1} and not _valid(after, "包子")


def test_m65_after_the_vote_a_mid_day_red_leaves_the_days_vote_alone(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """M65 "白天红牌罚下导致的出局结算在投票结算之后执行": the votes on the carded player still count and
    their own later ballot (饺子 votes at hour 30, after the red at hour 20) is valid."""
    game = _game(tmp_path, "accel-m65")
    _red(game, capsys, "饺子", OPENS + timedelta(hours=20))
    after = _tally(game, capsys)
    assert _valid(after, "饺子")
    assert after["totals"] == {"包子": 2, "泡泡": 2}


def test_card_issue_at_needs_a_time(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = _game(tmp_path, "sanguo-213")
    assert main(["card", str(game), "issue", "包子", "--color", "red", "--reason", "x", "--at", "昨天"]) != 0
    assert "不是时间" in capsys.readouterr().err


# --------------------------------------------------------------------------- the close hour

@pytest.mark.parametrize(("ruleset", "hour"), [("dnf-107", 21), ("sanguo-213", 21), ("gourmet-m160", 21),
                                               ("accel-m65", 21), ("luoluo-m19", 22)])
def test_init_writes_the_close_hour_the_post_implies(tmp_path: Path, ruleset: str, hour: int) -> None:
    """107, 213, M160, M65: "当日申请人数在讨论日结束三个小时前（一般为最后一个自然日的18:00）" — the day
    ends at 21:00. M19 names no hour ("到A+1日晚上关帖"), so the 22:00 default stays."""
    from tracker.config import load_game

    out = tmp_path / "game.toml"
    assert main(["init", "--ruleset", ruleset, "--out", str(out), "--opens", "2025-03-03T10:00:00+08:00"]) == 0
    (day1,) = load_game(out).days
    assert (day1.closes.hour, day1.closes.minute) == (hour, 0)


# --------------------------------------------------------------------------- lexicon per ruleset, 黄牌起步

def _flags_for(tmp_path: Path, capsys: pytest.CaptureFixture[str], ruleset: str, text: str) -> list[dict]:  # type: ignore[type-arg]
    game = _game(tmp_path, ruleset)
    post = Post(pid=300, tid=4, floor=2, author="泡泡", uid=None, posted_at=OPENS + timedelta(hours=1), html=text,
                text=text)
    store = Store.open(f"sqlite:///{game.with_suffix('.db')}")
    try:
        with store.session() as s:
            upsert_posts(s, [post], seen_at=datetime.now(SHANGHAI))
    finally:
        store.close()
    assert main(["flags", str(game), "--json"]) == 0
    return [f for f in json.loads(capsys.readouterr().out) if f["kind"] == "keyword"]


def test_107_relaxes_mentions_of_past_games_213_does_not(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """107 马甲: "由于本场明马甲，将适当放宽……提及【仅限场上存在马甲】的历史场次等"; 213 马甲 (3) "提及过去场次"."""
    (tmp_path / "107").mkdir()
    (tmp_path / "213").mkdir()
    text = "你忘了上一场他当预言家的时候了吗"
    assert [f for f in _flags_for(tmp_path / "107", capsys, "dnf-107", text) if f["category"] == "past_game"] == []
    flags = _flags_for(tmp_path / "213", capsys, "sanguo-213", text)
    assert [f["clause"] for f in flags if f["category"] == "past_game"] == ["4、马甲（3）提及过去场次"]


def test_107_hypothetical_oath_against_the_faction_starts_at_yellow(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """107 贴脸 (7) "以违背阵营转变后利益的假设性发誓、威胁或诅咒句式，加重判罚，黄牌起步"."""
    flags = _flags_for(tmp_path, capsys, "dnf-107", "如果我被变成了亡灵，我就送好人赢")
    (flag,) = [f for f in flags if f["clause"].startswith("2、贴脸（7）")]
    game = tmp_path / "game.toml"
    assert main(["card", str(game), "from-flag", str(flag["id"]), "--json"]) == 0
    decision = json.loads(capsys.readouterr().out)
    assert [(e["action"], e["color"]) for e in decision["written"]] == [("issue", "yellow")]


def test_213_outside_contact_starts_at_yellow_and_doubles_when_reported(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """213 作弊 (1) 注："被举报者会加倍判罚。场外一经发现直接黄牌起步。"."""
    (flag,) = _flags_for(tmp_path, capsys, "sanguo-213", "昨晚有人私聊我说他是预言家")
    assert flag["clause"].startswith("7、作弊（1）")
    game = tmp_path / "game.toml"
    assert main(["card", str(game), "from-flag", str(flag["id"]), "--reported", "--json"]) == 0
    decision = json.loads(capsys.readouterr().out)
    issued = [e["color"] for e in decision["written"] if e["action"] == "issue"]
    assert issued == ["yellow", "yellow"]

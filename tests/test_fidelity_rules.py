"""Issue 12: ruleset keys that must do what they say, each against the rule post's sentence."""

from __future__ import annotations

from engine_log import Game, roster


def _213() -> Game:
    wolves = [("狼一", "狼人"), ("狼二", "狼人"), ("狼三", "狼人"), ("狼四", "狼人"), ("狼王", "觉醒狼王"),
              ("恶魔", "恶魔"), ("石像鬼", "石像鬼"), ("隐狼", "隐狼")]
    gods = [("预言", "预言家"), ("通灵", "通灵师"), ("女巫", "女巫"), ("守卫", "守卫"), ("骑士", "骑士"),
            ("长老", "长老"), ("赏金", "赏金猎人"), ("猎人", "猎人")]
    folk = [(f"民{i}", "村民") for i in range(1, 7)] + [("勇者一", "中箭勇者"), ("勇者二", "中箭勇者")]
    return Game("sanguo-213", roster(wolves + gods + folk))


def test_213_patriarch_carded_off_is_passed_at_random_not_by_choice() -> None:
    """213 on_red = "random": "红牌罚下出局的角色……牧首<殉道>对象和效果随机选择"."""
    g = _213()
    g.confirm(1, "patriarch", {"预言": 5, "骑士": 3})
    s = g.record("card_consequence", "预言", color="red")
    doc = s.to_json()
    (pending,) = doc["pending_tags"]
    assert (pending["tag"], pending["from"]) == ("牧首", "预言")
    assert "随机" in pending["how"]


def test_213_patriarch_out_otherwise_chooses_by_martyrdom() -> None:
    """Out by a vote or the night, the holder's own <殉道> applies: no random note."""
    g = _213()
    g.confirm(1, "patriarch", {"预言": 5, "骑士": 3})
    s = g.record("eliminated", "预言", cause="night")
    (pending,) = s.to_json()["pending_tags"]
    assert pending["how"] == "殉道"


# --------------------------------------------------------------------------- edits_allowed

def _edited(ruleset: str, first: str, now: str):  # type: ignore[no-untyped-def]
    from datetime import datetime, timedelta

    from tracker.clock import SHANGHAI
    from tracker.engine.ballots import parse_ballot
    from tracker.engine.ruleset import load_ruleset
    from tracker.engine.tally import DayWindow, PlayerView, Roster, rules_for_vote, tally
    from tracker.records import Post

    opens = datetime(2025, 3, 1, 10, 0, tzinfo=SHANGHAI)
    names = ("泡泡", "栗子", "包子")
    post = Post(pid=100, tid=5, floor=2, author="泡泡", uid=None, posted_at=opens + timedelta(hours=1), html="",
                text=now, edited_at=opens + timedelta(hours=2))
    ballot = parse_ballot(post, names=names)
    assert ballot is not None
    rules = rules_for_vote(load_ruleset(ruleset).voting)
    return tally([ballot], rules=rules, roster=Roster(players=tuple(PlayerView(n) for n in names)),
                 window=DayWindow(day=2, opens=opens, closes=opens + timedelta(hours=35)),
                 earlier_versions={100: first})


def test_m19_a_typo_fix_is_not_a_change() -> None:
    """M19 "修改错别字不算做改票": the edit keeps the target, so the edited ballot counts."""
    result = _edited("luoluo-m19", "投票对象：包子\n投票理由：太可依", "投票对象：包子\n投票理由：太可疑")
    (cb,) = result.ballots
    assert cb.valid and result.final["泡泡"] == "包子"
    assert "edit_typo" in [f.code.value for f in cb.flags]


def test_m19_an_edit_that_changes_the_target_does_not_count() -> None:
    """A new target by editing is a change without the 引用 "改票时必须引用原投票帖": the first text counts."""
    result = _edited("luoluo-m19", "投票对象：包子\n投票理由：可疑", "投票对象：栗子\n投票理由：可疑")
    assert result.final["泡泡"] == "包子"
    assert "edit_not_counted" in [f.code.value for f in result.ballots[0].flags]


def test_213_an_invalid_ballot_is_not_mended_by_editing() -> None:
    """213 "无效票须通过重新发帖来更正": the ballot as first recorded (no reason) stays invalid."""
    result = _edited("sanguo-213", "投票对象：包子", "投票对象：包子\n投票理由：补上理由")
    (cb,) = result.ballots
    assert not cb.valid and result.final["泡泡"] is None


def test_a_post_silent_on_edits_counts_what_the_forum_shows() -> None:
    """M65 says nothing about editing: the shown text counts, flagged for the director as before."""
    result = _edited("accel-m65", "投票对象：包子", "投票对象：栗子\n投票理由：可疑")
    assert result.final["泡泡"] == "栗子"
    assert [f.code.value for f in result.ballots[0].flags] == ["edited"]


# --------------------------------------------------------------------------- 替补

def test_213_each_role_is_substituted_once_only() -> None:
    """107/213/M160 "每名角色仅限更换一次替补": a second substitute for the same role is refused."""
    import pytest

    from tracker.errors import GameRuleError

    g = _213()
    g.record("substituted", "民1", by="替补甲")
    with pytest.raises(GameRuleError, match="已经更换过替补"):
        g.record("substituted", "民1", by="替补乙")
    g.record("substituted", "民2", by="替补乙")  # another role may still take one


def test_m19_names_no_limit() -> None:
    """M19 writes no such sentence: a second substitute is the director's call."""
    from engine_log import Game, roster

    g = Game("luoluo-m19", roster([("甲", "村民"), ("乙", "公狼")]))
    g.record("substituted", "甲", by="替补甲")
    g.record("substituted", "甲", by="替补乙")
    assert g.state.players["甲"].substitutes == ("替补甲", "替补乙")

"""Issue 12: ruleset keys that must do what they say, each against the rule post's sentence."""

from __future__ import annotations

from typing import Any

import pytest
from engine_log import Game, roster
from vote_rights import can_vote, weight


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
    from tracker.engine.tally import PlayerView, Roster, VoteWindow, rules_for_vote, tally
    from tracker.records import Post

    opens = datetime(2025, 3, 1, 10, 0, tzinfo=SHANGHAI)
    names = ("泡泡", "栗子", "包子")
    post = Post(pid=100, tid=5, floor=2, author="泡泡", uid=None, posted_at=opens + timedelta(hours=1), html="",
                text=now, edited_at=opens + timedelta(hours=2))
    ballot = parse_ballot(post, names=names)
    assert ballot is not None
    rules = rules_for_vote(load_ruleset(ruleset).voting)
    return tally([ballot], rules=rules, roster=Roster(players=tuple(PlayerView(n) for n in names)),
                 window=VoteWindow(day=2, opens=opens, closes=opens + timedelta(hours=35)),
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


def test_a_ruleset_silent_on_edits_counts_what_the_forum_shows() -> None:
    """A ruleset without the key (a sixth game's file): the shown text counts, flagged for the director."""
    from dataclasses import replace
    from datetime import datetime, timedelta

    from tracker.clock import SHANGHAI
    from tracker.engine.ballots import parse_ballot
    from tracker.engine.tally import PlayerView, Roster, TallyRules, VoteWindow, tally
    from tracker.records import Post

    opens = datetime(2025, 3, 1, 10, 0, tzinfo=SHANGHAI)
    post = Post(pid=100, tid=5, floor=2, author="泡泡", uid=None, posted_at=opens + timedelta(hours=1), html="",
                text="投票对象：栗子\n投票理由：可疑", edited_at=opens + timedelta(hours=2))
    ballot = parse_ballot(post, names=("泡泡", "栗子", "包子"))
    assert ballot is not None
    result = tally([ballot], rules=replace(TallyRules(), edits_allowed=None),
                   roster=Roster(players=tuple(PlayerView(n) for n in ("泡泡", "栗子", "包子"))),
                   window=VoteWindow(day=2, opens=opens, closes=opens + timedelta(hours=35)),
                   earlier_versions={100: "投票对象：包子"})
    assert result.final["泡泡"] == "栗子"
    assert [f.code.value for f in result.ballots[0].flags] == ["edited"]


@pytest.mark.parametrize("ruleset", ["dnf-107", "sanguo-213", "gourmet-m160", "accel-m65"])
def test_four_posts_say_an_invalid_ballot_is_mended_by_a_new_post_only(ruleset: str) -> None:
    """107/213/M160/M65 "无效票须通过重新发帖来更正"."""
    result = _edited(ruleset, "投票对象：包子", "投票对象：包子\n投票理由：补上理由")
    assert result.final.get("泡泡") is None


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


# --------------------------------------------------------------------------- ambiguous readings as options

def _day(accelerated: bool = False):  # type: ignore[no-untyped-def]
    from datetime import datetime

    from tracker.clock import SHANGHAI
    from tracker.engine.tally import VoteWindow

    opens = datetime(2025, 3, 1, 10, 0, tzinfo=SHANGHAI)
    return VoteWindow(day=2, opens=opens, closes=datetime(2025, 3, 2, 21, 0, tzinfo=SHANGHAI), accelerated=accelerated)


def _ballot(pid: int, voter: str, target: str, at, *, change: bool = False, quoted: tuple[int, ...] = (),  # type: ignore[no-untyped-def]
            proxy_by: str | None = None):
    from tracker.engine.ballots import Ballot

    return Ballot(pid=pid, tid=5, floor=pid - 98, author=proxy_by or voter, posted_at=at, voter=voter,
                  kind="proxy" if proxy_by else ("change" if change else "vote"), change=change, target=target,
                  reason_text="理由", proxy_by=proxy_by, quoted_pids=quoted)


def _rules(ruleset: str, **options: object):  # type: ignore[no-untyped-def]
    from tracker.engine.ruleset import load_ruleset
    from tracker.engine.tally import rules_for_vote

    return rules_for_vote(load_ruleset(ruleset, options=options).voting)


def _roster(*views: Any) -> Any:
    from tracker.engine.tally import PlayerView, Roster

    named = {v.name: v for v in views}
    return Roster(players=tuple(named.get(n, PlayerView(n)) for n in ("甲", "乙", "丙", "丁")))


@pytest.mark.parametrize(("window", "first_ok"), [("freeze", False), ("thirty_minutes", True)])
def test_m65_proxy_window_option(window: str, first_ok: bool) -> None:
    """M65 投票规则 "关门前一小时不允许改票或代投" vs 玩家须知 9 "导演至少在投票截至的30分钟前……发出代投信息
    ……如需代投改票，需在投票截止前1个小时": a first 代投 45 minutes before the close, and a 代投改票."""
    from datetime import timedelta

    from tracker.engine.tally import tally

    day = _day()
    late = day.closes - timedelta(minutes=45)
    ballots = [_ballot(100, "甲", "乙", late, proxy_by="导演A"),
               _ballot(101, "丙", "乙", day.opens), _ballot(102, "丙", "丁", late, proxy_by="导演A")]
    result = tally(ballots, rules=_rules("accel-m65", proxy_window=window), roster=_roster(), window=day)
    by_pid = {cb.ballot.pid: cb for cb in result.ballots}
    assert by_pid[100].valid is first_ok
    assert not by_pid[102].valid  # a 代投改票 needs the hour under either reading


@pytest.mark.parametrize(("allowed", "valid"), [(True, True), (False, False)])
def test_213_noon_exception_on_an_accelerated_day_option(allowed: bool, valid: bool) -> None:
    """213 "如果投票的角色在正午就已出局，即使在禁止改票的时间内也可以进行一次改票" vs "执行加速时不允许改票"."""
    from datetime import timedelta

    from tracker.engine.tally import PlayerView, tally

    day = _day(accelerated=True)
    noon = day.opens + timedelta(hours=26)
    ballots = [_ballot(100, "甲", "乙", day.opens + timedelta(hours=1)),
               _ballot(101, "甲", "丙", noon + timedelta(hours=1), change=True, quoted=(100,))]
    result = tally(ballots, rules=_rules("sanguo-213", noon_exception_accelerated=allowed),
                   roster=_roster(PlayerView("乙", out_at=noon)), window=day)
    assert result.ballots[1].valid is valid


def test_213_default_reading_is_the_posts_literal_one() -> None:
    from tracker.engine.ruleset import load_ruleset

    assert load_ruleset("sanguo-213").voting.noon_exception_accelerated is True


@pytest.mark.parametrize(("needs_votes", "exiled"), [(False, "甲"), (True, "乙")])
def test_m19_gay_bonus_with_no_votes_option(needs_votes: bool, exiled: str) -> None:
    """M19 基佬情深 "投到攻身上的票数暗记+2": 攻 (甲) has no vote, 乙 has one."""
    from tracker.engine.tally import PlayerView, Roster, VoteModifier, tally

    day = _day()
    roster = Roster(players=tuple(PlayerView(n) for n in ("甲", "乙", "丙", "丁")),
                    modifiers=(VoteModifier(kind="received_add", player="甲", value=2.0),))
    ballots = [_ballot(100, "丙", "乙", day.opens)]
    result = tally(ballots, rules=_rules("luoluo-m19", gay_bonus_needs_votes=needs_votes), roster=roster, window=day)
    assert result.outcome.player == exiled


def test_a_game_file_chooses_an_option(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """`tracker init` lists the options in the posts' words; the game file's `[options]` chooses one."""
    from tracker.cli import main
    from tracker.cli.common import open_service

    out = tmp_path / "game.toml"
    assert main(["init", "--ruleset", "luoluo-m19", "--out", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert "# [options]" in text and "# gay_bonus_needs_votes = false" in text
    out.write_text(text.replace("# [options]", "[options]").replace("# gay_bonus_needs_votes = false",
                                                                    "gay_bonus_needs_votes = true"), encoding="utf-8")
    svc = open_service(out, None)
    try:
        assert svc.ruleset.voting.received_add_needs_votes is True
    finally:
        svc.close()


# --------------------------------------------------------------------------- M160 votes

def test_m160_a_silent_dead_player_uses_up_the_last_vote_and_leaves() -> None:
    """M160 "【死亡】但未【出局】玩家在未执行加速的讨论日若未投票，自动视为【弃权】" and "【死亡】状态的玩家仅
    拥有最后一票，在使用此票后该玩家【出局】": the automatic 弃权 is their vote, so they are 出局 after the
    day — else a silent dead demon would stay forever and 善良 could never win."""
    from datetime import timedelta

    from tracker.engine.days import VoteResult, confirm_vote
    from tracker.engine.ruleset import load_ruleset
    from tracker.engine.tally import PlayerView, Roster, rules_for_vote, tally

    rs = load_ruleset("gourmet-m160")
    day = _day()
    roster_ = Roster(players=(PlayerView("甲", status="dead"), PlayerView("乙"), PlayerView("丙")))
    result = tally([_ballot(100, "乙", "丙", day.opens + timedelta(hours=1))], rules=rules_for_vote(rs.voting),
                   roster=roster_, window=day)
    assert result.auto_abstain == ("甲",) and "甲" in result.last_votes_used
    from tracker.config import PlayerConfig

    g = Game(rs, [PlayerConfig("甲"), PlayerConfig("乙"), PlayerConfig("丙")])
    g.record("died", "甲", cause="night")
    c = confirm_vote(rs, g.state, VoteResult.of(result, "exile"), at=day.closes, recorded_by="导演A")
    assert ("last_vote_used", "甲") in [(d.kind, d.player) for d in c.drafts]
    for d in c.drafts:
        g.add(d)
    assert g.state.players["甲"].life == "out"


def test_m160_on_an_accelerated_day_the_dead_keep_their_last_vote() -> None:
    """The automatic 弃权 is "在未执行加速的讨论日" only."""
    from datetime import timedelta

    from tracker.engine.ruleset import load_ruleset
    from tracker.engine.tally import PlayerView, Roster, rules_for_vote, tally

    day = _day(accelerated=True)
    roster_ = Roster(players=(PlayerView("甲", status="dead"), PlayerView("乙"), PlayerView("丙")))
    result = tally([_ballot(100, "乙", "丙", day.opens + timedelta(hours=1))],
                   rules=rules_for_vote(load_ruleset("gourmet-m160").voting), roster=roster_, window=day)
    assert result.auto_abstain == () and result.last_votes_used == ()


def test_m160_threshold_counts_only_the_living() -> None:
    """M160 "被投了大于等于场上存活角色一半的出人票": a player 【死亡】 and 挂机 is not 存活, nor a target
    ("再不能成为被选择的目标")."""
    from datetime import timedelta

    from tracker.engine.ruleset import load_ruleset
    from tracker.engine.tally import PlayerView, Roster, rules_for_vote, tally

    day = _day()
    # living: 甲 乙 丙 丁 (4) — 戊 and 己 are dead and benched
    players = (*(PlayerView(n) for n in ("甲", "乙", "丙", "丁")),
               PlayerView("戊", status="benched", dead=True), PlayerView("己", status="benched", dead=True))
    ballots = [_ballot(100, "甲", "丙", day.opens + timedelta(hours=1)),
               _ballot(101, "乙", "丙", day.opens + timedelta(hours=2)),
               _ballot(102, "丁", "戊", day.opens + timedelta(hours=3))]
    result = tally(ballots, rules=rules_for_vote(load_ruleset("gourmet-m160").voting), roster=Roster(players=players),
                   window=day)
    assert (result.outcome.kind, result.outcome.player) == ("exiled", "丙")  # 2 >= 4 / 2
    assert not result.ballots[2].valid and result.ballots[2].verdict is not None
    assert result.ballots[2].verdict.code.value == "target_not_alive"


def test_a_player_benched_mid_day_cannot_vote_later_that_day() -> None:
    """107/M160 挂机 ("玩家受到红牌判罚时进入挂机状态"): from the red on, no ballot counts; one posted
    before it stays."""
    from datetime import timedelta

    from tracker.engine.tally import PlayerView, Roster, TallyRules, tally

    day = _day()
    benched = day.opens + timedelta(hours=5)
    roster_ = Roster(players=(PlayerView("甲", benched_at=benched), PlayerView("乙"), PlayerView("丙")))
    before = tally([_ballot(100, "甲", "乙", benched - timedelta(hours=1))], rules=TallyRules(change_limit=None),
                   roster=roster_, window=day)
    assert before.ballots[0].valid
    after = tally([_ballot(100, "甲", "乙", benched + timedelta(hours=1))], rules=TallyRules(change_limit=None),
                  roster=roster_, window=day)
    assert not after.ballots[0].valid and after.ballots[0].verdict is not None
    assert after.ballots[0].verdict.code.value == "voter_benched"


def test_day_benched_times_reads_the_red_cards_benching() -> None:
    from datetime import timedelta

    from tracker.engine.events import make_draft
    from tracker.engine.tally import day_benched_times

    day = _day()
    at = day.opens + timedelta(hours=3)
    red = make_draft("card_consequence", at=at, player="甲", data={"color": "red", "consequence": "benched"},
                     recorded_by="导演A").to_event(seq=1, recorded_at=at)
    assert day_benched_times([red], day) == {"甲": at}


# --------------------------------------------------------------------------- M160 roster

def _m160_problems(swap: dict[str, str]) -> list[str]:
    from tracker.config import PlayerConfig
    from tracker.engine.roster import check_assignment, example_assignment
    from tracker.engine.ruleset import load_ruleset

    rs = load_ruleset("gourmet-m160")
    roles = example_assignment(rs)
    for old, new in swap.items():
        roles[roles.index(old)] = new
    players = [PlayerConfig(f"玩家{i}", role=r) for i, r in enumerate(roles)]
    return [p.message for p in check_assignment(rs, players) if p.level == "error"]


def test_m160_the_example_setup_is_possible() -> None:
    assert _m160_problems({}) == []


@pytest.mark.parametrize(("swap", "why"), [
    ({"说谎者": "狂煞"}, "有 2 种身份"),                      # two demon kinds (and 5 evil)
    ({"缚魂灵": "双生暗影"}, "只允许 0 或 2"),                 # one 双生暗影
    ({"护士长": "懦夫", "心理学家": "冰恋者"}, "强神"),         # no 强神
    ({"说谎者": "幕后黑手"}, "爪牙与恶魔"),                    # four 爪牙 and a demon: 5 evil
])
def test_m160_refuses_impossible_setups(swap: dict[str, str], why: str) -> None:
    """M160 身份："2-3个爪牙、1-2个恶魔（总和为4）"；"强神（50%概率有一个，50%概率有两个）"；
    "四、恶魔（4选1，若【恶魔】品种为【双生暗影】则有两个【恶魔】）"."""
    problems = _m160_problems(swap)
    assert problems, swap
    assert any(why in p for p in problems), problems


def test_m160_twin_shadows_come_in_pairs_with_two_minions() -> None:
    """"若【恶魔】品种为【双生暗影】则为4选2": two 双生暗影 and two 爪牙 is a valid evil side."""
    assert _m160_problems({"缚魂灵": "双生暗影", "告死邪魔": "双生暗影"}) == []


# --------------------------------------------------------------------------- M160 公示

def test_m160_announcement_names_the_nights_dead_and_has_no_last_words() -> None:
    """M160 "每个游戏日白天开始时，都会公示前一天白天【死亡】及被【处决】的角色名单、失去最后一票的【出局】角色
    名单、夜晚【死亡】角色名单……公示出局名单时按技能结算的顺序排序"; "本局游戏没有遗言"."""
    from tracker.config import PlayerConfig
    from tracker.engine.ruleset import load_ruleset
    from tracker.reports.announce_day import OutEntry, announce_day_bbcode, announced_changes

    rs = load_ruleset("gourmet-m160")
    g = Game(rs, [PlayerConfig(n) for n in ("甲", "乙", "丙", "丁")])
    g.record("died", "乙", cause="vote")
    before = g.state
    g.record("last_vote_used", "乙")
    g.record("died", "丁", cause="night")
    g.record("died", "甲", cause="night")
    changes = announced_changes(before, g.state)
    assert sorted(changes) == sorted([("乙", "out"), ("甲", "dead"), ("丁", "dead")])
    seq = {"乙": 2, "丁": 3, "甲": 4}
    entries = [OutEntry(n, "day" if k == "out" else "night", seq[n], k) for n, k in changes]
    text = announce_day_bbcode(day=2, out=entries, order=rs.publication.out_order, dead_lists=True,
                               last_words=rs.publication.last_words)
    assert "第1日夜晚【死亡】：丁、甲" in text  # settlement order, not 平安夜
    assert "失去最后一票【出局】：乙" in text
    assert "遗言" not in text
    assert rs.publication.out_order == "settlement"


# --------------------------------------------------------------------------- 107

def _107() -> Game:
    lain = [("村长", "村长"), ("神启", "神启者"), ("民兵一", "民兵"), ("民兵二", "民兵")] + \
        [(f"村民{i}", "村民") for i in range(1, 8)]
    temple = [("剑士", "剑士"), ("游荡", "游荡者"), ("慰魂", "慰魂师")]
    snake = [("贵族", "贵族"), ("学者", "学者")] + [(f"恶徒{i}", "恶徒") for i in range(1, 5)]
    return Game("dnf-107", roster(lain + temple + snake + [("守夜", "守夜人")]))


def test_107_the_oracle_elected_god_chosen_makes_the_title_vanish() -> None:
    """107 神启者·神恩 "神启者不能成为神眷者，当神启者成为神眷者时，神眷者消失"."""
    g = _107()
    s, _ = g.confirm(1, "god_chosen", {"神启": 6, "村长": 3})
    assert s.holder("神眷者") is None and "神眷者" in s.gone_tags
    assert "神启" not in [n for n, p in s.players.items() if "神眷者" in p.tags]
    assert weight(s, "神启", 2) == 1.0


def test_107_passing_the_title_to_the_oracle_also_makes_it_vanish() -> None:
    """The same by 传承: "该角色成为神眷者" — but never the 神启者."""
    g = _107()
    g.confirm(1, "god_chosen", {"村长": 6})
    g.record("eliminated", "村长", cause="night")
    s = g.record("tag_passed", "村长", tag="神眷者", to="神启", via="传承")
    assert s.holder("神眷者") is None and s.pending_tags() == []


def test_107_a_revealed_spectre_keeps_speaking_and_voting() -> None:
    """107 恶灵·虚体 "恶灵因投票出局时，可明示身份。若如此做，其视为出局，但仍保留发言权和投票权": recorded as
    出局 plus ``vote_right`` granted, their ballot counts and their posts are not 诈尸."""
    from datetime import timedelta

    from tracker.engine.tally import PlayerView, Roster, rules_for_vote, tally

    g = _107()
    g.record("role_set", "村长", role="恶灵", turn=True)
    g.record("eliminated", "村长", cause="vote")
    s = g.record("vote_right", "村长", granted=True)
    assert s.players["村长"].status == "out" and s.players["村长"].presence == "alive"
    assert s.players["恶徒1"].presence == "alive" and g.record("eliminated", "恶徒1").players["恶徒1"].presence == "out"

    day = _day()
    roster_ = Roster(players=(PlayerView("村长", status="out", vote_right=True, role="恶灵"), PlayerView("村民1", role="村民"),
                              PlayerView("村民2", role="村民")))
    result = tally([_ballot(100, "村长", "村民1", day.opens + timedelta(hours=1))],
                   rules=rules_for_vote(g.rs.voting), roster=roster_, window=day)
    assert result.ballots[0].valid and result.totals == {"村民1": 1.0}
    # 视为出局: still not a target
    target = tally([_ballot(101, "村民2", "村长", day.opens + timedelta(hours=1))],
                   rules=rules_for_vote(g.rs.voting), roster=roster_, window=day)
    assert not target.ballots[0].valid


def test_a_vote_right_given_or_taken_for_one_day_counts_that_day_only() -> None:
    """game-file.md ``vote_right`` (``granted``, ``day``): "票权 given or taken (that day, or from now
    on)". 107's 民兵 has no 票权 by role and 村民 has one; for day 2 only, the director gives the
    one and takes the other: day 2's count weighs them so, day 3's as the ruleset says."""
    from datetime import timedelta

    from tracker.engine.tally import roster_from_states, rules_for_vote, tally

    g = _107()
    g.record("vote_right", "民兵一", granted=True, day=2)
    s = g.record("vote_right", "村民1", granted=False, day=2)
    assert can_vote(s, "民兵一", 2) and not can_vote(s, "民兵一", 3)
    assert not can_vote(s, "村民1", 2) and can_vote(s, "村民1", 3)
    day = _day()
    assert day.day == 2
    ballots = [_ballot(100, "民兵一", "剑士", day.opens + timedelta(hours=1)),
               _ballot(101, "村民1", "游荡", day.opens + timedelta(hours=2))]
    result = tally(ballots, rules=rules_for_vote(g.rs.voting), roster=roster_from_states(s, s, 2), window=day)
    assert result.totals == {"剑士": 1.0}
    assert [f.code.value for f in result.ballots[1].flags] == ["no_vote_right"]


def test_107_the_night_fiend_keeps_the_neutral_faction_in_the_game() -> None:
    """107 夜行怪 "夜行怪在结算时同时计入亡灵阵营与守夜人所属阵营": 守夜人 turning 夜行怪 (亡灵) does not
    leave 中立 with nobody, so 中立 does not lose ("中立阵营角色全部出局") at the flip."""
    g = _107()
    s = g.record("role_set", "守夜", role="夜行怪", turn=True)
    assert s.players["守夜"].faction == "亡灵"
    assert "中立" not in s.lost


def test_107_neutral_threshold_grows_with_the_night_fangs() -> None:
    """107 中立 胜 "场上存活人数小于等于7" and 夜之牙 "每当此技能使一名亡灵阵营角色出局时，中立阵营判胜所需
    人数+2": with one such 夜之牙, 9 living suffice."""
    g = _107()
    s = g.state
    for name in ["村民1", "村民2", "村民3", "村民4", "村民5", "村民6", "村民7", "民兵一", "民兵二", "贵族", "学者", "剑士"]:
        s = g.record("eliminated", name)
    assert len(s.living()) == 9 and s.outcome is None
    s = g.record("action", "剑士", name="夜之牙", actor="守夜", success=True)
    assert s.outcome is not None and (s.outcome.winner, s.outcome.co_winners) == ("中立", ())


def test_107_a_thug_turned_corpse_then_out_still_counts_for_the_leader() -> None:
    """107 恶徒首领 "每出局一名恶徒，恶徒首领的投票数量+1": the 恶徒 dealt, turned 活尸, then out, counts."""
    from tracker.engine.tally import roster_from_states

    g = _107()
    g.record("tag_given", "恶徒1", tag="恶徒首领")
    g.record("role_set", "恶徒2", role="活尸", turn=True)
    s = g.record("eliminated", "恶徒2", cause="night")
    assert weight(s, "恶徒1", 3) == 2.0
    assert roster_from_states(s, s, 3).dead_by_role.get("恶徒") == 1


# --------------------------------------------------------------------------- M19 cupid

def _m19(couple: tuple[str, str], cupid_faction: str) -> Game:
    from tracker.config import PlayerConfig

    roles = [("预言", "预言家", "村民"), ("女巫", "女巫", "村民"), ("医生", "医生", "村民"), ("人质", "人质", "村民"),
             *[(f"民{i}", "村民", "村民") for i in range(1, 6)],
             ("公狼", "公狼", "狼人"), ("老狼", "老狼", "狼人"), ("幼狼", "幼狼", "狼人"), ("绑匪", "绑匪", "狼人"),
             ("丘比特", "变异丘比特", cupid_faction)]
    players = [PlayerConfig(n, role=r, faction=f, tags=("情侣",) if n in couple else ()) for n, r, f in roles]
    return Game("luoluo-m19", players)


def test_m19_a_cupid_linking_two_wolves_is_a_wolf_for_the_wolves_loss() -> None:
    """M19 "双狼丘比特变狼且狼人全部出局后接刀": with 公狼、老狼、幼狼 out, the cupid still stands for them,
    so 狼人负1 ("公狼、老狼、幼狼全部出局") waits for the cupid."""
    g = _m19(("公狼", "老狼"), "狼人")
    for name in ("公狼", "老狼", "幼狼"):
        s = g.record("eliminated", name)
    assert "狼人" not in s.lost
    s = g.record("eliminated", "丘比特")
    assert "狼人" in s.lost


def test_m19_a_cupid_linking_two_gods_is_a_god() -> None:
    """M19 "双大特丘比特变大特": 村民负1 ("预言家、女巫、医生出局") counts the cupid among them."""
    g = _m19(("预言", "女巫"), "村民")
    for name in ("预言", "女巫", "医生"):
        s = g.record("eliminated", name)
    assert "村民" not in s.lost
    assert "村民" in g.record("eliminated", "丘比特").lost


def test_m19_a_cupid_with_a_mixed_couple_counts_as_nothing_more() -> None:
    g = _m19(("预言", "公狼"), "黑情侣")
    for name in ("预言", "女巫", "医生"):
        s = g.record("eliminated", name)
    assert "村民" in s.lost


# --------------------------------------------------------------------------- M65

def _m65() -> Game:
    dark = [("黑王", "黑王"), ("银鸦", "银鸦"), ("青铃", "青铃"), ("骑士", "骑士"), ("风行", "风行"), ("劫火", "劫火")]
    six = [("白王", "白王"), ("红王", "红王"), ("蓝王", "蓝王"), ("绿王", "绿王"), ("黄王", "黄王"), ("紫王", "紫王")]
    return Game("accel-m65", roster([*dark, *six, ("掠夺者", "掠夺者"), ("预知者", "预知者")]))


def test_m65_a_modifier_recorded_during_the_day_counts_that_day() -> None:
    """M65 票权掠夺 "游戏日任意时刻，你可以选择一名玩家，剥夺他的投票权": recorded after the opening, it
    still voids that day's ballot (the roster takes the modifiers in force at the close)."""
    from datetime import timedelta

    from tracker.engine.tally import roster_from_states, rules_for_vote, tally

    g = _m65()
    before = g.state
    after = g.record("modifier", "红王", name="票权掠夺")
    roster_ = roster_from_states(before, after, 2)
    day = _day()
    result = tally([_ballot(100, "红王", "白王", day.opens + timedelta(hours=1))],
                   rules=rules_for_vote(g.rs.voting), roster=roster_, window=day)
    assert result.totals == {} and any(f.code.value == "voter_voided" for f in result.ballots[0].flags)


def test_m65_each_player_is_chosen_once_only() -> None:
    """M65 深青之桩 / 天枢剑圣 "每名玩家仅可以被选择一次"."""
    from tracker.errors import GameRuleError

    g = _m65()
    g.record("modifier", "白王", name="深青之桩", day=2)
    with pytest.raises(GameRuleError, match="仅可以被选择一次"):
        g.record("modifier", "白王", name="深青之桩", day=3)
    g.record("modifier", "白王", name="天枢剑圣", day=3)  # the other skill is its own


def test_m65_the_green_king_ignores_skills_on_himself() -> None:
    """M65 绿王 <绝对防御> "游戏日任意时刻，对自己使用的技能无效"."""
    g = _m65()
    s = g.record("modifier", "绿王", name="深青之桩", day=2)
    assert [m for m in s.modifiers(2) if m.player == "绿王"] == []
    assert any("不受 深青之桩 影响" in w for w in s.warnings)


def test_m65_steals_count_by_target_whoever_is_the_actor() -> None:
    """M65 加速研究社 胜1 "成功完成对四个不同角色的技能掠夺": recorded with the actor as the event's player
    and the stolen-from as ``target``, or the other way round, four distinct targets win."""
    g = _m65()
    g.record("action", "掠夺者", name="技能掠夺", target="白王", success=True)
    g.record("action", "红王", name="技能掠夺", actor="掠夺者", success=True)
    g.record("action", "预知者", name="技能掠夺", target="蓝王", success=True)
    assert g.state.outcome is None
    s = g.record("action", "掠夺者", name="技能掠夺", target="黑王", success=True)
    assert s.outcome is not None and s.outcome.rule == "加速研究社.胜1"

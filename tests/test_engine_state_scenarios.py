"""Five short games played through events, one per rule post; every step cites its clause."""

from __future__ import annotations

from engine_log import Game, roster
from vote_rights import can_vote, weight

from tracker.engine.days import auto_accelerate


# ---------------------------------------------------------------------------------------------
# [213] 三国演义
def game_213() -> Game:
    wolves = [("狼一", "狼人"), ("狼二", "狼人"), ("狼三", "狼人"), ("狼四", "狼人"), ("狼王", "觉醒狼王"),
              ("恶魔", "恶魔"), ("石像鬼", "石像鬼"), ("隐狼", "隐狼")]
    gods = [("预言", "预言家"), ("通灵", "通灵师"), ("女巫", "女巫"), ("守卫", "守卫"), ("骑士", "骑士"),
            ("长老", "长老"), ("赏金", "赏金猎人"), ("猎人", "猎人")]
    folk = [(f"民{i}", "村民") for i in range(1, 7)] + [("勇者一", "中箭勇者"), ("勇者二", "中箭勇者")]
    return Game("sanguo-213", roster(wolves + gods + folk))


def test_213_elections_red_cards_and_the_two_red_rule() -> None:
    g = game_213()
    s = g.state
    assert len(s.living()) == 24 and s.outcome is None
    assert s.players["狼一"].faction == "狼人" and s.players["民1"].faction == "村民"
    # 警长/牧首竞选投票产生平票时，本局游戏没有警长/牧首。
    s, why = g.confirm(1, "patriarch", {"预言": 3, "骑士": 3}, first="预言")
    assert s.holder("牧首") is None and "平票" in why
    # 警长/牧首竞选投票票数最高的角色如只有一个，则成为警长
    s, why = g.confirm(1, "sheriff", {"预言": 5, "骑士": 3})
    assert s.holder("警长") == "预言" and "当选警长" in why
    assert weight(s, "预言", 2) == 1.5 and weight(s, "骑士", 2) == 1.0   # 带队：警长投出的票计为1.5票
    # 放逐投票票数最高的角色如只有一个，则其出局。
    s, _ = g.confirm(2, "exile", {"狼一": 6, "民1": 2})
    assert g.status("狼一") == "out" and s.outcome is None
    # 放逐投票产生平票时，无人出局。
    s, why = g.confirm(3, "exile", {"狼二": 4, "民2": 4}, first="狼二")
    assert g.status("狼二") == "alive" and "无人出局" in why
    # 玩家受到红牌判罚时出局（称为“红牌罚下”）
    s = g.record("card_consequence", "狼二", color="red")
    assert g.status("狼二") == "out" and s.players["狼二"].cause == "red_card"
    assert s.faction_reds == {"狼人": 1} and s.outcome is None
    # 已出局角色仍可被判罚：狼一 (already out) gets the wolves' second red card.
    s = g.record("card_consequence", "狼一", color="red")
    # 同一阵营的角色累计获得两张或以上红牌时，阵营判负 → only 村民 is left.
    assert "狼人" in s.lost and s.outcome is not None
    assert s.outcome.winner == "村民"
    assert "尚未被判负" in s.outcome.reason
    assert any("红牌" in x.reason for x in s.outcome.losers)
    # undo gives back the state before the event
    s = g.undo()
    assert s.outcome is None and s.faction_reds == {"狼人": 1}


def test_213_sheriff_passes_on_death_and_is_lost_on_red() -> None:
    g = game_213()
    g.confirm(1, "sheriff", {"骑士": 5})
    s = g.record("eliminated", "骑士", cause="night")
    # 殉职：警长出局后……可以选择一名存活角色，使其获得附加身份“警长”
    assert s.holder("警长") is None and s.pending_tags() == [("警长", "骑士")]
    s = g.record("tag_passed", "骑士", tag="警长", to="民3", via="殉职")
    assert s.holder("警长") == "民3" and s.pending_tags() == []
    # 红牌罚下出局的角色……警长不得发动<殉职>
    s = g.record("card_consequence", "民3", color="red")
    assert s.holder("警长") is None and "警长" in s.gone_tags and s.pending_tags() == []


def test_213_wolves_win_when_both_sides_meet_their_conditions_at_once() -> None:
    g = game_213()
    gods = ["预言", "通灵", "女巫", "守卫", "骑士", "长老", "赏金", "猎人"]
    for name in gods[:-1]:
        g.record("eliminated", name, cause="night")
    for name in ["狼一", "狼二", "狼三", "狼四", "狼王", "恶魔", "石像鬼"]:
        g.record("eliminated", name, cause="vote")
    assert g.state.outcome is None
    # one settlement: the last god and the last wolf go out together (same time)
    g.record("eliminated", "猎人", cause="night")
    s = g.record("eliminated", "隐狼", cause="报复", same_time=True)
    # 若两个阵营同时达成胜利条件，则狼人阵营获胜。
    assert s.outcome is not None and s.outcome.winner == "狼人"
    assert s.outcome.rule == "狼人.1" and "同时" in s.outcome.reason


def test_213_auto_acceleration_at_sixteen_living() -> None:
    g = game_213()
    rules = g.rs.days
    for i, name in enumerate(["民1", "民2", "民3", "民4", "民5", "民6", "勇者一", "勇者二"]):
        g.record("eliminated", name)
        living = len(g.state.living())
        # 未出局角色≤16人时，导演将自动执行加速。
        assert auto_accelerate(rules, living) == (living <= 16), i
    assert len(g.state.living()) == 16


def test_213_surrender() -> None:
    g = game_213()
    # 所有狼人阵营共群角色（包括已出局角色）同意投降时，狼人阵营判负。
    s = g.record("surrender", faction="狼人阵营")
    assert s.lost["狼人"].reason == "狼人阵营投降"
    assert s.outcome is not None and s.outcome.winner == "村民"


# ---------------------------------------------------------------------------------------------
# [M160] 孤独的美食家
def game_m160() -> Game:
    good = [("护士", "护士长"), ("心理", "心理学家"), ("阴谋", "阴谋论者"), ("化梦", "化梦师"), ("药师", "药师"),
            ("安保", "安保人员"), ("末日", "末日传道士"), ("通灵", "通灵师"), ("漫步", "漫步者"), ("丑角", "丑角")]
    evil = [("天使", "告死天使"), ("黑手", "幕后黑手"), ("煤气", "煤气灯人"), ("狂煞", "狂煞")]
    return Game("gourmet-m160", roster(good + evil))


def test_m160_executed_but_not_out_until_the_last_vote() -> None:
    g = game_m160()
    s = g.state
    # 首日讨论日自动执行加速
    assert s.accelerated(1)
    assert s.players["狂煞"].group == "恶魔" and s.players["狂煞"].faction == "邪恶"
    # 唯一最高票但不足存活角色一半 → 无人死亡 (14 living, 6 < 7)
    s, why = g.confirm(2, "exile", {"护士": 6, "心理": 2})
    assert g.status("护士") == "alive" and "一半" in why
    # 大于等于场上存活角色一半的出人票且是唯一最高票后，该玩家【死亡】
    s, why = g.confirm(3, "exile", {"护士": 7, "心理": 2})
    p = s.players["护士"]
    assert p.status == "dead" and "最后一票" in why
    # 【死亡】的玩家……依旧可以在场上发言并投票……且再不能成为被选择的目标
    assert can_vote(s, "护士", 4) and not s.is_valid_target("护士")
    assert "护士" not in s.living() and "护士" in s.not_out() and len(s.living()) == 13
    # 在使用最后一票后，死亡的玩家出局。
    s, _ = g.confirm(4, "exile", {"心理": 3}, voters=["护士", "心理"])
    assert s.players["护士"].status == "out" and not can_vote(s, "护士", 5)
    assert s.outcome is None


def test_m160_red_card_benches_and_turns_into_the_jester_keeping_the_demon() -> None:
    g = game_m160()
    # 被红牌罚下的角色自动进入挂机状态，并触发【哥谭】成为【丑角】（不影响原先的阵营及是否为恶魔）
    s = g.record("card_consequence", "狂煞", color="red")
    p = s.players["狂煞"]
    assert p.status == "benched" and p.role == "丑角" and p.faction == "邪恶" and p.group == "恶魔"
    # 挂机状态的角色属于游戏范畴，允许被选为……投票的目标，但不能……投票
    assert s.is_valid_target("狂煞") and not can_vote(s, "狂煞", 2)
    # the demon executed: dead is not out, so the good side has not won yet
    s, _ = g.confirm(2, "exile", {"狂煞": 8})
    assert s.players["狂煞"].life == "dead" and s.outcome is None
    # benched players cannot cast the last vote; the director records 出局 when the rule is applied
    s = g.record("last_vote_used", "狂煞")
    # 善良阵营：所有【实际阵营】为【恶魔】的玩家出局
    assert s.outcome is not None and s.outcome.winner == "善良" and s.outcome.clause == "胜负判定 1、善良阵营"


def test_m160_evil_wins_when_demons_are_half_the_living() -> None:
    g = game_m160()
    for name in ["护士", "心理", "阴谋", "化梦", "药师", "安保", "末日", "通灵", "漫步"]:
        g.record("died", name, cause="凶杀")
    s = g.state
    # 5 living: 丑角, 天使, 黑手, 煤气, 狂煞 → 1 demon < 2.5
    assert s.outcome is None
    for name in ["天使", "黑手", "煤气"]:
        s = g.record("died", name, cause="凶杀")
    # 2 living: 丑角, 狂煞 → 场上恶魔不小于存活玩家的一半
    assert s.outcome is not None and s.outcome.winner == "邪恶" and s.outcome.rule == "邪恶.胜2"


# ---------------------------------------------------------------------------------------------
# [107] 地下城与勇士
def game_107() -> Game:
    lain = [("村长", "村长"), ("神启", "神启者"), ("民兵一", "民兵"), ("民兵二", "民兵")] + \
        [(f"村民{i}", "村民") for i in range(1, 8)]
    temple = [("剑士", "剑士"), ("游荡", "游荡者"), ("慰魂", "慰魂师")]
    snake = [("贵族", "贵族"), ("学者", "学者")] + [(f"恶徒{i}", "恶徒") for i in range(1, 5)]
    return Game("dnf-107", roster(lain + temple + snake + [("守夜", "守夜人")]))


def test_107_god_chosen_vote_rights_bench_and_inheritance() -> None:
    g = game_107()
    s = g.state
    assert len(s.living()) == 21
    # 第一天白天，所有人都可以参与……投票选出神眷
    assert can_vote(s, "民兵一", 1, "god_chosen")
    # 仅村民、学者、守夜人、慰魂师、神眷者和亡灵阵营的角色拥有票权
    assert not can_vote(s, "民兵一", 2) and can_vote(s, "村民1", 2) and can_vote(s, "学者", 2)
    # 第一天讨论日结束时，最先高票者当选神眷者。
    s, why = g.confirm(1, "god_chosen", {"剑士": 4, "村长": 4}, first="村长")
    assert s.holder("神眷者") == "村长" and "当选神眷者" in why
    assert can_vote(s, "村长", 2) and weight(s, "村长", 2) == 1.5   # 神眷者的投票计为1.5票
    # 恶徒首领：首领的投票计算为有效票；每出局一名恶徒，恶徒首领的投票数量+1
    s = g.record("tag_given", "恶徒1", tag="恶徒首领")
    assert can_vote(s, "恶徒1", 2) and weight(s, "恶徒1", 2) == 1.0
    g.record("eliminated", "恶徒2", cause="vote")
    s = g.record("eliminated", "恶徒3", cause="night")
    assert weight(s, "恶徒1", 3) == 3.0
    # 被红牌罚下的角色自动进入挂机状态：still a valid vote target, may not vote
    s = g.record("card_consequence", "村民1", color="red")
    assert g.status("村民1") == "benched" and s.is_valid_target("村民1") and not can_vote(s, "村民1", 3)
    assert "村民1" in s.living()   # 一名角色是否处于挂机状态与其是否存活没有关系
    # 传承：当神眷者出局时……选择一名角色，该角色成为神眷者。
    s = g.record("eliminated", "村长", cause="vote")
    assert s.holder("神眷者") is None and s.pending_tags() == [("神眷者", "村长")]
    s = g.record("tag_passed", "村长", tag="神眷者", to="民兵一", via="传承")
    assert can_vote(s, "民兵一", 4) and weight(s, "民兵一", 4) == 1.5
    # 权势：如果原本没有投票权，仅限当天获得投票权
    s = g.record("modifier", "民兵二", name="权势", day=4)
    assert can_vote(s, "民兵二", 4) and not can_vote(s, "民兵二", 5)
    assert s.outcome is None


def test_107_undead_flip_and_lain_victory() -> None:
    g = game_107()
    # 翻转身份：……获得对应身份的身份技能。亡灵身份属于亡灵阵营。
    s = g.record("role_set", "村民7", role="腐尸", turn=True)
    assert s.players["村民7"].faction == "亡灵" and can_vote(s, "村民7", 2)
    for name in ["贵族", "学者", "恶徒1", "恶徒2", "恶徒3", "恶徒4"]:
        s = g.record("eliminated", name)
    # 环蛇 all out → 环蛇 loses; an undead is alive, so 莱恩 has not won yet
    assert "环蛇" in s.lost and s.outcome is None
    s = g.record("eliminated", "村民7", cause="vote")
    # 莱恩阵营 胜：不存在存活的环蛇阵营角色与亡灵阵营角色
    assert s.outcome is not None and s.outcome.winner == "莱恩" and s.outcome.rule == "莱恩.胜"


# ---------------------------------------------------------------------------------------------
# [M19] 少年落落之烦恼
def game_m19() -> Game:
    village = [("预言", "预言家"), ("女巫", "女巫"), ("医生", "医生"), ("人质", "人质")] + \
        [(f"村民{i}", "村民") for i in range(1, 6)]
    wolves = [("公狼", "公狼"), ("老狼", "老狼"), ("幼狼", "幼狼"), ("绑匪", "绑匪")]
    return Game("luoluo-m19", roster([*village, *wolves, ("丘比特", "变异丘比特", "村民")]))


def test_m19_sheriff_kidnap_and_win_that_ends_the_settlement() -> None:
    g = game_m19()
    # 竞岗：最先获得投票数最多的角色当选警长。
    s, _ = g.confirm(1, "sheriff", {"预言": 3, "医生": 3}, first="医生")
    assert s.holder("警长") == "医生"
    # 绑架: only for the next day
    s = g.record("tag_given", "预言", tag="绑架", day=2)
    assert s.has_tag("预言", "绑架", 2) and not s.has_tag("预言", "绑架", 3)
    # 村民阵营负1 (common reading: all three) — two of the three out is not a loss
    g.record("eliminated", "预言")
    s = g.record("eliminated", "女巫")
    assert "村民" not in s.lost
    for name in ["村民1", "村民2", "村民3"]:
        s = g.record("eliminated", name)
    # 7 living: 医生, 人质, 村民4, 村民5, 丘比特 vs 4 wolves? 4/9 < half
    assert s.outcome is None
    # one night: 村民4 dies (wolves 4 of 8: 狼人阵营存活的人数占总存活人数的一半或一半以上), then 公狼 is poisoned
    s = g.record("eliminated", "村民4", cause="杀人")
    s = g.record("eliminated", "公狼", cause="毒药", same_time=True)
    # 宣布阵营获得胜利会立即终止一切结算: the outcome is decided at the first event
    assert s.outcome is not None and s.outcome.winner == "狼人"
    assert s.outcome.seq == g.events[-2].seq


def test_m19_option_any_god_out_loses() -> None:
    g = game_m19()
    g.rs = g.rs.with_options({"village_gods": "any"})
    s = g.record("eliminated", "预言")
    assert "村民" in s.lost
    # no lovers formed, so 黑情侣 has no one: not judged lost ("全部出局" of nobody), and not in play either:
    # 场上仅有一个阵营尚未被判负 → 狼人
    assert "黑情侣" not in s.lost
    assert s.outcome is not None and s.outcome.winner == "狼人" and s.outcome.rule is None


def test_m19_two_reds_in_the_wolves_and_the_lovers() -> None:
    g = game_m19()
    # 私奔：情侣不属于同一阵营 → 黑情侣阵营
    g.record("faction_set", "绑匪", faction="黑情侣")
    s = g.record("faction_set", "村民5", faction="黑情侣")
    assert "黑情侣" not in s.lost
    g.record("card_consequence", "公狼", color="red")
    s = g.record("card_consequence", "老狼", color="red")
    # 同一阵营的角色累计获得两张或以上红牌时，阵营判负；已经被判负的阵营无法再次达到胜利条件
    assert "狼人" in s.lost and s.outcome is None
    s = g.record("eliminated", "绑匪")
    s = g.record("eliminated", "村民5")
    # 黑情侣 all out → lost; 场上仅有一个阵营尚未被判负 → 村民
    assert s.outcome is not None and s.outcome.winner == "村民"


# ---------------------------------------------------------------------------------------------
# [M65] 加速世界
def game_m65() -> Game:
    dark = [("黑王", "黑王"), ("银鸦", "银鸦"), ("青铃", "青铃"), ("骑士", "骑士"), ("风行", "风行"), ("劫火", "劫火")]
    six = [("白王", "白王"), ("红王", "红王"), ("蓝王", "蓝王"), ("绿王", "绿王"), ("黄王", "黄王"), ("紫王", "紫王")]
    return Game("accel-m65", roster([*dark, *six, ("掠夺者", "掠夺者"), ("预知者", "预知者")]))


def test_m65_seer_day1_hidden_modifiers_and_red_card_out() -> None:
    g = game_m65()
    # 天罡护体：若成为得票数最高的角色，则当日无人出局（仅限游戏日第一日）
    s, why = g.confirm(1, "exile", {"预知者": 5, "白王": 2})
    assert g.status("预知者") == "alive" and "无人出局" in why
    s, _ = g.confirm(2, "exile", {"预知者": 5, "白王": 2})
    assert g.status("预知者") == "out"
    # 深青之桩：使其第二天被投票数加倍（暗记），被选中的玩家不公示
    s = g.record("modifier", "白王", name="深青之桩", day=3)
    m = s.modifiers(3)
    assert [(x.kind, x.player, x.value, x.public) for x in m] == [("深青之桩", "白王", 2.0, False)]
    assert s.modifiers(4) == []
    # 票权掠夺：该玩家仍可投票，但投票算无效票（暗记并不公示）
    s = g.record("modifier", "红王", name="票权掠夺")
    assert not can_vote(s, "红王", 3) and can_vote(s, "红王", 3, public=True)
    # 红牌罚下出局
    s = g.record("card_consequence", "紫王", color="red")
    assert g.status("紫王") == "out" and s.outcome is None and s.faction_reds == {"六色联军": 1}


def test_m65_priority_four_steals_beat_the_dark_nebula() -> None:
    g = game_m65()
    for name in ["白王", "红王", "蓝王"]:
        g.record("action", name, name="技能掠夺", actor="掠夺者", success=True)
    assert g.state.outcome is None
    for name in ["绿王", "黄王", "紫王"]:
        g.record("eliminated", name)
    # 黑暗星云 胜1 also needs 掠夺者 out, so no winner yet
    assert g.state.outcome is None
    g.record("action", "黑王", name="技能掠夺", actor="掠夺者", success=True)
    s = g.state
    # 加速研究社阵营1 has the highest priority
    assert s.outcome is not None and s.outcome.winner == "加速研究社" and s.outcome.rule == "加速研究社.胜1"


def test_m65_plunderer_out_loses_the_society() -> None:
    g = game_m65()
    s = g.record("eliminated", "掠夺者")
    # 加速研究社 负1：掠夺者出局
    assert "加速研究社" in s.lost and s.outcome is None
    for name in ["白王", "红王", "蓝王", "绿王", "黄王"]:
        s = g.record("eliminated", name)
    assert s.outcome is None
    s = g.record("eliminated", "紫王")
    # 黑暗星云 胜1：所有六色联军阵营的角色和掠夺者均出局
    assert s.outcome is not None and s.outcome.winner == "黑暗星云"

"""Clauses the audits of issue 21 found settled wrong, one test each, quoting the clause it proves.

The tables are the shared examples' (tests/fixtures/night/examples.json), changed only where a test
says so, so each test reads as "the example's table, and this".
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from tracker.engine.night import load_catalog, settle
from tracker.engine.night.model import Settlement, Table
from tracker.engine.night.scenario import load, validate

EXAMPLES = Path(__file__).parent / "fixtures" / "night" / "examples.json"
RULESETS = {"000_4699463e7e8ec455.txt": "dnf-107", "001_a3a63ea6957c226f.txt": "sanguo-213",
            "002_558fa90179aecb96.txt": "luoluo-m19", "003_7c6681f418104c25.txt": "gourmet-m160",
            "004_757e71c89bc341d0.txt": "accel-m65"}


def example(sid: str) -> dict[str, Any]:
    data = json.loads(EXAMPLES.read_text("utf-8"))
    return copy.deepcopy(next(s for s in data["scenarios"] if s["id"] == sid))


def players(sc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {p["name"]: p for p in sc["setup"]["players"]}


def run(sc: dict[str, Any], actions: list[dict[str, Any]] | None = None, **decisions: str) -> Settlement:
    if actions is not None:
        sc = {**sc, "actions": actions}
    validate(sc)
    table, acts = load(sc)
    return settle(load_catalog(RULESETS[sc["game"]]), table, acts, decisions=decisions)


def next_night(res: Settlement, game: str) -> Settlement:
    """The following night with no submission, from the table the last one left."""
    after = res.table_after
    assert after is not None and after.night is not None
    table = Table(players=after.players, state=after.state, night=after.night + 1)
    return settle(load_catalog(RULESETS[game]), table, [])


def feedback(res: Settlement, to: str) -> list[str]:
    return [f.content for f in res.feedback if f.to == to]


# -- 107 ---------------------------------------------------------------------------------------------
def test_107_mastery_counts_only_nights_held_as_a_human() -> None:
    """认主<强制>："当某个角色以人类身份持有[亡灵圣物]连续度过两个完整的夜晚时，将得到导演通知，
    [亡灵圣物]认其为主。" The holder held the relic since day 1 as 活尸 (亡灵); 圣光天启 turns him
    back into the 恶徒 on night 2. Night 2 is not a complete night as a human, night 3 is the first:
    the relic takes him as its master at night 4's (17), not before (before: at once, a false 环蛇 win).
    """
    sc = example("ex-dnf107-N01")
    ps = players(sc)
    ps["P19"]["tags"] = []
    ps["P02"].update(role="活尸", faction="亡灵", tags=["亡灵圣物"], 原身份="恶徒", uses={})
    sc["setup"]["state"]["亡灵圣物"] = {"holder": "P02", "诅咒剩余次数": 0, "since": {"day": 1, "by": "藏匿"}}
    n2 = run(sc, [{"actor": "P12", "skill": "圣光天启", "targets": ["P02"]}])
    assert [(c.player, c.role_to, c.faction_to) for c in n2.conversions] == [("P02", "恶徒", "环蛇")]
    assert n2.outcome is None and "亡灵圣物认主" not in n2.state_after
    n3 = next_night(n2, sc["game"])
    assert n3.outcome is None and "亡灵圣物认主" not in n3.state_after
    n4 = next_night(n3, sc["game"])
    assert n4.state_after["亡灵圣物认主"] == "P02" and feedback(n4, "P02") == ["认主：[亡灵圣物]认你为主"]
    assert n4.outcome is not None and n4.outcome.winner == "环蛇"


# -- 213 ---------------------------------------------------------------------------------------------
PACK_213 = "狼群(P03,P07,P12,P15,P18,P23)"


def test_213_martyrdom_takes_the_effect_and_heir_written_in_words() -> None:
    """殉道："选择一名存活角色和一个结算效果，若不选择将会随机选择。……1、结算目标获得附加身份“牧首”".
    The 牧首 P20, killed in the night, writes "效果1：P06成为牧首" at 晨曦: that is his choice (before:
    refused as an unknown effect and a random 牧首 drawn)."""
    sc = example("ex-sanguo213-N01")
    for targets in (["P06"], []):
        res = run(sc, [{"actor": PACK_213, "skill": "杀人", "targets": ["P20"]},
                       {"actor": "P20", "skill": "殉道", "targets": targets, "choice": "效果1：P06成为牧首",
                        "phase": "晨曦"}])
        assert [d.player for d in res.deaths] == ["P20"]
        assert res.rejected == [] and not [q for q in res.questions if q.key.startswith("殉道")]
        assert [(t.tag, t.from_player, t.to_player) for t in res.tags_moved] == [("牧首", "P20", "P06")]
        assert "殉道：P06获得附加身份“牧首”" in res.lines


def test_213_disguise_2_keeps_the_faction_and_role_not_the_labels() -> None:
    """伪装（2）"设置自己的表面阵营、表面身份伪装"; 预言 "查验其[表面阵营]……若该角色的[表面阵营]属于
    村民阵营，反馈<村民阵营>"; 通灵 "反馈其[表面身份]". Written "2 表面阵营=村民阵营 表面身份=预言家"
    (before: stored verbatim, so 预言 answered <非村民阵营> and 通灵 "表面身份=预言家")."""
    sc = example("ex-sanguo213-N01")
    res = run(sc, [{"actor": "P21", "skill": "伪装", "targets": [], "choice": "2 表面阵营=村民阵营 表面身份=预言家"},
                   {"actor": "P05", "skill": "预言", "targets": ["P21"]},
                   {"actor": "P16", "skill": "通灵", "targets": ["P21"]}])
    assert res.rejected == []
    entry = res.state_after["P21.伪装"][-1]
    assert (entry["表面阵营"], entry["表面身份"]) == ("村民", "预言家")
    assert feedback(res, "P05") == ["预言：P21 <村民阵营>"]
    assert feedback(res, "P16") == ["通灵：P21 的表面身份是 预言家"]
    labelled = run(sc, [{"actor": "P21", "skill": "伪装", "targets": [], "choice": "2 表面身份：女巫 表面阵营：村民"}])
    entry = labelled.state_after["P21.伪装"][-1]
    assert (entry["表面阵营"], entry["表面身份"]) == ("村民", "女巫")


def _dawn_revenge_after_night_1(sc: dict[str, Any]) -> dict[str, Any]:
    sc["setup"]["night"] = 1
    sc["setup"]["state"].pop("守护上次", None)
    for p in sc["setup"]["players"]:
        p["alive"] = True
    return sc


def test_213_last_words_of_a_dawn_death_after_night_1_are_the_same_at_the_desk() -> None:
    """"仅首夜出局和白天出局的角色拥有遗言": 晨曦 after the first night ("直到第二天开门前") is part of
    首夜. The 猎人 P13, knifed on night 1, takes P06 with him at 晨曦: settled inside the night (as
    `simulate` does) or as day 1's 晨曦 (as the desk does), P06 has his 遗言 both ways."""
    night = _dawn_revenge_after_night_1(example("ex-sanguo213-N01"))
    inside = run(night, [{"actor": PACK_213, "skill": "杀人", "targets": ["P13"]},
                         {"actor": "P13", "skill": "报复", "targets": ["P06"], "phase": "晨曦"}])
    assert [d.player for d in inside.deaths] == ["P13", "P06"]
    dawn = _dawn_revenge_after_night_1(example("ex-sanguo213-N01"))
    dawn["setup"].pop("night")
    dawn["setup"].update(day=1, phase="晨曦")
    players(dawn)["P13"].update(alive=False, 出局={"night": 1, "cause": "杀人"})
    desk = run(dawn, [{"actor": "P13", "skill": "报复", "targets": ["P06"], "phase": "晨曦"}])
    assert [d.player for d in desk.deaths] == ["P06"]
    for res in (inside, desk):
        assert "出局通知（有遗言）" in feedback(res, "P06")
        assert any(line.startswith("遗言：") and "P06" in line for line in res.lines)


def test_213_a_knife_heir_may_kill_alone() -> None:
    """"所有[群内]狼出局时，[接刀]的角色获得<杀人>技能并可使用。角色接刀将在<杀人>可以发动的时机得到
    通知。" The 石像鬼 P10, told so, submits <杀人> under his own name (before: refused, "应以团队提交")."""
    sc = example("ex-sanguo213-N01")
    for name in ("P03", "P07", "P12", "P15", "P18", "P23"):
        players(sc)[name]["alive"] = False
    res = run(sc, [{"actor": "P10", "skill": "杀人", "targets": ["P06"]}])
    assert res.rejected == []
    assert "接刀：所有[群内]狼已出局，你获得<杀人>技能并可使用" in feedback(res, "P10")
    assert [d.player for d in res.deaths] == ["P06"]
    alone = run(example("ex-sanguo213-N01"), [{"actor": "P10", "skill": "杀人", "targets": ["P06"]}])
    assert [r.actor for r in alone.rejected] == ["P10"] and "仍有[群内]狼存活" in alone.rejected[0].reason


def test_213_witch_hears_each_knifed_player_once() -> None:
    """灵通 "女巫可以得知当晚被指杀的角色": 狼群<杀人> and the 赏金猎人's <捕杀> on the same player name
    him once (before: "被指杀的角色是P06、P06")."""
    sc = example("ex-sanguo213-N01")
    sc["setup"]["state"]["悬赏上次"] = {"target": "P14", "night": 1, "成功": True}
    res = run(sc, [{"actor": PACK_213, "skill": "杀人", "targets": ["P06"]},
                   {"actor": "P22", "skill": "悬赏", "targets": ["P09"]},
                   {"actor": "P22", "skill": "捕杀", "targets": ["P06"]}])
    assert res.rejected == []
    assert "灵通：被指杀的角色是P06" in feedback(res, "P08")


def test_213_a_king_who_took_his_revenge_is_not_offered_it_again() -> None:
    """报复[晨曦][黄昏][2] "若自己因投票、<杀人>、<报复>出局，则出局后的下一个可发动技能的时点，可以选择
    任意1名角色": once per exit. The 觉醒狼王 P07, knifed by the pack's own choice on night 2, takes
    P06 at 晨曦 inside the night; the desk's 第2天晨曦 (the same point) neither tells him "你可以发动
    <报复>" again nor takes a second one."""
    sc = example("ex-sanguo213-N01")
    night = run(sc, [{"actor": PACK_213, "skill": "杀人", "targets": ["P07"]},
                     {"actor": "P07", "skill": "报复", "targets": ["P06"], "phase": "晨曦"}])
    assert [d.player for d in night.deaths] == ["P07", "P06"]
    assert night.table_after is not None
    after = night.table_after
    dawn = Table(players=after.players, state=after.state, day=2, phase="晨曦")
    again = settle(load_catalog("sanguo-213"), dawn, [load({"setup": {"players": []}, "actions": [
        {"actor": "P07", "skill": "报复", "targets": ["P09"], "phase": "晨曦"}]})[1][0]])
    assert not [f for f in again.feedback if f.to == "P07" and f.content.startswith("报复：你可以发动")]
    assert [(r.actor, r.skill) for r in again.rejected] == [("P07", "报复")]
    assert [d.player for d in again.deaths] == []


def test_213_town_grief_purifies_only_players_still_in() -> None:
    """<村镇之殇> "所有[实际阵营]为村民阵营的角色永久获得状态[净化]": the 长老 P19 poisoned by the 女巫
    (a 村民阵营 skill), the mark is written on the living 村民 only, not on P01 already out nor on the
    长老 himself (before: every dead 村民 got "净化" in state_after too)."""
    sc = example("ex-sanguo213-N01")
    players(sc)["P19"]["status"] = []  # 长寿之命 already spent
    res = run(sc, [{"actor": "P08", "skill": "毒药", "targets": ["P19"]}])
    assert [d.player for d in res.deaths] == ["P19"]
    purified = {k.split(".")[0] for k, v in res.state_after.items() if k.endswith(".status") and "净化" in v}
    assert "P01" not in purified and "P19" not in purified
    assert {"P02", "P05", "P06"} <= purified


def test_107_rubbing_takes_the_skill_named_in_words() -> None:
    """拓印<限定> "获知两名角色所有非<团队>的身份技能，并选择其中一个，获得之": a choice written
    "获得P12的<神启>" takes <神启> (before: read as 未选择)."""
    sc = example("ex-dnf107-N01")
    res = run(sc, [{"actor": "P13", "skill": "拓印", "targets": ["P12", "P05"], "choice": "获得P12的<神启>"}])
    assert res.rejected == []
    assert res.state_after["P13.拓印获得"] == "神启" and "拓印：你获得了<神启>" in feedback(res, "P13")


# -- M160 --------------------------------------------------------------------------------------------
def test_m160_kill_candidates_are_players_who_can_die() -> None:
    """【凶杀】 "你选择的玩家中会有一名存活的非【群内】的玩家受到来源于你的【致死杀害】": the 懦夫 P05,
    safe tonight by 【自保】 ("当你选中【表面阵营】为【恶魔】的玩家时，你在当晚不会死亡": he chose the
    恶魔 P06), is no candidate; the other chosen player dies, with no question asked (before: the
    engine could draw P05, and nobody died)."""
    from tests.test_night_gourmet_m160 import act, everyone, scenario
    from tests.test_night_gourmet_m160 import run as run_m160

    acts = everyone(2, P05=act("P05", "自保", "P06", "P14"), P06=act("P06", "游历", "P05", "P09"))
    for seed in range(4):
        res = run_m160(scenario(2, acts, P06={"uses": {"毒害": 0}}), seed)
        assert not [q for q in res.questions if q.key == "凶杀"]
        assert [d.player for d in res.deaths] == ["P09"]


def test_m160_the_kill_question_quotes_the_demons_own_clause() -> None:
    """One 恶魔: "你选择的玩家中会有一名……受到……【致死杀害】"; the words "每晚只会有一名玩家被杀害" are
    双生暗影's 【镜像】 and belong to a table with two of them."""
    from tests.test_night_gourmet_m160 import act, everyone, scenario
    from tests.test_night_gourmet_m160 import run as run_m160

    one = run_m160(scenario(2, everyone(2, P06=act("P06", "游历", "P07", "P09")), P06={"uses": {"毒害": 0}}))
    q = next(q for q in one.questions if q.key == "凶杀")
    assert "你选择的玩家中会有一名" in q.question and "每晚只会有一名玩家被杀害" not in q.question
    twins = {"P06": ("双生暗影", "恶魔"), "P11": ("双生暗影", "恶魔")}
    acts = everyone(2, P06=act("P06", "游历", "P07", "P09"), P11=act("P11", "欺诈", "P10", "P12"))
    two = run_m160(scenario(2, acts, roles=twins, P06={"believes": "末日传道士"}, P11={"believes": "说谎者"}))
    q = next(q for q in two.questions if q.key == "凶杀")
    assert "每晚只会有一名玩家被杀害" in q.question and set(q.options) == {"P06:P07", "P06:P09", "P11:P10", "P11:P12"}


def test_m160_interview_consent_in_the_usual_words() -> None:
    """【访谈】 "选择一名存活玩家，如果他同意，你们得知彼此之间是否有【表面阵营】为【恶魔】的玩家": the
    target's answer as written (愿意, 好的, 接受, 是 / 拒绝, 不愿意, 否) decides; nothing is drawn."""
    from tests.test_night_gourmet_m160 import act, everyone, scenario
    from tests.test_night_gourmet_m160 import run as run_m160

    roles = {"P09": ("心理学家", "村民")}
    for word, agreed in (("愿意", True), ("好的", True), ("接受", True), ("是", True), ("同意", True),
                         ("拒绝", False), ("不愿意", False), ("否", False), ("不同意", False)):
        acts = everyone(2, P09=act("P09", "访谈", "P10", choice=word))
        res = run_m160(scenario(2, acts, roles=roles))
        assert not [q for q in res.questions if q.key.startswith("访谈")], word
        told = [f.content for f in res.feedback if f.to == "P09"]
        assert (told == ["访谈：P10不同意访谈"]) is not agreed, (word, told)


def test_m160_clone_log_names_the_mimic_and_his_choice() -> None:
    """【克隆】 "在你的第一个夜晚，选择一名玩家": each log line names the 模仿者 and the player he chose,
    a 恶魔 who believes he is the 模仿者 included (④ "恶魔杀害的玩家依旧是在模仿者选择的名单里")."""
    from tests.test_night_gourmet_m160 import act, everyone, scenario
    from tests.test_night_gourmet_m160 import run as run_m160

    ok = run_m160(scenario(1, [*everyone(1), act("P10", "克隆", "P04")], roles={"P10": ("模仿者", "村民")}))
    assert "(1.7) 克隆：P10选择P04，P04属于善良阵营且P10没有醉酒 → 成功，P10变为审讯官" in ok.log
    bad = run_m160(scenario(1, [*everyone(1), act("P10", "克隆", "P08")], roles={"P10": ("模仿者", "村民")}))
    assert "(1.7) 克隆：P10选择P08，P08属于邪恶阵营 → 克隆发动失败，P10中毒" in bad.log
    demon = run_m160(scenario(1, [*everyone(1), act("P06", "克隆", "P04")], P06={"believes": "模仿者"}))
    assert any(line.startswith("(1.7) 克隆：P06是恶魔（自认模仿者），选择了P04") for line in demon.log)

"""213 三国演义 (sanguo-213): nights and day phases settled as its rule post orders them.

Two kinds of test. The shared examples run through ``tracker night simulate --json`` and every
asserted item of their ``expected`` is checked. Then narrated scenarios, one rule at a time, on a
24-seat table of the post's own setup (狼人×4，觉醒狼王，恶魔，石像鬼，隐狼，预言家，通灵师，女巫，
守卫，骑士，长老，赏金猎人，猎人，村民×6，中箭勇者×2) seated differently from the examples, each
citing in its docstring the sentence of the post it proves.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from tracker.cli import main
from tracker.engine.night import load_catalog, settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.checks import refusal
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.errors import RulesetError

EXAMPLES = Path(__file__).parent / "fixtures" / "night" / "examples.json"
GAME = "001_a3a63ea6957c226f.txt"

ROLES = {
    "P01": "预言家", "P02": "狼人", "P03": "通灵师", "P04": "女巫", "P05": "狼人", "P06": "守卫",
    "P07": "村民", "P08": "觉醒狼王", "P09": "骑士", "P10": "村民", "P11": "长老", "P12": "恶魔",
    "P13": "赏金猎人", "P14": "村民", "P15": "猎人", "P16": "石像鬼", "P17": "中箭勇者", "P18": "村民",
    "P19": "隐狼", "P20": "狼人", "P21": "村民", "P22": "中箭勇者", "P23": "狼人", "P24": "村民",
}
WOLVES = {"狼人", "觉醒狼王", "恶魔", "石像鬼", "隐狼"}
PACK = "狼群(P02,P05,P08,P12,P20,P23)"
SEER, WOLF, MEDIUM, WITCH, WOLF2, GUARD, VILLAGER, KING = "P01", "P02", "P03", "P04", "P05", "P06", "P07", "P08"
KNIGHT, ELDER, DEMON, BOUNTY, HUNTER, GARGOYLE, ARROW, HIDDEN = "P09", "P11", "P12", "P13", "P15", "P16", "P17", "P19"


def table(*, night: int | None = 2, day: int | None = None, phase: str | None = None,
          dead: Iterable[str] = (), state: dict[str, Any] | None = None) -> Table:
    """The post's setup before a night (or a day phase): full 女巫 potions, 狼王 报复×2, 长寿之命."""
    players: dict[str, Seat] = {}
    for i, (name, role) in enumerate(ROLES.items(), 1):
        seat = Seat(name, role, "狼人" if role in WOLVES else "村民", fields={"elevator": i})
        if role in ("狼人", "觉醒狼王", "恶魔"):
            seat.tags.append("群内")
        if role == "石像鬼":
            seat.tags.append("接刀")
        if role == "女巫":
            seat.uses.update({"救药": 1, "毒药": 1, "灵通": True})
        if role == "觉醒狼王":
            seat.uses["报复"] = 2
        if role == "长老":
            seat.status.append("守护(长寿之命)")
        if role == "骑士":
            seat.fields["已翻牌"] = False
        if role == "隐狼":
            seat.fields.update({"伪装": [], "伪装未选": [1, 2, 3, 4, 5]})
        players[name] = seat
    for name in dead:
        players[name].alive = False
    if day is not None:
        night = None
    return Table(players=players, state=dict(state or {}), night=night, day=day, phase=phase)


def A(actor: str, skill: str, *targets: str, choice: str | None = None, phase: str | None = None) -> Action:
    return Action(actor, skill, tuple(targets), choice=choice, phase=phase)


def run(t: Table, *actions: Action, seed: int = 0, decisions: dict[str, str] | None = None) -> Settlement:
    acts = [Action(a.actor, a.skill, a.targets, a.choice, a.phase, a.note, i) for i, a in enumerate(actions)]
    return settle(load_catalog("sanguo-213"), t, acts, seed=seed, decisions=decisions)


def dead(res: Settlement) -> list[str]:
    return [d.player for d in res.deaths]


def saved(res: Settlement) -> list[str]:
    return [s.player for s in res.survivals]


def told(res: Settlement, to: str) -> list[str]:
    return [f.content for f in res.feedback if f.to == to]


def refused(res: Settlement) -> list[tuple[str, str]]:
    return [(r.actor, r.skill) for r in res.rejected]


def reason(res: Settlement, skill: str) -> str:
    return next(r.reason for r in res.rejected if r.skill == skill)


# ---------------------------------------------------------------------------------- shared examples
def _examples() -> list[dict[str, Any]]:
    data = json.loads(EXAMPLES.read_text("utf-8"))
    return [sc for sc in data["scenarios"] if sc["game"] == GAME]


def _one_of(spec: str) -> list[str]:
    return [p.strip() for p in spec.split("或")]


@pytest.mark.parametrize("sc", _examples(), ids=lambda sc: sc["id"])
def test_shared_example_through_the_cli(sc: dict[str, Any], tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """Every asserted item of the example's ``expected``, from ``tracker night simulate --json``."""
    f = tmp_path / "scenario.json"
    f.write_text(json.dumps(sc, ensure_ascii=False), "utf-8")
    assert main(["night", "simulate", "--ruleset", "sanguo-213", str(f), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    exp = sc["expected"]
    got_dead = [d["player"] for d in out["deaths"]]
    for d in exp["deaths"]:
        options = _one_of(d["player"])
        assert sum(p in got_dead for p in options) == 1, d
    assert len(got_dead) == len(exp["deaths"])
    assert sorted(s["player"] for s in out["survivals"]) == sorted(s["player"] for s in exp["survivals"])
    assert [(r["actor"], r["skill"]) for r in out["rejected"]] == \
        [(r["actor"], r["skill"]) for r in exp["rejected_actions"]]
    assert out["announcement"]["out_order"] == exp["announcement"]["out_order"]
    for key in ("警长", "牧首"):
        if key in exp["announcement"]:
            assert f"{key}：{exp['announcement'][key]}" in out["announcement"]["lines"]
    words = [line for line in out["announcement"]["lines"] if line.startswith("遗言")]
    assert words == ([f"遗言：{'、'.join(exp['announcement']['last_words'])}"]
                     if exp["announcement"]["last_words"] else [])
    for fb in exp["feedback"]:
        assert {"to": fb["to"], "content": fb["content"]} in out["feedback"], fb
    for key, value in exp["state_after"].items():
        if key == "守卫上一晚":  # the shared vocabulary's key for it is 守护上次 {target, night}
            assert out["state_after"]["守护上次"] == {"target": value, "night": sc["setup"]["night"]}
        else:
            assert out["state_after"][key] == value, key
    assert exp["conversions"] == out["conversions"] and exp["tags_moved"] == out["tags_moved"]
    assert (out["outcome"] or {"winner": "none"})["winner"] == exp["win_check"]
    for d in exp["deaths"]:
        if "或" not in d["player"]:
            assert {"player": d["player"], "cause": d["cause"]} in out["deaths"]
    for s in exp["survivals"]:
        assert {"player": s["player"], "reason": s["reason"]} in out["survivals"]
    # the post's step numbers, in the example's order, each heading a line of the log
    at = 0
    for line in exp["resolution"]:
        m = re.match(r"^(夜|晨曦|黄昏)\(\d\)", line)
        if m:
            found = [i for i, x in enumerate(out["log"]) if x.startswith(m.group(0)) and i >= at]
            assert found, f"no log line for {m.group(0)} after line {at}"
            at = found[0]


# ---------------------------------------------------------------------------------- the ladder
def test_guard_stops_a_knife() -> None:
    """守护[夜晚]……使其在当晚获得[守护]状态; 红牌罚下>…>[穿透]>[守护]>[指杀]: [守护] beats [指杀]."""
    res = run(table(), A(GUARD, "守护", SEER), A(PACK, "杀人", SEER))
    assert dead(res) == [] and saved(res) == [SEER]
    assert res.survivals[0].reason == "守卫<守护>：[守护]>[指杀]"
    assert res.state_after["守护上次"] == {"target": SEER, "night": 2}
    assert res.out_order == []


def test_poison_pierces_a_guard() -> None:
    """毒药……对其造成一次[穿透]; [穿透]>[守护]: the guarded player still dies of poison."""
    res = run(table(), A(GUARD, "守护", SEER), A(WITCH, "毒药", SEER))
    assert [(d.player, d.cause) for d in res.deaths] == [(SEER, f"毒药（{WITCH}），[穿透]")]


def test_same_guard_and_save_cancel_each_other() -> None:
    """若一名角色在同一晚被[救药]和[守护]指定，则[救药]和[守护]均无效 (同守同救会奶穿)."""
    res = run(table(), A(GUARD, "守护", SEER), A(PACK, "杀人", SEER), A(WITCH, "救药", SEER))
    assert dead(res) == [SEER]
    assert res.state_after[f"{WITCH}.救药"] == 0 and res.state_after[f"{WITCH}.灵通"] is False
    assert any("奶穿" in line for line in res.log)


def test_save_alone_guards_and_costs_the_witch_her_insight() -> None:
    """救药……使其在当晚获得[守护]状态……<救药>使用后，失去技能<灵通>; 灵通 speaks first that night."""
    res = run(table(), A(PACK, "杀人", SEER), A(WITCH, "救药", SEER))
    assert dead(res) == [] and res.survivals[0].reason == "女巫<救药>：[守护]>[指杀]"
    assert told(res, WITCH) == [f"灵通：被指杀的角色是{SEER}"]
    t = table(night=3)
    t.players[WITCH].uses.update({"救药": 0, "灵通": False})
    res = run(t, A(PACK, "杀人", SEER))
    assert told(res, WITCH) == []
    assert refused(run(t, A(WITCH, "救药", SEER))) == [(WITCH, "救药")]


def test_witch_saves_herself_only_on_the_first_night() -> None:
    """救药[夜晚]<限定>……仅第一晚可以选择自己 (女巫仅首夜可自救)."""
    res = run(table(night=1), A(PACK, "杀人", WITCH), A(WITCH, "救药", WITCH))
    assert dead(res) == [] and refused(res) == []
    res = run(table(night=2), A(PACK, "杀人", WITCH), A(WITCH, "救药", WITCH))
    assert dead(res) == [WITCH] and reason(res, "救药") == "<救药>仅第一晚可以选择自己"


def test_save_and_poison_never_the_same_night() -> None:
    """<救药>发动后，在该夜晚不可发动技能<毒药>。/ <毒药>发动后，在该夜晚不可发动技能<救药>。"""
    res = run(table(), A(PACK, "杀人", SEER), A(WITCH, "救药", SEER), A(WITCH, "毒药", WOLF))
    assert dead(res) == [] and refused(res) == [(WITCH, "毒药")]
    res = run(table(), A(PACK, "杀人", SEER), A(WITCH, "毒药", WOLF), A(WITCH, "救药", SEER))
    assert dead(res) == [SEER, WOLF] and refused(res) == [(WITCH, "救药")]
    assert res.state_after[f"{WITCH}.救药"] == 1


def test_guard_not_twice_running() -> None:
    """守护……不能连续两晚选择同一名角色; a night apart is allowed."""
    res = run(table(state={"守护上次": {"target": SEER, "night": 1}}), A(GUARD, "守护", SEER))
    assert refused(res) == [(GUARD, "守护")]
    res = run(table(night=3, state={"守护上次": {"target": SEER, "night": 1}}), A(GUARD, "守护", SEER))
    assert refused(res) == []


def test_elder_longevity_absorbs_one_knife_then_is_gone() -> None:
    """长寿之命<强制>——长老获得状态[守护]……该守护状态抵消一次指杀后即失效。"""
    res = run(table(), A(PACK, "杀人", ELDER))
    assert dead(res) == [] and "长寿之命" in res.survivals[0].reason
    assert res.state_after[f"{ELDER}.status"] == []
    t = table(night=3)
    t.players[ELDER].status.clear()
    assert dead(run(t, A(PACK, "杀人", ELDER))) == [ELDER]


def test_elder_holds_longevity_from_the_first_night() -> None:
    """长寿之命<强制>——长老获得状态[守护]，持续至游戏结束: a new game's first table need not list it."""
    t = table(night=1)
    t.players[ELDER].status.clear()
    res = run(t, A(PACK, "杀人", ELDER))
    assert dead(res) == [] and res.state_after[f"{ELDER}.status"] == []
    t = table(night=2)
    t.players[ELDER].status.clear()
    assert dead(run(t, A(PACK, "杀人", ELDER))) == [ELDER]


def test_elder_guarded_keeps_longevity() -> None:
    """长寿之命 is spent only when it is what cancels the 指杀 (reading, docs): a 守卫 guard cancels first."""
    res = run(table(), A(GUARD, "守护", ELDER), A(PACK, "杀人", ELDER))
    assert dead(res) == [] and f"{ELDER}.status" not in res.state_after


def test_demon_is_undying_at_night_against_villager_skills_only() -> None:
    """主宰黑夜<强制>——在[夜晚]和[晨曦]阶段，获得仅针对村民阵营发动的技能的[不死]状态。"""
    res = run(table(), A(WITCH, "毒药", DEMON))
    assert dead(res) == [] and res.survivals[0].reason == "恶魔<主宰黑夜>：[不死]>[穿透]"
    assert dead(run(table(), A(PACK, "杀人", DEMON))) == [DEMON]
    res = run(table(day=3, phase="正午"), A(KNIGHT, "决斗", DEMON))
    assert dead(res) == [DEMON]


def test_arrow_hero_delays_any_exit_but_knife_and_vote() -> None:
    """坚强<强制>——因指杀、投票之外的方式即将出局时，其不出局，改为下一讨论日发言满5贴时出局。"""
    res = run(table(), A(WITCH, "毒药", ARROW))
    assert dead(res) == [] and saved(res) == [ARROW]
    assert [(p.effect, p.player) for p in res.pending] == [("坚强出局", ARROW)]
    assert res.out_order == []
    assert dead(run(table(), A(PACK, "杀人", ARROW))) == [ARROW]
    res = run(table(day=3, phase="正午"), A("导演", "坚强出局", ARROW))
    assert dead(res) == [ARROW] and res.out_order == [ARROW]
    assert refused(run(table(day=3, phase="正午"), A("导演", "坚强出局", VILLAGER))) == [("导演", "坚强出局")]


def test_arrow_heros_delayed_exit_is_an_exit_like_any() -> None:
    """改为下一讨论日发言满5贴时出局: the director's 坚强出局 (data: a ``kill``) is told, has 遗言 (白天出局), and is recorded
    as 坚强 for what reads causes later; one already out (投票 at 黄昏(1)) is refused, not taken out twice."""
    res = run(table(day=3, phase="黄昏"), A("导演", "坚强出局", ARROW))
    assert dead(res) == [ARROW] and res.deaths[0].cause == "坚强"
    assert told(res, ARROW) == ["出局通知（有遗言）"] and "遗言：P17" in res.lines
    assert res.state_after[f"{ARROW}.出局"] == {"day": 3, "cause": "坚强"}
    assert reason(run(table(day=3, phase="正午"), A("导演", "坚强出局", VILLAGER)), "坚强出局") == f"{VILLAGER}不是中箭勇者，没有延后的出局"
    res = run(table(day=3, phase="黄昏"), A("放逐投票", "投票", ARROW), A("导演", "坚强出局", ARROW))
    assert dead(res) == [ARROW] and res.deaths[0].cause == "投票"
    assert reason(res, "坚强出局") == f"{ARROW}已出局，不能成为<坚强出局>的目标"
    res = run(table(day=3, phase="黄昏"), A("导演", "红牌", ARROW), A("放逐投票", "投票", ARROW))
    assert dead(res) == [ARROW] and reason(res, "投票") == f"{ARROW}已出局，不能成为<投票>的目标"


# ---------------------------------------------------------------------------------- checks
def test_checks_read_the_surface() -> None:
    """预言 reads [表面阵营], 通灵 and 恶魔之眼 [表面身份] (中箭勇者视为村民), 查验 the role itself."""
    res = run(table(), A(SEER, "预言", HIDDEN), A(MEDIUM, "通灵", ARROW), A(GARGOYLE, "查验", BOUNTY),
              A(DEMON, "恶魔之眼", ARROW))
    assert told(res, SEER) == [f"预言：{HIDDEN} <非村民阵营>"]
    assert told(res, MEDIUM) == [f"通灵：{ARROW} 的表面身份是 中箭勇者"]
    assert told(res, GARGOYLE) == [f"查验：{BOUNTY} 的身份是 赏金猎人"]
    assert told(res, DEMON) == [f"恶魔之眼：{ARROW} 属于 村民"]
    res = run(table(), A(DEMON, "恶魔之眼", HUNTER))
    assert told(res, DEMON) == [f"恶魔之眼：{HUNTER} 属于 神职"]


def test_demon_eye_after_the_knife() -> None:
    """恶魔之眼 注：先刀后验 — (5) 杀人 comes before (8), and the check still answers for the knifed."""
    res = run(table(), A(PACK, "杀人", SEER), A(DEMON, "恶魔之眼", SEER))
    assert dead(res) == [SEER] and told(res, DEMON) == [f"恶魔之眼：{SEER} 属于 神职"]
    assert res.log.index(next(x for x in res.log if x.startswith("夜(5)"))) < \
        res.log.index(next(x for x in res.log if x.startswith("夜(8)")))


def test_disguise_two_fools_the_seer_medium_and_demon_not_the_gargoyle() -> None:
    """伪装（2）设置自己的表面阵营、表面身份伪装; 效果持续至游戏结束; 查验 gives 结算目标的身份."""
    res = run(table(), A(HIDDEN, "伪装", choice="2 村民 预言家"))
    entry = res.state_after[f"{HIDDEN}.伪装"]
    assert entry == [{"option": 2, "night": 2, "表面阵营": "村民", "表面身份": "预言家"}]
    t = table(night=3)
    t.players[HIDDEN].fields["伪装"] = entry
    res = run(t, A(SEER, "预言", HIDDEN), A(MEDIUM, "通灵", HIDDEN), A(DEMON, "恶魔之眼", HIDDEN),
              A(GARGOYLE, "查验", HIDDEN), A(HIDDEN, "伪装", choice="2 狼人 狼人"))
    assert told(res, SEER) == [f"预言：{HIDDEN} <村民阵营>"]
    assert told(res, MEDIUM) == [f"通灵：{HIDDEN} 的表面身份是 预言家"]
    assert told(res, DEMON) == [f"恶魔之眼：{HIDDEN} 属于 神职"]
    assert told(res, GARGOYLE) == [f"查验：{HIDDEN} 的身份是 隐狼"]
    assert refused(res) == [(HIDDEN, "伪装")]


def test_disguise_list_and_reveal() -> None:
    """伪装（3）得知所有和自己[实际阵营]相同的角色的名单;（5）所有和自己实际阵营相同的角色得知自己的马甲."""
    res = run(table(), A(HIDDEN, "伪装", choice="3"))
    assert told(res, HIDDEN) == ["伪装：和你实际阵营相同的角色：P02、P05、P08、P12、P16、P19、P20、P23"]
    res = run(table(), A(HIDDEN, "伪装", choice="5"))
    assert sorted(f.to for f in res.feedback if f.content.startswith("伪装")) == ["P02", "P05", "P08", "P12", "P16", "P20", "P23"]
    assert told(res, GARGOYLE) == [f"伪装：隐狼是{HIDDEN}"]
    assert refused(run(table(), A(HIDDEN, "伪装"))) == [(HIDDEN, "伪装")]
    assert refused(run(table(), A(HIDDEN, "伪装", choice="2 村民"))) == [(HIDDEN, "伪装")]


def test_knife_belongs_to_the_pack_then_to_the_heirs_in_order() -> None:
    """[接刀]: 所有[群内]狼出局时，[接刀]的角色获得<杀人>技能; 隐狼（1）接刀顺序为石像鬼出局后."""
    pack = ["P02", "P05", "P08", "P12", "P20", "P23"]
    assert refused(run(table(), A(f"狼群({GARGOYLE})", "杀人", SEER))) == [(f"狼群({GARGOYLE})", "杀人")]
    assert refused(run(table(), A(f"狼群(P02,{HIDDEN})", "杀人", SEER))) == [(f"狼群(P02,{HIDDEN})", "杀人")]
    res = run(table(), A(HIDDEN, "伪装", choice="1"))
    assert [(m.tag, m.to_player) for m in res.tags_moved] == [("接刀", HIDDEN)]
    t = table(night=5, dead=pack)
    t.players[HIDDEN].tags.append("接刀")
    res = run(t, A(f"狼群({GARGOYLE})", "杀人", SEER), A(f"狼群({HIDDEN})", "杀人", SEER))
    assert refused(res) == [(f"狼群({HIDDEN})", "杀人")] and dead(res) == [SEER]
    assert told(res, GARGOYLE)[0].startswith("接刀")
    t = table(night=6, dead=[*pack, GARGOYLE])
    t.players[HIDDEN].tags.append("接刀")
    assert dead(run(t, A(f"狼群({HIDDEN})", "杀人", SEER))) == [SEER]


def test_last_pack_wolf_out_tells_the_heir_later() -> None:
    """角色接刀将在<杀人>可以发动的时机得到通知: the last [群内] out leaves a pending notice."""
    res = run(table(night=4, dead=["P02", "P05", "P08", "P12", "P20"]), A("狼群(P23)", "杀人", HUNTER),
              A(HUNTER, "报复", "P23", phase="晨曦"))
    assert dead(res) == [HUNTER, "P23"]
    assert ("接刀", GARGOYLE) in [(p.effect, p.player) for p in res.pending]
    assert f"P23因<报复>出局，技能的发动者：{HUNTER}" in res.lines


# ---------------------------------------------------------------------------------- 报复, 亲传
def test_hunter_revenge_after_the_knife_pierces_a_guard() -> None:
    """报复[晨曦][黄昏]——若自己因投票、<杀人>、<报复>出局……对其造成[致死伤害]; [致死伤害]>[守护]."""
    res = run(table(), A(GUARD, "守护", WOLF), A(PACK, "杀人", HUNTER), A(HUNTER, "报复", WOLF, phase="晨曦"))
    assert dead(res) == [HUNTER, WOLF]
    assert res.deaths[1].cause == f"报复（{HUNTER}），[致死伤害]"
    assert res.out_order == [WOLF, HUNTER]  # 电梯楼顺序, not the order they fell
    assert f"{WOLF}因<报复>出局，技能的发动者：{HUNTER}" in res.lines


def test_revenge_answers_revenge_in_the_same_phase() -> None:
    """因此造成的出局立刻通知对应角色，并且对应角色若能发动上述技能则立刻在该阶段发动; 觉醒狼王[2] counts down."""
    res = run(table(), A(PACK, "杀人", HUNTER), A(KING, "报复", SEER, phase="晨曦"),
              A(HUNTER, "报复", KING, phase="晨曦"))
    assert dead(res) == [HUNTER, KING, SEER] and refused(res) == []
    assert res.state_after[f"{KING}.报复"] == 1
    assert told(res, KING)[-1] == "报复：剩余1次"
    assert res.out_order == [SEER, KING, HUNTER]
    res = run(table(), A(PACK, "杀人", HUNTER), A(HUNTER, "报复", SEER, phase="晨曦"),
              A(HUNTER, "报复", MEDIUM, phase="晨曦"))
    assert dead(res) == [HUNTER, MEDIUM]  # one <报复> per exit: the later submission replaces


def test_revenge_only_after_vote_knife_or_revenge() -> None:
    """<报复> needs 因投票、<杀人>、<报复>出局 (注：同时因<杀人>和其他技能出局时，也可使用<报复>)."""
    res = run(table(), A(PACK, "杀人", HUNTER), A(WITCH, "毒药", HUNTER), A(HUNTER, "报复", WOLF, phase="晨曦"))
    assert dead(res) == [HUNTER, WOLF]
    res = run(table(), A(WITCH, "毒药", HUNTER), A(HUNTER, "报复", WOLF, phase="晨曦"))
    assert dead(res) == [HUNTER] and reason(res, "报复").startswith("猎人因<毒药>出局")
    res = run(table(), A(HUNTER, "报复", WOLF, phase="晨曦"))
    assert reason(res, "报复") == f"{HUNTER}未出局；<报复>在自己出局后才可以发动"
    res = run(table(), A(HUNTER, "报复", WOLF))
    assert reason(res, "报复") == "<报复>只能在晨曦/黄昏发动（本次为夜晚）"
    t = table()
    t.players[KING].uses["报复"] = 0
    assert refused(run(t, A(PACK, "杀人", KING), A(KING, "报复", SEER, phase="晨曦"))) == [(KING, "报复")]


def test_revenge_against_the_demon_at_dawn_fails() -> None:
    """主宰黑夜: [不死] in [晨曦] too, against a 村民阵营 skill such as the 猎人's <报复>."""
    res = run(table(), A(PACK, "杀人", HUNTER), A(HUNTER, "报复", DEMON, phase="晨曦"))
    assert dead(res) == [HUNTER] and saved(res) == [DEMON]


def test_vote_out_then_revenge_at_dusk() -> None:
    """黄昏(1) 结算被[投票出局]的角色 (2) <报复> (3) 公示[投票出局]的角色和其他原因出局的角色名单，分开列出."""
    res = run(table(day=3, phase="黄昏"), A("放逐投票", "投票", KING), A(KING, "报复", HUNTER),
              A(HUNTER, "报复", SEER))
    assert dead(res) == [KING, HUNTER, SEER]
    assert res.out_order == [KING, SEER, HUNTER]
    assert "投票出局：P08" in res.lines and "其他原因出局：P01、P15" in res.lines
    assert "遗言：P08、P15、P01" in res.lines  # 白天出局的角色 have last words


def test_teach_passes_one_revenge_to_a_pack_wolf() -> None:
    """亲传[黄昏]——若[报复]次数尚足够，则减少1点[报复]次数，选择一名狼人阵营[群内]的角色，使其获得1次[报复]技能。"""
    res = run(table(day=3, phase="黄昏"), A(KING, "亲传", WOLF))
    assert res.state_after[f"{KING}.报复"] == 1 and res.state_after[f"{WOLF}.报复"] == 1
    assert told(res, WOLF) == ["亲传：你获得1次<报复>技能"]
    t = table(day=4, phase="黄昏")
    t.players[KING].uses["报复"] = 1
    t.players[WOLF].uses["报复"] = 0
    res = run(t, A(KING, "亲传", WOLF), A(KING, "亲传", GARGOYLE))
    assert reason(res, "亲传").startswith("<亲传>两次发动需选择不同的狼人")
    assert res.rejected[1].reason.startswith("<亲传>只能选择狼人阵营[群内]的角色")
    t = table(day=3, phase="黄昏")
    t.players[WOLF].uses["报复"] = 1
    res = run(t, A("放逐投票", "投票", WOLF), A(WOLF, "报复", SEER))
    assert dead(res) == [WOLF, SEER] and res.state_after[f"{WOLF}.报复"] == 0
    t.players[KING].uses["报复"] = 0
    assert refused(run(t, A(KING, "亲传", WOLF2))) == [(KING, "亲传")]
    res = run(table(day=3, phase="黄昏"), A(KING, "亲传", WOLF), A(KING, "亲传", WOLF))
    assert refused(res) == [(KING, "亲传")] and res.state_after[f"{KING}.报复"] == 1
    res = run(table(day=3, phase="黄昏"), A(KING, "亲传", WOLF), A(KING, "亲传", WOLF2), A(KING, "亲传", "P20"))
    assert refused(res) == [(KING, "亲传")] and reason(res, "亲传") == "<亲传>：[报复]次数不足"


# ---------------------------------------------------------------------------------- 决斗
def test_duel_on_a_wolf_pierces_and_voids_the_vote() -> None:
    """决斗（1）若该角色的[实际阵营]为狼人阵营，对其造成[穿透]，当天所进行的放逐投票无效; [翻牌]."""
    res = run(table(day=3, phase="正午"), A(KNIGHT, "决斗", WOLF), A("放逐投票", "投票", SEER, phase="黄昏"))
    assert dead(res) == [WOLF] and res.out_order == [WOLF]
    assert res.state_after[f"{KNIGHT}.已翻牌"] is True
    assert "当天所进行的放逐投票无效" in res.lines
    assert f"遗言：{WOLF}" in res.lines


def test_duel_on_a_villager_kills_the_knight() -> None:
    """决斗（2）若该角色的[实际阵营]为村民阵营，骑士受到[致死伤害]; 中箭勇者 is 村民阵营 too."""
    res = run(table(day=3, phase="正午"), A(KNIGHT, "决斗", ARROW))
    assert dead(res) == [KNIGHT] and res.deaths[0].cause == f"决斗（{KNIGHT}），[致死伤害]"


def test_duel_refused_on_election_day_and_once_revealed() -> None:
    """决斗……竞选日不可发动; [翻牌]……若实际身份已经公开则无法发动."""
    assert reason(run(table(day=1, phase="正午"), A(KNIGHT, "决斗", WOLF)), "决斗") == "竞选日不可发动<决斗>"
    t = table(day=3, phase="正午")
    t.players[KNIGHT].fields["已翻牌"] = True
    assert refused(run(t, A(KNIGHT, "决斗", WOLF))) == [(KNIGHT, "决斗")]
    assert refused(run(table(), A(KNIGHT, "决斗", WOLF))) == [(KNIGHT, "决斗")]  # 正午 only
    res = run(table(day=3, phase="正午"), A(KNIGHT, "决斗", WOLF), A(KNIGHT, "决斗", WOLF2))
    assert dead(res) == [WOLF] and refused(res) == [(KNIGHT, "决斗")]


def test_hidden_wolf_option_four_is_judged_a_villager_by_the_duel() -> None:
    """伪装（4）在实际阵营为[村民阵营]的以[实际阵营]判断的技能中，以自己为村民阵营进行判定."""
    t = table(day=3, phase="正午")
    t.players[HIDDEN].fields["伪装"] = [{"option": 4, "night": 2}]
    assert dead(run(t, A(KNIGHT, "决斗", HIDDEN))) == [KNIGHT]
    assert dead(run(table(day=3, phase="正午"), A(KNIGHT, "决斗", HIDDEN))) == [HIDDEN]


# ---------------------------------------------------------------------------------- 悬赏, 捕杀
def test_bounty_success_then_hunt() -> None:
    """悬赏……若该角色在下一个[晨曦]阶段公示出局，则反馈<悬赏成功>; 捕杀……若前一天反馈<悬赏成功>……[指杀]."""
    res = run(table(), A(BOUNTY, "悬赏", SEER), A(PACK, "杀人", SEER))
    assert told(res, BOUNTY) == ["悬赏成功"]
    assert res.state_after["悬赏上次"] == {"target": SEER, "night": 2, "成功": True}
    res = run(table(), A(BOUNTY, "悬赏", SEER))
    assert told(res, BOUNTY) == [] and res.state_after["悬赏上次"]["成功"] is False
    ok = {"悬赏上次": {"target": SEER, "night": 2, "成功": True}}
    res = run(table(night=3, dead=[SEER], state=ok), A(BOUNTY, "悬赏", VILLAGER), A(BOUNTY, "捕杀", WOLF))
    assert dead(res) == [WOLF] and told(res, WITCH) == [f"灵通：被指杀的角色是{WOLF}"]
    res = run(table(night=3, dead=[SEER], state=ok), A(BOUNTY, "悬赏", WOLF), A(BOUNTY, "捕杀", WOLF))
    assert refused(res) == [(BOUNTY, "捕杀")] and dead(res) == []
    res = run(table(night=4, dead=[SEER], state=ok), A(BOUNTY, "捕杀", WOLF))
    assert reason(res, "捕杀") == "<捕杀>需要前一天反馈<悬赏成功>"


def test_bounty_on_a_delayed_arrow_hero_is_no_success() -> None:
    """悬赏成功 needs 公示出局; 中箭勇者 hit by poison does not go out that morning (坚强)."""
    res = run(table(), A(BOUNTY, "悬赏", ARROW), A(WITCH, "毒药", ARROW))
    assert told(res, BOUNTY) == [] and res.state_after["悬赏上次"]["成功"] is False


# ---------------------------------------------------------------------------------- 长老, 净化
def test_elder_poisoned_purifies_every_villager() -> None:
    """村镇之殇<强制>——长老因投票或[实际阵营]为村民阵营的角色的技能出局时，所有[实际阵营]为村民阵营的角色永久获得状态[净化]。"""
    res = run(table(), A(WITCH, "毒药", ELDER), A(PACK, "杀人", HUNTER), A(HUNTER, "报复", WOLF, phase="晨曦"))
    assert dead(res) == [ELDER, HUNTER]
    assert res.state_after[f"{SEER}.status"] == ["净化"] and f"{WOLF}.status" not in res.state_after
    assert reason(res, "报复") == f"{HUNTER}处于[净化]状态，不能发动任何技能"
    assert told(res, SEER) == ["村镇之殇：你永久获得状态[净化]，不能发动任何技能，[强制]技能也会失效"]


def test_purified_cannot_act_and_forced_skills_fail() -> None:
    """状态[净化]：……该状态下不能发动任何技能，[强制]技能也会失效 (灵通, 坚强 included)."""
    t = table(night=4, dead=[ELDER])
    for p in t.players.values():
        if p.faction == "村民":
            p.status.append("净化")
    res = run(t, A(SEER, "预言", WOLF), A(PACK, "杀人", SEER), A(WITCH, "毒药", ARROW))
    assert refused(res) == [(SEER, "预言"), (WITCH, "毒药")]
    assert told(res, WITCH) == []  # <灵通> is 强制 and fails
    res = run(t, A(PACK, "杀人", SEER), A(GUARD, "守护", SEER))
    assert dead(res) == [SEER]


def test_elder_voted_out_purifies_but_knifed_does_not() -> None:
    """村镇之殇: 因投票 counts; the wolves' <杀人> is no 村民阵营 skill."""
    res = run(table(day=3, phase="黄昏"), A("放逐投票", "投票", ELDER))
    assert res.state_after[f"{SEER}.status"] == ["净化"]
    t = table(night=3)
    t.players[ELDER].status.clear()
    res = run(t, A(PACK, "杀人", ELDER))
    assert dead(res) == [ELDER] and f"{SEER}.status" not in res.state_after


def test_purified_arrow_hero_goes_out_at_once() -> None:
    """[强制]技能也会失效: a 净化 中箭勇者 has no <坚强>, so poison takes him out the same night."""
    t = table(night=4, dead=[ELDER])
    t.players[ARROW].status.append("净化")
    res = run(t, A(WITCH, "毒药", ARROW))
    assert refused(res) == [] and dead(res) == [ARROW]


# ---------------------------------------------------------------------------------- 警长, 牧首, 遗言
def _titled(t: Table, sheriff: str | None, patriarch: str | None) -> Table:
    for tag, who in (("警长", sheriff), ("牧首", patriarch)):
        if who is not None:
            t.players[who].tags.append(tag)
        t.state[tag] = who
    return t


def test_sheriff_passes_the_badge_at_dawn() -> None:
    """殉职[晨曦][黄昏]——警长出局后……反馈存活角色名单，可以选择一名存活角色，使其获得附加身份“警长”……立即公示。"""
    t = _titled(table(), SEER, None)
    res = run(t, A(PACK, "杀人", SEER), A(SEER, "殉职", MEDIUM, phase="晨曦"))
    assert [(m.tag, m.from_player, m.to_player) for m in res.tags_moved] == [("警长", SEER, MEDIUM)]
    assert res.state_after["警长"] == MEDIUM
    assert told(res, MEDIUM) == ["你成为警长"] and told(res, SEER)[1].startswith("殉职：存活角色名单：")
    assert SEER not in told(res, SEER)[1]
    assert f"殉职：{MEDIUM}获得附加身份“警长”" in res.lines and f"警长：{MEDIUM}" in res.lines


def test_sheriff_not_choosing_tears_the_badge() -> None:
    """殉职: 若不选择，则本局游戏不再有附加身份“警长” (警长出局可以撕警徽) — at 晨曦, with or without a
    submission that names nobody."""
    res = run(_titled(table(), SEER, None), A(PACK, "杀人", SEER), A(SEER, "殉职", phase="晨曦"))
    assert res.state_after["警长"] is None and refused(res) == [] and "警长：无" in res.lines
    t = _titled(table(day=2, phase="晨曦", dead=[SEER]), SEER, None)
    t.players[SEER].fields["出局"] = {"night": 2, "cause": "杀人"}
    res = run(t)
    assert res.state_after["警长"] is None and "本局游戏不再有附加身份“警长”" in res.lines[0]


def test_night_without_dawn_submissions_leaves_the_heirs_pending() -> None:
    """殉职/殉道/报复 act at 出局后下一个可发动技能的时间点; a night confirmed before anyone has chosen
    does not tear the badge or draw the 牧首 at random: they wait for 晨曦."""
    t = _titled(table(), SEER, VILLAGER)
    res = run(t, A(PACK, "杀人", SEER), A(WITCH, "毒药", VILLAGER))
    assert sorted((p.effect, p.player) for p in res.pending) == [("殉职", SEER), ("殉道", VILLAGER)]
    assert "警长" not in res.state_after and res.questions == []
    assert f"警长：待{SEER}<殉职>" in res.lines and f"牧首：待{VILLAGER}<殉道>" in res.lines
    res = run(table(), A(PACK, "杀人", HUNTER))
    assert [(p.effect, p.player) for p in res.pending] == [("报复", HUNTER)]


def test_red_carded_sheriff_may_not_pass_the_badge() -> None:
    """红牌罚下出局的角色没有遗言权利，警长不得发动<殉职>。"""
    t = _titled(table(day=3, phase="黄昏"), SEER, None)
    res = run(t, A("导演", "红牌", SEER), A(SEER, "殉职", MEDIUM))
    assert dead(res) == [SEER] and refused(res) == [(SEER, "殉职")]
    assert res.state_after["警长"] is None
    assert told(res, SEER)[0] == "出局通知（无遗言）" and not any(x.startswith("遗言") for x in res.lines)


def test_patriarch_killed_by_wolves_may_reveal_a_player() -> None:
    """殉道 结算效果 2、仅当因狼人阵营技能出局时可选，使选择的角色翻牌，本局游戏不再有附加身份“牧首”; 绝笔."""
    t = _titled(table(), None, VILLAGER)
    res = run(t, A(PACK, "杀人", VILLAGER), A(VILLAGER, "殉道", WOLF, choice="2", phase="晨曦"))
    assert res.state_after[f"{WOLF}.已翻牌"] is True and res.state_after["牧首"] is None
    assert f"殉道：{WOLF}翻牌，实际身份为狼人；本局游戏不再有附加身份“牧首”" in res.lines
    assert told(res, VILLAGER)[0] == "出局通知（有遗言）" and f"遗言：{VILLAGER}" in res.lines
    assert "牧首：无" in res.lines


def _dawn_after(night: int, cause: str, who: str = VILLAGER) -> Table:
    t = _titled(table(day=night, phase="晨曦", dead=[who]), None, who)
    t.players[who].fields["出局"] = {"night": night, "cause": cause}
    return t


def test_patriarch_poisoned_cannot_reveal_and_an_unchosen_martyrdom_is_random() -> None:
    """殉道<强制>……若不选择将会随机选择; effect 2 only after a 狼人阵营 skill (毒药 is not)."""
    t = _titled(table(), None, VILLAGER)
    res = run(t, A(WITCH, "毒药", VILLAGER), A(VILLAGER, "殉道", WOLF, choice="2", phase="晨曦"))
    assert refused(res) == [(VILLAGER, "殉道")]
    assert [q.key for q in res.questions] == [f"殉道.{VILLAGER}.对象"]
    heir = res.questions[0].taken
    assert res.state_after["牧首"] == heir and heir != VILLAGER and f"殉道：{heir}获得附加身份“牧首”" in res.lines
    res = run(_dawn_after(2, "毒药"), decisions={f"殉道.{VILLAGER}.对象": SEER})
    assert res.state_after["牧首"] == SEER and res.questions[0].by == "director"
    assert [q.key for q in res.questions] == [f"殉道.{VILLAGER}.对象"]  # effect 1 is the only one
    res = run(_dawn_after(2, "杀人"), decisions={f"殉道.{VILLAGER}.对象": SEER, f"殉道.{VILLAGER}.效果": "2"})
    assert res.state_after[f"{SEER}.已翻牌"] is True
    res = run(_dawn_after(2, "毒药"), A(VILLAGER, "殉道", SEER))
    assert res.state_after["牧首"] == SEER and res.questions == [] and refused(res) == []
    picks = {run(_dawn_after(2, "杀人"), seed=s).state_after.get("牧首") for s in range(8)}
    assert len(picks) > 1  # seeded chance, not a fixed guess


def test_red_carded_patriarch_martyrdom_is_random_and_without_last_words() -> None:
    """红牌罚下出局的角色没有遗言权利……牧首<殉道>对象和效果随机选择。"""
    t = _titled(table(day=3, phase="黄昏"), None, VILLAGER)
    res = run(t, A("导演", "红牌", VILLAGER), A(VILLAGER, "殉道", SEER, choice="1"))
    assert refused(res) == [(VILLAGER, "殉道")]
    assert res.questions[-1].key == f"殉道.{VILLAGER}.对象" and res.state_after["牧首"] == res.questions[-1].taken
    assert told(res, VILLAGER)[0] == "出局通知（无遗言）"


def test_one_player_both_sheriff_and_patriarch() -> None:
    """若一名角色同时为警长和牧首，则出局时需同时执行<殉道>和<殉职>。"""
    t = _titled(table(), SEER, SEER)
    res = run(t, A(PACK, "杀人", SEER), A(SEER, "殉职", MEDIUM, phase="晨曦"),
              A(SEER, "殉道", GUARD, choice="1", phase="晨曦"))
    assert res.state_after["警长"] == MEDIUM and res.state_after["牧首"] == GUARD
    assert refused(run(t, A(MEDIUM, "殉职", GUARD, phase="晨曦"))) == [(MEDIUM, "殉职")]


def test_last_words_first_night_and_day_only() -> None:
    """仅首夜出局和白天出局的角色拥有遗言 (牧首任何时刻出局均有遗言)."""
    assert "遗言：P07" in run(table(night=1), A(PACK, "杀人", VILLAGER)).lines
    assert not any(x.startswith("遗言") for x in run(table(night=2), A(PACK, "杀人", VILLAGER)).lines)


def test_dusk_settles_the_noon_dead_sheriff() -> None:
    """殉职: 出局后下一个可发动技能的时间点 — a 警长 out at 正午 (决斗) hands over at 黄昏."""
    t = _titled(table(day=3, phase="正午"), KNIGHT, None)
    res = run(t, A(KNIGHT, "决斗", SEER))
    assert [(p.effect, p.player) for p in res.pending] == [("殉职", KNIGHT)]
    res = run(t, A(KNIGHT, "决斗", SEER), A(KNIGHT, "殉职", MEDIUM, phase="黄昏"))
    assert res.state_after["警长"] == MEDIUM


def test_dawn_scenario_reads_the_out_field() -> None:
    """A scenario that starts at 晨曦: the 出局 field tells who went out the night before."""
    t = table(day=3, phase="晨曦", dead=[HUNTER])
    t.players[HUNTER].fields["出局"] = {"night": 3, "cause": "杀人"}
    res = run(t, A(HUNTER, "报复", WOLF))
    assert dead(res) == [WOLF]
    t.players[HUNTER].fields["出局"] = {"night": 2, "cause": "杀人"}
    assert reason(run(t, A(HUNTER, "报复", WOLF)), "报复") == f"{HUNTER}出局后的下一个可发动技能的时点已过"


# ---------------------------------------------------------------------------------- 竞选, 出局顺序
def test_first_day_election() -> None:
    """4. 若此时为游戏的第一天，则进入竞选阶段……票数最高的角色如只有一个，则成为警长/牧首 (平票：没有)."""
    res = run(table(night=1), A("导演", "竞选", SEER, choice="警长"), A("导演", "竞选", choice="牧首"))
    assert res.state_after["警长"] == SEER and res.state_after["牧首"] is None
    assert told(res, SEER) == ["你成为警长"] and "警长：P01" in res.lines and "牧首：无" in res.lines
    assert refused(run(table(night=2), A("导演", "竞选", SEER, choice="警长"))) == [("导演", "竞选")]


def test_night_out_list_in_elevator_order() -> None:
    """公示出局名单时按出局角色的电梯楼顺序排序 (the elevator, not the seat, decides)."""
    t = table()
    t.players["P14"].fields["elevator"] = 1
    t.players[SEER].fields["elevator"] = 14
    res = run(t, A(PACK, "杀人", SEER), A(WITCH, "毒药", "P14"))
    assert res.out_order == ["P14", SEER]


# ---------------------------------------------------------------------------------- 胜负, 红牌, 投降
def test_wolves_win_when_every_god_is_out_and_settlement_stops() -> None:
    """【狼人阵营】1. 村民阵营的预言家、通灵师、女巫、守卫、骑士、长老、赏金猎人、猎人全部出局。"""
    gods = [GUARD, MEDIUM, WITCH, KNIGHT, ELDER, BOUNTY, HUNTER]
    res = run(table(night=6, dead=gods), A(PACK, "杀人", SEER))
    assert res.outcome is not None and res.outcome.winner == "狼人"
    assert not any(x.startswith("晨曦") for x in res.log)


def test_wolves_win_when_every_plain_villager_is_out() -> None:
    """【狼人阵营】2. 村民阵营的村民、中箭勇者全部出局 (a 坚强 中箭勇者 is not out yet)."""
    folk = ["P07", "P10", "P14", "P18", "P21", "P24", "P22"]
    res = run(table(night=6, dead=folk), A(PACK, "杀人", ARROW))
    assert res.outcome is not None and res.outcome.winner == "狼人"
    res = run(table(night=6, dead=folk), A(WITCH, "毒药", ARROW))
    assert res.outcome is None


def test_villagers_win_when_every_wolf_is_out_and_wolves_take_a_tie() -> None:
    """【村民阵营】狼人阵营的角色全部出局; 若两个阵营同时达成胜利条件，则狼人阵营获胜。"""
    wolves = ["P02", "P05", "P08", "P12", "P16", "P19", "P20"]
    res = run(table(day=7, phase="黄昏", dead=wolves), A("放逐投票", "投票", "P23"))
    assert res.outcome is not None and res.outcome.winner == "村民"
    gods = [SEER, GUARD, MEDIUM, WITCH, KNIGHT, ELDER, BOUNTY]
    res = run(table(day=7, phase="黄昏", dead=wolves + gods), A("放逐投票", "投票", "P23"), A("P23", "报复", HUNTER))
    assert res.outcome is not None and res.outcome.winner == "村民"  # checked at the vote, before 报复
    t = table(day=7, phase="黄昏", dead=wolves + gods)
    t.players["P23"].uses["报复"] = 1
    res = run(t, A(HUNTER, "报复", "P23"), A("放逐投票", "投票", HUNTER))
    assert res.outcome is not None and res.outcome.winner == "狼人"
    folk = ["P07", "P10", "P14", "P18", "P21", ARROW, "P22"]
    res = run(table(night=6, dead=[*wolves, *folk]), A("狼群(P23)", "杀人", "P24"), A(WITCH, "毒药", "P23"))
    assert res.outcome is not None and res.outcome.winner == "狼人" and "狼人阵营获胜" in res.outcome.reason


def test_red_card_out_and_two_reds_lose_the_faction() -> None:
    """玩家受到红牌判罚时出局; 同一阵营的角色累计获得两张或以上红牌时，阵营判负; 已出局角色仍可被判罚。"""
    res = run(table(day=3, phase="正午"), A("导演", "红牌", WOLF))
    assert dead(res) == [WOLF] and res.state_after["红牌"] == {"狼人": 1} and res.outcome is None
    assert res.questions[0].key == f"红牌判负.{WOLF}" and res.questions[0].taken == "否"
    res = run(table(day=3, phase="正午", dead=[WOLF], state={"红牌": {"狼人": 1}}), A("导演", "红牌", WOLF))
    assert dead(res) == [] and res.state_after["判负阵营"] == ["狼人"]
    assert res.outcome is not None and res.outcome.winner == "村民"


def test_director_may_judge_a_faction_lost_on_one_red() -> None:
    """判罚红牌时，导演视情况决定是否判负该玩家所在阵营 (a question, 否 unless the director says 是)."""
    res = run(table(), A("导演", "红牌", SEER), decisions={f"红牌判负.{SEER}": "是"})
    assert res.outcome is not None and res.outcome.winner == "狼人"


def test_red_card_beats_the_demon_and_the_arrow_hero() -> None:
    """红牌罚下>[不死]: nothing stands above a red card (坚强 neither, reading in docs)."""
    res = run(table(), A("导演", "红牌", DEMON), A("导演", "红牌", ARROW))
    assert dead(res) == [DEMON, ARROW]


def test_surrender_needs_every_pack_wolf_even_the_dead() -> None:
    """所有狼人阵营共群角色（包括已出局角色）同意投降时，狼人阵营判负。"""
    t = table(day=4, phase="正午", dead=["P02"])
    res = run(t, A("狼群(P05,P08,P12,P20,P23)", "投降"))
    assert refused(res) == [("狼群(P05,P08,P12,P20,P23)", "投降")] and res.outcome is None
    res = run(t, A("狼群(P02,P05,P08,P12,P20,P23)", "投降"))
    assert res.outcome is not None and res.outcome.winner == "村民"


# ---------------------------------------------------------------------------------- data and machinery
def test_every_skill_of_the_post_is_data_with_its_clause() -> None:
    """EVERY skill of the post is an entry with the post's sentence; the order (1)–(9) is the night
    file's steps, (2), (3), (4), (5), (6) <悬赏><捕杀>, (7) <救药><毒药>, (8), 4. 竞选 and 晨曦's <悬赏成功> (a
    ``feedback`` step) settled from data between the hook's steps."""
    cat = load_catalog("sanguo-213")
    want = {"杀人", "接刀", "报复", "亲传", "主宰黑夜", "恶魔之眼", "查验", "伪装", "预言", "通灵", "灵通", "救药",
            "毒药", "守护", "决斗", "长寿之命", "村镇之殇", "悬赏", "捕杀", "坚强", "绝笔", "殉道", "带队", "殉职"}
    assert want <= set(cat.names())
    assert all(s.clause for s in cat.skills.values())
    night = [(s.n, s.hook or s.skills) for s in cat.steps if s.phase == "night"]
    assert night == [("夜(1)", "夜晚开始"), ("夜(2)", ("守护",)), ("夜(3)", ("查验",)), ("夜(4)", ("预言", "通灵")),
                     ("夜(5)", ("杀人",)), ("夜(6)", ("悬赏",)), ("夜(6)", ("捕杀",)), ("夜(7)", ()), ("夜(7)", ("救药", "毒药")),
                     ("夜(8)", ("恶魔之眼",)), ("夜(9)", "夜晚出局"), ("4", ("竞选",)), ("晨曦(2)", "晨曦报复"), ("晨曦(2)", ()),
                     ("晨曦(3)", "晨曦")]
    assert cat.scenario_game == GAME


def test_automatic_skills_are_not_submitted() -> None:
    """灵通<强制>, 长寿之命<强制> … act by themselves: submitting one is refused, never settled twice."""
    res = run(table(), A(WITCH, "灵通"), A(PACK, "杀人", SEER))
    assert refused(res) == [(WITCH, "灵通")] and told(res, WITCH) == [f"灵通：被指杀的角色是{SEER}"]


def test_only_pack_members_knife() -> None:
    """杀人[夜晚]——……该阵营共群的角色可以共同选择一名角色: a villager in the team is refused."""
    res = run(table(), A(f"狼群(P02,{SEER})", "杀人", MEDIUM))
    assert reason(res, "杀人") == f"{SEER}（预言家）不在狼群（[群内]），不能参与<杀人>"


def test_generic_phases_key_and_team_named_alone() -> None:
    """catalog ``phases``: a skill marked [晨曦][黄昏] is legal in both, refused elsewhere; a team named
    alone (导演, 放逐投票) has no seats to check."""
    cat = parse_catalog({"ruleset": "x", "skills": [
        {"name": "报复", "roles": ["猎人"], "phase": "晨曦", "phases": ["晨曦", "黄昏"], "targets": 1,
         "actor_may_be_dead": True},
        {"name": "红牌", "team": "导演", "roles": ["猎人"], "phase": "passive", "targets": 1}]}, "x")
    t = Table(players={"P01": Seat("P01", "猎人", "村民"), "P02": Seat("P02", "村民", "村民")}, state={}, day=2,
              phase="黄昏")
    skill = cat.skill("报复")
    assert refusal(t, Action("P01", "报复", ("P02",)), skill) is None
    assert refusal(t, Action("P01", "报复", ("P02",), phase="晨曦"), skill) is None
    assert refusal(t, Action("P01", "报复", ("P02",), phase="正午"), skill) == "<报复>只能在晨曦/黄昏发动（本次为正午）"
    assert refusal(t, Action("导演", "红牌", ("P02",)), cat.skill("红牌")) is None
    with pytest.raises(RulesetError):
        parse_catalog({"ruleset": "x", "skills": [{"name": "a", "roles": ["b"], "phases": ["午夜"]}]}, "x")


def test_settling_is_pure_and_seeded() -> None:
    """The same table, actions and seed give the same settlement, and the table is left as it was."""
    t = _titled(table(), None, VILLAGER)
    before = copy.deepcopy(t)
    a = run(t, A(PACK, "杀人", VILLAGER), seed=3).to_json()
    assert a == run(t, A(PACK, "杀人", VILLAGER), seed=3).to_json() and t == before


def test_a_full_night_settles_the_same_each_time() -> None:
    """A night of 24 players with every night skill settles, and again to the same result; its speed is
    measured by benchmarks/bench_night.py, not asserted here."""
    t = table()
    acts = [A(HIDDEN, "伪装", choice="3"), A(GUARD, "守护", SEER), A(GARGOYLE, "查验", SEER), A(SEER, "预言", WOLF),
            A(MEDIUM, "通灵", WOLF), A(PACK, "杀人", HUNTER), A(BOUNTY, "悬赏", HUNTER), A(WITCH, "毒药", ELDER),
            A(DEMON, "恶魔之眼", SEER), A(HUNTER, "报复", WOLF, phase="晨曦")]
    first = run(t, *acts).to_json()
    assert len(t.players) == 24
    assert run(t, *acts).to_json() == first


def test_a_submission_for_another_phase_is_refused_not_dropped() -> None:
    """总体流程: 亲传 is a 黄昏 skill (2 (4)); in a night's settlement it is refused with a reason."""
    res = run(table(), A(KING, "亲传", WOLF, phase="黄昏"), A("导演", "红牌", SEER, phase="晨曦"))
    assert reason(res, "亲传") == "<亲传>不在本次结算的阶段（夜晚、晨曦）中结算"
    assert dead(res) == [SEER] and told(res, SEER) == ["出局通知（无遗言）"]


def test_sheriff_elected_after_night_one_and_shot_at_dawn_hands_over() -> None:
    """总体流程: 先进行第一个夜晚，再进行警长/牧首竞选, then 晨曦 (2) <报复> and (3) <殉职>: a 警长 elected
    on day one and shot at that 晨曦 already holds the badge he passes."""
    res = run(table(night=1), A(PACK, "杀人", HUNTER), A("导演", "竞选", SEER, choice="警长"),
              A(HUNTER, "报复", SEER, phase="晨曦"), A(SEER, "殉职", MEDIUM, phase="晨曦"))
    assert dead(res) == [HUNTER, SEER] and refused(res) == []
    assert res.state_after["警长"] == MEDIUM and "警长：P03" in res.lines
    assert "遗言：P15、P01" in res.lines  # 首夜出局


def test_hidden_wolf_option_four_is_purified_with_the_villagers() -> None:
    """伪装（4）: <村镇之殇> judges by [实际阵营] and belongs to the 村民阵营, so 隐狼 counts as 村民 there."""
    t = table(night=3)
    t.players[HIDDEN].fields["伪装"] = [{"option": 4, "night": 2}]
    res = run(t, A(WITCH, "毒药", ELDER))
    assert res.state_after[f"{HIDDEN}.status"] == ["净化"] and f"{WOLF}.status" not in res.state_after


def test_hidden_wolf_option_four_holding_the_knife_is_a_villager_to_the_elder() -> None:
    """伪装（4） on the dealer too: <村镇之殇> "因……[实际阵营]为村民阵营的角色的技能出局" takes the 隐狼 who [接刀] alone
    for 村民, so his <杀人> on the 长老 purifies the village; the pack's would not."""
    gone = [WOLF, WOLF2, KING, DEMON, "P20", "P23", GARGOYLE]
    for options, purifies in (([1, 4], True), ([1], False)):
        t = table(night=4, dead=gone)
        t.players[HIDDEN].fields["伪装"] = [{"option": o, "night": o} for o in options]
        t.players[HIDDEN].tags.append("接刀")
        t.players[ELDER].status.clear()  # 长寿之命 spent
        res = run(t, A(f"狼群({HIDDEN})", "杀人", ELDER))
        assert ELDER in dead(res) and refused(res) == []
        assert (res.state_after.get(f"{SEER}.status") == ["净化"]) is purifies


def test_revenge_holders_are_told_they_may_act_and_the_uses_left() -> None:
    """标明[X]的技能……该技能的持有者在可发动技能时会得知剩余次数; the 猎人 has no count."""
    res = run(table(), A(PACK, "杀人", HUNTER))
    assert told(res, HUNTER) == ["出局通知（无遗言）", "报复：你可以发动<报复>"]
    res = run(table(day=3, phase="黄昏"), A("放逐投票", "投票", KING))
    assert "报复：你可以发动<报复>（剩余2次）" in told(res, KING)
    res = run(table(), A(WITCH, "毒药", HUNTER))
    assert told(res, HUNTER) == ["出局通知（无遗言）"]
    t = table()
    t.players[HUNTER].uses["报复"] = 2  # a desk seeds uses from the shared entry's count
    res = run(t, A(PACK, "杀人", HUNTER), A(HUNTER, "报复", WOLF, phase="晨曦"))
    assert told(res, HUNTER) == ["出局通知（无遗言）", "报复：你可以发动<报复>"] and dead(res) == [HUNTER, WOLF]


def test_counts_seed_a_new_game() -> None:
    """[2] on 报复 (亲传 spends the same count), 限定 potions once, 灵通 held until lost."""
    cat = load_catalog("sanguo-213")
    seeds = {r: {s.uses: s.count for s in cat.skills_of(r) if s.uses and s.count is not None}
             for r in ("觉醒狼王", "女巫", "猎人")}
    assert seeds == {"觉醒狼王": {"报复": 2}, "女巫": {"灵通": True, "救药": 1, "毒药": 1}, "猎人": {"报复": 2}}


def _scenario(t: Table, actions: list[dict[str, Any]]) -> dict[str, Any]:
    players = []
    for p in t.players.values():
        raw: dict[str, Any] = {"name": p.name, "role": p.role, "faction": p.faction, "alive": p.alive, **p.fields}
        for key in ("tags", "status", "uses"):
            if getattr(p, key):
                raw[key] = getattr(p, key)
        players.append(raw)
    setup: dict[str, Any] = {"players": players, "state": t.state}
    if t.night is not None:
        setup["night"] = t.night
    else:
        setup.update({"day": t.day, "phase": t.phase})
    return {"game": GAME, "setup": setup, "actions": actions}


def test_cli_settles_a_day_with_a_duel_and_the_vote_it_voids(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """A day scenario through ``tracker night simulate``: 正午 <决斗> on a wolf, then 黄昏 whose vote is void."""
    sc = _scenario(table(day=3, phase="正午"), [
        {"actor": KNIGHT, "skill": "决斗", "targets": [WOLF]},
        {"actor": "放逐投票", "skill": "投票", "targets": [SEER], "phase": "黄昏"}])
    f = tmp_path / "day.json"
    f.write_text(json.dumps(sc, ensure_ascii=False), "utf-8")
    assert main(["night", "simulate", "--ruleset", "sanguo-213", str(f), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [d["player"] for d in out["deaths"]] == [WOLF]
    assert out["announcement"]["out_order"] == [WOLF] and "投票出局：无" in out["announcement"]["lines"]
    sc["setup"]["players"][0]["status"] = ["净化"]
    sc["actions"] = [{"actor": "导演", "skill": "红牌", "targets": [SEER], "phase": "黄昏"}]
    f.write_text(json.dumps(sc, ensure_ascii=False), "utf-8")
    assert main(["night", "simulate", "--ruleset", "sanguo-213", str(f), "--json",
                 "--decide", f"红牌判负.{SEER}=是"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["outcome"]["winner"] == "狼人" and out["questions"][0]["by"] == "director"


# ---------------------------------------------------------------------------------- the director's desk
FORUM_NAMES = ["饺子", "包子", "栗子", "馒头", "花卷", "烧卖", "油条", "豆浆", "汤圆", "粽子", "月饼", "年糕",
               "麻花", "春卷", "锅贴", "馄饨", "煎饼", "烙饼", "米糕", "凉皮", "肉夹馍", "糍粑", "酥饼", "麻团"]


def test_desk_two_nights_with_forum_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`tracker night GAME.toml`: a new game's table lists no [群内] tags and no 长寿之命 status; the
    post puts both on the roles (狼人[群内]…, 长老获得状态[守护]，持续至游戏结束), and the spent
    长寿之命 carries to the next night."""
    game = ('[game]\nname = "三国测试局"\nruleset = "sanguo-213"\nforum = "http://127.0.0.1:9/"\n'
            'timezone = "Asia/Shanghai"\ndirectors = ["导演A"]\n')
    for name, role in zip(FORUM_NAMES, ROLES.values(), strict=True):
        game += f'\n[[players]]\nname = "{name}"\nrole = "{role}"\nfaction = "{"狼人" if role in WOLVES else "村民"}"\n'
    for d in (1, 2, 3):
        game += (f"\n[[days]]\nday = {d}\ndiscussion = {10 + 2 * d}\nvote = [{11 + 2 * d}]\n"
                 f"opens = 2025-03-0{2 + d}T10:00:00+08:00\ncloses = 2025-03-0{2 + d}T21:00:00+08:00\n")
    g = tmp_path / "game.toml"
    g.write_text(game, "utf-8")
    by_role = {role: name for name, role in zip(FORUM_NAMES, ROLES.values(), strict=True)}
    pack = f"狼群({','.join(n for n, r in zip(FORUM_NAMES, ROLES.values(), strict=True) if r in ('狼人', '觉醒狼王', '恶魔'))})"
    elder = by_role["长老"]
    for night in (1, 2):
        assert main(["night", str(g), "--night", str(night), "add", pack, "杀人", elder]) == 0
        capsys.readouterr()
        assert main(["night", str(g), "--night", str(night), "--json"]) == 0
        doc = json.loads(capsys.readouterr().out)
        assert doc["rejected"] == []
        assert [d["player"] for d in doc["deaths"]] == ([] if night == 1 else [elder])
        assert main(["night", str(g), "--night", str(night), "confirm"]) == 0
        capsys.readouterr()

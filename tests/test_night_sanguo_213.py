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
import time
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

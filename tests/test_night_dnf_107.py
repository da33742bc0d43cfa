"""107 地下城与勇士: the night's steps (1)–(17), the day's (18)–(20) and the 致死伤害结算流程.

Each test narrates one night (or day) of the 21-seat table the shared examples use and cites, in
its docstring, the sentence of the rule post it proves. The two shared examples run through the
command line exactly as a director would run them.
"""

from __future__ import annotations

import copy
import json
import time
from pathlib import Path
from typing import Any

import pytest

from tracker.cli import main
from tracker.engine.night import load_catalog, settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.checks import refusal
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.engine.ruleset import load_ruleset

EXAMPLES = Path(__file__).parent / "fixtures" / "night" / "examples.json"
RS = load_ruleset("dnf-107")
CAT = load_catalog(RS.id, RS.night_path, tuple(r.name for r in RS.roles))

#: The seat map of the shared examples (P01…P21), factions as the post gives them.
ROLES = ["村民", "恶徒", "剑士", "村民", "村长", "民兵", "村民", "贵族", "恶徒", "游荡者", "村民", "神启者",
         "学者", "村民", "慰魂师", "恶徒", "守夜人", "民兵", "村民", "恶徒", "村民"]
HOME = {"村长": "莱恩", "神启者": "莱恩", "民兵": "莱恩", "村民": "莱恩", "剑士": "圣殿", "游荡者": "圣殿",
        "慰魂师": "圣殿", "贵族": "环蛇", "学者": "环蛇", "恶徒": "环蛇", "守夜人": "中立"}
USES = {"村长": {"长寿": 1}, "神启者": {"圣光天启": 1}, "民兵": {"突击": 1}, "剑士": {"防反": 1},
        "游荡者": {"潜行": 1}, "慰魂师": {"超度": 1}, "学者": {"诈骗": 1, "拓印": 1}, "恶徒": {"偷袭": 1},
        "守夜人": {"夜之隐": 1}, "告死者": {"死灵咒": 1}, "血族": {"初拥": 1}, "天谴者": {"暗日": 1}}


def table(night: int | None = 2, *, day: int | None = None, n: int = 21, state: dict[str, Any] | None = None,
          **players: dict[str, Any]) -> Table:
    """The examples' table; ``P07={"role": "腐尸", "faction": "亡灵"}`` changes one seat."""
    seats: dict[str, Seat] = {}
    for i in range(1, n + 1):
        name = f"P{i:02d}"
        role = ROLES[i - 1] if i <= len(ROLES) else "村民"
        over = players.get(name, {})
        role = over.get("role", role)
        seats[name] = Seat(name, role, over.get("faction", HOME.get(role, "亡灵")), alive=over.get("alive", True),
                           tags=list(over.get("tags", [])), uses=dict(over.get("uses", USES.get(role, {}))),
                           fields={k: v for k, v in over.items() if k not in ("role", "faction", "alive", "tags", "uses")})
    st: dict[str, Any] = {"神眷者": None, "恶徒首领": "P16", "告死者": None}
    st.update(state or {})
    for name, s in seats.items():
        if st.get("神眷者") == name and "神眷者" not in s.tags:
            s.tags.append("神眷者")
        relic = st.get("亡灵圣物")
        if isinstance(relic, dict) and relic.get("holder") == name and "亡灵圣物" not in s.tags:
            s.tags.append("亡灵圣物")
    return Table(players=seats, state=st, night=night, day=day)


def act(actor: str, skill: str, *targets: str, choice: str | None = None, phase: str | None = None) -> Action:
    return Action(actor, skill, tuple(targets), choice, phase)


def run(t: Table, *actions: Action, seed: int = 0, decisions: dict[str, str] | None = None) -> Settlement:
    acts = [Action(a.actor, a.skill, a.targets, a.choice, a.phase, a.note, i) for i, a in enumerate(actions)]
    return settle(CAT, t, acts, seed=seed, decisions=decisions)


def dead(res: Settlement) -> list[str]:
    return [d.player for d in res.deaths]


def told(res: Settlement, to: str) -> list[str]:
    return [f.content for f in res.feedback if f.to == to]


def relic_at(holder: str, left: int = 3, **since: Any) -> dict[str, Any]:
    return {"holder": holder, "诅咒剩余次数": left, "since": since or {"day": 1, "by": "藏匿"}}


# ---------------------------------------------------------------------------------------------
# The shared examples, through `tracker night simulate --ruleset dnf-107 FILE --json`
# ---------------------------------------------------------------------------------------------

def _examples() -> list[dict[str, Any]]:
    data = json.loads(EXAMPLES.read_text("utf-8"))
    return [s for s in data["scenarios"] if s["game"] == "000_4699463e7e8ec455.txt"]


def _either(entry: str, got: list[str]) -> bool:
    """"X 或 Y" means exactly one of them."""
    names = [x.strip() for x in entry.split("或")]
    return sum(1 for x in names if x in got) == 1


@pytest.mark.parametrize("scenario", _examples(), ids=lambda s: s["id"])
def test_shared_example_through_the_cli(scenario: dict[str, Any], tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """Every asserted item of the shared examples' ``expected`` that the engine produces."""
    f = tmp_path / "s.json"
    f.write_text(json.dumps(scenario, ensure_ascii=False), "utf-8")
    assert main(["night", "simulate", "--ruleset", "dnf-107", str(f), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    exp = scenario["expected"]
    got_dead = [d["player"] for d in out["deaths"]]
    for d in exp["deaths"]:
        assert _either(d["player"], got_dead), (d, got_dead)
    assert len(got_dead) == len(exp["deaths"])
    for d, g in zip(exp["deaths"], out["deaths"], strict=True):
        assert g["cause"].split("（")[0] == d["cause"].split("（")[0]
    assert [s["player"] for s in out["survivals"]] == [s["player"] for s in exp["survivals"]]
    assert [(r["actor"], r["skill"]) for r in out["rejected"]] == \
        [(r["actor"], r["skill"]) for r in exp["rejected_actions"]]
    assert out["announcement"]["out_order"] == exp["announcement"]["night_out"]
    lines = out["announcement"]["lines"]
    assert f"前一天白天出局：{'、'.join(exp['announcement']['前一天白天出局'])}" in lines
    assert f"神眷者：{exp['announcement']['神眷者']}" in lines
    assert not any(line.startswith("剑痕") for line in lines) == (exp["announcement"]["剑痕"] == [])
    for fb in exp["feedback"]:
        mine = [g["content"] for g in out["feedback"] if g["to"] == fb["to"]]
        assert mine, fb
        assert any(m.split("：")[0] == fb["content"].split("：")[0] for m in mine), (fb, mine)
    assert [c["player"] for c in out["conversions"]] == [c["player"] for c in exp["conversions"]]
    assert out["tags_moved"] == exp["tags_moved"]
    relic = exp["state_after"]["亡灵圣物"]
    assert out["state_after"]["亡灵圣物"] == relic
    for key, value in exp["state_after"].items():
        if "." in key and isinstance(value, int):
            assert out["state_after"][key] == value, key
    assert (out["outcome"] is None) == (exp["win_check"] == "none")
    # resolution: the post's step numbers appear in the log in the same order
    steps = [line.split(")")[0] + ")" for line in exp["resolution"] if line.startswith("(")]
    logged = [line.split(")")[0] + ")" for line in out["log"] if line.startswith("(")]
    pos = 0
    for s in steps:
        if s in ("(11)-(13)",):
            continue
        assert s in logged[pos:], (s, logged)
        pos = logged.index(s, pos)


def test_example_n01_feedback_wording() -> None:
    """安葬<普通>：游戏日夜晚，村长选择一名已出局的角色，获知其出局时的身份。
    虔诚<强制>：……夜晚结束时，慰魂师得知亡灵阵营的存活人数。"""
    sc = _examples()[0]
    from tracker.engine.night.scenario import load
    t, acts = load(sc)
    res = settle(CAT, t, acts)
    assert told(res, "P05") == ["安葬：P21出局时的身份为村民"]
    assert told(res, "P15") == ["虔诚：亡灵阵营存活人数 1"]
    assert told(res, "P09") == ["出局通知；可以提交遗言"]
    assert res.state_after["P05.长寿"] == 0 and res.state_after["P02.偷袭"] == 0
    assert res.state_after["蓄力斩上次"] == {"target": "P09", "night": 2}
    assert res.state_after["恶徒首领P16的投票数量"].startswith("+1")


# ---------------------------------------------------------------------------------------------
# (1) 诅咒, 灵能, the immunities
# ---------------------------------------------------------------------------------------------

def test_curse_flips_a_human_holder_and_spends_one_use() -> None:
    """诅咒<强制>：游戏日夜晚开始时，若[亡灵圣物]的持有者不属于亡灵阵营，翻转其身份；<诅咒>技能的初始次数为3，
    生效后，使用次数-1。 村民[腐尸]; 翻转身份: 失去当前所有身份技能 — the 村民's own 祝福 that night fails."""
    res = run(table(state={"亡灵圣物": relic_at("P07")}), act("P07", "祝福", "P01"), act("P01", "祝福", "P01"),
              act("P04", "祝福", "P01"))
    assert [(c.player, c.role_from, c.role_to, c.faction_to) for c in res.conversions] == [("P07", "村民", "腐尸", "亡灵")]
    assert res.state_after["亡灵圣物"]["诅咒剩余次数"] == 2
    assert any("P07<祝福>" in line and "失效" in line for line in res.log)
    assert any("P01得2" in line for line in res.log)  # P07's blessing did not count


@pytest.mark.parametrize(("holder", "extra", "why"), [
    ("P12", {}, "神恩"),                                   # 神启者
    ("P15", {}, "虔诚"),                                   # 慰魂师
    ("P14", {"神眷者": "P14"}, "神眷者免疫"),                # 神眷者
])
def test_curse_immunities(holder: str, extra: dict[str, Any], why: str) -> None:
    """神恩<强制>：神启者不受<诅咒>技能影响。 虔诚<强制>：慰魂师不受<诅咒>技能影响。 神恩<强制>：神眷者免疫<诅咒>技能。"""
    res = run(table(state={"亡灵圣物": relic_at(holder), **extra}))
    assert res.conversions == []
    assert res.state_after["亡灵圣物"]["诅咒剩余次数"] == 3
    assert any(line.startswith("(1)") and why in line for line in res.log)


def test_teaching_a_temple_holder_shields_him_from_the_curse_that_night() -> None:
    """教化<普通>：游戏日白天，慰魂师选择一名角色。若该角色属于圣殿阵营，其当夜免疫诅咒……"""
    res = run(table(state={"亡灵圣物": relic_at("P10")}), act("P15", "教化", "P10", phase="day"))
    assert res.conversions == [] and res.state_after["教化上次"] == {"target": "P10", "day": 2}
    res = run(table(state={"亡灵圣物": relic_at("P07")}), act("P15", "教化", "P07", phase="day"))
    assert [c.player for c in res.conversions] == ["P07"]  # a 村民 is not 圣殿: no shield


def test_curse_at_zero_no_longer_works_and_an_undead_holder_is_not_cursed() -> None:
    """……次数为0时不再生效。 / 若[亡灵圣物]的持有者不属于亡灵阵营，翻转其身份"""
    assert run(table(state={"亡灵圣物": relic_at("P07", 0)})).conversions == []
    res = run(table(state={"亡灵圣物": relic_at("P07", 2)}, P07={"role": "腐尸", "faction": "亡灵", "原身份": "村民"}))
    assert res.conversions == [] and res.state_after["亡灵圣物"]["诅咒剩余次数"] == 2


def test_a_cursed_village_chief_is_born_evil_spirit_and_adds_a_curse() -> None:
    """村长[恶灵]；灵能<强制>：恶灵诞生时，[亡灵圣物]的<诅咒>技能次数+1。"""
    res = run(table(state={"亡灵圣物": relic_at("P05", 2)}))
    assert [(c.role_to) for c in res.conversions] == ["恶灵"]
    assert res.state_after["亡灵圣物"]["诅咒剩余次数"] == 2  # 2 −1 (诅咒) +1 (灵能)
    assert res.state_after["P05.原身份"] == "村长"


# ---------------------------------------------------------------------------------------------
# 祝福 and 恩典
# ---------------------------------------------------------------------------------------------

def test_blessing_protects_the_single_most_blessed_once() -> None:
    """祝福：若某位角色得到的<祝福>比其他角色都要多且至少为2，该角色当晚免疫一次[致死伤害]。
    致死伤害结算流程（2）如果该角色当夜受到<祝福>作用，此次致死伤害无效，<祝福>效应终止。"""
    res = run(table(), act("P01", "祝福", "P11"), act("P04", "祝福", "P11"), act("P07", "祝福", "P03"),
              act("P06", "突击", "P11"), act("P02", "偷袭", "P11"))
    assert [s.player for s in res.survivals] == ["P11"]
    assert dead(res) == ["P11"]  # the second damage finds the blessing spent
    assert res.state_after["祝福上次"] == {"target": "P11", "night": 2}


def test_a_blessing_tie_protects_nobody() -> None:
    """（若同一夜同时有多位角色获得同样多的祝福，当晚无人能受到祝福的庇佑。）"""
    res = run(table(), act("P01", "祝福", "P11"), act("P04", "祝福", "P11"), act("P07", "祝福", "P03"),
              act("P14", "祝福", "P03"), act("P06", "突击", "P11"))
    assert dead(res) == ["P11"] and res.survivals == []
    assert "祝福上次" not in res.state_after


def test_no_blessing_effect_two_nights_running() -> None:
    """同一名角色不能连续两夜受到<祝福>效果影响。 (The submission stands; the effect does not apply.)"""
    t = table(night=3, state={"祝福上次": {"target": "P11", "night": 2}})
    res = run(t, act("P01", "祝福", "P11"), act("P04", "祝福", "P11"), act("P06", "突击", "P11"))
    assert res.rejected == [] and dead(res) == ["P11"]
    t = table(night=4, state={"祝福上次": {"target": "P11", "night": 2}})
    res = run(t, act("P01", "祝福", "P11"), act("P04", "祝福", "P11"), act("P06", "突击", "P11"))
    assert dead(res) == []


def test_grace_tells_the_blesser_and_the_prophet_learns_the_first() -> None:
    """恩典<普通>：若村民祝福对象为神启者时，将得到反馈“神启者”；神启者会得知第一个对其使用祝福的村民。"""
    res = run(table(), act("P04", "祝福", "P12"), act("P01", "祝福", "P12"))
    assert told(res, "P04") == ["恩典：神启者"] and told(res, "P01") == ["恩典：神启者"]
    assert told(res, "P12") == ["恩典：第一个对你使用祝福的村民是P04"]
    assert res.state_after["恩典首次"] == {"player": "P04", "night": 2}
    again = run(table(state={"恩典首次": {"player": "P04", "night": 2}}, night=3), act("P01", "祝福", "P12"))
    assert told(again, "P12") == []


# ---------------------------------------------------------------------------------------------
# 剑士: 蓄力斩, 剑痕, 防反
# ---------------------------------------------------------------------------------------------

def test_charged_slash_once_every_two_nights() -> None:
    """蓄力斩<普通>：……此技能每两个游戏日夜晚可发动一次"""
    res = run(table(night=3, state={"蓄力斩上次": {"target": "P09", "night": 2}}), act("P03", "蓄力斩", "P02"))
    assert [(r.actor, r.skill) for r in res.rejected] == [("P03", "蓄力斩")] and dead(res) == []
    res = run(table(night=4, state={"蓄力斩上次": {"target": "P09", "night": 2}}), act("P03", "蓄力斩", "P02"))
    assert dead(res) == ["P02"]


def test_sword_scar_is_announced_unless_the_slash_was_used() -> None:
    """剑痕<普通>：……次日该留言将被导演公告。 蓄力斩：发动此技能的当夜，剑士发动的<剑痕>失效。"""
    res = run(table(), act("P03", "剑痕", choice="今夜剑鸣"))
    assert "剑痕：今夜剑鸣" in res.lines
    res = run(table(), act("P03", "剑痕", choice="今夜剑鸣"), act("P03", "蓄力斩", "P02"))
    assert not any(x.startswith("剑痕") for x in res.lines)


def test_counter_passes_the_damage_on_and_is_spent() -> None:
    """防反<普通>：……若该夜剑士受到一次[致死伤害]时，该角色代替剑士承担这次伤害。防反生效后，剑士失去此技能。
    致死伤害结算流程（3）……改为对<防反>目标结算致死伤害，<防反>消耗。"""
    res = run(table(), act("P03", "防反", "P02"), act("P06", "突击", "P03"), act("P18", "突击", "P03"))
    assert dead(res) == ["P02", "P03"]  # the first damage goes to P02, the second finds 防反 spent
    assert res.state_after["P03.防反"] == 0
    assert [d.cause for d in res.deaths] == ["突击（P06）", "突击（P18）"]


# ---------------------------------------------------------------------------------------------
# 游荡者: 探查, 陷阱, 潜行
# ---------------------------------------------------------------------------------------------

def test_scout_learns_a_faction_or_takes_the_relic() -> None:
    """探查：1.获知该角色当前阵营。 2.若该角色持有[亡灵圣物]，获得之。当游荡者以此法获得[亡灵圣物]时，将得到导演通知。"""
    res = run(table(), act("P10", "探查", "P13", choice="效果1"))
    assert told(res, "P10") == ["探查：P13当前属于环蛇阵营"]
    res = run(table(state={"亡灵圣物": relic_at("P19", 2)}, P19={"role": "腐尸", "faction": "亡灵"}),
              act("P10", "探查", "P19", choice="效果2"))
    assert [(m.tag, m.from_player, m.to_player, m.via) for m in res.tags_moved] == [("亡灵圣物", "P19", "P10", "探查")]
    assert res.state_after["亡灵圣物"]["holder"] == "P10"
    assert told(res, "P10") == ["探查：你从P19处获得了[亡灵圣物]"]


def test_trap_strikes_when_the_wanderer_goes_out_at_night() -> None:
    """陷阱<普通>：……当游荡者在该夜受到致死伤害……后，对其造成一次[致死伤害]。
    当角色出局后，如果该角色发动了<陷阱>，则<陷阱>的目标立即受到一次致死伤害。 公示出局名单时按技能结算的顺序排序。"""
    res = run(table(), act("P10", "陷阱", "P20"), act("P02", "偷袭", "P10"))
    assert res.out_order == ["P10", "P20"]
    assert [d.cause for d in res.deaths] == ["偷袭（P02）", "陷阱（P10）"]
    res = run(table(), act("P10", "陷阱", "P20"), act("P01", "祝福", "P10"), act("P04", "祝福", "P10"),
              act("P02", "偷袭", "P10"))
    assert dead(res) == []  # the wanderer did not go out: the trap stays shut


def test_stealth_blocks_every_effect_and_voids_the_wanderers_other_skills() -> None:
    """潜行<限定>：游戏日夜晚，游荡者可以发动此技能：当晚游荡者不受任何其他角色的技能效果影响；
    发动<潜行>的夜晚游荡者发动其他技能失效。"""
    res = run(table(state={"亡灵圣物": relic_at("P10")}), act("P15", "教化", "P10", phase="day"),
              act("P10", "潜行"), act("P13", "诈骗", "P10"), act("P06", "突击", "P10"), act("P12", "神启", "P10"),
              act("P10", "陷阱", "P02"))
    assert res.state_after["P10.潜行"] == 0
    assert dead(res) == [] and [s.player for s in res.survivals] == ["P10"]
    assert "亡灵圣物" not in [m.tag for m in res.tags_moved]  # 诈骗 cannot touch him
    assert res.state_after["P06.突击"] == 0  # 突击 was 发动, then had no effect
    assert any("P10<陷阱>" in line and "失效" in line for line in res.log)
    assert any("P12<神启>" in line and "无效" in line for line in res.log)


def test_a_cursed_wanderer_has_lost_stealth() -> None:
    """翻转身份：……失去当前所有身份技能，失去的技能效果全部终止 — (1) 诅咒 comes before (2) 潜行."""
    res = run(table(state={"亡灵圣物": relic_at("P10")}), act("P10", "潜行"), act("P06", "突击", "P10"))
    assert [c.role_to for c in res.conversions] == ["腐尸"]
    assert dead(res) == ["P10"] and "P10.潜行" not in res.state_after


# ---------------------------------------------------------------------------------------------
# 牵制 (a day skill that acts on the night)
# ---------------------------------------------------------------------------------------------

def test_restraint_voids_the_targets_ordinary_and_limited_skills_that_night() -> None:
    """牵制<团队><普通>：游戏日白天，所有民兵共同选择一名角色，该角色当晚发动的非团队的<普通>和<限定>技能无效"""
    res = run(table(), act("P06+P18", "牵制", "P02", phase="day"), act("P02", "偷袭", "P05"),
              act("P08", "流言", "P01"))
    assert dead(res) == [] and res.survivals == []
    assert res.state_after["P02.偷袭"] == 0  # 发动, but 无效
    assert res.state_after["牵制上次"] == {"target": "P02", "day": 2}
    assert "流言：P01被公告记有2票" in res.lines


def test_restraint_at_most_once_every_two_days() -> None:
    """<牵制>每两个游戏日最多发动一次。"""
    t = table(state={"牵制上次": {"target": "P02", "day": 1}})
    res = run(t, act("P06+P18", "牵制", "P09", phase="day"))
    assert [(r.actor, r.skill) for r in res.rejected] == [("P06+P18", "牵制")]
    t = table(night=3, state={"牵制上次": {"target": "P02", "day": 1}})
    assert run(t, act("P06+P18", "牵制", "P09", phase="day")).rejected == []


# ---------------------------------------------------------------------------------------------
# 告死者: 告死, 死灵咒, 不朽; 血族 初拥
# ---------------------------------------------------------------------------------------------

UNDEAD_TABLE = {"P15": {"role": "告死者", "faction": "亡灵", "原身份": "慰魂师"},
                "P08": {"role": "血族", "faction": "亡灵", "原身份": "贵族"}}


def test_reaper_is_immune_and_sees_who_is_about_to_go_out() -> None:
    """不朽<强制>：告死者不会因为[致死伤害]出局。 告死<强制>：告死者获得每个游戏日夜晚的即将出局者名单。
    （11）初步结算致死伤害和出局效应。告死者得到<告死>反馈。"""
    res = run(table(state={"告死者": "P15"}, **UNDEAD_TABLE), act("P06", "突击", "P15"), act("P02", "偷袭", "P01"),
              act("P03", "蓄力斩", "P05"))
    assert dead(res) == ["P01"] and [s.player for s in res.survivals] == ["P15", "P05"]
    # the list is the one after check (4): the 村长 is on it though <长寿> later saves him
    assert told(res, "P15") == ["告死：即将出局者名单：P05、P01"]


def test_necromancy_turns_a_listed_human_instead_of_his_exit() -> None:
    """死灵咒<限定>：告死者选择一名在当晚出局的角色：若其属于人类，则该角色不出局并翻转其身份。
    致死伤害结算流程（5）如果该角色属于人类，且当夜成为<死灵咒>目标，该角色不出局且翻转身份。"""
    res = run(table(state={"告死者": "P15"}, **UNDEAD_TABLE), act("P02", "偷袭", "P01"), act("P15", "死灵咒", "P01"))
    assert dead(res) == [] and [(c.player, c.role_to, c.cause) for c in res.conversions] == [("P01", "腐尸", "死灵咒")]
    assert res.state_after["P15.死灵咒"] == 0


def test_necromancy_on_someone_not_about_to_go_out_is_refused() -> None:
    """死灵咒<限定>：告死者选择一名在当晚出局的角色"""
    res = run(table(state={"告死者": "P15"}, **UNDEAD_TABLE), act("P02", "偷袭", "P01"), act("P15", "死灵咒", "P04"))
    assert [(r.actor, r.skill) for r in res.rejected] == [("P15", "死灵咒")] and dead(res) == ["P01"]


def test_embrace_turns_a_human_and_kills_an_undead() -> None:
    """初拥<限定>：……对其造成一次[致死伤害]：若该角色属于人类且因将这次[致死伤害]出局，该角色不出局并翻转其身份。
    致死伤害结算流程（4）。"""
    res = run(table(**UNDEAD_TABLE), act("P08", "初拥", "P13"))
    assert dead(res) == [] and [(c.player, c.role_to) for c in res.conversions] == [("P13", "恶灵")]
    res = run(table(P19={"role": "腐尸", "faction": "亡灵"}, **UNDEAD_TABLE), act("P08", "初拥", "P19"))
    assert dead(res) == ["P19"]
    # a blessing comes first in the flow: blessed, the human is neither out nor turned
    res = run(table(**UNDEAD_TABLE), act("P01", "祝福", "P13"), act("P04", "祝福", "P13"), act("P08", "初拥", "P13"))
    assert dead(res) == [] and res.conversions == []


# ---------------------------------------------------------------------------------------------
# 长寿, 夜之隐, 偷袭, 啃咬/集群, 夜之牙
# ---------------------------------------------------------------------------------------------

def test_longevity_and_night_veil_absorb_only_the_first_damage() -> None:
    """长寿<强制>：村长免疫自身受到的第一次致死伤害。 夜之隐：锁定，守夜人免疫自身受到的第一次致死伤害。"""
    res = run(table(), act("P06", "突击", "P05"), act("P18", "突击", "P17"), act("P02", "偷袭", "P05"))
    assert dead(res) == ["P05"] and [s.player for s in res.survivals] == ["P05", "P17"]
    assert res.state_after["P17.夜之隐"] == 0 and res.state_after["长寿上次"] == {"night": 2}
    res = run(table(P05={"uses": {"长寿": 0}}), act("P06", "突击", "P05"))
    assert dead(res) == ["P05"]


def test_sneak_attack_once_a_night_for_all_thugs() -> None:
    """偷袭<限定>：……<偷袭>每晚仅限发动一次。"""
    res = run(table(), act("P02", "偷袭", "P05"), act("P09", "偷袭", "P01"))
    assert [(r.actor, r.skill) for r in res.rejected] == [("P09", "偷袭")]
    assert res.state_after["P02.偷袭"] == 0 and "P09.偷袭" not in res.state_after


def test_bite_once_and_twice_with_three_walking_dead() -> None:
    """啃咬<团队>：游戏日夜晚，选择一名角色，对其造成一次[致死伤害]。
    集群<强制>：当存活的活尸数量大于等于3时，每晚可额外发动一次<啃咬>。"""
    two = {"P02": {"role": "活尸", "faction": "亡灵"}, "P09": {"role": "活尸", "faction": "亡灵"}}
    res = run(table(**two), act("P02+P09", "啃咬", "P01"), act("P02+P09", "啃咬", "P04"))
    assert dead(res) == ["P01"] and [(r.skill) for r in res.rejected] == ["啃咬"]
    three = {**two, "P20": {"role": "活尸", "faction": "亡灵"}}
    res = run(table(**three), act("P02+P09+P20", "啃咬", "P01"), act("P02+P09+P20", "啃咬", "P04"))
    assert dead(res) == ["P01", "P04"] and [d.cause for d in res.deaths] == ["啃咬（活尸）", "啃咬（活尸）"]


def test_prophet_killed_by_the_undead_adds_a_curse() -> None:
    """神恩<强制>：……当神启者被亡灵阵营角色击杀时，亡灵圣物诅咒次数+1"""
    walking = {"P02": {"role": "活尸", "faction": "亡灵"}, "P19": {"role": "腐尸", "faction": "亡灵"}}
    res = run(table(state={"亡灵圣物": relic_at("P19", 1)}, **walking), act("P02", "啃咬", "P12"))
    assert dead(res) == ["P12"] and res.state_after["亡灵圣物"]["诅咒剩余次数"] == 2
    res = run(table(state={"亡灵圣物": relic_at("P19", 1)}, **walking), act("P06", "突击", "P12"))
    assert res.state_after["亡灵圣物"]["诅咒剩余次数"] == 1


def test_night_fang_needs_a_dead_undead() -> None:
    """夜之牙：普通：游戏日夜晚，夜行怪选择一名已出局的角色和一名存活角色，若已出局角色属于亡灵阵营，
    则对你选择的存活角色造成一次【致死伤害】。"""
    seats = {"P17": {"role": "夜行怪", "faction": "亡灵", "原身份": "守夜人"},
             "P19": {"role": "腐尸", "faction": "亡灵", "alive": False}, "P21": {"alive": False}}
    assert dead(run(table(**seats), act("P17", "夜之牙", "P19", "P01"))) == ["P01"]
    assert dead(run(table(**seats), act("P17", "夜之牙", "P21", "P01"))) == []
    res = run(table(**seats), act("P17", "夜之牙", "P01", "P19"))
    assert [(r.actor, r.skill) for r in res.rejected] == [("P17", "夜之牙")]


# ---------------------------------------------------------------------------------------------
# The relic: 诈骗, 馈赠, 灾厄, 认主; 神眷者 传承; 恶徒首领
# ---------------------------------------------------------------------------------------------

def test_swindle_takes_the_relic_from_one_of_two() -> None:
    """诈骗<限定>：游戏日夜晚，学者选择至多2名角色：若这些角色之一持有[亡灵圣物]，获得之。当学者以此法获得[亡灵圣物]时，将得到导演通知。"""
    res = run(table(state={"亡灵圣物": relic_at("P19", 2)}, P19={"role": "腐尸", "faction": "亡灵"}),
              act("P13", "诈骗", "P01", "P19"))
    assert res.state_after["亡灵圣物"]["holder"] == "P13" and told(res, "P13") == ["诈骗：你获得了[亡灵圣物]"]
    assert res.state_after["P13.诈骗"] == 0


def test_gift_passes_the_relic_of_a_fallen_holder_at_random() -> None:
    """馈赠<强制>：若[亡灵圣物]的持有者出局，导演将随机一名角色，该角色获得[亡灵圣物]。"""
    t = table(state={"亡灵圣物": relic_at("P07", 0)})
    a = run(t, act("P06", "突击", "P07"), seed=3)
    b = run(t, act("P06", "突击", "P07"), seed=3)
    assert a.to_json() == b.to_json()
    q = next(q for q in a.questions if q.key == "馈赠")
    assert "P07" not in q.options and a.state_after["亡灵圣物"]["holder"] == q.taken
    d = run(t, act("P06", "突击", "P07"), decisions={"馈赠": "P11"})
    assert d.state_after["亡灵圣物"]["holder"] == "P11" and told(d, "P11") == ["馈赠：你获得了[亡灵圣物]"]


def test_calamity_lets_an_undead_holder_pass_the_relic() -> None:
    """灾厄<普通>：在游戏日夜晚结束时，若[亡灵圣物]的持有者属于亡灵阵营，其将得到导演通知，得知存活角色名单并可以将[亡灵圣物]转交给场上任意一名角色。"""
    res = run(table(state={"亡灵圣物": relic_at("P19", 2)}, P19={"role": "腐尸", "faction": "亡灵"}),
              act("P19", "灾厄", "P03"))
    assert res.state_after["亡灵圣物"] == {"holder": "P03", "诅咒剩余次数": 2}
    assert [m.via for m in res.tags_moved] == ["灾厄"]
    res = run(table(state={"亡灵圣物": relic_at("P14", 2), "神眷者": "P14"}), act("P14", "灾厄", "P03"))
    assert res.tags_moved == []  # a human holder has no <灾厄> to use


def test_mastery_after_two_complete_nights_wins_for_the_temple() -> None:
    """认主<强制>：当某个角色以人类身份持有[亡灵圣物]连续度过两个完整的夜晚时，将得到导演通知，[亡灵圣物]认其为主。
    圣殿阵营 胜：亡灵圣物认主圣殿阵营角色"""
    t = table(night=3, state={"亡灵圣物": relic_at("P10", 2, night=2, by="探查")}, P15={"uses": {"超度": 1}})
    res = run(t, act("P15", "教化", "P10", phase="day"))
    assert res.outcome is None and any("尚未认主" in line for line in res.log)
    t = table(night=4, state={"亡灵圣物": relic_at("P10", 2, night=2, by="探查")})
    res = run(t, act("P15", "教化", "P10", phase="day"))
    assert told(res, "P10") == ["认主：[亡灵圣物]认你为主"]
    assert res.outcome is not None and res.outcome.winner == "圣殿"


def test_mastery_counts_from_the_end_of_day_one_for_the_hidden_relic() -> None:
    """藏匿：游戏第一日白天结束时…… + 认主：连续度过两个完整的夜晚 — nights 1 and 2 are complete; 环蛇 wins."""
    t = table(state={"亡灵圣物": relic_at("P08", 3, day=1, by="藏匿")})  # 贵族 held it (curse: 3→2, 血族)
    res = run(t)
    assert [c.role_to for c in res.conversions] == ["血族"] and res.outcome is None
    t = table(state={"亡灵圣物": relic_at("P13", 0, day=1, by="藏匿")})
    res = run(t)
    assert res.outcome is not None and res.outcome.winner == "环蛇"


def test_inheritance_of_the_chosen_and_the_prophet_cannot_take_it() -> None:
    """传承<强制>：当神眷者出局时，其得知存活角色名单并选择一名角色，该角色成为神眷者。
    神恩<强制>：……神启者不能成为神眷者，当神启者成为神眷者时，神眷者消失。"""
    t = table(state={"神眷者": "P14"})
    res = run(t, act("P06", "突击", "P14"), act("P14", "传承", "P04"))
    assert [(m.tag, m.from_player, m.to_player) for m in res.tags_moved] == [("神眷者", "P14", "P04")]
    assert "神眷者：P04" in res.lines and told(res, "P04") == ["传承：你成为神眷者"]
    res = run(t, act("P06", "突击", "P14"), act("P14", "传承", "P12"))
    assert res.state_after["神眷者"] is None and "神眷者：无" in res.lines


def test_each_fallen_thug_adds_a_vote_to_the_leader() -> None:
    """首领技能：2.每出局一名恶徒，恶徒首领的投票数量+1"""
    t = table(night=3, P09={"alive": False, "出局": {"night": 2, "cause": "蓄力斩"}})
    res = run(t, act("P06", "突击", "P20"))
    assert res.state_after["恶徒首领P16的投票数量"].startswith("+2")

"""107 地下城与勇士: the night's steps (1)–(17), the day's (18)–(20) and the 致死伤害结算流程.

Each test narrates one night (or day) of the 21-seat table the shared examples use and cites, in
its docstring, the sentence of the rule post it proves. The two shared examples run through the
command line exactly as a director would run them.
"""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tracker.cli import main
from tracker.engine.night import load_catalog, settle
from tracker.engine.night.catalog import NIGHT_DIR, parse_catalog
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
    assert any(line.startswith("剑痕") for line in lines) == bool(exp["announcement"]["剑痕"])
    for fb in exp["feedback"]:
        mine = [g["content"] for g in out["feedback"] if g["to"] == fb["to"]]
        assert mine, fb
        assert any(m.split("：")[0] == fb["content"].split("：")[0] for m in mine), (fb, mine)
    assert [c["player"] for c in out["conversions"]] == [c["player"] for c in exp["conversions"]]
    assert out["tags_moved"] == exp["tags_moved"]
    relic = exp["state_after"]["亡灵圣物"]
    assert {k: out["state_after"]["亡灵圣物"][k] for k in relic} == relic
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
        pos = logged.index(s, pos) + 1


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
    生效后，使用次数-1。 村民[腐尸]; 翻转身份: 失去当前所有身份技能 — the 村民's own 祝福 that night is refused."""
    res = run(table(state={"亡灵圣物": relic_at("P07")}), act("P07", "祝福", "P01"), act("P01", "祝福", "P01"),
              act("P04", "祝福", "P01"))
    assert [(c.player, c.role_from, c.role_to, c.faction_to) for c in res.conversions] == [("P07", "村民", "腐尸", "亡灵")]
    assert res.state_after["亡灵圣物"]["诅咒剩余次数"] == 2
    assert [(r.actor, r.skill, r.reason) for r in res.rejected] == [("P07", "祝福", "P07（腐尸）没有技能<祝福>")]
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


def test_a_noble_cursed_at_night_start_embraces_as_a_vampire_that_night() -> None:
    """诅咒<强制>：游戏日夜晚开始时……翻转其身份 / 2、进入夜晚，所有身份选择发动技能。（1）结算<诅咒>。
    贵族[血族]: the new identity's skills (初拥) are chosen after (1)."""
    res = run(table(state={"亡灵圣物": relic_at("P08", 3)}), act("P08", "初拥", "P01"), act("P08", "流言", "P04"))
    assert [c.role_to for c in res.conversions] == ["血族", "腐尸"]
    assert res.rejected == [] and res.state_after["P08.初拥"] == 0
    assert "流言：P04被公告记有2票" in res.lines


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


def test_one_villager_blessing_twice_counts_once() -> None:
    """祝福<普通>：游戏日夜晚，村民选择一名角色 — one 村民 chooses one: his last submission counts, so one 村民
    cannot make the "至少为2" alone (before: each submission was counted, and P11 survived)."""
    res = run(table(), act("P01", "祝福", "P11"), act("P01", "祝福", "P11"), act("P06", "突击", "P11"))
    assert dead(res) == ["P11"] and res.survivals == [] and "祝福上次" not in res.state_after


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


def test_grace_is_the_villagers_not_a_scholars_who_rubbed_blessing() -> None:
    """恩典<普通>：若村民祝福对象为神启者时…… — a 学者 who took <祝福> by 拓印 ("获得一个技能") holds no <恩典>: his
    blessing of the 神启者 is told nothing and is not the first 村民's (before, the hook read every <祝福>)."""
    t = table(P13={"role": "学者", "faction": "环蛇", "uses": {"祝福": True}})
    res = run(t, act("P13", "祝福", "P12"), act("P04", "祝福", "P12"))
    assert told(res, "P13") == [] and told(res, "P04") == ["恩典：神启者"]
    assert told(res, "P12") == ["恩典：第一个对你使用祝福的村民是P04"]
    assert res.state_after["恩典首次"] == {"player": "P04", "night": 2}


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


def test_restraint_is_the_nights_first_block_for_hook_and_data_steps_alike() -> None:
    """牵制 is a ``block`` (``kinds`` 普通/限定, ``spends``) settled before (1): the (2) hook's <潜行> (限定) and the
    data's <探查> (普通) of the restrained 游荡者 are both refused in the block's words, 潜行's use spent."""
    res = run(table(), act("P06+P18", "牵制", "P10", phase="day"), act("P10", "潜行"), act("P10", "探查", "P02"))
    why = "P10被民兵<牵制>（P06+P18），当晚非团队的<普通>和<限定>技能无效"
    assert [(r.skill, r.reason) for r in res.rejected] == [("潜行", why), ("探查", why)]
    assert res.state_after["P10.潜行"] == 0 and told(res, "P10") == []


def test_a_block_refusal_names_the_refused_skill_on_hook_steps_too() -> None:
    """``refuses`` fills ``{skill}`` with the refused skill's name (docs/ruleset.md). The hook step's path (<潜行>)
    left it as the literal "{skill}" while the engine's own (<探查>) filled it: one wording now, ``Pool.refusal``."""
    import tomllib

    data = tomllib.loads((NIGHT_DIR / "dnf-107.toml").read_text("utf-8"))
    (restrain,) = [s for s in data["skills"] if s["name"] == "牵制"]
    restrain["effects"][0]["refuses"] = "{target}被民兵<牵制>（{actor}），<{skill}>无效"
    cat = parse_catalog(data, "dnf-107.toml", tuple(r.name for r in RS.roles))
    acts = [act("P06+P18", "牵制", "P10", phase="day"), act("P10", "潜行"), act("P10", "探查", "P02")]
    res = settle(cat, table(), [replace(a, index=i) for i, a in enumerate(acts)])
    assert [(r.skill, r.reason) for r in res.rejected] == [
        ("潜行", "P10被民兵<牵制>（P06+P18），<潜行>无效"), ("探查", "P10被民兵<牵制>（P06+P18），<探查>无效")]


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


def test_embrace_is_one_use_the_last_submission_counts() -> None:
    """初拥<限定>: one use — a 血族 who sends it twice in a night turns one player, the last one he named
    (以最后一条私信为准, as for every data skill: 突击, 偷袭), not both."""
    res = run(table(**UNDEAD_TABLE), act("P08", "初拥", "P13"), act("P08", "初拥", "P14"))
    assert dead(res) == [] and [(c.player, c.cause) for c in res.conversions] == [("P14", "初拥")]


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


def test_a_player_outside_the_walking_dead_cannot_bite_with_them() -> None:
    """啃咬<团队>: the 活尸's. The attack: a 村民 (P01) writes himself into the team's submission beside a real 活尸,
    so the bite is his too (a cause read by its members: 神恩, 村镇之殇-like triggers). Before, a game with a
    ``refuse`` hook skipped the generic membership check and the bite went through with him in it."""
    two = {"P02": {"role": "活尸", "faction": "亡灵"}, "P09": {"role": "活尸", "faction": "亡灵"}}
    res = run(table(**two), act("P02+P01", "啃咬", "P04"))
    assert dead(res) == [] and [r.skill for r in res.rejected] == ["啃咬"]
    assert "P01（村民）不是活尸的成员" in res.rejected[0].reason
    assert dead(run(table(**two), act("P02+P09", "啃咬", "P04"))) == ["P04"]


def test_prophet_killed_by_the_undead_adds_a_curse() -> None:
    """神恩<强制>：……当神启者被亡灵阵营角色击杀时，亡灵圣物诅咒次数+1"""
    walking = {"P02": {"role": "活尸", "faction": "亡灵"}, "P19": {"role": "腐尸", "faction": "亡灵"}}
    res = run(table(state={"亡灵圣物": relic_at("P19", 1)}, **walking), act("P02", "啃咬", "P12"))
    assert dead(res) == ["P12"] and res.state_after["亡灵圣物"]["诅咒剩余次数"] == 2
    res = run(table(state={"亡灵圣物": relic_at("P19", 1)}, **walking), act("P06", "突击", "P12"))
    assert res.state_after["亡灵圣物"]["诅咒剩余次数"] == 1


def test_prophet_taken_along_by_a_rotting_corpse_adds_a_curse() -> None:
    """神恩："当神启者被亡灵阵营角色击杀时，亡灵圣物诅咒次数+1" — by whichever skill of an 亡灵, at night or by day:
    the 腐尸's <腐化> "该角色同腐尸一起出局" (before: only the night's 致死伤害结算流程 counted it)."""
    seats = {"P19": {"role": "腐尸", "faction": "亡灵", "原身份": "村民"}, "P20": {"role": "活尸", "faction": "亡灵"}}
    res = run(day(3, state={"亡灵圣物": relic_at("P20", 1)}, **seats), act("P19", "腐化", "P12"),
              act("放逐投票", "投票出局", "P19"))
    assert dead(res) == ["P19", "P12"] and res.state_after["亡灵圣物"]["诅咒剩余次数"] == 2
    res = run(day(3, state={"亡灵圣物": relic_at("P20", 1)}, **seats), act("放逐投票", "投票出局", "P12"))
    assert dead(res) == ["P12"] and "亡灵圣物" not in res.state_after  # the vote is nobody's skill


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


def test_swindle_does_not_reach_a_hidden_wanderer_among_its_targets() -> None:
    """潜行："当晚游荡者不受任何其他角色的技能效果影响" — of 诈骗's two targets, the 游荡者 under 潜行 keeps the relic
    (the other target is still reached: the use is spent)."""
    t = table(state={"亡灵圣物": relic_at("P10", 0)})  # no curse left: P10 stays a 游荡者
    res = run(t, act("P10", "潜行"), act("P13", "诈骗", "P01", "P10"))
    assert res.tags_moved == [] and told(res, "P13") == [] and res.state_after["P13.诈骗"] == 0
    res = run(t, act("P13", "诈骗", "P01", "P10"))
    assert res.state_after["亡灵圣物"]["holder"] == "P13"


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
    assert res.state_after["亡灵圣物"] == {"holder": "P03", "诅咒剩余次数": 2, "since": {"night": 2, "by": "灾厄"}}
    assert [m.via for m in res.tags_moved] == ["灾厄"]
    res = run(table(state={"亡灵圣物": relic_at("P14", 2), "神眷者": "P14"}), act("P14", "灾厄", "P03"))
    assert res.tags_moved == []  # a human holder has no <灾厄> to use


def test_calamity_tells_the_undead_holder_the_living_and_meets_the_nights_voids() -> None:
    """灾厄 "其将得到导演通知，得知存活角色名单" (the (15) tell, submitted or not); it is a <普通> skill, so
    <牵制> "该角色当晚发动的非团队的<普通>和<限定>技能无效" voids it, and a holder the relic left before (15) (馈赠)
    has no <灾厄> any more."""
    undead = {"P19": {"role": "腐尸", "faction": "亡灵"}}
    res = run(table(state={"亡灵圣物": relic_at("P05", 2)}, n=5, P05={"role": "腐尸", "faction": "亡灵"},
                    P02={"alive": False}))
    assert [f for f in told(res, "P05") if f.startswith("灾厄")] == [
        "灾厄：存活角色名单：P01、P03、P04、P05；可以将[亡灵圣物]转交给场上任意一名角色"]
    human = run(table(state={"亡灵圣物": relic_at("P14", 2), "神眷者": "P14"}))  # immune to the curse: stays human
    assert not any(f.startswith("灾厄") for f in told(human, "P14"))
    held = run(table(state={"亡灵圣物": relic_at("P19", 2)}, **undead), act("P06+P18", "牵制", "P19", phase="day"),
               act("P19", "灾厄", "P03"))
    assert held.tags_moved == [] and [r.skill for r in held.rejected] == ["灾厄"]
    gone = run(table(state={"亡灵圣物": relic_at("P19", 2)}, **undead), act("P06", "突击", "P19"),
               act("P19", "灾厄", "P03"), decisions={"馈赠": "P04"})
    assert [(m.to_player, m.via) for m in gone.tags_moved] == [("P04", "馈赠")]


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


# ---------------------------------------------------------------------------------------------
# 神启者, 学者, 慰魂师, 贵族, 守夜人: information and conversion skills
# ---------------------------------------------------------------------------------------------

def test_holy_revelation_turns_an_undead_back_without_skills() -> None:
    """圣光天启<限定>：游戏日夜晚，神启者选择一名角色：若该角色属于亡灵阵营，其翻转身份并失去所有技能。"""
    res = run(table(P08={"role": "血族", "faction": "亡灵", "原身份": "贵族"}), act("P12", "圣光天启", "P08"),
              act("P08", "初拥", "P01"))
    assert [(c.player, c.role_to, c.faction_to) for c in res.conversions] == [("P08", "贵族", "环蛇")]
    assert dead(res) == [] and res.state_after["P08.技能"].startswith("全部失去")
    assert any("P08<初拥>" in line and "失效" in line for line in res.log)
    res = run(table(), act("P12", "圣光天启", "P08"))
    assert res.conversions == [] and res.state_after["P12.圣光天启"] == 0


def test_revelation_shows_the_targets_skills_and_their_feedback() -> None:
    """神启<普通>：游戏日夜晚，神启者选择一名角色，获知该角色当晚发动的所有非团队且非锁定技能以及这些技能对应的反馈。"""
    res = run(table(P21={"alive": False}), act("P12", "神启", "P05"), act("P05", "安葬", "P21"))
    assert told(res, "P12") == ["神启：P05当晚发动的技能：安葬；反馈：安葬：P21出局时的身份为村民"]
    res = run(table(), act("P12", "神启", "P06"), act("P06+P18", "牵制", "P02", phase="day"))
    assert told(res, "P12") == ["神启：P06当晚发动的技能：无"]


def test_rubbing_two_humans_learns_their_skills_and_takes_one() -> None:
    """拓印<限定>：……若两名角色属于人类，获知两名角色所有非<团队>的身份技能，并选择其中一个，获得之；
    ……<拓印>发动的当晚学者发动其他技能失效。"""
    res = run(table(state={"亡灵圣物": relic_at("P19", 2)}, P19={"role": "腐尸", "faction": "亡灵"}),
              act("P13", "拓印", "P01", "P03", choice="蓄力斩"), act("P13", "诈骗", "P19"))
    fb = told(res, "P13")
    assert fb[0].startswith("拓印：P01的身份技能：祝福、恩典；P03的身份技能：蓄力斩、防反、剑痕、灵魂链接")
    assert "拓印：你获得了<蓄力斩>" in fb
    assert res.state_after["P13.拓印获得"] == "蓄力斩"
    assert res.state_after["亡灵圣物"]["holder"] == "P19"  # 诈骗 failed that night (but is spent)
    assert res.state_after["P13.诈骗"] == 0


def test_rubbing_undead_flips_the_scholar() -> None:
    """拓印：……若一名角色属于人类一名角色属于亡灵，则学者可选择获得人类角色的一个非<团队>技能或翻转自身身份；
    若两名角色均属于亡灵阵营，学者翻转身份"""
    und = {"P19": {"role": "腐尸", "faction": "亡灵"}, "P20": {"role": "活尸", "faction": "亡灵"}}
    res = run(table(**und), act("P13", "拓印", "P19", "P20"))
    assert [(c.player, c.role_to) for c in res.conversions] == [("P13", "恶灵")]
    res = run(table(**und), act("P13", "拓印", "P19", "P01", choice="翻转"))
    assert [(c.player, c.role_to) for c in res.conversions] == [("P13", "恶灵")]
    res = run(table(**und), act("P13", "拓印", "P19", "P01", choice="祝福"))
    assert res.conversions == [] and res.state_after["P13.拓印获得"] == "祝福"


def test_a_rubbed_skill_is_used_later_and_settled_after_the_original() -> None:
    """学者拓印的技能在原版之后结算。 如果学者拓印了流言/剑痕，则公示时原版在先。"""
    t = table(night=4, P13={"uses": {"流言": True, "诈骗": 1}})
    res = run(t, act("P13", "流言", "P03"), act("P08", "流言", "P01"))
    assert [x for x in res.lines if x.startswith("流言")] == ["流言：P01被公告记有2票", "流言：P03被公告记有2票"]


def test_a_copied_strike_settles_after_the_militias_own() -> None:
    """学者拓印的技能在原版之后结算。 公示出局名单时按技能结算的顺序排序。 — the 学者's <突击>, sent first,
    deals its damage after the 民兵's (before: in the order they were sent)."""
    t = table(P13={"uses": {"突击": 1, "诈骗": 1}})
    res = run(t, act("P13", "突击", "P02"), act("P06", "突击", "P04"))
    assert res.out_order == ["P04", "P02"] and "夜晚出局：P04、P02" in res.lines


def test_the_mornings_other_lines_follow_the_outs_and_the_chosen_one_in_settlement_order() -> None:
    """每个游戏日白天开始时，都会公示前一天白天出局角色名单、夜晚出局角色名单、当日神眷者及其他需要公示的内容。
    The other lines in the order the night settled them: 夜之语 (3), 剑痕 (4), then the 权势 of a noble out at
    (14) (before: 权势 first of all, 夜之语 last)."""
    res = run(table(), act("P03", "剑痕", choice="剑鸣"), act("P17", "夜之语", "P01", choice="小心"),
              act("P08", "权势", "P01"), act("P06", "突击", "P08"))
    assert res.lines[:5] == ["前一天白天出局：无", "夜晚出局：P08", "神眷者：无", "昨夜有夜之低语", "剑痕：剑鸣"]
    assert res.lines[5].startswith("权势：P01")


def test_deliverance_takes_a_dead_humans_skill() -> None:
    """超度<限定>：游戏日夜晚，慰魂师选择一名已出局角色，若该角色不属于亡灵阵营，则慰魂师可选择其一个非团队技能获得之；
    此技能发动的当晚，慰魂师发动其他技能失效。"""
    t = table(night=3, P06={"alive": False}, P19={"role": "腐尸", "faction": "亡灵", "alive": False})
    res = run(t, act("P15", "超度", "P06", choice="突击"), act("P15", "教化", "P01", phase="day"))
    assert res.state_after["P15.超度获得"] == "突击" and told(res, "P15")[0] == "超度：你获得了P06的<突击>"
    res = run(t, act("P15", "超度", "P19"))
    assert told(res, "P15")[0] == "超度：P19属于亡灵阵营，无法获得其技能"
    res = run(t, act("P15", "超度", "P01"))
    assert [(r.actor, r.skill) for r in res.rejected] == [("P15", "超度")]  # a living target


def test_night_whisper_reaches_only_the_living_non_undead_and_is_announced() -> None:
    """夜之语：普通，游戏日夜晚，守夜人可以选择一名角色，若其不属于亡灵阵营，则你可以对其发送一条不多于100字的消息。
    此技能生效后，次日将公告；“昨夜有夜之低语”"""
    res = run(table(), act("P17", "夜之语", "P01", choice="小心今晚"))
    assert told(res, "P01") == ["夜之语：小心今晚"] and "昨夜有夜之低语" in res.lines
    res = run(table(P19={"role": "腐尸", "faction": "亡灵"}), act("P17", "夜之语", "P19", choice="x"))
    assert told(res, "P19") == [] and "昨夜有夜之低语" not in res.lines


def test_rumour_and_morning_announcement_order() -> None:
    """每个游戏日白天开始时，都会公示前一天白天出局角色名单、夜晚出局角色名单、当日神眷者及其他需要公示的内容。
    流言<普通>：游戏日夜晚，贵族选择一名角色，该角色在下个白天被公告记有2票。"""
    t = table(state={"神眷者": "P14"}, P21={"alive": False, "出局": {"day": 2, "cause": "投票"}})
    res = run(t, act("P08", "流言", "P01"), act("P03", "剑痕", choice="剑鸣"), act("P06", "突击", "P02"))
    assert res.lines[:5] == ["前一天白天出局：P21", "夜晚出局：P02", "神眷者：P14", "剑痕：剑鸣", "流言：P01被公告记有2票"]
    assert res.lines[-1] == "遗言：P02、P21（若提交）"


def test_piety_counts_the_living_undead() -> None:
    """虔诚<强制>：……夜晚结束时，慰魂师得知亡灵阵营的存活人数。 (夜行怪 counts: 夜行怪在结算时同时计入亡灵阵营与守夜人所属阵营。)"""
    t = table(P19={"role": "腐尸", "faction": "亡灵"}, P17={"role": "夜行怪", "faction": "亡灵"},
              P20={"role": "活尸", "faction": "亡灵"})
    res = run(t, act("P06", "突击", "P20"))
    assert told(res, "P15") == ["虔诚：亡灵阵营存活人数 2"]


def test_soul_link_tells_the_other_temple_players() -> None:
    """灵魂链接<锁定>：每当其他圣殿阵营角色出局或身份翻转时，你将得到通知。"""
    res = run(table(), act("P06", "突击", "P10"))
    assert told(res, "P03") == ["灵魂链接：圣殿阵营角色P10出局"] and "灵魂链接：圣殿阵营角色P10出局" in told(res, "P15")


def test_soul_link_hears_a_flip_by_a_hook_and_by_data() -> None:
    """灵魂链接：“每当其他圣殿阵营角色出局或身份翻转时” — a flip out of 圣殿 by the (1) hook's 诅咒, and one back
    into 圣殿 by the data's 圣光天启, are heard alike (``hears``); a 守夜人's own flip (中立) is not."""
    cursed = run(table(state={"亡灵圣物": relic_at("P03")}))
    assert "灵魂链接：圣殿阵营角色P03翻转身份" in told(cursed, "P10") and "灵魂链接：圣殿阵营角色P03翻转身份" in told(cursed, "P15")
    assert not any(f.startswith("灵魂链接") for f in told(cursed, "P03"))
    back = run(table(P03={"role": "活尸", "faction": "亡灵", "原身份": "剑士"}), act("P12", "圣光天启", "P03"))
    assert told(back, "P10") == ["灵魂链接：圣殿阵营角色P03翻转身份"] and told(back, "P15")[:1] == ["灵魂链接：圣殿阵营角色P03翻转身份"]
    body = run(table(None, day=3), act("P17", "夜之躯"))
    assert not any(f.startswith("灵魂链接") for f in told(body, "P10"))


# ---------------------------------------------------------------------------------------------
# 天谴者 and 暗日
# ---------------------------------------------------------------------------------------------

def test_a_prophet_turned_by_embrace_calls_down_judgement() -> None:
    """神启者[天谴者]；天谴：锁定，当天谴者加入游戏时，天谴者可以选定一个阵营，随机一名当前存活的属于该阵营角色于当夜结束时出局"""
    t = table(P08={"role": "血族", "faction": "亡灵", "原身份": "贵族"})
    res = run(t, act("P08", "初拥", "P12"), decisions={"天谴.P12": "圣殿", "天谴.P12.出局": "P10"})
    assert [(c.player, c.role_to) for c in res.conversions] == [("P12", "天谴者")]
    assert dead(res) == ["P10"] and res.deaths[0].cause == "天谴（P12）"
    q = next(q for q in res.questions if q.key == "天谴.P12.出局")
    assert set(q.options) == {"P03", "P10", "P15"} and q.by == "director"


def test_a_new_doom_bringer_and_the_walking_dead_know_each_other() -> None:
    """统御：锁定，天谴者与活尸互知共群。 — "互知" as the 天谴者 is born (here by 初拥), in either reading of "共群"."""
    t = table(P08={"role": "血族", "faction": "亡灵", "原身份": "贵族"}, P02={"role": "活尸", "faction": "亡灵", "原身份": "恶徒"})
    res = run(t, act("P08", "初拥", "P12"), decisions={"天谴.P12": "圣殿", "天谴.P12.出局": "P10"})
    assert "统御：与你互知共群的活尸：P02" in told(res, "P12")
    assert told(res, "P02")[0] == "统御：天谴者P12与你们互知共群"
    assert "<统御>：P12与活尸（P02）互知共群（选项 shared_group = chat）" in res.log


@pytest.mark.parametrize("reading", ["chat", "acts"])
def test_a_doom_bringer_bites_only_when_sharing_the_group_means_acting(reading: str) -> None:
    """统御 "共群" reads two ways (the ruleset option shared_group, default chat): the 天谴者 only shares the 活尸's chat,
    and his <啃咬> alone is refused naming the reading; or he is one of the group and bites — once a night for the
    whole group (啃咬 per_phase, 集群 counting the living 活尸)."""
    t = table(P12={"role": "天谴者", "faction": "亡灵", "原身份": "神启者"}, P02={"role": "活尸", "faction": "亡灵"})
    rs = RS.with_options({"shared_group": reading})
    acts = [Action("P12", "啃咬", ("P01",), index=0), Action("P02", "啃咬", ("P04",), index=1)]
    res = settle(CAT, t, acts, ruleset=rs)
    if reading == "chat":
        assert dead(res) == ["P04"] and [(r.actor, r.skill) for r in res.rejected] == [("P12", "啃咬")]
        assert "按选项 shared_group = chat" in res.rejected[0].reason
    else:
        assert dead(res) == ["P01"] and [(r.actor, r.skill) for r in res.rejected] == [("P02", "啃咬")]
        assert "P12以<统御>（选项 shared_group = acts：共群即为活尸的成员）发动<啃咬>" in res.log
    if reading == "acts":  # a member of the group still bites only at night
        day = table(None, day=3, P12={"role": "天谴者", "faction": "亡灵"}, P02={"role": "活尸", "faction": "亡灵"})
        res = settle(CAT, day, [Action("P12", "啃咬", ("P01",), index=0)], ruleset=rs)
        assert [r.skill for r in res.rejected] == ["啃咬"] and "夜晚" in res.rejected[0].reason


def test_dark_sun_turns_undead_into_walking_dead() -> None:
    """暗日：限定，游戏日夜晚，天谴者选择至多两名角色，若其中有属于亡灵阵营的角色，其身份转变为活尸。"""
    t = table(P12={"role": "天谴者", "faction": "亡灵", "原身份": "神启者"}, P19={"role": "腐尸", "faction": "亡灵"})
    res = run(t, act("P12", "暗日", "P19", "P01"))
    assert [(c.player, c.role_to) for c in res.conversions] == [("P19", "活尸")]
    assert res.state_after["P12.暗日"] == 0


def test_a_militiaman_cursed_into_walking_dead_still_restrains_with_the_militia() -> None:
    """伪装<强制>：任意角色成为活尸后，不会失去原身份的<团队>技能。 — 民兵[活尸]: the cursed 民兵 loses 突击 (not a
    team's) but stays one of "所有民兵" for <牵制> the next day, alone or with P18."""
    night = run(table(state={"亡灵圣物": relic_at("P06")}))
    assert night.table_after is not None
    p06 = night.table_after.players["P06"]
    assert (p06.role, p06.uses) == ("活尸", {"牵制": True})
    t = table(None, day=3, P06={"role": "活尸", "faction": "亡灵", "原身份": "民兵", "uses": p06.uses})
    res = run(t, act("P06+P18", "牵制", "P02", phase="day"))
    assert res.rejected == [] and res.state_after["牵制上次"] == {"target": "P02", "day": 3}
    res = run(t, act("P06", "牵制", "P02", phase="day"))
    assert res.rejected == [] and res.state_after["牵制上次"] == {"target": "P02", "day": 3}


# ---------------------------------------------------------------------------------------------
# The day: 藏匿, 神眷者, 首领, 教化, 夜之躯, the vote and (18)–(20)
# ---------------------------------------------------------------------------------------------

def day(d: int, **kw: Any) -> Table:
    return table(None, day=d, **kw)


def test_red_cards_bench_each_player_and_judge_a_faction_lost_when_told() -> None:
    """挂机状态："被红牌罚下的角色自动进入挂机状态"；"判罚红牌时，导演视情况决定是否判负该玩家所在阵营" — every red
    card of the phase counts, first of all its settlement; nobody goes out."""
    res = run(table(), act("导演", "红牌罚下", "P02"), act("导演", "红牌罚下", "P13", choice="判负"))
    assert (res.state_after["P02.status"], res.state_after["P13.status"]) == (["挂机"], ["挂机"])
    assert res.state_after["判负阵营"] == ["环蛇"]
    assert dead(res) == []
    res = run(table(night=None, day=3), act("导演", "红牌罚下", "P05"))
    assert res.state_after["P05.status"] == ["挂机"]
    assert "判负阵营" not in res.state_after


def test_first_day_hiding_election_and_leader() -> None:
    """1、……第一天讨论日结束时，最先高票者当选神眷者。与此同时，恶徒决定<藏匿>目标。
    藏匿<团队><强制>：游戏第一日白天结束时，选择一名恶徒以外的角色，该角色获得[亡灵圣物]。 由恶徒4人共群开始推选诞生首领"""
    t = day(1, state={"恶徒首领": None})
    res = run(t, act("放逐投票", "当选神眷者", "P14"), act("P02+P09+P16+P20", "藏匿", "P19"),
              act("P02+P09+P16+P20", "推选首领", "P16", phase="setup"))
    assert res.state_after["亡灵圣物"] == {"holder": "P19", "诅咒剩余次数": 3, "since": {"day": 1, "by": "藏匿"}}
    assert res.state_after["神眷者"] == "P14" and res.state_after["恶徒首领"] == "P16"
    res = run(t, act("P02+P09+P16+P20", "藏匿", "P09"), act("放逐投票", "当选神眷者", "P12"))
    assert [r.skill for r in res.rejected] == ["藏匿"]
    assert res.state_after["神眷者"] is None  # 当神启者成为神眷者时，神眷者消失
    res = run(day(2), act("P02+P09+P16+P20", "藏匿", "P19"), act("放逐投票", "当选神眷者", "P14"))
    assert [r.skill for r in res.rejected] == ["藏匿", "当选神眷者"]


def test_one_chosen_one_the_last_election_counts_and_the_holder_gives_it_up() -> None:
    """第一天白天……获得投票最多的角色将成为神眷者。 One 神眷者 at a time: an election moves the mark from a
    player who held it, and of two results the last counts."""
    res = run(day(1, state={"神眷者": "P03"}), act("放逐投票", "当选神眷者", "P14"))
    assert [(t.from_player, t.to_player) for t in res.tags_moved] == [("P03", "P14")]
    assert res.table_after is not None and "神眷者" not in res.table_after.players["P03"].tags
    res = run(day(1), act("放逐投票", "当选神眷者", "P14"), act("放逐投票", "当选神眷者", "P01"))
    assert [(t.from_player, t.to_player) for t in res.tags_moved] == [(None, "P01")]
    assert res.state_after["神眷者"] == "P01"


def test_teaching_lets_a_temple_holder_pass_the_relic() -> None:
    """教化<普通>：……若该角色属于圣殿阵营，其当夜免疫诅咒并可以将持有的亡灵圣物转交给其他一名角色。"""
    res = run(day(3, state={"亡灵圣物": relic_at("P03", 2)}), act("P15", "教化", "P03", choice="转交P10"))
    assert res.state_after["亡灵圣物"]["holder"] == "P10"
    assert res.state_after["亡灵圣物"]["since"] == {"day": 3, "by": "教化"}
    assert [p.effect for p in res.pending] == ["教化"]


def test_night_body_flips_the_watchman_and_night_eye_sees_the_holder() -> None:
    """夜之躯：普通，游戏日白天，守夜人可以宣言此技能，守夜人即时翻转身份。
    夜之眼：锁定：夜行怪加入游戏时，得知当前【亡灵圣物】持有者的身份。"""
    res = run(day(3, state={"亡灵圣物": relic_at("P19", 2)}, P19={"role": "腐尸", "faction": "亡灵"}),
              act("P17", "夜之躯"))
    assert [(c.player, c.role_to) for c in res.conversions] == [("P17", "夜行怪")]
    assert "夜之眼：[亡灵圣物]持有者P19的身份为腐尸" in told(res, "P17")


def test_sophistry_replaces_the_exiled_player() -> None:
    """诡辩<普通>：游戏日夜晚，学者选择一名角色：若该角色在次日投票阶段即将被投票出局，则由学者选择一名其他角色，替代该角色被投票出局。"""
    t = day(3)
    res = run(t, act("P13", "诡辩", "P08", phase="night"), act("P13", "诡辩替代", "P01"),
              act("放逐投票", "投票出局", "P08"))
    assert dead(res) == ["P01"] and res.deaths[0].cause == "投票出局"
    res = run(t, act("P13", "诡辩", "P08", phase="night"), act("P13", "诡辩替代", "P01"),
              act("放逐投票", "投票出局", "P04"))
    assert dead(res) == ["P04"]


def test_trap_fires_when_the_wanderer_is_voted_out_unless_stealth_voided_it() -> None:
    """陷阱：……当游荡者……次日白天被投票出局后，对其造成一次[致死伤害]。 （shared example N02: a trap set on a 潜行 night fails）"""
    res = run(day(3), act("P10", "陷阱", "P02", phase="night"), act("放逐投票", "投票出局", "P10"))
    assert dead(res) == ["P10", "P02"] and res.deaths[1].cause == "陷阱（P10）"
    res = run(day(4), act("P10", "潜行", phase="night"), act("P10", "陷阱", "P02", phase="night"),
              act("放逐投票", "投票出局", "P10"))
    assert dead(res) == ["P10"]
    res = run(day(4, P10={"uses": {"潜行": 0}}), act("P10", "潜行", phase="night"),
              act("P10", "陷阱", "P02", phase="night"), act("放逐投票", "投票出局", "P10"))
    assert dead(res) == ["P10"]  # the record of that night's 潜行 still voids the trap
    res = run(day(4, P10={"role": "腐尸", "faction": "亡灵", "原身份": "游荡者"}),
              act("P10", "陷阱", "P02", phase="night"), act("放逐投票", "投票出局", "P10"))
    assert [r.skill for r in res.rejected] == ["陷阱"] and dead(res) == ["P10"]
    res = run(day(3), act("P10", "陷阱", "P05", phase="night"), act("放逐投票", "投票出局", "P10"))
    assert dead(res) == ["P10"] and [s.player for s in res.survivals] == ["P05"]  # 长寿 by day too


def test_corruption_takes_a_companion_or_flips_one_when_last() -> None:
    """腐化<普通>：当腐尸因投票出局时，若其是当前亡灵阵营最后一名存活角色，则腐尸选择一名角色，若该角色属于非亡灵阵营，
    该角色翻转其身份；若不是当前最后一名亡灵阵营角色，则腐尸选择一名角色，该角色同腐尸一起出局。 注：腐尸结算腐化时不计夜行怪。"""
    rot = {"P19": {"role": "腐尸", "faction": "亡灵", "原身份": "村民"}}
    res = run(day(3, **rot, P20={"role": "活尸", "faction": "亡灵"}), act("P19", "腐化", "P01"),
              act("放逐投票", "投票出局", "P19"))
    assert dead(res) == ["P19", "P01"] and res.deaths[1].cause == "腐化（P19）"
    res = run(day(3, **rot, P17={"role": "夜行怪", "faction": "亡灵"}), act("P19", "腐化", "P01"),
              act("放逐投票", "投票出局", "P19"))
    assert dead(res) == ["P19"] and [(c.player, c.role_to) for c in res.conversions] == [("P01", "腐尸")]


def test_phantom_body_keeps_speech_and_vote() -> None:
    """虚体<普通>：恶灵因投票出局时，可明示身份。若如此做，其视为出局，但仍保留发言权和投票权。"""
    res = run(day(3, P05={"role": "恶灵", "faction": "亡灵", "原身份": "村长"}), act("P05", "虚体"),
              act("放逐投票", "投票出局", "P05"))
    assert dead(res) == ["P05"] and res.state_after["P05.status"] == ["虚体"]
    assert "虚体：P05明示身份（恶灵）" in res.lines
    # "因投票出局时": a 恶灵 the vote does not put out reveals nothing (the trigger's ``only``)
    res = run(day(3, P05={"role": "恶灵", "faction": "亡灵", "原身份": "村长"}), act("P05", "虚体"),
              act("放逐投票", "投票出局", "P04"))
    assert "P05.status" not in res.state_after and not any(x.startswith("虚体") for x in res.lines)


def test_intrigue_lets_the_noble_take_the_exiled_holders_relic() -> None:
    """权术<普通>：贵族的投票或流言对象出局时，若其持有【亡灵圣物】，则贵族可选择获得【亡灵圣物】，贵族以此法获得【亡灵圣物】时，将得到导演通知。"""
    t = day(3, state={"亡灵圣物": relic_at("P04", 1)})
    res = run(t, act("P08", "权术", "P04"), act("放逐投票", "投票出局", "P04"))
    assert res.state_after["亡灵圣物"]["holder"] == "P08" and told(res, "P08") == ["权术：你获得了[亡灵圣物]"]
    res = run(t, act("放逐投票", "投票出局", "P04"), decisions={"馈赠": "P11"})
    assert res.state_after["亡灵圣物"]["holder"] == "P11"


def test_intrigue_at_night_on_the_rumour_target() -> None:
    """权术<普通>：贵族的投票或流言对象出局时，若其持有【亡灵圣物】，则贵族可选择获得【亡灵圣物】 — before 馈赠's random draw."""
    t = table(night=3, state={"亡灵圣物": relic_at("P04", 0)})
    res = run(t, act("P08", "流言", "P04"), act("P08", "权术", "P04"), act("P06", "突击", "P04"))
    assert dead(res) == ["P04"] and res.state_after["亡灵圣物"]["holder"] == "P08"
    assert [m.via for m in res.tags_moved] == ["权术"] and not any(q.key == "馈赠" for q in res.questions)


def test_intrigue_of_a_restrained_noble_is_void() -> None:
    """权术<普通>; 牵制 "该角色当晚发动的非团队的<普通>和<限定>技能无效": the restrained 贵族 does not take the relic (before,
    the hook settled 权术 beside the voids); 馈赠 then draws, and a 贵族 already out takes nothing either."""
    t = table(night=3, state={"亡灵圣物": relic_at("P04", 0)})
    res = run(t, act("P06+P18", "牵制", "P08", phase="day"), act("P08", "权术", "P04"), act("P06", "突击", "P04"),
              decisions={"馈赠": "P11"})
    assert dead(res) == ["P04"] and res.state_after["亡灵圣物"]["holder"] == "P11"
    assert any(r.skill == "权术" and "牵制" in r.reason for r in res.rejected)
    gone = table(night=3, state={"亡灵圣物": relic_at("P04", 0)}, P08={"alive": False})
    res = run(gone, act("P08", "权术", "P04"), act("P06", "突击", "P04"), decisions={"馈赠": "P11"})
    assert res.state_after["亡灵圣物"]["holder"] == "P11" and "(14) P08已出局，<权术>不发动（P04出局）" in res.log


def test_power_of_a_fallen_noble_is_announced() -> None:
    """权势<普通>：贵族出局后，可以指定任意数目的角色。在下个白天导演公告角色名单……"""
    res = run(day(3), act("P08", "权势", "P01", "P02"), act("放逐投票", "投票出局", "P08"))
    assert any(x.startswith("权势：P01、P02") for x in res.lines)
    res = run(day(3), act("P08", "权势", "P01"), act("放逐投票", "投票出局", "P04"))
    assert not any(x.startswith("权势") for x in res.lines)


def test_tracking_at_dawn_and_night_heart() -> None:
    """追踪<团队><强制>：游戏日白天开始时，如果[亡灵圣物]的持有者不是恶徒或恶徒群内的活尸，得知一次[亡灵圣物]的持有者。
    （当恶徒只存活一人时，追踪失效） 夜之心：……若当前场上不存在除夜行怪以外的亡灵阵营角色，夜行怪翻转身份。"""
    res = run(day(3, state={"亡灵圣物": relic_at("P04", 1)}, P17={"role": "夜行怪", "faction": "亡灵", "原身份": "守夜人"}))
    assert all(told(res, p) == ["追踪：[亡灵圣物]的持有者为P04"] for p in ("P02", "P09", "P16", "P20"))
    assert [(c.player, c.role_to, c.faction_to) for c in res.conversions] == [("P17", "守夜人", "中立")]
    alone = {p: {"alive": False} for p in ("P02", "P09", "P16")}
    res = run(day(3, state={"亡灵圣物": relic_at("P04", 1)}, **alone))
    assert told(res, "P20") == []


def test_tracking_tells_the_thugs_group_and_skips_its_own_holder() -> None:
    """追踪<团队>: "如果[亡灵圣物]的持有者不是恶徒或恶徒群内的活尸"; 伪装 "任意角色成为活尸后，不会失去原身份的<团队>技能" —
    the 恶徒群's 活尸 is told with the 恶徒, and holding the relic himself he is not tracked."""
    ours = {"role": "活尸", "faction": "亡灵", "原身份": "恶徒"}
    res = run(day(3, state={"亡灵圣物": relic_at("P04", 1)}, P20=ours))
    assert told(res, "P20") == told(res, "P02") == ["追踪：[亡灵圣物]的持有者为P04"]
    res = run(day(3, state={"亡灵圣物": relic_at("P20", 1)}, P20=ours))
    assert told(res, "P02") == [] and "(18) 追踪：[亡灵圣物]的持有者是恶徒或恶徒群内的活尸 → 不结算" in res.log
    assert run(day(3)).feedback == []  # nobody holds the relic yet


def test_night_heart_acts_by_itself_only_when_no_other_undead_lives() -> None:
    """夜之心：锁定；……若当前场上不存在除夜行怪以外的亡灵阵营角色，夜行怪翻转身份。 — "（18）结算<夜之心>": nobody
    submits it (trigger on = "step"); a living 腐尸 keeps the 夜行怪 as he is, a dead one does not."""
    beast = {"role": "夜行怪", "faction": "亡灵", "原身份": "守夜人"}
    res = run(day(3, P17=beast, P07={"role": "腐尸", "faction": "亡灵"}), act("P17", "夜之心"))
    assert res.conversions == []
    assert [r.reason for r in res.rejected] == ["<夜之心>是强制技能，在其结算步骤自行发动，无需提交"]
    res = run(day(3, P17=beast, P07={"role": "腐尸", "faction": "亡灵", "alive": False}))
    assert [(c.player, c.role_to, c.cause) for c in res.conversions] == [("P17", "守夜人", "夜之心")]


# ---------------------------------------------------------------------------------------------
# 胜负判定
# ---------------------------------------------------------------------------------------------

def test_undead_win_when_temple_thugs_and_villagers_are_few() -> None:
    """亡灵阵营 胜：不存在存活的莱恩阵营角色 或场上存活的圣殿阵营角色、恶徒、村民均不大于1。"""
    gone = {p: {"alive": False} for p in ("P01", "P04", "P07", "P11", "P14", "P21", "P02", "P09", "P16",
                                           "P03", "P10")}
    res = run(table(**gone, P19={"role": "腐尸", "faction": "亡灵"}))
    assert res.outcome is not None and res.outcome.winner == "亡灵"


def test_lane_wins_when_no_serpent_or_undead_lives_and_neutral_may_share() -> None:
    """莱恩阵营 胜：不存在存活的环蛇阵营角色与亡灵阵营角色。 中立阵营 胜：不存在存活的亡灵阵营角色，且场上存活人数小于等于7。
    允许与其他阵营共同宣言胜利。"""
    gone = {p: {"alive": False} for p in ("P02", "P08", "P09", "P13", "P16", "P20")}
    res = run(table(state={"亡灵圣物": relic_at("P04", 0), "判负阵营": ["环蛇"]}, **gone))
    assert res.outcome is not None and res.outcome.winner == "莱恩" and "中立" not in res.outcome.reason
    few = {**gone, **{p: {"alive": False} for p in ("P01", "P03", "P04", "P05", "P06", "P07", "P10", "P11")}}
    res = run(table(state={"亡灵圣物": relic_at("P14", 0), "判负阵营": ["环蛇"]}, **few))
    assert res.outcome is not None and res.outcome.winner == "莱恩" and "中立" in res.outcome.reason


def test_night_fang_killing_an_undead_raises_the_neutral_threshold() -> None:
    """夜之牙：……每当此技能使一名亡灵阵营角色出局时，中立阵营判胜所需人数+2. 中立阵营 胜：不存在存活的亡灵阵营角色，且场上存活人数小于等于7。"""
    gone = {p: {"alive": False} for p in ("P01", "P02", "P03", "P04", "P05", "P06", "P07", "P08", "P09", "P10",
                                           "P11", "P12")}
    seats = {**gone, "P17": {"role": "夜行怪", "faction": "亡灵", "原身份": "守夜人"},
             "P19": {"role": "腐尸", "faction": "亡灵", "alive": False}, "P20": {"role": "活尸", "faction": "亡灵"}}
    res = run(table(state={"亡灵圣物": relic_at("P14", 0)}, **seats), act("P17", "夜之牙", "P19", "P20"))
    assert dead(res) == ["P20"] and res.state_after["中立判胜人数"] == 9
    # 7 living (P13–P18, P21), within 9, but the 夜行怪 still counts as 亡灵: no neutral win. No other
    # faction wins either: 莱恩 lives with 环蛇 alive, the 圣物's holder P14 is 莱恩, and 村民 are two (>1)
    assert res.table_after is not None and sum(s.alive for s in res.table_after.players.values()) == 7
    assert res.outcome is None


def test_the_watchman_joins_the_first_wiped_out_faction() -> None:
    """夜之躯：……当首个非亡灵阵营角色全部出局时，守夜人加入该阵营。"""
    gone = {"P03": {"alive": False}, "P15": {"alive": False}}
    res = run(table(**gone), act("P06", "突击", "P10"))
    assert [(c.player, c.faction_to) for c in res.conversions] == [("P17", "圣殿")]
    assert "判负阵营" not in res.state_after  # 圣殿 lives on in the 守夜人: no faction has lost


def test_the_comforter_learns_the_temple_on_day_one() -> None:
    """灵魂链接<锁定>：游戏开始时，慰魂师得知其他圣殿阵营角色"""
    res = run(day(1), act("放逐投票", "当选神眷者", "P14"))
    assert told(res, "P15") == ["灵魂链接：其他圣殿阵营角色：P03、P10"]


# ---------------------------------------------------------------------------------------------
# Generic keys this game added, determinism, speed
# ---------------------------------------------------------------------------------------------

def test_a_mark_carries_its_skills_whatever_the_role() -> None:
    """The catalog key ``tag``: 灾厄 belongs to whoever holds [亡灵圣物], 传承 to the 神眷者."""
    t = table(state={"亡灵圣物": relic_at("P19", 2)}, P19={"role": "腐尸", "faction": "亡灵"})
    assert refusal(t, act("P19", "灾厄", "P01"), CAT.skill("灾厄")) is None
    assert refusal(t, act("P01", "灾厄", "P04"), CAT.skill("灾厄")) == "P01（村民）没有技能<灾厄>"
    cat = parse_catalog({"ruleset": "x", "skills": [{"name": "传", "tag": "神眷者", "kind": "锁定"}]}, "x.toml")
    assert cat.skill("传").tag == "神眷者" and cat.skill("传").kind == "锁定"
    # the vote's result is submitted by the team itself, with nobody named behind it
    assert refusal(day(3), act("放逐投票", "投票出局", "P04"), CAT.skill("投票出局")) is None


def test_every_clause_is_quoted_and_every_role_has_its_skills() -> None:
    """Every skill cites its sentence; every role of the post holds at least one skill."""
    assert all(s.clause for s in CAT.skills.values())
    for role in RS.roles:
        assert CAT.skills_of(role.name), role.name


def test_same_seed_same_night_and_input_untouched() -> None:
    t = table(state={"亡灵圣物": relic_at("P07", 3), "神眷者": "P14"})
    before = copy.deepcopy(t)
    acts = [act("P06", "突击", "P14"), act("P02", "偷袭", "P07")]
    assert run(t, *acts, seed=5).to_json() == run(t, *acts, seed=5).to_json()
    assert t == before


def test_a_24_player_night_settles_the_same_every_time() -> None:
    """The posts' largest table, every kind of step at once: settled twice, the same result, nobody
    out twice. Its speed is measured by benchmarks/bench_night.py, not asserted here (a timed
    assert only measures how busy the machine running the tests is)."""
    t = table(n=24, state={"亡灵圣物": relic_at("P19", 2), "神眷者": "P14", "告死者": "P15"},
              P19={"role": "腐尸", "faction": "亡灵"}, P15={"role": "告死者", "faction": "亡灵"},
              P08={"role": "血族", "faction": "亡灵"})
    acts = [act("P01", "祝福", "P11"), act("P04", "祝福", "P11"), act("P22", "祝福", "P11"), act("P03", "防反", "P02"),
            act("P10", "陷阱", "P20"), act("P13", "诈骗", "P19", "P01"), act("P12", "神启", "P13"),
            act("P06", "突击", "P10"), act("P03", "蓄力斩", "P09"), act("P02", "偷袭", "P03"),
            act("P08", "初拥", "P05"), act("P15", "死灵咒", "P10"), act("P19", "灾厄", "P01")]
    first = run(t, *acts)
    assert first.to_json() == run(t, *acts).to_json()
    out = [d.player for d in first.deaths]
    assert len(out) == len(set(out))


# ---------------------------------------------------------------------------------------------
# Random nights: never a crash, never a player out twice, never a dead or benched actor, seeded
# ---------------------------------------------------------------------------------------------

NIGHT_SKILLS = [s for s in CAT.skills.values() if s.phase == "night" and s.team is None]


@st.composite
def random_night(draw: st.DrawFn) -> tuple[Table, list[Action]]:
    names = [f"P{i:02d}" for i in range(1, 22)]
    flips = draw(st.lists(st.sampled_from(names), max_size=5, unique=True))
    gone = draw(st.lists(st.sampled_from(names), max_size=6, unique=True))
    bench = draw(st.lists(st.sampled_from(names), max_size=2, unique=True))
    over: dict[str, dict[str, Any]] = {}
    undead = {"村长": "恶灵", "神启者": "天谴者", "民兵": "活尸", "村民": "腐尸", "剑士": "活尸", "游荡者": "腐尸",
              "慰魂师": "告死者", "贵族": "血族", "学者": "恶灵", "恶徒": "活尸", "守夜人": "夜行怪"}
    for p in flips:
        role = undead[ROLES[int(p[1:]) - 1]]
        over[p] = {"role": role, "faction": "亡灵", "原身份": ROLES[int(p[1:]) - 1]}
    for p in gone:
        over.setdefault(p, {})["alive"] = False
    holder = draw(st.sampled_from(names))
    reaper = next((p for p, o in over.items() if o.get("role") == "告死者"), None)
    t = table(night=draw(st.integers(1, 6)), state={"亡灵圣物": relic_at(holder, draw(st.integers(0, 3))),
                                                     "神眷者": draw(st.sampled_from(names)), "告死者": reaper}, **over)
    for p in bench:
        t.players[p].status.append("挂机")
    acts: list[Action] = []
    for _ in range(draw(st.integers(0, 14))):
        sk = draw(st.sampled_from(NIGHT_SKILLS))
        holders = [p.name for p in t.players.values() if p.role in sk.roles or (sk.tag and sk.tag in p.tags)]
        if not holders:
            continue
        n = draw(st.integers(sk.min_targets, sk.max_targets))
        targets = draw(st.lists(st.sampled_from(names), min_size=n, max_size=n, unique=True))
        acts.append(act(draw(st.sampled_from(holders)), sk.name, *targets, choice=draw(st.sampled_from([None, "效果2", "翻转", "祝福"]))))
    if draw(st.booleans()):
        acts.append(act("P06+P18", "牵制", draw(st.sampled_from(names)), phase="day"))
    return t, acts


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_night(), st.integers(0, 3))
def test_random_nights_never_crash_nor_kill_twice(night: tuple[Table, list[Action]], seed: int) -> None:
    """出局：……每名角色仅能出局一次。 / 角色出局结算结束后，不能继续……行使特权。 / 挂机状态的角色……不能……行使特权"""
    t, acts = night
    res = run(t, *acts, seed=seed)
    out = dead(res)
    assert len(out) == len(set(out))
    assert all(t.players[p].alive for p in out)
    legal = {(a.actor, a.skill) for a in acts} - {(r.actor, r.skill) for r in res.rejected}
    for actor, _skill in legal:
        for m in actor.split("+"):
            assert t.players[m].alive and "挂机" not in t.players[m].status
    assert run(t, *acts, seed=seed).to_json() == res.to_json()


DAY_SKILLS = [s for s in CAT.skills.values() if s.phase in ("day", "passive") and s.team is None]


@st.composite
def random_day(draw: st.DrawFn) -> tuple[Table, list[Action]]:
    t, _ = draw(random_night())
    t = Table(players=t.players, state=t.state, night=None, day=draw(st.integers(1, 5)))
    names = list(t.players)
    acts: list[Action] = []
    for _ in range(draw(st.integers(0, 6))):
        sk = draw(st.sampled_from(DAY_SKILLS))
        holders = [p.name for p in t.players.values() if p.role in sk.roles or (sk.tag and sk.tag in p.tags)]
        if not holders:
            continue
        n = draw(st.integers(sk.min_targets, min(sk.max_targets, 3)))
        targets = draw(st.lists(st.sampled_from(names), min_size=n, max_size=n, unique=True))
        acts.append(act(draw(st.sampled_from(holders)), sk.name, *targets, choice=draw(st.sampled_from([None, "转交P01"]))))
    for skill in ("陷阱", "诡辩"):
        if draw(st.booleans()):
            acts.append(act(draw(st.sampled_from(names)), skill, draw(st.sampled_from(names)), phase="night"))
    acts.append(act("放逐投票", draw(st.sampled_from(["投票出局", "当选神眷者"])), draw(st.sampled_from(names))))
    return t, acts


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_day(), st.integers(0, 3))
def test_random_days_never_crash_nor_kill_twice(day_: tuple[Table, list[Action]], seed: int) -> None:
    """出局：角色因游戏流程的进行而离开游戏。每名角色仅能出局一次。"""
    t, acts = day_
    res = run(t, *acts, seed=seed)
    out = dead(res)
    assert len(out) == len(set(out)) and all(t.players[p].alive for p in out)
    assert run(t, *acts, seed=seed).to_json() == res.to_json()


def test_a_damage_submitted_twice_by_one_player_counts_once_the_last() -> None:
    """突击<限定>：……该角色受到一次[致死伤害]。 A player who sends it twice has used it once: the
    last submission counts (before: both were settled, two deaths for one use)."""
    res = run(table(), act("P06", "突击", "P13"), act("P06", "突击", "P14"))
    assert dead(res) == ["P14"]
    assert res.state_after["P06.突击"] == 0


def test_a_rumour_is_a_vote_mark_the_next_days_tally_reads() -> None:
    """流言<普通>：游戏日夜晚，贵族选择一名角色，该角色在下个白天被公告记有2票。 — the ruleset's
    ``[[voting.modifiers]]`` 流言 (announced_add 2) on the target for day 3 after night 2, announced in
    the morning (before: announced only, nothing for the tally to read)."""
    res = run(table(), act("P08", "流言", "P01"))
    assert [(m.name, m.player, m.day) for m in res.vote_marks] == [("流言", "P01", 3)]
    assert "流言：P01被公告记有2票" in res.lines

"""M19『少年落落之烦恼』(luoluo-m19): the night and day settlement, proved against the rule post.

(a) The two shared examples of this game go through ``tracker night simulate … --json`` and every
item they assert is checked. (b) Narrated nights and days cover every skill of the post and the
interactions it calls out; each test's docstring quotes the sentence it proves. The tables are
built here from the post's roster (1L: 三狼、三大特、两小特、群外黑绑匪、五村民), never from the
examples' particular names.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tracker.cli import main
from tracker.engine.night import load_catalog, settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.checks import refusal
from tracker.engine.night.model import Action, Seat, Table
from tracker.engine.night.scenario import load, validate
from tracker.engine.ruleset import load_ruleset

EXAMPLES = Path(__file__).parent / "fixtures" / "night" / "examples.json"
GAME = "002_558fa90179aecb96.txt"
RID = "luoluo-m19"

# ── helpers ──────────────────────────────────────────────────────────────────────────────────

ROLES = ["预言家", "女巫", "医生", "人质", "村民", "村民", "村民", "村民", "村民", "公狼", "老狼", "幼狼", "绑匪",
         "变异丘比特"]
SEER, WITCH, DOC, HOSTAGE, V1, V2, V3, V4, V5, BIGW, OLDW, CUB, KIDNAP, CUPID = (f"P{i:02d}" for i in range(1, 15))


def _faction(role: str) -> str:
    return "狼人" if role in ("公狼", "老狼", "幼狼", "绑匪") else "村民"


def scenario(*, night: int | None = 2, day: int | None = None, lovers: dict[str, str] | None = None,
             dead: dict[str, dict[str, Any]] | None = None, state: dict[str, Any] | None = None,
             players: dict[str, dict[str, Any]] | None = None, actions: list[dict[str, Any]] | None = None,
             roles: list[str] | None = None) -> dict[str, Any]:
    """The post's roster: hostage's hero the seer, the kidnapper's <设计> target a villager, the
    sheriff a villager; ``lovers`` = {类型, 攻/受 or 主人/忠犬}; ``dead`` = {player: 出局 record}."""
    roster = roles or ROLES
    ps: list[dict[str, Any]] = []
    for i, role in enumerate(roster, 1):
        p: dict[str, Any] = {"name": f"P{i:02d}", "role": role, "faction": _faction(role), "alive": True}
        if role == "女巫":
            p["uses"] = {"救药": 1, "毒药": 1, "通灵": True, "警觉": True}
        if role in ("公狼", "老狼", "幼狼"):
            p["tags"] = ["狼群"]
        if role == "老狼":
            p["uses"] = {"算计": 1}
        if role == "人质":
            p["英雄"] = SEER
        if role == "绑匪":
            p["uses"] = {"灭口": 1, "绑架": 1}
            p["设计目标"] = V4
        ps.append(p)
    ps[4].setdefault("tags", []).append("警长")
    st: dict[str, Any] = {"警长": V1, "空救": {}}
    if lovers:
        st["情侣"] = lovers
        for key, name in lovers.items():
            if key != "类型":
                ps[int(name[1:]) - 1].setdefault("tags", []).append(f"情侣:{key}")
    for name, when in (dead or {}).items():
        ps[int(name[1:]) - 1]["alive"] = False
        ps[int(name[1:]) - 1]["出局"] = when
    for name, fields in (players or {}).items():
        ps[int(name[1:]) - 1].update(fields)
    st.update(state or {})
    setup: dict[str, Any] = {"players": ps, "state": st}
    if day is not None:
        setup["day"] = day
    else:
        setup["night"] = night
    return {"game": GAME, "setup": setup, "actions": actions or []}


def act(actor: str, skill: str, *targets: str, **extra: str) -> dict[str, Any]:
    return {"actor": actor, "skill": skill, "targets": list(targets), **extra}


PACK = f"狼群({BIGW},{OLDW},{CUB})"


def run(scen: dict[str, Any], *, seed: int = 0, decisions: dict[str, str] | None = None) -> dict[str, Any]:
    validate(scen)
    rs = load_ruleset(RID)
    cat = load_catalog(rs.id, rs.night_path, tuple(r.name for r in rs.roles))
    table, actions = load(scen)
    return settle(cat, table, actions, seed=seed, decisions=decisions).to_json()


def deaths(res: dict[str, Any]) -> list[str]:
    return [d["player"] for d in res["deaths"]]


def cause(res: dict[str, Any], player: str) -> str:
    return next(d["cause"] for d in res["deaths"] if d["player"] == player)


def told(res: dict[str, Any], to: str) -> list[str]:
    return [f["content"] for f in res["feedback"] if f["to"] == to]


def refused(res: dict[str, Any]) -> list[tuple[str, str]]:
    return [(r["actor"], r["skill"]) for r in res["rejected"]]


def survivors(res: dict[str, Any]) -> list[str]:
    return [s["player"] for s in res["survivals"]]


# ── (a) the shared examples through the command line ────────────────────────────────────────

def _examples() -> list[dict[str, Any]]:
    data = json.loads(EXAMPLES.read_text("utf-8"))
    return [s for s in data["scenarios"] if s["game"] == GAME]


def _simulate(sc: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    f = tmp_path / f"{sc['id']}.json"
    f.write_text(json.dumps({k: sc[k] for k in ("game", "id", "title", "setup", "actions")}, ensure_ascii=False),
                 "utf-8")
    assert main(["night", "simulate", "--ruleset", RID, str(f), "--json"]) == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


def _one_of(spec: str) -> set[str]:
    return {x.strip() for x in spec.split(" 或 ")}


@pytest.mark.parametrize("sc", _examples(), ids=lambda s: s["id"])
def test_shared_example_every_asserted_item(sc: dict[str, Any], tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """The examples' ``expected``: deaths ("X 或 Y" = exactly one), causes, survivals, refusals
    (actor + skill + reason), out order, state_after, feedback recipients and the post's wording,
    the 警长 line, no identity shown, and the win check."""
    out = _simulate(sc, tmp_path, capsys)
    exp = sc["expected"]
    got = deaths(out)
    for d in exp["deaths"]:
        options = _one_of(d["player"])
        assert len(options & set(got)) == 1, (d, got)
        if len(options) == 1:
            assert cause(out, d["player"]) == d["cause"]
    assert len(got) == len(exp["deaths"])
    assert survivors(out) == [s["player"] for s in exp["survivals"]]
    for s, g in zip(exp["survivals"], out["survivals"], strict=True):
        assert g["reason"] == s["reason"]
    assert [(r["actor"], r["skill"], r["reason"]) for r in out["rejected"]] == \
        [(r["actor"], r["skill"], r["reason"]) for r in exp["rejected_actions"]]
    assert out["announcement"]["out_order"] == exp["announcement"]["out_order"]
    assert out["conversions"] == exp["conversions"] and out["tags_moved"] == exp["tags_moved"]
    for key, value in exp["state_after"].items():
        assert out["state_after"][key] == value, key
    for fb in exp["feedback"]:
        mine = told(out, fb["to"])
        assert mine, fb
        if fb["content"].startswith("出局通知"):
            # Whether this exit still has a 遗言 is asserted only where the example says so.
            assert any(c.startswith("出局通知") for c in mine)
            if "可以留下遗言" in fb["content"]:
                assert fb["content"] in mine
        else:
            assert fb["content"] in mine
    lines = out["announcement"]["lines"]
    assert f"当日警长：{exp['announcement']['警长']}" in lines
    for name in exp["announcement"].get("前一天因投票出局", []):
        assert any(line.startswith("第") and "因投票出局" in line and name in line for line in lines)
    if not exp["announcement"]["identities_shown"]:
        roles = {p["role"] for p in sc["setup"]["players"]} - {"村民"}
        assert not any(r in line for line in lines for r in roles)
    assert (out["outcome"] is None) == (exp["win_check"] == "none")
    # The log walks the post's steps in order.
    steps = [line[1] for line in out["log"] if line.startswith("(") and line[1].isdigit()]
    assert steps == sorted(steps)


# ── (b) narrated nights: steps (1)–(7) ──────────────────────────────────────────────────────

def test_treatment_voids_the_strike_and_counts_no_empty_save() -> None:
    """（6）一、被指杀的角色如果是被救治的目标或者攻，指杀无效 — and 救治 on the struck player is no 空救.

    The pack strikes a villager the doctor treats: nobody goes out, the 空救 count stays empty."""
    res = run(scenario(actions=[act(PACK, "杀人", V2), act(DOC, "救治", V2)]))
    assert deaths(res) == []
    assert res["survivals"] == [{"player": V2, "reason": "医生<救治>：指杀无效"}]
    assert res["state_after"]["空救"] == {}
    assert res["announcement"]["lines"][0] == "第2夜无人出局"


def test_second_empty_save_puts_the_player_out_at_step_6_before_poison() -> None:
    """救治：若该角色没有成为指杀目标，累计一次空救。一名角色累计两次空救时立即出局。

    A villager treated once before in vain is treated again while the pack strikes elsewhere and
    the witch poisons a wolf: the second 空救 takes him out in (6), before the poison of (7)."""
    res = run(scenario(night=3, state={"空救": {V3: 1}},
                       actions=[act(PACK, "杀人", V2), act(DOC, "救治", V3), act(WITCH, "毒药", BIGW)]))
    assert deaths(res) == [V2, V3, BIGW]
    assert cause(res, V3) == "救治（累计两次空救）"
    assert res["announcement"]["out_order"] == [V2, V3, BIGW]
    assert res["state_after"]["空救"] == {V3: 2}
    assert any(line.startswith("(6)") and "累计2次空救" in line for line in res["log"])


def test_first_empty_save_only_counts() -> None:
    """救治：若该角色没有成为指杀目标，累计一次空救 — one is not enough to go out."""
    res = run(scenario(actions=[act(PACK, "杀人", V2), act(DOC, "救治", V3)]))
    assert deaths(res) == [V2]
    assert res["state_after"]["空救"] == {V3: 1}


def test_antidote_keeps_the_struck_alive_and_the_witch_loses_it_and_her_spirit_sense() -> None:
    """救药：该角色当晚不会因被指杀而出局……<救药>使用后，女巫失去技能<救药>。女巫失去<救药>技能后，失去技能<通灵>。

    通灵<强制>：反馈被指杀的角色 — the witch is told the pack's target, saves herself (女巫…可以自救)."""
    res = run(scenario(actions=[act(PACK, "杀人", WITCH), act(WITCH, "救药", WITCH)]))
    assert deaths(res) == []
    assert told(res, WITCH)[0] == f"通灵：被指杀的角色是{WITCH}"
    assert res["state_after"][f"{WITCH}.救药"] == "已失去"
    assert res["state_after"][f"{WITCH}.通灵"] == "已失去"
    assert res["state_after"][f"{WITCH}.毒药"] == 1


def test_no_spirit_feedback_once_antidote_is_gone() -> None:
    """女巫失去<救药>技能后，失去技能<通灵> — a later night brings no 通灵 feedback."""
    res = run(scenario(players={WITCH: {"uses": {"救药": 0, "毒药": 1, "通灵": False, "警觉": True}}},
                       actions=[act(PACK, "杀人", V2)]))
    assert told(res, WITCH) == []


def test_a_witch_schemed_against_has_no_spirit_feedback() -> None:
    """算计：使其在当晚无法发动任何技能 — <通灵> too: a witch without <警觉> whom the 老狼 blocks is not told
    the 指杀 (the night file's 通灵 tell at (3)), and her potions that night are refused."""
    res = run(scenario(players={WITCH: {"uses": {"救药": 1, "毒药": 1, "通灵": True, "警觉": False}}},
                       actions=[act(OLDW, "算计", WITCH), act(PACK, "杀人", V2), act(WITCH, "救药", V2)]))
    assert told(res, WITCH) == []
    assert refused(res) == [(WITCH, "救药")] and deaths(res) == [V2]
    assert f"(3) {WITCH}被{OLDW}<算计>封锁，当晚没有<通灵>，不告知" in res["log"]


def test_antidote_and_poison_not_the_same_night() -> None:
    """<救药>发动后，在该夜晚不可发动技能<毒药> (and <毒药>发动后…不可发动技能<救药>): the second is refused."""
    res = run(scenario(actions=[act(PACK, "杀人", V2), act(WITCH, "救药", V2), act(WITCH, "毒药", BIGW)]))
    assert refused(res) == [(WITCH, "毒药")]
    assert deaths(res) == []
    res = run(scenario(actions=[act(WITCH, "毒药", BIGW), act(WITCH, "救药", V2)]))
    assert refused(res) == [(WITCH, "救药")]
    assert res["state_after"][f"{WITCH}.毒药"] == "已失去" and deaths(res) == [BIGW]


def test_poison_goes_through_treatment_and_a_used_potion_is_refused() -> None:
    """毒药：该角色在夜晚结束前出局; （7）毒药和灭口结算 — 救治 voids only 指杀. A lost 毒药 cannot come back."""
    res = run(scenario(actions=[act(WITCH, "毒药", V2), act(DOC, "救治", V2)]))
    assert deaths(res) == [V2] and cause(res, V2) == f"毒药（{WITCH}）"
    res = run(scenario(players={WITCH: {"uses": {"救药": 1, "毒药": 0, "通灵": True, "警觉": True}}},
                       actions=[act(WITCH, "毒药", V2)]))
    assert refused(res) == [(WITCH, "毒药")] and deaths(res) == []


def test_seer_reads_factions() -> None:
    """预言：若该角色属于村民阵营，反馈<村民阵营>；否则，反馈<非村民阵营> — the 绑匪 too is 非村民."""
    res = run(scenario(actions=[act(SEER, "预言", KIDNAP)]))
    assert told(res, SEER) == [f"预言：{KIDNAP} <非村民阵营>"]
    res = run(scenario(actions=[act(SEER, "预言", V3)]))
    assert told(res, SEER) == [f"预言：{V3} <村民阵营>"]


def test_forage_tells_whether_the_role_is_villager() -> None:
    """觅食：可以选择一名玩家，反馈该玩家的身份是否为村民 — the role, not the faction."""
    res = run(scenario(actions=[act(BIGW, "觅食", V2)]))
    assert told(res, BIGW) == [f"觅食：{V2}的身份是村民"]
    res = run(scenario(actions=[act(BIGW, "觅食", DOC)]))
    assert told(res, BIGW) == [f"觅食：{DOC}的身份不是村民"]


def test_scheme_blocks_every_skill_of_its_target_and_is_spent() -> None:
    """算计<限定>：使其在当晚无法发动任何技能 — the seer's 预言 is refused with the reason; 算计 is spent."""
    res = run(scenario(actions=[act(OLDW, "算计", SEER), act(SEER, "预言", BIGW), act(PACK, "杀人", V2)]))
    assert refused(res) == [(SEER, "预言")]
    assert res["rejected"][0]["reason"] == f"{SEER}被老狼<算计>，当晚无法发动任何技能"
    assert told(res, SEER) == []
    assert res["state_after"][f"{OLDW}.算计"] == 0
    res = run(scenario(players={OLDW: {"tags": ["狼群"], "uses": {"算计": 0}}}, actions=[act(OLDW, "算计", SEER)]))
    assert refused(res) == [(OLDW, "算计")]


def test_alert_voids_scheme_forage_and_silence_on_the_witch() -> None:
    """警觉<强制>：当你成为<算计><灭口><觅食>的目标时，此技能无效且得知使用该技能对象的马甲。

    算计 on the witch: she still acts and learns the 老狼; 觅食 on her gives the 公狼 nothing and
    tells her; 灭口 on her (the 设计 target) does not take her out."""
    res = run(scenario(players={KIDNAP: {"uses": {"灭口": 1, "绑架": 1}, "设计目标": WITCH}},
                       actions=[act(OLDW, "算计", WITCH), act(BIGW, "觅食", WITCH), act(WITCH, "毒药", V2),
                                act(KIDNAP, "灭口", WITCH)]))
    assert refused(res) == []
    assert deaths(res) == [V2]
    mine = told(res, WITCH)
    assert f"警觉：{OLDW}对你使用了<算计>（无效）" in mine
    assert f"警觉：{BIGW}对你使用了<觅食>（无效）" in mine
    assert f"警觉：{KIDNAP}对你使用了<灭口>（无效）" in mine
    assert told(res, BIGW) == []
    assert res["state_after"][f"{OLDW}.算计"] == 0 and res["state_after"][f"{KIDNAP}.灭口"] == 0


def test_silence_and_kidnap_only_on_the_design_target() -> None:
    """灭口 ——夜晚行动时若绑匪选择的目标仍存活，可以选择使其出局（整局游戏中限一次）; 绑架 the same target.

    Another target is refused; 绑架 puts the target in 绑架 for the next day and the morning says so;
    once both are used the 绑匪 loses <设计> (当<灭口><绑架>技能都发动后，绑匪失去<设计>)."""
    res = run(scenario(actions=[act(KIDNAP, "灭口", V2)]))
    assert refused(res) == [(KIDNAP, "灭口")]
    # refused as submitted, another target does not replace the one on the 设计 target sent before it
    res = run(scenario(actions=[act(KIDNAP, "灭口", V4), act(KIDNAP, "灭口", V2)]))
    assert refused(res) == [(KIDNAP, "灭口")] and deaths(res) == [V4]
    res = run(scenario(players={KIDNAP: {"uses": {"灭口": 0, "绑架": 1}, "设计目标": V4}},
                       actions=[act(KIDNAP, "绑架", V4)]))
    assert deaths(res) == []
    assert res["state_after"][f"{V4}.status"] == ["绑架"]
    assert res["state_after"][f"{KIDNAP}.设计"] == "已失去"
    assert any(p["effect"].startswith(f"{V4}被绑架：第3天") for p in res["pending"])
    assert any("绑架" in line and V4 in line for line in res["announcement"]["lines"])
    assert told(res, V4)[0].startswith("绑架：你被绑架，第3天")
    res = run(scenario(night=3, players={V4: {"status": ["绑架"]}}))
    assert res["state_after"][f"{V4}.status"] == []


def test_silence_goes_out_at_step_7_after_poison() -> None:
    """（7）毒药和灭口结算 — both after 指杀, the out order is the order of exits: 指杀, 毒药, 灭口."""
    res = run(scenario(actions=[act(KIDNAP, "灭口", V4), act(WITCH, "毒药", V3), act(PACK, "杀人", V2)]))
    assert res["announcement"]["out_order"] == [V2, V3, V4]
    assert cause(res, V4) == f"灭口（{KIDNAP}）"
    assert res["state_after"][f"{KIDNAP}.设计"] == f"目标{V4}已出局，可以重新选择"


def test_design_target_can_be_chosen_again_only_once_out() -> None:
    """设计：当目标因任何原因出局时，可以重新选择目标 — by day, a living target keeps it."""
    res = run(scenario(day=3, actions=[act(KIDNAP, "设计", V2)]))
    assert refused(res) == [(KIDNAP, "设计")]
    res = run(scenario(day=3, dead={V4: {"night": 2, "cause": "灭口"}}, actions=[act(KIDNAP, "设计", V2)]))
    assert refused(res) == [] and res["state_after"][f"{KIDNAP}.设计目标"] == V2
    res = run(scenario(actions=[act(KIDNAP, "灭口", V4), act(KIDNAP, "设计", V2)]))
    assert res["state_after"][f"{KIDNAP}.设计目标"] == V2


def test_design_target_out_tells_the_kidnapper_and_setup_choice_aims_the_same_night() -> None:
    """设计：当目标因任何原因出局时，可以重新选择目标 — inside the target's exit the 绑匪 is told; one who lost <设计>
    (当<灭口><绑架>技能都发动后) is not. 设计：游戏开始前选择……成为目标 — a choice sent 游戏开始前 in the first
    night's settlement is the target 灭口 may take that night (若绑匪选择的目标仍存活)."""
    res = run(scenario(actions=[act(WITCH, "毒药", V4)]))
    assert f"设计：目标{V4}已出局，可以重新选择目标" in told(res, KIDNAP)
    res = run(scenario(players={KIDNAP: {"uses": {"灭口": 0, "绑架": 0}, "设计目标": V4}},
                       actions=[act(WITCH, "毒药", V4)]))
    assert told(res, KIDNAP) == [] and f"{KIDNAP}.设计" not in res["state_after"]
    scen = scenario(night=1, actions=[act(KIDNAP, "设计", V2, phase="游戏开始前"), act(KIDNAP, "灭口", V2)])
    del scen["setup"]["players"][12]["设计目标"]  # none kept before the game
    res = run(scen)
    assert refused(res) == [] and deaths(res) == [V2]


def test_gong_survives_any_strike_but_not_poison_and_shou_follows() -> None:
    """强攻：当攻成为指杀目标时不会出局; （6）一、…或者攻，指杀无效 — but 毒药 is no 指杀, and
    殉情<强制>：情侣中若有一人出局，另一人立即出局."""
    lv = {"类型": "基佬情深", "攻": V2, "受": V3}
    res = run(scenario(lovers=lv, actions=[act(PACK, "杀人", V2)]))
    assert deaths(res) == [] and res["survivals"] == [{"player": V2, "reason": "强攻：攻成为指杀目标时不会出局"}]
    res = run(scenario(lovers=lv, actions=[act(WITCH, "毒药", V2)]))
    assert deaths(res) == [V2, V3] and cause(res, V3) == f"殉情（{V2}出局）"


def test_shou_dies_through_treatment_and_antidote_and_gong_follows() -> None:
    """弱受：当受成为指杀目标时，不论受到任何防卫性技能的保护（如<救药>、<救治>等）都将立即出局."""
    lv = {"类型": "基佬情深", "攻": V2, "受": V3}
    res = run(scenario(lovers=lv, actions=[act(PACK, "杀人", V3), act(DOC, "救治", V3), act(WITCH, "救药", V3)]))
    assert deaths(res) == [V3, V2]
    assert res["survivals"] == []
    assert res["state_after"]["空救"] == {}


def test_master_bears_what_is_used_on_the_dog() -> None:
    """主人：夜间行动时行使于忠犬身上的全部有效技能全部为主人所承受 — the strike and the check on
    the dog land on the master; the master's exit leaves the dog alive (忠犬 waits)."""
    lv = {"类型": "人狗情未了", "主人": V2, "忠犬": V3}
    res = run(scenario(lovers=lv, actions=[act(PACK, "杀人", V3), act(SEER, "预言", V3)]))
    assert deaths(res) == [V2]
    assert any(f"由主人{V2}承受" in line for line in res["log"])
    assert told(res, SEER) == [f"预言：{V2} <村民阵营>"]
    assert any(p["player"] == V3 and "第3夜结束" in p["when"] for p in res["pending"])
    assert told(res, V3)[0].startswith(f"忠犬：主人{V2}已出局")


def test_dog_kills_on_its_night_and_follows_at_its_end_without_last_words() -> None:
    """忠犬：当主人出局时，忠犬可以存活至下一讨论日夜晚结束方发动<殉情>出局，并在下一讨论日夜晚获得<杀人>;
    （1）…因为主人出局获得技能的忠犬可以行使<杀人>; 难言<强制>——忠犬出局时没有遗言，且不消耗遗言数量."""
    lv = {"类型": "人狗情未了", "主人": V2, "忠犬": V3}
    scen = scenario(night=3, lovers=lv, dead={V2: {"night": 2, "cause": "杀人"}},
                    actions=[act(PACK, "杀人", V5), act(V3, "杀人", BIGW), act(WITCH, "毒药", OLDW)])
    res = run(scen)
    assert refused(res) == []
    assert deaths(res) == [V5, BIGW, OLDW, V3]
    assert cause(res, BIGW) == f"杀人（忠犬{V3}指杀）"
    assert cause(res, V3) == f"殉情（主人{V2}出局）"
    assert told(res, V3) == ["出局通知（难言：忠犬出局时没有遗言，且不消耗遗言数量）"]
    # 遗言: the master used the 1st place; V5, BIGW take the 2nd and 3rd; OLDW has none; the dog takes none.
    assert told(res, V5) == ["出局通知；可以留下遗言"] and told(res, OLDW) == ["出局通知（遗言数量已用完）"]


def test_dog_has_no_kill_before_its_night_or_with_master_alive() -> None:
    """忠犬…在下一讨论日夜晚获得<杀人> — not the same night its master went out by day, nor before."""
    lv = {"类型": "人狗情未了", "主人": V2, "忠犬": V3}
    res = run(scenario(night=3, lovers=lv, dead={V2: {"day": 3, "cause": "投票"}}, actions=[act(V3, "杀人", BIGW)]))
    assert refused(res) == [(V3, "杀人")] and V3 not in deaths(res)
    res = run(scenario(lovers=lv, actions=[act(V3, "杀人", BIGW)]))
    assert refused(res) == [(V3, "杀人")]


def test_dog_after_his_master_is_exiled_holds_the_kill_on_the_next_discussion_days_night_and_goes_at_its_end() -> None:
    """忠犬：当主人出局时，忠犬可以存活至下一讨论日夜晚结束方发动<殉情>出局，并在下一讨论日夜晚获得<杀人> — the 主人
    exiled on day 3: the 忠犬 is told and recorded (殉情夜, which the next table carries) for night 4, not night 3;
    on night 4 he strikes and, after (7), goes out by <殉情>."""
    lv = {"类型": "人狗情未了", "主人": V2, "忠犬": V3}
    res = run(scenario(day=3, lovers=lv, actions=[act("放逐投票", "投票出局", V2)]))
    assert deaths(res) == [V2] and res["state_after"]["殉情夜"] == {V3: 4}
    assert told(res, V3)[0] == (f"忠犬：主人{V2}已出局；你存活至第4夜结束，第4夜可以发动<杀人>；"
                                "此后只能用汪、呜以及小镇表情代替发言")
    dead = {V2: {"day": 3, "cause": "投票"}}
    res = run(scenario(night=3, lovers=lv, dead=dead, state={"殉情夜": {V3: 4}}, actions=[act(V3, "杀人", BIGW)]))
    assert refused(res) == [(V3, "杀人")] and V3 not in deaths(res)
    res = run(scenario(night=4, lovers=lv, dead=dead, state={"殉情夜": {V3: 4}},
                       actions=[act(V3, "杀人", BIGW), act(WITCH, "毒药", OLDW)]))
    assert refused(res) == [] and res["state_after"][f"{V3}.杀人"] is True
    assert deaths(res) == [BIGW, OLDW, V3] and cause(res, V3) == f"殉情（主人{V2}出局）"


def test_dog_out_takes_the_master_at_once() -> None:
    """殉情<强制> — the delay is the dog's alone: when the 忠犬 goes out (by day), the 主人 follows."""
    lv = {"类型": "人狗情未了", "主人": V2, "忠犬": V3}
    res = run(scenario(day=3, lovers=lv, actions=[act("放逐投票", "投票出局", V3)]))
    assert deaths(res) == [V3, V2]


def test_hero_out_takes_the_hostage_and_the_will_reveals_a_wolf() -> None:
    """遇难<强制>：当英雄因为非红牌罚下原因出局，人质也随之出局，并触发<遗志>; 遗志：若该角色当时仍
    存活且为狼人阵营，该角色的具体身份将会立即公示并失去所有技能."""
    res = run(scenario(actions=[act(PACK, "杀人", SEER), act(HOSTAGE, "遗志", OLDW)]))
    assert deaths(res) == [SEER, HOSTAGE] and cause(res, HOSTAGE) == f"遇难（英雄{SEER}出局）"
    assert f"遗志：{OLDW}的身份是老狼" in res["announcement"]["lines"]
    assert res["state_after"][f"{OLDW}.算计"] == "已失去"
    assert res["state_after"][f"{OLDW}.status"] == ["失去所有技能"]
    # The next night the shown wolf (失去所有技能) can use nothing, alone or with the pack.
    res = run(scenario(night=3, players={OLDW: {"status": ["失去所有技能"], "uses": {"算计": 0}}},
                       actions=[act(OLDW, "算计", DOC), act(f"狼群({BIGW},{OLDW})", "杀人", V2),
                                act(f"狼群({BIGW},{CUB})", "杀人", V3)]))
    assert refused(res) == [(OLDW, "算计"), (f"狼群({BIGW},{OLDW})", "杀人")] and deaths(res) == [V3]


def test_will_on_a_villager_does_nothing_and_an_absent_will_waits() -> None:
    """遗志 … 若该角色当时仍存活且为狼人阵营 — otherwise nothing; without a choice yet it is pending
    (人质在收到出局通知后在30分钟内行动)."""
    res = run(scenario(actions=[act(PACK, "杀人", SEER), act(HOSTAGE, "遗志", V2)]))
    assert not any(line.startswith("遗志") for line in res["announcement"]["lines"])
    res = run(scenario(actions=[act(PACK, "杀人", SEER)]))
    assert any(p["player"] == HOSTAGE and "遗志" in p["effect"] for p in res["pending"])


def test_will_the_morning_after_and_refused_without_disaster() -> None:
    """遗志：当遇难发动导致人质出局时 — a hostage out another way has no 遗志."""
    res = run(scenario(day=3, dead={SEER: {"night": 2, "cause": "杀人"}, HOSTAGE: {"night": 2, "cause": "遇难"}},
                       actions=[act(HOSTAGE, "遗志", CUB)]))
    assert f"遗志：{CUB}的身份是幼狼" in res["announcement"]["lines"]
    res = run(scenario(day=3, dead={HOSTAGE: {"night": 2, "cause": "毒药"}}, actions=[act(HOSTAGE, "遗志", CUB)]))
    assert refused(res) == [(HOSTAGE, "遗志")]
    # out by another cause in the same settlement, or not out at all: refused, not silently dropped
    res = run(scenario(actions=[act(WITCH, "毒药", HOSTAGE), act(HOSTAGE, "遗志", CUB)]))
    assert refused(res) == [(HOSTAGE, "遗志")] and not any(line.startswith("遗志") for line in res["announcement"]["lines"])
    res = run(scenario(day=3, actions=[act(HOSTAGE, "遗志", CUB)]))
    assert refused(res) == [(HOSTAGE, "遗志")]


def test_red_card_on_the_hero_spares_the_hostage_but_not_a_lover() -> None:
    """遇难：当英雄因为非红牌罚下原因出局 …; 红牌罚下…但情侣会触发<殉情>; 同一阵营的角色累计获得
    两张或以上红牌时，阵营判负 (不予公示)."""
    res = run(scenario(day=3, actions=[act("导演", "红牌罚下", SEER)]))
    assert deaths(res) == [SEER] and res["state_after"]["红牌"] == {"村民": 1}
    assert told(res, SEER) == ["出局通知（红牌罚下的角色没有遗言权利）"]
    lv = {"类型": "基佬情深", "攻": V2, "受": V3}
    res = run(scenario(day=3, lovers=lv, state={"红牌": {"村民": 1}}, actions=[act("导演", "红牌罚下", V2)]))
    assert deaths(res) == [V2, V3]
    assert res["state_after"]["判负阵营"] == ["村民"]
    assert not any("判负" in line for line in res["announcement"]["lines"])


def test_a_red_card_by_night_on_the_dog_is_his_not_his_masters() -> None:
    """主人：夜间行动时行使于忠犬身上的全部有效技能全部为主人所承受 — a red card is the director's penalty, not a
    skill cast on the 忠犬 (``not_to``): the 忠犬 himself goes out, and his 主人 after him by <殉情>
    ("红牌罚下……但情侣会触发<殉情>")."""
    lv = {"类型": "人狗情未了", "主人": V2, "忠犬": V3}
    res = run(scenario(night=3, lovers=lv, actions=[act("导演", "红牌罚下", V3)]))
    assert deaths(res) == [V3, V2] and cause(res, V3) == "红牌罚下" and cause(res, V2).startswith("殉情")
    assert res["state_after"]["红牌"] == {"村民": 1}


def test_red_carded_sheriff_successor_is_random_and_overridable() -> None:
    """警长因红牌罚下而出局后，下任警长将被随机指定 — a seeded pick, the director may set it."""
    res = run(scenario(day=3, actions=[act("导演", "红牌罚下", V1)]), seed=3)
    q = res["questions"][0]
    assert q["key"] == f"警长.{V1}" and q["by"] == "seed"
    assert res["tags_moved"][0]["from"] == V1 and res["tags_moved"][0]["to"] == q["taken"]
    res = run(scenario(day=3, actions=[act("导演", "红牌罚下", V1)]), decisions={f"警长.{V1}": V5})
    assert res["tags_moved"][0]["to"] == V5 and res["state_after"]["警长"] == V5


def test_an_exile_that_ends_the_game_is_still_announced() -> None:
    """白天因投票出局的所有角色将立即公示 — also when that exile decides the game (宣布阵营获得胜利会立即终止一切
    结算: the settlement stops, the 公示 of the exile stands). The exile is the night file's <投票出局> (data);
    the table keeps it in the scenario vocabulary's word, 投票, which the next morning's 公示 reads."""
    gone = {"night": 2, "cause": "杀人"}
    res = run(scenario(day=3, dead={BIGW: gone, OLDW: gone}, actions=[act("放逐投票", "投票出局", CUB)]))
    assert res["outcome"]["winner"] == "村民" and deaths(res) == [CUB]
    assert res["announcement"]["lines"] == [f"投票出局：{CUB}"]
    res = run(scenario(day=3, actions=[act("放逐投票", "投票出局", V2)]))
    assert res["log"][0] == f"第3天投票：{V2}得票最多 → 出局"
    after = run(scenario(night=3, dead={V2: {"day": 3, "cause": "投票"}}))
    assert after["announcement"]["lines"][0] == f"第3天因投票出局：{V2}"


def test_exiled_sheriff_hands_over_and_the_vote_is_announced_at_once() -> None:
    """殉职<强制>：警长并非因为罚下而出局后，须选择一名未出局的角色来继任警长; 白天因投票出局的所有角色
    将立即公示. Without a choice yet, it waits."""
    res = run(scenario(day=3, actions=[act("放逐投票", "投票出局", V1), act(V1, "殉职", V3)]))
    assert res["tags_moved"] == [{"tag": "警长", "from": V1, "to": V3, "via": "殉职"}]
    assert res["announcement"]["lines"] == [f"投票出局：{V1}", f"警长<殉职>：{V1}将警徽移交给{V3}"]
    res = run(scenario(day=3, actions=[act("放逐投票", "投票出局", V1)]))
    assert any("殉职" in p["effect"] for p in res["pending"])
    res = run(scenario(day=3, actions=[act(V2, "殉职", V3)]))
    assert refused(res) == [(V2, "殉职")]
    res = run(scenario(actions=[act(PACK, "杀人", V1), act(V1, "殉职", V4)]))
    assert res["state_after"]["警长"] == V4 and f"当日警长：{V4}" in res["announcement"]["lines"]
    res = run(scenario(actions=[act(PACK, "杀人", V1)]))
    assert f"当日警长：待{V1}<殉职>选择继任者" in res["announcement"]["lines"]


def test_sheriff_out_the_day_before_names_his_successor_at_the_next_settlement() -> None:
    """殉职<强制>："警长并非因为罚下而出局后，须选择一名未出局的角色来继任警长" — exiled without a choice
    (the 公示 says 待…<殉职>), his choice at the night desk passes the badge first thing (before:
    refused as "没有作为警长出局"); a target already out is refused; a red-carded sheriff has none."""
    gone = {V1: {"day": 2, "cause": "投票"}}
    res = run(scenario(dead=gone, actions=[act(V1, "殉职", V3), act(PACK, "杀人", V3)]))
    assert res["rejected"] == [] and res["tags_moved"] == [{"tag": "警长", "from": V1, "to": V3, "via": "殉职"}]
    assert res["log"].index(f"警长：{V1} → {V3}（殉职）") < res["log"].index(f"(1) 狼群指杀{V3}")
    res = run(scenario(dead={**gone, V2: {"night": 1, "cause": "毒药"}}, actions=[act(V1, "殉职", V2)]))
    assert refused(res) == [(V1, "殉职")] and res["tags_moved"] == []
    res = run(scenario(day=3, actions=[act("导演", "红牌罚下", V1), act(V1, "殉职", V3)]))
    assert refused(res) == [(V1, "殉职")] and [t["via"] for t in res["tags_moved"]] == ["红牌罚下后随机指定"]


def test_cub_sacrifice_goes_out_at_step_1_and_spurs_the_next_night() -> None:
    """牺牲：若幼狼并非狼群内唯一存活的角色，幼狼可以主动出局; 激励<强制>：当幼狼并非因红牌罚下而
    出局后，仅限下一个夜晚，狼人可以再使用一次<杀人>技能."""
    res = run(scenario(actions=[act(CUB, "牺牲"), act(WITCH, "毒药", V2)]))
    assert deaths(res) == [CUB, V2] and cause(res, CUB) == f"牺牲（{CUB}主动出局）"
    assert res["state_after"]["激励"] == {"night": 3}
    res = run(scenario(dead={BIGW: {"night": 1, "cause": "毒药"}, OLDW: {"day": 2, "cause": "投票"}},
                       players={KIDNAP: {"alive": False, "uses": {"灭口": 1, "绑架": 1}, "设计目标": V4}},
                       actions=[act(CUB, "牺牲")]))
    assert refused(res) == [(CUB, "牺牲")]


def test_spur_night_two_strikes_and_red_card_gives_none() -> None:
    """激励 — on the spurred night both of the pack's 指杀 settle in (6); a red-carded 幼狼 spurs nothing."""
    res = run(scenario(night=3, dead={CUB: {"night": 2, "cause": "牺牲"}}, state={"激励": {"night": 3}},
                       actions=[act(f"狼群({BIGW},{OLDW})", "杀人", V2), act(f"狼群({BIGW},{OLDW})", "杀人", V3)]))
    assert deaths(res) == [V2, V3]
    res = run(scenario(night=3, dead={CUB: {"night": 2, "cause": "牺牲"}},
                       actions=[act(f"狼群({BIGW},{OLDW})", "杀人", V2), act(f"狼群({BIGW},{OLDW})", "杀人", V3)]))
    assert deaths(res) == [V3]
    res = run(scenario(day=3, actions=[act("导演", "红牌罚下", CUB)]))
    assert "激励" not in res["state_after"]
    res = run(scenario(day=3, actions=[act("放逐投票", "投票出局", CUB)]))  # day 3's exile: night 3 spurred
    assert res["state_after"]["激励"] == {"night": 3}
    assert told(res, BIGW) == ["激励：幼狼已出局，第3夜狼人可以再使用一次<杀人>"]
    res = run(scenario(actions=[act(CUB, "激励")]))  # 强制: it acts by itself, nobody submits it
    assert refused(res) == [(CUB, "激励")] and "激励" not in res["state_after"]


def test_two_wolves_out_keeps_the_game_and_the_last_wolf_loses_the_pack() -> None:
    """负 1、狼人阵营的公狼、老狼、幼狼全部出局 — judged lost, not announced; the kidnapper's
    faction cannot win any more, and with one faction left it wins (场上仅有一个阵营尚未被判负)."""
    res = run(scenario(night=4, dead={BIGW: {"night": 2, "cause": "毒药"}, OLDW: {"day": 3, "cause": "投票"}},
                       actions=[act(SEER, "预言", CUB), act(WITCH, "毒药", CUB)]))
    assert res["state_after"]["判负阵营"] == ["狼人"]
    assert res["outcome"]["winner"] == "村民"
    assert res["outcome"]["clause"] == "场上仅有一个阵营尚未被判负，游戏立即结束，宣布此阵营胜利。"


def test_a_win_at_a_data_step_still_writes_the_announcement_and_the_notices() -> None:
    """宣布阵营获得胜利会立即终止一切结算 — but the morning's 公示 and the exit notices are still written when
    the win comes at a data step: the 幼狼's <牺牲> (1) takes his 攻 with him (殉情), the last wolves, and the
    村民 win (before: no 公示 line, no notice)."""
    dead = {BIGW: {"night": 1, "cause": "毒药"}, CUPID: {"night": 1, "cause": "杀人"}}
    res = run(scenario(night=3, dead=dead, lovers={"类型": "基佬情深", "攻": OLDW, "受": CUB},
                       actions=[act(CUB, "牺牲")]))
    assert res["outcome"]["winner"] == "村民" and deaths(res) == [CUB, OLDW]
    assert res["announcement"]["lines"][0] == f"第3夜出局：{CUB}、{OLDW}"
    assert told(res, CUB) == ["出局通知；可以留下遗言"]


def test_wolves_reaching_half_win_and_stop_settlement() -> None:
    """狼人胜 1、狼人阵营存活的人数占总存活人数的一半或一半以上; 宣布阵营获得胜利会立即终止一切结算 —
    the (6) kill gives half, so the (7) poison is never settled."""
    dead = {n: {"night": 1, "cause": "杀人"} for n in (V1, V2, V3, V4, CUPID)}
    res = run(scenario(night=3, dead=dead, actions=[act(PACK, "杀人", V5), act(WITCH, "毒药", OLDW)]))
    assert res["outcome"]["winner"] == "狼人"
    assert deaths(res) == [V5]
    assert res["log"][-1] == "胜负已分，立即终止结算"


def test_surrender_loses_the_faction_quietly() -> None:
    """投降：当所有被询问的角色（包括已出局角色）同意投降，投降有效。该阵营优先判负，不公示."""
    res = run(scenario(day=3, actions=[act("导演", "投降", choice="狼人")]))
    assert res["state_after"]["判负阵营"] == ["狼人"] and res["outcome"]["winner"] == "村民"
    res = run(scenario(day=3, actions=[act("导演", "投降", choice="村民")]))
    assert refused(res) == [("导演", "投降")]


# ── setup: 双歧之箭 and the lovers' factions ────────────────────────────────────────────────

def _setup(*targets: str, kind: str, roles: list[str] | None = None) -> dict[str, Any]:
    # Before the lovers are chosen the 丘比特 is in the post's 【其他】, the 黑情侣 of the day ruleset.
    scen = scenario(night=1, roles=roles, players={CUPID: {"faction": "黑情侣"}},
                    actions=[act(CUPID, "双歧之箭", *targets, choice=kind, phase="游戏开始前")])
    del scen["setup"]["state"]["空救"]
    return run(scen)


def test_two_villagers_make_the_cupid_a_villager() -> None:
    """变异丘比特连双民变民 …（双民丘比特变民）— lovers of one faction keep it; 情侣 and tags set."""
    res = _setup(V2, V3, kind="人狗情未了")
    assert res["state_after"]["情侣"] == {"类型": "人狗情未了", "主人": V2, "忠犬": V3}
    assert [(c["player"], c["to"]["faction"]) for c in res["conversions"]] == [(CUPID, "村民")]
    assert told(res, V2)[0].startswith(f"恋爱：你与{V3}成为情侣")


def test_wolf_and_villager_elope_and_the_wolf_loses_its_kill() -> None:
    """私奔<强制>：若情侣的身份不属于同一个阵营，情侣均脱离各自的阵营，形成【黑情侣阵营】; 恋爱：若情侣中
    有且只有一名狼人，则它失去<杀人>技能，且不与其他狼人阵营的角色互知共群."""
    res = _setup(BIGW, V2, kind="基佬情深")
    conv = {c["player"]: c["to"]["faction"] for c in res["conversions"]}
    assert conv == {BIGW: "黑情侣", V2: "黑情侣"}
    lv = {"类型": "基佬情深", "攻": BIGW, "受": V2}
    scen = scenario(lovers=lv, players={BIGW: {"faction": "黑情侣", "tags": ["情侣:攻"]}, V2: {"faction": "黑情侣"},
                                        CUPID: {"faction": "黑情侣"}},
                    actions=[act(f"狼群({BIGW},{OLDW})", "杀人", V3), act(f"狼群({OLDW},{CUB})", "杀人", V4)])
    res = run(scen)
    assert refused(res) == [(f"狼群({BIGW},{OLDW})", "杀人")] and deaths(res) == [V4]


def test_kidnapper_and_wolf_join_the_pack_and_the_cupid_the_wolves() -> None:
    """特别的，当绑匪和公狼/老狼/幼狼成为情侣时，绑匪加入狼群，丘比特加入狼人阵营; 背叛——当绑匪成为情侣时，
    失去<设计><灭口><绑架>，并得知人质马甲."""
    res = _setup(KIDNAP, CUB, kind="基佬情深")
    assert [(c["player"], c["to"]["faction"]) for c in res["conversions"]] == [(CUPID, "狼人")]
    assert res["state_after"][f"{KIDNAP}.灭口"] == "已失去" and res["state_after"][f"{KIDNAP}.设计"] == "已失去"
    assert f"背叛：人质是{HOSTAGE}" in told(res, KIDNAP)
    lv = {"类型": "基佬情深", "攻": KIDNAP, "受": CUB}
    res = run(scenario(lovers=lv, players={KIDNAP: {"tags": ["狼群"], "uses": {"灭口": 0, "绑架": 0}}},
                       actions=[act(f"狼群({KIDNAP},{BIGW})", "杀人", V2), act(KIDNAP, "绑架", V4)]))
    assert deaths(res) == [V2] and refused(res) == [(KIDNAP, "绑架")]


def test_hostage_lover_escapes() -> None:
    """逃脱<强制>——当人质成为情侣时，失去<遇难><遗志>。并得知绑匪马甲 — the hero's exit no longer takes him."""
    res = _setup(HOSTAGE, V2, kind="基佬情深")
    assert f"逃脱：绑匪是{KIDNAP}" in told(res, HOSTAGE)
    assert res["state_after"][f"{HOSTAGE}.遇难"] == "已失去" and res["state_after"][f"{HOSTAGE}.遗志"] == "已失去"
    lv = {"类型": "基佬情深", "攻": HOSTAGE, "受": V2}
    res = run(scenario(lovers=lv, actions=[act(PACK, "杀人", SEER)]))
    assert deaths(res) == [SEER]


def test_two_wolves_cupid_takes_the_knife_only_after_the_wolves() -> None:
    """（双狼丘比特变狼且狼人全部出局后接刀）; 连绑匪和狼则…丘比特加入狼人阵营但狼全部出局之后不接刀."""
    res = _setup(BIGW, OLDW, kind="基佬情深")
    assert [(c["player"], c["to"]["faction"]) for c in res["conversions"]] == [(CUPID, "狼人")]
    lv = {"类型": "基佬情深", "攻": BIGW, "受": OLDW}
    wolves_out = {BIGW: {"night": 2, "cause": "毒药"}, OLDW: {"night": 2, "cause": "殉情"}, CUB: {"day": 3, "cause": "投票"}}
    res = run(scenario(night=3, lovers=lv, dead=wolves_out, players={CUPID: {"faction": "狼人"}},
                       actions=[act(CUPID, "杀人", V2)]))
    assert refused(res) == [] and V2 in deaths(res)
    res = run(scenario(night=3, lovers=lv, players={CUPID: {"faction": "狼人"}}, actions=[act(CUPID, "杀人", V2)]))
    assert refused(res) == [(CUPID, "杀人")]


def test_widow_knife_after_the_wolves_lose() -> None:
    """寡妇刀—— 若情侣属于【黑情侣阵营】，当【狼人阵营】优先判负后，情侣获得技能<杀人>。此事件发生时会
    通知黑情侣阵营."""
    lv = {"类型": "基佬情深", "攻": BIGW, "受": V2}
    black = {BIGW: {"faction": "黑情侣", "tags": ["情侣:攻"]}, V2: {"faction": "黑情侣"}, CUPID: {"faction": "黑情侣"}}
    res = run(scenario(night=3, lovers=lv, players=black, dead={OLDW: {"night": 1, "cause": "毒药"}},
                       actions=[act(f"{BIGW}+{V2}", "杀人", V3), act(SEER, "预言", CUB), act(WITCH, "毒药", CUB)]))
    assert refused(res) == [(f"{BIGW}+{V2}", "杀人")]
    assert res["state_after"]["判负阵营"] == ["狼人"]
    # "情侣获得技能<杀人>": each lover holds it from now on (their uses, which the next night's table carries);
    # "此事件发生时会通知黑情侣阵营": every player of the faction is told once, the 丘比特 too
    assert res["state_after"][f"{BIGW}.杀人"] is True and res["state_after"][f"{V2}.杀人"] is True
    for p in (BIGW, V2, CUPID):
        assert told(res, p).count("寡妇刀：狼人阵营已判负，情侣获得技能<杀人>") == 1
    black_lost = dict(black)
    res = run(scenario(night=4, lovers=lv, players=black_lost, state={"判负阵营": ["狼人"]},
                       dead={OLDW: {"night": 1, "cause": "毒药"}, CUB: {"night": 3, "cause": "毒药"}},
                       actions=[act(f"{BIGW}+{V2}", "杀人", V3)]))
    assert refused(res) == [] and deaths(res) == [V3] and cause(res, V3) == f"杀人（黑情侣{BIGW}+{V2}指杀）"


def test_widow_knife_after_a_surrender_and_not_for_lovers_of_the_village() -> None:
    """寡妇刀 … 当【狼人阵营】优先判负后 — a surrender by day ("该阵营优先判负，不公示") sets it off as the win check's
    loss does; 若情侣属于【黑情侣阵营】 — lovers of the village gain nothing, and nobody is told."""
    lv = {"类型": "基佬情深", "攻": BIGW, "受": V2}
    black = {BIGW: {"faction": "黑情侣"}, V2: {"faction": "黑情侣"}, CUPID: {"faction": "黑情侣"}}
    res = run(scenario(day=3, lovers=lv, players=black, actions=[act("导演", "投降", choice="狼人")]))
    assert res["state_after"][f"{BIGW}.杀人"] is True and res["state_after"][f"{V2}.杀人"] is True
    assert "寡妇刀：狼人阵营已判负，情侣获得技能<杀人>" in told(res, CUPID)
    lv = {"类型": "基佬情深", "攻": V1, "受": V2}
    res = run(scenario(day=3, lovers=lv, actions=[act("导演", "投降", choice="狼人")]))
    assert f"{V1}.杀人" not in res["state_after"] and not any("寡妇刀" in f["content"] for f in res["feedback"])


def _named(first: str, second: str, *, kind: str) -> dict[str, Any]:
    """The lovers given as a setup fact (``state.情侣``, the director's ``setup 情侣``), the arrow not
    submitted: the seats do not carry the lovers' tags yet."""
    k1, k2 = {"基佬情深": ("攻", "受"), "人狗情未了": ("主人", "忠犬")}[kind]
    scen = scenario(night=1, players={CUPID: {"faction": "黑情侣"}}, state={"情侣": {"类型": kind, k1: first, k2: second}})
    del scen["setup"]["state"]["空救"]
    return scen


@pytest.mark.parametrize(("pair", "kind", "factions"), [
    ((V2, V3), "人狗情未了", {CUPID: "村民"}),                 # 双民丘比特变民
    ((SEER, WITCH), "基佬情深", {CUPID: "村民"}),              # 双大特丘比特变大特
    ((BIGW, V2), "基佬情深", {BIGW: "黑情侣", V2: "黑情侣"}),  # 私奔 (the cupid is 黑情侣 already)
    ((KIDNAP, CUB), "基佬情深", {CUPID: "狼人"}),              # 绑匪和狼：丘比特加入狼人阵营
    ((BIGW, OLDW), "基佬情深", {CUPID: "狼人"}),               # 双狼丘比特变狼
])
def test_lovers_named_as_a_setup_fact_make_the_factions_the_arrow_makes(
        pair: tuple[str, str], kind: str, factions: dict[str, str], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """恋爱<强制> —— 游戏开始时被丘比特选择的两名角色成为情侣; 私奔<强制> —— 情侣产生时，若情侣的身份不属于
    同一个阵营，情侣均脱离各自的阵营，形成【黑情侣阵营】; （双民丘比特变民，双狼丘比特变狼且狼人全部出局后接刀，
    双大特丘比特变大特）. Lovers given as a setup fact are made lovers by the arrow's own steps: the
    same conversions, tags, lost skills and notices, through the command line as well."""
    arrow = _setup(*pair, kind=kind)
    f = tmp_path / "named.json"
    f.write_text(json.dumps(_named(*pair, kind=kind), ensure_ascii=False), "utf-8")
    assert main(["night", "simulate", "--ruleset", RID, str(f), "--json"]) == 0
    named = json.loads(capsys.readouterr().out)
    assert {c["player"]: c["to"]["faction"] for c in named["conversions"]} == factions
    assert named["conversions"] == arrow["conversions"] and named["feedback"] == arrow["feedback"]
    assert named["state_after"] == arrow["state_after"]


def test_lovers_made_already_are_not_made_again() -> None:
    """Once made (the tags on both, as every later table and the shared examples hold them), the
    lovers' setup fact changes nothing: 私奔 happens once, "情侣产生时"."""
    lv = {"类型": "基佬情深", "攻": BIGW, "受": V2}
    res = run(scenario(lovers=lv, players={BIGW: {"faction": "黑情侣"}, V2: {"faction": "黑情侣"},
                                           CUPID: {"faction": "黑情侣"}}))
    assert res["conversions"] == [] and not any(line.startswith("私奔") for line in res["log"])
    assert not any(f["content"].startswith("恋爱") for f in res["feedback"])


def test_named_lovers_take_the_eloped_wolf_out_of_the_pack_that_night() -> None:
    """恋爱：若情侣中有且只有一名狼人，则它失去<杀人>技能，且不与其他狼人阵营的角色互知共群 — lovers
    named as a setup fact, the pack's kill with the eloped wolf in it is refused on night 1."""
    scen = _named(BIGW, V2, kind="基佬情深")
    scen["actions"] = [act(f"狼群({BIGW},{OLDW})", "杀人", V3)]
    res = run(scen)
    assert refused(res) == [(f"狼群({BIGW},{OLDW})", "杀人")] and deaths(res) == []


def test_hero_setup_and_design_setup() -> None:
    """遇难<强制>———游戏开始前选择一名角色成为英雄; 设计<强制>—— 游戏开始前选择除自己外任何一名角色成为目标."""
    scen = scenario(night=1, actions=[act(HOSTAGE, "遇难", V3, phase="游戏开始前"), act(KIDNAP, "设计", V5, phase="游戏开始前"),
                                      act(KIDNAP, "设计", KIDNAP, phase="游戏开始前")])
    res = run(scen)
    assert res["state_after"][f"{HOSTAGE}.英雄"] == V3 and res["state_after"][f"{KIDNAP}.设计目标"] == V5
    assert refused(res) == [(KIDNAP, "设计")]


# ── morning 公示, 遗言, purity, speed, and the generic keys this game added ───────────────────

def test_morning_lines_in_the_posts_order_without_identities() -> None:
    """每个游戏日白天开始时，都会公示前一天因投票出局角色名单、夜晚出局角色名单、当日警长; 游戏进行期间
    以任何方式出局的角色均不公示其身份."""
    res = run(scenario(night=3, dead={V2: {"day": 3, "cause": "投票"}}, actions=[act(PACK, "杀人", DOC)]))
    lines = res["announcement"]["lines"]
    assert lines[:3] == [f"第3天因投票出局：{V2}", f"第3夜出局：{DOC}", f"当日警长：{V1}"]
    assert not any("医生" in line for line in lines)


def test_settlement_is_deterministic_and_pure() -> None:
    """The same table, actions and seed give the same result; the input is not changed."""
    scen = scenario(actions=[act(PACK, "杀人", SEER), act(WITCH, "毒药", V1)])
    before = copy.deepcopy(scen)
    assert run(scen, seed=5) == run(scen, seed=5)
    assert scen == before


def test_a_24_player_night_settles_the_same_every_time() -> None:
    """The director previews after every entry, so a 24-player night must settle alike each time.
    Its speed is measured by benchmarks/bench_night.py, not asserted here (a timed assert only
    measures how busy the machine running the tests is)."""
    roles = ROLES + ["村民"] * 10
    scen = scenario(roles=roles, actions=[act(PACK, "杀人", V2), act(DOC, "救治", V3), act(WITCH, "毒药", "P20"),
                                          act(SEER, "预言", BIGW), act(KIDNAP, "灭口", V4), act(OLDW, "算计", DOC)])
    rs = load_ruleset(RID)
    cat = load_catalog(rs.id, rs.night_path, tuple(r.name for r in rs.roles))
    table, actions = load(scen)
    first = settle(cat, table, actions)
    assert first.to_json() == settle(cat, table, actions).to_json()
    out = [d.player for d in first.deaths]
    assert len(out) == len(set(out)) and "P20" in out


def test_every_skill_of_the_post_is_in_the_data_with_its_clause() -> None:
    """Skills as data: each of the post's skills has an entry and its sentence."""
    rs = load_ruleset(RID)
    cat = load_catalog(rs.id, rs.night_path, tuple(r.name for r in rs.roles))
    assert cat.scenario_game == GAME
    for name in ("预言", "通灵", "救药", "毒药", "警觉", "救治", "遇难", "遗志", "逃脱", "杀人", "觅食", "算计", "激励",
                 "牺牲", "设计", "灭口", "绑架", "背叛", "双歧之箭", "主人", "忠犬", "难言", "强攻", "弱受", "恋爱",
                 "殉情", "私奔", "寡妇刀", "竞岗", "带队", "殉职"):
        assert cat.skill(name).clause.startswith(name[:2]), name


def test_generic_gained_key_lets_the_hook_decide_the_holder() -> None:
    """catalog ``gained``: a skill held outside its roles passes the generic holder check (the hook
    decides); without it a non-holder is refused. Director actors have no seat behind them."""
    data = {"ruleset": "t", "skills": [
        {"name": "杀人", "team": "狼群", "roles": ["狼人"], "targets": 1, "gained": True},
        {"name": "刀", "team": "狼群", "roles": ["狼人"], "targets": 1},
        {"name": "红牌", "team": "导演", "phase": "passive", "targets": 1},
        {"name": "查", "roles": ["村民"], "targets": 1}]}
    cat = parse_catalog(data, "t")
    table = Table(players={"P01": Seat("P01", "村民", "村民"), "P02": Seat("P02", "狼人", "狼人")}, state={}, night=2)
    assert refusal(table, Action("P01", "杀人", ("P02",)), cat.skill("杀人")) is None
    assert refusal(table, Action("P01", "刀", ("P02",)), cat.skill("刀")) is not None
    assert Action("导演", "红牌", ("P01",)).members == ()
    assert refusal(table, Action("导演", "红牌", ("P01",)), cat.skill("红牌")) is None
    assert refusal(table, Action("导演", "杀人", ("P01",)), cat.skill("杀人")) == "杀人是狼群的团队技能"
    assert refusal(table, Action("导演", "查", ("P02",)), cat.skill("查")) == "导演不是玩家，不能发动<查>"


# ── random legal-looking nights never break the engine's promises ──────────────────────────

_NAMES = [f"P{i:02d}" for i in range(1, 15)]
_SUBMITTERS = [(PACK, "杀人"), (DOC, "救治"), (WITCH, "救药"), (WITCH, "毒药"), (SEER, "预言"), (KIDNAP, "灭口"),
               (KIDNAP, "绑架"), (OLDW, "算计"), (BIGW, "觅食"), (CUB, "牺牲"), (V3, "杀人"), (HOSTAGE, "遗志")]


@st.composite
def _nights(draw: st.DrawFn) -> dict[str, Any]:
    dead_names = draw(st.sets(st.sampled_from(_NAMES), max_size=6))
    kind = draw(st.sampled_from([None, "基佬情深", "人狗情未了"]))
    lv = None if kind is None else ({"类型": kind, "攻": V2, "受": V3} if kind == "基佬情深"
                                    else {"类型": kind, "主人": V2, "忠犬": V3})
    dead = {n: {"night": 1, "cause": "杀人"} for n in dead_names}
    acts = []
    for actor, skill in draw(st.lists(st.sampled_from(_SUBMITTERS), max_size=8)):
        targets = [] if skill == "牺牲" else [draw(st.sampled_from(_NAMES))]
        if skill in ("灭口", "绑架"):
            targets = [V4]
        acts.append(act(actor, skill, *targets))
    return scenario(night=draw(st.integers(2, 5)), lovers=lv, dead=dead,
                    state={"空救": draw(st.dictionaries(st.sampled_from(_NAMES), st.integers(0, 1), max_size=3))},
                    actions=acts)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_nights(), st.integers(0, 3))
def test_random_nights_never_kill_twice_nor_let_the_dead_act(scen: dict[str, Any], seed: int) -> None:
    """Whatever is submitted: no crash, nobody out twice, nobody out who was out already, a player
    out at the start never acts (his submission is refused), the same seed gives the same result."""
    res = run(scen, seed=seed)
    out = deaths(res)
    assert len(out) == len(set(out))
    dead = {p["name"] for p in scen["setup"]["players"] if not p["alive"]}
    assert not dead & set(out)
    settled = {(r["actor"], r["skill"]) for r in res["rejected"]}
    for a in scen["actions"]:
        members = set(a["actor"].strip("狼群()").replace("+", ",").split(","))
        if members & dead and a["skill"] != "遗志":
            assert (a["actor"], a["skill"]) in settled
    assert run(scen, seed=seed) == res

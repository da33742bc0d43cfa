"""The shared night vocabulary: the same words mean the same thing in every game.

Each test quotes the sentence of ``shared/night/README.md`` ("One vocabulary for every game") it
proves, and runs it over the five bundled rulesets through the scenarios of the shared examples
(copied into tests/fixtures/night/examples.json), changed only where the test says so.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from tracker.cli import main
from tracker.engine.night import load_catalog, settle
from tracker.engine.night.desk import phase_key
from tracker.engine.night.model import Settlement
from tracker.engine.night.scenario import load, validate
from tracker.errors import ConfigError

EXAMPLES = Path(__file__).parent / "fixtures" / "night" / "examples.json"
RULESETS = {"000_4699463e7e8ec455.txt": "dnf-107", "001_a3a63ea6957c226f.txt": "sanguo-213",
            "002_558fa90179aecb96.txt": "luoluo-m19", "003_7c6681f418104c25.txt": "gourmet-m160",
            "004_757e71c89bc341d0.txt": "accel-m65"}


def example(sid: str) -> dict[str, Any]:
    data = json.loads(EXAMPLES.read_text("utf-8"))
    return copy.deepcopy(next(s for s in data["scenarios"] if s["id"] == sid))


def run(sc: dict[str, Any], actions: list[dict[str, Any]] | None = None, **decisions: str) -> Settlement:
    if actions is not None:
        sc = {**sc, "actions": actions}
    validate(sc)
    table, acts = load(sc)
    return settle(load_catalog(RULESETS[sc["game"]]), table, acts, decisions=decisions)


def as_day(sc: dict[str, Any], day: int) -> dict[str, Any]:
    sc["setup"].pop("night", None)
    sc["setup"]["day"] = day
    return sc


# -- phases ----------------------------------------------------------------------------------------
def test_the_public_phase_words_are_accepted_for_a_day_skill() -> None:
    """"Phases (action.phase, the schema's enum): 夜晚 (the default inside a night), 白天, 晨曦, 正午,
    黄昏, 关门, 游戏开始前 — the post's words." Before: "<牵制>只能在白天发动（本次为白天）"."""
    sc = as_day(example("ex-dnf107-N01"), 2)
    res = run(sc, [{"actor": "P06+P18", "skill": "牵制", "targets": ["P09"], "phase": "白天"}])
    assert res.rejected == []
    assert res.state_after["牵制上次"] == {"target": "P09", "day": 2}


def test_a_night_skill_written_with_phase_yewan_settles_in_its_night() -> None:
    """夜晚 is "the default inside a night": writing it changes nothing."""
    plain = run(example("ex-m19-N01"))
    sc = example("ex-m19-N01")
    for a in sc["actions"]:
        a["phase"] = "夜晚"
    worded = run(sc)
    assert worded.rejected == [] and worded.to_json()["deaths"] == plain.to_json()["deaths"]
    assert worded.feedback == plain.feedback


def test_a_day_block_written_baitian_acts_in_the_night() -> None:
    """M65's 天璇紫后 cast in the day (phase 白天) blocks the target that night, exactly like the
    internal word: "<天璇紫后>…：游戏日白天，…该玩家当晚无法使用任何技能"."""
    sc = example("ex-m65-N01")
    acts = [{"actor": "P10", "skill": "天璇紫后", "targets": ["P08"], "phase": "白天"}, *sc["actions"]]
    res = run(sc, acts)
    assert [r.actor for r in res.rejected] == ["P08"]


def test_the_desk_reads_baitian_as_the_day_itself() -> None:
    assert phase_key(day=3, phase="白天") == phase_key(day=3) == "day:3"
    assert phase_key(day=3, phase="晨曦") == "day:3:晨曦"


def test_the_schema_takes_the_phase_words_and_refuses_others() -> None:
    sc = example("ex-dnf107-N01")
    sc["actions"][0]["phase"] = "白天"
    validate(sc)
    sc["actions"][0]["phase"] = "daytime"
    with pytest.raises(ConfigError, match=r"actions\[0\]\.phase"):
        validate(sc)


# -- refusals --------------------------------------------------------------------------------------
def test_a_refusal_carries_its_targets() -> None:
    """"A refused action (rejected) carries actor, skill, targets, reason, clause." The M160 example
    asserts the refused 面具's targets (["P02"])."""
    sc = example("ex-m160-N02")
    want = sc["expected"]["rejected_actions"]
    out = run(sc).to_json()["rejected"]
    assert [(r["actor"], r["skill"], r["targets"]) for r in out] == \
        [(r["actor"], r["skill"], r["targets"]) for r in want]
    assert all(set(r) == {"actor", "skill", "targets", "reason", "clause"} for r in out)


def test_m65_a_blocked_actor_is_listed_as_refused_with_the_blocker() -> None:
    """"An actor blocked before he acts (封锁, 牵制, 禁锢 …) is refused, with the blocker in the
    reason." M65: "<天璇紫后>…该玩家当晚无法使用任何技能" — 骑士 P08's <深青之桩> that night."""
    sc = example("ex-m65-N01")
    res = run(sc, [{"actor": "P10", "skill": "天璇紫后", "targets": ["P08"], "phase": "白天"},
                   {"actor": "P08", "skill": "深青之桩", "targets": ["P11"]}])
    assert [(r.actor, r.skill, r.targets) for r in res.rejected] == [("P08", "深青之桩", ("P11",))]
    assert "天璇紫后" in res.rejected[0].reason and res.rejected[0].clause
    assert "P11" not in res.state_after.get("深青之桩已选择", [])


def test_m160_a_jailed_minion_is_listed_as_refused_with_the_blocker() -> None:
    """M160 【禁锢】 ("选择两名玩家，若其中有爪牙，则该爪牙今晚失去技能"), step 4.3, comes before
    告死天使【面具】 (4.9): the 面具 of a jailed 告死天使 is refused, naming the 安保人员."""
    sc = example("ex-m160-N01")
    acts = [a for a in sc["actions"] if a["actor"] != "P05"]
    acts.insert(0, {"actor": "P05", "skill": "禁锢", "targets": ["P03", "P10"]})
    res = run(sc, acts)
    refused = [(r.actor, r.skill, r.targets) for r in res.rejected]
    assert refused == [("P03", "面具", ("P02",))]
    assert "P05" in res.rejected[0].reason and "禁锢" in res.rejected[0].reason


def test_107_a_restrained_actor_is_listed_as_refused_with_the_blocker() -> None:
    """107 牵制 "所有民兵共同选择一名角色，该角色当晚发动的非团队的<普通>和<限定>技能无效" — one of the
    blockers the vocabulary names ("封锁, 牵制, 禁锢 …"): the 恶徒 P02's <偷袭> is refused, naming the
    民兵 (the use is spent all the same: the post says 发动 … 无效)."""
    sc = example("ex-dnf107-N01")
    res = run(sc, [{"actor": "P06+P18", "skill": "牵制", "targets": ["P02"], "phase": "白天"},
                   {"actor": "P02", "skill": "偷袭", "targets": ["P05"]}])
    assert [(r.actor, r.skill, r.targets) for r in res.rejected] == [("P02", "偷袭", ("P05",))]
    assert "牵制" in res.rejected[0].reason and "P06+P18" in res.rejected[0].reason
    assert res.deaths == [] and res.state_after["P02.偷袭"] == 0


# -- files -----------------------------------------------------------------------------------------
def test_simulate_reads_a_file_of_several_scenarios(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """"A file may hold one scenario or {"scenarios": [...]}; with several, night simulate prints
    {"results": [{"id": ..., <the one-scenario object>}, ...]}"."""
    data = json.loads(EXAMPLES.read_text("utf-8"))
    m19 = [s for s in data["scenarios"] if s["game"] == "002_558fa90179aecb96.txt"]
    f = tmp_path / "many.json"
    f.write_text(json.dumps({"schema_version": 1, "scenarios": m19}, ensure_ascii=False), "utf-8")
    assert main(["night", "simulate", "--ruleset", "luoluo-m19", str(f), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [r["id"] for r in out["results"]] == ["ex-m19-N01", "ex-m19-N02"]
    for sc, got in zip(m19, out["results"], strict=True):
        one = tmp_path / f"{sc['id']}.json"
        one.write_text(json.dumps(sc, ensure_ascii=False), "utf-8")
        assert main(["night", "simulate", "--ruleset", "luoluo-m19", str(one), "--json"]) == 0
        assert {"id": sc["id"], **json.loads(capsys.readouterr().out)} == got
    assert main(["night", "simulate", "--ruleset", "luoluo-m19", str(f)]) == 0
    text = capsys.readouterr().out
    assert "== ex-m19-N01 ==" in text and "== ex-m19-N02 ==" in text


def test_a_bad_scenario_in_a_file_of_several_is_named_by_its_place(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    sc = example("ex-m19-N01")
    sc["actions"][0]["phase"] = "午夜"
    f = tmp_path / "many.json"
    f.write_text(json.dumps({"scenarios": [example("ex-m19-N02"), sc]}, ensure_ascii=False), "utf-8")
    assert main(["night", "simulate", "--ruleset", "luoluo-m19", str(f)]) == 2
    assert "scenarios[1].actions[0].phase" in capsys.readouterr().err


# -- the day's exits -------------------------------------------------------------------------------
EXIT_TABLES = [("ex-dnf107-N01", "P04"), ("ex-sanguo213-N01", "P06"), ("ex-m19-N01", "P08"),
               ("ex-m160-N01", "P12"), ("ex-m65-N01", "P04")]
#: Posts where a red card benches (挂机) instead of taking the player out: 107 "玩家受到红牌判罚时进入
#: 挂机状态（称为“红牌罚下”）", M160 "被红牌罚下的角色自动进入挂机状态，并触发【哥谭】成为【丑角】".
BENCHING = ("ex-dnf107-N01", "ex-m160-N01")


@pytest.mark.parametrize("sid,target", EXIT_TABLES)
@pytest.mark.parametrize("word", ["投票出局", "投票", "放逐"])
def test_the_days_exile_is_an_action_in_every_game(sid: str, target: str, word: str) -> None:
    """"The day's exile is an action in every game: {"actor": "放逐投票", "skill": "投票出局", "targets":
    ["P08"]} (a post that calls it 投票 or 放逐 is the same action: those names are accepted too)."
    M160's vote makes the player 【死亡】 ("该玩家【死亡】"), the others' take him out."""
    sc = as_day(example(sid), 2)
    res = run(sc, [{"actor": "放逐投票", "skill": word, "targets": [target]}])
    assert res.rejected == []
    assert [d.player for d in res.deaths] == [target] and "投票" in res.deaths[0].cause
    after = res.table_after
    assert after is not None and not after.players[target].alive
    assert after.players[target].life == ("死亡" if sid == "ex-m160-N01" else None)


@pytest.mark.parametrize("sid,target", EXIT_TABLES)
@pytest.mark.parametrize("word", ["红牌罚下", "红牌"])
def test_a_red_card_is_an_action_in_every_game(sid: str, target: str, word: str) -> None:
    """"A red card's exit: {"actor": "导演", "skill": "红牌罚下", "targets": ["P08"]} (also 红牌). A game
    whose post attaches nothing to an exit still accepts them"; 107 and M160 bench instead."""
    sc = as_day(example(sid), 2)
    res = run(sc, [{"actor": "导演", "skill": word, "targets": [target]}])
    assert res.rejected == []
    after = res.table_after
    assert after is not None
    if sid in BENCHING:
        assert res.deaths == [] and after.players[target].alive and "挂机" in after.players[target].status
        if sid == "ex-m160-N01":
            assert "丑角" in after.players[target].status and target in after.state["丑角"]
    else:
        assert [d.player for d in res.deaths] == [target] and "红牌" in res.deaths[0].cause


def test_m160_a_vote_in_a_night_scenario_settles_at_4_1() -> None:
    """M160 "4.其他夜：结算投票导致的【死亡】及【死亡】玩家投票后的【出局】": the day's vote submitted with
    the night is its first step, 死亡 on the day before, and the voted player owes no night action
    (he does not become a 丑角)."""
    sc = example("ex-m160-N01")  # the 告死邪魔 P13 died by the day-1 vote: here the vote is submitted
    expected = run(example("ex-m160-N01"))
    p13 = next(p for p in sc["setup"]["players"] if p["name"] == "P13")
    p13["state"] = "存活"
    p13.pop("死亡", None)
    res = run(sc, [{"actor": "放逐投票", "skill": "投票出局", "targets": ["P13"], "phase": "白天"}, *sc["actions"]])
    assert res.deaths[0].player == "P13" and res.deaths[0].cause == "投票"
    assert res.deaths[1:] == expected.deaths and res.lines == expected.lines
    assert res.state_after["P13.死亡"] == {"day": 1, "cause": "投票"}
    assert "P13" not in res.state_after.get("丑角", [])
    assert res.log[0].startswith("(4.1)")


def test_m65_a_voted_out_red_king_still_takes_his_last_shot() -> None:
    """M65 <最后一枪> "当你因非红牌的情况出局时，你可以立即选择一名玩家带走": the vote given as the shared
    action sets it off, a red card does not ("红牌罚下出局的角色没有遗言权利，不能发动技能")."""
    sc = as_day(example("ex-m65-N01"), 2)
    sc["setup"]["state"]["机械制造上次"] = {"night": 1}
    shot = run(sc, [{"actor": "放逐投票", "skill": "投票出局", "targets": ["P01"]},
                    {"actor": "P01", "skill": "最后一枪", "targets": ["P05"]}])
    assert [d.player for d in shot.deaths] == ["P01", "P05"]
    red = run(sc, [{"actor": "导演", "skill": "红牌罚下", "targets": ["P01"]},
                   {"actor": "P01", "skill": "最后一枪", "targets": ["P05"]}])
    assert [d.player for d in red.deaths] == ["P01"]


def test_m65_time_rewind_without_its_private_skill_key() -> None:
    """"`时间回溯上次.技能` (optional: needed only when the target had two active skills)": the 骑士
    P08's one active skill (<深青之桩>) may be used once more the day after, with the state written
    in the shared words {target, night} only (before: the extra use was refused)."""
    sc = example("ex-m65-N01")
    sc["setup"]["state"]["时间回溯上次"] = {"target": "P08", "night": 1}
    res = run(sc, [{"actor": "P08", "skill": "深青之桩", "targets": ["P11"]},
                   {"actor": "P08", "skill": "深青之桩", "targets": ["P13"]}])
    assert res.rejected == []
    assert res.state_after["第3天暗记"] == {"P11": "被投票数加倍", "P13": "被投票数加倍"}
    sc["setup"]["state"]["时间回溯上次"] = {"target": "P06", "night": 1}
    plain = run(sc, [{"actor": "P08", "skill": "深青之桩", "targets": ["P11"]},
                     {"actor": "P08", "skill": "深青之桩", "targets": ["P13"]}])
    assert [(r.actor, r.skill) for r in plain.rejected] == [("P08", "深青之桩")]

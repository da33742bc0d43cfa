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

"""A choice kept before the game that other skills aim by, on a toy game (M19 设计<强制> "游戏开始前选择除自己外任何一名角色
成为目标。当目标因任何原因出局时，可以重新选择目标。当<灭口><绑架>技能都发动后，绑匪失去<设计>"; 灭口 "若绑匪选择的目标仍存活"):
- a step's ``sent = "setup"`` / ``"in_play"``: the choice 游戏开始前 is kept at its step, a new one at a later step;
- ``only_kept``: a skill whose targets may only be the player its user keeps in that field;
- trigger ``anew``: a new choice only once the kept player is out, else refused; ``shown``: the state after of the
  holder's skill once he is out, ``{chosen}`` standing in, as in a ``tell``'s text;
- ``lost_with``: the skill is lost once the other counts it names are all spent.
M19's own cases: test_silence_and_kidnap_*, test_design_target_* in test_night_luoluo_m19.py."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.coverage import coverage
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.engine.ruleset_model import TriggerT

NIGHT: dict[str, Any] = {
    "ruleset": "kept-choice-toy",
    "steps": [{"n": "0", "skills": ["盯"], "sent": "setup"}, {"n": "1", "skills": ["刀", "捆", "锁"]},
              {"n": "2", "skills": ["盯"], "sent": "in_play"}],
    "skills": [
        {"name": "刀", "roles": ["刀客"], "targets": 1, "effects": [{"kind": "kill"}]},
        {"name": "盯", "roles": ["猎手"], "phase": "passive", "targets": 1, "self_target": "never", "uses": "盯",
         "count": True, "spent": "已失去", "lost_with": ["捆", "锁"],
         "trigger": {"on": "chosen_exit", "keeps": "猎物", "anew": True, "shown": "猎物{chosen}已出局"},
         "effects": [{"kind": "tell", "text": "盯：猎物{chosen}已出局，可以重新选择"}]},
        {"name": "捆", "roles": ["猎手"], "targets": 1, "uses": "捆", "only_kept": "猎物",
         "effects": [{"kind": "status", "status": "捆"}]},
        {"name": "锁", "roles": ["猎手"], "targets": 1, "uses": "锁", "only_kept": "猎物",
         "effects": [{"kind": "status", "status": "锁"}]},
    ],
}


def run(*acts: Action, night: int = 1, hunter: dict[str, Any] | None = None) -> Settlement:
    players = {"P1": Seat("P1", "猎手", "人", **(hunter or {})), "P2": Seat("P2", "刀客", "人"),
               "P3": Seat("P3", "村民", "人"), "P4": Seat("P4", "村民", "人")}
    return settle(parse_catalog(NIGHT, "toy.toml"), Table(players=players, state={}, night=night),
                  [Action(a.actor, a.skill, a.targets, phase=a.phase, index=i) for i, a in enumerate(acts)])


def refused(res: Settlement) -> list[tuple[str, str]]:
    return [(r.skill, r.reason) for r in res.rejected]


def test_the_setup_choice_is_kept_and_only_it_may_be_aimed_at() -> None:
    res = run(Action("P1", "盯", ("P3",), phase="setup"), Action("P1", "捆", ("P3",)))
    assert res.state_after["P1.猎物"] == "P3" and res.state_after["P3.status"] == ["捆"] and res.rejected == []
    res = run(Action("P1", "捆", ("P4",)), hunter={"fields": {"猎物": "P3"}})
    assert refused(res) == [("捆", "<捆>只能对猎物（P3）发动")]
    res = run(Action("P1", "捆", ("P4",)))
    assert refused(res) == [("捆", "P1还没有猎物，不能发动<捆>")]


def test_the_kept_players_exit_frees_a_new_choice_only_then() -> None:
    kept = {"fields": {"猎物": "P3"}}
    res = run(Action("P1", "盯", ("P4",)), hunter=kept)
    assert refused(res) == [("盯", "猎物P3仍存活，不能重新选择")] and "P1.猎物" not in res.state_after
    # out in the same phase, before the step that settles a new choice (sent = "in_play")
    res = run(Action("P2", "刀", ("P3",)), Action("P1", "盯", ("P4",)), hunter=kept)
    assert res.rejected == [] and res.state_after["P1.猎物"] == "P4"
    assert "盯：猎物P3已出局，可以重新选择" in [f.content for f in res.feedback if f.to == "P1"]
    res = run(Action("P2", "刀", ("P3",)), hunter=kept)
    assert res.state_after["P1.盯"] == "猎物P3已出局"


def test_the_choice_is_lost_once_both_other_counts_are_spent() -> None:
    kept = {"fields": {"猎物": "P3"}, "uses": {"捆": 0, "锁": 1}}
    res = run(Action("P1", "锁", ("P3",)), hunter=kept)
    assert res.state_after["P1.盯"] == "已失去" and any("都已发动 → 失去<盯>" in line for line in res.log)
    res = run(Action("P2", "刀", ("P3",)), hunter={**kept, "uses": {"捆": 0, "锁": 0}})
    assert "P1.盯" not in res.state_after  # lost: the kept player's exit frees nothing
    res = run(Action("P1", "盯", ("P4",), phase="setup"), hunter={"uses": {"捆": 0, "锁": 0}})
    assert refused(res) == [("盯", "<捆><锁>技能都发动后，失去<盯>")]


def test_the_keys_count_as_data_and_belong_to_chosen_exit() -> None:
    assert {"盯", "捆", "锁"} <= set(coverage(parse_catalog(NIGHT, "t"), None).by_data)
    with pytest.raises(ValidationError, match="anew"):
        TriggerT.model_validate({"anew": True})
    with pytest.raises(ValidationError, match="anew"):
        TriggerT.model_validate({"shown": "x"})

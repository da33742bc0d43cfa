"""``trigger.on = "target_exit"`` on a toy game: a submission that acts when the player it names goes out, at the
step its ``at`` names, before the tag's own exit trigger there, if its user is still in (107 权术<普通> "贵族的投票或
流言对象出局时，若其持有【亡灵圣物】，则贵族可选择获得【亡灵圣物】": a ``mark`` ``take`` from the player out). 107's own
cases: test_intrigue_* in test_night_dnf_107.py."""

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
    "ruleset": "target-exit-toy",
    "steps": [{"n": "1", "skills": ["刀", "毒"]}, {"n": "2"}],
    "skills": [
        {"name": "刀", "roles": ["刀客"], "targets": 1, "effects": [{"kind": "kill"}]},
        {"name": "夺", "roles": ["贵人"], "phase": "passive", "targets": 1, "target_alive_or_dead": True,
         "trigger": {"on": "target_exit", "at": ["2"], "unless": ["毒"]},
         "effects": [{"kind": "mark", "tag": "宝石", "act": "take", "text": "夺：你获得了宝石"}]},
        {"name": "毒", "roles": ["刀客"], "targets": 1, "effects": [{"kind": "kill"}]},
        {"name": "遗宝", "tag": "宝石", "phase": "passive", "trigger": {"forced": True, "at": ["2"]},
         "effects": [{"kind": "mark", "tag": "宝石", "act": "give", "at_random": "遗宝：随机一名角色获得宝石"}]},
    ],
}


def run(*acts: Action, alive: bool = True) -> Settlement:
    players = {"P1": Seat("P1", "村民", "人", tags=["宝石"]), "P2": Seat("P2", "刀客", "人"),
               "P3": Seat("P3", "贵人", "人", alive=alive), "P4": Seat("P4", "村民", "人")}
    return settle(parse_catalog(NIGHT, "toy.toml"), Table(players=players, state={}, night=1),
                  [Action(a.actor, a.skill, a.targets, index=i) for i, a in enumerate(acts)], decisions={"遗宝": "P4"})


def moves(res: Settlement) -> list[tuple[str | None, str | None, str]]:
    return [(m.from_player, m.to_player, m.via) for m in res.tags_moved]


def test_the_named_player_going_out_sets_it_off_at_its_step_before_the_tags_own_trigger() -> None:
    res = run(Action("P3", "夺", ("P1",)), Action("P2", "刀", ("P1",)))
    assert moves(res) == [("P1", "P3", "夺")] and not res.questions  # 遗宝 finds the gem gone
    assert [f.content for f in res.feedback if f.to == "P3"] == ["夺：你获得了宝石"]
    assert res.rejected == []


def test_no_exit_a_user_out_or_a_cause_it_names_in_unless_sets_off_nothing() -> None:
    res = run(Action("P3", "夺", ("P4",)), Action("P2", "刀", ("P1",)))  # P4 stays in: the tag goes by 遗宝
    assert moves(res) == [("P1", "P4", "遗宝")] and res.rejected == []
    assert "P3<夺>：P4未出局，不发动" in res.log
    res = run(Action("P3", "夺", ("P1",)), Action("P2", "刀", ("P1",)), alive=False)
    assert moves(res) == [("P1", "P4", "遗宝")] and "(2) P3已出局，<夺>不发动（P1出局）" in res.log
    res = run(Action("P3", "夺", ("P1",)), Action("P2", "毒", ("P1",)))
    assert moves(res) == [("P1", "P4", "遗宝")] and "(2) P1因<毒>出局，<夺>不发动" in res.log
    res = run(Action("P3", "夺", ("P2",)), Action("P2", "刀", ("P2",)))  # out, but holds no gem
    assert "(2) P3<夺>：P2不持有宝石 → 无事发生" in res.log and moves(res) == []


def test_target_exit_counts_as_data_and_takes_a_submission() -> None:
    assert "夺" in coverage(parse_catalog(NIGHT, "t"), None).by_data
    with pytest.raises(ValidationError, match="target_exit"):
        TriggerT.model_validate({"on": "target_exit", "forced": True})

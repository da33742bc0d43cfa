"""An exit trigger that only the cause's user's faction sets off, on a toy game: ``trigger.by_factions`` (107 神恩
"当神启者被亡灵阵营角色击杀时，亡灵圣物诅咒次数+1"). The user is the player the cause's detail names (his faction as it
stands, his role's ``also_factions`` too), or, for a team's cause (啃咬（活尸）), the roles holding the skill; a cause
that is no skill (the table's vote) never sets it off. 107's own case: test_prophet_killed_by_the_undead_adds_a_curse
in test_night_dnf_107.py."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError
from toy_rules import toy_rules

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.engine.ruleset_model import TriggerT

RULES = toy_rules("trigger-by-toy", "击杀者阵营测试局", 2, ["人", "鬼"], [
    {"name": "圣人", "faction": "人"}, {"name": "刀客", "faction": "人"},
    {"name": "尸群", "faction": "鬼", "count": 0},
    {"name": "夜鬼", "faction": "人", "also_factions": ["鬼"], "count": 0},
], win="人")

NIGHT: dict[str, Any] = {
    "ruleset": "trigger-by-toy",
    "steps": [{"n": "1", "skills": ["刀", "咬"]}],
    "skills": [
        {"name": "刀", "roles": ["刀客", "夜鬼"], "targets": 1, "effects": [{"kind": "kill", "cause": "刀（{actor}）"}]},
        {"name": "咬", "roles": ["尸群"], "team": "尸群", "targets": 1,
         "effects": [{"kind": "kill", "cause": "咬（尸群）"}]},
        {"name": "放逐", "team": "放逐投票", "targets": 1, "effects": [{"kind": "kill"}]},
        # 神恩-like: only when a 鬼 took him out, by itself
        {"name": "恩泽", "roles": ["圣人"], "phase": "passive",
         "trigger": {"forced": True, "by_factions": ["鬼"]},
         "effects": [{"kind": "announce", "text": "恩泽：{actor}被鬼击杀"}]},
    ],
}


def run(act: Action, killer: tuple[str, str] = ("刀客", "人")) -> Settlement:
    players = {"P1": Seat("P1", "圣人", "人"), "P2": Seat("P2", *killer), "P3": Seat("P3", "刀客", "人")}
    return settle(parse_catalog(NIGHT, "toy.toml"), Table(players=players, state={}, night=1), [act],
                  ruleset=RULES)


def told(res: Settlement) -> bool:
    return "恩泽：P1被鬼击杀" in res.lines


def test_the_users_faction_as_it_stands_sets_it_off() -> None:
    assert not told(run(Action("P2", "刀", ("P1",))))
    assert [d.cause for d in run(Action("P2", "刀", ("P1",))).deaths] == ["刀（P2）"]
    # the same skill in a 鬼's hands (a 刀客 turned 鬼 keeps nothing of his role's faction)
    assert told(run(Action("P2", "刀", ("P1",)), killer=("刀客", "鬼")))
    # a role counted in 鬼 too (also_factions: 107 夜行怪 "同时计入亡灵阵营")
    assert told(run(Action("P2", "刀", ("P1",)), killer=("夜鬼", "人")))


def test_a_teams_cause_is_its_roles_and_the_tables_is_nobodys() -> None:
    assert told(run(Action("P2", "咬", ("P1",)), killer=("尸群", "鬼")))
    assert not told(run(Action("放逐投票", "放逐", ("P1",))))


def test_by_factions_is_for_exits_only() -> None:
    with pytest.raises(ValidationError, match="by_factions"):
        TriggerT.model_validate({"on": "gain", "forced": True, "by_factions": ["鬼"]})

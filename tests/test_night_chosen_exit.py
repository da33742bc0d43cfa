"""``trigger.on = "chosen_exit"`` + ``keeps`` on a toy game: a skill whose submission (游戏开始前) only names a player,
kept in its holder's field, and whose effects act by themselves inside that player's exit (M19 遇难<强制> "游戏开始前选择
一名角色成为英雄，当英雄因为非红牌罚下原因出局，人质也随之出局"); a holder who lost it — a spent use, or the ``lose`` of a
``gain`` trigger whose mark he carries (M19 逃脱 "当人质成为情侣时，失去<遇难>") — is not taken, and his submission of it is
refused. M19's own cases: test_hero_* and test_hostage_lover_escapes in test_night_luoluo_m19.py."""

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
    "ruleset": "chosen-exit-toy",
    "steps": [{"n": "0", "skills": ["随"]}, {"n": "1", "skills": ["刀", "毒"]}],
    "skills": [
        {"name": "刀", "roles": ["刀客"], "targets": 1, "effects": [{"kind": "kill"}]},
        {"name": "毒", "roles": ["刀客"], "targets": 1, "effects": [{"kind": "kill"}]},
        {"name": "随", "roles": ["随从"], "phase": "setup", "targets": 1, "uses": "随",
         "trigger": {"on": "chosen_exit", "keeps": "恩人", "unless": ["毒"]},
         "effects": [{"kind": "kill", "to": "actor", "cause": "随（恩人{chosen}出局）"}]},
        {"name": "变心", "roles": ["随从"], "phase": "passive", "kind": "强制",
         "trigger": {"on": "gain", "forced": True, "marks": ["心"]},
         "effects": [{"kind": "lose", "loses": "随", "shown": "已失去"}]},
    ],
}


def run(*acts: Action, follower: dict[str, Any] | None = None) -> Settlement:
    players = {"P1": Seat("P1", "村民", "人"), "P2": Seat("P2", "刀客", "人"),
               "P3": Seat("P3", "随从", "人", **(follower or {})), "P4": Seat("P4", "村民", "人")}
    return settle(parse_catalog(NIGHT, "toy.toml"), Table(players=players, state={}, night=1),
                  [Action(a.actor, a.skill, a.targets, phase=a.phase, index=i) for i, a in enumerate(acts)])


def out(res: Settlement) -> list[tuple[str, str]]:
    return [(d.player, d.cause) for d in res.deaths]


def test_the_choice_is_kept_and_the_chosen_players_exit_takes_the_holder_with_him() -> None:
    res = run(Action("P3", "随", ("P1",), phase="setup"))
    assert res.state_after["P3.恩人"] == "P1" and out(res) == [] and res.rejected == []
    res = run(Action("P3", "随", ("P1",), phase="setup"), Action("P2", "刀", ("P1",)))
    assert out(res) == [("P1", "刀"), ("P3", "随（恩人P1出局）")]
    res = run(Action("P2", "刀", ("P4",)), follower={"fields": {"恩人": "P1"}})
    assert out(res) == [("P4", "刀")]  # another player's exit: nothing


def test_a_cause_in_unless_a_spent_use_or_a_marks_lose_sets_off_nothing() -> None:
    res = run(Action("P2", "毒", ("P1",)), follower={"fields": {"恩人": "P1"}})
    assert out(res) == [("P1", "毒")]
    res = run(Action("P2", "刀", ("P1",)), follower={"fields": {"恩人": "P1"}, "uses": {"随": False}})
    assert out(res) == [("P1", "刀")] and "P3已失去<随>，恩人P1出局不发动" in res.log
    res = run(Action("P2", "刀", ("P1",)), follower={"fields": {"恩人": "P1"}, "tags": ["心"]})
    assert out(res) == [("P1", "刀")] and "变心：P3已失去<随>，恩人P1出局不发动" in res.log


def test_a_holder_who_lost_it_or_is_out_cannot_choose() -> None:
    res = run(Action("P3", "随", ("P1",), phase="setup"), follower={"tags": ["心"]})
    assert [(r.actor, r.reason) for r in res.rejected] == [("P3", "变心：P3已失去<随>")]
    res = run(Action("P3", "随", ("P1",), phase="setup"), follower={"alive": False})
    assert [r.actor for r in res.rejected] == ["P3"] and "P3.恩人" not in res.state_after


def test_chosen_exit_counts_as_data_and_needs_keeps() -> None:
    assert "随" in coverage(parse_catalog(NIGHT, "t"), None).by_data
    with pytest.raises(ValidationError, match="chosen_exit"):
        TriggerT.model_validate({"on": "chosen_exit"})
    with pytest.raises(ValidationError, match="chosen_exit"):
        TriggerT.model_validate({"keeps": "恩人"})
    with pytest.raises(ValidationError, match="chosen_exit"):
        TriggerT.model_validate({"on": "chosen_exit", "keeps": "恩人", "forced": True})

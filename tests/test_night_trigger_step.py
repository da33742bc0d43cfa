"""``trigger.on = "step"`` on a toy game: a 锁定 skill nobody submits that acts by itself, for every living holder,
at each step that lists it (107 夜之心<锁定> "（18）结算<夜之心>"：若当前场上不存在除夜行怪以外的亡灵阵营角色，夜行怪翻转身份)."""

from __future__ import annotations

from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.errors import RulesetError

HEART = {"on": "step", "forced": True}


def night(trigger: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "ruleset": "step-toy",
        "steps": [{"n": "1", "skills": ["刀"]}, {"n": "2", "skills": ["心"]}],
        "skills": [
            {"name": "刀", "roles": ["刀客"], "targets": 1, "effects": [{"kind": "kill"}]},
            {"name": "心", "roles": ["夜鬼"], "phase": "passive", "kind": "锁定", "trigger": trigger or HEART,
             "effects": [{"kind": "convert", "role": "守夜人", "faction": "中立", "to": "actor",
                          "when_last": {"factions": ["亡灵"], "except_roles": ["夜鬼"]}}]},
        ],
    }


def run(*acts: tuple[str, str, tuple[str, ...]]) -> Settlement:
    table = Table(players={"P1": Seat("P1", "夜鬼", "亡灵"), "P2": Seat("P2", "腐尸", "亡灵"),
                           "P3": Seat("P3", "刀客", "村庄")}, state={}, night=2)
    return settle(parse_catalog(night(), "toy.toml"), table,
                  [Action(a, s, t, index=i) for i, (a, s, t) in enumerate(acts)])


def test_it_acts_by_itself_at_its_step_once_the_condition_holds() -> None:
    assert run().conversions == []  # P2 (亡灵) lives
    res = run(("P3", "刀", ("P2",)))  # step 1 takes P2 out: at step 2 the 夜鬼 is the last
    assert [(c.player, c.role_to, c.faction_to, c.cause) for c in res.conversions] == [("P1", "守夜人", "中立", "心")]


def test_a_submission_of_it_is_refused_and_it_must_be_forced() -> None:
    res = run(("P1", "心", ()))
    assert [r.reason for r in res.rejected] == ["<心>是强制技能，在其结算步骤自行发动，无需提交"]
    with pytest.raises(RulesetError, match="forced"):
        parse_catalog(night({"on": "step"}), "toy.toml")


def test_its_step_is_its_time_so_it_takes_no_at() -> None:
    """The one timing key (`at`) belongs to exits: a step trigger's time is the step that lists it."""
    with pytest.raises(RulesetError, match="at"):
        parse_catalog(night({**HEART, "at": "now"}), "toy.toml")

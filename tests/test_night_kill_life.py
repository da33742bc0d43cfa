"""A kill's ``life`` on a toy game: the state its target takes instead of 出局, for a game where a player taken out
keeps a last vote (M160 "当一名玩家在黄昏阶段被投了……唯一最高票后，该玩家【死亡】"; "其依旧可以在场上发言并投票"),
recorded in the player field of that name, which later phases read. M160's own case is
test_the_vote_is_a_death_recorded_on_its_day_by_data in test_night_gourmet_m160.py."""

from __future__ import annotations

from typing import Any

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.coverage import coverage
from tracker.engine.night.model import Action, Seat, Settlement, Table


def night() -> dict[str, Any]:
    return {
        "ruleset": "life-toy",
        "steps": [{"n": "1", "skills": ["放逐", "刀"]}],
        "skills": [
            {"name": "刀", "roles": ["刀客"], "targets": 1, "effects": [{"kind": "kill"}]},
            {"name": "放逐", "team": "放逐投票", "phase": "day", "targets": 1,
             "effects": [{"kind": "kill", "cause": "投票", "life": "死亡"}]},
        ],
    }


def run(table: dict[str, Any], *acts: Action) -> Settlement:
    players = {n: Seat(n, r, "甲", life="存活") for n, r in (("P1", "村民"), ("P2", "刀客"), ("P3", "村民"))}
    t = Table(players=players, state={}, **table)
    return settle(parse_catalog(night(), "toy.toml"), t, [Action(a.actor, a.skill, a.targets, phase=a.phase, index=i)
                                                          for i, a in enumerate(acts)])


def test_a_kill_with_life_leaves_the_target_in_that_state_recorded_on_its_day() -> None:
    res = run({"day": 3}, Action("放逐投票", "放逐", ("P1",)))
    assert res.table_after is not None
    seat = res.table_after.players["P1"]
    assert not seat.alive and seat.life == "死亡" and "出局" not in seat.fields
    assert seat.fields["死亡"] == res.state_after["P1.死亡"] == {"day": 3, "cause": "投票"}
    # the day's vote settled with the night after it belongs to that day (night N follows day N here)
    late = run({"night": 3}, Action("放逐投票", "放逐", ("P1",), phase="白天"))
    assert late.state_after["P1.死亡"] == {"day": 3, "cause": "投票"}


def test_without_life_a_kill_is_an_exit_as_before() -> None:
    res = run({"night": 2}, Action("P2", "刀", ("P3",)))
    assert res.table_after is not None
    seat = res.table_after.players["P3"]
    assert seat.life == "出局" and seat.fields["出局"] == {"night": 2, "cause": "刀"} and "P3.出局" not in res.state_after
    assert set(coverage(parse_catalog(night(), "t"), None).by_data) == {"刀", "放逐"}

"""A count per player kept in the table's state that takes him out at a threshold (``counter``), an effect asked only
on a target no given skill was used on this phase (``unless_aimed_by``), and an effect put off to a later step of the
order (``settles_at``), where the counter's record is shown every phase.

M19 救治 "若该角色没有成为指杀目标，累计一次空救。一名角色累计两次空救时立即出局", counted once (6) 指杀结算 is
over. A toy game settled by the generic engine alone; M19's own cases are in test_night_luoluo_m19.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.errors import RulesetError

COUNT: dict[str, Any] = {
    "kind": "counter", "state": "白守", "at_least": 2, "cause": "看护（两次白守）", "unless_aimed_by": ["夜袭"],
    "settles_at": ["3"], "log": "{step} {target}白守{count}次", "out_log": "{step} {target}白守{count}次 → 出局",
}
NIGHT: dict[str, Any] = {
    "ruleset": "counter-toy",
    "out_do_not_act": True,
    "steps": [{"n": "1", "skills": ["夜袭"]}, {"n": "2", "skills": ["看护"]}, {"n": "3", "resolve": True},
              {"n": "4", "skills": ["查验"]}],
    "skills": [
        {"name": "夜袭", "roles": ["狼"], "targets": 1, "effects": [{"kind": "damage"}]},
        {"name": "看护", "roles": ["守卫"], "targets": 1,
         "effects": [{"kind": "protect", "stops": ["夜袭"]}, COUNT]},
        {"name": "查验", "roles": ["预言家"], "targets": 1, "effects": [{"kind": "inspect"}]},
    ],
}


def _run(*actions: Action, counts: dict[str, int] | None = None, night: dict[str, Any] = NIGHT) -> Settlement:
    roles = ["狼", "守卫", "预言家", "村民", "村民"]
    players = {f"P{i}": Seat(f"P{i}", r, "狼人" if r == "狼" else "村民") for i, r in enumerate(roles, 1)}
    state: dict[str, Any] = {} if counts is None else {"白守": counts}
    acts = [Action(a.actor, a.skill, a.targets, index=i) for i, a in enumerate(actions)]
    return settle(parse_catalog(night, "toy.toml"), Table(players=players, state=state, night=2), acts)


def test_a_guard_on_a_player_nobody_attacked_counts_once_at_its_step() -> None:
    res = _run(Action("P1", "夜袭", ("P4",)), Action("P2", "看护", ("P5",)))
    assert res.state_after["白守"] == {"P5": 1}
    assert [d.player for d in res.deaths] == ["P4"]
    assert "(3) P5白守1次" in res.log  # at (3), where it settles_at, not at (2) where 看护 is settled
    assert res.log.index("(3) P5白守1次") > res.log.index("P4出局（夜袭）")


def test_the_count_reaching_at_least_takes_him_out_at_once_after_the_step() -> None:
    res = _run(Action("P1", "夜袭", ("P4",)), Action("P2", "看护", ("P3",)), Action("P3", "查验", ("P1",)),
               counts={"P3": 1, "P5": 1})
    assert [(d.player, d.cause) for d in res.deaths] == [("P4", "夜袭"), ("P3", "看护（两次白守）")]
    assert res.state_after["白守"] == {"P3": 2, "P5": 1}
    assert "(3) P3白守2次 → 出局" in res.log
    assert not res.feedback  # out at (3): the 预言家 no longer acts at (4)


def test_a_guard_on_the_attacked_player_protects_and_counts_nothing() -> None:
    res = _run(Action("P1", "夜袭", ("P4",)), Action("P2", "看护", ("P4",)), counts={"P4": 1})
    assert res.deaths == [] and [s.player for s in res.survivals] == ["P4"]
    assert res.state_after["白守"] == {"P4": 1}  # the record as it stands, shown at its step all the same
    assert not any("白守" in line for line in res.log)


def test_the_record_is_shown_every_phase_even_with_no_guard() -> None:
    assert _run(Action("P1", "夜袭", ("P4",))).state_after["白守"] == {}


def test_an_effect_put_off_to_a_step_that_never_comes_takes_hold_at_the_phase_end() -> None:
    late = {**NIGHT, "skills": [NIGHT["skills"][0], {**NIGHT["skills"][1], "effects": [
        NIGHT["skills"][1]["effects"][0], {**COUNT, "settles_at": ["9"]}]}, NIGHT["skills"][2]]}
    res = _run(Action("P2", "看护", ("P5",)), Action("P3", "查验", ("P1",)), night=late)
    assert res.state_after["白守"] == {"P5": 1}
    assert res.log[-1] == "(2) P5白守1次"  # after (4), with the number of the step its skill was settled at


def test_a_counter_needs_its_state_and_out_log_needs_at_least() -> None:
    for bad, word in (({k: v for k, v in COUNT.items() if k != "state"}, "state"),
                      ({k: v for k, v in COUNT.items() if k != "at_least"}, "at_least")):
        night = {**NIGHT, "skills": [NIGHT["skills"][0], {**NIGHT["skills"][1], "effects": [bad]}, NIGHT["skills"][2]]}
        with pytest.raises(RulesetError, match=word):
            parse_catalog(night, "toy.toml")

"""A count passed from one player to another, to targets of one kind only, on a toy game: the keys 213 亲传 is written
with — "若[报复]次数尚足够，则减少1点[报复]次数，选择一名狼人阵营[群内]的角色，使其获得1次[报复]技能。两次发动需选择不同的
狼人。" An effect ``give_uses`` (``again``, ``add``, ``text``, ``told_actor``, ``refuses``); a skill's ``only_targets``
(+ ``only_targets_reason``) with a ``tag`` condition read from the seat or the role; a counted skill refused at its
step once an earlier submission of the phase spent its count. 213's own cases: the 亲传 tests in
test_night_sanguo_213.py."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from pydantic import ValidationError
from toy_rules import toy_rules

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.engine.ruleset_model import EffectT

RULES = toy_rules("give-uses-toy", "传授测试局", 5, ["狼", "民"], [
    {"name": "王", "faction": "狼", "tags": ["群"]}, {"name": "狼", "faction": "狼", "tags": ["群"], "count": 2},
    {"name": "石", "faction": "狼"}, {"name": "民", "faction": "民"},
], win="民")

NIGHT: dict[str, Any] = {
    "ruleset": "give-uses-toy",
    "steps": [{"n": "1", "skills": ["刀"]}, {"n": "2", "skills": ["传"]}],
    "skills": [
        {"name": "刀", "roles": ["民"], "targets": 1, "effects": [{"kind": "kill"}]},
        {"name": "反击", "roles": ["王"], "uses": "反击", "count": 2, "targets": 1, "effects": [{"kind": "kill"}]},
        {"name": "传", "roles": ["王"], "uses": "反击", "count": 2, "targets": 1, "every_submission": True,
         "only_targets": [{"of": "faction", "values": ["狼"]}, {"of": "tag", "values": ["群"]}],
         "effects": [{"kind": "give_uses", "again": "反击", "text": "传：你获得1次<反击>", "told_actor": "反击：剩余{left}次",
                      "refuses": "{target}已获得过<{skill}>"}]},
    ],
}


def run(*acts: Action, night: dict[str, Any] = NIGHT, king: int = 2, given: tuple[str, ...] = (),
        tagged: tuple[str, ...] = ()) -> Settlement:
    """王 P1 (反击 ×``king``), 狼 P2 and P3 ([群] by role, not on the seat), 石 P4, 民 P5; ``given``: already hold 反击."""
    roles = {"P1": "王", "P2": "狼", "P3": "狼", "P4": "石", "P5": "民"}
    players = {n: Seat(n, r, "民" if r == "民" else "狼", tags=["群"] if n in tagged else []) for n, r in roles.items()}
    players["P1"].uses["反击"] = king
    for n in given:
        players[n].uses["反击"] = 0
    actions = [Action(a.actor, a.skill, a.targets, index=i) for i, a in enumerate(acts)]
    return settle(parse_catalog(night, "toy.toml"), Table(players=players, state={}, night=1), actions, ruleset=RULES)


def told(res: Settlement, who: str) -> list[str]:
    return [f.content for f in res.feedback if f.to == who]


def test_the_count_passes_to_the_target() -> None:
    res = run(Action("P1", "传", ("P2",)))
    assert res.rejected == []
    assert res.state_after["P1.反击"] == 1 and res.state_after["P2.反击"] == 1
    assert told(res, "P2") == ["传：你获得1次<反击>"] and told(res, "P1") == ["反击：剩余1次"]
    more = copy.deepcopy(NIGHT)
    more["skills"][2]["effects"][0]["add"] = 2
    assert run(Action("P1", "传", ("P2",)), night=more).state_after["P2.反击"] == 2


def test_only_targets_of_the_kind_the_post_names() -> None:
    """狼 is [群] by its role (the seat bears no tag); 石 is a 狼 without it; 民 is neither."""
    res = run(Action("P1", "传", ("P4",)), Action("P1", "传", ("P5",)))
    assert [r.reason for r in res.rejected] == [
        "<传>不能选择P4：P4没有[群]标签", "<传>不能选择P5：P5的实际阵营不是狼；P5没有[群]标签"]
    assert run(Action("P1", "传", ("P4",)), tagged=("P4",)).rejected == []  # a tag on the seat counts too
    worded = copy.deepcopy(NIGHT)
    worded["skills"][2]["only_targets_reason"] = "<{skill}>只能选择狼[群]（{target}不是）"
    assert run(Action("P1", "传", ("P4",)), night=worded).rejected[0].reason == "<传>只能选择狼[群]（P4不是）"
    anyone = copy.deepcopy(NIGHT)
    del anyone["skills"][2]["only_targets"]
    assert run(Action("P1", "传", ("P5",)), night=anyone).state_after["P5.反击"] == 1


def test_a_target_given_them_before_is_refused_once_refuses_says_so() -> None:
    res = run(Action("P1", "传", ("P2",)), given=("P2",))
    assert [r.reason for r in res.rejected] == ["P2已获得过<反击>"] and res.state_after.get("P1.反击") is None
    res = run(Action("P1", "传", ("P2",)), Action("P1", "传", ("P2",)))  # the same phase: asked again at the step
    assert [r.reason for r in res.rejected] == ["P2已获得过<反击>"] and res.state_after["P1.反击"] == 1
    again = copy.deepcopy(NIGHT)
    del again["skills"][2]["effects"][0]["refuses"]
    assert run(Action("P1", "传", ("P2",)), given=("P2",), night=again).rejected == []


def test_a_count_spent_earlier_in_the_phase_is_refused_at_the_step() -> None:
    res = run(Action("P1", "传", ("P2",)), Action("P1", "传", ("P3",)), king=1)
    assert [r.reason for r in res.rejected] == ["<传>：[反击]次数不足"]
    assert res.state_after["P1.反击"] == 0 and "P3.反击" not in res.state_after


def test_the_user_or_the_target_out_before_the_step_passes_nothing() -> None:
    res = run(Action("P5", "刀", ("P1",)), Action("P1", "传", ("P2",)))
    assert [r.reason for r in res.rejected] == ["P1已出局，不能发动<传>"] and "P2.反击" not in res.state_after
    res = run(Action("P5", "刀", ("P2",)), Action("P1", "传", ("P2",)))
    assert [r.reason for r in res.rejected] == ["P2已出局，不能成为<传>的目标"]


def test_give_uses_needs_the_skill_and_the_words() -> None:
    with pytest.raises(ValidationError, match="give_uses"):
        EffectT.model_validate({"kind": "give_uses", "text": "x"})
    with pytest.raises(ValidationError, match="give_uses"):
        EffectT.model_validate({"kind": "give_uses", "again": "反击"})

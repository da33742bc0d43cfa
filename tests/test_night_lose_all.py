"""A will left inside one's own exit, on a toy game: ``trigger`` ``at = "now"`` with ``asks`` (not ``forced``) — the
holder's submission acts inside his exit, else he is asked; ``when_target`` ``alive`` — only a target still in; ``lose``
``loses = "*"`` with ``status`` — the target loses every skill, and every later submission of his is refused, a team's
naming him too (M19 遗志 "当遇难发动导致人质出局时，人质可以选择一名角色，若该角色当时仍存活且为狼人阵营，该角色的具体身份
将会立即公示并失去所有技能"). M19's own cases: test_hero_out_*, test_will_* in test_night_luoluo_m19.py."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.coverage import coverage
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.engine.ruleset_model import EffectT, TriggerT

BAD = {"of": "faction", "values": ["坏"], "alive": True}
NIGHT: dict[str, Any] = {
    "ruleset": "lose-all-toy",
    "steps": [{"n": "1", "skills": ["刀", "咒"]}],
    "skills": [
        {"name": "刀", "roles": ["刀客"], "targets": 1, "effects": [{"kind": "kill"}]},
        {"name": "咒", "roles": ["刀客"], "targets": 1, "uses": "咒", "effects": [{"kind": "kill"}]},
        {"name": "群刀", "team": "坏人", "roles": ["刀客", "帮手"], "targets": 1, "effects": [{"kind": "kill"}]},
        {"name": "遗言", "roles": ["证人"], "phase": "passive", "targets": 1, "actor_may_be_dead": True,
         "target_alive_or_dead": True,
         "trigger": {"on": "exit", "at": "now", "only": ["刀"], "asks": "遗言：请选择一名角色"},
         "effects": [
             {"kind": "announce", "text": "遗言：{target}是{role}", "when_target": BAD, "log": ""},
             {"kind": "lose", "loses": "*", "status": "无技", "shown": "已失去", "when_target": BAD},
         ]},
    ],
}


def run(*acts: Action, night: int = 1, **seats: dict[str, Any]) -> Settlement:
    players = {"P1": Seat("P1", "证人", "好", **seats.get("P1", {})),
               "P2": Seat("P2", "刀客", "坏", **{"uses": {"咒": 1}, **seats.get("P2", {})}),
               "P3": Seat("P3", "帮手", "坏", **seats.get("P3", {})), "P4": Seat("P4", "村民", "好")}
    return settle(parse_catalog(NIGHT, "toy.toml"), Table(players=players, state={}, night=night),
                  [Action(a.actor, a.skill, a.targets, phase=a.phase, index=i) for i, a in enumerate(acts)])


def test_the_will_acts_inside_the_exit_and_the_target_loses_every_skill() -> None:
    res = run(Action("P2", "刀", ("P1",)), Action("P1", "遗言", ("P2",)))
    assert [d.player for d in res.deaths] == ["P1"] and res.rejected == []
    assert "遗言：P2是刀客" in res.lines
    assert res.state_after["P2.咒"] == "已失去" and res.state_after["P2.status"] == ["无技"]
    res = run(Action("P2", "刀", ("P1",)), Action("P1", "遗言", ("P2",)), P2={"uses": {"咒": 0}})
    assert res.state_after["P2.咒"] == "已失去"  # a count spent already is shown lost too
    # the next night: his own skills and a team's submission naming him are refused, the others' stand
    res = run(Action("P2", "刀", ("P4",)), Action("坏人(P2,P3)", "群刀", ("P4",)), Action("坏人(P3)", "群刀", ("P4",)),
              night=2, P2={"status": ["无技"]})
    assert [(r.actor, r.reason) for r in res.rejected] == [("P2", "P2已因<遗言>失去所有技能"),
                                                            ("坏人(P2,P3)", "P2已因<遗言>失去所有技能")]
    assert [d.player for d in res.deaths] == ["P4"]


def test_a_target_out_or_not_named_is_not_taken() -> None:
    res = run(Action("P2", "刀", ("P1",)), Action("P1", "遗言", ("P4",)))
    assert res.lines == [] and "P4.status" not in res.state_after
    assert any("P4的实际阵营不是坏，无效果" in line for line in res.log)
    res = run(Action("P2", "刀", ("P1",)), Action("P1", "遗言", ("P3",)), P3={"alive": False})
    assert res.lines == [] and "P3.status" not in res.state_after
    assert any("P3已出局，无效果" in line for line in res.log)


def test_no_submission_waits_and_another_cause_allows_none() -> None:
    res = run(Action("P2", "刀", ("P1",)))
    assert [(p.player, p.effect) for p in res.pending] == [("P1", "遗言：请选择一名角色")]
    res = run(Action("P2", "咒", ("P1",)), Action("P1", "遗言", ("P2",)))
    assert [r.actor for r in res.rejected] == ["P1"] and "P2.status" not in res.state_after
    # submitted the morning after, out by the cause it names: settled first
    res = run(Action("P1", "遗言", ("P2",)), night=2, P1={"alive": False, "fields": {"出局": {"night": 1, "cause": "刀"}}})
    assert "遗言：P2是刀客" in res.lines


def test_the_keys_count_as_data_and_go_together() -> None:
    assert "遗言" in coverage(parse_catalog(NIGHT, "t"), None).by_data
    with pytest.raises(ValidationError, match="at = \"now\""):
        TriggerT.model_validate({"at": "now"})
    with pytest.raises(ValidationError, match="loses"):
        EffectT.model_validate({"kind": "lose", "loses": "*"})
    with pytest.raises(ValidationError, match="loses"):
        EffectT.model_validate({"kind": "lose", "loses": "咒", "status": "无技"})

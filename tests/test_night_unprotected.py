"""``unprotected_from``: no protection stops some skill's damage on a skill's holders.

M19 弱受 "当受成为指杀目标时，不论受到任何防卫性技能的保护（如<救药>、<救治>等）都将立即出局": a toy game
settled by the generic engine alone — a guard's protect, a standing one and a clash all fail against the named
skill's hit on the holder, and still stop every other skill's. The mark carries the skill (``tag``), as the
lovers' tags do in M19, whose own cases (the (6) 指杀结算 reads it) are in test_night_luoluo_m19.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.coverage import coverage
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.errors import RulesetError

WEAK = {"name": "弱", "tag": "受", "phase": "passive", "kind": "被动", "unprotected_from": ["杀人"]}
NIGHT: dict[str, Any] = {
    "ruleset": "unprotected-toy",
    "steps": [{"n": "1", "skills": ["杀人", "毒药", "守护", "救治"]}, {"n": "2", "resolve": True}],
    "clashes": [{"protections": ["守护", "救治"], "cause": "同守同救"}],
    "skills": [
        {"name": "杀人", "team": "狼群", "roles": ["狼人"], "targets": 1, "effects": [{"kind": "damage"}]},
        {"name": "毒药", "roles": ["女巫"], "targets": 1, "effects": [{"kind": "damage"}]},
        {"name": "守护", "roles": ["守卫"], "targets": 1, "effects": [{"kind": "protect", "stops": ["杀人", "毒药"]}]},
        {"name": "救治", "roles": ["医生"], "targets": 1, "effects": [{"kind": "protect", "stops": ["杀人"]}]},
        {"name": "坚", "roles": ["村民"], "phase": "passive",
         "effects": [{"kind": "protect", "standing": True, "stops": ["杀人"]}]},
        WEAK,
    ],
}


def _run(*actions: Action, tags: tuple[str, ...] = ("受",)) -> Settlement:
    players = {"P01": Seat("P01", "女巫", "村民"), "P02": Seat("P02", "狼人", "狼人"),
               "P03": Seat("P03", "村民", "村民", tags=list(tags)), "P04": Seat("P04", "守卫", "村民"),
               "P05": Seat("P05", "医生", "村民")}
    table = Table(players=players, state={}, night=2)
    acts = [Action(a.actor, a.skill, a.targets, index=i) for i, a in enumerate(actions)]
    return settle(parse_catalog(NIGHT, "toy.toml"), table, acts)


def test_the_named_skill_goes_through_every_protection() -> None:
    res = _run(Action("狼群", "杀人", ("P03",)), Action("P04", "守护", ("P03",)))
    assert [(d.player, d.cause) for d in res.deaths] == [("P03", "杀人")] and res.survivals == []
    assert any("P03<弱>：任何保护都不能阻挡<杀人>" in line for line in res.log)


def test_a_clash_does_not_change_it() -> None:
    res = _run(Action("狼群", "杀人", ("P03",)), Action("P04", "守护", ("P03",)), Action("P05", "救治", ("P03",)))
    assert [(d.player, d.cause) for d in res.deaths] == [("P03", "杀人")]


def test_other_skills_are_still_stopped() -> None:
    res = _run(Action("P01", "毒药", ("P03",)), Action("P04", "守护", ("P03",)))
    assert res.deaths == [] and [s.player for s in res.survivals] == ["P03"]


def test_without_the_mark_the_protections_hold() -> None:
    res = _run(Action("狼群", "杀人", ("P03",)), tags=())
    assert res.deaths == [] and [(s.player, s.reason) for s in res.survivals] == [("P03", "P03<坚>")]


def test_it_counts_as_settled_from_data() -> None:
    assert "弱" in coverage(parse_catalog(NIGHT, "toy.toml"), None).by_data


def test_an_unknown_skill_is_refused_when_the_file_loads() -> None:
    bad = {**NIGHT, "skills": [*NIGHT["skills"][:-1], {**WEAK, "unprotected_from": ["刀"]}]}
    with pytest.raises(RulesetError, match="unprotected_from"):
        parse_catalog(bad, "toy.toml")

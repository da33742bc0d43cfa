"""A protection spent by the hit it stops: protect ``once`` (a guard or a ``standing`` one), ``reason``, ``state``.

107's 致死伤害结算流程 asks a protection that is never spent first ("（1）如果该角色是告死者，此次致死伤害
无效"), one given for the night and spent by one hit next ("<祝福>……免疫一次[致死伤害]"), and last the
holder's own "免疫自身受到的第一次致死伤害" (长寿): a hit something else already stopped was never suffered,
so it does not spend them. A toy game settled by the generic engine alone; 107's own cases are in
test_night_dnf_107.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.errors import RulesetError

FIRST = {"name": "长寿", "roles": ["村长"], "phase": "passive", "kind": "强制", "uses": "长寿",
         "effects": [{"kind": "protect", "standing": True, "once": True, "stops": ["*"], "state": "长寿上次",
                      "reason": "<长寿>：免疫第一次致死伤害（{skill}）"}]}
NIGHT: dict[str, Any] = {
    "ruleset": "once-toy",
    "steps": [{"n": "1", "skills": ["庇护", "守护"]}, {"n": "2", "skills": ["刺杀"]}, {"n": "3", "resolve": True}],
    "skills": [
        {"name": "刺杀", "roles": ["刺客"], "targets": 1, "every_submission": True, "effects": [{"kind": "damage"}]},
        {"name": "庇护", "roles": ["牧师"], "targets": 1,
         "effects": [{"kind": "protect", "once": True, "stops": ["*"], "reason": "{actor}<庇护>挡下{skill}，庇护终止"}]},
        {"name": "守护", "roles": ["守卫"], "targets": 1, "effects": [{"kind": "protect", "stops": ["*"]}]},
        FIRST,
    ],
}


def _run(*actions: Action, uses: dict[str, int | bool] | None = None, state: dict[str, Any] | None = None,
         ) -> Settlement:
    players = {"P01": Seat("P01", "刺客", "狼人"), "P02": Seat("P02", "牧师", "村民"),
               "P03": Seat("P03", "守卫", "村民"), "P04": Seat("P04", "村长", "村民", uses=dict(uses or {})),
               "P05": Seat("P05", "村民", "村民")}
    table = Table(players=players, state=dict(state or {}), night=2)
    acts = [Action(a.actor, a.skill, a.targets, index=i) for i, a in enumerate(actions)]
    return settle(parse_catalog(NIGHT, "toy.toml"), table, acts)


def _stab(*targets: str) -> list[Action]:
    return [Action("P01", "刺杀", (t,)) for t in targets]


def test_a_once_guard_stops_one_hit_and_is_spent() -> None:
    res = _run(Action("P02", "庇护", ("P05",)), *_stab("P05", "P05"))
    assert [d.player for d in res.deaths] == ["P05"]
    assert [(s.player, s.reason) for s in res.survivals] == [("P05", "P02<庇护>挡下刺杀，庇护终止")]


def test_a_guard_never_spent_is_asked_first() -> None:
    res = _run(Action("P02", "庇护", ("P05",)), Action("P03", "守护", ("P05",)), *_stab("P05", "P05"))
    assert res.deaths == [] and [s.reason for s in res.survivals] == ["P03<守护>", "P03<守护>"]


def test_a_standing_once_protection_absorbs_the_first_hit_only() -> None:
    res = _run(*_stab("P04", "P04"))
    assert [d.player for d in res.deaths] == ["P04"]
    assert [s.reason for s in res.survivals] == ["<长寿>：免疫第一次致死伤害（刺杀）"]
    assert res.state_after["P04.长寿"] == 0 and res.state_after["长寿上次"] == {"night": 2}


def test_a_hit_another_protection_stops_does_not_spend_it() -> None:
    res = _run(Action("P02", "庇护", ("P04",)), *_stab("P04", "P04"))
    assert res.deaths == [] and [s.reason for s in res.survivals] == [
        "P02<庇护>挡下刺杀，庇护终止", "<长寿>：免疫第一次致死伤害（刺杀）"]


@pytest.mark.parametrize(("uses", "state"), [({"长寿": 0}, {}), ({}, {"长寿上次": {"night": 1}})])
def test_spent_before_it_stops_nothing(uses: dict[str, int | bool], state: dict[str, Any]) -> None:
    assert [d.player for d in _run(*_stab("P04"), uses=uses, state=state).deaths] == ["P04"]


def test_once_and_reason_are_protect_keys_only() -> None:
    bad = {**NIGHT, "skills": [{**NIGHT["skills"][0], "effects": [{"kind": "damage", "once": True}]}, *NIGHT["skills"][1:]]}
    with pytest.raises(RulesetError, match="once"):
        parse_catalog(bad, "toy.toml")

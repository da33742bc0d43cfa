"""A protection counted over the phase's submissions (``top_at_least``, ``no_repeat``) and a ``cover``.

107 祝福 "若某位角色得到的<祝福>比其他角色都要多且至少为2，该角色当晚免疫一次[致死伤害]。同一名角色不能连续两夜受到
<祝福>效果影响" and 防反 "若该夜剑士受到一次[致死伤害]时，该角色代替剑士承担这次伤害。防反生效后，剑士失去此技能",
asked in the order of its 致死伤害结算流程: (2) the blessing, (3) the cover. A toy game settled by the generic engine
alone; 107's own cases are in test_night_dnf_107.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.errors import RulesetError

BLESS = {"kind": "protect", "stops": ["*"], "once": True, "top_at_least": 2, "no_repeat": "祝福上次"}
NIGHT: dict[str, Any] = {
    "ruleset": "cover-toy",
    "steps": [{"n": "1", "skills": ["祝福", "防反"]}, {"n": "2", "skills": ["刺杀"]}, {"n": "3", "resolve": True}],
    "skills": [
        {"name": "祝福", "roles": ["村民"], "targets": 1, "effects": [BLESS]},
        {"name": "防反", "roles": ["剑士"], "targets": 1, "uses": "防反", "self_target": "never",
         "effects": [{"kind": "cover", "reason": "<防反>由{target}代为承担{skill}"}]},
        {"name": "刺杀", "roles": ["刺客"], "targets": 1, "every_submission": True, "effects": [{"kind": "damage"}]},
    ],
}


def _run(*actions: Action, state: dict[str, Any] | None = None, night: dict[str, Any] | None = None) -> Settlement:
    roles = ["刺客", "村民", "村民", "村民", "剑士", "村民", "村民"]
    players = {f"P0{i}": Seat(f"P0{i}", r, "狼人" if r == "刺客" else "村民", uses={"防反": 1} if r == "剑士" else {})
               for i, r in enumerate(roles, 1)}
    table = Table(players=players, state=dict(state or {}), night=3)
    acts = [Action(a.actor, a.skill, a.targets, index=i) for i, a in enumerate(actions)]
    return settle(parse_catalog(night or NIGHT, "toy.toml"), table, acts)


def _bless(*pairs: tuple[str, str]) -> list[Action]:
    return [Action(who, "祝福", (t,)) for who, t in pairs]


def _stab(*targets: str) -> list[Action]:
    return [Action("P01", "刺杀", (t,)) for t in targets]


def test_the_single_most_chosen_is_protected_once() -> None:
    res = _run(*_bless(("P02", "P06"), ("P03", "P06"), ("P04", "P07")), *_stab("P06", "P06", "P07"))
    assert [d.player for d in res.deaths] == ["P06", "P07"] and [s.player for s in res.survivals] == ["P06"]
    assert res.state_after["祝福上次"] == {"target": "P06", "night": 3}


@pytest.mark.parametrize("pairs", [(("P02", "P06"),), (("P02", "P06"), ("P03", "P06"), ("P04", "P07"), ("P06", "P07"))])
def test_fewer_than_the_least_or_a_tie_protects_nobody(pairs: tuple[tuple[str, str], ...]) -> None:
    res = _run(*_bless(*pairs), *_stab("P06"))
    assert [d.player for d in res.deaths] == ["P06"] and "祝福上次" not in res.state_after


def test_not_the_same_player_two_nights_running() -> None:
    blessed = _bless(("P02", "P06"), ("P03", "P06"))
    assert [d.player for d in _run(*blessed, *_stab("P06"), state={"祝福上次": {"target": "P06", "night": 2}}).deaths] \
        == ["P06"]
    assert _run(*blessed, *_stab("P06"), state={"祝福上次": {"target": "P06", "night": 1}}).deaths == []


def test_a_cover_passes_the_hit_on_and_is_spent_then() -> None:
    res = _run(Action("P05", "防反", ("P07",)), *_stab("P05", "P05"))
    assert [d.player for d in res.deaths] == ["P07", "P05"]
    assert [(s.player, s.reason) for s in res.survivals] == [("P05", "<防反>由P07代为承担刺杀")]
    assert res.state_after["P05.防反"] == 0


def test_an_unused_cover_is_not_spent() -> None:
    res = _run(Action("P05", "防反", ("P07",)), *_stab("P06"))
    assert "P05.防反" not in res.state_after


def test_the_protection_comes_before_the_cover() -> None:
    res = _run(*_bless(("P02", "P05"), ("P03", "P05")), Action("P05", "防反", ("P07",)), *_stab("P05"))
    assert res.deaths == [] and "P05.防反" not in res.state_after


def test_the_counted_keys_are_protect_keys_only() -> None:
    bad = {**NIGHT, "skills": [{**NIGHT["skills"][0], "effects": [{"kind": "damage", "top_at_least": 2}]},
                               *NIGHT["skills"][1:]]}
    with pytest.raises(RulesetError, match="top_at_least"):
        parse_catalog(bad, "toy.toml")

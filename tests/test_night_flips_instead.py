"""``damage`` with ``flips_instead``: a hit that would take out a target it names flips him instead.

107 初拥 "对其造成一次[致死伤害]：若该角色属于人类且因将这次[致死伤害]出局，该角色不出局并翻转其身份" as data, on
a toy night the generic engine settles alone: the target it names stays in and flips by ``[flip]``, with the
``reason`` the survivals list; a target it does not name goes out; a protection that stops the hit leaves
nothing to turn (he was never going out); a night file without ``[flip]`` is refused.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.test_night_flip import RULES
from tracker.engine.night import settle
from tracker.engine.night.catalog import Catalog, parse_catalog
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.engine.ruleset import Ruleset
from tracker.errors import RulesetError

NIGHT: dict[str, Any] = {
    "ruleset": "flip-toy",
    "flip": {"pairs": {"村长": "恶灵", "守夜人": "活尸"}, "faction": "亡灵"},
    "steps": [{"n": "1", "skills": ["守护"]}, {"n": "2", "skills": ["初拥"]}, {"n": "3", "resolve": True}],
    "skills": [
        {"name": "守护", "roles": ["神使"], "targets": 1, "effects": [{"kind": "protect", "stops": ["初拥"]}]},
        {"name": "初拥", "roles": ["恶灵"], "kind": "限定", "targets": 1, "uses": "初拥",
         "effects": [{"kind": "damage", "flips_instead": {"values": ["村庄", "天界", "中立"]},
                      "reason": "<{skill}>使其不出局并翻转身份"}]},
        {"name": "咒语", "roles": ["恶灵"], "kind": "限定", "targets": 1, "uses": "咒语"},
    ],
}


def _cat(night: dict[str, Any] | None = None) -> Catalog:
    return parse_catalog(night or NIGHT, "flips-instead-toy.toml")


def _rules() -> Ruleset:
    return RULES


def _run(*acts: tuple[str, str, tuple[str, ...]], **extra: Seat) -> Settlement:
    seats = {"P1": Seat("P1", "神使", "天界"), "P2": Seat("P2", "村长", "村庄"),
             "P3": Seat("P3", "恶灵", "亡灵", uses={"初拥": 1}), **extra}
    table = Table(players=seats, state={}, night=2)
    return settle(_cat(), table, [Action(a, s, t, index=i) for i, (a, s, t) in enumerate(acts)], seed=0,
                  ruleset=_rules())


def test_a_named_target_flips_instead_of_going_out() -> None:
    res = _run(("P3", "初拥", ("P2",)))
    assert res.deaths == []
    assert [(c.player, c.role_to, c.faction_to) for c in res.conversions] == [("P2", "恶灵", "亡灵")]
    assert [(s.player, s.reason) for s in res.survivals] == [("P2", "<初拥>使其不出局并翻转身份")]
    assert res.table_after is not None and res.table_after.players["P2"].alive


def test_a_target_it_does_not_name_goes_out() -> None:
    res = _run(("P3", "初拥", ("P4",)), P4=Seat("P4", "活尸", "亡灵"))
    assert [d.player for d in res.deaths] == ["P4"]
    assert res.conversions == []


def test_a_stopped_hit_turns_nobody() -> None:
    res = _run(("P1", "守护", ("P2",)), ("P3", "初拥", ("P2",)))
    assert res.deaths == [] and res.conversions == []
    assert [s.player for s in res.survivals] == ["P2"]


def test_flips_instead_needs_the_flip_table_and_reason_needs_it() -> None:
    night = {**NIGHT}
    del night["flip"]
    with pytest.raises(RulesetError, match=r"没有 \[flip\]"):
        _cat(night)
    bad = {**NIGHT, "skills": [{"name": "x", "roles": ["神使"], "targets": 1,
                                "effects": [{"kind": "damage", "reason": "为何"}]}]}
    with pytest.raises(RulesetError, match="flips_instead"):
        _cat(bad)

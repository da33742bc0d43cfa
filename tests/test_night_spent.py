"""The skill key ``spent`` on a toy night settled by the generic engine alone: the word the state after shows
once a use leaves none (M19 毒药 "<毒药>发动后，女巫失去技能<毒药>": 已失去), instead of the count left."""

from __future__ import annotations

from typing import Any

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.model import Action, Seat, Table


def night(**poison: Any) -> dict[str, Any]:
    return {
        "ruleset": "spent-toy",
        "steps": [{"n": "1", "skills": ["毒药"]}, {"n": "2", "resolve": True}],
        "skills": [{"name": "毒药", "roles": ["女巫"], "targets": 1, "uses": "毒药", "effects": [{"kind": "damage"}],
                    **poison}],
    }


def _after(doc: dict[str, Any], left: int) -> object:
    players = {"P1": Seat("P1", "女巫", "村民", uses={"毒药": left}), "P2": Seat("P2", "村民", "村民")}
    res = settle(parse_catalog(doc, "spent.toml"), Table(players=players, state={}, night=1),
                 [Action("P1", "毒药", ("P2",))])
    assert [d.player for d in res.deaths] == ["P2"]
    return res.state_after["P1.毒药"]


def test_the_spent_word_once_no_use_is_left_else_the_count() -> None:
    assert _after(night(spent="已失去"), 1) == "已失去"
    assert _after(night(spent="已失去"), 2) == 1  # a use left: the count
    assert _after(night(), 1) == 0  # without the key: the count left

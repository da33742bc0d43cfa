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


def test_lose_keeps_a_count_a_count_shows_the_spent_word_and_an_empty_log_writes_no_line() -> None:
    """M19 救药 "女巫失去<救药>技能后，失去技能<通灵>": 通灵 counted 1 becomes 0, the state after shows its
    `spent` word, and the 救药's own line says it (the lose effect's ``log = ""``)."""
    doc = {
        "ruleset": "lose-toy",
        "steps": [{"n": "1", "skills": ["救药"]}],
        "skills": [
            {"name": "救药", "roles": ["女巫"], "targets": 1, "uses": "救药", "spent": "已失去", "effects": [
                {"kind": "protect", "stops": ["杀人"], "log": "{step} 女巫{actor}救{target}，随之失去<通灵>"},
                {"kind": "lose", "loses": "通灵", "log": ""}]},
            {"name": "通灵", "roles": ["女巫"], "phase": "passive", "uses": "通灵", "spent": "已失去"},
        ],
    }
    players = {"P1": Seat("P1", "女巫", "村民", uses={"救药": 1, "通灵": 1}), "P2": Seat("P2", "村民", "村民")}
    res = settle(parse_catalog(doc, "lose.toml"), Table(players=players, state={}, night=1),
                 [Action("P1", "救药", ("P2",))])
    assert res.state_after["P1.救药"] == "已失去" and res.state_after["P1.通灵"] == "已失去"
    assert res.table_after is not None and res.table_after.players["P1"].uses == {"救药": 0, "通灵": 0}
    assert res.log == ["(1) 女巫P1救P2，随之失去<通灵>"]
    doc["skills"][0]["effects"][1] = {"kind": "lose", "loses": "通灵"}
    res = settle(parse_catalog(doc, "lose.toml"), Table(players=players, state={}, night=1),
                 [Action("P1", "救药", ("P2",))])
    assert res.log[-1] == "(1) P1<救药>：失去<通灵>"

"""Generic effect ``gain`` on a toy night: the actor takes the template of a player's role — every skill of it
but the deal's own choice, held through his ``uses`` (a counted skill at its ``count``, a skill with ``forms`` at
its once-only form's, else true) — and a holder already out is immune to nothing (M65 缥缈永恒 "指定一名白天被投票出局
的自己阵营玩家，拥有该身份模板的全部技能（即抉择中的两种选项技能都将拥有）": a voted-out 绿王's <绝对防御> does not stop it)."""

from __future__ import annotations

from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.errors import RulesetError

GAIN = {"kind": "gain", "text": "你拥有<{role}>的全部技能：{skills}"}


def _night(**gain: Any) -> dict[str, Any]:
    return {
        "ruleset": "gain-toy",
        "steps": [{"n": "1", "skills": ["继承"]}],
        "skills": [
            {"name": "继承", "roles": ["白王"], "targets": 1, "target_dead": True, "uses": "继承",
             "effects": [{**GAIN, **gain}]},
            {"name": "选择", "roles": ["盾王"], "phase": "setup", "targets": 0,
             "effects": [{"kind": "choose", "text": "{form}"}]},
            {"name": "斩", "roles": ["盾王"], "kind": "限定", "targets": 1, "uses": "斩"},
            {"name": "盾", "roles": ["盾王"], "phase": "passive", "kind": "强制", "targets": 0, "immune_to": ["*"]},
            {"name": "望", "roles": ["盾王"], "targets": 1, "forms": [{"name": "持续", "count": 3}, {"name": "枯竭", "count": 1}]},
        ],
    }


def _run(doc: dict[str, Any]) -> Settlement:
    players = {"W": Seat("W", "白王", "六色", uses={"继承": 1}), "G": Seat("G", "盾王", "六色", alive=False)}
    return settle(parse_catalog(doc, "gain.toml"), Table(players=players, state={}, night=2),
                  [Action("W", "继承", ("G",), index=0)])


def test_the_template_is_held_through_uses_and_the_dead_holder_shields_nothing() -> None:
    res = _run(_night())
    assert {k: v for k, v in res.state_after.items() if k.startswith("W.")} == {
        "W.继承": 0, "W.斩": 1, "W.盾": True, "W.望": 1}  # 选择 (the deal's) is not taken
    assert [(f.to, f.content) for f in res.feedback] == [("W", "你拥有<盾王>的全部技能：斩、盾、望")]
    after = res.table_after
    assert after is not None and after.players["W"].uses["盾"] is True


def test_gain_says_what_it_tells() -> None:
    doc = _night()
    doc["skills"][0]["effects"] = [{"kind": "gain"}]
    with pytest.raises(RulesetError):
        parse_catalog(doc, "gain.toml")

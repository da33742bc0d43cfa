"""``immune_to`` with ``immune_told`` on a toy night settled by the generic engine alone: the holder is told who
used the skill his immunity stopped, and a holder whose ``uses`` of it are spent is not immune — M19 女巫
<警觉>（强制）"当你成为<算计><灭口><觅食>的目标时，此技能无效且得知使用该技能对象的马甲"."""

from __future__ import annotations

from typing import Any

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.model import Action, Seat, Settlement, Table


def night(**alert: Any) -> dict[str, Any]:
    return {
        "ruleset": "alert-toy",
        "steps": [{"n": "1", "skills": ["觅食"]}, {"n": "2", "skills": ["灭口"]}, {"n": "3", "resolve": True}],
        "skills": [
            {"name": "觅食", "roles": ["公狼"], "targets": 1,
             "effects": [{"kind": "inspect", "answer": "role", "text": "觅食：{target}是{answer}"}]},
            {"name": "灭口", "roles": ["绑匪"], "targets": 1, "uses": "灭口", "effects": [{"kind": "damage"}]},
            {"name": "警觉", "roles": ["女巫"], "phase": "passive", "uses": "警觉", "immune_to": ["觅食", "灭口"],
             **alert},
        ],
    }


def _run(doc: dict[str, Any], alert: bool | int = True) -> Settlement:
    players = {"W": Seat("W", "女巫", "村民", uses={"警觉": alert}), "B": Seat("B", "公狼", "狼人"),
               "K": Seat("K", "绑匪", "狼人", uses={"灭口": 1})}
    return settle(parse_catalog(doc, "alert.toml"), Table(players=players, state={}, night=1),
                  [Action("B", "觅食", ("W",), index=0), Action("K", "灭口", ("W",), index=1)])


def test_the_immune_holder_is_told_who_and_the_user_learns_nothing() -> None:
    res = _run(night(immune_told="警觉：{actor}对你使用了<{skill}>（无效）"))
    assert res.deaths == [] and res.state_after["K.灭口"] == 0  # used, to no effect
    assert [(f.to, f.content) for f in res.feedback] == [("W", "警觉：B对你使用了<觅食>（无效）"),
                                                          ("W", "警觉：K对你使用了<灭口>（无效）")]
    assert [f.content for f in _run(night()).feedback] == []  # without immune_told: nobody is told


def test_a_spent_immunity_protects_no_more() -> None:
    res = _run(night(immune_told="警觉：{actor}"), alert=False)
    assert [d.player for d in res.deaths] == ["W"]
    assert [(f.to, f.content) for f in res.feedback] == [("B", "觅食：W是女巫")]

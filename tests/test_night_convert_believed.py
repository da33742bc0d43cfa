"""A `convert` that reaches `others`, makes the target what he `believed` he was, or changes only his `group`; a
skill `declined_by` a choice spends no use.

M160 幕后黑手【夺刀】<限定> "每个晨曦，你可以选择成为【恶魔】。如果你这么做了，当前的【恶魔】变为他自己认为的身份对应的
【善良玩家】，你获得技能【凶杀】并在本局游戏的剩余时间内成为【恶魔】": every other 恶魔 (`to = "others"`, `when_target`
group) becomes the role he believes, with its group (`believed`), 善良; the user's group (`type`) becomes 恶魔, his role
kept (`group`); 不夺刀 is settled but spends nothing (`declined_by`). A toy game settled by the generic engine (no
ruleset: a role's group is its name); M160's own case is in test_night_gourmet_m160.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.errors import RulesetError

SEIZE: list[dict[str, Any]] = [
    {"kind": "note", "to": "actor", "when_choice": ["不篡位"], "log": "{step} 篡位：{actor}不篡位"},
    {"kind": "convert", "to": "others", "when_target": {"of": "group", "values": ["首领"]}, "believed": True,
     "faction": "平民", "when_choice": ["篡位"], "unless_choice": ["不篡位"], "cause": "篡位"},
    {"kind": "convert", "to": "actor", "group": "首领", "when_choice": ["篡位"], "unless_choice": ["不篡位"],
     "log": "{step} 篡位：{actor}成为首领"},
]
NIGHT: dict[str, Any] = {
    "ruleset": "convert-believed-toy",
    "steps": [{"n": "1", "skills": ["篡位"]}],
    "skills": [{"name": "篡位", "roles": ["谋士"], "kind": "限定", "uses": "篡位", "min_targets": 0, "max_targets": 2,
                "declined_by": ["不篡位"], "effects": SEIZE}],
}


def _run(choice: str, *targets: str) -> Settlement:
    players = {"P01": Seat("P01", "谋士", "邪恶", uses={"篡位": 1}),
               "P02": Seat("P02", "首领", "邪恶", fields={"believes": "工匠"}),
               "P03": Seat("P03", "首领", "邪恶"), "P04": Seat("P04", "工匠", "平民")}
    act = Action("P01", "篡位", targets, choice, index=0)
    return settle(parse_catalog(NIGHT, "toy.toml"), Table(players=players, state={}, night=2), [act])


def test_every_other_leader_becomes_what_he_believes_and_the_user_a_leader() -> None:
    res = _run("篡位", "P04", "P03")  # the targets do not matter, nor their number: once for the submission
    assert [(c.player, c.role_to, c.faction_to) for c in res.conversions] == [("P02", "工匠", "平民"),
                                                                            ("P03", "首领", "平民")]
    assert res.state_after["P02.type"] == "工匠" and res.state_after["P03.type"] == "首领"
    assert res.state_after["P01.type"] == "首领" and res.table_after.players["P01"].role == "谋士"
    assert "(1) 篡位：P01成为首领" in res.log and res.state_after["P01.篡位"] == 0


def test_declining_settles_but_spends_nothing() -> None:
    res = _run("不篡位")
    assert res.conversions == [] and "(1) 篡位：P01不篡位" in res.log
    assert "P01.篡位" not in res.state_after and res.table_after.players["P01"].uses == {"篡位": 1}
    assert "P01.type" not in res.state_after


def test_believed_says_the_role_itself() -> None:
    bad = {**NIGHT, "skills": [{**NIGHT["skills"][0], "effects": [{**SEIZE[1], "role": "工匠"}]}]}
    with pytest.raises(RulesetError, match="believed"):
        parse_catalog(bad, "toy.toml")

"""An effect that holds only while its user is none of some values (``unless_actor``), a status compared as a
faction or a role is (``of = "status"``: on the table, or for this phase only), and a for-phase status's own log line.

M160 煤气灯人【寻觅】 "若你未在刚刚过去的夜晚中称为【恶魔】击杀的对象，你获得【清醒】，你的【表面身份】变为【煤气灯人】":
the 恶魔's killing marks its victim for the night, and the 寻觅 of a marked 煤气灯人 gives him nothing. A toy game
settled by the generic engine alone; M160's own cases are in test_night_gourmet_m160.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.errors import RulesetError

MARKED = {"of": "status", "values": ["被盯上"]}
NIGHT: dict[str, Any] = {
    "ruleset": "unless-actor-toy",
    "steps": [{"n": "1", "skills": ["盯梢"]}, {"n": "2", "skills": ["寻踪"]}, {"n": "3", "skills": ["自省"]}],
    "skills": [
        {"name": "盯梢", "roles": ["猎手"], "targets": 1,
         "effects": [{"kind": "status", "status": "被盯上", "for_phase": True, "log": ""}]},
        {"name": "寻踪", "roles": ["旅人"], "targets": 1, "effects": [
            {"kind": "status", "status": "清醒", "for_phase": True, "to": "actor", "unless_actor": MARKED,
             "log": "{step} 寻踪：{actor}未被盯上 → 清醒"},
            {"kind": "status", "status": "隐身", "for_phase": True, "to": "actor", "unless_actor": MARKED, "log": ""},
        ]},
        {"name": "自省", "roles": ["学者"], "targets": 1, "effects": [
            {"kind": "learn", "ask": "any", "match": {"of": "status", "values": ["清醒", "中毒"]}, "yes": "是",
             "no": "否", "text": "自省：{targets}{answer}"}]},
    ],
}


def _run(*actions: Action, poisoned: bool = False) -> Settlement:
    roles = ["猎手", "旅人", "学者"]
    players = {f"P{i}": Seat(f"P{i}", r, "村民", status=["被盯上"] if poisoned and r == "旅人" else [])
               for i, r in enumerate(roles, 1)}
    acts = [Action(a.actor, a.skill, a.targets, index=i) for i, a in enumerate(actions)]
    return settle(parse_catalog(NIGHT, "toy.toml"), Table(players=players, state={}, night=1), acts)


ASK = Action("P3", "自省", ("P2",))


def test_a_user_who_is_none_of_the_values_gets_it_with_its_own_line() -> None:
    res = _run(Action("P2", "寻踪", ("P3",)), ASK)
    assert [f.content for f in res.feedback if f.to == "P3"] == ["自省：P2是"]  # 清醒 for the night, read by of = status
    assert "(2) 寻踪：P2未被盯上 → 清醒" in res.log
    assert not any("隐身" in line for line in res.log)  # an empty log: no line of its own


def test_a_user_holding_the_status_tonight_gets_nothing() -> None:
    res = _run(Action("P1", "盯梢", ("P2",)), Action("P2", "寻踪", ("P3",)), ASK)
    assert [f.content for f in res.feedback if f.to == "P3"] == ["自省：P2否"]
    assert res.log.count("(2) P2<寻踪>：P2有被盯上状态，无效果") == 2 and not any("被盯上" in s for s in res.state_after)


def test_a_status_on_the_table_counts_too() -> None:
    res = _run(Action("P2", "寻踪", ("P3",)), ASK, poisoned=True)
    assert [f.content for f in res.feedback if f.to == "P3"] == ["自省：P2否"]


def test_learn_reads_no_unless_actor() -> None:
    bad = {**NIGHT, "skills": [*NIGHT["skills"][:2], {**NIGHT["skills"][2], "effects": [
        {**NIGHT["skills"][2]["effects"][0], "unless_actor": MARKED}]}]}
    with pytest.raises(RulesetError, match="unless_actor"):
        parse_catalog(bad, "toy.toml")

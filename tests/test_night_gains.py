"""``trigger.on = "gain"`` on a toy game: a skill that acts by itself the moment a player takes its role, by a
flip or a convert, whoever settles it (107 灵能<强制> "恶灵诞生时，[亡灵圣物]的<诅咒>技能次数+1", 夜之眼 "夜行怪加入
游戏时，得知当前【亡灵圣物】持有者的身份"), with the effects it needs: ``count`` (a number of a tag's record) and
``inspect`` ``holder_of`` (the tag's holder, not a target). 107's own cases are in test_night_dnf_107.py."""

from __future__ import annotations

from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.checks import refusal
from tracker.engine.night.coverage import coverage
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.errors import RulesetError

BORN = {"on": "gain", "forced": True}


def night(born: dict[str, Any] | None = None, count: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "ruleset": "gains-toy",
        "flip": {"pairs": {"骑士": "尸骑"}, "faction": "亡灵"},
        "steps": [{"n": "1", "skills": ["转化", "暗化", "刀"]}],
        "skills": [
            {"name": "转化", "roles": ["巫师"], "targets": 1, "effects": [{"kind": "convert", "flip": True}]},
            {"name": "暗化", "roles": ["巫师"], "targets": 1, "effects": [{"kind": "convert", "role": "尸骑"}]},
            {"name": "刀", "roles": ["刀客"], "targets": 1, "effects": [{"kind": "kill"}]},
            {"name": "诞生", "roles": ["尸骑"], "phase": "passive", "kind": "强制", "trigger": born or BORN,
             "effects": [count or {"kind": "count", "tag": "圣物", "key": "次数", "add": 1,
                                   "log": "诞生：{actor}，次数现为{count}", "absent": "诞生：{actor}，尚无圣物"}]},
            {"name": "夜眼", "roles": ["尸骑"], "phase": "passive", "kind": "锁定", "trigger": BORN,
             "effects": [{"kind": "inspect", "answer": "role", "holder_of": "圣物", "text": "夜眼：{target}是{answer}",
                          "empty": "夜眼：无人持有圣物"}]},
        ],
    }


def table(relic: bool = True) -> Table:
    seats = {"P1": Seat("P1", "巫师", "乙"), "P2": Seat("P2", "骑士", "甲"), "P3": Seat("P3", "刀客", "乙"),
             "P4": Seat("P4", "骑士", "甲", tags=["圣物"] if relic else [])}
    return Table(players=seats, state={"圣物": {"holder": "P4", "次数": 2}} if relic else {}, night=1)


def run(t: Table, *acts: Action, doc: dict[str, Any] | None = None) -> Settlement:
    return settle(parse_catalog(doc or night(), "toy.toml"), t,
                  [Action(a.actor, a.skill, a.targets, index=i) for i, a in enumerate(acts)])


def test_a_flip_or_a_convert_into_the_role_sets_its_gain_skills_off() -> None:
    for skill in ("转化", "暗化"):
        res = run(table(), Action("P1", skill, ("P2",)))
        assert res.state_after["圣物"] == {"holder": "P4", "次数": 3}
        assert "诞生：P2，次数现为3" in res.log
        assert [f.content for f in res.feedback if f.to == "P2" and f.content.startswith("夜眼")] == ["夜眼：P4是骑士"]


def test_with_no_record_nor_holder_the_count_and_the_look_find_nothing() -> None:
    res = run(table(relic=False), Action("P1", "转化", ("P2",)))
    assert "诞生：P2，尚无圣物" in res.log and "圣物" not in res.state_after
    assert [f.content for f in res.feedback if f.to == "P2" and f.content.startswith("夜眼")] == ["夜眼：无人持有圣物"]


def test_a_gain_skill_is_not_an_exit_trigger_nor_submitted() -> None:
    t = table()
    t.players["P2"].role, t.players["P2"].faction = "尸骑", "亡灵"
    res = run(t, Action("P3", "刀", ("P2",)))  # its holder going out sets nothing off
    assert "圣物" not in res.state_after and not any("夜眼" in f.content for f in res.feedback)
    cat = parse_catalog(night(), "t")
    assert refusal(t, Action("P2", "诞生"), cat.skill("诞生")) == "<诞生>是强制技能，获得该身份时自行发动，无需提交"


def test_the_keys_are_checked_and_count_as_data() -> None:
    assert {"诞生", "夜眼"} <= set(coverage(parse_catalog(night(), "t"), None).by_data)
    with pytest.raises(RulesetError, match="forced"):
        parse_catalog(night(born={"on": "gain"}), "t")
    with pytest.raises(RulesetError, match="不写 unless 和 at"):  # its time is the gain itself
        parse_catalog(night(born={**BORN, "at": "next_point"}), "t")
    with pytest.raises(RulesetError, match="tag 和 key"):
        parse_catalog(night(count={"kind": "count", "tag": "圣物"}), "t")

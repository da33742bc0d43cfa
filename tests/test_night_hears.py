"""``hears`` on a toy game: the holders of a skill are told when another player of some factions goes out or
flips (107 灵魂链接<锁定> "每当其他圣殿阵营角色出局或身份翻转时，你将得到通知"), whichever step settles the exit
or the flip. 107's own case is test_soul_link_* in test_night_dnf_107.py."""

from __future__ import annotations

from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.coverage import coverage
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.errors import RulesetError


def night(hears: dict[str, Any]) -> dict[str, Any]:
    return {
        "ruleset": "hears-toy",
        "flip": {"pairs": {"骑士": "尸骑"}, "faction": "亡灵"},
        "steps": [{"n": "1", "skills": ["转化", "刀"]}],
        "skills": [
            {"name": "链接", "roles": ["骑士", "僧侣"], "phase": "passive", "kind": "锁定", "hears": hears},
            {"name": "刀", "roles": ["刀客"], "targets": 1, "effects": [{"kind": "kill"}]},
            {"name": "转化", "roles": ["巫师"], "targets": 1, "effects": [{"kind": "convert", "flip": True}]},
        ],
    }


LINK = {"factions": ["圣殿"], "exit": "链接：{player}出局", "flip": "链接：{player}翻转"}


def run(hears: dict[str, Any], *acts: Action) -> Settlement:
    t = Table(players={"P1": Seat("P1", "骑士", "圣殿"), "P2": Seat("P2", "僧侣", "圣殿"),
                       "P3": Seat("P3", "骑士", "圣殿"), "P4": Seat("P4", "刀客", "乙"),
                       "P5": Seat("P5", "巫师", "乙", uses={"链接": True}), "P6": Seat("P6", "农夫", "乙")},
              state={}, night=1)
    return settle(parse_catalog(night(hears), "toy.toml"), t, [Action(a.actor, a.skill, a.targets, index=i)
                                                              for i, a in enumerate(acts)])


def told(res: Settlement) -> list[tuple[str, str]]:
    return [(f.to, f.content) for f in res.feedback if f.content.startswith("链接")]


def test_the_other_living_holders_hear_an_exit_of_the_factions() -> None:
    res = run(LINK, Action("P4", "刀", ("P1",)))
    # P1 himself is out; P5 holds it by a gained use (拓印 "获得之"), in seat order
    assert told(res) == [("P2", "链接：P1出局"), ("P3", "链接：P1出局"), ("P5", "链接：P1出局")]
    assert told(run(LINK, Action("P4", "刀", ("P6",)))) == []  # not of 圣殿


def test_a_flip_out_of_or_into_the_factions_is_heard_and_an_event_left_out_is_not() -> None:
    res = run(LINK, Action("P5", "转化", ("P3",)))
    assert told(res) == [("P1", "链接：P3翻转"), ("P2", "链接：P3翻转"), ("P5", "链接：P3翻转")]
    assert told(run({"factions": ["圣殿"], "exit": "链接：{player}出局"}, Action("P5", "转化", ("P3",)))) == []
    assert told(run({"factions": ["圣殿"], "flip": "链接：{player}翻转"}, Action("P4", "刀", ("P1",)))) == []


def test_hears_counts_as_data_and_must_say_an_event() -> None:
    assert "链接" in coverage(parse_catalog(night(LINK), "t"), None).by_data
    with pytest.raises(RulesetError, match="exit 或 flip"):
        parse_catalog(night({"factions": ["圣殿"]}), "t")

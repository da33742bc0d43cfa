"""A toy game for the keys 107 灾厄 needs: a `tell` of the living players (`living`) to the holders of some
factions only (`factions`), and an effect that takes hold only while its user is of some faction
(`when_actor`) — "若[亡灵圣物]的持有者属于亡灵阵营，其将得到导演通知，得知存活角色名单并可以将[亡灵圣物]转交给
场上任意一名角色". 107's own case is test_calamity_* in test_night_dnf_107.py."""

from __future__ import annotations

from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.errors import RulesetError


def night(tell: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "ruleset": "living-toy",
        "steps": [{"n": "1", "skills": ["转交"],
                   "tell": tell or {"to": "转交", "living": True, "factions": ["亡灵"], "text": "名单：{living}"}}],
        "skills": [
            {"name": "转交", "tag": "圣物", "min_targets": 0, "max_targets": 1,
             "effects": [{"kind": "mark", "tag": "圣物", "act": "give", "when_actor": {"values": ["亡灵"]}}]},
        ],
    }


def run(holder_faction: str, *acts: Action) -> Settlement:
    t = Table(players={"P1": Seat("P1", "甲", holder_faction, tags=["圣物"]), "P2": Seat("P2", "乙", "村民"),
                       "P3": Seat("P3", "丙", "村民", alive=False), "P4": Seat("P4", "丁", "村民")},
              state={}, night=1)
    return settle(parse_catalog(night(), "toy.toml"), t, [Action(a.actor, a.skill, a.targets, index=i)
                                                          for i, a in enumerate(acts)])


def test_the_holder_of_the_faction_is_told_the_living_and_may_pass_it() -> None:
    res = run("亡灵", Action("P1", "转交", ("P4",)))
    assert [(f.to, f.content) for f in res.feedback] == [("P1", "名单：P1、P2、P4")]
    assert [(m.from_player, m.to_player) for m in res.tags_moved] == [("P1", "P4")]
    assert run("亡灵").tags_moved == [] and run("亡灵").feedback[0].content == "名单：P1、P2、P4"  # told, kept


def test_a_holder_of_another_faction_is_not_told_and_his_submission_does_nothing() -> None:
    res = run("村民", Action("P1", "转交", ("P4",)))
    assert res.feedback == [] and res.tags_moved == []
    assert any("P1的实际阵营不是亡灵，无效果" in line for line in res.log)


def test_living_is_one_of_the_tells_and_learn_reads_no_when_actor() -> None:
    with pytest.raises(RulesetError, match="只写一个"):
        parse_catalog(night({"to": "转交", "living": True, "count": ["亡灵"], "text": "{living}"}), "t")
    bad = night()
    bad["skills"][0]["effects"] = [{"kind": "learn", "ask": "chosen_before", "when_actor": {"values": ["亡灵"]}}]
    with pytest.raises(RulesetError, match="when_actor"):
        parse_catalog(bad, "t")

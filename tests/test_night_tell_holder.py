"""A ``tell`` step of ``holder_of``, ``unless_team_holds`` and ``while_alive`` (107 追踪<团队><强制> "游戏日白天开始时，
如果[亡灵圣物]的持有者不是恶徒或恶徒群内的活尸，得知一次[亡灵圣物]的持有者。（当恶徒只存活一人时，追踪失效）"), on a toy
day the generic engine settles alone.

Before these keys a tell could name a skill's targets, a count or the living, never who holds a tag: the step was
107's hook code.
"""

from __future__ import annotations

from typing import Any

import pytest
from toy_rules import toy_rules

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.model import Seat, Settlement, Table
from tracker.errors import RulesetError

RULES = toy_rules("track-toy", "追踪测试局", 5, ["村庄", "恶徒", "亡灵"], [
    {"name": "村民", "faction": "村庄", "count": 2}, {"name": "恶徒", "faction": "恶徒", "count": 3},
    {"name": "活尸", "faction": "亡灵", "count": 0},
], win="村庄")

TELL = {"to": "追踪", "holder_of": "圣物", "text": "追踪：圣物的持有者为{targets}",
        "unless_team_holds": "{step} 追踪：持有者是恶徒群的成员 → 不结算",
        "while_alive": {"roles": ["恶徒"], "at_least": 2}, "lapsed": "{step} 追踪：恶徒只存活一人 → 追踪失效"}


def _night(tell: dict[str, Any]) -> dict[str, Any]:
    return {
        "ruleset": "track-toy",
        "steps": [{"n": "18", "phases": ["day"], "tell": tell}],
        "skills": [
            {"name": "追踪", "roles": ["恶徒"], "team": "恶徒", "phase": "passive", "kind": "团队"},
            {"name": "伪装", "roles": ["活尸"], "phase": "passive", "kind": "强制", "keeps_team": True},
        ],
    }


def _run(tell: dict[str, Any], holder: str | None, **over: dict[str, Any]) -> Settlement:
    seats = [Seat("P1", "村民", "村庄"), Seat("P2", "村民", "村庄"), Seat("P3", "恶徒", "恶徒"),
             Seat("P4", "恶徒", "恶徒"), Seat("P5", "恶徒", "恶徒")]
    for s in seats:
        for k, v in over.get(s.name, {}).items():
            if k == "原身份":
                s.fields[k] = v
            else:
                setattr(s, k, v)
        if s.name == holder:
            s.tags.append("圣物")
    table = Table(players={s.name: s for s in seats}, state={}, day=3)
    return settle(parse_catalog(_night(tell), "track-toy.toml"), table, [], ruleset=RULES)


def _told(res: Settlement) -> dict[str, str]:
    return {f.to: f.content for f in res.feedback}


def test_the_team_learns_who_holds_the_tag() -> None:
    res = _run(TELL, "P1")
    assert _told(res) == {p: "追踪：圣物的持有者为P1" for p in ("P3", "P4", "P5")}


def test_nobody_holding_it_nobody_is_told_and_nothing_is_logged() -> None:
    res = _run(TELL, None)
    assert _told(res) == {} and not any("追踪" in line for line in res.log)


def test_a_holder_of_the_team_itself_is_not_tracked() -> None:
    res = _run(TELL, "P3")
    assert _told(res) == {} and "(18) 追踪：持有者是恶徒群的成员 → 不结算" in res.log


def test_a_walking_dead_who_kept_the_team_is_a_member_both_ways() -> None:
    """伪装 "任意角色成为活尸后，不会失去原身份的<团队>技能": the 恶徒群's 活尸 holding the tag is not tracked, and, another
    holding it, he is told with the 恶徒."""
    dead_thug = {"role": "活尸", "faction": "亡灵", "原身份": "恶徒"}
    res = _run(TELL, "P5", P5=dead_thug)
    assert _told(res) == {} and "(18) 追踪：持有者是恶徒群的成员 → 不结算" in res.log
    res = _run(TELL, "P1", P5=dead_thug)
    assert set(_told(res)) == {"P3", "P4", "P5"}


def test_with_one_of_the_roles_alive_the_tell_lapses() -> None:
    res = _run(TELL, "P1", P3={"alive": False}, P4={"alive": False})
    assert _told(res) == {} and "(18) 追踪：恶徒只存活一人 → 追踪失效" in res.log
    res = _run({k: v for k, v in TELL.items() if k not in ("while_alive", "lapsed")}, "P1",
               P3={"alive": False}, P4={"alive": False})
    assert _told(res) == {"P5": "追踪：圣物的持有者为P1"}


def test_without_unless_team_holds_the_holder_is_named_to_his_own_team() -> None:
    res = _run({k: v for k, v in TELL.items() if k != "unless_team_holds"}, "P3")
    assert _told(res)["P4"] == "追踪：圣物的持有者为P3"


@pytest.mark.parametrize("bad", [{"unless_team_holds": "x"}, {"lapsed": "x", "living": True}])
def test_the_keys_need_what_they_qualify(bad: dict[str, Any]) -> None:
    with pytest.raises(RulesetError):
        parse_catalog(_night({"to": "追踪", "text": "x", **bad}), "track-toy.toml")

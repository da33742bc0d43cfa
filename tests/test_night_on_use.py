"""``on_use`` and a ``message``'s ``first_only`` on a toy game: a skill never submitted acts on its holder's uses of
another skill once they take effect, on the targets its ``when_target`` names; a message told only for the game's
first such use (107 恩典<普通> "若村民祝福对象为神启者时，将得到反馈“神启者”；神启者会得知第一个对其使用祝福的村民").
107's own case is test_grace_* in test_night_dnf_107.py."""

from __future__ import annotations

from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.coverage import coverage
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.errors import RulesetError

GRACE: dict[str, Any] = {
    "name": "天恩", "roles": ["信徒"], "phase": "passive",
    "on_use": {"of": "祈福", "when_target": {"of": "role", "values": ["圣者"]}},
    "effects": [{"kind": "tell", "text": "天恩：圣者"},
                {"kind": "message", "text": "天恩：第一个为你祈福的是{actor}", "first_only": "天恩首次"}],
}


def night(grace: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "ruleset": "on-use-toy",
        "steps": [{"n": "1", "skills": ["封", "禁"]}, {"n": "2", "skills": ["祈福"]}],
        "skills": [
            {"name": "祈福", "roles": ["信徒"], "targets": 1, "gained": True,
             "effects": [{"kind": "protect", "stops": ["*"]}]},
            grace or GRACE,
            {"name": "封", "roles": ["巫师"], "targets": 1, "effects": [{"kind": "block", "voids": ["祈福"]}]},
            {"name": "禁", "roles": ["巫师"], "targets": 1, "effects": [{"kind": "block", "voids": ["天恩"]}]},
        ],
    }


def run(*acts: Action, state: dict[str, Any] | None = None, grace: dict[str, Any] | None = None) -> Settlement:
    t = Table(players={"P1": Seat("P1", "信徒", "甲"), "P2": Seat("P2", "信徒", "甲"), "P3": Seat("P3", "圣者", "甲"),
                       "P4": Seat("P4", "学者", "甲", uses={"祈福": True}), "P5": Seat("P5", "巫师", "乙"),
                       "P6": Seat("P6", "农夫", "甲")},
              state=dict(state or {}), night=2)
    return settle(parse_catalog(night(grace), "toy.toml"), t,
                  [Action(a.actor, a.skill, a.targets, index=i) for i, a in enumerate(acts)])


def told(res: Settlement) -> list[tuple[str, str]]:
    return [(f.to, f.content) for f in res.feedback if f.content.startswith("天恩")]


def test_a_holders_use_on_the_named_target_sets_it_off_and_only_the_first_is_messaged() -> None:
    res = run(Action("P1", "祈福", ("P3",)), Action("P2", "祈福", ("P3",)))
    assert told(res) == [("P1", "天恩：圣者"), ("P3", "天恩：第一个为你祈福的是P1"), ("P2", "天恩：圣者")]
    assert res.state_after["天恩首次"] == {"player": "P1", "night": 2}
    assert told(run(Action("P1", "祈福", ("P6",)))) == []  # not the role it names: no occasion, nothing told
    again = run(Action("P2", "祈福", ("P3",)), state={"天恩首次": {"player": "P1", "night": 1}})
    assert told(again) == [("P2", "天恩：圣者")]  # the game's first was told already


def test_a_user_who_does_not_hold_it_or_a_use_that_does_not_take_effect_sets_off_nothing() -> None:
    assert told(run(Action("P4", "祈福", ("P3",)))) == []  # a copied 祈福 brings no 天恩
    assert told(run(Action("P5", "封", ("P1",)), Action("P1", "祈福", ("P3",)))) == []  # the use itself blocked
    res = run(Action("P5", "禁", ("P1",)), Action("P1", "祈福", ("P3",)))
    assert told(res) == []  # a block of the rider alone voids it; the use stands
    assert "(2) P1<天恩>：被封锁，无效" in res.log and "(2) P1<祈福>：P3（当晚不受任何致死）" in res.log


def test_on_use_counts_as_data_and_names_a_skill_of_the_file() -> None:
    assert "天恩" in coverage(parse_catalog(night(), "t"), None).by_data
    with pytest.raises(RulesetError, match="祝福"):
        parse_catalog(night({**GRACE, "on_use": {"of": "祝福"}}), "t")
    with pytest.raises(RulesetError, match="first_only"):
        parse_catalog(night({**GRACE, "effects": [{"kind": "tell", "text": "x", "first_only": "k"}]}), "t")

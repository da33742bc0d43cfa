"""A skill that is a right to 遗言, on a toy game: ``last_words`` (213 绝笔 "牧首在任意时机出局都可以留下遗言"). The
generic engine has no 遗言 of its own; the game's exit asks :func:`tracker.engine.night.words.last_words` after its
own exceptions (213: a red card's "没有遗言权利"). A skill with a ``tag`` is the title's bearer's, whatever his role;
nobody submits it. 213's own case: test_patriarch_killed_by_wolves_may_reveal_a_player in test_night_sanguo_213.py."""

from __future__ import annotations

from typing import Any

from toy_rules import toy_rules

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.model import Action, Seat, Table
from tracker.engine.night.words import last_words

RULES = toy_rules("last-words-toy", "遗言测试局", 2, ["人"], [{"name": "村夫", "faction": "人"}, {"name": "诗人", "faction": "人"}],
                  win="人")
NIGHT: dict[str, Any] = {
    "ruleset": "last-words-toy",
    "steps": [],
    "skills": [
        {"name": "遗书", "roles": ["村夫", "诗人"], "tag": "族长", "phase": "passive", "last_words": True},
        {"name": "绝句", "roles": ["诗人"], "phase": "passive", "last_words": True},
    ],
}


def test_a_tagged_right_is_the_bearers_and_an_untagged_one_its_holders() -> None:
    catalog = parse_catalog(NIGHT, "toy.toml")
    seats = (Seat("P1", "村夫", "人", tags=["族长"]), Seat("P2", "村夫", "人"), Seat("P3", "诗人", "人"))
    found = [last_words(catalog, s) for s in seats]
    assert [s.name if s is not None else None for s in found] == ["遗书", None, "绝句"]


def test_nobody_submits_it() -> None:
    seats = {"P1": Seat("P1", "村夫", "人", tags=["族长"])}
    res = settle(parse_catalog(NIGHT, "toy.toml"), Table(players=seats, state={}, night=2),
                 [Action("P1", "遗书", index=0)], ruleset=RULES)
    assert [r.reason for r in res.rejected] == ["<遗书>无需发动：技能效果自动结算"]

"""``no_last_words`` and ``takes_last_words``: exits that leave no 遗言 whatever the count, and take no place in it.

M19 难言<强制> "忠犬出局时没有遗言，且不消耗遗言数量" (the holders' own exits) and "红牌罚下出局的角色没有遗言权利"
(the exits a skill causes), on a toy night file; the game's 公示 asks :func:`tracker.engine.night.words.silenced`
(M19's own count is in test_night_luoluo_m19.py).
"""

from __future__ import annotations

from typing import Any

from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.coverage import coverage
from tracker.engine.night.model import Seat
from tracker.engine.night.words import silenced

NIGHT: dict[str, Any] = {"ruleset": "words-toy", "steps": [{"n": "1", "skills": ["刀"]}], "skills": [
    {"name": "刀", "roles": ["狼人"], "targets": 1, "effects": [{"kind": "kill"}]},
    {"name": "哑口", "tag": "哑巴", "phase": "passive", "kind": "强制", "no_last_words": "哑口：出局时没有遗言"},
    {"name": "罚下", "team": "导演", "phase": "passive", "targets": 1, "aliases": ["红牌"],
     "effects": [{"kind": "kill"}], "takes_last_words": "罚下的角色没有遗言权利"},
]}


def test_a_holder_leaves_none_whatever_took_him_out() -> None:
    cat = parse_catalog(NIGHT, "toy.toml")
    assert silenced(cat, Seat("P1", "村民", "村庄", tags=["哑巴"]), "刀") == "哑口：出局时没有遗言"
    assert silenced(cat, Seat("P2", "村民", "村庄"), "刀") is None


def test_the_exits_a_skill_causes_leave_none_by_its_name_or_alias() -> None:
    cat = parse_catalog(NIGHT, "toy.toml")
    seat = Seat("P2", "村民", "村庄")
    assert silenced(cat, seat, "罚下") == silenced(cat, seat, "红牌") == "罚下的角色没有遗言权利"
    assert silenced(cat, seat, "罚下（导演）") == "罚下的角色没有遗言权利"
    assert silenced(cat, seat, "刀（P3）") is None


def test_a_holders_skill_counts_as_data() -> None:
    assert "哑口" in coverage(parse_catalog(NIGHT, "toy.toml"), None).by_data

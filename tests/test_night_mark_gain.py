"""``trigger.on = "gain"`` with ``marks`` on a toy game: a skill that acts by itself the moment its holder comes to
carry a mark, whoever gives it (M19 背叛 "当绑匪成为情侣时，失去<设计><灭口><绑架>，并得知人质马甲", 逃脱), with the
effect keys it needs: ``lose`` ``shown`` (the word the state shows for the lost skill) and ``inspect``
``players_of`` (who plays a role, not a target's answer). M19's own cases are in test_night_luoluo_m19.py."""

from __future__ import annotations

from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.checks import refusal
from tracker.engine.night.coverage import coverage
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.errors import RulesetError

TURN = {"on": "gain", "forced": True, "marks": ["缘:甲", "缘:乙"]}


def night(turn: dict[str, Any] | None = None, look: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "ruleset": "marks-toy",
        "steps": [{"n": "1", "skills": ["结缘", "变身", "刺杀"]}],
        "skills": [
            {"name": "结缘", "roles": ["月老"], "targets": 1,
             "effects": [{"kind": "mark", "tag": "缘:甲", "act": "give"}]},
            {"name": "变身", "roles": ["月老"], "targets": 1, "effects": [{"kind": "convert", "role": "叛徒"}]},
            {"name": "刺杀", "roles": ["叛徒"], "targets": 1, "uses": "刺杀", "effects": [{"kind": "kill"}]},
            {"name": "叛变", "roles": ["叛徒"], "phase": "passive", "kind": "强制", "trigger": turn or TURN,
             "effects": [{"kind": "lose", "loses": "刺杀", "shown": "已失去", "log": "叛变：{actor}失去<{loses}>"},
                         look or {"kind": "inspect", "players_of": "证人", "text": "叛变：证人是{target}",
                                  "empty": "叛变：没有证人", "log": ""}]},
        ],
    }


def table(witnesses: int = 2) -> Table:
    seats = {"P1": Seat("P1", "月老", "乙"), "P2": Seat("P2", "叛徒", "甲", uses={"刺杀": 1}),
             "P3": Seat("P3", "村民", "乙"), "P4": Seat("P4", "叛徒", "甲", uses={"刺杀": 1})}
    for i in range(witnesses):
        seats[f"W{i}"] = Seat(f"W{i}", "证人", "乙", alive=i == 0)
    return Table(players=seats, state={}, night=1)


def run(t: Table, *acts: Action, doc: dict[str, Any] | None = None) -> Settlement:
    return settle(parse_catalog(doc or night(), "toy.toml"), t,
                  [Action(a.actor, a.skill, a.targets, index=i) for i, a in enumerate(acts)])


def told(res: Settlement, who: str) -> list[str]:
    return [f.content for f in res.feedback if f.to == who]


def test_a_mark_given_sets_off_its_holders_gain_skill() -> None:
    """The marked 叛徒 loses <刺杀> (shown 已失去) and learns who plays the 证人, in or out."""
    t = table()
    res = run(t, Action("P1", "结缘", ("P2",)))
    assert res.state_after["P2.刺杀"] == "已失去" and "叛变：P2失去<刺杀>" in res.log
    assert told(res, "P2") == ["叛变：证人是W0", "叛变：证人是W1"]
    assert "P4.刺杀" not in res.state_after  # the other 叛徒 carries no mark
    t.players["P2"].uses["刺杀"] = 0  # the table after: his <刺杀> is refused from now on
    assert refusal(t, Action("P2", "刺杀", ("P3",)), parse_catalog(night(), "t").skill("刺杀")) is not None


def test_nobody_of_the_role_is_told_as_empty() -> None:
    res = run(table(witnesses=0), Action("P1", "结缘", ("P2",)))
    assert told(res, "P2") == ["叛变：没有证人"]


def test_a_mark_gain_skill_is_not_set_off_by_taking_its_role_nor_by_a_mark_it_does_not_name() -> None:
    res = run(table(), Action("P1", "变身", ("P3",)))  # P3 becomes a 叛徒: the skill waits for the mark
    assert not told(res, "P3") and "P3.刺杀" not in res.state_after
    doc = night(turn={"on": "gain", "forced": True, "marks": ["缘:乙"]})
    res = run(table(), Action("P1", "结缘", ("P2",)), doc=doc)
    assert not told(res, "P2") and "P2.刺杀" not in res.state_after


def test_without_shown_the_lost_count_is_shown() -> None:
    doc = night()
    doc["skills"][3]["effects"][0] = {"kind": "lose", "loses": "刺杀"}
    res = run(table(), Action("P1", "结缘", ("P2",)), doc=doc)
    assert res.state_after["P2.刺杀"] == 0


def test_the_keys_are_checked_refused_as_submissions_and_count_as_data() -> None:
    cat = parse_catalog(night(), "t")
    assert "叛变" in coverage(cat, None).by_data
    assert refusal(table(), Action("P2", "叛变"), cat.skill("叛变")) == "<叛变>是强制技能，获得缘:甲、缘:乙时自行发动，无需提交"
    with pytest.raises(RulesetError, match="marks"):
        parse_catalog(night(turn={"on": "exit", "forced": True, "marks": ["缘:甲"]}), "t")
    with pytest.raises(RulesetError, match="players_of"):
        parse_catalog(night(look={"kind": "inspect", "players_of": "证人", "holder_of": "缘:甲"}), "t")

"""``forms`` and the ``choose`` effect on a toy game: a skill whose holder picks one of its options once, when
roles are dealt (the post's 抉择 — M65 "分发身份完毕后，拿到该角色的演员进行抉择：持续（3）……枯竭（限定）……"),
the option then read where the skill acts (``reacts``' ``form``). M65's own cases are in test_night_accel_m65.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.coverage import coverage
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.errors import RulesetError

FORMS = [{"name": "持续", "label": "持续(3)", "count": 3}, {"name": "枯竭", "count": 1}]


def night(forms: list[dict[str, Any]] | None = None, react_form: str = "持续") -> dict[str, Any]:
    return {
        "ruleset": "forms-toy",
        "steps": [{"n": "1", "skills": ["抉择"]}, {"n": "2", "skills": ["钉"]}],
        "skills": [
            {"name": "抉择", "roles": ["镜者"], "phase": "setup",
             "effects": [{"kind": "choose", "text": "抉择：<{skill}>·{form}"}]},
            {"name": "镜", "roles": ["镜者"], "phase": "passive", "uses": "镜", "forms": FORMS if forms is None else forms,
             "reacts": [{"form": react_form, "tell": "被施放<{skill}>，来源{source}"}]},
            {"name": "钉", "roles": ["骑士"], "phase": "any", "targets": 1, "effects": [{"kind": "vote"}]},
        ],
    }


def table() -> Table:
    return Table(players={"P1": Seat("P1", "镜者", "甲"), "P2": Seat("P2", "骑士", "乙")}, state={}, day=1)


def run(cat: dict[str, Any], *acts: Action) -> Settlement:
    return settle(parse_catalog(cat, "toy.toml"), table(), [
        Action(a.actor, a.skill, a.targets, a.choice, phase=a.phase, index=i) for i, a in enumerate(acts)])


def test_the_choice_names_a_form_kept_on_the_player_with_its_count() -> None:
    res = run(night(), Action("P1", "抉择", choice="持续", phase="setup"), Action("P2", "钉", ("P1",), phase="day"))
    assert res.state_after["P1.choice"] == "持续(3)" and res.state_after["P1.镜"] == 3
    assert [(f.to, f.content) for f in res.feedback] == [("P1", "抉择：<镜>·持续(3)"), ("P1", "被施放<钉>，来源P2")]
    dry = run(night(), Action("P1", "抉择", choice="选枯竭", phase="setup"), Action("P2", "钉", ("P1",), phase="day"))
    assert dry.state_after["P1.choice"] == "枯竭" and dry.state_after["P1.镜"] == 1
    assert [f.content for f in dry.feedback] == ["抉择：<镜>·枯竭"]  # the 持续 reaction is not his


def test_a_choice_naming_no_form_changes_nothing() -> None:
    res = run(night(), Action("P1", "抉择", choice="都要", phase="setup"))
    assert "P1.choice" not in res.state_after and res.feedback == []
    assert any("没有选择<镜>的持续或枯竭" in line for line in res.log)
    assert "抉择" in coverage(parse_catalog(night(), "t"), None).by_data


@pytest.mark.parametrize(("cat", "words"), [
    (night(forms=[{"name": "持续"}, {"name": "持续"}]), "重复"),
    (night(react_form="半"), "不是 forms 中的选项"),
    (night(forms=[]), "forms"),
])
def test_forms_say_what_they_need(cat: dict[str, Any], words: str) -> None:
    with pytest.raises(RulesetError, match=words):
        parse_catalog(cat, "t")

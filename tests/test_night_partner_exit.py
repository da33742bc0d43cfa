"""``trigger.on = "partner_exit"`` and the ``last_night`` effect on a toy game: the player at the other end of a ``pairs``
mark goes out, and the holder bound to him lives on until the end of the night after the next discussion day, holding
another skill that night and going out at the step listing the skill (M19 忠犬 "当主人出局时，忠犬可以存活至下一讨论日
夜晚结束方发动<殉情>出局，并在下一讨论日夜晚获得<杀人>"); a partner out before the settlement with no record: counted from his
``出局`` field, else asked. M19's own cases: test_dog_* in test_night_luoluo_m19.py."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.coverage import coverage
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.engine.ruleset_model import SkillT, TriggerT

LAST = {"kind": "last_night", "again": "刀", "state": "末夜", "cause": "随（{partner}出局）", "text": "第{night}夜",
        "log": "{actor}活到第{night}夜", "pending": "{actor}第{night}夜出局", "until": "第{night}夜结束",
        "out_log": "末夜：{actor}随{partner}"}
NIGHT: dict[str, Any] = {
    "ruleset": "partner-exit-toy",
    "pairs": [["主", "仆"]],
    "steps": [{"n": "1", "skills": ["刀"]}, {"n": "2", "skills": ["随"]}],
    "skills": [
        {"name": "刀", "roles": ["刀客"], "targets": 1, "gained": True, "effects": [{"kind": "kill"}]},
        {"name": "随", "tag": "仆", "phase": "passive", "trigger": {"on": "partner_exit", "forced": True},
         "effects": [LAST]},
    ],
}


def run(*acts: Action, night: int | None = 1, day: int | None = None, master: dict[str, Any] | None = None,
        state: dict[str, Any] | None = None, decisions: dict[str, str] | None = None) -> Settlement:
    players = {"P1": Seat("P1", "刀客", "甲"), "P2": Seat("P2", "村民", "乙", tags=["主"], **(master or {})),
               "P3": Seat("P3", "村民", "乙", tags=["仆"]), "P4": Seat("P4", "村民", "乙")}
    return settle(parse_catalog(NIGHT, "toy.toml"), Table(players=players, state=dict(state or {}), night=night, day=day),
                  [Action(a.actor, a.skill, a.targets, index=i) for i, a in enumerate(acts)], decisions=decisions)


def out(res: Settlement) -> list[tuple[str, str]]:
    return [(d.player, d.cause) for d in res.deaths]


def test_the_partners_exit_records_the_night_after_the_next_day_and_tells_him() -> None:
    res = run(Action("P1", "刀", ("P2",)))
    assert out(res) == [("P2", "刀")] and res.state_after["末夜"] == {"P3": 2}
    assert [(f.to, f.content) for f in res.feedback] == [("P3", "第2夜")] and "P3活到第2夜" in res.log
    assert [(p.player, p.effect, p.when) for p in res.pending] == [("P3", "P3第2夜出局", "第2夜结束")]


def test_on_his_last_night_he_holds_the_skill_and_goes_out_at_its_step() -> None:
    dead = {"alive": False, "fields": {"出局": {"night": 1, "cause": "刀"}}}
    res = run(Action("P3", "刀", ("P1",)), night=2, master=dead, state={"末夜": {"P3": 2}})
    assert res.state_after["P3.刀"] is True
    assert out(res) == [("P1", "刀"), ("P3", "随（P2出局）")] and "末夜：P3随P2" in res.log
    res = run(night=2, master=dead, state={"末夜": {"P3": 3}})
    assert out(res) == [] and "P3.刀" not in res.state_after


def test_a_partner_out_before_with_no_record_counts_from_his_exit_or_asks() -> None:
    res = run(night=3, master={"alive": False, "fields": {"出局": {"day": 2, "cause": "投票"}}})
    assert res.state_after["末夜"] == {"P3": 3} and out(res) == [("P3", "随（P2出局）")]
    res = run(night=3, master={"alive": False}, decisions={"随.末夜": "4"})
    assert res.state_after["末夜"] == {"P3": 4} and out(res) == [] and res.questions[0].key == "随.末夜"


def test_partner_exit_counts_as_data_and_goes_with_last_night() -> None:
    assert "随" in coverage(parse_catalog(NIGHT, "t"), None).by_data
    with pytest.raises(ValidationError, match="partner_exit"):
        TriggerT.model_validate({"on": "partner_exit"})
    with pytest.raises(ValidationError, match="last_night"):
        SkillT.model_validate({"name": "随", "tag": "仆", "effects": [LAST]})
    with pytest.raises(ValidationError, match="last_night"):
        SkillT.model_validate({"name": "随", "tag": "仆", "trigger": {"on": "partner_exit", "forced": True}})

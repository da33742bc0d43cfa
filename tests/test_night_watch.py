"""A delayed feedback as data: ``watch`` remembers a target, a later ``feedback`` step answers.

213 悬赏 "若该角色在下一个[晨曦]阶段公示出局，则反馈<悬赏成功>": the night's choice is remembered in a
``state`` key (捕杀's "若前一天反馈<悬赏成功>" reads it), and only at a later step — once the phase's
outs are known — are the skill's holders told, if the target was announced out in this settlement.
A toy game here; 213's own cases are in test_night_sanguo_213.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.model import Action, Seat, Table
from tracker.errors import RulesetError

WATCH = {"kind": "watch", "state": "盯梢上次", "text": "盯梢成功：{target}"}
NIGHT: dict[str, Any] = {
    "ruleset": "watch-toy",
    "steps": [{"n": "1", "skills": ["盯梢"]}, {"n": "2", "skills": ["杀人"]}, {"n": "3", "resolve": True},
              {"n": "4", "feedback": "盯梢"}],
    "skills": [
        {"name": "盯梢", "roles": ["猎手"], "targets": 1, "effects": [WATCH]},
        {"name": "杀人", "team": "狼群", "roles": ["狼人"], "targets": 1, "effects": [{"kind": "damage"}]},
    ],
}


def _table(state: dict[str, Any] | None = None, night: int = 2) -> Table:
    players = {"P01": Seat("P01", "猎手", "村民"), "P02": Seat("P02", "狼人", "狼人"),
               "P03": Seat("P03", "村民", "村民"), "P04": Seat("P04", "村民", "村民")}
    return Table(players=players, state=dict(state or {}), night=night)


def _run(*actions: Action, state: dict[str, Any] | None = None) -> Any:
    acts = [Action(a.actor, a.skill, a.targets, index=i) for i, a in enumerate(actions)]
    return settle(parse_catalog(NIGHT, "toy.toml"), _table(state), acts)


def test_the_watched_target_announced_out_is_told_at_the_feedback_step() -> None:
    res = _run(Action("P01", "盯梢", ("P03",)), Action("狼群", "杀人", ("P03",)))
    assert [(f.to, f.content) for f in res.feedback] == [("P01", "盯梢成功：P03")]
    assert res.state_after["盯梢上次"] == {"target": "P03", "night": 2, "成功": True}


def test_a_watched_target_still_in_is_no_success() -> None:
    res = _run(Action("P01", "盯梢", ("P03",)), Action("狼群", "杀人", ("P04",)))
    assert res.feedback == [] and res.state_after["盯梢上次"] == {"target": "P03", "night": 2, "成功": False}


def test_a_record_of_an_earlier_night_is_not_answered_again() -> None:
    old = {"盯梢上次": {"target": "P04", "night": 1, "成功": False}}
    res = _run(Action("狼群", "杀人", ("P04",)), state=old)
    assert res.feedback == [] and "盯梢上次" not in res.state_after


def test_feedback_must_name_a_skill_that_watches() -> None:
    bad = {**NIGHT, "steps": [*NIGHT["steps"][:3], {"n": "4", "feedback": "杀人"}]}
    with pytest.raises(RulesetError, match=r"steps\[4\]\.feedback.*watch"):
        parse_catalog(bad, "toy.toml")


def test_watch_needs_its_state_key() -> None:
    bad = {**NIGHT, "skills": [{**NIGHT["skills"][0], "effects": [{"kind": "watch", "text": "x"}]},
                               NIGHT["skills"][1]]}
    with pytest.raises(RulesetError, match="state"):
        parse_catalog(bad, "toy.toml")

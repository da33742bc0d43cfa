"""A trigger that acts at the next point skills can be used after its holder's exit, not at the exit
(``trigger.at = "next_point"``; 213 殉职 "警长出局后下一个可发动技能的时间点"), on a toy game: a night whose
step 1 takes players out, step 2 is the point (it also runs as a 晨曦 phase of its own) and step 3 takes
players out after it. Only the bearer of the title who went out before the point acts there, on his
last submission; ``missing`` when he has none, when ``unless`` forbids him or when his submission is
refused; ``tells`` first; anyone else's submission is refused."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.catalog import Step, parse_catalog
from tracker.engine.night.flow import Flow
from tracker.engine.night.games import GameHooks
from tracker.engine.night.model import Action, Seat, Table
from tracker.errors import RulesetError

PASS = "队长出局后下一个可发动技能的时间点，可以选择一名存活角色继任队长；若不选择，则本局不再有队长"


def night(**trigger: Any) -> dict[str, Any]:
    return {
        "ruleset": "point-toy",
        "night_precedes_day": True,
        "steps": [{"n": "1", "skills": ["刀", "毒"]}, {"n": "1r", "resolve": True},
                  {"n": "2", "phases": ["night", "晨曦"], "skills": ["继任"]},
                  {"n": "3", "skills": ["枪"]}],
        "skills": [
            {"name": "刀", "roles": ["狼"], "targets": 1, "effects": [{"kind": "damage"}]},
            {"name": "毒", "roles": ["巫"], "targets": 1, "effects": [{"kind": "damage", "strength": 2}]},
            {"name": "枪", "roles": ["猎"], "targets": 1, "effects": [{"kind": "kill"}]},
            {"name": "继任", "roles": ["狼", "巫", "猎", "民"], "tag": "队长", "phase": "晨曦", "phases": ["晨曦"],
             "min_targets": 0, "max_targets": 1, "clause": PASS,
             "trigger": {"at": "next_point", "unless": ["毒"], "missing": "撕", "tells": "继任：存活：{living}",
                         **trigger},
             "effects": [{"kind": "mark", "tag": "队长", "choices": {"撕": "tear"}, "text": "你成为队长"},
                         {"kind": "announce", "when_choice": ["撕"], "text": "队长{actor}撕徽，本局不再有队长"},
                         {"kind": "announce", "unless_choice": ["撕"], "text": "继任：{target}成为队长"}]},
        ],
    }


def table(*, day: int | None = None) -> Table:
    roles = {"P1": "狼", "P2": "民", "P3": "巫", "P4": "猎", "P5": "民"}
    t = Table(players={n: Seat(n, r, "狼人" if r == "狼" else "村民") for n, r in roles.items()}, state={"队长": "P2"},
              night=None if day is not None else 2, day=day, phase="晨曦" if day is not None else None)
    t.players["P2"].tags.append("队长")
    return t


def acts(*rows: tuple[str, str, tuple[str, ...]]) -> list[Action]:
    """The night's submissions; a 继任 is the 晨曦's (its own phase, settled with the night)."""
    return [Action(a, s, t, index=i, phase="晨曦" if s == "继任" else None) for i, (a, s, t) in enumerate(rows)]


def run(t: Table, actions: list[Action], **trigger: Any) -> Any:
    return settle(parse_catalog(night(**trigger), "toy.toml"), t, actions)


@pytest.fixture(autouse=True)
def no_hooks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(importlib.import_module("tracker.engine.night.settle"), "hooks_for", lambda _id: None)


def test_the_bearer_out_before_the_point_passes_the_title_there_not_at_the_exit() -> None:
    res = run(table(), acts(("P1", "刀", ("P2",)), ("P2", "继任", ("P5",))))
    assert [(m.tag, m.from_player, m.to_player) for m in res.tags_moved] == [("队长", "P2", "P5")]
    assert [(f.to, f.content) for f in res.feedback] == [("P2", "继任：存活：P1、P3、P4、P5"), ("P5", "你成为队长")]
    assert res.lines == ["继任：P5成为队长"] and res.rejected == []
    # settled at step 2 (the point), after the exit of step 1
    assert res.log.index("(2) P2<继任>：公示“继任：P5成为队长”") > res.log.index("P2出局（刀）")


def test_no_submission_takes_missing_and_tears_the_title() -> None:
    res = run(table(), acts(("P1", "刀", ("P2",))))
    assert res.state_after["队长"] is None and res.lines == ["队长P2撕徽，本局不再有队长"]
    assert [f.content for f in res.feedback] == ["继任：存活：P1、P3、P4、P5"]


def test_an_exit_after_the_point_waits_for_the_next_one() -> None:
    res = run(table(), acts(("P4", "枪", ("P2",)), ("P2", "继任", ("P5",))))
    assert [d.player for d in res.deaths] == ["P2"] and res.tags_moved == []
    assert [(r.actor, r.skill) for r in res.rejected] == [("P2", "继任")]


def test_a_cause_unless_forbids_refuses_the_submission_and_takes_missing() -> None:
    res = run(table(), acts(("P3", "毒", ("P2",)), ("P2", "继任", ("P5",))))
    assert [(r.actor, r.skill, r.reason) for r in res.rejected] == [("P2", "继任", "因<毒>出局，不能发动<继任>")]
    assert res.state_after["队长"] is None and res.feedback == []  # forbidden: not told the living either


def test_a_refused_choice_is_no_choice() -> None:
    t = table()
    t.players["P5"].alive = False
    res = run(t, acts(("P1", "刀", ("P2",)), ("P2", "继任", ("P5",))))
    assert [(r.actor, r.skill) for r in res.rejected] == [("P2", "继任")]
    assert res.state_after["队长"] is None and res.lines == ["队长P2撕徽，本局不再有队长"]


def test_nobody_but_the_bearer_just_out_acts_at_the_point() -> None:
    res = run(table(), acts(("P1", "刀", ("P3",)), ("P3", "继任", ("P5",))))
    assert [(r.actor, r.skill) for r in res.rejected] == [("P3", "继任")] and res.tags_moved == []


def test_a_settlement_beginning_at_the_point_reads_the_exit_of_the_night_before() -> None:
    t = table(day=2)
    t.players["P2"].alive = False
    t.players["P2"].fields["出局"] = {"night": 2, "cause": "刀"}
    res = run(t, acts(("P2", "继任", ("P5",))))
    assert [(m.from_player, m.to_player) for m in res.tags_moved] == [("P2", "P5")]
    t.players["P2"].fields["出局"] = {"night": 1, "cause": "刀"}  # its point was day 1's
    res = run(t, acts(("P2", "继任", ("P5",))))
    assert [(r.actor, r.skill) for r in res.rejected] == [("P2", "继任")] and res.tags_moved == []


def test_a_hook_step_names_the_point_or_leaves_it_pending(monkeypatch: pytest.MonkeyPatch) -> None:
    doc = night()
    doc["steps"] = [{"n": "1", "skills": ["刀"]}, {"n": "1r", "resolve": True}, {"n": "2", "hook": "晨曦"}]

    def dawn(flow: Flow, step: Step, actions: Sequence[Action]) -> None:
        flow.points("晨曦", pending=None if any(a.phase == "晨曦" for a in flow.actions) else "晨曦")

    hooks = GameHooks(steps={"晨曦": dawn}, why={"晨曦": "测试用：钩子步骤决定时点"})
    monkeypatch.setattr(importlib.import_module("tracker.engine.night.settle"), "hooks_for", lambda _id: hooks)
    res = settle(parse_catalog(doc, "toy.toml"), table(), acts(("P1", "刀", ("P2",))))
    assert [(p.effect, p.player) for p in res.pending] == [("继任", "P2")] and res.tags_moved == []
    res = settle(parse_catalog(doc, "toy.toml"), table(), acts(("P1", "刀", ("P2",)), ("P2", "继任", ("P5",))))
    assert [(m.from_player, m.to_player) for m in res.tags_moved] == [("P2", "P5")] and res.pending == []


def test_a_trigger_says_its_timing_once() -> None:
    """One key, ``at``, says when a trigger acts: the old spellings (``on = "next_point"``, ``at_once``) are
    refused, and a timing that cannot hold with the rest is refused by name (强制 cannot wait for a submission)."""
    for bad, word in (({"on": "next_point"}, "on"), ({"at_once": True}, "at_once"), ({"forced": True, "missing": None,
                                                                                       "tells": None}, "forced")):
        with pytest.raises(RulesetError, match=word):
            parse_catalog(night(**bad), "toy.toml")

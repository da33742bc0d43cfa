"""``mark`` with ``tags``: the submission's ``choice`` names which tag moves (an election's result).

213 4. 竞选 "警长/牧首竞选投票票数最高的角色如只有一个，则成为警长/牧首": the director submits each
poll's result, the office in ``choice`` and the sole winner as the target (none on a tie: nobody holds
it). A toy game settled by the generic engine alone; 213's own case is test_first_day_election.
"""

from __future__ import annotations

from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.errors import RulesetError

POLL = {"name": "竞选", "team": "导演", "roles": ["村民"], "min_targets": 0, "max_targets": 1,
        "effects": [{"kind": "mark", "tags": ["警长", "牧首"], "act": "give"},
                    {"kind": "message", "text": "你成为{choice}"}]}
NIGHT: dict[str, Any] = {"ruleset": "poll-toy", "steps": [{"n": "4", "skills": ["竞选"]}], "skills": [POLL]}


def _run(*actions: Action) -> Settlement:
    players = {p: Seat(p, "村民", "村民") for p in ("P01", "P02", "P03")}
    players["P03"].alive = False
    acts = [Action(a.actor, a.skill, a.targets, choice=a.choice, index=i) for i, a in enumerate(actions)]
    return settle(parse_catalog(NIGHT, "toy.toml"), Table(players=players, state={}, night=1), acts)


def test_the_choice_names_the_tag_the_target_gets() -> None:
    res = _run(Action("导演", "竞选", ("P01",), choice="警长"), Action("导演", "竞选", ("P02",), choice="牧首"))
    assert [(t.tag, t.from_player, t.to_player, t.via) for t in res.tags_moved] == [
        ("警长", None, "P01", "竞选·警长"), ("牧首", None, "P02", "竞选·牧首")]
    assert res.state_after["警长"] == "P01" and res.state_after["牧首"] == "P02"
    assert [(f.to, f.content) for f in res.feedback] == [("P01", "你成为警长"), ("P02", "你成为牧首")]


def test_the_last_result_of_each_tag_counts() -> None:
    res = _run(Action("导演", "竞选", ("P01",), choice="警长"), Action("导演", "竞选", ("P02",), choice="牧首"),
               Action("导演", "竞选", ("P02",), choice="警长"))
    assert res.state_after["警长"] == "P02" and res.state_after["牧首"] == "P02"
    assert [(t.tag, t.from_player, t.to_player) for t in res.tags_moved] == [("牧首", None, "P02"), ("警长", None, "P02")]


def test_no_target_leaves_nobody_holding_it() -> None:
    res = _run(Action("导演", "竞选", (), choice="牧首"))
    assert res.tags_moved == [] and res.state_after["牧首"] is None and res.feedback == []


def test_a_choice_that_names_no_tag_is_refused() -> None:
    res = _run(Action("导演", "竞选", ("P01",), choice="市长"))
    assert [(r.skill, r.reason) for r in res.rejected] == [("竞选", "<竞选>的 choice 应写 警长 或 牧首")]
    assert res.tags_moved == []


def test_a_player_out_cannot_get_it() -> None:
    res = _run(Action("导演", "竞选", ("P03",), choice="警长"))
    assert [r.skill for r in res.rejected] == ["竞选"] and res.tags_moved == []


def test_tags_is_written_with_act_and_without_tag() -> None:
    for effect in ({"kind": "mark", "tags": ["警长"]}, {"kind": "mark", "tags": ["警长"], "tag": "警长", "act": "give"}):
        bad = {**NIGHT, "skills": [{**POLL, "effects": [effect]}]}
        with pytest.raises(RulesetError, match="tags"):
            parse_catalog(bad, "toy.toml")

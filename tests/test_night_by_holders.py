"""Generic keys on a toy night: a step's and an effect's ``by`` (the holder's own use of a skill, or one taken
from him), and a lent skill spends no use — M65 "0、黑王绝对切割 1、掠夺者技能掠夺得到的绝对切割", whose death by
the stolen cut records "掠夺者……技能掠夺所得", and the 掠夺者's borrowed <绝对切割> is not his to count."""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.games import GameHooks
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.errors import RulesetError


def _night(by0: str = "holders", by1: str = "others") -> dict[str, Any]:
    kills = [{"kind": "kill", "by": "holders", "cause": "切（{actor}）"},
             {"kind": "kill", "by": "others", "cause": "切（借来的，{actor}）"}]
    return {
        "ruleset": "by-toy",
        "out_do_not_act": True,
        "steps": [{"n": "0", "skills": ["切"], "by": by0}, {"n": "1", "skills": ["切"], "by": by1}],
        "skills": [{"name": "切", "roles": ["剑客"], "targets": 1, "uses": "切", "effects": kills},
                   {"name": "偷", "roles": ["小偷"], "targets": 1}],
    }


#: The thief holds 切 tonight by the game's lending only (M65's ``grants``: 技能掠夺 the night before).
LENT = GameHooks(steps={"无": lambda flow, step, acts: None}, why={"无": "测试用"},
                 grants=lambda table: {"T": ("切",)})


def _run(doc: dict[str, Any], *acts: tuple[str, str]) -> Settlement:
    cat = parse_catalog(doc, "by.toml")
    players = {"S": Seat("S", "剑客", "甲", uses={"切": 1}), "T": Seat("T", "小偷", "乙"),
               "V1": Seat("V1", "村民", "甲"), "V2": Seat("V2", "村民", "甲")}
    return settle(cat, Table(players=players, state={}, night=2),
                  [Action(a, "切", (t,), index=i) for i, (a, t) in enumerate(acts)])


def test_the_holders_step_goes_before_the_taken_one_whatever_the_order_submitted(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(importlib.import_module("tracker.engine.night.settle"), "hooks_for", lambda _id: LENT)
    res = _run(_night(), ("T", "V1"), ("S", "T"))
    assert [(d.player, d.cause) for d in res.deaths] == [("T", "切（S）")]  # the thief's cut at 1: he is out by then
    both = _run(_night(), ("T", "V1"), ("S", "V2"))
    assert [(d.player, d.cause) for d in both.deaths] == [("V2", "切（S）"), ("V1", "切（借来的，T）")]
    assert both.state_after["S.切"] == 0 and "T.切" not in both.state_after  # a lent skill spends no use
    swapped = _run(_night("others", "holders"), ("S", "V2"), ("T", "V1"))
    assert [d.player for d in swapped.deaths] == ["V1", "V2"]


def test_a_step_by_any_settles_both_in_submission_order(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(importlib.import_module("tracker.engine.night.settle"), "hooks_for", lambda _id: LENT)
    doc = _night()
    doc["steps"] = [{"n": "0", "skills": ["切"]}]
    res = _run(doc, ("T", "V1"), ("S", "V2"))
    assert [(d.player, d.cause) for d in res.deaths] == [("V1", "切（借来的，T）"), ("V2", "切（S）")]


def test_by_takes_only_its_three_words() -> None:
    doc = _night()
    doc["steps"][0]["by"] = "owner"
    with pytest.raises(RulesetError):
        parse_catalog(doc, "by.toml")
    doc = _night()
    doc["skills"][0]["effects"][0]["by"] = "thief"
    with pytest.raises(RulesetError):
        parse_catalog(doc, "by.toml")

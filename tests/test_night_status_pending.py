"""A ``status`` with the director's pending entry while it holds (``pending``/``until``), and ``{next_day}`` — the
game day that follows the phase — in the words of ``status``/``message``/``announce`` on a toy game (M19 绑架
"被绑架的角色在下一个游戏日不得主动发表观点……执行上述效果直到下一个游戏日结束"); ``announce`` with an empty ``log``
writes no line of its own. M19's own case is test_silence_and_kidnap_only_on_the_design_target."""

from __future__ import annotations

from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.errors import RulesetError

GAG = {"kind": "status", "status": "禁言", "log": "{step} {actor}禁言{target}至第{next_day}天",
       "pending": "{target}第{next_day}天不得发言", "until": "第{next_day}天结束"}


def night(*effects: dict[str, Any]) -> dict[str, Any]:
    return {"ruleset": "gag-toy", "steps": [{"n": "1", "skills": ["封口"]}],
            "skills": [{"name": "封口", "roles": ["哑巫"], "targets": 1, "clause": "封口——次日不得发言",
                        "effects": list(effects) or [
                            GAG, {"kind": "message", "text": "你第{next_day}天不得发言", "log": ""},
                            {"kind": "announce", "text": "{target}第{next_day}天禁言", "log": ""}]}]}


def run(doc: dict[str, Any], n: int = 2) -> Settlement:
    t = Table(players={"P1": Seat("P1", "哑巫", "甲"), "P2": Seat("P2", "村民", "乙")}, state={}, night=n)
    return settle(parse_catalog(doc, "toy.toml"), t, [Action("P1", "封口", ("P2",), index=0)])


@pytest.mark.parametrize("n", [1, 4])
def test_the_status_leaves_its_pending_entry_and_the_words_name_the_next_day(n: int) -> None:
    res = run(night(), n)
    assert res.state_after["P2.status"] == ["禁言"]
    assert [(p.effect, p.player, p.when, p.clause) for p in res.pending] == [
        (f"P2第{n + 1}天不得发言", "P2", f"第{n + 1}天结束", "封口——次日不得发言")]
    assert f"(1) P1禁言P2至第{n + 1}天" in res.log
    assert [f.content for f in res.feedback if f.to == "P2"] == [f"你第{n + 1}天不得发言"]
    assert res.lines == [f"P2第{n + 1}天禁言"]
    assert not any("公示" in line or "得到消息" in line for line in res.log)  # the empty logs write nothing


def test_without_pending_nothing_is_left_and_announce_keeps_its_own_line() -> None:
    res = run(night({"kind": "status", "status": "禁言"}, {"kind": "announce", "text": "{target}禁言"}))
    assert res.pending == [] and any("公示“P2禁言”" in line for line in res.log)


def test_pending_and_until_are_read_only_where_they_mean_something() -> None:
    with pytest.raises(RulesetError, match="pending"):
        parse_catalog(night({"kind": "kill", "pending": "x"}), "t")

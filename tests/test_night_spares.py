"""``spares`` on a toy game: a passive skill whose holders do not go out on some game days, whatever takes
them out but the causes it names (M65 预知者<天罡护体>（强制）"游戏日第一日，不会因为除<绝对切割>外的其他技能和投票
而出局"), asked by every exit — an effect's or a game's hook step's (:meth:`Board.kill`). M65's own case is
test_heavenly_guard_on_the_first_game_day in test_night_accel_m65.py."""

from __future__ import annotations

from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.coverage import coverage
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.errors import RulesetError

REASON = "护体：第一日不会因为除<切割>外的其他技能和投票而出局"


def night(unless: list[str] | None = None) -> dict[str, Any]:
    return {
        "ruleset": "spares-toy",
        "steps": [{"n": "1", "skills": ["放逐", "切割", "刀"]}],
        "skills": [
            {"name": "护体", "roles": ["预知者"], "phase": "passive", "kind": "强制",
             "spares": {"days": [1], "unless": ["切割"] if unless is None else unless, "reason": REASON}},
            {"name": "刀", "roles": ["刀客"], "targets": 1, "effects": [{"kind": "kill"}]},
            {"name": "切割", "roles": ["黑王"], "targets": 1, "effects": [{"kind": "kill", "cause": "切割（{actor}）"}]},
            {"name": "放逐", "team": "放逐投票", "phase": "any", "targets": 1, "aliases": ["投票"],
             "effects": [{"kind": "kill", "cause": "投票"}]},
        ],
    }


def run(n: int, *acts: Action) -> Settlement:
    t = Table(players={"P1": Seat("P1", "预知者", "甲"), "P2": Seat("P2", "刀客", "乙"), "P3": Seat("P3", "黑王", "乙")},
              state={}, night=n)
    return settle(parse_catalog(night(), "toy.toml"), t, [Action(a.actor, a.skill, a.targets, index=i)
                                                          for i, a in enumerate(acts)])


def test_spared_on_the_days_it_names_but_not_by_its_unless() -> None:
    res = run(1, Action("P2", "刀", ("P1",)))
    assert res.deaths == [] and [(s.player, s.reason) for s in res.survivals] == [("P1", REASON)]
    vote = run(1, Action("放逐投票", "放逐", ("P1",)))
    assert vote.deaths == [] and [s.player for s in vote.survivals] == ["P1"]
    cut = run(1, Action("P3", "切割", ("P1",)))
    assert [(d.player, d.cause) for d in cut.deaths] == [("P1", "切割（P3）")] and cut.survivals == []
    later = run(2, Action("P2", "刀", ("P1",)))
    assert [d.player for d in later.deaths] == ["P1"]


def test_spares_counts_as_data_and_names_skills_of_the_file() -> None:
    assert "护体" in coverage(parse_catalog(night(), "t"), None).by_data
    with pytest.raises(RulesetError, match="切害"):
        parse_catalog(night(unless=["切害"]), "t")

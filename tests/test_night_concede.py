"""``concede``: a faction gives up — judged lost at once, quietly, its players staying in.

M19 投降 "当所有被询问的角色（包括已出局角色）同意投降，投降有效。该阵营优先判负，不公示": the director submits it
with the faction as its ``choice``; only the factions the effect names may give up. A toy game settled by the
generic engine alone; M19's own case (the win that follows, 寡妇刀) is in test_night_luoluo_m19.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.coverage import coverage
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.errors import RulesetError

GIVE_UP = {"name": "投降", "team": "导演", "phase": "day",
           "effects": [{"kind": "concede", "factions": ["狼人", "黑情侣"]}]}
DAY: dict[str, Any] = {"ruleset": "concede-toy", "steps": [{"n": "1", "phase": "day", "skills": ["投降"]}],
                       "skills": [GIVE_UP]}


def _run(choice: str | None) -> Settlement:
    players = {"P01": Seat("P01", "狼人", "狼人"), "P02": Seat("P02", "村民", "村民")}
    table = Table(players=players, state={}, night=None, day=3, phase="day")
    return settle(parse_catalog(DAY, "toy.toml"), table, [Action("导演", "投降", (), choice=choice, index=0)])


def test_the_chosen_faction_loses_and_stays_in() -> None:
    res = _run("狼人")
    assert res.state_after["判负阵营"] == ["狼人"] and res.deaths == [] and res.lines == []
    assert any("狼人阵营判负（投降有效，优先判负，不公示" in line for line in res.log)


def test_a_faction_it_does_not_name_is_refused() -> None:
    res = _run("村民")
    assert [(r.skill, r.reason) for r in res.rejected] == [("投降", "只有狼人阵营、黑情侣阵营可以<投降>（choice 写阵营）")]
    assert "判负阵营" not in res.state_after
    assert [r.skill for r in _run(None).rejected] == ["投降"]


def test_it_counts_as_data_and_needs_its_factions() -> None:
    assert "投降" in coverage(parse_catalog(DAY, "toy.toml"), None).by_data
    bad = {**DAY, "skills": [{**GIVE_UP, "effects": [{"kind": "concede"}]}]}
    with pytest.raises(RulesetError, match="factions"):
        parse_catalog(bad, "toy.toml")


# 213 投降 "狼人阵营可发起投降。所有狼人阵营共群角色（包括已出局角色）同意投降时，狼人阵营判负": one faction, left
# unnamed, and ``unanimous`` — every holder of the skill (its roles and tags), out or not, among the members.
PACK = {"name": "投降", "team": "狼群", "roles": ["狼人", "狼王"], "tags": ["群内"], "phase": "passive",
        "actor_may_be_dead": True,
        "effects": [{"kind": "concede", "factions": ["狼人"], "unanimous": True, "reason": "所有共群狼同意投降"}]}


def _pack(actor: str, choice: str | None = None) -> Settlement:
    players = {"P01": Seat("P01", "狼人", "狼人"), "P02": Seat("P02", "狼王", "狼人", alive=False),
               "P03": Seat("P03", "隐狼", "狼人", tags=["群内"]), "P04": Seat("P04", "石像鬼", "狼人"),
               "P05": Seat("P05", "村民", "村民")}
    table = Table(players=players, state={}, night=None, day=3, phase="day")
    night = {**DAY, "skills": [PACK]}
    return settle(parse_catalog(night, "toy.toml"), table, [Action(actor, "投降", (), choice=choice, index=0)])


def test_unanimous_needs_every_holder_even_the_dead() -> None:
    res = _pack("狼群(P01,P03)")  # the dead 狼王 did not agree; the 石像鬼 holds no 投降 and need not
    assert [(r.skill, r.reason) for r in res.rejected] == [("投降", "并非所有共群狼同意投降（未同意：P02）")]
    assert "判负阵营" not in res.state_after
    res = _pack("狼群(P01,P02,P03)")
    assert res.state_after["判负阵营"] == ["狼人"] and res.rejected == [] and res.deaths == []
    assert any("狼人阵营判负（所有共群狼同意投降" in line for line in res.log)


def test_a_lone_faction_may_be_named_or_not_but_no_other() -> None:
    assert _pack("狼群(P01,P02,P03)", "狼人").state_after["判负阵营"] == ["狼人"]
    assert [r.reason for r in _pack("狼群(P01,P02,P03)", "村民").rejected] == ["只有狼人阵营可以<投降>（choice 写阵营）"]


def test_unanimous_says_why_it_is_refused() -> None:
    bad = {**PACK, "effects": [{"kind": "concede", "factions": ["狼人"], "unanimous": True}]}
    with pytest.raises(RulesetError, match="unanimous"):
        parse_catalog({**DAY, "skills": [bad]}, "toy.toml")

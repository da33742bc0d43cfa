"""``locks``: while a holder can use a skill this phase, the skills it names cannot be used.

M160 告死邪魔【唆使】 "当你能发动此技能时，【恶魔】的【凶杀】技能不能发动": whether he *can* — in play, on a night
it may be used, uses left, not blocked, not void — not whether he did; asked at the locked skill's step, before
anything of it is settled. A toy game settled by the generic engine; M160's own case is in
test_night_gourmet_m160.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.errors import RulesetError

NIGHT: dict[str, Any] = {
    "ruleset": "locks-toy",
    "steps": [{"n": "1", "skills": ["封印"]}, {"n": "2", "skills": ["唆使"]}, {"n": "3", "skills": ["刺杀"]},
              {"n": "4", "resolve": True}],
    "skills": [
        {"name": "封印", "roles": ["守卫"], "targets": 1, "effects": [{"kind": "block", "voids": ["*"]}]},
        {"name": "唆使", "roles": ["邪魔"], "targets": 1, "not_first_night": True, "uses": "唆使", "count": 3,
         "voided_by": ["醉酒"], "locks": ["刺杀"], "effects": [{"kind": "note", "log": "{step} 唆使：{target}"}]},
        {"name": "刺杀", "roles": ["刺客"], "targets": 1, "effects": [{"kind": "damage"}]},
    ],
}


def _run(*actions: Action, night: int = 2, **whisperer: Any) -> Settlement:
    roles = ["刺客", "邪魔", "村民", "守卫"]
    players = {f"P0{i}": Seat(f"P0{i}", r, "邪恶" if r in ("刺客", "邪魔") else "善良") for i, r in enumerate(roles, 1)}
    for key, value in whisperer.items():
        setattr(players["P02"], key, value)
    acts = [Action(a.actor, a.skill, a.targets, index=i) for i, a in enumerate(actions)]
    return settle(parse_catalog(NIGHT, "toy.toml"), Table(players=players, state={}, night=night), acts)


STRIKE = Action("P01", "刺杀", ("P03",))


def test_a_holder_who_can_use_it_locks_the_skill_submitted_or_not() -> None:
    for acts in ((STRIKE,), (Action("P02", "唆使", ("P03",)), STRIKE)):
        res = _run(*acts)
        assert res.deaths == [] and "(3) P01<刺杀>：P02能发动<唆使> → <刺杀>不能发动" in res.log


def test_a_holder_who_cannot_use_it_locks_nothing() -> None:
    assert [d.player for d in _run(STRIKE, night=1).deaths] == ["P03"]  # not on the first night
    assert [d.player for d in _run(STRIKE, alive=False).deaths] == ["P03"]  # out
    assert [d.player for d in _run(STRIKE, uses={"唆使": 0}).deaths] == ["P03"]  # no use left
    assert [d.player for d in _run(STRIKE, status=["醉酒"]).deaths] == ["P03"]  # void (voided_by)
    blocked = _run(Action("P04", "封印", ("P02",)), STRIKE)  # blocked before the locked step
    assert [d.player for d in blocked.deaths] == ["P03"]


def test_locks_names_a_skill_of_the_file() -> None:
    bad = {**NIGHT, "skills": [*NIGHT["skills"][:1], {**NIGHT["skills"][1], "locks": ["刺条"]}, *NIGHT["skills"][2:]]}
    with pytest.raises(RulesetError, match="刺条"):
        parse_catalog(bad, "toy.toml")

"""A ``cover`` that ``stands_in``: the target's lethal hit may fall on the skill's user instead, the director asked.

M160 虚无主义者【彷徨】 "选择两名存活玩家。当晚，当他们其中一人死亡时，你可能代替他而死亡": one cover per target,
asked (``<skill>.<target>``, 否/是) when the hit comes, after the protections on the target; never asked of a user
who is out or whom a protection of the phase keeps from dying. A toy game settled by the generic engine's
``resolve``; M160's own case (its night's end asks the same cover) is in test_night_gourmet_m160.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.errors import RulesetError

STAND_IN = {"kind": "cover", "stands_in": "<替死>：{actor}是否代替{target}死亡",
            "reason": "<替死>：{target}代替他而死亡", "clause": "当他们其中一人死亡时，你可能代替他而死亡"}
NIGHT: dict[str, Any] = {
    "ruleset": "stand-in-toy",
    "steps": [{"n": "1", "skills": ["守护"]}, {"n": "2", "skills": ["替死"]}, {"n": "3", "skills": ["刺杀"]},
              {"n": "4", "resolve": True}],
    "skills": [
        {"name": "守护", "roles": ["守卫"], "targets": 1, "effects": [{"kind": "protect", "stops": ["*"]}]},
        {"name": "替死", "roles": ["浪人"], "targets": 2, "effects": [STAND_IN]},
        {"name": "刺杀", "roles": ["刺客"], "targets": 1, "every_submission": True, "effects": [{"kind": "damage"}]},
    ],
}


def _run(*actions: Action, **decide: str) -> Settlement:
    roles = ["刺客", "浪人", "村民", "村民", "守卫", "村民"]
    players = {f"P0{i}": Seat(f"P0{i}", r, "狼人" if r == "刺客" else "村民") for i, r in enumerate(roles, 1)}
    acts = [Action(a.actor, a.skill, a.targets, index=i) for i, a in enumerate(actions)]
    return settle(parse_catalog(NIGHT, "toy.toml"), Table(players=players, state={}, night=2), acts, decisions=decide)


STANDS = Action("P02", "替死", ("P03", "P04"))


def test_the_user_dies_in_the_targets_place_when_the_director_says_so() -> None:
    res = _run(STANDS, Action("P01", "刺杀", ("P03",)), **{"替死.P03": "是"})
    assert [d.player for d in res.deaths] == ["P02"]
    assert [(s.player, s.reason) for s in res.survivals] == [("P03", "<替死>：P02代替他而死亡")]
    q = next(q for q in res.questions if q.key == "替死.P03")
    assert q.question == "<替死>：P02是否代替P03死亡" and q.options == ("否", "是")


def test_no_leaves_the_hit_on_the_target() -> None:
    res = _run(STANDS, Action("P01", "刺杀", ("P04",)), **{"替死.P04": "否"})
    assert [d.player for d in res.deaths] == ["P04"] and res.survivals == []


def test_only_the_targets_hits_are_asked_about() -> None:
    res = _run(STANDS, Action("P01", "刺杀", ("P06",)))
    assert [d.player for d in res.deaths] == ["P06"] and not any(q.key.startswith("替死") for q in res.questions)


def test_a_protected_target_or_user_is_not_asked() -> None:
    saved = _run(Action("P05", "守护", ("P03",)), STANDS, Action("P01", "刺杀", ("P03",)))
    assert saved.deaths == [] and not any(q.key.startswith("替死") for q in saved.questions)
    safe = _run(Action("P05", "守护", ("P02",)), STANDS, Action("P01", "刺杀", ("P03",)), **{"替死.P03": "是"})
    assert [d.player for d in safe.deaths] == ["P03"] and not any(q.key.startswith("替死") for q in safe.questions)


def test_once_dead_in_one_place_the_user_is_not_asked_again() -> None:
    res = _run(STANDS, Action("P01", "刺杀", ("P03",)), Action("P01", "刺杀", ("P04",)),
               **{"替死.P03": "是", "替死.P04": "是"})
    assert [d.player for d in res.deaths] == ["P02", "P04"]
    assert [q.key for q in res.questions if q.key.startswith("替死")] == ["替死.P03"]


def test_stands_in_is_a_cover_key_only() -> None:
    bad = {**NIGHT, "skills": [{**NIGHT["skills"][0], "effects": [{"kind": "protect", "stands_in": "？"}]},
                               *NIGHT["skills"][1:]]}
    with pytest.raises(RulesetError, match="stands_in"):
        parse_catalog(bad, "toy.toml")

"""``to = "chosen_by_target"``: an effect lands on one of the players its target chose this phase.

M160 告死邪魔【唆使】 "选择一名玩家，今晚被他选择的玩家中，会有一名玩家受到来源于你的【致死伤害】": the living
players the target's other submissions name (after the redirects), first choice first, each once; the director
picks one when there are several (question ``<skill>.<actor>``); nobody when he chose none. A toy game settled by
the generic engine; M160's own case is in test_night_gourmet_m160.py.
"""

from __future__ import annotations

from typing import Any

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.model import Action, Seat, Settlement, Table

NIGHT: dict[str, Any] = {
    "ruleset": "chosen-by-target-toy",
    "steps": [{"n": "1", "skills": ["查验"]}, {"n": "2", "skills": ["唆使"]}, {"n": "3", "skills": ["守望"]},
              {"n": "4", "resolve": True}],
    "skills": [
        {"name": "查验", "roles": ["预言家"], "targets": 1, "effects": [{"kind": "inspect"}]},
        {"name": "唆使", "roles": ["邪魔"], "targets": 1,
         "effects": [{"kind": "damage", "to": "chosen_by_target", "cause": "唆使（{actor}）"}]},
        {"name": "守望", "roles": ["预言家"], "min_targets": 1, "max_targets": 2, "effects": [{"kind": "note", "log": "守望"}]},
    ],
}


def _run(*actions: Action, **decide: str) -> Settlement:
    roles = ["邪魔", "预言家", "村民", "村民", "村民"]
    players = {f"P0{i}": Seat(f"P0{i}", r, "邪恶" if r == "邪魔" else "善良") for i, r in enumerate(roles, 1)}
    players["P05"].alive = False
    acts = [Action(a.actor, a.skill, a.targets, index=i) for i, a in enumerate(actions)]
    return settle(parse_catalog(NIGHT, "toy.toml"), Table(players=players, state={}, night=2), acts, decisions=decide)


INCITE = Action("P01", "唆使", ("P02",))


def test_the_one_player_the_target_chose_is_hit() -> None:
    res = _run(Action("P02", "查验", ("P03",)), INCITE)
    assert [(d.player, d.cause) for d in res.deaths] == [("P03", "唆使（P01）")] and res.questions == []
    assert "(2) P01<唆使>：P02今晚选择了P03 → P03" in res.log


def test_several_chosen_the_director_picks_among_the_living_whatever_step_chose_them() -> None:
    acts = (Action("P02", "查验", ("P03",)), INCITE, Action("P02", "守望", ("P04", "P03")))
    res = _run(*acts, **{"唆使.P01": "P04"})
    q = next(q for q in res.questions if q.key == "唆使.P01")
    assert q.options == ("P03", "P04") and q.question == "<唆使>：P02今晚选择的玩家中谁受到致死伤害"
    assert [d.player for d in res.deaths] == ["P04"]
    dead_chosen = _run(Action("P02", "守望", ("P05",)), INCITE)  # P05 is out: no living player chosen
    assert dead_chosen.deaths == [] and "(2) P01<唆使>：P02今晚没有选择存活的玩家 → 无效果" in dead_chosen.log


def test_a_target_who_chose_nobody_leaves_it_without_effect() -> None:
    res = _run(INCITE)
    assert res.deaths == [] and "(2) P01<唆使>：P02今晚没有选择存活的玩家 → 无效果" in res.log

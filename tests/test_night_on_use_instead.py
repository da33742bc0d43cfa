"""An ``on_use`` rider with ``instead`` and ``uses``, and an effect with ``to = "neighbour"``, on a toy game.

M160 狂煞【毒害】 "当你第一次杀害村民时，改为使其中毒，并对一名与他相邻的玩家造成【致死伤害】", 厉鬼【狂乱】 "当你第一次杀害
外来者时，改为对一名与他相邻的玩家造成【致死伤害】": the use's own damage does not take hold on the target the rider takes
over, who survives in the rider's words; the rider's effects land on him or on one living neighbour by ``seat`` (the
director's pick of two, ``<skill>.相邻``, the same for every effect); "第一次": the rider's ``uses``. M160's own
nights are in test_night_gourmet_m160.py.
"""

from __future__ import annotations

from typing import Any

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.model import Action, Seat, Settlement, Table

VENOM = {"name": "毒牙", "roles": ["蛇"], "phase": "passive", "kind": "触发", "uses": "毒牙", "cooldown_key": "毒牙上次",
         "on_use": {"of": "咬", "when_target": {"of": "group", "values": ["村民"]}, "instead": "<毒牙>：{target}改为中毒"},
         "effects": [{"kind": "status", "status": "中毒"},
                     {"kind": "damage", "to": "neighbour", "cause": "毒牙：与{chosen}相邻"},
                     {"kind": "status", "status": "被波及", "for_phase": True, "to": "neighbour", "log": ""}]}
NIGHT: dict[str, Any] = {
    "ruleset": "instead-toy",
    "steps": [{"n": "1", "skills": ["封"]}, {"n": "2", "skills": ["咬"]}, {"n": "3", "resolve": True}],
    "skills": [
        {"name": "咬", "roles": ["蛇"], "targets": 1, "effects": [{"kind": "damage", "cause": "咬"}]},
        VENOM,
        {"name": "封", "roles": ["巫师"], "targets": 1, "effects": [{"kind": "block", "voids": ["毒牙"]}]},
    ],
}


def _run(*actions: Action, uses: int = 1, ring: bool = True, out: tuple[str, ...] = (), **decide: str) -> Settlement:
    roles = ["蛇", "村民", "村民", "外来者", "巫师", "村民"]
    players = {f"P0{i}": Seat(f"P0{i}", r, "坏" if r == "蛇" else "好", alive=f"P0{i}" not in out,
                              uses={"毒牙": uses} if r == "蛇" else {},
                              fields={"seat": i, "type": "村民" if r in ("村民", "巫师") else r})
               for i, r in enumerate(roles, 1)}
    acts = [Action(a.actor, a.skill, a.targets, index=i) for i, a in enumerate(actions)]
    return settle(parse_catalog(NIGHT, "toy.toml"), Table(players=players, state={"座次环形": ring}, night=2), acts,
                  decisions=decide)


def test_the_first_bite_on_a_villager_poisons_him_and_strikes_a_neighbour_instead() -> None:
    res = _run(Action("P01", "咬", ("P03",)), **{"毒牙.相邻": "P04"})
    assert [(d.player, d.cause) for d in res.deaths] == [("P04", "毒牙：与P03相邻")]
    assert [(s.player, s.reason) for s in res.survivals] == [("P03", "<毒牙>：P03改为中毒")]
    assert res.state_after["P03.status"] == ["中毒"] and res.state_after["P01.毒牙"] == 0
    assert res.state_after["毒牙上次"] == {"target": "P03", "night": 2}
    q = next(q for q in res.questions if q.key == "毒牙.相邻")
    assert q.options == ("P02", "P04") and [x.key for x in res.questions].count("毒牙.相邻") == 1


def test_spent_blocked_or_not_its_kind_the_use_strikes_as_usual() -> None:
    assert [d.player for d in _run(Action("P01", "咬", ("P03",)), uses=0).deaths] == ["P03"]
    assert [d.player for d in _run(Action("P01", "咬", ("P04",))).deaths] == ["P04"]  # an 外来者: no occasion
    blocked = _run(Action("P05", "封", ("P01",)), Action("P01", "咬", ("P03",)))
    assert [d.player for d in blocked.deaths] == ["P03"] and blocked.survivals == []


def test_the_neighbour_is_the_nearest_living_one_and_a_row_has_ends() -> None:
    """"一名与他相邻的玩家": the dead skipped; on a row (座次环形 false) an end seat has one neighbour, no question."""
    res = _run(Action("P01", "咬", ("P03",)), out=("P04",), **{"毒牙.相邻": "P05"})
    assert [d.player for d in res.deaths] == ["P05"]
    end = _run(Action("P01", "咬", ("P06",)), ring=False)
    assert [d.player for d in end.deaths] == ["P05"] and not any(q.key == "毒牙.相邻" for q in end.questions)

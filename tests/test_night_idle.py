"""A ``trigger`` ``on = "idle"``: at its step, its effects fall on every player who had to act and submitted nothing.

M160 丑角【哥谭】 "若一名【实际角色】不是【丑角】的玩家在需要操作的夜晚没有行动，则他会变成【丑角】": "需要操作" is read
from the role the player believes he has (``believes``: 附体, 迷失) and the refusals a submission would meet now; a
``may_skip`` skill (愚者 "你可以尝试操作两个玩家") never makes a night one he had to act in. A toy game settled by the
generic engine; M160's own case is in test_night_gourmet_m160.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.errors import RulesetError

IDLE = {"kind": "status", "status": "懒汉", "listed": "懒汉", "log": "怠惰：{target}需要操作却没有行动",
        "pending": "怠惰：{target}判罚一张黄牌", "until": "第{next_day}天"}
NIGHT: dict[str, Any] = {
    "ruleset": "idle-toy",
    "steps": [{"n": "1", "skills": ["查验"]}, {"n": "2", "skills": ["守护"]}, {"n": "3", "skills": ["杀人"]},
              {"n": "4", "skills": ["尝试"]}, {"n": "5", "resolve": True}, {"n": "6", "skills": ["怠惰"]}],
    "skills": [
        {"name": "查验", "roles": ["预言家"], "targets": 1, "effects": [{"kind": "inspect", "text": "{answer}"}]},
        {"name": "守护", "roles": ["守卫"], "targets": 1, "not_first_night": True, "uses": "守护",
         "effects": [{"kind": "protect", "stops": ["*"]}]},
        {"name": "杀人", "roles": ["狼人"], "targets": 1, "effects": [{"kind": "damage"}]},
        {"name": "尝试", "roles": ["小丑"], "targets": 1, "may_skip": True, "effects": [{"kind": "status", "status": "试过"}]},
        {"name": "怠惰", "roles": ["小丑"], "phase": "passive", "trigger": {"on": "idle", "forced": True},
         "effects": [IDLE]},
    ],
}
ROLES = {"P01": "预言家", "P02": "守卫", "P03": "狼人", "P04": "小丑", "P05": "村民", "P06": "狼人"}


def _run(*actions: Action, n: int = 2, **fields: dict[str, Any]) -> Settlement:
    players = {}
    for name, role in ROLES.items():
        f = dict(fields.get(name, {}))
        seat = Seat(name, role, "狼人" if role == "狼人" else "村民", status=f.pop("status", []), uses=f.pop("uses", {}),
                    alive=f.pop("alive", True), fields=f)
        players[name] = seat
    acts = [Action(a.actor, a.skill, a.targets, index=i) for i, a in enumerate(actions)]
    return settle(parse_catalog(NIGHT, "toy.toml"), Table(players=players, state={}, night=n), acts)


EVERYONE = (Action("P01", "查验", ("P03",)), Action("P02", "守护", ("P01",)), Action("P03", "杀人", ("P05",)),
            Action("P06", "杀人", ("P05",)))


def test_who_had_to_act_and_did_not_gets_its_effects() -> None:
    """The 预言家 who checks nobody is idle; the 村民 has nothing to do, the 小丑 only "可以尝试" (``may_skip``)."""
    res = _run(*[a for a in EVERYONE if a.actor != "P01"])
    assert res.state_after["懒汉"] == ["P01"] and res.state_after["P01.status"] == ["懒汉"]
    assert "怠惰：P01需要操作却没有行动" in res.log
    assert [(p.effect, p.player, p.when) for p in res.pending] == [("怠惰：P01判罚一张黄牌", "P01", "第3天")]
    quiet = _run(*EVERYONE)
    assert "懒汉" not in quiet.state_after and "(6) 怠惰：所有需要操作的玩家都已行动 → 无人触发" in quiet.log


def test_a_skill_he_could_not_use_tonight_asks_nothing_of_him() -> None:
    """Not on the first night ("*"), no uses left, benched: the 守卫 had nothing to do."""
    first = _run(*[a for a in EVERYONE if a.actor != "P02"], n=1)
    assert "懒汉" not in first.state_after
    spent = _run(*[a for a in EVERYONE if a.actor != "P02"], P02={"uses": {"守护": 0}})
    assert "懒汉" not in spent.state_after
    benched = _run(*[a for a in EVERYONE if a.actor != "P02"], P02={"status": ["挂机"]})
    assert "懒汉" not in benched.state_after
    assert _run(*[a for a in EVERYONE if a.actor != "P02"]).state_after["懒汉"] == ["P02"]


def test_the_role_he_believes_decides() -> None:
    """附体 "你认为你是一名[]内的对应身份": a 狼人 who believes he is a 村民 has nothing to do; one who believes he
    is a 预言家 has to check."""
    calm = _run(*[a for a in EVERYONE if a.actor != "P06"], P06={"believes": "村民"})
    assert "懒汉" not in calm.state_after
    seer = _run(*[a for a in EVERYONE if a.actor != "P06"], P06={"believes": "预言家"})
    assert seer.state_after["懒汉"] == ["P06"]


def test_a_refused_submission_is_acting_and_the_night_s_dead_had_to_act() -> None:
    """A submission refused (two targets) is still an action; the 预言家 killed tonight had to act all the same;
    a player out before the night had nothing to do."""
    refused = _run(Action("P01", "查验", ("P03", "P04")), *EVERYONE[1:])
    assert [r.actor for r in refused.rejected] == ["P01"] and "懒汉" not in refused.state_after
    killed = _run(Action("P02", "守护", ("P05",)), Action("P03", "杀人", ("P01",)), Action("P06", "杀人", ("P01",)))
    assert [d.player for d in killed.deaths] == ["P01"] and killed.state_after["懒汉"] == ["P01"]
    gone = _run(*[a for a in EVERYONE if a.actor != "P01"], P01={"alive": False})
    assert "懒汉" not in gone.state_after


def test_idle_is_forced_and_nobody_submits_it() -> None:
    res = _run(*EVERYONE, Action("P04", "怠惰", ()))
    assert [(r.actor, r.skill) for r in res.rejected] == [("P04", "怠惰")]
    bad = {**NIGHT, "skills": [*NIGHT["skills"][:-1], {**NIGHT["skills"][-1], "trigger": {"on": "idle"}}]}
    with pytest.raises(RulesetError, match="idle"):
        parse_catalog(bad, "toy.toml")

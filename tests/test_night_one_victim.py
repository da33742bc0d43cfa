"""``one_victim`` (a ``damage`` that strikes ONE of the players chosen), ``unless_target`` and ``shares_victim``.

M160 【凶杀】 "你选择的玩家中会有一名存活的非【群内】的玩家受到来源于你的【致死杀害】"; 附体 "一名被你选择的非恶魔非爪牙
（附魂灵除外）的玩家会被你杀害。若恶魔选择的玩家中没有可被击杀的玩家，则会出现平安夜"; 缚魂灵【夺魂】 "你可以杀害爪牙";
双生暗影【镜像】 "你们不能杀害彼此，而且每晚只会有一名玩家被杀害". A toy game settled by the generic engine's ``resolve``;
M160's own nights are in test_night_gourmet_m160.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.errors import RulesetError

STRIKE = {"kind": "damage", "one_victim": True, "cause": "刺杀（{actor_role}{actor}）",
          "unless_target": [{"of": "tag", "values": ["群内"], "benched_leave": True},
                            {"of": "group", "values": ["恶魔"]},
                            {"of": "group", "values": ["爪牙"], "lifted_by": ["夺魂"]}],
          "empty": "{step} 平安夜"}
NIGHT: dict[str, Any] = {
    "ruleset": "one-victim-toy",
    "steps": [{"n": "1", "skills": ["守护"]}, {"n": "2", "skills": ["刺杀"]}, {"n": "3", "resolve": True}],
    "skills": [
        {"name": "守护", "roles": ["守卫"], "targets": 1, "effects": [{"kind": "protect", "stops": ["*"]}]},
        {"name": "刺杀", "roles": ["恶魔", "缚魂灵", "双子"], "min_targets": 1, "max_targets": 4,
         "effects": [STRIKE, {"kind": "status", "status": "被刺", "for_phase": True, "log": ""}]},
        {"name": "夺魂", "roles": ["缚魂灵"], "phase": "passive", "kind": "被动", "clause": "你可以杀害爪牙"},
        {"name": "镜像", "roles": ["双子"], "phase": "passive", "kind": "被动", "shares_victim": "刺杀",
         "clause": "每晚只会有一名玩家被杀害"},
    ],
}
GROUPS = {"恶魔": "恶魔", "缚魂灵": "恶魔", "双子": "恶魔", "爪牙": "爪牙"}


def _run(*actions: Action, roles: tuple[str, ...] = ("恶魔", "爪牙", "村民", "村民", "守卫", "村民"),
         **decide: str) -> Settlement:
    players = {f"P0{i}": Seat(f"P0{i}", r, "邪恶" if r in GROUPS else "善良", fields={"type": GROUPS.get(r, "村民")})
               for i, r in enumerate(roles, 1)}
    players["P06"].tags.append("群内")
    acts = [Action(a.actor, a.skill, a.targets, index=i) for i, a in enumerate(actions)]
    return settle(parse_catalog(NIGHT, "toy.toml"), Table(players=players, state={}, night=2), acts, decisions=decide)


def test_one_of_several_chosen_is_struck_the_directors_pick() -> None:
    res = _run(Action("P01", "刺杀", ("P03", "P04")), **{"刺杀": "P01:P04"})
    assert [(d.player, d.cause) for d in res.deaths] == [("P04", "刺杀（恶魔P01）")]
    q = next(q for q in res.questions if q.key == "刺杀")
    assert q.options == ("P01:P03", "P01:P04") and q.taken == "P01:P04"


def test_who_cannot_be_struck_is_no_candidate_and_none_is_a_quiet_night() -> None:
    """非【群内】, 非恶魔非爪牙, and a protection of the phase ("你在当晚不会死亡"): no question, the one left dies."""
    res = _run(Action("P05", "守护", ("P04",)), Action("P01", "刺杀", ("P02", "P06", "P04", "P03")))
    assert [d.player for d in res.deaths] == ["P03"] and not any(q.key == "刺杀" for q in res.questions)
    quiet = _run(Action("P05", "守护", ("P04",)), Action("P01", "刺杀", ("P02", "P06", "P04")))
    assert quiet.deaths == [] and "(2) 平安夜" in quiet.log


def test_a_lifting_skill_and_a_bench_open_the_exclusions() -> None:
    """缚魂灵【夺魂】 "你可以杀害爪牙"; 挂机 "有群的角色从自已所在的群中立即移除"."""
    binder = _run(Action("P01", "刺杀", ("P02",)), roles=("缚魂灵", "爪牙", "村民", "村民", "守卫", "村民"))
    assert [d.player for d in binder.deaths] == ["P02"]
    assert _run(Action("P01", "刺杀", ("P02",))).deaths == []
    players = {f"P0{i}": Seat(f"P0{i}", r, "善良") for i, r in enumerate(("恶魔", "村民", "村民"), 1)}
    players["P01"].fields["type"] = "恶魔"
    players["P02"].tags.append("群内")
    players["P02"].status.append("挂机")
    res = settle(parse_catalog(NIGHT, "toy.toml"), Table(players=players, state={}, night=2),
                 [Action("P01", "刺杀", ("P02",), index=0)])
    assert [d.player for d in res.deaths] == ["P02"]


def test_holders_of_a_shares_victim_skill_share_one_victim() -> None:
    """【镜像】 "每晚只会有一名玩家被杀害": two 双子, one question over both choices, one death."""
    roles = ("双子", "双子", "村民", "村民", "守卫", "村民")
    acts = (Action("P01", "刺杀", ("P02", "P03")), Action("P02", "刺杀", ("P04",)))
    res = _run(*acts, roles=roles, **{"刺杀": "P02:P04"})
    assert [d.player for d in res.deaths] == ["P04"]
    q = next(q for q in res.questions if q.key == "刺杀")
    assert q.options == ("P01:P03", "P02:P04")  # "你们不能杀害彼此": the other 双子 is a 恶魔, no candidate
    alone = _run(*acts, roles=("恶魔", "恶魔", "村民", "村民", "守卫", "村民"))
    assert len(alone.deaths) == 2  # without 镜像 each 恶魔 strikes his own


def test_unless_target_on_another_kind_logs_why() -> None:
    night = {**NIGHT, "skills": [*NIGHT["skills"], {"name": "标记", "roles": ["守卫"], "targets": 1, "effects": [
        {"kind": "status", "status": "标记", "unless_target": [{"of": "group", "values": ["恶魔"]}]}]}],
        "steps": [*NIGHT["steps"], {"n": "4", "skills": ["标记"]}]}
    players = {"P01": Seat("P01", "恶魔", "邪恶", fields={"type": "恶魔"}), "P02": Seat("P02", "守卫", "善良")}
    res = settle(parse_catalog(night, "toy.toml"), Table(players=players, state={}, night=2),
                 [Action("P02", "标记", ("P01",), index=0)])
    assert "P01.status" not in res.state_after and any("P01的实际类型是恶魔，无效果" in x for x in res.log)


def test_one_victim_is_a_damage_key_and_shares_victim_names_a_skill() -> None:
    bad = {**NIGHT, "skills": [{**NIGHT["skills"][0], "effects": [{"kind": "protect", "one_victim": True}]},
                               *NIGHT["skills"][1:]]}
    with pytest.raises(RulesetError, match="one_victim"):
        parse_catalog(bad, "toy.toml")
    unknown = {**NIGHT, "skills": [*NIGHT["skills"][:3], {**NIGHT["skills"][3], "shares_victim": "无此技能"}]}
    with pytest.raises(RulesetError):
        parse_catalog(unknown, "toy.toml")

"""A ``tell`` step that tells what the director picks, on a toy night settled by the generic engine alone.

``pick`` (M160 窥天 "游戏开始时，得知三个本局不存在于场上的村民/外来者身份": roles nobody at the table has,
picked by the director, the same for every holder), ``one_of`` (M160 预告 "一名【实际阵营】为【善良阵营】的玩家
得知本局存在【告死邪魔】": the holder tells no one himself, one player of a faction is picked and told) and
``log`` (the step's one line in the post's words).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.catalog import Catalog, parse_catalog
from tracker.engine.night.coverage import coverage
from tracker.engine.night.model import Seat, Settlement, Table
from tracker.engine.ruleset import load_ruleset
from tracker.engine.ruleset_schema import Ruleset
from tracker.errors import RulesetError

PEEK = "窥天：不在场的身份：{picked}"
NIGHT: dict[str, Any] = {
    "ruleset": "tell-pick-toy",
    "steps": [
        {"n": "1", "tell": {"to": "窥天", "pick": {"groups": ["镇民", "外来者"], "count": 2,
                                                 "question": "第{i}个不在场的身份"},
                            "text": PEEK, "summary": "{step} 窥天：{told}得知{picked}"}},
        {"n": "2", "tell": {"to": "预告", "one_of": {"factions": ["好人"], "question": "哪名好人得知"},
                            "text": "预告：本局有邪魔"}},
    ],
    "skills": [
        {"name": "窥天", "roles": ["天使", "邪魔"], "phase": "setup"},
        {"name": "预告", "roles": ["邪魔"], "phase": "setup"},
    ],
}


def _rules(tmp: Path) -> Ruleset:
    """werewolf-12's day rules with the toy's roles in their groups (the picks are made among these)."""
    from tracker.engine.ruleset import parse_ruleset

    raw = dict(load_ruleset("werewolf-12").raw)
    good = [("医生", "镇民"), ("画家", "镇民"), ("厨师", "镇民"), ("渔夫", "外来者"), ("乞丐", "外来者")]
    raw.update(id="tell-pick-toy", players=8, win=[w for w in raw["win"] if w["id"] == "好人"], factions=[{"name": "好人", "size": 5}, {"name": "狼人", "size": 3}],
               roles=[{"name": r, "faction": "好人", "group": g} for r, g in good]
               + [{"name": r, "faction": "狼人", "group": "爪牙"} for r in ("天使", "邪魔", "小丑")],
               role_groups=[])
    return parse_ruleset(raw, tmp / "toy.toml")


def _cat() -> Catalog:
    return parse_catalog(NIGHT, "tell-pick.toml")


def _table(**alive: bool) -> Table:
    seats = {"P1": ("天使", "狼人"), "P2": ("邪魔", "狼人"), "P3": ("医生", "好人"), "P4": ("渔夫", "好人"),
             "P5": ("小丑", "狼人")}
    return Table(players={n: Seat(n, r, f, alive=alive.get(n, True)) for n, (r, f) in seats.items()},
                 state={}, night=1)


def _run(tmp: Path, table: Table, **decide: str) -> Settlement:
    return settle(_cat(), table, [], ruleset=_rules(tmp), decisions=decide)


def test_pick_tells_every_holder_the_same_absent_roles_of_the_groups(tmp_path: Path) -> None:
    res = _run(tmp_path, _table())
    peeked = {f.to: f.content for f in res.feedback if f.content.startswith("窥天")}
    assert set(peeked) == {"P1", "P2"} and peeked["P1"] == peeked["P2"]
    shown = peeked["P1"].split("：")[-1].split("、")
    assert len(shown) == 2 and set(shown) <= {"画家", "厨师", "乞丐"}  # absent, of the groups: not 医生/渔夫/小丑
    q1 = next(q for q in res.questions if q.key == "窥天.1")
    assert q1.question == "第1个不在场的身份" and q1.options == ("画家", "厨师", "乞丐")
    assert next(q for q in res.questions if q.key == "窥天.2").options == tuple(r for r in q1.options if r != q1.taken)
    assert f"(1) 窥天：P1、P2得知{'、'.join(shown)}" in res.log
    fixed = _run(tmp_path, _table(), **{"窥天.1": "乞丐", "窥天.2": "画家"})
    assert {f.content for f in fixed.feedback if f.to == "P1"} >= {PEEK.format(picked="乞丐、画家")}


def test_one_of_tells_one_player_of_the_faction_the_director_picks(tmp_path: Path) -> None:
    res = _run(tmp_path, _table(), 预告="P4")
    assert [(f.to, f.content) for f in res.feedback if f.content.startswith("预告")] == [("P4", "预告：本局有邪魔")]
    q = next(q for q in res.questions if q.key == "预告")
    assert q.options == ("P3", "P4") and q.by == "director"
    assert "(2) 告知P4（<预告>）：预告：本局有邪魔" in res.log


def test_no_living_holder_no_tell_and_no_question(tmp_path: Path) -> None:
    res = _run(tmp_path, _table(P1=False, P2=False))
    assert res.feedback == [] and res.questions == []


def test_both_are_settled_by_data() -> None:
    assert set(coverage(_cat(), None).by_data) == {"窥天", "预告"}


@pytest.mark.parametrize("tell", [
    {"to": "窥天", "count": ["好人"], "pick": {"groups": ["好人"], "count": 1, "question": "q"}},
    {"to": "预告", "text": "预告：{targets}"},
    {"to": "预告", "one_of": {"question": "q", "count_by_believed": {"模仿者": 0}}, "text": "预告"},
])
def test_a_tell_says_what_it_tells_once(tell: dict[str, Any]) -> None:
    doc = {**NIGHT, "steps": [{"n": "1", "tell": tell}]}
    with pytest.raises(RulesetError):
        parse_catalog(doc, "tell-pick.toml")


WALK: dict[str, Any] = {
    "ruleset": "tell-pick-toy",
    "steps": [{"n": "9", "tell": {"to": "神游", "one_of": {
        "question": "谁要对漫步者疯狂", "each": True, "not_holders": True, "once_each": "神游已选择",
        "count_by_believed": {"模仿者": 2}, "exhausted": "{step} {holder}失去神游"},
        "text": "你要对漫步者疯狂", "log": "{step} {told}要疯狂"}}],
    "skills": [{"name": "神游", "roles": ["漫步者"], "phase": "passive"}],
}


def _walk(tmp: Path, table: Table, **decide: str) -> Settlement:
    return settle(parse_catalog(WALK, "walk.toml"), table, [], ruleset=_rules(tmp), decisions=decide)


def _walkers(state: dict[str, Any] | None = None, **fields: dict[str, Any]) -> Table:
    seats = {"P1": "漫步者", "P2": "医生", "P3": "画家", "P4": "厨师", "P5": "渔夫"}
    return Table(players={n: Seat(n, r, "好人", fields=dict(fields.get(n, {}))) for n, r in seats.items()},
                 state=dict(state or {}), night=2)


def test_each_holder_gets_a_player_never_himself_never_twice(tmp_path: Path) -> None:
    """神游 "每个白天，都会有一名你之外的存活玩家（不会重复，由导演随机指定）需要对【漫步者】【疯狂】"."""
    res = _walk(tmp_path, _walkers({"神游已选择": {"P1": ["P2", "P3"]}}))
    q = next(q for q in res.questions if q.key == "神游.P1.1")
    assert q.options == ("P4", "P5") and [f.to for f in res.feedback] == [q.taken]
    assert res.state_after["神游已选择"] == {"P1": ["P2", "P3", q.taken]}
    assert f"(9) {q.taken}要疯狂" in res.log


def test_nobody_left_the_holder_loses_it(tmp_path: Path) -> None:
    res = _walk(tmp_path, _walkers({"神游已选择": {"P1": ["P2", "P3", "P4", "P5"]}}))
    assert res.feedback == [] and res.questions == [] and "(9) P1失去神游" in res.log


def test_a_holder_who_believes_another_role_gets_his_own_count_and_list(tmp_path: Path) -> None:
    """模仿者② "若模仿者【克隆】选择的是漫步者，那么天亮后会有两个不同玩家……漫步者本体与模仿漫步者的【神游】名单独立计算，
    模仿漫步者不会成为【神游】的对象": the clone (role 漫步者, believes 模仿者) has two, from his own list; neither walker
    is ever picked."""
    table = _walkers({"神游已选择": {"P1": ["P3"]}}, P2={"believes": "模仿者"})
    table.players["P2"].role = "漫步者"
    res = _walk(tmp_path, table, **{"神游.P2.1": "P3"})
    assert [q.key for q in res.questions] == ["神游.P1.1", "神游.P2.1", "神游.P2.2"]
    assert all("P1" not in q.options and "P2" not in q.options for q in res.questions)
    assert "P3" not in res.questions[0].options and "P3" in res.questions[1].options
    assert res.state_after["神游已选择"]["P2"] == ["P3", res.questions[2].taken]

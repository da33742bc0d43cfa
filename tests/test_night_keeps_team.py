"""``keeps_team``: a player who becomes a role keeps the team skills he had (107 伪装<强制> "任意角色成为活尸后，
不会失去原身份的<团队>技能。"), on a toy night the generic engine settles alone.

Without the key a flip "失去当前所有身份技能" — a team's skill too: its submission is refused ("不是民兵的成员").
"""

from __future__ import annotations

from typing import Any

from toy_rules import toy_rules

from tracker.engine.night import settle
from tracker.engine.night.catalog import Catalog, parse_catalog
from tracker.engine.night.coverage import coverage
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.engine.ruleset import Ruleset

RULES = toy_rules("keep-toy", "伪装测试局", 4, ["村庄", "亡灵"], [
    {"name": "民兵", "faction": "村庄", "count": 2}, {"name": "村长", "faction": "村庄", "count": 2},
    {"name": "活尸", "faction": "亡灵", "count": 0}, {"name": "恶灵", "faction": "亡灵", "count": 0},
], win="村庄")


def _night(keeps: bool) -> dict[str, Any]:
    disguise: dict[str, Any] = {"name": "伪装", "roles": ["活尸"], "phase": "passive", "kind": "强制"}
    if keeps:
        disguise["keeps_team"] = True
    return {
        "ruleset": "keep-toy",
        "flip": {"pairs": {"民兵": "活尸", "村长": "恶灵"}, "faction": "亡灵"},
        "steps": [{"n": "1", "skills": ["转生", "暗日", "巡逻"]}],
        "skills": [
            {"name": "转生", "roles": ["民兵", "村长"], "targets": 0,
             "effects": [{"kind": "convert", "flip": True, "to": "actor"}]},
            {"name": "暗日", "roles": ["村长"], "targets": 1,
             "effects": [{"kind": "convert", "role": "活尸", "faction": "亡灵", "new_uses": True}]},
            {"name": "巡逻", "roles": ["民兵"], "team": "民兵", "kind": "团队", "targets": 1,
             "effects": [{"kind": "kill", "cause": "巡逻"}]},
            {"name": "突击", "roles": ["民兵"], "kind": "限定", "targets": 1, "uses": "突击"},
            disguise,
        ],
    }


def _run(cat: Catalog, seats: list[Seat], *acts: tuple[str, str, tuple[str, ...]]) -> Settlement:
    table = Table(players={s.name: s for s in seats}, state={}, night=2)
    return settle(cat, table, [Action(a, s, t, index=i) for i, (a, s, t) in enumerate(acts)],
                  ruleset=_rules())


def _rules() -> Ruleset:
    return RULES


def _seats() -> list[Seat]:
    return [Seat("P1", "民兵", "村庄", uses={"突击": 1}), Seat("P2", "民兵", "村庄", uses={"突击": 1}),
            Seat("P3", "村长", "村庄"), Seat("P4", "村长", "村庄")]


def _flipped(cat: Catalog, who: str) -> Seat:
    res = _run(cat, _seats(), (who, "转生", ()))
    assert res.table_after is not None
    return res.table_after.players[who]


def test_a_militiaman_turned_walking_dead_keeps_the_team_skill_only() -> None:
    cat = parse_catalog(_night(True), "keep-toy.toml")
    p1 = _flipped(cat, "P1")
    assert (p1.role, p1.uses) == ("活尸", {"巡逻": True})  # 突击 (not a team's) is lost, 巡逻 kept
    res = _run(cat, [p1, *_seats()[1:]], ("P1+P2", "巡逻", ("P3",)))
    assert res.rejected == [] and [d.player for d in res.deaths] == ["P3"]


def test_without_the_key_a_flip_loses_the_team_skill() -> None:
    cat = parse_catalog(_night(False), "keep-toy.toml")
    p1 = _flipped(cat, "P1")
    assert p1.uses == {}
    res = _run(cat, [p1, *_seats()[1:]], ("P1+P2", "巡逻", ("P3",)))
    assert [r.reason for r in res.rejected] == ["P1（活尸）不是民兵的成员，不能发动<巡逻>"]
    assert "伪装" not in coverage(cat, None).by_data


def test_only_the_role_with_the_key_keeps_and_a_convert_keeps_the_original_ones() -> None:
    cat = parse_catalog(_night(True), "keep-toy.toml")
    assert _flipped(cat, "P3").uses == {}  # 恶灵 has no 伪装
    ghost = Seat("P4", "恶灵", "亡灵", fields={"原身份": "民兵"})  # "原身份的<团队>技能": a 民兵 turned 恶灵 before
    res = _run(cat, [*_seats()[:3], ghost], ("P3", "暗日", ("P4",)))
    assert res.table_after is not None and res.table_after.players["P4"].uses == {"巡逻": True}
    assert "伪装" in coverage(cat, None).by_data

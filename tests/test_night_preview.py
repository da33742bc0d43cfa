"""A ``preview`` step (the pending damage as a dry run: who is about to go out), the ``tell`` that tells it
(``going``), a skill that may only take a player on it (``target_going``) and a protection that turns the
player it saves (``protect`` with ``flips_instead``) — on a toy night the generic engine settles alone.

107 (11) "初步结算致死伤害和出局效应。告死者得到<告死>反馈。", 告死<强制> "告死者获得每个游戏日夜晚的即将出局者名单",
死灵咒<限定> "告死者选择一名在当晚出局的角色：若其属于人类，则该角色不出局并翻转其身份".
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tests.test_night_flip import RULES
from tracker.engine.night import settle
from tracker.engine.night.catalog import Catalog, parse_catalog
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.engine.ruleset import Ruleset
from tracker.errors import RulesetError

HUMANS = ["村庄", "天界", "中立"]
NIGHT: dict[str, Any] = {
    "ruleset": "flip-toy",
    "flip": {"pairs": {"村长": "恶灵", "守夜人": "活尸"}, "faction": "亡灵"},
    "steps": [
        {"n": "1", "skills": ["守护", "刺杀"]},
        {"n": "2", "preview": True, "tell": {"to": "告死", "going": True, "text": "名单：{targets}", "empty": "名单：无",
                                            "log": "{step} {holder}得知：{targets}"}},
        {"n": "3", "skills": ["死灵咒"]},
        {"n": "4", "resolve": True},
    ],
    "skills": [
        {"name": "守护", "roles": ["神使"], "targets": 1, "effects": [{"kind": "protect", "stops": ["*"], "once": True}]},
        {"name": "刺杀", "roles": ["恶灵"], "targets": 1, "effects": [{"kind": "damage"}]},
        {"name": "告死", "roles": ["活尸"], "phase": "passive", "kind": "强制"},
        {"name": "死灵咒", "roles": ["活尸"], "kind": "限定", "targets": 1, "uses": "死灵咒", "target_going": True,
         "effects": [{"kind": "protect", "stops": ["*"], "once": True, "flips_instead": {"values": HUMANS},
                      "reason": "<死灵咒>使其不出局并翻转身份"}]},
    ],
}


def _cat(night: dict[str, Any] | None = None) -> Catalog:
    return parse_catalog(night or NIGHT, "preview-toy.toml")


def _rules() -> Ruleset:
    return RULES


def _run(*acts: tuple[str, str, tuple[str, ...]], **extra: Seat) -> Settlement:
    seats = {"P1": Seat("P1", "神使", "天界"), "P2": Seat("P2", "村长", "村庄"),
             "P3": Seat("P3", "恶灵", "亡灵"), "P4": Seat("P4", "活尸", "亡灵", uses={"死灵咒": 1}), **extra}
    table = Table(players=seats, state={}, night=2)
    return settle(_cat(), table, [Action(a, s, t, index=i) for i, (a, s, t) in enumerate(acts)], seed=0,
                  ruleset=_rules())


def _told(res: Settlement, to: str) -> list[str]:
    return [f.content for f in res.feedback if f.to == to]


def test_the_preview_is_told_and_the_turning_protection_saves_a_human_on_it() -> None:
    res = _run(("P3", "刺杀", ("P2",)), ("P4", "死灵咒", ("P2",)))
    assert _told(res, "P4") == ["名单：P2"]
    assert res.deaths == []
    assert [(c.player, c.role_to, c.cause) for c in res.conversions] == [("P2", "恶灵", "死灵咒")]
    assert [(s.player, s.reason) for s in res.survivals] == [("P2", "<死灵咒>使其不出局并翻转身份")]


def test_a_target_off_the_list_is_refused_and_nothing_is_spent() -> None:
    res = _run(("P3", "刺杀", ("P2",)), ("P4", "死灵咒", ("P1",)))
    assert [r.reason for r in res.rejected] == ["P1不在当晚即将出局者名单中（<死灵咒>只能选择一名在当晚出局的角色）"]
    assert [d.player for d in res.deaths] == ["P2"]
    assert res.table_after is not None and res.table_after.players["P4"].uses == {"死灵咒": 1}


def test_the_turning_protection_holds_only_on_whom_it_names() -> None:
    ghost = Seat("P5", "恶灵", "亡灵")
    res = _run(("P3", "刺杀", ("P5",)), ("P4", "死灵咒", ("P5",)), P5=ghost)
    assert _told(res, "P4") == ["名单：P5"]
    assert [d.player for d in res.deaths] == ["P5"] and res.conversions == []


def test_the_dry_run_spends_nothing_and_counts_the_protections() -> None:
    res = _run(("P1", "守护", ("P2",)), ("P3", "刺杀", ("P2",)))
    assert _told(res, "P4") == ["名单：无"]  # the protection answers the dry run too
    assert res.deaths == [] and [s.player for s in res.survivals] == ["P2"]  # and is still there at the resolve
    assert not any("得知" in line and "P2" in line for line in res.log)


def test_target_going_needs_a_preview_step_and_going_excludes_about() -> None:
    night = {**NIGHT, "steps": [s for s in NIGHT["steps"] if not s.get("preview")]}
    with pytest.raises(RulesetError, match="preview"):
        _cat(night)
    bad = {**NIGHT, "steps": [{"n": "1", "tell": {"to": "告死", "going": True, "about": "刺杀"}}]}
    with pytest.raises(RulesetError, match="going"):
        _cat(bad)


def test_untold_is_logged_when_no_holder_lives() -> None:
    night = copy.deepcopy(NIGHT)
    night["steps"][1]["tell"]["untold"] = "{step} 无人得知"
    res = settle(_cat(night), Table(players={"P2": Seat("P2", "村长", "村庄"), "P3": Seat("P3", "恶灵", "亡灵")},
                                    state={}, night=2), [Action("P3", "刺杀", ("P2",), index=0)], seed=0,
                 ruleset=_rules())
    assert "(2) 无人得知" in res.log
    assert "(2) 无人得知" not in _run(("P3", "刺杀", ("P2",))).log

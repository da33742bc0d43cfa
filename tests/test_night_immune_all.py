"""``immune_to = ["*"]`` with ``immune_except`` on a toy game: a passive skill whose holder takes no effect
from any skill used on him but those excepted (M65 绿王 <绝对防御>（强制）"游戏日任意时刻，对自己使用的技能无效，
不包括<绝对切割>"), judged on the player a game's ``aim`` moves the effect to, and counted as data."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.board import Board
from tracker.engine.night.catalog import Step, parse_catalog
from tracker.engine.night.coverage import coverage
from tracker.engine.night.effects import Use
from tracker.engine.night.flow import Flow
from tracker.engine.night.games import GameHooks
from tracker.engine.night.model import Action, Seat, Table
from tracker.errors import RulesetError


def night(**shield: Any) -> dict[str, Any]:
    return {
        "ruleset": "immune-toy",
        "steps": [{"n": "2", "skills": ["防御"]}, {"n": "3", "skills": ["钉", "切割"]}],
        "skills": [
            {"name": "防御", "roles": ["绿王"], "phase": "passive", "kind": "强制", "immune_to": ["*"],
             "immune_except": ["切割"], **shield},
            {"name": "钉", "roles": ["骑士"], "targets": 1, "effects": [{"kind": "vote"}]},
            {"name": "切割", "roles": ["黑王"], "targets": 1, "effects": [{"kind": "kill"}]},
        ],
    }


def table() -> Table:
    return Table(players={"P1": Seat("P1", "骑士", "甲"), "P2": Seat("P2", "绿王", "乙"),
                          "P3": Seat("P3", "黑王", "甲"), "P4": Seat("P4", "村民", "乙")}, state={}, night=2)


def test_immune_to_every_skill_but_the_excepted_ones() -> None:
    cat = parse_catalog(night(), "t")
    res = settle(cat, table(), [Action("P1", "钉", ("P2",)), Action("P3", "切割", ("P2",))])
    assert res.vote_marks == [] and "(3) P1<钉>：P2的<防御>免疫<钉>，无效果" in res.log
    assert [d.player for d in res.deaths] == ["P2"]  # 不包括<切割>
    assert coverage(cat, None).by_data == ("防御", "钉", "切割")
    plain = settle(cat, table(), [Action("P1", "钉", ("P4",))])
    assert [(m.name, m.player) for m in plain.vote_marks] == [("钉", "P4")]


def test_immune_except_names_skills_of_the_file() -> None:
    with pytest.raises(RulesetError, match="immune_except"):
        parse_catalog(night(immune_except=["切害"]), "t")


def _aim(board: Board, use: Use, target: str) -> str | None:
    """The toy's clause: what is used on P4 is moved onto P2 (辐射炫惑 更改目标)."""
    return "P2" if target == "P4" else target


def _nothing(flow: Flow, step: Step, actions: Sequence[Action]) -> None:
    return None


HOOKS = GameHooks(steps={"无": _nothing}, aim=_aim, why={"aim": "测试用：P4 的技能转到 P2"})


def test_immunity_holds_where_the_games_aim_moves_the_effect(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(importlib.import_module("tracker.engine.night.settle"), "hooks_for", lambda _id: HOOKS)
    res = settle(parse_catalog(night(), "t"), table(), [Action("P1", "钉", ("P4",))])
    assert res.vote_marks == [] and "(3) P1<钉>：P2的<防御>免疫<钉>，无效果" in res.log

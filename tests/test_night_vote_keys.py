"""Generic keys M65's marks need, on a toy game: a ``vote`` effect that ``lasts`` the rest of the game
(票权掠夺 "剥夺他的投票权"), a skill whose ``every_submission`` is settled (each day's one use plus
<时间回溯>'s extra one), and ``once_per_target`` counting the player chosen even where the game's
``aim`` hook lets the effect take on nobody (M65 绿王 <绝对防御>: "被选中" all the same)."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.board import Board
from tracker.engine.night.catalog import Step, parse_catalog
from tracker.engine.night.effects import Use
from tracker.engine.night.flow import Flow
from tracker.engine.night.games import GameHooks
from tracker.engine.night.model import Action, Seat, Table
from tracker.errors import RulesetError


def night(**stake: Any) -> dict[str, Any]:
    return {
        "ruleset": "vote-toy",
        "steps": [{"n": "1", "skills": ["钉", "夺票"]}],
        "skills": [
            {"name": "钉", "roles": ["骑士"], "targets": 1, "effects": [{"kind": "vote"}], **stake},
            {"name": "夺票", "roles": ["盗贼"], "targets": 1, "effects": [{"kind": "vote", "lasts": "game"}]},
        ],
    }


def table() -> Table:
    return Table(players={"P1": Seat("P1", "骑士", "甲"), "P2": Seat("P2", "盗贼", "乙"),
                          "P3": Seat("P3", "村民", "乙"), "P4": Seat("P4", "村民", "甲")}, state={}, night=2)


def marks(res: Any) -> list[tuple[str, str, int | None]]:
    return [(m.name, m.player, m.day) for m in res.vote_marks]


def test_a_vote_that_lasts_the_game_is_marked_with_no_day() -> None:
    res = settle(parse_catalog(night(), "t"), table(), [Action("P1", "钉", ("P3",)), Action("P2", "夺票", ("P4",))])
    assert marks(res) == [("钉", "P3", 3), ("夺票", "P4", None)]
    assert "(1) P2<夺票>：P4（此后每天投票：夺票）" in res.log


def test_lasts_belongs_to_vote_only() -> None:
    bad = night()
    bad["skills"][0]["effects"] = [{"kind": "kill", "lasts": "game"}]
    with pytest.raises(RulesetError, match="lasts"):
        parse_catalog(bad, "t")


def test_every_submission_settles_each_one_in_order_instead_of_the_last() -> None:
    two = [Action("P1", "钉", ("P3",)), Action("P1", "钉", ("P4",))]
    last = settle(parse_catalog(night(), "t"), table(), two)
    assert marks(last) == [("钉", "P4", 3)]  # default: 以最后一条私信为准
    each = settle(parse_catalog(night(every_submission=True), "t"), table(), two)
    assert marks(each) == [("钉", "P3", 3), ("钉", "P4", 3)]


def _aim(board: Board, use: Use, target: str) -> str | None:
    """The toy's clause: what is used on P4 takes on nobody (绝对防御)."""
    return None if target == "P4" else target


def _nothing(flow: Flow, step: Step, actions: Sequence[Action]) -> None:
    return None


HOOKS = GameHooks(steps={"无": _nothing}, aim=_aim, why={"aim": "测试用：P4 不受技能影响"})


def test_once_per_target_counts_the_player_chosen_where_the_effect_takes_on_nobody(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(importlib.import_module("tracker.engine.night.settle"), "hooks_for", lambda _id: HOOKS)
    cat = parse_catalog(night(once_per_target="钉已选择"), "t")
    res = settle(cat, table(), [Action("P1", "钉", ("P4",))])
    assert marks(res) == [] and res.state_after["钉已选择"] == ["P4"]

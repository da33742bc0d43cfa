"""Generic keys a post's night needs beyond the first vocabulary, on a toy game (no hook package):
an ``inspect`` answer for everything ``words`` does not name (``otherwise``), the log in the post's
words (``log``), a ``block`` that refuses rather than voids (``refuses``), actors out earlier in the
settlement who no longer act (``out_do_not_act``), a game's ``aim`` hook, and a limited skill whose
``uses`` key is not written yet counting from ``count``."""

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

SEAL = "封印 —— 选择一名玩家，使其在当晚无法发动任何技能"


def night(out_do_not_act: bool = False, refuses: bool = True) -> dict[str, Any]:
    block: dict[str, Any] = {"kind": "block", "voids": ["*"]}
    if refuses:
        block["refuses"] = "{target}被{actor}封印，当晚无法发动任何技能"
    return {
        "ruleset": "keys-toy",
        "out_do_not_act": out_do_not_act,
        "steps": [{"n": "1", "skills": ["封印"]}, {"n": "2", "skills": ["枪击"]}, {"n": "3", "skills": ["查验"]}],
        "skills": [
            {"name": "封印", "roles": ["巫师"], "targets": 1, "uses": "封印", "kind": "限定", "clause": SEAL,
             "effects": [block]},
            {"name": "枪击", "roles": ["猎手"], "targets": 1, "effects": [{"kind": "kill"}]},
            {"name": "查验", "roles": ["先知"], "targets": 1,
             "effects": [{"kind": "inspect", "words": {"村民": "<好人>"}, "otherwise": "<坏人>",
                          "text": "查验：{target} {answer}", "log": "{step} 先知{actor}查验{target} → {answer}"}]},
        ],
    }


def table() -> Table:
    return Table(players={"P1": Seat("P1", "巫师", "狼人"), "P2": Seat("P2", "先知", "村民"),
                          "P3": Seat("P3", "猎手", "村民"), "P4": Seat("P4", "村民", "村民")}, state={}, night=2)


def acts(*rows: tuple[str, str, str]) -> list[Action]:
    return [Action(a, s, (t,), index=i) for i, (a, s, t) in enumerate(rows)]


def told(res: Any, who: str) -> list[str]:
    return [f.content for f in res.feedback if f.to == who]


def test_inspect_says_otherwise_for_what_words_do_not_name_and_logs_in_the_posts_words() -> None:
    cat = parse_catalog(night(), "toy.toml")
    res = settle(cat, table(), acts(("P2", "查验", "P1")))
    assert told(res, "P2") == ["查验：P1 <坏人>"]
    assert "(3) 先知P2查验P1 → <坏人>" in res.log
    res = settle(cat, table(), acts(("P2", "查验", "P4")))
    assert told(res, "P2") == ["查验：P4 <好人>"]


def test_otherwise_belongs_to_inspect_only() -> None:
    bad = night()
    bad["skills"][1]["effects"] = [{"kind": "kill", "otherwise": "x"}]
    with pytest.raises(RulesetError, match="otherwise"):
        parse_catalog(bad, "toy.toml")


def test_a_block_that_refuses_lists_the_blocked_submission_with_the_reason_and_the_blockers_clause() -> None:
    res = settle(parse_catalog(night(), "toy.toml"), table(), acts(("P1", "封印", "P2"), ("P2", "查验", "P1")))
    assert [(r.actor, r.skill, r.reason, r.clause) for r in res.rejected] == [
        ("P2", "查验", "P2被P1封印，当晚无法发动任何技能", SEAL)]
    assert told(res, "P2") == []


def test_a_block_without_refuses_is_refused_in_the_engines_words() -> None:
    res = settle(parse_catalog(night(refuses=False), "toy.toml"), table(),
                 acts(("P1", "封印", "P2"), ("P2", "查验", "P1")))
    assert [(r.actor, r.reason) for r in res.rejected] == [("P2", "P2被P1<封印>封锁，<查验>无效")]
    assert told(res, "P2") == []


def test_a_limited_skill_without_its_uses_key_is_spent_from_count() -> None:
    res = settle(parse_catalog(night(), "toy.toml"), table(), acts(("P1", "封印", "P4")))
    assert res.state_after["P1.封印"] == 0
    assert res.table_after is not None and res.table_after.players["P1"].uses["封印"] == 0


def test_an_actor_out_earlier_in_the_settlement_does_not_act_when_the_night_says_so() -> None:
    rows = (("P3", "枪击", "P2"), ("P2", "查验", "P1"))
    res = settle(parse_catalog(night(out_do_not_act=True), "toy.toml"), table(), acts(*rows))
    assert [d.player for d in res.deaths] == ["P2"] and told(res, "P2") == []
    assert "(3) P2已出局，<查验>不再发动" in res.log
    res = settle(parse_catalog(night(), "toy.toml"), table(), acts(*rows))  # default: settled at its step
    assert told(res, "P2") == ["查验：P1 <坏人>"]


def _aim(board: Board, use: Use, target: str) -> str | None:
    """The toy's clause: what is used on P4 lands on P3; what is used on P1 takes on nobody."""
    if target == "P1":
        board.note(f"{use.step} P1无视<{use.skill.name}>")
        return None
    return "P3" if target == "P4" else target


def _nothing(flow: Flow, step: Step, actions: Sequence[Action]) -> None:
    return None


HOOKS = GameHooks(steps={"无": _nothing}, aim=_aim, why={"aim": "测试用：转移目标"})


@pytest.fixture
def aimed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(importlib.import_module("tracker.engine.night.settle"), "hooks_for", lambda _id: HOOKS)


@pytest.mark.usefixtures("aimed")
def test_the_games_aim_hook_moves_an_effect_or_voids_it() -> None:
    cat = parse_catalog(night(), "toy.toml")
    res = settle(cat, table(), acts(("P2", "查验", "P4")))
    assert told(res, "P2") == ["查验：P3 <好人>"] and "(3) 先知P2查验P3 → <好人>" in res.log
    res = settle(cat, table(), acts(("P2", "查验", "P1")))
    assert told(res, "P2") == [] and "(3) P1无视<查验>" in res.log

"""What an exit sets off does not depend on who settled the exit, and a skill may take out its own
user — on a toy game: a hook step that takes a player out (``board.kill``) sets off his ``trigger``
skill as an effect's exit does (M19's exits are its hook steps'), and a ``kill`` with ``to = "actor"``
on a submission without targets is the actor going out himself (M19 幼狼<牺牲> "幼狼可以主动出局")."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.catalog import Step, parse_catalog
from tracker.engine.night.flow import Flow
from tracker.engine.night.games import GameHooks
from tracker.engine.night.model import Action, Seat, Table

SHOT = "猎手出局时可以开枪带走一名玩家"
SELF = "勇士可以主动出局"


def night() -> dict[str, Any]:
    return {
        "ruleset": "exits-toy",
        "steps": [{"n": "1", "hook": "审判", "skills": ["审判"]}, {"n": "2", "skills": ["献身"]}],
        "skills": [
            {"name": "审判", "roles": ["法官"], "targets": 1},
            {"name": "开枪", "roles": ["猎手"], "phase": "any", "kind": "触发", "targets": 1, "clause": SHOT,
             "trigger": {"on": "exit", "unless": ["献身"]}, "effects": [{"kind": "kill"}]},
            {"name": "献身", "roles": ["勇士", "猎手"], "targets": 0, "clause": SELF,
             "effects": [{"kind": "kill", "to": "actor", "cause": "献身（{actor}主动出局）",
                          "log": "{step} {actor}<献身>：主动出局"}]},
        ],
    }


def table() -> Table:
    return Table(players={"P1": Seat("P1", "法官", "村民"), "P2": Seat("P2", "猎手", "村民"),
                          "P3": Seat("P3", "勇士", "狼人"), "P4": Seat("P4", "村民", "村民")}, state={}, night=1)


def _judge(flow: Flow, step: Step, actions: Sequence[Action]) -> None:
    """The toy's hook step: the judge's target goes out, by the game's own code."""
    for a in actions:
        flow.board.kill(a.targets[0], "审判")


HOOKS = GameHooks(steps={"审判": _judge}, why={"审判": "测试用：钩子步骤让玩家出局"})


@pytest.fixture(autouse=True)
def hooked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(importlib.import_module("tracker.engine.night.settle"), "hooks_for", lambda _id: HOOKS)


def acts(*rows: tuple[str, str, tuple[str, ...]]) -> list[Action]:
    return [Action(a, s, t, index=i) for i, (a, s, t) in enumerate(rows)]


def test_an_exit_a_hook_step_settles_sets_off_the_players_trigger() -> None:
    res = settle(parse_catalog(night(), "toy.toml"), table(), acts(("P1", "审判", ("P2",)), ("P2", "开枪", ("P3",))))
    assert [(d.player, d.cause) for d in res.deaths] == [("P2", "审判"), ("P3", "开枪")]
    assert res.rejected == []


def test_a_kill_on_the_actor_takes_out_who_submits_it_without_a_target() -> None:
    res = settle(parse_catalog(night(), "toy.toml"), table(), acts(("P3", "献身", ())))
    assert [(d.player, d.cause) for d in res.deaths] == [("P3", "献身（P3主动出局）")]
    assert "(2) P3<献身>：主动出局" in res.log and not any("不选择目标" in line for line in res.log)


def test_the_actors_own_exit_sets_off_his_trigger_unless_its_cause_forbids_it() -> None:
    res = settle(parse_catalog(night(), "toy.toml"), table(), acts(("P2", "献身", ()), ("P2", "开枪", ("P3",))))
    assert [d.player for d in res.deaths] == ["P2"]
    assert [(r.actor, r.skill) for r in res.rejected] == [("P2", "开枪")]


def badge(asks: str | None = "警徽：请指定继任者") -> dict[str, Any]:
    trigger: dict[str, Any] = {"on": "exit", "unless": ["献身"]}
    if asks is not None:
        trigger["asks"] = asks
    doc = night()
    doc["skills"].append({"name": "移交", "tag": "队长", "phase": "any", "targets": 1, "clause": "队长出局后须指定继任者",
                          "trigger": trigger, "effects": [{"kind": "mark", "tag": "队长"}]})
    return doc


def captain() -> Table:
    t = table()
    t.players["P2"].tags.append("队长")
    return t


def test_a_trigger_that_asks_tells_the_holder_and_waits_for_his_choice() -> None:
    res = settle(parse_catalog(badge(), "toy.toml"), captain(), acts(("P1", "审判", ("P2",))))
    assert [(f.to, f.content) for f in res.feedback] == [("P2", "警徽：请指定继任者")]
    assert [(p.effect, p.player) for p in res.pending] == [("警徽：请指定继任者", "P2")]
    res = settle(parse_catalog(badge(None), "toy.toml"), captain(), acts(("P1", "审判", ("P2",))))
    assert res.feedback == [] and res.pending == []
    res = settle(parse_catalog(badge(), "toy.toml"), captain(), acts(("P2", "献身", ())))  # unless: no asking
    assert res.feedback == [] and res.pending == []


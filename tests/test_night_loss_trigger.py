"""``trigger.on = "loss"`` + ``losers`` and the ``gain`` effect's ``again`` on a toy game: a faction judged lost sets off a
skill by itself, its living holders each coming to hold another skill (``uses``), a ``message`` ``to = "factions"`` told
once to a faction (M19 寡妇刀 "若情侣属于【黑情侣阵营】，当【狼人阵营】优先判负后，情侣获得技能<杀人>。此事件发生时会通知黑情侣
阵营"); a loss already recorded at the start gives the holders who lack it the skill, told nothing. M19's own case:
test_widow_knife_* in test_night_luoluo_m19.py."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.coverage import coverage
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.engine.ruleset_model import EffectT, TriggerT

NIGHT: dict[str, Any] = {
    "ruleset": "loss-toy",
    "steps": [{"n": "1", "skills": ["认输"]}, {"n": "2", "skills": ["刀"]}],
    "skills": [
        {"name": "认输", "team": "导演", "phase": "passive", "effects": [{"kind": "concede", "factions": ["甲", "乙"]}]},
        {"name": "刀", "roles": ["刀客"], "targets": 1, "gained": True, "effects": [{"kind": "kill"}]},
        {"name": "余刀", "tags": ["伴"], "phase": "passive", "kind": "触发",
         "trigger": {"on": "loss", "losers": ["甲"], "forced": True},
         "effects": [
             {"kind": "gain", "again": "刀", "to": "actor", "when_actor": {"of": "faction", "values": ["乙"]},
              "text": "", "log": "余刀：{target}获得<{skill}>"},
             {"kind": "message", "to": "factions", "factions": ["乙"], "text": "余刀：甲阵营已判负", "log": ""}]},
    ],
}


def run(*acts: Action, state: dict[str, Any] | None = None) -> Settlement:
    players = {"P1": Seat("P1", "刀客", "甲"), "P2": Seat("P2", "村民", "乙", tags=["伴"]),
               "P3": Seat("P3", "村民", "乙"), "P4": Seat("P4", "村民", "丙", tags=["伴"]),
               "P5": Seat("P5", "村民", "乙", tags=["伴"], alive=False)}
    return settle(parse_catalog(NIGHT, "toy.toml"), Table(players=players, state=dict(state or {}), night=1),
                  [Action(a.actor, a.skill, a.targets, choice=a.choice, index=i) for i, a in enumerate(acts)])


def told(res: Settlement, to: str) -> list[str]:
    return [f.content for f in res.feedback if f.to == to]


def test_a_loss_gives_the_living_holders_of_the_faction_the_skill_and_tells_the_faction_once() -> None:
    res = run(Action("导演", "认输", choice="甲"))
    assert res.state_after["P2.刀"] is True and "余刀：P2获得<刀>" in res.log
    assert "P4.刀" not in res.state_after and "P5.刀" not in res.state_after  # 丙 is no 乙; P5 is out
    assert told(res, "P2") == told(res, "P3") == ["余刀：甲阵营已判负"] and told(res, "P4") == []
    assert res.table_after is not None and res.table_after.players["P2"].uses == {"刀": True}


def test_another_factions_loss_sets_off_nothing() -> None:
    res = run(Action("导演", "认输", choice="乙"))
    assert "P2.刀" not in res.state_after and res.feedback == []


def test_a_loss_recorded_before_the_settlement_gives_the_skill_at_the_start_untold() -> None:
    res = run(state={"判负阵营": ["甲"]})
    assert res.state_after["P2.刀"] is True and res.feedback == []
    res = run(state={"判负阵营": ["乙"]})
    assert "P2.刀" not in res.state_after


def test_loss_counts_as_data_and_needs_losers_and_forced() -> None:
    assert "余刀" in coverage(parse_catalog(NIGHT, "t"), None).by_data
    for bad in ({"on": "loss", "forced": True}, {"on": "loss", "losers": ["甲"]}, {"losers": ["甲"]},
                {"on": "loss", "losers": ["甲"], "forced": True, "unless": ["毒"]}):
        with pytest.raises(ValidationError, match="loss"):
            TriggerT.model_validate(bad)
    with pytest.raises(ValidationError, match="factions"):
        EffectT.model_validate({"kind": "message", "to": "factions", "text": "x"})

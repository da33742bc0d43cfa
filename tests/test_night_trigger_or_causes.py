"""An exit trigger set off by a cause *or* by its user's faction, landing on a whole faction, on a toy game: the keys
213 村镇之殇 is written with — "长老因投票或[实际阵营]为村民阵营的角色的技能出局时，所有[实际阵营]为村民阵营的角色
永久获得状态[净化]。状态[净化]：角色会得知，……[强制]技能也会失效". ``trigger.or_causes`` (causes allowed whoever
dealt them, beside ``by_factions``), a team's cause read from its submission's members, several causes at once
(joined by ``；``), a cause's detail followed by more words; a ``status`` with ``to = "factions"`` and ``text``; an
``at = "now"`` trigger its holder's ``voided_by`` status voids. 213's own cases: the 长老 tests in
test_night_sanguo_213.py."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from pydantic import ValidationError
from toy_rules import toy_rules

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.engine.ruleset_model import EffectT, TriggerT

RULES = toy_rules("or-causes-toy", "哀悼测试局", 3, ["人", "鬼"], [
    {"name": "老人", "faction": "人"}, {"name": "刀客", "faction": "人"}, {"name": "村夫", "faction": "人"},
    {"name": "尸群", "faction": "鬼", "count": 0},
    {"name": "夜鬼", "faction": "鬼", "also_factions": ["人"], "count": 0},
], win="人")

GRIEF = "哀悼：你永久获得状态[哀]"
NIGHT: dict[str, Any] = {
    "ruleset": "or-causes-toy",
    "steps": [{"n": "1", "skills": ["刀", "咬", "双杀"]}],
    "skills": [
        {"name": "刀", "roles": ["刀客", "夜鬼"], "targets": 1,
         "effects": [{"kind": "kill", "cause": "刀（{actor}），[致死]"}]},
        {"name": "咬", "roles": ["尸群"], "team": "尸群", "targets": 1, "effects": [{"kind": "kill", "cause": "咬（尸群）"}]},
        {"name": "双杀", "roles": ["村夫"], "targets": 1, "effects": [{"kind": "kill", "cause": "咬（尸群）；刀（{actor}）"}]},
        {"name": "放逐", "team": "放逐投票", "targets": 1, "effects": [{"kind": "kill"}]},
        # 村镇之殇-like: out by the vote, or by a 人's skill → every living 人 gets 哀 for good, and is told
        {"name": "哀悼", "roles": ["老人"], "phase": "passive", "voided_by": ["哀"],
         "trigger": {"at": "now", "forced": True, "by_factions": ["人"], "or_causes": ["放逐"]},
         "effects": [{"kind": "status", "status": "哀", "to": "factions", "factions": ["人"], "text": GRIEF}]},
    ],
}


def run(act: Action, roles: tuple[str, ...] = ("刀客", "尸群", "村夫"), night: dict[str, Any] = NIGHT,
        grieving: bool = False) -> Settlement:
    players = {"P1": Seat("P1", "老人", "人", status=["哀"] if grieving else [])}
    for i, role in enumerate(roles, 2):
        found = RULES.role(role)
        players[f"P{i}"] = Seat(f"P{i}", role, found.faction if found is not None else "人")
    return settle(parse_catalog(night, "toy.toml"), Table(players=players, state={}, night=1), [act], ruleset=RULES)


def grieved(res: Settlement) -> list[str]:
    return sorted(f.to for f in res.feedback if f.content == GRIEF)


def test_the_vote_sets_it_off_whoever_cast_it() -> None:
    res = run(Action("放逐投票", "放逐", ("P1",)))
    assert grieved(res) == ["P2", "P4"]  # the living 人: 刀客, 村夫 (not the 尸群, nor the 老人 out)
    assert res.state_after["P2.status"] == ["哀"] and "P3.status" not in res.state_after
    without = copy.deepcopy(NIGHT)
    del without["skills"][4]["trigger"]["or_causes"]
    assert grieved(run(Action("放逐投票", "放逐", ("P1",)), night=without)) == []


def test_a_cause_with_words_after_its_detail_names_its_user() -> None:
    """刀（P2），[致死]: the user is P2, a 人 — the words after the detail are no part of his name."""
    assert grieved(run(Action("P2", "刀", ("P1",)))) == ["P2", "P4"]


def test_a_teams_cause_is_its_submissions_members() -> None:
    """咬（尸群） by a 尸群 team whose member is a 人 now (converted) is a 人's skill; the roles alone would say 鬼."""
    assert grieved(run(Action("尸群(P3)", "咬", ("P1",)))) == []
    players = {"P1": Seat("P1", "老人", "人"), "P2": Seat("P2", "尸群", "人"), "P3": Seat("P3", "村夫", "人")}
    res = settle(parse_catalog(NIGHT, "toy.toml"), Table(players=players, state={}, night=1),
                 [Action("尸群(P2)", "咬", ("P1",))], ruleset=RULES)
    assert res.deaths[0].cause == "咬（尸群）" and grieved(res) == ["P2", "P3"]


def test_several_causes_at_once_set_it_off_when_any_does() -> None:
    """咬（尸群）；刀（P4）: the 尸群's bite is no 人's, the 村夫's blade is."""
    assert grieved(run(Action("P4", "双杀", ("P1",)))) == ["P2", "P4"]


def test_to_factions_counts_also_factions() -> None:
    """夜鬼 counts in 人 too (``also_factions``), so the 人-wide status lands on him."""
    assert grieved(run(Action("P2", "刀", ("P1",)), roles=("刀客", "夜鬼", "尸群"))) == ["P2", "P3"]


def test_its_holders_voiding_status_voids_it() -> None:
    """状态[净化]："[强制]技能也会失效": a 老人 already 哀 sets nothing off."""
    assert grieved(run(Action("P2", "刀", ("P1",)), grieving=True)) == []


def test_the_keys_go_with_what_reads_them() -> None:
    with pytest.raises(ValidationError, match="or_causes"):
        TriggerT.model_validate({"forced": True, "or_causes": ["放逐"]})
    with pytest.raises(ValidationError, match="factions"):
        EffectT.model_validate({"kind": "status", "status": "哀", "to": "factions"})
    with pytest.raises(ValidationError, match="factions"):
        EffectT.model_validate({"kind": "status", "status": "哀", "factions": ["人"]})
    with pytest.raises(ValidationError, match="factions"):
        EffectT.model_validate({"kind": "kill", "to": "factions", "factions": ["人"]})

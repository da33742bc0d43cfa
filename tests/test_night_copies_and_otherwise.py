"""A convert that ``copies`` the chosen player's role onto its user, ``unknowing`` (he still believes his former
role), the post's 否则 between effects (``unless_before``), a status compared ``of = "status"`` that another status
cancels (``status_cancels``), and an effect that only records a choice (``note``).

M160 模仿者【克隆】 "选择一名玩家。如果他属于【善良阵营】且你没有【醉酒】，你变为与他相同的身份……如果他属于【邪恶阵营】或你
已经【醉酒】，你【中毒】"; ① "模仿者并不会知道自己模仿的角色是什么"; "【清醒】……优先级高于【醉酒】与【中毒】"; ④ a 恶魔
who believes he is the 模仿者 only chooses. A toy game settled by the generic engine alone; M160's own cases are in
test_night_gourmet_m160.py and test_night_clauses.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.errors import RulesetError

DRUNK = {"of": "status", "values": ["醉酒"]}
NIGHT: dict[str, Any] = {
    "ruleset": "copies-toy",
    "status_cancels": {"清醒": ["醉酒"]},
    "steps": [{"n": "1", "skills": ["醒酒"]}, {"n": "2", "skills": ["仿效"]}],
    "skills": [
        {"name": "醒酒", "roles": ["酒保"], "targets": 1,
         "effects": [{"kind": "status", "status": "清醒", "for_phase": True, "log": ""}]},
        {"name": "仿效", "roles": ["仿者"], "targets": 1, "effects": [
            {"kind": "convert", "to": "actor", "copies": True, "unknowing": True, "cause": "仿效成功", "by": "holders",
             "when_target": {"of": "faction", "values": ["好人"]}, "unless_actor": DRUNK,
             "log": "{step} 仿效：{actor}选择{chosen} → 变为{role}"},
            {"kind": "status", "status": "中毒", "to": "actor", "unless_before": True, "by": "holders",
             "when_target": {"of": "faction", "values": ["坏人"]}, "log": "{step} 仿效：{chosen}是坏人 → {actor}中毒"},
            {"kind": "status", "status": "中毒", "to": "actor", "unless_before": True, "by": "holders",
             "when_actor": DRUNK, "log": "{step} 仿效：{actor}醉酒 → {actor}中毒"},
            {"kind": "note", "by": "others", "log": "{step} 仿效：{actor}只是自以为仿者，选择了{chosen}"},
        ]},
    ],
}


def _run(*actions: Action, status: tuple[str, ...] = (), believes: bool = False) -> Settlement:
    players = {
        "P1": Seat("P1", "仿者", "好人", status=list(status), fields={"type": "平民"}),
        "P2": Seat("P2", "医生", "好人", fields={"type": "神职"}),
        "P3": Seat("P3", "杀手", "坏人", fields={"type": "狼"} | ({"believes": "仿者"} if believes else {})),
        "P4": Seat("P4", "酒保", "好人"),
    }
    acts = [Action(a.actor, a.skill, a.targets, index=i) for i, a in enumerate(actions)]
    return settle(parse_catalog(NIGHT, "toy.toml"), Table(players=players, state={}, night=1), acts)


def test_the_user_becomes_the_chosen_role_and_group_still_believing_his_own() -> None:
    res = _run(Action("P1", "仿效", ("P2",)))
    assert [(c.player, c.role_from, c.role_to, c.cause) for c in res.conversions] == [("P1", "仿者", "医生", "仿效成功")]
    assert res.state_after["P1.believes"] == "仿者" and "P1.status" not in res.state_after
    assert res.table_after is not None and res.table_after.players["P1"].fields["type"] == "神职"  # the group copied too
    assert "(2) 仿效：P1选择P2 → 变为医生" in res.log and not any("中毒" in line for line in res.log)


def test_otherwise_takes_the_first_branch_that_holds_and_only_it() -> None:
    evil = _run(Action("P1", "仿效", ("P3",)), status=("醉酒",))  # both reasons hold: the first one listed says it
    assert evil.conversions == [] and evil.state_after["P1.status"] == ["醉酒", "中毒"]
    assert "(2) 仿效：P3是坏人 → P1中毒" in evil.log and not any("P1醉酒 →" in line for line in evil.log)
    drunk = _run(Action("P1", "仿效", ("P2",)), status=("醉酒",))
    assert drunk.conversions == [] and "(2) 仿效：P1醉酒 → P1中毒" in drunk.log


def test_a_status_another_cancels_is_not_held() -> None:
    res = _run(Action("P4", "醒酒", ("P1",)), Action("P1", "仿效", ("P2",)), status=("醉酒",))
    assert [c.role_to for c in res.conversions] == ["医生"] and "P1.status" not in res.state_after


def test_a_user_who_only_believes_he_holds_it_has_his_choice_noted() -> None:
    res = _run(Action("P3", "仿效", ("P2",)), believes=True)
    assert res.conversions == [] and "(2) 仿效：P3只是自以为仿者，选择了P2" in res.log
    assert not any(k.endswith(".status") or k.endswith(".believes") for k in res.state_after)


@pytest.mark.parametrize("effect", [{"kind": "convert", "copies": True},
                                    {"kind": "convert", "to": "actor", "copies": True, "role": "医生"},
                                    {"kind": "note"}])
def test_copies_needs_the_user_and_no_role_and_a_note_needs_its_line(effect: dict[str, Any]) -> None:
    bad = {**NIGHT, "skills": [NIGHT["skills"][0], {**NIGHT["skills"][1], "effects": [effect]}]}
    with pytest.raises(RulesetError):
        parse_catalog(bad, "toy.toml")

"""Two generic keys on a toy night settled by the generic engine alone: effect ``bench`` and status ``listed``.

The shared red card where a post benches instead of taking the player out (107 "玩家受到红牌判罚时进入挂机状态
（称为“红牌罚下”）", M160 "被红牌罚下的角色自动进入挂机状态，并触发【哥谭】成为【丑角】"): 挂机, his later
submissions refused in the phases after, 判负 when the director's ``choice`` says so; and a status recorded in a ``state`` list
its readers read (M160 丑角).
"""

from __future__ import annotations

from typing import Any

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.coverage import coverage
from tracker.engine.night.model import Action, Seat, Settlement, Table

NIGHT: dict[str, Any] = {
    "ruleset": "bench-toy",
    "steps": [{"n": "0", "phases": ["night", "day"], "skills": ["红牌罚下"]}, {"n": "1", "skills": ["查验"]}],
    "skills": [
        {"name": "红牌罚下", "team": "导演", "phase": "passive", "targets": 1, "target_alive_or_dead": True,
         "every_submission": True,
         "effects": [{"kind": "bench"}, {"kind": "status", "status": "丑角", "listed": "丑角"}],
         "clause": "被红牌罚下的角色自动进入挂机状态"},
        {"name": "查验", "roles": ["预言家"], "targets": 1, "effects": [{"kind": "inspect"}]},
    ],
}


def _run(*acts: Action, state: dict[str, Any] | None = None, day: bool = False) -> Settlement:
    players = {"P1": Seat("P1", "预言家", "好人"), "P2": Seat("P2", "狼人", "狼人"), "P3": Seat("P3", "村民", "好人")}
    table = Table(players=players, state=dict(state or {}), night=None if day else 2, day=2 if day else None)
    return settle(parse_catalog(NIGHT, "toy.toml"), table, [Action(a.actor, a.skill, a.targets, a.choice, index=i)
                                                            for i, a in enumerate(acts)])


def test_bench_keeps_the_player_in_and_listed_records_the_status() -> None:
    res = _run(Action("导演", "红牌罚下", ("P2",)), Action("导演", "红牌罚下", ("P3",)), state={"丑角": ["P9"]})
    assert res.deaths == [] and res.state_after["P2.status"] == ["挂机", "丑角"]
    assert res.state_after["丑角"] == ["P9", "P2", "P3"]  # every red card of the phase counts
    assert any("P2进入挂机状态（被红牌罚下的角色自动进入挂机状态）" in line for line in res.log)
    assert "判负阵营" not in res.state_after


def test_judged_lost_on_the_directors_choice_and_a_day_card_benches_too() -> None:
    res = _run(Action("导演", "红牌罚下", ("P1",), "判负"))
    assert res.deaths == [] and res.state_after["判负阵营"] == ["好人"]
    day = _run(Action("导演", "红牌罚下", ("P2",)), day=True)
    assert day.state_after["P2.status"] == ["挂机", "丑角"]


def test_a_red_card_that_benches_is_data() -> None:
    assert "红牌罚下" in coverage(parse_catalog(NIGHT, "toy.toml"), None).by_data


def test_a_choice_of_bu_panfu_does_not_judge_the_faction_lost() -> None:
    """不判负 contains 判负: the card read it as the director's 判负 and lost the faction."""
    res = _run(Action("导演", "红牌罚下", ("P1",), "不判负"))
    assert "判负阵营" not in res.state_after
    judged = _run(Action("导演", "红牌罚下", ("P1",), "判负"))
    assert judged.state_after["判负阵营"] == ["好人"]
    assert any("好人阵营判负" in line for line in judged.log)  # through win.lose, as the 出局 red card's 判负

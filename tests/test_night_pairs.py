"""``pairs``, ``to = "partner"``, skill ``tags`` and trigger ``at = "now"``: a bond between two players that takes
the other out at once.

M19 殉情<强制> "情侣中若有一人出局，另一人立即出局" — and the 忠犬 clause "当主人出局时，忠犬可以存活至下一讨论日夜晚
结束方发动<殉情>出局", so the 主人's mark does not carry it. A toy game settled by the generic engine alone; M19's
own cases (攻/受, 主人/忠犬, red cards, 遇难 after 殉情) are in test_night_luoluo_m19.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.coverage import coverage
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.errors import RulesetError

BOND = {"name": "殉", "tags": ["甲", "乙", "犬"], "phase": "passive", "kind": "强制",
        "trigger": {"forced": True, "at": "now"},
        "effects": [{"kind": "kill", "to": "partner", "cause": "殉（{actor}出局）", "log": ""}]}
NIGHT: dict[str, Any] = {
    "ruleset": "pairs-toy",
    "pairs": [["甲", "乙"], ["主", "犬"]],
    "steps": [{"n": "1", "skills": ["枪"]}, {"n": "2", "skills": ["查"]}],
    "skills": [
        {"name": "枪", "roles": ["猎人"], "targets": 1, "effects": [{"kind": "kill"}]},
        {"name": "查", "roles": ["预言家"], "targets": 1, "effects": [{"kind": "inspect"}]},
        BOND,
    ],
}


def _run(*actions: Action, night: dict[str, Any] = NIGHT, dead: tuple[str, ...] = ()) -> Settlement:
    players = {"P01": Seat("P01", "猎人", "村民"), "P02": Seat("P02", "猎人", "村民"),
               "P03": Seat("P03", "村民", "村民", tags=["甲"]), "P04": Seat("P04", "村民", "村民", tags=["乙"]),
               "P05": Seat("P05", "村民", "村民", tags=["主"]), "P06": Seat("P06", "村民", "村民", tags=["犬"]),
               "P07": Seat("P07", "预言家", "村民")}
    for d in dead:
        players[d].alive = False
    table = Table(players=players, state={}, night=2)
    acts = [Action(a.actor, a.skill, a.targets, index=i) for i, a in enumerate(actions)]
    return settle(parse_catalog(night, "toy.toml"), table, acts)


def test_the_other_end_goes_out_inside_the_exit() -> None:
    """Out at once: the second shot of the same step finds the partner already out."""
    res = _run(Action("P01", "枪", ("P03",)), Action("P02", "枪", ("P04",)))
    assert [(d.player, d.cause) for d in res.deaths] == [("P03", "枪"), ("P04", "殉（P03出局）")]
    assert [r.actor for r in res.rejected] == ["P02"]


def test_after_the_step_without_at_now() -> None:
    """The same bond without ``at = "now"`` acts after the step: the second shot still takes the partner."""
    late = {**NIGHT, "skills": [*NIGHT["skills"][:2], {**BOND, "trigger": {"forced": True}}]}
    res = _run(Action("P01", "枪", ("P03",)), Action("P02", "枪", ("P04",)), night=late)
    assert [(d.player, d.cause) for d in res.deaths] == [("P03", "枪"), ("P04", "枪")]


def test_a_mark_that_does_not_carry_it_sets_nothing_off() -> None:
    res = _run(Action("P01", "枪", ("P05",)))
    assert [d.player for d in res.deaths] == ["P05"]
    res = _run(Action("P01", "枪", ("P06",)))
    assert [(d.player, d.cause) for d in res.deaths] == [("P06", "枪"), ("P05", "殉（P06出局）")]


def test_a_partner_already_out_or_none_is_nobody() -> None:
    res = _run(Action("P01", "枪", ("P03",)), dead=("P04",))
    assert [d.player for d in res.deaths] == ["P03"] and not any("P04" in line for line in res.log)
    res = _run(Action("P01", "枪", ("P07",)))
    assert [d.player for d in res.deaths] == ["P07"]


def test_the_partner_is_the_living_holder_of_the_other_end() -> None:
    """Marks stay on players out: a bond set anew (M19: the director names new lovers) binds the living ones."""
    players = {"P01": Seat("P01", "猎人", "村民"), "P02": Seat("P02", "村民", "村民", alive=False, tags=["乙"]),
               "P03": Seat("P03", "村民", "村民", tags=["甲"]), "P04": Seat("P04", "村民", "村民", tags=["乙"])}
    table = Table(players=players, state={}, night=2)
    res = settle(parse_catalog(NIGHT, "toy.toml"), table, [Action("P01", "枪", ("P03",), index=0)])
    assert [(d.player, d.cause) for d in res.deaths] == [("P03", "枪"), ("P04", "殉（P03出局）")]


def test_nobody_submits_it_and_it_counts_as_data() -> None:
    res = _run(Action("P03", "殉"))
    assert [r.skill for r in res.rejected] == ["殉"]
    assert "殉" in coverage(parse_catalog(NIGHT, "toy.toml"), None).by_data


def test_at_now_needs_forced_and_a_pair_has_two_ends() -> None:
    with pytest.raises(RulesetError, match="now"):
        parse_catalog({**NIGHT, "skills": [*NIGHT["skills"][:2], {**BOND, "trigger": {"at": "now"}}]}, "toy.toml")
    with pytest.raises(RulesetError, match="pairs"):
        parse_catalog({**NIGHT, "pairs": [["甲"]]}, "toy.toml")


# -- reacts then = "partner": M19 主人 "夜间行动时行使于忠犬身上的全部有效技能全部为主人所承受"
BEAR = {"name": "代", "tag": "犬", "phase": "passive", "kind": "被动",
        "reacts": [{"then": "partner", "phases": ["night"], "log": "{holder}身上的<{skill}>由{target}承受"}]}
BORNE: dict[str, Any] = {**NIGHT, "steps": [*NIGHT["steps"], {"n": "D", "phase": "day", "skills": ["查"]}],
                         "skills": [*NIGHT["skills"][:1], {**NIGHT["skills"][1], "phases": ["night", "day"]}, BOND,
                                    BEAR]}


def _told(res: Settlement) -> list[str]:
    return [f.content for f in res.feedback if f.to == "P07"]


def test_a_cast_on_the_marked_end_lands_on_the_partner() -> None:
    res = _run(Action("P07", "查", ("P06",)), night=BORNE)
    assert _told(res) == ["P05：村民"] and "(2) P06身上的<查>由P05承受" in res.log


def test_only_in_its_phases_and_only_on_a_living_partner() -> None:
    players = {"P05": Seat("P05", "村民", "村民", tags=["主"]), "P06": Seat("P06", "村民", "狼人", tags=["犬"]),
               "P07": Seat("P07", "预言家", "村民")}
    day = Table(players=players, state={}, night=None, day=2, phase="day")
    res = settle(parse_catalog(BORNE, "toy.toml"), day, [Action("P07", "查", ("P06",), phase="day", index=0)])
    assert _told(res) == ["P06：狼人"]
    res = _run(Action("P07", "查", ("P06",)), night=BORNE, dead=("P05",))
    assert [f.content for f in res.feedback if f.to == "P07"] == ["P06：村民"]


def test_a_reaction_with_partner_counts_as_data() -> None:
    assert "代" in coverage(parse_catalog(BORNE, "toy.toml"), None).by_data

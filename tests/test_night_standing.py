"""A protection its holder holds by itself: ``standing`` protect, with ``from_factions``, or held as a
``status`` and spent ``once``.

213 主宰黑夜<强制> "在[夜晚]和[晨曦]阶段，获得仅针对村民阵营发动的技能的[不死]状态": nobody submits it;
the 恶魔 simply has [不死] against damage dealt by 村民阵营 players, in the skill's ``phases``, and not
while [净化] ("[强制]技能也会失效", ``voided_by``). A toy game settled by the generic engine alone;
213's own cases (毒药, 猎人<报复> at 晨曦, 决斗 at 正午) are in test_night_sanguo_213.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.errors import RulesetError

DARK = {"name": "黑夜", "roles": ["恶魔"], "phase": "passive", "phases": ["night"], "kind": "强制",
        "voided_by": ["净化"],
        "effects": [{"kind": "protect", "standing": True, "strength": 5, "stops": ["*"], "from_factions": ["村民"]}]}
NIGHT: dict[str, Any] = {
    "ruleset": "standing-toy",
    "steps": [{"n": "1", "skills": ["毒药", "杀人"]}, {"n": "2", "resolve": True}],
    "skills": [
        {"name": "毒药", "roles": ["女巫"], "phases": ["night", "day"], "targets": 1,
         "effects": [{"kind": "damage", "strength": 2}]},
        {"name": "杀人", "team": "狼群", "roles": ["狼人"], "targets": 1, "effects": [{"kind": "damage"}]},
        DARK,
    ],
}


def _run(*actions: Action, status: tuple[str, ...] = (), night: int | None = 2, phase: str | None = None,
         ) -> Settlement:
    players = {"P01": Seat("P01", "女巫", "村民"), "P02": Seat("P02", "狼人", "狼人"),
               "P03": Seat("P03", "恶魔", "狼人", status=list(status)), "P04": Seat("P04", "村民", "村民")}
    table = Table(players=players, state={}, night=night, day=None if night is not None else 2, phase=phase)
    acts = [Action(a.actor, a.skill, a.targets, phase=a.phase, index=i) for i, a in enumerate(actions)]
    return settle(parse_catalog(NIGHT, "toy.toml"), table, acts)


def test_a_standing_protection_stops_damage_of_the_named_faction() -> None:
    res = _run(Action("P01", "毒药", ("P03",)))
    assert res.deaths == [] and [(s.player, s.reason) for s in res.survivals] == [("P03", "P03<黑夜>")]


def test_damage_of_another_faction_goes_through() -> None:
    assert [d.player for d in _run(Action("狼群", "杀人", ("P03",))).deaths] == ["P03"]


def test_a_voiding_status_takes_it_away() -> None:
    assert [d.player for d in _run(Action("P01", "毒药", ("P03",)), status=("净化",)).deaths] == ["P03"]


def test_only_in_the_skills_phases() -> None:
    res = _run(Action("P01", "毒药", ("P03",), phase="day"), night=None, phase="day")
    assert [d.player for d in res.deaths] == ["P03"]


def test_nobody_submits_it() -> None:
    res = _run(Action("P03", "黑夜"))
    assert [(r.skill, r.reason) for r in res.rejected] == [("黑夜", "<黑夜>无需发动：技能效果自动结算")]


def test_standing_and_from_factions_are_protect_keys_only() -> None:
    bad = {**NIGHT, "skills": [*NIGHT["skills"][:2], {**DARK, "effects": [{"kind": "damage", "standing": True}]}]}
    with pytest.raises(RulesetError, match="standing"):
        parse_catalog(bad, "toy.toml")


# -- held as a status, spent once (213 长寿之命 "长老获得状态[守护]，持续至游戏结束。该守护状态抵消一次指杀后即失效。")
LONG = {"name": "长寿", "roles": ["长老"], "phase": "passive", "kind": "强制", "voided_by": ["净化"],
        "effects": [{"kind": "protect", "standing": True, "stops": ["杀人"], "status": "守护(长寿)", "once": True,
                     "clause": "该守护状态抵消一次指杀后即失效"}]}
GUARD = {"name": "守护", "roles": ["守卫"], "targets": 1, "effects": [{"kind": "protect", "stops": ["杀人"]}]}
ONCE: dict[str, Any] = {
    "ruleset": "once-toy",
    "steps": [{"n": "1", "skills": ["守护", "杀人", "毒药"]}, {"n": "2", "resolve": True}],
    "skills": [*NIGHT["skills"][:2], GUARD, LONG],
}


def _elder(*actions: Action, status: tuple[str, ...] = ("守护(长寿)",), night: int = 2) -> Settlement:
    players = {"P01": Seat("P01", "女巫", "村民"), "P02": Seat("P02", "狼人", "狼人"),
               "P05": Seat("P05", "长老", "村民", status=list(status)), "P06": Seat("P06", "守卫", "村民")}
    table = Table(players=players, state={}, night=night)
    acts = [Action(a.actor, a.skill, a.targets, index=i) for i, a in enumerate(actions)]
    return settle(parse_catalog(ONCE, "toy.toml"), table, acts)


def test_a_once_protection_stops_one_hit_and_its_status_goes() -> None:
    res = _elder(Action("狼群", "杀人", ("P05",)))
    assert res.deaths == [] and [s.player for s in res.survivals] == ["P05"]
    assert res.state_after["P05.status"] == []


def test_it_is_held_only_while_the_status_is() -> None:
    assert [d.player for d in _elder(Action("狼群", "杀人", ("P05",)), status=()).deaths] == ["P05"]


def test_it_stops_only_the_skills_it_names() -> None:
    res = _elder(Action("P01", "毒药", ("P05",)))
    assert [d.player for d in res.deaths] == ["P05"] and "P05.status" not in res.state_after


def test_a_guard_that_is_not_spent_stops_the_hit_first() -> None:
    res = _elder(Action("P06", "守护", ("P05",)), Action("狼群", "杀人", ("P05",)))
    assert res.deaths == [] and "P05.status" not in res.state_after


def test_the_status_is_given_as_the_first_night_begins() -> None:
    res = _elder(Action("狼群", "杀人", ("P05",)), status=(), night=1)
    assert res.deaths == [] and res.state_after["P05.status"] == []
    assert any("P05<长寿>：获得状态守护(长寿)" in line for line in res.log)


def test_a_voiding_status_takes_the_once_protection_away() -> None:
    res = _elder(Action("狼群", "杀人", ("P05",)), status=("守护(长寿)", "净化"))
    assert [d.player for d in res.deaths] == ["P05"]


def test_status_belongs_to_a_standing_protect() -> None:
    """A ``once`` protection without a status spends its skill's ``uses`` instead (107 长寿; a guard: 107 祝福):
    tests/test_night_protect_once.py."""
    bad = {**ONCE, "skills": [*ONCE["skills"][:3], {**LONG, "effects": [{"kind": "protect", "once": True,
                                                                          "status": "守护(长寿)"}]}]}
    with pytest.raises(RulesetError, match="standing"):
        parse_catalog(bad, "toy.toml")


# -- the exit put off (213 坚强 "因指杀、投票之外的方式即将出局时，其不出局，改为下一讨论日发言满5贴时出局")
STRONG = {"name": "坚强", "roles": ["勇者"], "phase": "passive", "kind": "强制", "voided_by": ["净化"],
          "effects": [{"kind": "protect", "standing": True, "strength": 5, "stops": ["毒药"], "delays": "坚强出局",
                       "when": "下一讨论日", "text": "你改为下一讨论日出局"}]}
LATER: dict[str, Any] = {
    "ruleset": "delay-toy",
    "steps": [{"n": "1", "skills": ["杀人", "毒药"]}, {"n": "2", "resolve": True}],
    "skills": [*NIGHT["skills"][:2], STRONG,
               {"name": "坚强出局", "team": "导演", "roles": ["勇者"], "phase": "day", "targets": 1,
                "effects": [{"kind": "kill"}]}],
}


def _hero(*actions: Action, status: tuple[str, ...] = ()) -> Settlement:
    players = {"P01": Seat("P01", "女巫", "村民"), "P02": Seat("P02", "狼人", "狼人"),
               "P07": Seat("P07", "勇者", "村民", status=list(status))}
    table = Table(players=players, state={}, night=2)
    acts = [Action(a.actor, a.skill, a.targets, index=i) for i, a in enumerate(actions)]
    return settle(parse_catalog(LATER, "toy.toml"), table, acts)


def test_a_delaying_protection_puts_the_exit_off_and_says_when() -> None:
    res = _hero(Action("P01", "毒药", ("P07",)))
    assert res.deaths == [] and [(s.player, s.reason) for s in res.survivals] == [("P07", "P07<坚强>：即将出局，改为下一讨论日出局")]
    assert [(p.effect, p.player, p.when) for p in res.pending] == [("坚强出局", "P07", "下一讨论日")]
    assert [(f.to, f.content) for f in res.feedback] == [("P07", "你改为下一讨论日出局")]


def test_a_hit_it_does_not_name_takes_the_holder_out() -> None:
    res = _hero(Action("狼群", "杀人", ("P07",)))
    assert [d.player for d in res.deaths] == ["P07"] and res.pending == []


def test_a_voiding_status_takes_the_delay_away() -> None:
    assert [d.player for d in _hero(Action("P01", "毒药", ("P07",)), status=("净化",)).deaths] == ["P07"]


def test_delays_needs_standing_when_and_text() -> None:
    for effect in ({"kind": "protect", "delays": "坚强出局", "when": "下一讨论日", "text": "x"},
                   {"kind": "protect", "standing": True, "delays": "坚强出局", "text": "x"},
                   {"kind": "protect", "standing": True, "when": "下一讨论日"}):
        bad = {**LATER, "skills": [*LATER["skills"][:2], {**STRONG, "effects": [effect]}, LATER["skills"][3]]}
        with pytest.raises(RulesetError, match=r"delays|when|standing"):
            parse_catalog(bad, "toy.toml")


def test_delays_names_a_skill_of_the_file() -> None:
    bad = {**LATER, "skills": LATER["skills"][:3]}
    with pytest.raises(RulesetError, match="坚强出局"):
        parse_catalog(bad, "toy.toml")

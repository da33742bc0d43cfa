"""A ``status`` effect with ``split``: the submission's targets share statuses out, one each.

M160 药师【药剂】 "选择两名存活玩家，他们其中一名【清醒】，另外一名【醉酒】，持续到下个黄昏。特别地：同一名玩家不会连续
两天因【药剂】而【清醒】或【醉酒】。在不违反此规则的前提下，【药剂】第一次选中药师自己时，优先获得【清醒】；【药剂】多次
选中同一人时，尽可能相近的两次内不会均因【药剂】而【清醒】或【醉酒】": who takes which is the rules' (``split_record``,
``split_self``, ``split_spread``), else the director's. A toy game settled by the generic engine; M160's own
case is in test_night_gourmet_m160.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.errors import RulesetError

POTION = {"kind": "status", "split": ["清醒", "醉酒"], "for_phase": True, "split_record": "药剂历史",
          "split_self": "清醒", "split_spread": True, "log": "{step} 药剂：{shares}，持续到第{next_day}天黄昏{why}"}
NIGHT: dict[str, Any] = {
    "ruleset": "split-toy",
    "status_cancels": {"清醒": ["醉酒", "中毒"]},
    "steps": [{"n": "1", "skills": ["药剂"]}, {"n": "2", "skills": ["查验"]}],
    "skills": [
        {"name": "药剂", "roles": ["药师"], "targets": 2, "voided_by": ["醉酒", "中毒"], "effects": [POTION]},
        {"name": "查验", "roles": ["预言家"], "targets": 1, "voided_by": ["醉酒", "中毒"],
         "effects": [{"kind": "inspect", "text": "{target}：{answer}"}]},
    ],
}


def _run(*actions: Action, night: NightT | None = None, state: dict[str, Any] | None = None, n: int = 3,
         poisoned: tuple[str, ...] = (), **decide: str) -> Settlement:
    roles = ["药师", "预言家", "村民", "村民", "狼人"]
    players = {f"P0{i}": Seat(f"P0{i}", r, "狼人" if r == "狼人" else "村民",
                              status=["中毒"] if f"P0{i}" in poisoned else [])
               for i, r in enumerate(roles, 1)}
    acts = [Action(a.actor, a.skill, a.targets, index=i) for i, a in enumerate(actions)]
    return settle(parse_catalog(night or NIGHT, "toy.toml"), Table(players=players, state=state or {}, night=n),
                  acts, decisions=decide)


NightT = dict[str, Any]


def _bare(**keys: Any) -> NightT:
    """The toy night with the potion's rules left out but ``keys``."""
    effect = {"kind": "status", "split": ["清醒", "醉酒"], "for_phase": True, **keys}
    return {**NIGHT, "skills": [{**NIGHT["skills"][0], "effects": [effect]}, NIGHT["skills"][1]]}


def test_one_of_them_sober_the_other_drunk_the_director_saying_which() -> None:
    """"他们其中一名【清醒】，另外一名【醉酒】": one each; with no rule to decide, the director says who is 清醒."""
    res = _run(Action("P01", "药剂", ("P03", "P04")), night=_bare(), **{"药剂.3": "P04"})
    q = next(q for q in res.questions if q.key == "药剂.3")
    assert q.question == "<药剂>：P03、P04中谁清醒（规则不限定）" and set(q.options) == {"P03", "P04"}
    assert "(1) P01<药剂>：P04清醒、P03醉酒" in res.log


def test_the_statuses_hold_tonight_only_and_a_drunk_skill_is_void() -> None:
    """"持续到下个黄昏" (for_phase: the night's statuses): the drunk 预言家's 查验 later tonight is void; the
    poisoned one made 清醒 is not ("【清醒】……优先级高于【醉酒】与【中毒】"); nothing reaches the table."""
    drunk = _run(Action("P01", "药剂", ("P03", "P02")), Action("P02", "查验", ("P05",)), night=_bare(),
                 **{"药剂.3": "P03"})
    assert drunk.feedback == [] and any("P02醉酒，技能无效" in line for line in drunk.log)
    sober = _run(Action("P01", "药剂", ("P02", "P03")), Action("P02", "查验", ("P05",)), night=_bare(),
                 poisoned=("P02",), **{"药剂.3": "P02"})
    assert [f.content for f in sober.feedback] == ["P05：狼人"]
    assert not any(k.endswith(".status") for k in sober.state_after)


def test_no_one_takes_the_same_status_two_nights_running() -> None:
    """"同一名玩家不会连续两天因【药剂】而【清醒】或【醉酒】": 醉酒 last night, 清醒 tonight — the record grows."""
    last = [{"night": 2, "清醒": "P05", "醉酒": "P03"}]
    res = _run(Action("P01", "药剂", ("P03", "P04")), state={"药剂历史": last})
    assert res.state_after["药剂历史"] == [*last, {"night": 3, "清醒": "P03", "醉酒": "P04"}]
    assert "(1) 药剂：P03清醒、P04醉酒，持续到第4天黄昏（同一名玩家不会连续两天因药剂而清醒或醉酒）" in res.log
    assert not any(q.key.startswith("药剂") for q in res.questions)
    older = [{"night": 1, "清醒": "P05", "醉酒": "P03"}]  # two nights back: no rest, the spread decides
    assert _run(Action("P01", "药剂", ("P03", "P04")), state={"药剂历史": older}).state_after["药剂历史"][-1]["醉酒"] == "P04"


def test_the_first_time_the_user_chooses_himself_he_is_sober() -> None:
    """"在不违反此规则的前提下，【药剂】第一次选中药师自己时，优先获得【清醒】"; not the first time: no preference."""
    first = _run(Action("P01", "药剂", ("P04", "P01")), state={"药剂历史": []})
    assert first.state_after["药剂历史"][-1] == {"night": 3, "清醒": "P01", "醉酒": "P04"}
    assert "(1) 药剂：P01清醒、P04醉酒，持续到第4天黄昏（第一次选中药师自己，优先获得清醒）" in first.log
    rested = _run(Action("P01", "药剂", ("P04", "P01")), state={"药剂历史": [{"night": 2, "清醒": "P01", "醉酒": "P05"}]})
    assert rested.state_after["药剂历史"][-1] == {"night": 3, "清醒": "P04", "醉酒": "P01"}  # the rest comes first
    again = _run(Action("P01", "药剂", ("P04", "P01")), night=_bare(split_record="药剂历史", split_self="清醒"),
                 state={"药剂历史": [{"night": 1, "清醒": "P05", "醉酒": "P01"}]}, **{"药剂.3": "P04"})
    assert again.state_after["药剂历史"][-1]["清醒"] == "P04"  # chosen before: the director's


def test_the_nearest_same_status_lies_as_far_back_as_can_be() -> None:
    """"【药剂】多次选中同一人时，尽可能相近的两次内不会均因【药剂】而【清醒】或【醉酒】"."""
    near = [{"night": 1, "清醒": "P03", "醉酒": "P05"}, {"night": 2, "清醒": "P05", "醉酒": "P04"}]
    res = _run(Action("P01", "药剂", ("P04", "P03")), state={"药剂历史": near}, n=4)
    assert res.state_after["药剂历史"][-1] == {"night": 4, "清醒": "P04", "醉酒": "P03"}
    assert any(line.endswith("（尽可能相近的两次内不会均因药剂而清醒或醉酒）") for line in res.log)


def test_a_void_potion_shares_nothing_and_records_nothing() -> None:
    res = _run(Action("P01", "药剂", ("P03", "P04")), poisoned=("P01",), state={"药剂历史": []})
    assert "药剂历史" not in res.state_after and "(1) P01<药剂>：P01中毒，技能无效" in res.log


@pytest.mark.parametrize("keys, word", [
    ({"status": "清醒"}, "split"), ({"split": ["清醒"]}, "split"), ({"split_self": "清醒"}, "split_record"),
    ({"split_record": "药剂历史", "split_self": "中毒"}, "split_self"),
])
def test_split_keys_are_checked(keys: dict[str, Any], word: str) -> None:
    with pytest.raises(RulesetError, match=word):
        parse_catalog(_bare(**keys), "toy.toml")


def test_split_record_needs_split() -> None:
    bad = {**NIGHT, "skills": [{**NIGHT["skills"][0], "effects": [{"kind": "status", "status": "醉酒",
                                                                      "split_record": "x"}]}, NIGHT["skills"][1]]}
    with pytest.raises(RulesetError, match="split"):
        parse_catalog(bad, "toy.toml")

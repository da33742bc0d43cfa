"""A ``tell`` step with ``chosen_by``: the holders learn whom the players of some role groups chose this phase.

M160 幕后黑手【洞悉】 "你知道【恶魔】每晚选择的玩家": the 恶魔 has no skill of his own to submit (he submits the
skills of the role he believes he has), so what is told is every player any of his submissions chose, whatever
the skill or its step — those settled after the tell too — each once; ``distort`` and ``wrong``: "【醉酒】……
信息类技能则大概率（90%）获取错误信息": the director's picks among the living not chosen. A toy night here;
M160's own cases are in test_night_gourmet_m160.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.coverage import coverage
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.errors import RulesetError

TELL: dict[str, Any] = {"to": "洞悉", "chosen_by": ["恶魔"], "text": "洞悉：{targets}", "empty": "洞悉：无人",
                        "log": "{step} {text}（告知{holder}）",
                        "distort": {"by": ["醉酒"], "chance": 0.9}, "wrong": {"picks": 2, "question": "错误的玩家"}}
NIGHT: dict[str, Any] = {
    "ruleset": "chosen-by-toy",
    "status_cancels": {"清醒": ["醉酒"]},
    "steps": [{"n": "1", "skills": ["封锁"]}, {"n": "2", "tell": TELL}, {"n": "3", "skills": ["窥视"]},
              {"n": "4", "skills": ["杀人"]}, {"n": "5", "resolve": True}],
    "skills": [
        {"name": "洞悉", "roles": ["军师"], "phase": "passive"},
        {"name": "封锁", "roles": ["守卫"], "targets": 1, "effects": [{"kind": "block", "voids": ["*"]}]},
        {"name": "窥视", "roles": ["魔王", "村民"], "targets": 2, "effects": [{"kind": "inspect"}]},
        {"name": "杀人", "roles": ["魔王"], "targets": 1, "effects": [{"kind": "damage"}]},
    ],
}
SEATS = {"P1": ("军师", "邪恶", "爪牙"), "P2": ("魔王", "邪恶", "恶魔"), "P3": ("村民", "善良", "村民"),
         "P4": ("村民", "善良", "村民"), "P5": ("守卫", "善良", "村民"), "P6": ("村民", "善良", "村民")}


def _run(*acts: tuple[str, str, tuple[str, ...]], night: dict[str, Any] = NIGHT, status: tuple[str, ...] = (),
         types: dict[str, str] | None = None, **decide: str) -> Settlement:
    kinds = {**{n: k for n, (_, _, k) in SEATS.items()}, **(types or {})}
    table = Table(players={n: Seat(n, r, f, status=list(status) if n == "P1" else [], fields={"type": kinds[n]})
                           for n, (r, f, _) in SEATS.items()}, state={}, night=2)
    return settle(parse_catalog(night, "toy.toml"), table, [Action(a, s, t, index=i) for i, (a, s, t) in enumerate(acts)],
                  decisions=decide)


def told(res: Settlement, to: str) -> list[str]:
    return [f.content for f in res.feedback if f.to == to]


def test_every_choice_of_the_group_tonight_is_told_once_even_those_settled_later() -> None:
    res = _run(("P2", "窥视", ("P3", "P4")), ("P2", "杀人", ("P4",)), ("P3", "窥视", ("P6", "P5")))
    assert told(res, "P1") == ["洞悉：P3、P4"]
    assert "(2) 洞悉：P3、P4（告知P1）" in res.log
    assert told(_run(("P3", "窥视", ("P6", "P5"))), "P1") == ["洞悉：无人"]
    assert coverage(parse_catalog(NIGHT, "toy.toml"), None).by_data[0] == "洞悉"


def test_not_told_to_one_of_the_group_nor_to_a_blocked_holder() -> None:
    acts = (("P2", "窥视", ("P3", "P4")),)
    assert told(_run(*acts, types={"P1": "恶魔"}), "P1") == []
    blocked = _run(("P5", "封锁", ("P1",)), *acts)
    assert told(blocked, "P1") == [] and any("P1" in line and "不告知" in line for line in blocked.log)


def test_drunk_holder_may_be_told_the_directors_picks_never_the_same_twice() -> None:
    acts = (("P2", "窥视", ("P3", "P4")),)
    res = _run(*acts, status=("醉酒",), **{"醉酒错误.P1.洞悉": "是", "洞悉.错误.1": "P5"})
    assert told(res, "P1")[0].startswith("洞悉：P5、")
    options = {q.key: q.options for q in res.questions}
    assert options["洞悉.错误.1"] == ("P1", "P2", "P5", "P6") and options["洞悉.错误.2"] == ("P1", "P2", "P6")
    assert told(_run(*acts, status=("醉酒",), **{"醉酒错误.P1.洞悉": "否"}), "P1") == ["洞悉：P3、P4"]
    sober = _run(*acts, status=("醉酒", "清醒"))
    assert told(sober, "P1") == ["洞悉：P3、P4"] and not sober.questions


def test_distort_and_wrong_belong_to_chosen_by() -> None:
    about = {**TELL, "chosen_by": [], "about": "杀人"}
    with pytest.raises(RulesetError, match="chosen_by"):
        parse_catalog({**NIGHT, "steps": [{"n": "2", "tell": about}]}, "toy.toml")
    alone = {k: v for k, v in TELL.items() if k != "wrong"}
    with pytest.raises(RulesetError, match="wrong"):
        parse_catalog({**NIGHT, "steps": [{"n": "2", "tell": alone}]}, "toy.toml")

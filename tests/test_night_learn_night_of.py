"""``learn`` with ``ask = "night_of"``: whom the chosen player chose this phase and what he was told, at the
skill's ``feedback`` step; ``recount`` words it, ``reveal`` may then tell the chosen player something.

M160 护士长【诊断】 "每个夜晚*，选择一名存活玩家。晨曦阶段，你得知他今晚选择了谁以及他得知了什么。在你得到
反馈后，如若你选择的角色的【表面阵营】是【恶魔】，他得知自己是【恶魔】。" A toy game here (a seer told at a
step after the choice, so only the feedback step can know it); M160's own cases are in
test_night_gourmet_m160.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.errors import RulesetError

NURSE: dict[str, Any] = {"kind": "learn", "ask": "night_of", "text": "诊断：{target}{chose}，{heard}",
                         "distort": {"by": ["醉酒"], "chance": 0.9},
                         "reveal": {"match": {"values": ["狼人"]}, "text": "你是狼人", "unless": ["醉酒"]}}
NIGHT: dict[str, Any] = {
    "ruleset": "nurse-toy",
    "status_cancels": {"清醒": ["醉酒"]},
    "steps": [{"n": "1", "skills": ["诊断"]}, {"n": "2", "skills": ["查验"]}, {"n": "3", "skills": ["杀人"]},
              {"n": "4", "resolve": True}, {"n": "5", "feedback": "诊断"}],
    "skills": [
        {"name": "诊断", "roles": ["护士"], "targets": 1, "effects": [NURSE]},
        {"name": "查验", "roles": ["预言家"], "targets": 1, "effects": [{"kind": "inspect"}]},
        {"name": "杀人", "team": "狼群", "roles": ["狼人"], "targets": 1, "effects": [{"kind": "damage"}]},
    ],
}
ROLES = {"P1": ("护士", "好人"), "P2": ("狼人", "狼人"), "P3": ("预言家", "好人"), "P4": ("村民", "好人")}


def _run(*acts: tuple[str, str, tuple[str, ...]], status: tuple[str, ...] = (), night: dict[str, Any] = NIGHT,
         **decide: str) -> Settlement:
    table = Table(players={n: Seat(n, r, f, status=list(status) if n == "P1" else []) for n, (r, f) in ROLES.items()},
                  state={}, night=2)
    actions = [Action(a, s, t, index=i) for i, (a, s, t) in enumerate(acts)]
    return settle(parse_catalog(night, "toy.toml"), table, actions, decisions=decide)


def told(res: Settlement, to: str) -> list[str]:
    return [f.content for f in res.feedback if f.to == to]


def test_the_answer_waits_for_the_feedback_step_and_counts_what_came_after_the_choice() -> None:
    """The seer is told at step 2, after the nurse's choice at step 1: "他得知了什么" is the whole night's."""
    res = _run(("P1", "诊断", ("P3",)), ("P3", "查验", ("P2",)), ("狼群(P2)", "杀人", ("P4",)))
    assert told(res, "P1") == ["诊断：P3今晚选择了P2，得知了“P2：狼人”"]
    answered = res.log.index("(5) P1得知：P3今晚选择了P2，得知了“P2：狼人”")
    assert answered > next(i for i, line in enumerate(res.log) if line.startswith("(2) "))
    assert any(line.startswith("(1) P1<诊断>：P3") for line in res.log)


def test_nobody_chosen_and_nothing_told_in_the_default_words() -> None:
    res = _run(("P1", "诊断", ("P4",)))
    assert told(res, "P1") == ["诊断：P4今晚没有选择任何玩家，未得知任何信息"]


def test_recount_words_are_the_files() -> None:
    nurse = {**NURSE, "recount": {"chose": "选了{players}", "heard": "听到{lines}", "log": "{step} 晨曦：{target}{chose}"}}
    night = {**NIGHT, "skills": [{**NIGHT["skills"][0], "effects": [nurse]}, *NIGHT["skills"][1:]]}
    res = _run(("P1", "诊断", ("P3",)), ("P3", "查验", ("P2",)), night=night)
    assert told(res, "P1") == ["诊断：P3选了P2，听到P2：狼人"] and "(5) 晨曦：P3选了P2" in res.log


def test_the_chosen_player_is_revealed_to_himself_unless_the_actor_is_drunk() -> None:
    """"如若你选择的角色的【表面阵营】是【恶魔】，他得知自己是【恶魔】": the toy's wolf; not while the nurse is 醉酒
    (and the answer then is another player's night: the director's pick), again once 清醒 cancels it."""
    res = _run(("P1", "诊断", ("P2",)), ("狼群(P2)", "杀人", ("P4",)))
    assert told(res, "P2") == ["你是狼人"] and told(res, "P1") == ["诊断：P2今晚选择了P4，未得知任何信息"]
    drunk = _run(("P1", "诊断", ("P2",)), ("狼群(P2)", "杀人", ("P4",)), ("P3", "查验", ("P4",)), status=("醉酒",),
                 **{"醉酒错误.P1.诊断": "是", "诊断.错误.P1": "P3"})
    assert told(drunk, "P2") == [] and told(drunk, "P1") == ["诊断：P2今晚选择了P4，得知了“P4：好人”"]
    assert [q.options for q in drunk.questions if q.key == "诊断.错误.P1"] == [("P1", "P3")]  # the living but P2 (P4 died at 4)
    sober = _run(("P1", "诊断", ("P2",)), ("狼群(P2)", "杀人", ("P4",)), status=("醉酒", "清醒"))
    assert told(sober, "P2") == ["你是狼人"] and not any(q.key.startswith("醉酒错误") for q in sober.questions)


def test_recount_and_reveal_belong_to_night_of_and_it_needs_a_feedback_step() -> None:
    bad = {**NIGHT, "skills": [{**NIGHT["skills"][0], "effects": [{**NURSE, "ask": "chosen_before"}]},
                               *NIGHT["skills"][1:]]}
    with pytest.raises(RulesetError, match="night_of"):
        parse_catalog(bad, "toy.toml")
    with pytest.raises(RulesetError, match="feedback"):
        parse_catalog({**NIGHT, "steps": NIGHT["steps"][:-1]}, "toy.toml")

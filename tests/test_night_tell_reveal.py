"""A ``tell`` step with ``reveal`` and a step's ``game_start``, on a toy night settled by the generic engine alone:
each holder is told the identities of other living players picked at random, two in the settlement of the
submissions sent 游戏开始前 and three in any other night — M65 <四眼预知>（强制）"游戏开始时可以随机从导演处得知两个非自己
角色的具体身份，且从下一个游戏日开始每个游戏日白天开始时可以随机从导演处得知三个非自己角色的具体身份"."""

from __future__ import annotations

from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.errors import RulesetError

START = {"to": "预知", "reveal": {"count": 2, "question": "游戏开始时：告知{holder}的第{i}名"},
         "text": "预知：{picked}", "log": "游戏开始时<预知>（{holder}）：{picked}"}
MORNING = {"to": "预知", "reveal": {"count": 3, "question": "第{day}天：告知{holder}的第{i}名"},
           "text": "预知：{picked}", "log": "第{day}天<预知>（{holder}）：{picked}"}


def night(start: dict[str, Any] | None = None, morning: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "ruleset": "reveal-toy",
        "steps": [{"n": "", "phases": ["night", "day"], "game_start": True, "tell": start or START},
                  {"n": "1", "phases": ["night", "day"], "skills": ["刀", "选"]},
                  {"n": "", "phase": "night", "game_start": False, "tell": morning or MORNING}],
        "skills": [
            {"name": "预知", "roles": ["预知者"], "phase": "passive", "kind": "强制", "targets": 0},
            {"name": "刀", "roles": ["刀客"], "targets": 1, "effects": [{"kind": "kill"}]},
            {"name": "选", "roles": ["刀客"], "phase": "setup", "targets": 0,
             "effects": [{"kind": "tell", "text": "已选"}]},
        ],
    }


def _run(*acts: Action, doc: dict[str, Any] | None = None, alive: int = 5, decide: dict[str, str] | None = None,
         night_no: int | None = 2) -> Settlement:
    players = {"S": Seat("S", "预知者", "甲"), "K": Seat("K", "刀客", "乙"),
               **{f"P{i}": Seat(f"P{i}", "村民", "甲", alive=i <= alive) for i in range(1, 6)}}
    table = Table(players=players, state={}, night=night_no, day=None if night_no else 1)
    return settle(parse_catalog(doc or night(), "toy.toml"), table,
                  [Action(a.actor, a.skill, a.targets, phase=a.phase, index=i) for i, a in enumerate(acts)],
                  seed=7, decisions=decide)


def _told(res: Settlement) -> list[str]:
    return [f.content for f in res.feedback if f.to == "S"]


def test_each_morning_three_others_picked_at_random() -> None:
    res = _run(Action("K", "刀", ("P1",)))
    [text] = _told(res)
    assert text.startswith("预知：") and text.count("的身份：") == 3 and "S的" not in text and "P1的" not in text
    assert [q.key for q in res.questions] == ["预知.S.1", "预知.S.2", "预知.S.3"]
    assert res.questions[0].question == "第3天：告知S的第1名" and "S" not in res.questions[0].options
    assert res.questions[0].taken not in res.questions[1].options and len({q.taken for q in res.questions}) == 3
    assert any(line.startswith("第3天<预知>（S）：") for line in res.log)
    assert _run(Action("K", "刀", ("P1",))).to_json() == res.to_json()  # seeded


def test_the_director_overrides_a_pick_and_fewer_living_give_fewer() -> None:
    res = _run(decide={"预知.S.1": "K"})
    assert _told(res)[0].startswith("预知：K的身份：刀客；")
    few = _run(alive=0)
    assert _told(few) == ["预知：K的身份：刀客"]
    alone = _run(Action("K", "刀", ("S",)))
    assert _told(alone) == [] and not any(q.key.startswith("预知") for q in alone.questions)


def test_game_start_runs_only_with_submissions_sent_before_the_game() -> None:
    start = _run(Action("K", "选", phase="setup"), night_no=None)
    [text] = _told(start)
    assert text.count("的身份：") == 2 and start.questions[0].question == "游戏开始时：告知S的第1名"
    day = _run(night_no=None)
    assert _told(day) == []  # a day with no submission sent 游戏开始前: neither step
    night_start = _run(Action("K", "选", phase="setup"))
    assert [t.count("的身份：") for t in _told(night_start)] == [2]  # the start's, not the morning's


def test_a_refused_early_submission_starts_nothing() -> None:
    res = _run(Action("S", "选", phase="setup"), night_no=None)  # 选 is not the seer's: refused
    assert [r.skill for r in res.rejected] == ["选"] and _told(res) == []


@pytest.mark.parametrize("tell", [{**START, "about": "刀"}, {**START, "summary": "{told}"}])
def test_reveal_stands_alone(tell: dict[str, Any]) -> None:
    with pytest.raises(RulesetError, match="reveal"):
        parse_catalog(night(start=tell), "toy.toml")

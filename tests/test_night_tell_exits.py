"""Generic keys for what a skill tells its user, on a toy game: ``tell`` (the post's words once the
skill takes hold: M65 票权掠夺 "已执行") and an ``inspect`` of the day's exits by cause instead of a
target (``exits``, ``empty``: M65 数据收集 "得知白天被投票出局角色的具体身份")."""

from __future__ import annotations

from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.model import Action, Seat, Table
from tracker.errors import RulesetError

COLLECT = {"kind": "inspect", "answer": "role", "exits": ["投票"], "text": "第{day}天被投票出局的{target}：{answer}",
           "empty": "第{day}天无人被投票出局"}


def night() -> dict[str, Any]:
    return {
        "ruleset": "tell-toy",
        "skills": [
            {"name": "收集", "roles": ["白王"], "targets": 0, "effects": [COLLECT]},
            {"name": "夺票", "roles": ["盗贼"], "targets": 1, "effects": [{"kind": "tell", "text": "已执行：{target}"}]},
        ],
    }


def out(day: int, cause: str) -> dict[str, Any]:
    return {"出局": {"day": day, "cause": cause}}


def table(night_no: int | None = 2, day: int | None = None, **gone: dict[str, Any]) -> Table:
    seats = {"P1": Seat("P1", "白王", "甲"), "P2": Seat("P2", "盗贼", "乙"), "P3": Seat("P3", "骑士", "甲"),
             "P4": Seat("P4", "村民", "乙"), "P5": Seat("P5", "黑王", "乙")}
    for name, fields in gone.items():
        seats[name].alive = False
        seats[name].fields.update(fields)
    return Table(players=seats, state={}, night=night_no, day=day)


def told(res: Any, who: str) -> list[str]:
    return [f.content for f in res.feedback if f.to == who]


def test_tell_gives_the_actor_the_posts_words() -> None:
    res = settle(parse_catalog(night(), "t"), table(), [Action("P2", "夺票", ("P4",))])
    assert told(res, "P2") == ["已执行：P4"]


def test_tell_needs_its_words() -> None:
    bad = night()
    bad["skills"][1]["effects"] = [{"kind": "tell"}]
    with pytest.raises(RulesetError, match="text"):
        parse_catalog(bad, "t")


def test_inspect_of_exits_reads_the_day_before_the_night_and_the_cause() -> None:
    cat = parse_catalog(night(), "t")
    gone = table(P3=out(2, "投票"), P4=out(1, "投票"), P5=out(2, "红牌"))
    assert told(settle(cat, gone, [Action("P1", "收集", ())]), "P1") == ["第2天被投票出局的P3：骑士"]
    assert told(settle(cat, table(P4=out(1, "投票")), [Action("P1", "收集", ())]), "P1") == ["第2天无人被投票出局"]
    day = table(None, 2, P3=out(2, "投票"))  # a day phase reads that day
    assert told(settle(cat, day, [Action("P1", "收集", (), phase="night")]), "P1") == ["第2天被投票出局的P3：骑士"]


def test_exits_and_empty_belong_to_inspect() -> None:
    bad = night()
    bad["skills"][1]["effects"] = [{"kind": "tell", "text": "x", "exits": ["投票"]}]
    with pytest.raises(RulesetError, match="exits"):
        parse_catalog(bad, "t")

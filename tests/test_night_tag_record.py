"""A tag with a record that moves (107 亡灵圣物), ``mark`` ``take``/``text``/``record`` and an effect picked by the
submission's ``choice`` (``when_choice``/``unless_choice``), on a toy night the generic engine settles alone.

107 藏匿 "该角色获得[亡灵圣物]" starts the relic's record (``record``: "<诅咒>技能的初始次数为3"); 探查 "并选择以下效果之一：
1.获知该角色当前阵营。2.若该角色持有[亡灵圣物]，获得之。当游荡者以此法获得[亡灵圣物]时，将得到导演通知" is one
``inspect`` and one ``mark`` ``take``, the choice picking one; the record's holder and ``since`` follow every
move (认主 counts from ``since``), and a record's holder given it again keeps his ``since``.
"""

from __future__ import annotations

from typing import Any

from tracker.engine.night import settle
from tracker.engine.night.catalog import Catalog, parse_catalog
from tracker.engine.night.model import Action, Seat, Settlement, Table

NIGHT: dict[str, Any] = {
    "ruleset": "relic-toy",
    "steps": [{"n": "1", "skills": ["藏匿", "探查"]}],
    "skills": [
        {"name": "藏匿", "roles": ["恶徒"], "targets": 1,
         "effects": [{"kind": "mark", "tag": "圣物", "act": "give", "record": {"次数": 3}}]},
        {"name": "探查", "roles": ["游荡者"], "targets": 1, "effects": [
            {"kind": "inspect", "text": "探查：{target}属于{answer}", "unless_choice": ["2"]},
            {"kind": "mark", "tag": "圣物", "act": "take", "text": "你从{target}处获得了圣物", "when_choice": ["2"]}]},
    ],
}


def _cat() -> Catalog:
    return parse_catalog(NIGHT, "relic-toy.toml")


def _seats(holder: str | None = None) -> dict[str, Seat]:
    seats = {"P1": Seat("P1", "恶徒", "环蛇"), "P2": Seat("P2", "游荡者", "圣殿"), "P3": Seat("P3", "村民", "莱恩")}
    if holder is not None:
        seats[holder].tags.append("圣物")
    return seats


def _run(seats: dict[str, Seat], state: dict[str, Any], *acts: Action, night: int | None = 2) -> Settlement:
    table = Table(players=seats, state=state, night=night, day=None if night is not None else 1)
    return settle(_cat(), table, [Action(a.actor, a.skill, a.targets, a.choice, index=i) for i, a in enumerate(acts)])


def _told(res: Settlement, who: str) -> list[str]:
    return [f.content for f in res.feedback if f.to == who]


def test_a_record_begins_with_the_first_give_and_follows_the_tag() -> None:
    res = _run(_seats(), {}, Action("P1", "藏匿", ("P3",)))
    assert res.state_after["圣物"] == {"次数": 3, "holder": "P3", "since": {"night": 2, "by": "藏匿"}}
    held = {"圣物": {"次数": 1, "holder": "P3", "since": {"night": 1, "by": "藏匿"}}}
    res = _run(_seats("P3"), held, Action("P2", "探查", ("P3",), "效果2"))
    assert res.state_after["圣物"] == {"次数": 1, "holder": "P2", "since": {"night": 2, "by": "探查"}}  # the count kept
    assert [(m.from_player, m.to_player, m.via) for m in res.tags_moved] == [("P3", "P2", "探查")]
    assert _told(res, "P2") == ["你从P3处获得了圣物"]


def test_a_record_given_to_its_holder_keeps_its_since() -> None:
    held = {"圣物": {"次数": 1, "holder": "P3", "since": {"night": 1, "by": "藏匿"}}}
    res = _run(_seats("P3"), held, Action("P1", "藏匿", ("P3",)))
    assert res.tags_moved == [] and "圣物" not in res.state_after


def test_take_only_from_a_holder_and_the_choice_picks_the_effect() -> None:
    held = {"圣物": {"次数": 1, "holder": "P1", "since": {"night": 1, "by": "藏匿"}}}
    res = _run(_seats("P1"), held, Action("P2", "探查", ("P3",), "效果2"))
    assert res.tags_moved == [] and _told(res, "P2") == []  # P3 holds nothing: 无事发生
    res = _run(_seats("P1"), held, Action("P2", "探查", ("P1",), "效果1"))
    assert res.tags_moved == [] and _told(res, "P2") == ["探查：P1属于环蛇"]
    res = _run(_seats("P1"), held, Action("P2", "探查", ("P1",)))  # no choice: not 效果2
    assert res.tags_moved == [] and _told(res, "P2") == ["探查：P1属于环蛇"]

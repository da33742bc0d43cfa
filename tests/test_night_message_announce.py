"""Generic keys on a toy night settled by the generic engine alone: ``message`` (107 夜之语 "对其发送一条不多于
100字的消息"), ``announce`` (107 剑痕 "次日该留言将被导演公告", 夜之语 "次日将公告；‘昨夜有夜之低语’") and the
night file's ``originals_first`` (107 "学者拓印的技能在原版之后结算").
"""

from __future__ import annotations

from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.catalog import Catalog, parse_catalog
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.errors import RulesetError

UNDEAD_NOT = {"values": ["村民", "狼人"]}


def night(**over: Any) -> dict[str, Any]:
    return {
        "ruleset": "message-toy",
        "steps": [{"n": "1", "skills": ["密语"]}, {"n": "2", "skills": ["留言"]}, {"n": "3", "skills": ["刺杀"]}],
        "skills": [
            {"name": "密语", "roles": ["信使"], "targets": 1, "effects": [
                {"kind": "message", "text": "密语：{choice}", "when_target": UNDEAD_NOT},
                {"kind": "announce", "text": "昨夜有密语", "when_target": UNDEAD_NOT}]},
            {"name": "留言", "roles": ["剑士"], "effects": [{"kind": "announce", "text": "留言：{choice}（{actor}）"}]},
            {"name": "刺杀", "roles": ["刺客"], "targets": 1, "effects": [{"kind": "kill"}]},
        ],
        **over,
    }


def _table() -> Table:
    seats = {"P1": ("信使", "村民"), "P2": ("剑士", "村民"), "P3": ("村民", "村民"), "P4": ("亡灵", "亡灵"),
             "P5": ("刺客", "狼人"), "P6": ("学者", "村民"), "P7": ("村民", "村民")}
    players = {n: Seat(n, r, f) for n, (r, f) in seats.items()}
    players["P6"].uses.update({"刺杀": True, "留言": True})  # gained in play (拓印)
    return Table(players=players, state={}, night=2)


def _run(cat: Catalog, *acts: tuple[str, str, tuple[str, ...], str | None]) -> Settlement:
    return settle(cat, _table(), [Action(a, s, t, c, index=i) for i, (a, s, t, c) in enumerate(acts)])


def test_message_reaches_the_target_and_the_announcement_follows_once() -> None:
    cat = parse_catalog(night(), "message.toml")
    res = _run(cat, ("P1", "密语", ("P3",), "小心"), ("P2", "留言", (), "剑鸣"))
    assert [(f.to, f.content) for f in res.feedback] == [("P3", "密语：小心")]
    assert res.lines == ["昨夜有密语", "留言：剑鸣（P2）"]
    assert not any("不选择目标" in line for line in res.log)


def test_a_target_of_the_wrong_kind_gets_no_message_and_nothing_is_announced() -> None:
    res = _run(parse_catalog(night(), "message.toml"), ("P1", "密语", ("P4",), "小心"))
    assert res.feedback == [] and res.lines == []


def test_the_same_line_is_announced_once() -> None:
    res = _run(parse_catalog(night(), "message.toml"), ("P2", "留言", (), "同"), ("P6", "留言", (), "同"))
    assert res.lines == ["留言：同（P2）", "留言：同（P6）"]
    res = _run(parse_catalog(night(), "message.toml"), ("P1", "密语", ("P3",), "a"), ("P1", "密语", ("P7",), "b"))
    assert res.lines == ["昨夜有密语"] and [f.to for f in res.feedback] == ["P7"]  # the last submission counts


def test_originals_first_settles_the_role_holder_before_who_gained_the_skill() -> None:
    """学者拓印的技能在原版之后结算: the 学者's 刺杀, sent first, settles after the 刺客's (the out list
    follows the settlement's order); without the key, in submission order."""
    acts = (("P6", "刺杀", ("P3",), None), ("P5", "刺杀", ("P7",), None))
    assert _run(parse_catalog(night(), "message.toml"), *acts).out_order == ["P3", "P7"]
    assert _run(parse_catalog(night(originals_first=True), "message.toml"), *acts).out_order == ["P7", "P3"]
    copied = _run(parse_catalog(night(originals_first=True), "message.toml"),
                  ("P6", "留言", (), "抄"), ("P2", "留言", (), "原"))
    assert copied.lines == ["留言：原（P2）", "留言：抄（P6）"]


@pytest.mark.parametrize("kind", ["message", "announce"])
def test_message_and_announce_must_write_their_words(kind: str) -> None:
    doc = night()
    doc["skills"][1]["effects"] = [{"kind": kind}]
    with pytest.raises(RulesetError):
        parse_catalog(doc, "message.toml")

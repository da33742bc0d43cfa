"""What a skill was used on this phase is every settled use's targets, not the last one's.

Read by a ``tell`` step's ``about`` (213 灵通 "得知当晚被指杀的角色"), ``unless_aimed_by`` (M19 空救 "若该角色没有成为
指杀目标") and ``distinct_from`` (213 捕杀 "与当晚<悬赏>不重复"). A skill whose every submission takes effect
(``every_submission``: two hunters, or one skill used twice) kept only its last use's targets: the first victim was
"not struck" and a seer of the night was told of one strike in two.
"""

from __future__ import annotations

from typing import Any

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.model import Action, Seat, Settlement, Table

NIGHT: dict[str, Any] = {
    "ruleset": "every-use-toy",
    "steps": [
        {"n": "1", "skills": ["刺", "护"]},
        {"n": "2", "tell": {"to": "灵视", "about": "刺", "text": "灵视：被刺的是{targets}", "empty": "灵视：无人被刺"}},
    ],
    "skills": [
        {"name": "刺", "roles": ["刺客"], "targets": 1, "every_submission": True,
         "effects": [{"kind": "status", "status": "伤"}]},
        {"name": "护", "roles": ["医生"], "targets": 1,
         "effects": [{"kind": "counter", "state": "空护", "add": 1, "at_least": 9, "cause": "空护",
                      "unless_aimed_by": ["刺"], "settles_at": ["2"]}]},
        {"name": "灵视", "roles": ["灵媒"], "phase": "passive"},
    ],
}


def _run(*acts: tuple[str, str, str]) -> Settlement:
    seats = {"P1": "刺客", "P2": "刺客", "P3": "医生", "P4": "灵媒", "P5": "村民", "P6": "村民"}
    table = Table(players={n: Seat(n, r, "村") for n, r in seats.items()}, state={}, night=2)
    return settle(parse_catalog(NIGHT, "every-use.toml"), table,
                  [Action(a, s, (t,), index=i) for i, (a, s, t) in enumerate(acts)])


def test_both_strikes_are_told_and_neither_victim_counts_as_missed() -> None:
    res = _run(("P1", "刺", "P5"), ("P2", "刺", "P6"), ("P3", "护", "P5"))
    assert [f.content for f in res.feedback if f.to == "P4"] == ["灵视：被刺的是P5、P6"]
    assert res.state_after.get("空护", {}) in ({}, {"P5": 0})  # P5 was struck (by the first of two): no 空护
    missed = _run(("P1", "刺", "P5"), ("P2", "刺", "P6"), ("P3", "护", "P4"))
    assert missed.state_after["空护"] == {"P4": 1}

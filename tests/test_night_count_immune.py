"""Two generic keys on a toy night settled by the generic engine alone.

``tell`` with ``count`` (107 虔诚 "夜晚结束时，慰魂师得知亡灵阵营的存活人数": a holder is told how many
players of some factions are alive once the night's exits are settled) and a skill's ``immune_to``
(107 神恩 "神启者不受<诅咒>技能影响": an effect of the named skill does not take hold on its holders).
"""

from __future__ import annotations

from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.catalog import Catalog, parse_catalog
from tracker.engine.night.coverage import coverage
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.errors import RulesetError

NIGHT: dict[str, Any] = {
    "ruleset": "count-immune-toy",
    "steps": [
        {"n": "1", "skills": ["诅咒", "杀人"]},
        {"n": "2", "resolve": True},
        {"n": "3", "tell": {"to": "虔诚", "count": ["亡灵"], "text": "虔诚：亡灵阵营存活人数 {count}"}},
    ],
    "skills": [
        {"name": "诅咒", "roles": ["巫师"], "targets": 1,
         "effects": [{"kind": "convert", "role": "活尸", "faction": "亡灵"}]},
        {"name": "杀人", "roles": ["巫师"], "targets": 1, "effects": [{"kind": "damage"}]},
        {"name": "神恩", "roles": ["神启者"], "phase": "passive", "immune_to": ["诅咒"]},
        {"name": "虔诚", "roles": ["慰魂师"], "phase": "passive"},
    ],
}


def _cat() -> Catalog:
    return parse_catalog(NIGHT, "count-immune.toml")


def _table(**over: tuple[str, str, bool]) -> Table:
    seats = {"P1": ("巫师", "亡灵", True), "P2": ("神启者", "莱恩", True), "P3": ("慰魂师", "圣殿", True),
             "P4": ("村民", "莱恩", True), "P5": ("活尸", "亡灵", True), "P6": ("活尸", "亡灵", False), **over}
    return Table(players={n: Seat(n, r, f, alive=a) for n, (r, f, a) in seats.items()}, state={}, night=2)


def _run(table: Table, *acts: tuple[str, str, str]) -> Settlement:
    return settle(_cat(), table, [Action(a, s, (t,), index=i) for i, (a, s, t) in enumerate(acts)])


def test_immune_to_stops_the_named_skill_only() -> None:
    """神恩："神启者不受<诅咒>技能影响" — the curse does not take on its holder, it takes on anyone else,
    and the holder is not immune to another skill (杀人)."""
    res = _run(_table(), ("P1", "诅咒", "P2"))
    assert res.conversions == []
    assert any("P2的<神恩>免疫<诅咒>" in line for line in res.log)
    res = _run(_table(), ("P1", "诅咒", "P4"))
    assert [(c.player, c.role_to) for c in res.conversions] == [("P4", "活尸")]
    res = _run(_table(), ("P1", "杀人", "P2"))
    assert [d.player for d in res.deaths] == ["P2"]


def test_a_tell_counts_the_living_of_a_faction_after_the_nights_exits() -> None:
    """虔诚："夜晚结束时，慰魂师得知亡灵阵营的存活人数" — counted at its step: after the night's exits
    (P5 killed) and conversions (P4 cursed into 亡灵), the dead (P6) never counted."""
    res = _run(_table(), ("P1", "杀人", "P5"))
    assert [(f.to, f.content) for f in res.feedback] == [("P3", "虔诚：亡灵阵营存活人数 1")]
    res = _run(_table(), ("P1", "诅咒", "P4"))
    assert [(f.to, f.content) for f in res.feedback] == [("P3", "虔诚：亡灵阵营存活人数 3")]
    res = _run(_table(P3=("慰魂师", "圣殿", False)))
    assert res.feedback == []


def test_both_are_settled_by_data() -> None:
    """A skill whose only rule is an immunity, and one a ``tell`` step tells, are data, not unsettled."""
    cov = coverage(_cat(), None)
    assert set(cov.by_data) == {"诅咒", "杀人", "神恩", "虔诚"} and cov.unsettled == ()


@pytest.mark.parametrize("tell", [
    {"to": "虔诚"},
    {"to": "虔诚", "about": "杀人", "count": ["亡灵"]},
    {"to": "虔诚", "count": ["亡灵"], "also": ["杀人"]},
])
def test_a_tell_names_either_about_or_count(tell: dict[str, Any]) -> None:
    doc = {**NIGHT, "steps": [{"n": "1", "tell": tell}]}
    with pytest.raises(RulesetError):
        parse_catalog(doc, "count-immune.toml")

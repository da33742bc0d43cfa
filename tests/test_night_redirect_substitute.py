"""``redirect`` with ``moves`` and ``substitute`` on a toy game: a night skill whose target, if the next day's
exile is about to fall on him, has it fall on the player its user names instead (107 诡辩 "若该角色在次日投票阶段
即将被投票出局，则由学者选择一名其他角色，替代该角色被投票出局"). 107's own case is test_sophistry_replaces_the_exiled
in test_night_dnf_107.py."""

from __future__ import annotations

from typing import Any

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.coverage import coverage
from tracker.engine.night.model import Action, Seat, Settlement, Table

WHEN = "第{day}天投票：若{target}即将被投票出局，由{actor}选择替代者"


def night() -> dict[str, Any]:
    return {
        "ruleset": "substitute-toy",
        "steps": [{"n": "1", "skills": ["掉包"]},
                  {"n": "投票", "phase": "day", "skills": ["掉包", "刀", "放逐"]}],
        "skills": [
            {"name": "掉包", "roles": ["学者"], "targets": 1, "next_day": True,
             "effects": [{"kind": "redirect", "moves": ["放逐"], "substitute": "掉包替代", "when": WHEN}]},
            {"name": "掉包替代", "roles": ["学者"], "phase": "day", "targets": 1},
            {"name": "刀", "roles": ["刀客"], "phase": "day", "targets": 1, "effects": [{"kind": "kill"}]},
            {"name": "放逐", "team": "放逐投票", "phase": "day", "targets": 1, "effects": [{"kind": "kill"}]},
        ],
    }


def table(**when: int) -> Table:
    players = {"P1": Seat("P1", "学者", "乙"), "P2": Seat("P2", "村民", "甲"), "P3": Seat("P3", "村民", "甲"),
               "P4": Seat("P4", "刀客", "乙")}
    return Table(players=players, state={}, **when)


def run(t: Table, *acts: Action) -> Settlement:
    return settle(parse_catalog(night(), "toy.toml"), t, [Action(a.actor, a.skill, a.targets, phase=a.phase, index=i)
                                                          for i, a in enumerate(acts)])


SET = Action("P1", "掉包", ("P2",), phase="night")


def test_the_exile_falls_on_the_substitute_the_user_names() -> None:
    res = run(table(day=2), SET, Action("P1", "掉包替代", ("P3",)), Action("放逐投票", "放逐", ("P2",)))
    assert [(d.player, d.cause) for d in res.deaths] == [("P3", "放逐")]
    assert not res.rejected  # the substitute is the redirect's answer, not a use of its own
    assert any("P1选择P3替代之" in line for line in res.log)


def test_another_exile_or_no_substitute_moves_nothing() -> None:
    other = run(table(day=2), SET, Action("P1", "掉包替代", ("P3",)), Action("放逐投票", "放逐", ("P4",)))
    assert [d.player for d in other.deaths] == ["P4"]
    none = run(table(day=2), SET, Action("放逐投票", "放逐", ("P2",)))
    assert [d.player for d in none.deaths] == ["P2"] and any("P1未以<掉包替代>选择替代者" in x for x in none.log)
    itself = run(table(day=2), SET, Action("P1", "掉包替代", ("P2",)), Action("放逐投票", "放逐", ("P2",)))
    assert [d.player for d in itself.deaths] == ["P2"]


def test_moves_only_the_skills_it_names() -> None:
    res = run(table(day=2), SET, Action("P1", "掉包替代", ("P3",)), Action("P4", "刀", ("P2",)))
    assert [(d.player, d.cause) for d in res.deaths] == [("P2", "刀")]


def test_a_night_use_leaves_the_pending_entry_for_the_next_day() -> None:
    res = run(table(night=2), Action("P1", "掉包", ("P2",)))
    assert [(p.effect, p.player, p.when) for p in res.pending] == [
        ("掉包", "P2", "第3天投票：若P2即将被投票出局，由P1选择替代者")]
    assert res.deaths == []


def test_the_substitute_skill_counts_as_data() -> None:
    assert {"掉包", "掉包替代"} <= set(coverage(parse_catalog(night(), "t"), None).by_data)

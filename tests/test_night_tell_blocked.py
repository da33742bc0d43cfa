"""A ``tell`` step on a toy night settled by the generic engine alone: a holder whom a ``block`` voids that
skill for is not told (M19 老狼<算计> "使其在当晚无法发动任何技能": the 女巫 so blocked has no <通灵>), and
the step's ``log`` writes the post's own line for each holder told (M19 "(3) 女巫P1通灵：被指杀的是P3")."""

from __future__ import annotations

from typing import Any

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.model import Action, Seat, Settlement, Table


def night(**tell: Any) -> dict[str, Any]:
    return {
        "ruleset": "tell-toy",
        "steps": [{"n": "1", "skills": ["封印"]}, {"n": "2", "skills": ["杀人"]},
                  {"n": "3", "tell": {"to": "通灵", "about": "杀人", "text": "通灵：{targets}", "empty": "通灵：无",
                                      **tell}},
                  {"n": "4", "resolve": True}],
        "skills": [
            {"name": "封印", "roles": ["老狼"], "targets": 1, "effects": [{"kind": "block", "voids": ["*"]}]},
            {"name": "杀人", "roles": ["狼人"], "targets": 1, "effects": [{"kind": "damage"}]},
            {"name": "通灵", "roles": ["女巫"], "phase": "passive", "uses": "通灵"},
        ],
    }


def _run(doc: dict[str, Any], *acts: tuple[str, str, str]) -> Settlement:
    seats = {"P1": ("女巫", "村民"), "P2": ("狼人", "狼人"), "P3": ("村民", "村民"), "P4": ("老狼", "狼人")}
    table = Table(players={n: Seat(n, r, f) for n, (r, f) in seats.items()}, state={}, night=1)
    return settle(parse_catalog(doc, "tell.toml"), table, [Action(a, s, (t,), index=i) for i, (a, s, t) in enumerate(acts)])


def test_the_holder_is_told_the_targets_in_the_steps_own_log_line() -> None:
    res = _run(night(log="{step} 女巫{holder}通灵：被指杀的是{targets}"), ("P2", "杀人", "P3"))
    assert [(f.to, f.content) for f in res.feedback] == [("P1", "通灵：P3")]
    assert "(3) 女巫P1通灵：被指杀的是P3" in res.log
    quiet = _run(night(log="{step} 女巫{holder}通灵：被指杀的是{targets}"))
    assert [f.content for f in quiet.feedback] == ["通灵：无"] and "(3) 女巫P1通灵：被指杀的是无" in quiet.log


def test_without_a_log_the_engine_writes_its_own_line() -> None:
    res = _run(night(), ("P2", "杀人", "P3"))
    assert "(3) 告知P1（<通灵>）：通灵：P3" in res.log


def test_a_holder_blocked_for_the_skill_is_not_told() -> None:
    res = _run(night(), ("P4", "封印", "P1"), ("P2", "杀人", "P3"))
    assert res.feedback == []
    assert "(3) P1被P4<封印>封锁，当晚没有<通灵>，不告知" in res.log
    other = _run(night(), ("P4", "封印", "P3"), ("P2", "杀人", "P3"))  # a block on someone else: told
    assert [f.content for f in other.feedback] == ["通灵：P3"]

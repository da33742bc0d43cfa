"""Two keys of a (抉择) skill the generic engine settles alone, on a toy night: a form's ``targets`` (M65 空之瞭望
持续 "选定1个目标发动", 枯竭 "选定2个目标发动") and a ``tell`` told ``together`` (one watch of the players it took hold on,
"次日全天可获知这2名目标之间的个人技能情况", with a pending entry for the director).

Before these keys the number of targets by form and the one feedback for the whole submission were 空之瞭望's hook code.
"""

from __future__ import annotations

from typing import Any

import pytest
from toy_rules import toy_rules

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.errors import RulesetError

RULES = toy_rules("watch-toy", "瞭望测试局", 5, ["村庄", "狼人"], [
    {"name": "瞭望者", "faction": "村庄", "count": 1}, {"name": "盾卫", "faction": "村庄", "count": 1},
    {"name": "村民", "faction": "村庄", "count": 1}, {"name": "狼人", "faction": "狼人", "count": 2},
], win="村庄")

TELL = {"kind": "tell", "together": True, "text": "瞭望：次日可获知{targets}之间的技能情况",
        "log": "{step} 瞭望（{actor}）：第{next_day}天可获知{targets}", "pending": "瞭望：{actor}观测{targets}",
        "until": "第{next_day}天全天", "empty": "{step} 瞭望（{actor}）：没有可观测的目标"}


def _night(tell: dict[str, Any] = TELL, sustained: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "ruleset": "watch-toy",
        "steps": [{"n": "1", "skills": ["瞭望"]}],
        "skills": [
            {"name": "瞭望", "roles": ["瞭望者"], "min_targets": 1, "max_targets": 2, "uses": "瞭望",
             "forms": [{"name": "持续", "count": 3, "targets": 1, **(sustained or {})},
                       {"name": "枯竭", "count": 1, "targets": 2}],
             "effects": [tell]},
            {"name": "抉择", "roles": ["瞭望者"], "phase": "setup", "targets": 0,
             "effects": [{"kind": "choose", "text": "{form}"}]},
            {"name": "盾", "roles": ["盾卫"], "phase": "passive", "kind": "强制", "targets": 0, "immune_to": ["*"]},
        ],
    }


def _run(targets: tuple[str, ...], choice: str | None, *, role: str = "瞭望者", night: dict[str, Any] | None = None,
         uses: dict[str, int | bool] | None = None) -> Settlement:
    seats = [Seat("P1", role, "村庄"), Seat("P2", "盾卫", "村庄"), Seat("P3", "村民", "村庄"),
             Seat("P4", "狼人", "狼人"), Seat("P5", "狼人", "狼人")]
    seats[0].uses = dict(uses if uses is not None else {"瞭望": 3})
    if choice is not None:
        seats[0].fields["choice"] = choice
    table = Table(players={s.name: s for s in seats}, state={}, night=2)
    return settle(parse_catalog(night or _night(), "watch-toy.toml"), table, [Action("P1", "瞭望", targets)],
                  ruleset=RULES)


@pytest.mark.parametrize(("choice", "targets", "refused"), [
    ("持续", ("P3",), False), ("持续", ("P3", "P4"), True), ("枯竭", ("P3", "P4"), False), ("枯竭", ("P3",), True),
    (None, ("P3",), False), (None, ("P3", "P4"), False)])
def test_a_form_fixes_the_number_of_targets(choice: str | None, targets: tuple[str, ...], refused: bool) -> None:
    """持续 takes one target, 枯竭 two; a holder who has not chosen takes the skill's own 1–2."""
    res = _run(targets, choice)
    assert [r.reason for r in res.rejected] == ([f"<瞭望>（{choice}）需要选定{3 - len(targets)}个目标"] if refused else [])


def test_a_holder_of_every_form_takes_either_number() -> None:
    """Held without the role (gained in play: "抉择中的两种选项技能都将拥有"), both forms are his: one or two targets."""
    for targets in (("P3",), ("P3", "P4")):
        assert not _run(targets, "持续", role="村民", uses={"瞭望": 1}).rejected


def test_a_form_target_count_outside_the_skill_range_is_refused_by_the_model() -> None:
    with pytest.raises(RulesetError, match="targets = 3"):
        _run(("P3",), "持续", night=_night(sustained={"targets": 3}))


def test_told_once_of_every_player_it_took_hold_on() -> None:
    """One watch of both: one tell, one log line, one pending entry, not one per target; a target immune to it is left out."""
    res = _run(("P3", "P4"), "枯竭")
    assert [(f.to, f.content) for f in res.feedback] == [("P1", "瞭望：次日可获知P3、P4之间的技能情况")]
    assert "(1) 瞭望（P1）：第3天可获知P3、P4" in res.log
    assert [(p.effect, p.player, p.when) for p in res.pending] == [("瞭望：P1观测P3、P4", "P1", "第3天全天")]
    shielded = _run(("P2", "P4"), "枯竭")
    assert [f.content for f in shielded.feedback] == ["瞭望：次日可获知P4之间的技能情况"]


def test_taking_hold_on_nobody_logs_empty_and_tells_nothing() -> None:
    res = _run(("P2",), "持续")
    assert not res.feedback and not res.pending and "(1) 瞭望（P1）：没有可观测的目标" in res.log


def test_without_together_a_tell_takes_no_log_or_pending() -> None:
    with pytest.raises(RulesetError, match="只在 together = true 时读"):
        _run(("P3",), "持续", night=_night(tell={**TELL, "together": False}))

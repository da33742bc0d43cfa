"""Exit triggers by cause and at a step, and effects on the last of a faction, on a toy game: ``trigger.only``
(107 虚体, 腐化 "因投票出局时"), ``trigger.at`` (107 传承 "（14）……（20）被投票出局的角色……得到通知馈赠以及传承"),
``trigger.tells`` (传承 "其得知存活角色名单"), and ``when_last``/``unless_last`` (腐化 "若其是当前亡灵阵营最后一名存活
角色……若不是……"; "不计夜行怪"). 107's own cases: test_phantom_body_keeps_speech_and_vote,
test_corruption_takes_a_companion_or_flips_one_when_last, test_inheritance_* in test_night_dnf_107.py."""

from __future__ import annotations

from typing import Any

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.coverage import coverage
from tracker.engine.night.model import Action, Seat, Settlement, Table

LAST = {"factions": ["鬼"], "except_roles": ["夜鬼"]}


def night() -> dict[str, Any]:
    return {
        "ruleset": "trigger-at-toy",
        "steps": [{"n": "1", "phase": "day", "skills": ["放逐", "刀"]},
                  {"n": "2", "phase": "day"},
                  {"n": "3", "phase": "day"}],
        "skills": [
            {"name": "放逐", "team": "放逐投票", "phase": "day", "targets": 1, "effects": [{"kind": "kill"}]},
            {"name": "刀", "roles": ["刀客"], "phase": "day", "targets": 1, "effects": [{"kind": "kill"}]},
            # 腐化-like: only when voted out, at step 2; flips (here: 鬼) when last, else takes one along
            {"name": "拖拽", "roles": ["腐鬼"], "phase": "day", "targets": 1,
             "trigger": {"only": ["放逐"], "at": ["2"]},
             "effects": [{"kind": "convert", "role": "腐鬼", "faction": "鬼", "when_last": LAST},
                         {"kind": "kill", "cause": "拖拽（{actor}）", "unless_last": LAST}]},
            # 传承-like: at step 3, told the living first; waits for a submission when none came
            {"name": "遗赠", "roles": ["腐鬼", "村民"], "phase": "passive", "targets": 1,
             "trigger": {"at": ["3"], "tells": "遗赠：存活：{living}", "asks": "遗赠：请选择"},
             "effects": [{"kind": "announce", "text": "遗赠：{actor}→{targets}"}]},
        ],
    }


def run(*acts: Action, **seats: tuple[str, str]) -> Settlement:
    players = {"P1": Seat("P1", "腐鬼", "鬼"), "P2": Seat("P2", "村民", "人"), "P3": Seat("P3", "刀客", "人"),
               "P4": Seat("P4", "村民", "人")}
    for name, (role, faction) in seats.items():
        players[name] = Seat(name, role, faction)
    return settle(parse_catalog(night(), "toy.toml"), Table(players=players, state={}, day=2),
                  [Action(a.actor, a.skill, a.targets, index=i) for i, a in enumerate(acts)])


VOTE_P1 = Action("放逐投票", "放逐", ("P1",))


def test_only_lets_the_named_cause_set_it_off() -> None:
    voted = run(Action("P1", "拖拽", ("P2",)), VOTE_P1, P5=("鬼", "鬼"))
    assert [(d.player, d.cause) for d in voted.deaths] == [("P1", "放逐"), ("P2", "拖拽（P1）")]
    cut = run(Action("P1", "拖拽", ("P2",)), Action("P3", "刀", ("P1",)), P5=("鬼", "鬼"))
    assert [d.player for d in cut.deaths] == ["P1"]
    assert [(r.skill, r.reason) for r in cut.rejected] == [("拖拽", "因<刀>出局，不能发动<拖拽>")]


def test_when_last_and_unless_last_are_counted_once_before_its_effects() -> None:
    alone = run(Action("P1", "拖拽", ("P2",)), VOTE_P1)  # no other 鬼 alive: P2 turns, and is not taken along
    assert [d.player for d in alone.deaths] == ["P1"] and [c.player for c in alone.conversions] == ["P2"]
    night_ghost = run(Action("P1", "拖拽", ("P2",)), VOTE_P1, P5=("夜鬼", "鬼"))  # 不计夜鬼
    assert [c.player for c in night_ghost.conversions] == ["P2"]
    assert any("P1是鬼阵营最后一名存活角色（不计夜鬼）" in line for line in night_ghost.log)


def test_at_waits_for_its_step_after_what_the_exit_sets_off() -> None:
    res = run(Action("P1", "拖拽", ("P2",)), Action("P1", "遗赠", ("P4",)), VOTE_P1, P5=("鬼", "鬼"))
    # 拖拽 at step 2 takes P2 along first; 遗赠 at step 3 tells the living without him
    assert [d.player for d in res.deaths] == ["P1", "P2"]
    assert [f.content for f in res.feedback if f.to == "P1"] == ["遗赠：存活：P3、P4、P5"]
    assert "遗赠：P1→P4" in res.lines
    steps = [line for line in res.log if "遗赠" in line or "拖拽" in line]
    assert steps and steps[0].startswith("(2)") and any(x.startswith("(3)") for x in steps)


def test_tells_then_asks_when_nothing_was_submitted() -> None:
    res = run(VOTE_P1, P5=("鬼", "鬼"))
    assert [f.content for f in res.feedback if f.to == "P1"] == ["遗赠：存活：P2、P3、P4、P5"]
    assert [(p.effect, p.player) for p in res.pending] == [("遗赠：请选择", "P1")]


def test_a_trigger_of_a_holder_who_stays_in_is_refused() -> None:
    res = run(Action("P2", "遗赠", ("P4",)), VOTE_P1)
    assert [(r.actor, r.skill) for r in res.rejected] == [("P2", "遗赠")]


def test_triggers_count_as_data() -> None:
    assert {"拖拽", "遗赠"} <= set(coverage(parse_catalog(night(), "t"), None).by_data)


def test_an_exit_by_a_skill_no_step_lists_still_sets_off_its_triggers() -> None:
    """What no step lists is settled after the steps (docs/ruleset.md, ``[[steps]]``). An exit it dealt waited for
    its trigger's ``at`` step, which had passed, and nothing fired: the 村民 P4 cut down by such a skill never
    bequeathed. Now the triggers left are settled once more at the phase's very end."""
    data = night()
    data["skills"].append({"name": "暗箭", "roles": ["刀客"], "phase": "day", "targets": 1, "effects": [{"kind": "kill"}]})
    players = {"P1": Seat("P1", "腐鬼", "鬼"), "P2": Seat("P2", "村民", "人"), "P3": Seat("P3", "刀客", "人"),
               "P4": Seat("P4", "村民", "人"), "P5": Seat("P5", "鬼", "鬼")}
    acts = [Action("P4", "遗赠", ("P2",), index=0), Action("P3", "暗箭", ("P4",), index=1)]
    res = settle(parse_catalog(data, "toy.toml"), Table(players=players, state={}, day=2), acts)
    assert [d.player for d in res.deaths] == ["P4"]
    assert "遗赠：P4→P2" in res.lines and res.rejected == []

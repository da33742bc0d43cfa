"""How much of each game the generic engine settles from data, counted from the code and the data.

The README's game × skill table ("settled from data alone" / "settled by a hook") is checked against
:func:`tracker.engine.night.coverage.coverage`, so the table cannot claim more (or less) than the
engine does. Then the mixed mode on a toy ruleset: the generic engine walks the steps and settles
the skills with ``effects``; a step written ``hook = "…"`` is the only thing the game's code is
asked for.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Sequence
from pathlib import Path

import pytest

from tracker.engine.night import settle
from tracker.engine.night.catalog import NIGHT_DIR, Step, load_catalog, parse_catalog
from tracker.engine.night.coverage import coverage
from tracker.engine.night.flow import Flow
from tracker.engine.night.games import GameHooks, hooks_for
from tracker.engine.night.model import Action, Seat, Table
from tracker.errors import RulesetError

README = Path(__file__).parent.parent / "README.md"
GAMES = sorted(p.stem for p in NIGHT_DIR.glob("*.toml"))
_ROW = re.compile(r"^\|[^|]*\(`(?P<id>[a-z0-9-]+)`\)\s*\|\s*(?P<total>\d+)\s*\|\s*(?P<data>\d+)[^|]*\|\s*(?P<hook>\d+)\s*\|")


def _table_rows() -> dict[str, tuple[int, int, int]]:
    text = README.read_text("utf-8")
    start = text.index("| game | skills | settled from data alone | settled by a hook |")
    rows: dict[str, tuple[int, int, int]] = {}
    for line in text[start:].splitlines()[2:]:
        if not line.startswith("|"):
            break
        m = _ROW.match(line)
        assert m is not None, f"README row not in the table's form: {line}"
        rows[m["id"]] = (int(m["total"]), int(m["data"]), int(m["hook"]))
    return rows


def test_the_readme_table_has_one_row_per_bundled_night() -> None:
    assert sorted(_table_rows()) == GAMES


@pytest.mark.parametrize("game", GAMES)
def test_the_readme_counts_are_the_engines(game: str) -> None:
    """skills = the night file's entries; data = those with ``effects`` no hook is asked for."""
    cov = coverage(load_catalog(game), hooks_for(game))
    assert cov.unsettled == (), f"{game}: skills neither data nor a hook settles: {cov.unsettled}"
    assert _table_rows()[game] == (cov.total, len(cov.by_data), len(cov.by_hook))


@pytest.mark.parametrize("game", GAMES)
def test_every_hooked_skill_says_why(game: str) -> None:
    cov = coverage(load_catalog(game), hooks_for(game))
    assert all(why.strip() for why in cov.by_hook.values()), f"{game}: a hooked skill without its reason"


# -- the mixed mode ----------------------------------------------------------------------------------
NIGHT = {
    "ruleset": "mixed-toy",
    "steps": [
        {"n": "1", "skills": ["守护"]},
        {"n": "2", "skills": ["杀人"]},
        {"n": "3", "hook": "献祭", "skills": ["献祭"]},
        {"n": "4", "resolve": True},
    ],
    "skills": [
        {"name": "守护", "roles": ["守卫"], "targets": 1, "effects": [{"kind": "protect", "stops": ["杀人"]}]},
        {"name": "杀人", "team": "狼群", "roles": ["狼人"], "targets": 1, "effects": [{"kind": "damage"}]},
        {"name": "献祭", "roles": ["祭司"], "targets": 1},
    ],
}


def _sacrifice(flow: Flow, step: Step, actions: Sequence[Action]) -> None:
    """The toy's one clause data cannot say: the priest takes the knife's pending hit on himself."""
    for a in actions:
        for hit in list(flow.pool.hits):
            if hit.target == a.targets[0]:
                flow.pool.hits.remove(hit)
                flow.out(a.actor, "献祭")
                flow.board.note(f"({step.n}) {a.actor}代{hit.target}受死")


HOOKS = GameHooks(steps={"献祭": _sacrifice}, why={"献祭": "测试用：祭司代人受死"},
                  hooked={"献祭": "测试用：祭司代人受死，改变已发生的伤害"})


def _seats() -> Table:
    return Table(players={"P1": Seat("P1", "狼人", "狼人"), "P2": Seat("P2", "守卫", "村民"),
                          "P3": Seat("P3", "祭司", "村民"), "P4": Seat("P4", "村民", "村民")},
                 state={}, night=2)


@pytest.fixture
def mixed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(importlib.import_module("tracker.engine.night.settle"), "hooks_for", lambda _id: HOOKS)


@pytest.mark.usefixtures("mixed")
def test_a_hook_step_settles_inside_the_generic_walk() -> None:
    """Data settles 守护 and 杀人; the hook, asked at its step, moves the pending hit onto the priest."""
    cat = parse_catalog(NIGHT, "mixed.toml")
    acts = [Action("狼群(P1)", "杀人", ("P4",), index=0), Action("P3", "献祭", ("P4",), index=1)]
    res = settle(cat, _seats(), acts)
    assert [(d.player, d.cause) for d in res.deaths] == [("P3", "献祭")]
    assert any(line.startswith("(3) P3代P4受死") for line in res.log)


@pytest.mark.usefixtures("mixed")
def test_data_skills_are_settled_by_the_generic_engine_next_to_a_hook() -> None:
    cat = parse_catalog(NIGHT, "mixed.toml")
    acts = [Action("P2", "守护", ("P4",), index=0), Action("狼群(P1)", "杀人", ("P4",), index=1)]
    res = settle(cat, _seats(), acts)
    assert res.deaths == [] and [s.player for s in res.survivals] == ["P4"]


def test_the_count_of_a_mixed_game() -> None:
    cov = coverage(parse_catalog(NIGHT, "mixed.toml"), HOOKS)
    assert (cov.by_data, list(cov.by_hook)) == (("守护", "杀人"), ["献祭"])


def test_a_hook_step_the_game_does_not_supply_is_an_error() -> None:
    cat = parse_catalog(NIGHT, "mixed.toml")
    with pytest.raises(RulesetError, match="只能由钩子模块结算"):
        settle(cat, _seats(), [Action("P3", "献祭", ("P4",))])


def test_hooks_name_the_steps_they_settle() -> None:
    """No hook walks a whole phase: a hook package with no step of its own is a mistake."""
    with pytest.raises(ValueError, match="steps"):
        GameHooks(why={}, steps={})


def test_an_inspect_of_the_surface_reads_the_players_surface_fields() -> None:
    """``seen = "surface"`` with no game hook: the player's 表面阵营 field, told in the effect's ``text``."""
    night = {"ruleset": "surface-toy", "steps": [{"n": "1", "skills": ["预言"]}], "skills": [
        {"name": "预言", "roles": ["预言家"], "targets": 1, "effects": [
            {"kind": "inspect", "seen": "surface", "words": {"村民": "好人", "狼人": "坏人"}, "text": "预言：{target} {answer}"}]}]}
    t = _seats()
    t.players["P1"].fields["表面阵营"] = "村民"
    t.players["P4"].role = "预言家"
    res = settle(parse_catalog(night, "surface.toml"), t, [Action("P4", "预言", ("P1",))])
    assert [(f.to, f.content) for f in res.feedback] == [("P4", "预言：P1 好人")]


def _night(clash_then: str) -> dict[str, object]:
    return {"ruleset": "clash-toy", "steps": [{"n": "1", "skills": ["守护"]}, {"n": "2", "skills": ["杀人"]},
                                                {"n": "3", "skills": ["救药"]}, {"n": "4", "resolve": True}],
            "clashes": [{"protections": ["守护", "救药"], "cause": "奶穿", "then": clash_then}],
            "skills": [
                {"name": "守护", "roles": ["守卫"], "targets": 1, "effects": [{"kind": "protect", "stops": ["杀人"]}]},
                {"name": "杀人", "team": "狼群", "roles": ["狼人"], "targets": 1, "effects": [{"kind": "damage"}]},
                {"name": "救药", "roles": ["祭司"], "targets": 1, "effects": [
                    {"kind": "protect", "stops": ["杀人"]}, {"kind": "lose", "loses": "灵通"}]}]}


def test_a_void_clash_takes_the_protections_off_and_the_damage_goes_through() -> None:
    """213 "[救药]和[守护]均无效": the knife kills with its own cause, not the clash's; ``kill`` dies of the clash."""
    acts = [Action("P2", "守护", ("P4",), index=0), Action("狼群(P1)", "杀人", ("P4",), index=1),
            Action("P3", "救药", ("P4",), index=2)]
    void = settle(parse_catalog(_night("void"), "clash.toml"), _seats(), acts)
    assert [(d.player, d.cause) for d in void.deaths] == [("P4", "杀人")]
    kill = settle(parse_catalog(_night("kill"), "clash.toml"), _seats(), acts)
    assert [(d.player, d.cause) for d in kill.deaths] == [("P4", "奶穿")]


def test_lose_takes_the_actors_own_skill_for_good() -> None:
    t = _seats()
    t.players["P3"].uses["灵通"] = True
    res = settle(parse_catalog(_night("kill"), "clash.toml"), t, [Action("P3", "救药", ("P4",))])
    assert res.state_after["P3.灵通"] is False and res.table_after is not None
    assert res.table_after.players["P3"].uses["灵通"] is False


def test_distinct_from_refuses_a_target_the_other_skill_took_this_phase() -> None:
    """213 捕杀 "选择一名与当晚[悬赏]不重复的角色": refused at its step, whichever was submitted first."""
    night = {"ruleset": "distinct-toy", "steps": [{"n": "1", "skills": ["悬赏"]}, {"n": "2", "skills": ["捕杀"]}],
             "skills": [{"name": "悬赏", "roles": ["祭司"], "targets": 1, "effects": [{"kind": "status", "status": "悬赏"}]},
                        {"name": "捕杀", "roles": ["祭司"], "targets": 1, "distinct_from": ["悬赏"],
                         "effects": [{"kind": "kill"}]}]}
    cat = parse_catalog(night, "distinct.toml")
    res = settle(cat, _seats(), [Action("P3", "捕杀", ("P4",), index=0), Action("P3", "悬赏", ("P4",), index=1)])
    assert [(r.skill, r.reason) for r in res.rejected] == [("捕杀", "<捕杀>需选择与当晚<悬赏>不重复的角色（P4已是<悬赏>的目标）")]
    res = settle(cat, _seats(), [Action("P3", "捕杀", ("P1",), index=0), Action("P3", "悬赏", ("P4",), index=1)])
    assert res.rejected == [] and [d.player for d in res.deaths] == ["P1"]


def test_a_step_with_phases_runs_in_each_of_them_and_no_other() -> None:
    """``phases``: one step for every day phase the post runs it in (107's vote and (19)–(20) end
    whichever day phase is settled). In a phase it does not name, the skill is settled after the
    steps in submission order, without the step's number: the log tells which happened."""
    night = {"ruleset": "phases-toy", "steps": [{"n": "放逐", "phases": ["day", "黄昏"], "skills": ["放逐"]}],
             "skills": [{"name": "放逐", "team": "放逐投票", "phase": "any", "targets": 1,
                         "effects": [{"kind": "kill"}]}]}
    cat = parse_catalog(night, "phases.toml")
    for phase, at_step in ((None, True), ("黄昏", True), ("正午", False)):
        t = Table(players=_seats().players, state={}, night=None, day=2, phase=phase)
        res = settle(cat, t, [Action("放逐投票", "放逐", ("P4",))])
        assert [d.player for d in res.deaths] == ["P4"]
        assert any(line.startswith("(放逐) 放逐投票<放逐>：P4") for line in res.log) is at_step, (phase, res.log)


# -- generic limits and the void hook ---------------------------------------------------------------
LIMITS = {"ruleset": "limits-toy", "steps": [{"n": "1", "skills": ["暗杀"]}, {"n": "2", "skills": ["重击"]}],
          "skills": [
              {"name": "暗杀", "roles": ["狼人", "守卫"], "targets": 1, "per_phase": 1, "effects": [{"kind": "kill"}],
               "clause": "暗杀每晚仅限发动一次。"},
              {"name": "重击", "roles": ["祭司"], "targets": 1, "cooldown": 2, "cooldown_key": "重击上次",
               "effects": [{"kind": "kill"}]}]}


def test_per_phase_refuses_the_submissions_past_the_limit_whoever_sends_them() -> None:
    """107 <偷袭> "每晚仅限发动一次" for all 恶徒 together: the first in the post's order takes effect."""
    res = settle(parse_catalog(LIMITS, "limits.toml"), _seats(),
                 [Action("P1", "暗杀", ("P4",), index=0), Action("P2", "暗杀", ("P3",), index=1)])
    assert [d.player for d in res.deaths] == ["P4"]
    assert [(r.actor, r.reason, r.clause) for r in res.rejected] == [("P2", "<暗杀>每晚仅限发动一次", "暗杀每晚仅限发动一次。")]


def test_the_generic_engine_writes_the_cooldown_key_it_counts_from() -> None:
    """``cooldown_key``: written when the skill is settled, so the next night's refusal reads it."""
    cat = parse_catalog(LIMITS, "limits.toml")
    res = settle(cat, _seats(), [Action("P3", "重击", ("P4",))])
    assert res.state_after["重击上次"] == {"target": "P4", "night": 2}
    assert res.table_after is not None
    after = res.table_after
    for night, refused in ((3, True), (4, False)):
        t = Table(players=after.players, state=dict(after.state), night=night)
        again = settle(cat, t, [Action("P3", "重击", ("P1",))])
        assert bool(again.rejected) is refused, night


def _silenced(flow: Flow, action: Action, step: str) -> bool:
    if "沉默" in flow.board.seat(action.actor).status:
        flow.board.note(f"{step} {action.actor}<{action.skill}>：沉默，无效")
        return True
    return False


def test_the_void_hook_is_asked_before_a_data_skill_takes_effect(monkeypatch: pytest.MonkeyPatch) -> None:
    """``GameHooks.void``: a rule of the post that voids a submission at its step (107 牵制, 潜行 …)."""
    hooks = GameHooks(steps={"献祭": _sacrifice}, why={"献祭": "测试用"}, void=_silenced)
    monkeypatch.setattr(importlib.import_module("tracker.engine.night.settle"), "hooks_for", lambda _id: hooks)
    t = _seats()
    t.players["P1"].status.append("沉默")
    res = settle(parse_catalog(LIMITS, "limits.toml"), t,
                 [Action("P1", "暗杀", ("P4",), index=0), Action("P2", "暗杀", ("P3",), index=1)])
    assert "(1) P1<暗杀>：沉默，无效" in res.log
    assert res.deaths == [] and [r.actor for r in res.rejected] == ["P2"]  # the voided one was still 发动


def test_accel_m65_is_walked_by_the_generic_engine_over_its_steps() -> None:
    """M65's 优先级判定 is the night file's ``[[steps]]`` (0–5 with the post's numbers, then the 增益), each
    a hook step the game supplies or a data step; no hook walks the whole phase."""
    hooks, cat = hooks_for("accel-m65"), load_catalog("accel-m65")
    assert hooks is not None and hooks.steps
    numbered = [s.n for s in cat.steps if s.n]
    assert numbered[numbered.index("0"):] == ["0", "1", "2", "3", "4", "5", "增益"]
    assert all(s.hook in hooks.steps for s in cat.steps if s.hook is not None)


# -- a tell of several skills, silenced by a status (213 <灵通>) -----------------------------------------
TELL = {
    "ruleset": "tell-toy",
    "steps": [
        {"n": "1", "skills": ["杀人"]},
        {"n": "2", "skills": ["捕杀"]},
        {"n": "3", "tell": {"to": "灵视", "about": "杀人", "also": ["捕杀"], "text": "被指杀：{targets}",
                             "empty": "当晚无人被指杀", "unless_status": ["净化"]}},
        {"n": "4", "resolve": True},
    ],
    "skills": [
        {"name": "杀人", "team": "狼群", "roles": ["狼人"], "targets": 1, "effects": [{"kind": "damage"}]},
        {"name": "捕杀", "roles": ["猎手"], "targets": 1, "effects": [{"kind": "damage"}]},
        {"name": "灵视", "roles": ["巫"], "phase": "passive", "kind": "强制"},
    ],
}


def _tell_table(*status: str) -> Table:
    return Table(players={"P1": Seat("P1", "狼人", "狼人"), "P2": Seat("P2", "猎手", "村民"),
                          "P3": Seat("P3", "巫", "村民", status=list(status)), "P4": Seat("P4", "村民", "村民")},
                 state={}, night=2)


def test_a_tell_names_the_targets_of_every_skill_it_is_about_once() -> None:
    """213 灵通 "反馈被指杀的角色": the targets of 杀人 and of 捕杀, in step order, each player once."""
    cat = parse_catalog(TELL, "tell.toml")
    both = settle(cat, _tell_table(), [Action("狼群(P1)", "杀人", ("P4",), index=0),
                                       Action("P2", "捕杀", ("P4",), index=1)])
    assert [f.content for f in both.feedback if f.to == "P3"] == ["被指杀：P4"]
    assert "(3) 告知P3（<灵视>）：被指杀：P4" in both.log
    two = settle(cat, _tell_table(), [Action("P2", "捕杀", ("P1",), index=0),
                                      Action("狼群(P1)", "杀人", ("P4",), index=1)])
    assert [f.content for f in two.feedback if f.to == "P3"] == ["被指杀：P4、P1"]
    none = settle(cat, _tell_table(), [])
    assert [f.content for f in none.feedback if f.to == "P3"] == ["当晚无人被指杀"]


def test_a_tell_is_not_given_to_a_holder_with_a_silencing_status() -> None:
    """213 状态[净化]："[强制]技能也会失效" — the purified witch is told nothing, and the log says why."""
    res = settle(parse_catalog(TELL, "tell.toml"), _tell_table("净化"), [Action("狼群(P1)", "杀人", ("P4",))])
    assert [f for f in res.feedback if f.to == "P3"] == []
    assert any("(3) P3处于[净化]状态" in line for line in res.log)


def test_a_skill_a_tell_step_settles_counts_as_data() -> None:
    cov = coverage(parse_catalog(TELL, "tell.toml"), None)
    assert cov.by_data == ("杀人", "捕杀", "灵视") and cov.unsettled == ()


def test_a_vote_effect_marks_the_target_for_the_next_days_tally() -> None:
    """``kind = "vote"``: the ruleset's ``[[voting.modifiers]]`` entry (default: the skill's name) on the
    target for the next day — night N is followed by day N+1, or by day N where night N comes first."""
    night: dict[str, object] = {"ruleset": "vote-toy", "steps": [{"n": "1", "skills": ["流言"]}], "skills": [
        {"name": "流言", "roles": ["祭司"], "targets": 1, "effects": [{"kind": "vote"}]},
        {"name": "加倍", "roles": ["守卫"], "targets": 1, "effects": [{"kind": "vote", "modifier": "深青之桩"}]}]}
    acts = [Action("P3", "流言", ("P1",), index=0), Action("P2", "加倍", ("P4",), index=1)]
    res = settle(parse_catalog(night, "vote.toml"), _seats(), acts)
    assert [(m.name, m.player, m.day) for m in res.vote_marks] == [("流言", "P1", 3), ("深青之桩", "P4", 3)]
    first = settle(parse_catalog({**night, "night_precedes_day": True}, "vote.toml"), _seats(), acts[:1])
    assert [(m.player, m.day) for m in first.vote_marks] == [("P1", 2)]

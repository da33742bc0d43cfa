"""``reacts`` and ``ready`` on a toy game: what a cast on a player sets off in his own skill, inside the step
that casts it (M65 "X、劫火净化之焰、黄王辐射炫惑嵌套在触发的步骤中").

The toy's 镜 reads like M65's 劫火/黄王: 持续 perceives ("可感知对自己施放的是哪种技能，并获知技能来源"), 枯竭 is
declared the night before (``ready``, "游戏日提前一天夜晚向导演说明下一游戏日使用该技能") and then reflects (反弹)
or moves (更改目标) a cast when its holder answers, never 切割 ("不可反弹<绝对切割>"); a cast that does nothing (M19 警觉)
is the skill's ``immune_to``, not a reaction.
M65's own cases are in test_night_accel_m65.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.coverage import coverage
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.errors import RulesetError

SEEN = {"form": "持续", "passive": True, "tell": "被施放<{skill}>，来源{source}"}
REFLECT = {"form": "枯竭", "declared": "镜生效", "tell": "你被使用了技能", "then": "reflect", "answer": "反弹",
           "keeps": ["切割"], "missing": "{holder}未答复<{skill}>：视为放弃"}
MOVE = {"form": "枯竭", "declared": "镜生效", "then": "redirect", "done": "已将<{skill}>改为{target}"}


def night(*reacts: dict[str, Any], mirror: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "ruleset": "reacts-toy",
        "steps": [{"n": "1", "skills": ["镜", "封"]}, {"n": "2", "skills": ["切割", "刀", "钉"]}],
        "skills": [
            {"name": "镜", "roles": ["镜者"], "phase": "any", "max_targets": 1, "reacts": list(reacts),
             "effects": [{"kind": "ready", "text": "镜：第{day}天生效"}] if any("declared" in r for r in reacts) else [],
             **(mirror or {})},
            {"name": "封", "roles": ["封者"], "targets": 1, "effects": [{"kind": "block", "voids": ["*"]}]},
            {"name": "刀", "roles": ["刀客"], "targets": 1, "effects": [{"kind": "kill"}]},
            {"name": "切割", "roles": ["黑王"], "targets": 1, "effects": [{"kind": "kill"}]},
            {"name": "钉", "roles": ["骑士"], "targets": 1, "effects": [{"kind": "vote"}]},
        ],
    }


def table(choice: str = "枯竭", state: dict[str, Any] | None = None, n: int = 3) -> Table:
    return Table(players={"P1": Seat("P1", "镜者", "甲", fields={"choice": choice}, uses={"镜": 1}),
                          "P2": Seat("P2", "刀客", "乙"), "P3": Seat("P3", "村民", "甲"),
                          "P4": Seat("P4", "黑王", "乙"), "P5": Seat("P5", "封者", "乙"), "P6": Seat("P6", "骑士", "乙")},
                 state=dict(state or {}), night=n)


ON = {"镜生效": {"P1": 3}}


def run(cat: dict[str, Any], t: Table, *acts: Action) -> Settlement:
    return settle(parse_catalog(cat, "toy.toml"), t, [Action(a.actor, a.skill, a.targets, a.choice, index=i)
                                                      for i, a in enumerate(acts)])


def told(res: Settlement) -> list[tuple[str, str]]:
    return [(f.to, f.content) for f in res.feedback]


def test_a_passive_perception_tells_the_skill_and_its_source() -> None:
    res = run(night(SEEN, REFLECT), table("持续"), Action("P6", "钉", ("P1",)))
    assert told(res) == [("P1", "被施放<钉>，来源P6")] and "(2) P1<镜>（持续）：感知到<钉>，来源P6" in res.log
    assert [m.player for m in res.vote_marks] == ["P1"]
    assert run(night(SEEN), table("持续"), Action("P6", "钉", ("P3",))).feedback == []  # not his own target
    blocked = run(night(SEEN), table("持续"), Action("P5", "封", ("P1",)), Action("P6", "钉", ("P1",)))
    assert told(blocked) == [("P1", "被施放<封>，来源P5")] and "(2) P1被P5<封>封锁，当晚<镜>（持续）不能感知<钉>" in blocked.log


def test_ready_declares_the_form_for_the_next_game_day_and_counts_a_use() -> None:
    res = run(night(SEEN, REFLECT), table(n=2), Action("P1", "镜", choice="枯竭"))
    assert res.state_after["镜生效"] == {"P1": 3} and res.state_after["P1.镜"] == 0
    assert told(res) == [("P1", "镜：第3天生效")] and res.rejected == []


def test_reflect_only_on_the_declared_day_and_only_when_answered() -> None:
    cast = (Action("P2", "刀", ("P1",)), Action("P1", "镜", choice="反弹"))
    res = run(night(SEEN, REFLECT), table(state=ON), *cast)
    assert [d.player for d in res.deaths] == ["P2"] and ("P1", "你被使用了技能") in told(res)
    assert "(2) P1<镜>（枯竭）：反弹<刀>，改由来源P2承受" in res.log and res.rejected == []
    assert "P1.镜" not in res.state_after  # an answer is no use of the skill
    other_day = run(night(SEEN, REFLECT), table(state={"镜生效": {"P1": 2}}), *cast)
    assert [d.player for d in other_day.deaths] == ["P1"]
    silent = run(night(SEEN, REFLECT), table(state=ON), Action("P2", "刀", ("P1",)))
    assert [d.player for d in silent.deaths] == ["P1"] and "(2) P1未答复<刀>：视为放弃" in silent.log
    kept = run(night(SEEN, REFLECT), table(state=ON), Action("P4", "切割", ("P1",)), Action("P1", "镜", choice="反弹"))
    assert [d.player for d in kept.deaths] == ["P1"] and ("P1", "你被使用了技能") in told(kept)  # perceived, kept


def test_the_form_is_the_holders_choice_and_a_gained_skill_holds_every_form() -> None:
    cast = (Action("P2", "刀", ("P1",)), Action("P1", "镜", choice="反弹"))
    assert [d.player for d in run(night(SEEN, REFLECT), table("持续", ON), *cast).deaths] == ["P1"]
    gained = table(state={"镜生效": {"P3": 3}})
    gained.players["P3"].uses["镜"] = 1
    res = run(night(SEEN, REFLECT), gained, Action("P2", "刀", ("P3",)), Action("P3", "镜", choice="反弹"))
    assert [d.player for d in res.deaths] == ["P2"] and ("P3", "被施放<刀>，来源P2") in told(res)


def test_redirect_moves_the_cast_to_the_answers_target_once() -> None:
    res = run(night(MOVE), table(state=ON), Action("P2", "刀", ("P1",)), Action("P1", "镜", ("P3",)))
    assert [d.player for d in res.deaths] == ["P3"] and ("P1", "已将<刀>改为P3") in told(res)
    res = run(night(MOVE), table(state=ON), Action("P2", "刀", ("P1",)), Action("P1", "镜", ("P3",)),
              Action("P4", "切割", ("P3",)))  # 切割 comes first: the answer's target is out by then
    assert [d.player for d in res.deaths] == ["P3", "P1"] and "(2) P1<镜>：新目标P3已出局，<刀>的目标不变" in res.log


def test_a_cast_that_does_nothing_is_immunity_not_a_reaction() -> None:
    """One home for "此技能无效" (M19 警觉): ``immune_to`` with ``immune_told``; ``then = "void"`` is no reaction."""
    with pytest.raises(RulesetError, match="then"):
        parse_catalog(night({"to": ["刀"], "then": "void"}), "t")
    alert = {"immune_to": ["刀"], "immune_told": "警觉：{actor}对你使用了<{skill}>（无效）"}
    res = run(night(SEEN, mirror=alert), table("持续"), Action("P2", "刀", ("P1",)), Action("P6", "钉", ("P1",)))
    assert res.deaths == [] and ("P1", "警觉：P2对你使用了<刀>（无效）") in told(res)
    assert [m.player for m in res.vote_marks] == ["P1"]  # 钉 is not one it meets


def test_a_reacting_skill_counts_as_data() -> None:
    assert "镜" in coverage(parse_catalog(night(SEEN), "t"), None).by_data


@pytest.mark.parametrize(("reaction", "words"), [
    ({"then": "reflect"}, "answer"),
    ({"to": ["刃"]}, "刃"),
    ({"tell": "x", "answer": "反弹"}, "answer"),
    ({"to": ["刀"], "not_to": ["钉"]}, "not_to"),
])
def test_a_reaction_says_what_it_needs(reaction: dict[str, Any], words: str) -> None:
    with pytest.raises(RulesetError, match=words):
        parse_catalog(night(reaction), "t")


def test_ready_needs_a_declared_reaction() -> None:
    with pytest.raises(RulesetError, match="ready"):
        parse_catalog(night(SEEN, mirror={"effects": [{"kind": "ready"}]}), "t")

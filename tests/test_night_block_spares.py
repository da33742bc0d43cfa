"""A ``block`` with the post's exceptions (``spares``, ``spares_kinds``, ``spares_passive``), a day skill that blocks
"当晚" (``tonight``: the step's ``sent``, the day's own settlement's ``pending``, a caster voted out later that day),
``no_repeat`` counted by game days, and a ``tell`` told though the cast met a shield — on toy nights the generic
engine settles alone.

M65 飞行头槌: "游戏日白天任意时刻，可以选择对一名玩家使用，使得该玩家当晚无法使用任何技能，不包括被动技能和<绝对切割>。
每天限一次。不可对同一目标连续使用。"; 天璇紫后 the same but "不包括强制技能和<绝对切割>" (a 持续 perception, which nobody
submits, is stopped by it and not by 飞行头槌).
"""

from __future__ import annotations

from typing import Any

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.model import Action, Seat, Settlement, Table

HEADBUTT = "飞行头槌：使得该玩家当晚无法使用任何技能，不包括被动技能和<绝对切割>"


def rules(**block: Any) -> dict[str, Any]:
    effect = {"kind": "block", "voids": ["*"], "refuses": "{target}被<头槌>封锁，当晚无法使用<{skill}>",
              "pending": "头槌：当晚无法使用任何技能", **block}
    return {
        "ruleset": "spares-toy",
        "steps": [{"n": "1", "skills": ["头槌", "夜槌"], "sent": "day"}, {"n": "2", "skills": ["切割"]},
                  {"n": "3", "skills": ["头槌", "夜槌"], "sent": "night"}, {"n": "4", "skills": ["禁言", "守卫", "查验", "标记"]}],
        "skills": [
            {"name": "头槌", "roles": ["银鸦"], "phase": "day", "tonight": True, "targets": 1, "no_repeat": "头槌上次",
             "clause": HEADBUTT, "effects": [effect, {"kind": "tell", "text": "已执行<头槌>"}]},
            {"name": "夜槌", "roles": ["银鸦", "劫火"], "phase": "any", "tonight": True, "targets": 1,
             "effects": [{"kind": "block", "voids": ["*"], "log": "{step} 夜槌→{target}"}]},
            {"name": "禁言", "roles": ["骑士"], "targets": 1, "effects": [{"kind": "block", "voids": ["*"]}]},
            {"name": "切割", "roles": ["黑王"], "targets": 1, "effects": [{"kind": "kill", "cause": "切割"}]},
            {"name": "守卫", "roles": ["骑士", "绿王"], "kind": "强制", "targets": 1, "effects": [{"kind": "protect"}]},
            {"name": "查验", "roles": ["骑士", "绿王"], "targets": 1,
             "effects": [{"kind": "inspect", "text": "查验：{target} {answer}"}]},
            {"name": "标记", "roles": ["骑士"], "targets": 1, "effects": [{"kind": "tell", "text": "已标记{target}"}]},
            {"name": "盾", "roles": ["绿王"], "phase": "passive", "kind": "强制", "targets": 0, "immune_to": ["*"]},
            {"name": "感知", "roles": ["劫火"], "phase": "passive", "targets": 0,
             "reacts": [{"passive": True, "tell": "被施放<{skill}>，来源{source}"}]},
        ],
    }


def run(n: dict[str, Any], *rows: tuple[str, str, str] | tuple[str, str, str, str], night: int | None = 2,
        day: int | None = None, state: dict[str, Any] | None = None, out: dict[str, Any] | None = None) -> Settlement:
    seats = {"P1": Seat("P1", "银鸦", "甲"), "P2": Seat("P2", "骑士", "甲"), "P3": Seat("P3", "黑王", "乙"),
             "P4": Seat("P4", "劫火", "乙"), "P5": Seat("P5", "绿王", "乙")}
    for name, gone in (out or {}).items():
        seats[name].alive = False
        seats[name].fields["出局"] = gone
    table = Table(players=seats, state=dict(state or {}), night=night, day=day)
    acts = [Action(r[0], r[1], (r[2],), phase=r[3] if len(r) > 3 else None, index=i)  # type: ignore[misc]
            for i, r in enumerate(rows)]
    return settle(parse_catalog(n, "toy.toml"), table, acts)


def test_spares_and_spares_kinds_leave_the_named_skills_and_kinds_alone() -> None:
    res = run(rules(), ("P1", "头槌", "P2", "day"), ("P2", "查验", "P3"), ("P2", "守卫", "P4"))
    assert [(r.skill, r.reason) for r in res.rejected] == [("守卫", "P2被<头槌>封锁，当晚无法使用<守卫>"),
                                                          ("查验", "P2被<头槌>封锁，当晚无法使用<查验>")]
    spared = run(rules(spares=["查验"], spares_kinds=["强制"]), ("P1", "头槌", "P2", "day"), ("P2", "查验", "P3"),
                 ("P2", "守卫", "P4"))
    assert spared.rejected == [] and [f.content for f in spared.feedback if f.to == "P2"] == ["查验：P3 乙"]
    assert [r.clause for r in res.rejected] == [HEADBUTT, HEADBUTT]  # the skill's clause: the effect gives none


def test_another_block_on_the_same_player_still_voids_what_one_spares() -> None:
    res = run(rules(spares=["查验"]), ("P1", "头槌", "P4", "day"), ("P2", "禁言", "P4"), ("P4", "查验", "P3"))
    assert [r.skill for r in res.rejected] == ["查验"]


def test_spares_passive_keeps_a_perception_nobody_submits() -> None:
    stopped = run(rules(), ("P1", "头槌", "P4", "day"), ("P2", "查验", "P4"))
    assert [f.content for f in stopped.feedback if f.to == "P4"] == ["被施放<头槌>，来源P1"]  # the day's cast only
    assert any("P4被P1<头槌>封锁，当晚<感知>不能感知<查验>" in line for line in stopped.log)
    kept = run(rules(spares_passive=True), ("P1", "头槌", "P4", "day"), ("P2", "查验", "P4"))
    assert [f.content for f in kept.feedback if f.to == "P4"] == ["被施放<头槌>，来源P1", "被施放<查验>，来源P2"]


def test_sent_settles_the_days_casts_first_and_a_night_use_at_its_own_step() -> None:
    """The day's cast lands before (2)'s kill and meets none of the night's blocks, its user told nothing again; a
    night use of a skill of any phase (M65: one lent by 技能掠夺) waits for (3), after (2)."""
    day_cast = run(rules(), ("P3", "切割", "P1"), ("P1", "头槌", "P2", "day"), ("P2", "禁言", "P1"), ("P2", "查验", "P3"))
    assert [r.skill for r in day_cast.rejected] == ["禁言", "查验"]  # the 头槌 of the day stands, P1 cut at (2)
    assert [f.content for f in day_cast.feedback if f.to == "P1"] == []  # told in the day, not again at night
    both = run(rules(), ("P4", "夜槌", "P3"), ("P3", "切割", "P2"), ("P1", "夜槌", "P2", "day"))
    assert [line for line in both.log if "夜槌→" in line or "切割" in line] == [
        "(1) 夜槌→P2", "(2) P3<切割>：P2", "P2出局（切割）", "(3) 夜槌→P3"]


def test_a_day_cast_stands_when_its_caster_was_voted_out_later_that_day_not_an_earlier_one() -> None:
    same_day = run(rules(), ("P1", "头槌", "P2", "day"), ("P2", "查验", "P3"), out={"P1": {"day": 2, "cause": "投票"}})
    assert [r.skill for r in same_day.rejected] == ["查验"]
    earlier = run(rules(), ("P1", "头槌", "P2", "day"), ("P2", "查验", "P3"), out={"P1": {"day": 1, "cause": "投票"}})
    assert [(r.skill, r.reason) for r in earlier.rejected] == [("头槌", "P1已出局，不能发动技能")]


def test_the_days_own_settlement_voids_nothing_and_leaves_the_night_a_pending_entry() -> None:
    res = run(rules(), ("P1", "头槌", "P2"), night=None, day=3)
    assert res.rejected == [] and [f.content for f in res.feedback] == ["已执行<头槌>"]
    assert [(p.effect, p.player, p.when) for p in res.pending] == [("头槌：当晚无法使用任何技能", "P2", "第3夜")]
    assert res.state_after["头槌上次"] == {"target": "P2", "day": 3}


def test_no_repeat_of_a_day_skill_counts_game_days() -> None:
    again = run(rules(), ("P1", "头槌", "P2"), night=None, day=3, state={"头槌上次": {"target": "P2", "day": 2}})
    assert [(r.skill, r.reason) for r in again.rejected] == [("头槌", "<头槌>不能连续两天选择同一名玩家（第2天已选P2）")]
    gap = run(rules(), ("P1", "头槌", "P2"), night=None, day=4, state={"头槌上次": {"target": "P2", "day": 2}})
    assert gap.rejected == []
    at_night = run(rules(), ("P1", "头槌", "P2", "day"), night=3, state={"头槌上次": {"target": "P2", "day": 2}})
    assert [r.skill for r in at_night.rejected] == ["头槌"]  # night 3 follows day 3


def test_a_tell_is_told_though_the_cast_met_a_shield() -> None:
    res = run(rules(), ("P2", "标记", "P5"))
    assert [f.content for f in res.feedback if f.to == "P2"] == ["已标记P5"]

"""Generic keys on a toy night settled by the generic engine alone: a ``trigger`` that is ``forced`` (强制: it
acts by itself on its holder's exit, nobody submits it) and the ``extra`` effect (one more use of a skill on
the next night) — M19 激励<强制> "当幼狼并非因红牌罚下而出局后，仅限下一个夜晚，狼人可以再使用一次<杀人>技能"."""

from __future__ import annotations

from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.catalog import Catalog, parse_catalog
from tracker.engine.night.checks import refusal
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.errors import RulesetError

SPUR = {"kind": "extra", "again": "杀人", "state": "激励", "tag": "狼群", "text": "激励：第{night}夜可以再杀一次"}


def night(**spur: Any) -> dict[str, Any]:
    return {
        "ruleset": "extra-toy",
        "steps": [{"n": "1", "skills": ["杀人"]}, {"n": "2", "skills": ["处决"]}],
        "skills": [
            {"name": "杀人", "team": "狼群", "roles": ["狼人", "幼狼"], "targets": 1, "effects": [{"kind": "kill"}]},
            {"name": "处决", "roles": ["法官"], "targets": 1, "effects": [{"kind": "kill", "cause": "红牌罚下"}]},
            {"name": "激励", "roles": ["幼狼"], "phase": "passive", "kind": "强制",
             "trigger": {"forced": True, "unless": ["红牌罚下"]}, "effects": [{**SPUR, **spur}]},
        ],
    }


def _table(night_no: int, state: dict[str, Any] | None = None, cub_alive: bool = True) -> Table:
    seats = {"W1": ("狼人", "狼人"), "W2": ("幼狼", "狼人"), "V1": ("村民", "村民"), "V2": ("村民", "村民"),
             "V3": ("村民", "村民"), "J": ("法官", "村民")}
    players = {n: Seat(n, r, f, tags=["狼群"] if f == "狼人" else []) for n, (r, f) in seats.items()}
    players["W2"].alive = cub_alive
    return Table(players=players, state=dict(state or {}), night=night_no)


def _run(cat: Catalog, table: Table, *acts: tuple[str, str, str]) -> Settlement:
    return settle(cat, table, [Action(a, s, (t,), index=i) for i, (a, s, t) in enumerate(acts)])


def test_the_cub_out_gives_the_pack_one_more_kill_the_next_night_only() -> None:
    cat = parse_catalog(night(), "extra.toml")
    first = _run(cat, _table(1), ("狼群(W1,W2)", "杀人", "W2"))
    assert first.state_after["激励"] == {"night": 2}
    assert [(f.to, f.content) for f in first.feedback] == [("W1", "激励：第2夜可以再杀一次")]
    kills = (("狼群(W1)", "杀人", "V1"), ("狼群(W1)", "杀人", "V2"), ("狼群(W1)", "杀人", "V3"))
    second = _run(cat, _table(2, {"激励": {"night": 2}}, cub_alive=False), *kills)
    assert [d.player for d in second.deaths] == ["V2", "V3"]  # the last two count
    third = _run(cat, _table(3, {"激励": {"night": 2}}, cub_alive=False), *kills)
    assert [d.player for d in third.deaths] == ["V3"]  # "仅限下一个夜晚"


def test_a_red_card_exit_gives_nothing_and_nobody_submits_the_forced_skill() -> None:
    cat = parse_catalog(night(), "extra.toml")
    res = _run(cat, _table(1), ("J", "处决", "W2"))
    assert [d.player for d in res.deaths] == ["W2"] and "激励" not in res.state_after and res.feedback == []
    table = _table(1)
    why = refusal(table, Action("W2", "激励"), cat.skill("激励"))
    assert why == "<激励>是强制技能，出局时自行发动，无需提交"


def test_extra_must_name_the_skill_and_the_state_and_a_told_tag_its_words() -> None:
    with pytest.raises(RulesetError):
        parse_catalog(night(again=None), "extra.toml")
    with pytest.raises(RulesetError):
        bare = {k: v for k, v in SPUR.items() if k != "text"}
        doc = night()
        doc["skills"][2]["effects"] = [bare]
        parse_catalog(doc, "extra.toml")
    with pytest.raises(RulesetError):
        doc = night()
        doc["skills"][2]["trigger"] = {"forced": True, "asks": "请选择"}
        parse_catalog(doc, "extra.toml")


def test_on_its_night_it_raises_the_skills_per_phase_too() -> None:
    """One notion of "more uses" (107 集群's ``while_alive`` is the same effect): a skill with ``per_phase`` takes
    one more submission, whoever sends it, on the night the effect recorded."""
    doc = night()
    doc["skills"][0] = {**doc["skills"][0], "per_phase": 1, "every_submission": True}
    cat = parse_catalog(doc, "extra.toml")
    kills = (("狼群(W1)", "杀人", "V1"), ("狼群(W1)", "杀人", "V2"), ("狼群(W1)", "杀人", "V3"))
    res = _run(cat, _table(2, {"激励": {"night": 2}}, cub_alive=False), *kills)
    assert [d.player for d in res.deaths] == ["V1", "V2"]
    assert [r.reason for r in res.rejected] == ["<杀人>每晚仅限发动两次（<激励>：本夜可以再使用一次）"]
    plain = _run(cat, _table(3, {"激励": {"night": 2}}, cub_alive=False), *kills)
    assert [d.player for d in plain.deaths] == ["V1"]

"""``learn`` with ``ask = "role_if_dies"``: a choice now, the answer once the phase's deaths are known.

M160 冰恋者【守墓】 "选择两名存活玩家，当他们其中有人在下个黄昏前死去时，你在当晚得知他的【实际身份】": the
submission is settled at its own step, and only at the skill's ``feedback`` step (after the deaths) is the
actor told the actual role of each chosen player who died since — a wrong role while 醉酒 (the director's
pick among the ruleset's roles) — while each one still alive is left to the director (``pending``).
A toy game here; M160's own cases are in test_night_gourmet_m160.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.engine.ruleset import load_ruleset, parse_ruleset
from tracker.engine.ruleset_schema import Ruleset
from tracker.errors import RulesetError

GRAVE = {"kind": "learn", "ask": "role_if_dies", "text": "守墓：{target}是{answer}", "log": "{step} {actor}守着{targets}",
         "pending": "若{target}死去，告知{actor}", "until": "至第{night}天黄昏",
         "distort": {"by": ["醉酒"], "chance": 0.9}}
NIGHT: dict[str, Any] = {
    "ruleset": "grave-toy",
    "steps": [{"n": "1", "skills": ["枪击"]}, {"n": "2", "skills": ["守墓"]}, {"n": "3", "skills": ["杀人"]},
              {"n": "4", "resolve": True}, {"n": "5", "feedback": "守墓"}],
    "skills": [
        {"name": "守墓", "roles": ["守墓人"], "targets": 2, "effects": [GRAVE]},
        {"name": "枪击", "roles": ["猎人"], "targets": 1, "effects": [{"kind": "kill"}]},
        {"name": "杀人", "team": "狼群", "roles": ["狼人"], "targets": 1, "effects": [{"kind": "damage"}]},
    ],
}
ROLES = {"P1": ("守墓人", "好人"), "P2": ("狼人", "狼人"), "P3": ("预言家", "好人"), "P4": ("村民", "好人"),
         "P5": ("猎人", "好人")}


def _rules(tmp: Path) -> Ruleset:
    raw = dict(load_ruleset("werewolf-12").raw)
    raw.update(id="grave-toy", players=5, factions=[{"name": "好人", "size": 4}, {"name": "狼人", "size": 1}],
               roles=[{"name": r, "faction": f} for r, f in ROLES.values()],
               win=[w for w in raw["win"] if w["id"] == "好人"])
    return parse_ruleset(raw, tmp / "toy.toml")


def _table(drunk: bool = False) -> Table:
    return Table(players={n: Seat(n, r, f, status=["醉酒"] if drunk and n == "P1" else []) for n, (r, f) in ROLES.items()},
                 state={}, night=2)


def _run(tmp: Path, *acts: tuple[str, str, tuple[str, ...]], drunk: bool = False, **decide: str) -> Settlement:
    actions = [Action(a, s, t, index=i) for i, (a, s, t) in enumerate(acts)]
    return settle(parse_catalog(NIGHT, "toy.toml"), _table(drunk), actions, ruleset=_rules(tmp), decisions=decide)


def told(res: Settlement) -> list[tuple[str, str]]:
    return [(f.to, f.content) for f in res.feedback]


def test_a_chosen_player_who_dies_later_in_the_phase_is_told_at_the_feedback_step(tmp_path: Path) -> None:
    res = _run(tmp_path, ("P1", "守墓", ("P3", "P4")), ("狼群", "杀人", ("P3",)))
    assert told(res) == [("P1", "守墓：P3是预言家")]
    assert "(2) P1守着P3、P4" in res.log
    assert [(p.effect, p.player, p.when) for p in res.pending] == [("若P4死去，告知P1", "P4", "至第2天黄昏")]
    assert res.log.index("(2) P1守着P3、P4") < res.log.index("(5) P1<守墓>：P3死去 → 预言家")


def test_nobody_dies_nothing_is_told(tmp_path: Path) -> None:
    res = _run(tmp_path, ("P1", "守墓", ("P3", "P4")), ("狼群", "杀人", ("P5",)))
    assert told(res) == [] and [p.player for p in res.pending] == ["P3", "P4"]


def test_a_death_before_the_choice_is_not_told(tmp_path: Path) -> None:
    """"当他们其中有人在下个黄昏前死去时": only a death after the choice; P3 was shot at step 1."""
    res = _run(tmp_path, ("P5", "枪击", ("P3",)), ("P1", "守墓", ("P3", "P4")))
    assert told(res) == [] and [p.player for p in res.pending] == ["P4"]


def test_drunk_the_role_told_is_the_directors_wrong_one(tmp_path: Path) -> None:
    acts = (("P1", "守墓", ("P3", "P4")), ("狼群", "杀人", ("P3",)))
    res = _run(tmp_path, *acts, drunk=True, **{"醉酒错误.P1.守墓": "是", "守墓.错误.P1": "村民"})
    assert told(res) == [("P1", "守墓：P3是村民")]
    wrong = next(q for q in res.questions if q.key == "守墓.错误.P1")
    assert "预言家" not in wrong.options and set(wrong.options) == {r for r, _ in ROLES.values()} - {"预言家"}
    right = _run(tmp_path, *acts, drunk=True, **{"醉酒错误.P1.守墓": "否"})
    assert told(right) == [("P1", "守墓：P3是预言家")]


def test_role_if_dies_needs_its_feedback_step_and_reads_no_match() -> None:
    with pytest.raises(RulesetError, match="feedback"):
        parse_catalog({**NIGHT, "steps": NIGHT["steps"][:-1]}, "toy.toml")
    bad = {**GRAVE, "match": {"values": ["狼人"]}}
    with pytest.raises(RulesetError):
        parse_catalog({**NIGHT, "skills": [{**NIGHT["skills"][0], "effects": [bad]}, *NIGHT["skills"][1:]]}, "toy.toml")
    with pytest.raises(RulesetError):
        parse_catalog({**NIGHT, "skills": [{**NIGHT["skills"][0], "effects": [{"kind": "learn", "ask": "any", "match": {
            "values": ["狼人"]}, "pending": "x"}]}, *NIGHT["skills"][1:]]}, "toy.toml")

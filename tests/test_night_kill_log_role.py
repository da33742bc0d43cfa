"""An effect's ``log`` names the target's role with ``{role}``, on a toy game: the words 213's day exits are written
with ("{step} {target}（{role}）出局": 投票 and 坚强出局 are ``kill`` effects whose line the hook wrote before). 213's own
cases: the vote and 坚强出局 tests in test_night_sanguo_213.py."""

from __future__ import annotations

from toy_rules import toy_rules

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.model import Action, Seat, Table

RULES = toy_rules("kill-log-toy", "放逐测试局", 3, ["民", "狼"], [
    {"name": "村民", "faction": "民", "count": 2}, {"name": "狼人", "faction": "狼"}], win="民")
NIGHT = {
    "ruleset": "kill-log-toy",
    "steps": [{"n": "黄昏(1)", "phase": "day", "skills": ["放逐"]}],
    "skills": [{"name": "放逐", "team": "放逐投票", "phase": "day", "targets": 1,
                "effects": [{"kind": "kill", "cause": "投票", "log": "{step} {target}（{role}）出局"}]}],
}


def test_the_log_line_names_the_targets_role() -> None:
    players = {"P1": Seat("P1", "村民", "民"), "P2": Seat("P2", "村民", "民"), "P3": Seat("P3", "狼人", "狼")}
    res = settle(parse_catalog(NIGHT, "toy.toml"), Table(players=players, state={}, day=2),
                 [Action("放逐投票", "放逐", ("P3",), index=0)], ruleset=RULES)
    assert [d.player for d in res.deaths] == ["P3"] and res.deaths[0].cause == "投票"
    assert "黄昏(1) P3（狼人）出局" in res.log

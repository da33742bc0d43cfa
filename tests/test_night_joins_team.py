"""``joins_team``: a skill's holders know a team's players and share its group, in the reading a ruleset option
chooses (107 统御<锁定> "天谴者与活尸互知共群"), on a toy night the generic engine settles alone.

Before the key nothing settled the sentence: a holder sending the team's skill was refused as not being the team,
whatever the director read "共群" to mean, and nobody was told of anyone.
"""

from __future__ import annotations

from typing import Any

import pytest
from toy_rules import toy_rules

from tracker.engine.night import settle
from tracker.engine.night.catalog import Catalog, parse_catalog
from tracker.engine.night.coverage import coverage
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.engine.ruleset import Ruleset

OPTION = {"key": "shared_group", "default": "chat", "choices": ["chat", "acts"], "description": "共群的两种读法",
          "clause": "统御：锁定，天谴者与活尸互知共群。"}
RULES = toy_rules("join-toy", "统御测试局", 5, ["村庄", "亡灵"], [
    {"name": "村民", "faction": "村庄", "count": 3}, {"name": "活尸", "faction": "亡灵", "count": 1},
    {"name": "天谴者", "faction": "亡灵", "count": 1}, {"name": "神启者", "faction": "村庄", "count": 0},
], win="村庄", options=[OPTION])

JOIN = {"team": "活尸", "option": "shared_group", "told": "统御：活尸：{players}", "told_team": "统御：天谴者{player}"}


def _catalog(join: dict[str, Any] | None) -> Catalog:
    lord: dict[str, Any] = {"name": "统御", "roles": ["天谴者"], "phase": "passive", "kind": "锁定"}
    if join is not None:
        lord["joins_team"] = join
    return parse_catalog({
        "ruleset": "join-toy",
        "flip": {"pairs": {"神启者": "天谴者"}, "faction": "亡灵"},
        "steps": [{"n": "1", "skills": ["转生", "啃咬"]}],
        "skills": [
            {"name": "啃咬", "roles": ["活尸"], "team": "活尸", "kind": "团队", "targets": 1, "per_phase": 1,
             "every_submission": True, "effects": [{"kind": "kill", "cause": "啃咬"}]},
            {"name": "转生", "roles": ["神启者"], "targets": 0, "effects": [{"kind": "convert", "flip": True, "to": "actor"}]},
            lord,
        ],
    }, "join-toy.toml")


def _run(cat: Catalog, reading: str | None, *acts: tuple[str, str, tuple[str, ...]], prophet: bool = False) -> Settlement:
    seats = [Seat("P1", "村民", "村庄"), Seat("P2", "村民", "村庄"), Seat("P3", "村民", "村庄"),
             Seat("P4", "活尸", "亡灵"), Seat("P5", "神启者", "村庄") if prophet else Seat("P5", "天谴者", "亡灵")]
    rules: Ruleset = RULES if reading is None else RULES.with_options({"shared_group": reading})
    return settle(cat, Table(players={s.name: s for s in seats}, state={}, night=2),
                  [Action(a, s, t, index=i) for i, (a, s, t) in enumerate(acts)], ruleset=rules)


def test_chat_the_default_refuses_his_bite_and_names_the_reading() -> None:
    res = _run(_catalog(JOIN), None, ("P5", "啃咬", ("P1",)))
    assert [d.player for d in res.deaths] == []
    assert "按选项 shared_group = chat；选 acts 则可发动" in res.rejected[0].reason


def test_acts_makes_him_one_of_the_team_its_limits_shared() -> None:
    res = _run(_catalog(JOIN), "acts", ("P5", "啃咬", ("P1",)), ("P4", "啃咬", ("P2",)))
    assert [d.player for d in res.deaths] == ["P1"] and [r.actor for r in res.rejected] == ["P4"]
    assert any("选项 shared_group = acts" in line for line in res.log)


def test_sent_with_the_team_he_is_a_member_only_when_sharing_means_acting() -> None:
    res = _run(_catalog(JOIN), "acts", ("P4+P5", "啃咬", ("P1",)))
    assert [d.player for d in res.deaths] == ["P1"] and res.rejected == []
    res = _run(_catalog(JOIN), "chat", ("P4+P5", "啃咬", ("P1",)))  # the engine's own check of the named members
    assert [r.reason for r in res.rejected] == ["P5（天谴者）不是活尸的成员，不能发动<啃咬>"]


def test_becoming_a_holder_they_learn_each_other() -> None:
    res = _run(_catalog(JOIN), None, ("P5", "转生", ()), prophet=True)
    told = {(f.to, f.content) for f in res.feedback}
    assert {("P5", "统御：活尸：P4"), ("P4", "统御：天谴者P5")} <= told


def test_without_the_key_he_is_refused_as_no_member_and_told_nothing() -> None:
    cat = _catalog(None)
    res = _run(cat, "acts", ("P5", "啃咬", ("P1",)))
    assert res.rejected[0].reason == "<啃咬>是活尸的团队行动，应以团队提交"
    told = _run(cat, None, ("P5", "转生", ()), prophet=True).feedback
    assert not any("统御" in f.content for f in told)
    assert "统御" not in coverage(cat, None).by_data and "统御" in coverage(_catalog(JOIN), None).by_data


@pytest.mark.parametrize("bad", [{"team": "活尸"}, {"option": "x"}])
def test_the_key_names_its_team_and_its_option(bad: dict[str, Any]) -> None:
    from tracker.errors import RulesetError
    with pytest.raises(RulesetError):
        _catalog(bad)


def _inline(option: dict[str, Any] | None) -> dict[str, Any]:
    """The toy ruleset with its night inline (``[night]``): the file a director writes, read whole."""
    night = {"steps": [{"n": "1", "skills": ["啃咬"]}], "skills": [
        {"name": "啃咬", "roles": ["活尸"], "team": "活尸", "kind": "团队", "targets": 1,
         "effects": [{"kind": "kill", "cause": "啃咬"}]},
        {"name": "统御", "roles": ["天谴者"], "phase": "passive", "kind": "锁定", "joins_team": JOIN}]}
    return {**dict(RULES.raw), "options": [] if option is None else [option], "night": night}


@pytest.mark.parametrize(("option", "why"), [
    (None, "没有声明"),
    ({**OPTION, "choices": [], "default": "chat"}, "choices 须是 acts / chat"),
    ({**OPTION, "choices": ["chat", "join"]}, "choices 须是 acts / chat"),
])
def test_the_option_it_reads_is_checked_when_the_ruleset_is_read(option: dict[str, Any] | None, why: str) -> None:
    """Before, a ruleset whose ``joins_team`` named an undeclared option, or one with other readings (a typo'd
    "join", no ``choices`` at all), loaded and passed ``ruleset check``; the first night a 天谴者 sent a 啃咬 then
    stopped on it. Now the file is refused as it is read, with the key's path."""
    from tracker.engine.ruleset_reader import parse_ruleset
    from tracker.errors import RulesetError
    with pytest.raises(RulesetError, match=why) as err:
        parse_ruleset(_inline(option))
    assert "joins_team" in str(err.value)
    assert parse_ruleset(_inline(OPTION)).night_catalog is not None

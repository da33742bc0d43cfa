"""The night engine's own machinery on a toy ruleset: refusals from data, purity, seeds, the CLI.

The five games' settlements are tested in their own files against their rule posts; this file
proves what every game relies on: a refusal is decided by the skill's data keys with the clause
attached, settling never changes its input, a seed fixes every open choice, a director's decision
overrides it, and the command line validates its scenario against the schema.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from tracker.cli import main
from tracker.engine.night import load_catalog, settle
from tracker.engine.night.games import MODULES
from tracker.engine.night.model import Action, Seat, Table
from tracker.engine.night.scenario import load, validate
from tracker.engine.ruleset import load_ruleset
from tracker.errors import ConfigError, RulesetError

TOY = Path(__file__).parent / "fixtures" / "night" / "toy" / "toy.toml"
EXAMPLES = Path(__file__).parent / "fixtures" / "night" / "examples.json"


@pytest.fixture(autouse=True)
def toy_hooks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(MODULES, "toy-night", "night_toy_hooks")


def _catalog():  # type: ignore[no-untyped-def]
    rs = load_ruleset(str(TOY))
    return load_catalog(rs.id, rs.night_path, tuple(r.name for r in rs.roles))


def _table(night: int = 2, **state: object) -> Table:
    return Table(players={
        "P01": Seat("P01", "狼人", "狼人"), "P02": Seat("P02", "守卫", "村民"),
        "P03": Seat("P03", "村民", "村民"), "P04": Seat("P04", "村民", "村民", alive=False),
    }, state=dict(state), night=night)


def test_refusals_come_from_the_skill_data_with_the_clause() -> None:
    cat = _catalog()
    acts = [
        Action("P02", "守护", ("P03",)),                    # same target as last night: refused
        Action("P03", "守护", ("P02",)),                    # a 村民 has no <守护>
        Action("狼群(P01)", "杀人", ("P04",)),               # P04 is out
        Action("P04", "加时", (), phase="day"),              # out actor, and wrong phase
    ]
    res = settle(cat, _table(守护上次={"target": "P03", "night": 1}), acts)
    reasons = [(r.actor, r.reason) for r in res.rejected]
    assert reasons[0] == ("P02", "<守护>不能连续两晚选择同一名玩家（第1夜已选P03）")
    assert reasons[1] == ("P03", "P03（村民）没有技能<守护>")
    assert reasons[2] == ("狼群(P01)", "P04已出局，不能成为<杀人>的目标")
    assert reasons[3] == ("P04", "P04已出局，不能发动技能")
    assert res.rejected[0].clause.startswith("守卫每晚守护一名玩家")
    assert res.deaths == []


def test_first_night_star_and_self_target() -> None:
    res = settle(_catalog(), _table(night=1), [Action("P02", "守护", ("P03",)),
                                                Action("狼群(P01)", "杀人", ("P01",))])
    assert [r.reason for r in res.rejected] == ["<守护>首夜不能发动", "<杀人>不能选择自己"]


def test_settling_is_pure_and_kills_once() -> None:
    table = _table()
    before = copy.deepcopy(table)
    res = settle(_catalog(), table, [Action("狼群(P01)", "杀人", ("P03",)), Action("狼群(P01)", "杀人", ("P03",))])
    assert table == before
    assert [(d.player, d.cause) for d in res.deaths] == [("P03", "杀人（狼群）")]
    assert res.out_order == ["P03"]


def test_guard_saves_and_state_after_records_it() -> None:
    res = settle(_catalog(), _table(), [Action("P02", "守护", ("P03",)), Action("狼群(P01)", "杀人", ("P03",))])
    assert res.deaths == [] and [s.player for s in res.survivals] == ["P03"]
    assert res.state_after["守护上次"] == {"target": "P03", "night": 2}


def test_seeded_choice_is_stable_and_the_director_overrides_it() -> None:
    acts = [Action("狼群(P01)", "杀人", ("P03",), choice="选择")]
    picks = {settle(_catalog(), _table(), acts, seed=s).questions[0].taken for s in range(20)}
    assert picks == {"P02"}  # P03 died, P04 is out: one living 村民 left
    a = settle(_catalog(), _table(), acts, seed=7).to_json()
    b = settle(_catalog(), _table(), acts, seed=7).to_json()
    assert a == b
    d = settle(_catalog(), _table(), acts, decisions={"toy.choice": "P02"})
    assert d.questions[0].by == "director"


def test_unknown_skill_names_the_nearest() -> None:
    with pytest.raises(RulesetError) as err:
        settle(_catalog(), _table(), [Action("P02", "守卫", ("P03",))])
    assert "守护" in str(err.value)


def test_schema_refuses_with_the_path_of_the_first_error() -> None:
    sc = json.loads(EXAMPLES.read_text("utf-8"))["scenarios"][0]
    bad = copy.deepcopy({k: sc[k] for k in ("game", "setup", "actions")})
    bad["setup"]["players"][3]["alive"] = "yes"
    with pytest.raises(ConfigError) as err:
        validate(bad)
    assert "setup.players[3].alive" in str(err.value)
    validate({k: sc[k] for k in ("game", "setup", "actions")})


def test_every_shared_example_validates_and_loads() -> None:
    for sc in json.loads(EXAMPLES.read_text("utf-8"))["scenarios"]:
        validate(sc)
        table, actions = load(sc)
        assert len(table.players) == len(sc["setup"]["players"])
        assert [a.skill for a in actions] == [a["skill"] for a in sc["actions"]]


def test_cli_simulate_json_and_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scen = {"setup": {"night": 2, "state": {}, "players": [
        {"name": "P01", "role": "狼人", "faction": "狼人", "alive": True},
        {"name": "P02", "role": "守卫", "faction": "村民", "alive": True},
        {"name": "P03", "role": "村民", "faction": "村民", "alive": True}]},
        "actions": [{"actor": "狼群(P01)", "skill": "杀人", "targets": ["P03"]}]}
    f = tmp_path / "s.json"
    f.write_text(json.dumps(scen, ensure_ascii=False), "utf-8")
    assert main(["night", "simulate", "--ruleset", str(TOY), str(f), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) >= {"deaths", "survivals", "rejected", "conversions", "tags_moved", "pending", "state_after",
                        "feedback", "announcement", "outcome", "log"}
    assert out["deaths"] == [{"player": "P03", "cause": "杀人（狼群）"}]
    assert out["announcement"]["out_order"] == ["P03"]
    scen["setup"]["players"][2]["role"] = "村名"
    f.write_text(json.dumps(scen, ensure_ascii=False), "utf-8")
    assert main(["night", "simulate", "--ruleset", str(TOY), str(f), "--json"]) == 2
    assert "村民" in capsys.readouterr().err
    scen["setup"]["players"][2]["role"] = "村民"
    scen["actions"][0]["skill"] = "杀"
    f.write_text(json.dumps(scen, ensure_ascii=False), "utf-8")
    assert main(["night", "simulate", "--ruleset", str(TOY), str(f)]) == 2
    assert "杀人" in capsys.readouterr().err
    f.write_text("{not json", "utf-8")
    assert main(["night", "simulate", "--ruleset", str(TOY), str(f)]) == 2


def test_actors_with_forum_names_are_players_not_teams() -> None:
    """A real game's players are forum accounts (银鸦, 饺子), not the scenario files' P01 ids."""
    assert Action("银鸦", "守护", ("饺子",)).team is None
    assert Action("银鸦", "守护").members == ("银鸦",)
    assert Action("狼群(银鸦,饺子)", "杀人").team == "狼群"
    assert Action("狼群(银鸦,饺子)", "杀人").members == ("银鸦", "饺子")
    assert Action("狼群", "杀人").team == "狼群" and Action("狼群", "杀人").members == ()
    assert Action("P03+P04", "决斗").members == ("P03", "P04")


def test_a_night_file_naming_a_missing_exit_skill_is_refused() -> None:
    """``exile_skill`` / ``red_card_skill`` must name a skill of the file: a typo would otherwise
    make `tracker confirm` record exits without what they set off."""
    from tracker.engine.night.catalog import parse_catalog
    from tracker.errors import RulesetError

    skills = [{"name": "投票出局", "team": "放逐投票", "phase": "day", "targets": 1}]
    cat = parse_catalog({"ruleset": "t", "skills": skills, "exile_skill": "投票出局"}, "t.toml")
    assert cat.exile_skill == "投票出局" and cat.red_card_skill is None
    with pytest.raises(RulesetError, match="red_card_skill"):
        parse_catalog({"ruleset": "t", "skills": skills, "red_card_skill": "红牌"}, "t.toml")


def test_once_per_target_refuses_a_player_already_chosen_and_records_each_one() -> None:
    """``once_per_target`` (M65 深青之桩 "每名玩家仅可以被选择一次"): a player in the state key's list is
    refused with the post's words; the generic engine adds every target it settles, once."""
    from tracker.engine.night.catalog import parse_catalog

    cat = parse_catalog({"ruleset": "once-toy", "skills": [
        {"name": "钉", "roles": ["骑士"], "min_targets": 1, "max_targets": 2, "once_per_target": "钉已选择"}]}, "t")
    table = Table(players={"P1": Seat("P1", "骑士", "甲"), "P2": Seat("P2", "村民", "乙"),
                           "P3": Seat("P3", "村民", "乙")}, state={"钉已选择": ["P2"]}, night=2)
    again = settle(cat, table, [Action("P1", "钉", ("P3", "P2"))])
    assert [r.reason for r in again.rejected] == ["每名玩家仅可以被选择一次（P2已被<钉>选择过）"]
    assert "钉已选择" not in again.state_after
    fresh = settle(cat, table, [Action("P1", "钉", ("P3", "P1"))])
    assert fresh.rejected == [] and fresh.state_after["钉已选择"] == ["P2", "P3", "P1"]

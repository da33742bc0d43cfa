"""One win check for day and night (issue 20, item 3): the ruleset's ``[[win]]`` and ``[win_policy]``,
the game's ``[[options]]`` honoured, evaluated by one function at the points the ruleset names.

Each test here failed before: the nights had five hand-written checks that never saw the ruleset's
options, the M160 night ran on after a win reached at its start, and the ledger decided a
faction's loss by red cards on its own.
"""

from __future__ import annotations

from tests.engine_log import Game
from tracker.config import PlayerConfig
from tracker.engine.night import load_catalog, settle
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.engine.ruleset import Ruleset, load_ruleset
from tracker.engine.state import fold

# -- 213: a two-faction game whose post does not say "场上仅有一个阵营尚未被判负时宣布此阵营胜利" ---------------
ROLES_213 = {"P01": "预言家", "P02": "狼人", "P03": "女巫", "P04": "狼人", "P05": "村民", "P06": "村民",
             "P07": "守卫", "P08": "猎人"}


def _table_213(*, day: int | None = None, phase: str | None = None, night: int | None = 2) -> Table:
    players = {n: Seat(n, r, "狼人" if r == "狼人" else "村民", fields={"elevator": i})
               for i, (n, r) in enumerate(ROLES_213.items(), 1)}
    for n, r in ROLES_213.items():
        if r == "狼人":
            players[n].tags.append("群内")
        if r == "女巫":
            players[n].uses.update({"救药": 1, "毒药": 1, "灵通": True})
    return Table(players=players, state={}, night=None if day else night, day=day, phase=phase)


def _run(rs: Ruleset, t: Table, *actions: Action) -> Settlement:
    acts = [Action(a.actor, a.skill, a.targets, a.choice, a.phase, a.note, i) for i, a in enumerate(actions)]
    return settle(load_catalog(rs.id), t, acts, ruleset=rs)


def test_last_standing_wins_false_changes_the_nights_verdict_as_it_changes_the_days() -> None:
    """213 [[options]] last_standing_wins: "一方阵营判负（两张红牌或投降）时另一方直接获胜。213 未明文规定".
    The wolves surrender at noon: by default 村民 win, by day and at the desk; with the option off,
    neither the day's fold nor the settlement declares a winner."""
    surrender = Action("狼群(P02,P04)", "投降")
    roster = [PlayerConfig(n, role=r) for n, r in ROLES_213.items()]
    for value, winner in ((True, "村民"), (False, None)):
        rs = load_ruleset("sanguo-213", options={"last_standing_wins": value})
        night = _run(rs, _table_213(day=3, phase="正午"), surrender)
        assert (night.outcome.winner if night.outcome else None) == winner
        assert night.state_after["判负阵营"] == ["狼人"]
        g = Game(rs, roster)
        day = g.record("surrender", faction="狼人")
        assert (day.outcome.winner if day.outcome else None) == winner
        assert set(day.lost) == {"狼人"}


def test_a_second_red_loses_the_faction_by_the_rulesets_win_rule_at_night_too() -> None:
    """"同一阵营的角色累计获得两张或以上红牌时，阵营判负": the [[win]] rule ``狼人.红牌`` judges it in a
    settlement as in the day's fold (``state.lost[...].rule``)."""
    rs = load_ruleset("sanguo-213")
    assert any(w.id == "狼人.红牌" and w.when.kind == "red_cards_at_least" and w.when.n == 2 for w in rs.win)
    t = _table_213(day=3, phase="正午")
    t.state["红牌"] = {"狼人": 1}
    res = _run(rs, t, Action("导演", "红牌", ("P02",)))
    assert res.state_after["判负阵营"] == ["狼人"]
    assert res.outcome is not None and res.outcome.winner == "村民"
    assert any("同一阵营的角色累计获得2张或以上红牌" in line for line in res.log)
    state = fold(rs, [PlayerConfig(n, role=r) for n, r in ROLES_213.items()], [])
    assert state.outcome is None


def test_a_ruleset_file_may_say_the_red_card_loss_as_win_data(tmp_path: object) -> None:
    """``red_cards_at_least`` is [[win]] vocabulary: a faction's own rule replaces the [cards] shorthand."""
    from pathlib import Path

    from tracker.engine.ruleset import parse_ruleset

    base = load_ruleset("sanguo-213")
    raw = dict(base.raw)
    raw["win"] = [*raw["win"], {"id": "村民.三红", "faction": "村民", "result": "lose", "clause": "测试",
                                "when": {"red_cards_at_least": 3}}]
    rs = parse_ruleset(raw, Path(str(tmp_path)) / "r.toml")
    mine = [w for w in rs.win if w.faction == "村民" and w.when.kind == "red_cards_at_least"]
    assert [(w.id, w.when.n) for w in mine] == [("村民.三红", 3)]


# -- M160: "以上流程持续进行，直到一个阵营达成胜利条件" -------------------------------------------------------
def test_m160_a_win_reached_at_the_start_of_the_night_stops_it() -> None:
    """The day's vote left the 恶魔 出局 (his last vote spent, settled at (4.1)): 善良 have won
    ("所有【实际阵营】为【恶魔】的玩家出局"), so nothing of the night is settled — no 占卜 answer, no step."""
    from tests.test_night_gourmet_m160 import act, run, scenario

    assert "start" in load_ruleset("gourmet-m160").win_policy.checks_at
    out = {"state": "出局", "出局": {"day": 2, "cause": "最后一票"}}
    res = run(scenario(3, [act("P02", "占卜", "P03", "P04"), act("P01", "药剂", "P04", "P05")], P06=out))
    assert res.outcome is not None and res.outcome.winner == "善良"
    assert "恶魔" in res.outcome.reason
    assert res.feedback == [] and res.deaths == []
    assert not any(line.startswith("(4.") for line in res.log)
    assert res.log[-1] == "胜负已分，立即终止结算"
    # the same table with the 恶魔 still in: the night is settled as usual
    res = run(scenario(3, [act("P02", "占卜", "P03", "P04")]))
    assert res.outcome is None and any(line.startswith("(4.") for line in res.log)

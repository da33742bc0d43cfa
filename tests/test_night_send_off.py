"""``send_off``: the red card that takes a player out (M19, 213 "玩家受到红牌判罚时出局（称为“红牌罚下”）"), on a
toy game the generic engine settles alone.

The card counts for the player's faction first (``state`` 红牌, which the ruleset's ``[[win]]`` ``red_cards_at_least``
reads at the exit's own win check: "同一阵营的角色累计获得两张或以上红牌时，阵营判负"), he goes out if still in (a
player already out is carded all the same), and a ``choice`` of 判负 judges his faction lost below that count
("判罚红牌时，导演视情况决定是否判负该玩家所在阵营").
"""

from __future__ import annotations

from typing import Any

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.coverage import coverage
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.engine.ruleset import Ruleset
from tracker.engine.ruleset_reader import parse_ruleset

CARD = {"name": "红牌罚下", "team": "导演", "phase": "passive", "targets": 1, "target_alive_or_dead": True,
        "every_submission": True, "effects": [{"kind": "send_off", "clause": "导演视情况决定是否判负"}]}
NIGHT: dict[str, Any] = {"ruleset": "card-toy", "steps": [{"phase": "day", "skills": ["红牌罚下"]}], "skills": [CARD]}


def _rules() -> Ruleset:
    return parse_ruleset({
        "id": "card-toy", "name": "红牌测试局", "source": "测试", "players": 4,
        "factions": [{"name": "村庄"}, {"name": "狼群"}],
        "roles": [{"name": "村民", "faction": "村庄", "count": 2}, {"name": "狼人", "faction": "狼群", "count": 2}],
        "voting": {}, "lurk": {}, "days": {}, "cards": {"red_consequence": "out", "faction_loses_at_reds": 2},
        "win": [{"faction": "村庄", "when": {"none_alive": [{"factions": ["狼群"]}]}, "clause": "测试"}],
        "win_policy": {"checks_at": ["death", "红牌罚下"]},
        "tags": [{"name": "警长", "on_red": "random"}],
    })


def _run(*cards: tuple[str, str | None], reds: dict[str, int] | None = None, dead: str = "",
         decisions: dict[str, str] | None = None) -> Settlement:
    seats = [Seat("P1", "村民", "村庄", tags=["警长"]), Seat("P2", "村民", "村庄"), Seat("P3", "狼人", "狼群"),
             Seat("P4", "狼人", "狼群")]
    for s in seats:
        s.alive = s.name != dead
    table = Table(players={s.name: s for s in seats}, state={"红牌": dict(reds or {})}, night=None, day=3, phase="day")
    acts = [Action("导演", "红牌罚下", (t,), choice=c, index=i) for i, (t, c) in enumerate(cards)]
    return settle(parse_catalog(NIGHT, "toy.toml"), table, acts, ruleset=_rules(), decisions=decisions)


def test_the_card_takes_the_player_out_and_counts_for_his_faction() -> None:
    res = _run(("P3", None))
    assert [(d.player, d.cause) for d in res.deaths] == [("P3", "红牌罚下")]
    assert res.state_after["红牌"] == {"狼群": 1} and "判负阵营" not in res.state_after


def test_a_player_out_already_is_carded_all_the_same() -> None:
    res = _run(("P3", None), dead="P3")
    assert res.deaths == [] and res.rejected == [] and res.state_after["红牌"] == {"狼群": 1}
    assert any("已出局（已出局角色仍可被判罚）" in line for line in res.log)


def test_every_card_settles_and_the_second_of_a_faction_loses_it() -> None:
    res = _run(("P1", None), ("P2", None))
    assert [d.player for d in res.deaths] == ["P1", "P2"] and res.state_after["红牌"] == {"村庄": 2}
    assert res.state_after["判负阵营"] == ["村庄"]


def test_the_director_may_judge_the_faction_lost_below_the_count() -> None:
    res = _run(("P1", "判负"))
    assert res.state_after["判负阵营"] == ["村庄"]
    assert any("导演判负红牌玩家所在阵营" in line for line in res.log)
    assert "判负阵营" not in _run(("P1", "不判负")).state_after
    # at the count the ruleset's rule has judged it already, at his exit: not the director's word
    res = _run(("P1", "判负"), reds={"村庄": 1})
    assert res.state_after["判负阵营"] == ["村庄"] and not any("导演判负" in line for line in res.log)


def test_it_counts_as_data() -> None:
    assert "红牌罚下" in coverage(parse_catalog(NIGHT, "toy.toml"), None).by_data


def test_a_carded_holder_s_title_goes_at_random_where_the_ruleset_says() -> None:
    """``[[tags]] on_red = "random"`` (M19 "警长因红牌罚下而出局后，下任警长将被随机指定"): a seeded pick among the
    living, inside his exit, which the director may answer."""
    res = _run(("P1", None))
    assert [(t.tag, t.from_player, t.via) for t in res.tags_moved] == [("警长", "P1", "红牌罚下后随机指定")]
    assert res.tags_moved[0].to_player in ("P2", "P3", "P4") and [q.key for q in res.questions] == ["警长.P1"]
    res = _run(("P1", None), decisions={"警长.P1": "P4"})
    assert res.tags_moved[0].to_player == "P4" and res.state_after["警长"] == "P4"
    assert _run(("P2", None)).tags_moved == [] and _run(("P1", None), dead="P1").tags_moved == []


def _with(**keys: Any) -> dict[str, Any]:
    """The toy night with these keys on the card's ``send_off`` effect."""
    card = {**CARD, "effects": [{"kind": "send_off", "clause": "导演视情况决定是否判负", **keys}]}
    return {**NIGHT, "skills": [card]}


def _run_with(night: dict[str, Any], *cards: tuple[str, str | None], reds: dict[str, int] | None = None,
              decisions: dict[str, str] | None = None) -> Settlement:
    seats = [Seat("P1", "村民", "村庄", tags=["警长"]), Seat("P2", "村民", "村庄"), Seat("P3", "狼人", "狼群"),
             Seat("P4", "狼人", "狼群")]
    table = Table(players={s.name: s for s in seats}, state={"红牌": dict(reds or {})}, night=None, day=3, phase="day")
    acts = [Action("导演", "红牌罚下", (t,), choice=c, index=i) for i, (t, c) in enumerate(cards)]
    return settle(parse_catalog(night, "toy.toml"), table, acts, ruleset=_rules(), decisions=decisions)


def test_asks_loss_makes_the_directors_word_a_question() -> None:
    """213 "判罚红牌时，导演视情况决定是否判负该玩家所在阵营" as a question after the exit (否 unless answered 是), not the
    choice; not asked once the faction's red cards lose it by the rule."""
    night = _with(asks_loss="判罚{target}红牌时，导演是否判负{faction}阵营")
    res = _run_with(night, ("P3", "判负"))
    assert [(q.key, q.taken) for q in res.questions if q.key.startswith("红牌罚下判负")] == [("红牌罚下判负.P3", "否")]
    assert "判负阵营" not in res.state_after and res.questions[-1].question == "判罚P3红牌时，导演是否判负狼群阵营"
    res = _run_with(night, ("P3", None), decisions={"红牌罚下判负.P3": "是"})
    assert res.state_after["判负阵营"] == ["狼群"]
    res = _run_with(night, ("P3", None), reds={"狼群": 1})
    assert res.state_after["判负阵营"] == ["狼群"] and not any(q.key.startswith("红牌罚下判负") for q in res.questions)


def test_titles_at_random_false_leaves_the_title_to_its_own_skill() -> None:
    """213 "红牌罚下出局的……牧首<殉道>对象和效果随机选择": the title is not passed inside the exit."""
    res = _run_with(_with(titles_at_random=False), ("P1", None))
    assert [d.player for d in res.deaths] == ["P1"] and res.tags_moved == [] and res.questions == []

"""The generic ``mark`` effect giving a tag, on a toy day settled by the generic engine alone.

``act = "give"`` (107 推选首领 "由恶徒4人共群开始推选诞生首领", 当选神眷者 "最先高票者当选神眷者": the tag goes
to the target from whoever held it, the table's state naming the holder as the board keeps it), and the
ruleset's ``[[tags]] vanishes_for`` honoured by the night engine as by the day's fold (107 神恩 "神启者不能
成为神眷者，当神启者成为神眷者时，神眷者消失").
"""

from __future__ import annotations

import tomllib
from typing import Any

from tracker.engine.night import settle
from tracker.engine.night.catalog import catalog_of
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.engine.ruleset import Ruleset
from tracker.engine.ruleset_reader import parse_ruleset

RULESET = """
id = "mark-give-toy"
name = "标记测试局"
source = "测试"
players = 4

[[factions]]
name = "村民"

[[roles]]
name = "村民"
faction = "村民"
count = 3

[[roles]]
name = "先知"
faction = "村民"

[[tags]]
name = "领袖"
vanishes_for = ["先知"]
clause = "先知不能成为领袖，当先知成为领袖时，领袖消失。"

[voting]
[lurk]
[cards]
[days]

[[win]]
faction = "村民"
when = { living_at_most = 0 }
clause = "测试"

[night]
ruleset = "mark-give-toy"

[[night.steps]]
n = "选举"
phase = "day"
skills = ["当选领袖"]

[[night.skills]]
name = "当选领袖"
team = "放逐投票"
phase = "day"
targets = 1
effects = [{ kind = "mark", tag = "领袖", act = "give" }]
"""


def _rules() -> Ruleset:
    return parse_ruleset(tomllib.loads(RULESET))


def _run(leader: str | None, target: str, *, tagged: bool = True, **extra: Any) -> Settlement:
    rs = _rules()
    seats = {n: Seat(n, "先知" if n == "P4" else "村民", "村民") for n in ("P1", "P2", "P3", "P4")}
    if leader is not None and tagged:
        seats[leader].tags.append("领袖")
    table = Table(players=seats, state={"领袖": leader}, night=None, day=1)
    return settle(catalog_of(rs), table, [Action("放逐投票", "当选领袖", (target,), extra.get("choice"))], ruleset=rs)


def _moves(res: Settlement) -> list[tuple[str | None, str | None, str]]:
    return [(t.from_player, t.to_player, t.via) for t in res.tags_moved]


def test_give_moves_the_tag_from_its_holder_to_the_target() -> None:
    assert _moves(_run(None, "P2")) == [(None, "P2", "当选领袖")]
    res = _run("P1", "P2")
    assert _moves(res) == [("P1", "P2", "当选领袖")]
    assert res.table_after is not None and res.table_after.players["P1"].tags == []
    assert res.state_after["领袖"] == "P2"


def test_the_holder_named_by_the_state_alone_gives_it_up_too() -> None:
    """The board keeps a tag's holder in ``state`` as it moves it: a table that names him there only."""
    assert _moves(_run("P1", "P3", tagged=False)) == [("P1", "P3", "当选领袖")]


def test_a_choice_outside_choices_still_gives() -> None:
    assert _moves(_run(None, "P2", choice="随便")) == [(None, "P2", "当选领袖")]


def test_given_to_a_role_it_vanishes_for_the_tag_is_gone() -> None:
    """先知不能成为领袖，当先知成为领袖时，领袖消失 — from its holder too, as the day's fold has it."""
    res = _run(None, "P4")
    assert res.tags_moved == [] and res.state_after["领袖"] is None
    res = _run("P1", "P4")
    assert _moves(res) == [("P1", None, "当选领袖（领袖消失）")] and res.state_after["领袖"] is None
    assert any("P4（先知）不能持有领袖 → 领袖消失" in line for line in res.log)

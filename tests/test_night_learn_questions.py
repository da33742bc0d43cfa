"""``learn`` with ``questions``: the director picks which of several yes/no questions a use answers; ``ask = "same"``,
``among = "neighbours"`` (the players' ``seat``) and ``pairs`` (no question twice within a pair of nights).

M160 化梦师【占卜】 "选择两名存活玩家，你得知他们【表面阵营】是否属于同一阵营，或他们相邻玩家是否有【表面阵营】为【恶魔】
的玩家，或他们当中是否有【表面阵营】为【恶魔】（你只会得知是否），在每两个夜晚内不会获得同一个问题的答案。每逢偶数夜晚，
你会得知你这两天所获取的答案可能是对应的哪两项问题。" A toy game here (the wolves are what the questions look for);
M160's own cases are in test_night_gourmet_m160.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from tracker.engine.night import settle
from tracker.engine.night.catalog import parse_catalog
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.errors import RulesetError

WOLF = {"values": ["狼人"]}
SAME, NEXT, ANY = "同一阵营？", "相邻有狼？", "当中有狼？"
DREAM: dict[str, Any] = {
    "kind": "learn", "text": "占卜：{answer}", "log": "{step} {actor}：{targets}，“{question}” → {answer}",
    "questions": [{"label": SAME, "ask": "same", "match": WOLF}, {"label": NEXT, "among": "neighbours", "match": WOLF},
                  {"label": ANY, "match": WOLF}],
    "pairs": {"state": "占卜问题", "text": "（{first}；{second}）"}, "distort": {"by": ["醉酒"], "chance": 0.9}}
NIGHT: dict[str, Any] = {"ruleset": "dream-toy", "steps": [{"n": "1", "skills": ["占卜"]}],
                         "skills": [{"name": "占卜", "roles": ["化梦师"], "targets": 2, "effects": [DREAM]}]}
#: Seats 1–6 round the table; P3 is the wolf.
ROLES = {"P1": "化梦师", "P2": "村民", "P3": "狼人", "P4": "村民", "P5": "村民", "P6": "村民"}


def _run(x: str, y: str, question: str, *, night: int = 1, dead: tuple[str, ...] = (), state: dict[str, Any] | None = None,
         drunk: bool = False, **decide: str) -> Settlement:
    players = {n: Seat(n, r, "狼人" if r == "狼人" else "好人", alive=n not in dead, fields={"seat": i},
                       status=["醉酒"] if drunk and n == "P1" else []) for i, (n, r) in enumerate(ROLES.items(), 1)}
    table = Table(players=players, state=dict(state or {}), night=night)
    return settle(parse_catalog(NIGHT, "toy.toml"), table, [Action("P1", "占卜", (x, y))],
                  decisions={"占卜.问题.P1": question, **decide})


def told(res: Settlement) -> list[str]:
    return [f.content for f in res.feedback if f.to == "P1"]


def test_same_is_all_or_none() -> None:
    assert told(_run("P2", "P4", SAME)) == ["占卜：是"] and told(_run("P2", "P3", SAME)) == ["占卜：否"]
    assert told(_run("P2", "P3", ANY)) == ["占卜：是"] and told(_run("P2", "P4", ANY)) == ["占卜：否"]


def test_neighbours_are_the_nearest_living_on_each_side_not_the_targets() -> None:
    """P4's left neighbour is the wolf P3; with P3 dead it is P2. P2 and P3 chosen: P3 is no neighbour of P2's."""
    assert told(_run("P4", "P5", NEXT)) == ["占卜：是"]
    assert told(_run("P4", "P5", NEXT, dead=("P3",))) == ["占卜：否"]
    assert told(_run("P2", "P3", NEXT)) == ["占卜：否"]
    res = _run("P6", "P2", NEXT)  # P2 sits next to the wolf
    assert told(res) == ["占卜：是"] and "(1) P1：P6、P2，“相邻有狼？” → 是" in res.log


def test_the_second_night_of_a_pair_never_repeats_the_first_and_names_both() -> None:
    before = {"占卜问题": {"P1": {"night": 1, "问题": ANY}}}
    res = _run("P2", "P4", SAME, night=2, state=before)
    assert [q.options for q in res.questions if q.key == "占卜.问题.P1"] == [(SAME, NEXT)]
    assert told(res) == [f"占卜：是（{ANY}；{SAME}）"]
    assert res.state_after["占卜问题"] == {"P1": {"night": 2, "问题": SAME}}
    odd = _run("P2", "P4", SAME, night=3, state={"占卜问题": {"P1": {"night": 2, "问题": SAME}}})
    assert [q.options for q in odd.questions if q.key == "占卜.问题.P1"] == [(SAME, NEXT, ANY)]
    assert told(odd) == ["占卜：是"]


def test_a_drunk_answer_is_turned_round_and_the_log_keeps_the_truth() -> None:
    res = _run("P2", "P4", SAME, drunk=True, **{"醉酒错误.P1.占卜": "是"})
    assert told(res) == ["占卜：否"] and "(1) P1：P2、P4，“同一阵营？” → 是（醉酒，告知否）" in res.log


def test_questions_carry_their_own_match_and_pairs_need_them() -> None:
    with pytest.raises(RulesetError, match="questions"):
        parse_catalog({**NIGHT, "skills": [{**NIGHT["skills"][0], "effects": [{**DREAM, "match": WOLF}]}]}, "toy.toml")
    bare = {k: v for k, v in DREAM.items() if k != "questions"}
    with pytest.raises(RulesetError, match="pairs"):
        parse_catalog({**NIGHT, "skills": [{**NIGHT["skills"][0], "effects": [{**bare, "match": WOLF}]}]}, "toy.toml")

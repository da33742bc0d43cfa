"""The night file's ``[flip]`` and the ``convert`` keys that use it, on a toy night the generic engine settles alone.

107's 翻转身份 ("每种人类身份都对应了亡灵身份，当一名角色转化身份时……失去当前所有身份技能……并获得对应身份的身份技能")
as data: ``convert`` with ``flip`` (圣光天启 "其翻转身份", 夜之躯 "守夜人即时翻转身份") turns a player into his identity's
pair, or back into the identity he had; ``strip`` ("并失去所有技能"); ``kept_faction`` (a faction he joined in
play comes back with him); ``new_uses``, a convert's ``text`` and a convert to what he already is (暗日 "其身份转变为活尸").
"""

from __future__ import annotations

from typing import Any

import pytest
from toy_rules import toy_rules

from tracker.engine.night import settle
from tracker.engine.night.catalog import Catalog, parse_catalog
from tracker.engine.night.model import Action, Seat, Settlement, Table
from tracker.engine.ruleset import Ruleset
from tracker.errors import RulesetError

#: The toy's roles and factions: flipping back restores the identity's faction here.
RULES = toy_rules("flip-toy", "翻转测试局", 3, ["村庄", "天界", "亡灵", "中立"], [
    {"name": "神使", "faction": "天界"}, {"name": "村长", "faction": "村庄"}, {"name": "守夜人", "faction": "中立"},
    {"name": "恶灵", "faction": "亡灵", "count": 0}, {"name": "活尸", "faction": "亡灵", "count": 0},
], win="村庄")

NIGHT: dict[str, Any] = {
    "ruleset": "flip-toy",
    "flip": {"pairs": {"村长": "恶灵", "守夜人": "活尸"}, "faction": "亡灵",
             "kept_faction": {"守夜人": "守夜人阵营"}, "asked": "{player}（{role}）回到哪个人类身份"},
    "steps": [{"n": "1", "skills": ["天启", "净化", "转生", "暗日"]}],
    "skills": [
        {"name": "天启", "roles": ["神使"], "targets": 1,
         "effects": [{"kind": "convert", "flip": True, "when_target": {"of": "faction", "values": ["亡灵"]}}]},
        {"name": "净化", "roles": ["神使"], "targets": 1,
         "effects": [{"kind": "convert", "flip": True, "strip": True}]},
        {"name": "转生", "roles": ["村长", "守夜人"], "targets": 0,
         "effects": [{"kind": "convert", "flip": True, "to": "actor"}]},
        {"name": "暗日", "roles": ["神使"], "targets": 1,
         "effects": [{"kind": "convert", "role": "恶灵", "faction": "亡灵", "new_uses": True, "text": "你成为了恶灵"}]},
        {"name": "咒语", "roles": ["恶灵"], "kind": "限定", "targets": 1, "uses": "咒语"},
        {"name": "长寿", "roles": ["村长"], "phase": "passive", "uses": "长寿"},
    ],
}


def _cat(night: dict[str, Any] | None = None) -> Catalog:
    return parse_catalog(night or NIGHT, "flip-toy.toml")


def _rules() -> Ruleset:
    return RULES


def _run(seats: dict[str, Seat], *acts: tuple[str, str, tuple[str, ...]], seed: int = 0) -> Settlement:
    table = Table(players=seats, state={}, night=2)
    return settle(_cat(), table, [Action(a, s, t, index=i) for i, (a, s, t) in enumerate(acts)], seed=seed,
                  ruleset=_rules())


def _seats(**extra: Seat) -> dict[str, Seat]:
    return {"P1": Seat("P1", "神使", "天界"), "P2": Seat("P2", "村长", "村庄", uses={"长寿": 1}), **extra}


def test_flip_turns_a_player_into_his_pair_with_its_counts_and_back() -> None:
    res = _run(_seats(), ("P2", "转生", ()))
    after = res.table_after
    assert after is not None
    p2 = after.players["P2"]
    assert (p2.role, p2.faction, p2.fields["原身份"]) == ("恶灵", "亡灵", "村长")
    assert p2.uses == {"咒语": 1}  # "失去当前所有身份技能……并获得对应身份的身份技能"
    assert res.state_after["P2.原身份"] == "村长"
    assert ("P2", "翻转身份：你成为恶灵（亡灵阵营），失去村长的所有身份技能") in [(f.to, f.content) for f in res.feedback]
    back = _run({"P1": Seat("P1", "神使", "天界"), "P2": p2}, ("P1", "天启", ("P2",)))
    assert [(c.role_to, c.faction_to) for c in back.conversions] == [("村长", "村庄")]  # the ruleset's 村长
    assert back.table_after is not None and back.table_after.players["P2"].uses == {"咒语": 1}  # kept without strip


def test_when_target_and_strip() -> None:
    res = _run(_seats(), ("P1", "天启", ("P2",)))
    assert res.conversions == []  # 天启 only on 亡灵
    ghost = Seat("P2", "恶灵", "亡灵", uses={"咒语": 1}, fields={"原身份": "村长"})
    res = _run(_seats(P2=ghost), ("P1", "净化", ("P2",)))
    after = res.table_after
    assert after is not None and after.players["P2"].uses == {}
    assert res.state_after["P2.技能"] == "全部失去（净化）"
    assert ("P2", "翻转身份：你成为村长（村庄阵营），并失去所有技能") in [(f.to, f.content) for f in res.feedback]


def test_kept_faction_comes_back_and_an_unknown_original_is_asked() -> None:
    watchman = Seat("P3", "守夜人", "村庄")  # joined 村庄 in play
    res = _run(_seats(P3=watchman), ("P3", "转生", ()))
    after = res.table_after
    assert after is not None and after.players["P3"].fields["守夜人阵营"] == "村庄"
    again = _run({"P1": Seat("P1", "神使", "天界"), "P3": after.players["P3"]}, ("P1", "天启", ("P3",)))
    assert [(c.role_to, c.faction_to) for c in again.conversions] == [("守夜人", "村庄")]
    nameless = Seat("P4", "恶灵", "亡灵")
    res = _run(_seats(P4=nameless), ("P1", "天启", ("P4",)), seed=3)
    assert [q.question for q in res.questions] == ["P4（恶灵）回到哪个人类身份"]
    assert res.questions[0].options == ("村长",)


def test_convert_new_uses_text_and_no_change() -> None:
    res = _run(_seats(), ("P1", "暗日", ("P2",)))
    after = res.table_after
    assert after is not None and after.players["P2"].uses == {"咒语": 1}
    assert ("P2", "你成为了恶灵") in [(f.to, f.content) for f in res.feedback]
    ghost = Seat("P3", "恶灵", "亡灵", uses={"咒语": 0})
    res = _run(_seats(P3=ghost), ("P1", "暗日", ("P3",)))
    assert res.conversions == [] and res.feedback == []  # already one: nothing changes, nothing is told
    assert res.table_after is not None and res.table_after.players["P3"].uses == {"咒语": 0}


def test_a_flip_without_the_flip_table_is_refused() -> None:
    night = {**NIGHT}
    del night["flip"]
    with pytest.raises(RulesetError, match=r"没有 \[flip\]"):
        _cat(night)
    bad = {**NIGHT, "skills": [{"name": "x", "roles": ["神使"], "effects": [{"kind": "convert", "flip": True, "role": "恶灵"}]}],
           "steps": []}
    with pytest.raises(RulesetError, match="flip"):
        _cat(bad)

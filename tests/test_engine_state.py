"""The fold itself: replay is deterministic, undo compensates, bad events are refused or reported."""

from __future__ import annotations

import contextlib
import random
from datetime import timedelta

import pytest
from engine_log import START, Game, roster
from hypothesis import given, settings
from hypothesis import strategies as st

from tracker.config import EventConfig, PlayerConfig
from tracker.engine.events import Event, EventKind, effective, from_config, make_draft
from tracker.engine.state import check_event, fold
from tracker.errors import GameRuleError

PLAYERS = roster([("甲", "公狼"), ("乙", "老狼"), ("丙", "幼狼"), ("丁", "绑匪"), ("戊", "预言家"), ("己", "女巫"),
                  ("庚", "医生"), ("辛", "人质"), ("壬", "村民"), ("癸", "村民"), ("子", "村民"), ("丑", "村民"),
                  ("寅", "村民"), ("卯", "变异丘比特", "村民")])
NAMES = [p.name for p in PLAYERS]


def _comparable(s):  # type: ignore[no-untyped-def]
    return (s.players, s.outcome, dict(s.lost), s.days, s.modifiers(), s.declared)


def _random_game(seed: int) -> Game:
    rnd = random.Random(seed)
    g = Game("luoluo-m19", PLAYERS)
    for _ in range(rnd.randint(1, 12)):
        kind = rnd.choice(["eliminated", "benched", "tag_given", "modifier", "card_consequence", "revived"])
        who = rnd.choice(NAMES)
        data = {"tag": "警长"} if kind == "tag_given" else {"name": "基佬情深·攻"} if kind == "modifier" else \
            {"color": "red"} if kind == "card_consequence" else {}
        with contextlib.suppress(GameRuleError):
            g.record(kind, who, **data)
    return g


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000))
def test_replay_is_deterministic_and_order_of_the_list_does_not_matter(seed: int) -> None:
    g = _random_game(seed)
    a = fold(g.rs, g.players, g.events)
    shuffled = list(g.events)
    random.Random(seed).shuffle(shuffled)
    b = fold(g.rs, g.players, shuffled)
    assert _comparable(a) == _comparable(b)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000))
def test_undo_gives_back_the_state_before_the_event(seed: int) -> None:
    g = _random_game(seed)
    before = g.state
    try:
        g.record("eliminated", "戊")
    except GameRuleError:
        return
    g.undo()
    assert _comparable(g.state) == _comparable(before)
    # undoing the undo restores the event
    g.undo()
    assert g.state.players["戊"].status == "out"


def test_undo_an_earlier_event_replays_the_rest() -> None:
    g = Game("luoluo-m19", PLAYERS)
    first = g.record("eliminated", "戊")
    assert first.players["戊"].status == "out"
    g.record("tag_given", "己", tag="警长")
    s = g.undo(1)
    assert s.players["戊"].status == "alive" and s.holder("警长") == "己"
    assert s.undone == frozenset({1})


def test_check_event_refuses_what_the_state_cannot_take() -> None:
    g = Game("luoluo-m19", PLAYERS)
    g.record("eliminated", "甲")
    with pytest.raises(GameRuleError, match="已经出局"):
        g.record("eliminated", "甲")
    with pytest.raises(GameRuleError, match="没有名为"):
        g.record("eliminated", "无名氏")
    with pytest.raises(GameRuleError, match="缺少 tag"):
        g.record("tag_given", "乙")
    with pytest.raises(GameRuleError, match="不认识的事件类型"):
        g.record("exploded", "乙")
    with pytest.raises(GameRuleError, match="没有阵营"):
        g.record("faction_set", "乙", faction="外星人")
    with pytest.raises(GameRuleError, match="没有可撤销"):
        g.record("undo", seq=99)
    with pytest.raises(GameRuleError, match="没有 警长"):
        g.record("tag_passed", "乙", tag="警长", to="丙")
    with pytest.raises(GameRuleError, match="需要指明玩家"):
        check_event(g.state, "eliminated", None, {})


def test_fold_reports_an_event_it_cannot_apply_instead_of_crashing() -> None:
    g = Game("luoluo-m19", PLAYERS)
    bad = Event(seq=1, at=START, kind="eliminated", player="无名氏", data={}, recorded_by="x", recorded_at=START)
    s = fold(g.rs, g.players, [bad])
    assert s.warnings and "无名氏" in s.warnings[-1]
    assert all(p.status == "alive" for p in s.players.values())


def test_game_file_events_and_aliases() -> None:
    cfg = [EventConfig(at=START, kind="sheriff", player="己"),
           EventConfig(at=START + timedelta(hours=1), kind="eliminated", player="甲", data={"cause": "vote"})]
    events = from_config(cfg)
    assert [e.seq for e in events] == [-2, -1] and events[0].kind == EventKind.TAG_GIVEN
    g = Game("luoluo-m19", PLAYERS)
    s = fold(g.rs, g.players, events)
    assert s.holder("警长") == "己" and s.players["甲"].status == "out"
    # a store event can undo a game-file event
    undo = make_draft("undo", at=START + timedelta(hours=2), data={"seq": -1}).to_event(1)
    s = fold(g.rs, g.players, [*events, undo])
    assert s.players["甲"].status == "alive"
    with pytest.raises(GameRuleError, match=r"events\[1\]"):
        from_config([EventConfig(at=START, kind="tag_given", player="己")])


def test_effective_drops_undone_and_undo_records() -> None:
    a = make_draft("eliminated", at=START, player="甲").to_event(1)
    u = make_draft("undo", at=START, data={"seq": 1}).to_event(2)
    uu = make_draft("undo", at=START, data={"seq": 2}).to_event(3)
    assert effective([a, u])[0] == [] and effective([a, u, uu])[0] == [a]


def test_outcome_waits_for_factions() -> None:
    g = Game("sanguo-213", [*roster([("甲", "狼人"), ("乙", "村民")]), PlayerConfig(name="丁")])
    # 丁's role is unknown: no win check (a faction would look empty), and a warning says why
    s = g.record("eliminated", "甲")
    assert s.outcome is None and any("未写明" in w for w in s.warnings)


def test_day_events() -> None:
    g = Game("sanguo-213", roster([("甲", "狼人"), ("乙", "村民")]))
    s = g.record("accelerated", day=2, cause="request")
    assert s.accelerated(2)
    s = g.record("delayed", day=2)
    assert not s.accelerated(2)          # 延时成功时，不再视为“执行加速”状态
    s = g.record("day_opened", day=3)
    s = g.record("day_extended", day=3, until="2025-03-08T22:00:00+08:00")
    d = s.day(3)
    assert d is not None and d.closes is not None and d.closes.day == 8

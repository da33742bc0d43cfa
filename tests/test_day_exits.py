"""A day's exits settle with what they set off (issue 16, item 6): the vote's 出局 confirmed by
`tracker confirm` and a red card's 出局 from `tracker card issue` go through the same settlement as
the night, so 遇难, 殉情, 殉职 and a 决斗 that voids the vote follow in the post's order, whatever
order the director typed things in — and undoing the red card undoes what it set off.

M19 is played on the demo game (real vote pages, day 2 exiles 栗子); 213 on a small game file,
through the night desk the confirmation uses.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from tui_demo import open_demo

from tracker.clock import SHANGHAI, FrozenClock
from tracker.engine.events import EventDraft, EventKind
from tracker.errors import GameRuleError
from tracker.service import Service
from tracker.service.votes import _settled_words

AFTER_DAY2 = datetime(2025, 3, 4, 23, 0, tzinfo=SHANGHAI)
DAY2_NOON = datetime(2025, 3, 4, 12, 0, tzinfo=SHANGHAI)


def _live(svc: Service, *kinds: str) -> list:
    from tracker.engine.events import effective

    live, _ = effective(svc.log.events())
    return [e for e in live if not kinds or e.kind in kinds]


def _status(svc: Service) -> dict[str, str]:
    return {n: p.status for n, p in svc.log.state().players.items()}


# ------------------------------------------------------------------------------------------ M19

def test_the_vote_exile_sets_off_the_hostages_disaster_at_confirm(tmp_path: Path) -> None:
    """遇难<强制>——"当英雄因为非红牌罚下原因出局，人质也随之出局"：the hostage 包子 chose 栗子 as
    his hero; day 2's vote exiles 栗子, and confirming it takes 包子 out with him, in one settlement."""
    svc = open_demo(tmp_path, at=AFTER_DAY2)
    svc.night_desk.setup("英雄", "栗子", "包子")
    [r] = svc.votes.confirm_day(2, recorded_by="导演A")
    assert r.chosen == "栗子" and r.phase == "day:2"
    assert r.settlement is not None
    assert [d.player for d in r.settlement.deaths] == ["栗子", "包子"]
    assert r.settlement.deaths[1].cause.startswith("遇难")
    out = {e.player: e for e in _live(svc, EventKind.ELIMINATED.value) if e.get("vote_tid") == 6}
    # the exile keeps the confirmation's words (cause vote, the count); the hostage's is the engine's
    assert out["栗子"].get("cause") == "vote" and out["栗子"].get("votes") == 6.0
    assert out["包子"].get("cause").startswith("遇难") and out["包子"].get("day") == 2
    assert _status(svc)["包子"] == "out"
    # recorded once: a second confirmation is refused before anything is written
    before = len(svc.log.events())
    with pytest.raises(GameRuleError):
        svc.votes.confirm_day(2)
    assert len(svc.log.events()) == before
    # the night after starts from that settlement: both are out at the night desk
    night2 = svc.night_desk.preview("night:2")
    table = night2.table
    assert not table.players["栗子"].alive and not table.players["包子"].alive
    assert table.players["栗子"].fields["出局"] == {"day": 2, "cause": "投票"}
    # 遗言: "靠前出局且可以留下遗言的角色" — three wolves, three words: 阿狸, 老王, then 栗子, who went
    # out before the hostage he took with him (the roster lists 包子 first)
    assert "遗言：栗子（若提交）" in night2.result.lines


def test_a_vote_exile_without_consequences_records_the_same_exit(tmp_path: Path) -> None:
    """The demo's own day 2: 栗子 has no lover, no hostage — the settlement adds nobody, and the
    出局 recorded is the confirmation's (cause vote, 6 votes), as before the desk settled it."""
    svc = open_demo(tmp_path, at=AFTER_DAY2)
    [r] = svc.votes.confirm_day(2)
    assert r.settlement is not None and [d.player for d in r.settlement.deaths] == ["栗子"]
    exits = [e for e in r.events if e.kind == EventKind.ELIMINATED.value]
    assert [(e.player, e.get("cause"), e.get("votes")) for e in exits] == [("栗子", "vote", 6.0)]
    assert {e.get("vote_tid") for e in r.events} == {6}
    assert svc.votes.confirmed_tids() >= {6}


def test_a_red_card_takes_the_lover_with_it_and_its_revocation_brings_both_back(tmp_path: Path) -> None:
    """殉情<强制>: "情侣中的一方出局，另一方立即出局" — red card included ("但情侣会触发<殉情>");
    the carded lover's 出局 stays the ledger's consequence, the other's is the settlement's. A
    revoked red card undoes both."""
    svc = open_demo(tmp_path, at=DAY2_NOON)
    svc.night_desk.setup("情侣", {"类型": "基佬情深", "攻": "碎碎", "受": "小白"})
    decision = svc.cards.issue_card("碎碎", "red", "1", "辱骂", day=2)
    assert any("小白 出局（殉情" in line for line in decision.recorded), decision.recorded
    # the director reads the settlement under the card: both exits with their causes
    assert any(line.startswith("第2天") and "小白出局（殉情" in line for line in decision.events), decision.events
    assert _status(svc)["碎碎"] == "out" and _status(svc)["小白"] == "out"
    cascade = [e for e in _live(svc) if e.get("cascade_of") is not None]
    assert {e.kind for e in cascade} == {"night_action", "eliminated", "night_settled"}
    assert [e.player for e in cascade if e.kind == "eliminated"] == ["小白"]  # 碎碎's is the ledger's
    svc.cards.revoke_card(decision.entry.id, "误判")
    assert _status(svc)["碎碎"] == "alive" and _status(svc)["小白"] == "alive"
    assert [e for e in _live(svc) if e.get("cascade_of") is not None] == []


def test_a_red_carded_hero_does_not_take_the_hostage(tmp_path: Path) -> None:
    """遇难 fires only "当英雄因为非红牌罚下原因出局": a red card on the hero 泡泡 leaves 包子 in."""
    svc = open_demo(tmp_path, at=DAY2_NOON)
    svc.cards.issue_card("泡泡", "red", "1", "辱骂", day=2)
    status = _status(svc)
    assert status["泡泡"] == "out" and status["包子"] == "alive"
    assert [e.player for e in _live(svc, "eliminated") if e.get("cascade_of") is not None] == []


def test_the_vote_after_a_red_card_settles_from_the_table_the_red_card_left(tmp_path: Path) -> None:
    """A red card at noon settles day 2 once; the vote confirmed after it settles again (day:2#2),
    from the table the first left — the red-carded lover's partner is already out, and stays so."""
    svc = open_demo(tmp_path, at=DAY2_NOON)
    svc.night_desk.setup("情侣", {"类型": "基佬情深", "攻": "碎碎", "受": "小白"})
    svc.cards.issue_card("碎碎", "red", "1", "辱骂", day=2)
    svc.ctx.clock = FrozenClock(AFTER_DAY2)
    [r] = svc.votes.confirm_day(2)
    assert r.phase == "day:2#2" and r.settlement is not None
    assert [d.player for d in r.settlement.deaths] == ["栗子"]
    assert not r.settlement.table_after.players["小白"].alive


# ------------------------------------------------------------------------------------------ 213

GAME_213 = """
[game]
name = "三国测试局"
ruleset = "sanguo-213"
forum = "http://127.0.0.1:9/"
timezone = "Asia/Shanghai"
directors = ["导演A"]

{players}

[[days]]
day = 1
discussion = 10
vote = [11, 12]
opens = 2025-03-03T10:00:00+08:00
closes = 2025-03-03T21:00:00+08:00

[[days]]
day = 2
discussion = 13
vote = [14]
opens = 2025-03-04T10:00:00+08:00
closes = 2025-03-04T21:00:00+08:00
"""

ROLES_213 = [("P01", "骑士"), ("P02", "狼人"), ("P03", "狼人"), ("P04", "村民"), ("P05", "预言家"),
             ("P06", "村民"), ("P07", "守卫"), ("P08", "女巫")]


@pytest.fixture
def game213(tmp_path: Path) -> Service:
    players = "\n".join(f'[[players]]\nname = "{n}"\nrole = "{r}"\nfaction = "{"狼人" if r == "狼人" else "村民"}"\n'
                        for n, r in ROLES_213)
    path = tmp_path / "g213.toml"
    path.write_text(GAME_213.format(players=players), encoding="utf-8")
    return Service.open(path, db_url=f"sqlite:///{tmp_path / 'g213.db'}",
                        clock=FrozenClock(datetime(2025, 3, 4, 21, 0, tzinfo=SHANGHAI)))


def _settle_exile(svc: Service, player: str, *, day: int = 2, tid: int = 14,
                  at: datetime = datetime(2025, 3, 4, 21, 0, tzinfo=SHANGHAI)):  # type: ignore[no-untyped-def]
    """What `tracker confirm` does once the tally has chosen ``player``: the exile, with its count,
    settled at the desk in the confirmation's transaction."""
    draft = EventDraft(at=at, kind=EventKind.ELIMINATED.value, player=player,
                       data={"cause": "vote", "day": day, "votes": 4.0, "vote_tid": tid}, recorded_by="导演A")
    with svc.store.session() as s:
        settled = svc._desk_in(s).settle_exit("exile", day, player, at=at, own_exit=draft, via="test")
        svc.log.append(s, settled.drafts)
    return settled


def test_213_a_duel_on_a_wolf_at_noon_voids_the_vote_confirmed_after_it(game213: Service) -> None:
    """决斗[正午]："若该角色的[实际阵营]为狼人阵营，对其造成[穿透]，当天所进行的放逐投票无效" —
    the noon 决斗 is confirmed first; the vote's exile of P04 settled at 黄昏 afterwards leaves
    P04 in, and only the wolf the knight struck is out."""
    desk = game213.night_desk
    desk.add("day:2:正午", "P01", "决斗", ["P02"])
    desk.confirm("day:2:正午")
    settled = _settle_exile(game213, "P04")
    assert settled.key == "day:2:黄昏"
    assert [d.player for d in settled.result.deaths] == []
    assert any("放逐投票无效" in line for line in settled.result.log)
    # what `tracker confirm` adds to the tally's explanation
    words = _settled_words("P04", settled.result)
    assert words.startswith("；结算：P04 未出局") and "放逐投票无效" in words
    status = _status(game213)
    assert status["P02"] == "out" and status["P04"] == "alive"
    # the vote's 出局 was not written: the settlement said nobody goes out by vote
    assert [e for e in _live(game213, "eliminated") if e.get("cause") == "vote"] == []


def test_213_an_unconfirmed_noon_duel_stops_the_vote_from_settling_without_it(game213: Service) -> None:
    """No result may depend on the order things were typed: with a 决斗 submitted at 正午 but not
    settled, the vote is refused (nothing written) until the noon is confirmed."""
    game213.night_desk.add("day:2:正午", "P01", "决斗", ["P02"])
    before = len(game213.log.events())
    with pytest.raises(GameRuleError, match="正午还有未确认的提交"):
        _settle_exile(game213, "P04")
    assert len(game213.log.events()) == before


def test_213_a_duel_on_a_villager_costs_the_knight_and_the_vote_stands(game213: Service) -> None:
    """决斗 (2)："若该角色的[实际阵营]为村民阵营，骑士受到[致死伤害]" — the vote is not voided."""
    desk = game213.night_desk
    desk.add("day:2:正午", "P01", "决斗", ["P04"])
    desk.confirm("day:2:正午")
    settled = _settle_exile(game213, "P03")
    assert [d.player for d in settled.result.deaths] == ["P03"]
    status = _status(game213)
    assert status["P01"] == "out" and status["P03"] == "out" and status["P04"] == "alive"
    votes = [e for e in _live(game213, "eliminated") if e.get("cause") == "vote"]
    assert [(e.player, e.get("phase")) for e in votes] == [("P03", "day:2:黄昏")]


# ------------------------------------------------------------------------------------------ 107

GAME_107 = GAME_213.replace('ruleset = "sanguo-213"', 'ruleset = "dnf-107"').replace("三国测试局", "地下城测试局") + """
[[days]]
day = 3
discussion = 15
vote = [16]
opens = 2025-03-05T10:00:00+08:00
closes = 2025-03-05T21:00:00+08:00
"""
ROLES_107 = [("P01", "学者", "环蛇"), ("P02", "游荡者", "圣殿"), ("P03", "村民", "莱恩"), ("P04", "村民", "莱恩"),
             ("P05", "民兵", "莱恩"), ("P06", "恶徒", "环蛇"), ("P07", "告死者", "亡灵"), ("P08", "剑士", "圣殿")]
DAY3_CLOSE = datetime(2025, 3, 5, 21, 0, tzinfo=SHANGHAI)


@pytest.fixture
def game107(tmp_path: Path) -> Service:
    players = "\n".join(f'[[players]]\nname = "{n}"\nrole = "{r}"\nfaction = "{f}"\n' for n, r, f in ROLES_107)
    path = tmp_path / "g107.toml"
    path.write_text(GAME_107.format(players=players), encoding="utf-8")
    return Service.open(path, db_url=f"sqlite:///{tmp_path / 'g107.db'}", clock=FrozenClock(DAY3_CLOSE))


def _settle_exile_107(svc: Service, player: str):  # type: ignore[no-untyped-def]
    return _settle_exile(svc, player, day=3, tid=16, at=DAY3_CLOSE)


def test_107_sophistry_of_the_night_before_replaces_the_exiled_player(game107: Service) -> None:
    """诡辩<普通>："若该角色在次日投票阶段即将被投票出局，则由学者选择一名其他角色，替代该角色被投票
    出局" — submitted on night 2 and confirmed there, it acts in day 3's settlement without being typed
    again (the skill's ``next_day``); the replacement is a vote exit, in the place of the one voted."""
    desk = game107.night_desk
    desk.add("night:2", "P01", "诡辩", ["P05"])
    desk.confirm("night:2")
    desk.add("day:3", "P01", "诡辩替代", ["P04"])
    settled = _settle_exile_107(game107, "P05")
    assert [d.player for d in settled.result.deaths] == ["P04"]
    status = _status(game107)
    assert status["P05"] == "alive" and status["P04"] == "out"
    [vote] = [e for e in _live(game107, "eliminated") if e.get("cause") == "vote"]
    assert vote.player == "P04" and vote.get("instead_of") == "P05" and vote.get("votes") is None
    assert _settled_words("P05", settled.result) == "；结算：P04 代替 P05 被投票出局"


def test_107_a_trap_fires_when_the_wanderer_is_exiled_the_next_day(game107: Service) -> None:
    """陷阱<普通>："当游荡者在该夜受到致死伤害或次日白天被投票出局后，对其造成一次[致死伤害]" —
    the night-2 trap on P03 takes P03 out with the wanderer exiled on day 3."""
    desk = game107.night_desk
    desk.add("night:2", "P02", "陷阱", ["P03"])
    desk.confirm("night:2")
    settled = _settle_exile_107(game107, "P02")
    assert [d.player for d in settled.result.deaths] == ["P02", "P03"]
    assert _status(game107)["P03"] == "out"
    # without the night's trap the exile sets off nothing: the carried submission is what acted
    assert "陷阱" in settled.result.deaths[1].cause


def test_an_undone_confirmation_can_be_confirmed_again(tmp_path: Path) -> None:
    """The refusal's hint — "先用 undo 事件撤销原记录，再重新确认" — works: the undo is recorded the
    next morning, yet the state at the close no longer holds the exile (an undo corrects the record,
    whatever its time), so the vote settles again from a table where 栗子 is in."""
    svc = open_demo(tmp_path, at=AFTER_DAY2)
    [first] = svc.votes.confirm_day(2)
    svc.ctx.clock = FrozenClock(datetime(2025, 3, 5, 9, 0, tzinfo=SHANGHAI))
    for e in reversed(first.events):
        svc.log.undo_event(e.seq, "重新确认")
    close = datetime(2025, 3, 4, 22, 0, tzinfo=SHANGHAI)
    assert svc.log.state(close).players["栗子"].status == "alive"
    [again] = svc.votes.confirm_day(2)
    assert again.settlement is not None and [d.player for d in again.settlement.deaths] == ["栗子"]
    assert [e.player for e in _live(svc, "eliminated") if e.get("vote_tid") == 6] == ["栗子"]


def test_an_exit_typed_by_hand_says_it_sets_off_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`tracker event … eliminated` records the exit alone: the director is told where the exits
    that settle their consequences are recorded instead."""
    from tracker.cli import main

    svc = open_demo(tmp_path, at=DAY2_NOON)
    svc.close()
    code = main(["event", str(tmp_path / "game.toml"), "eliminated", "--player", "碎碎", "--cause", "skill",
                 "--db", f"sqlite:///{tmp_path / 'game.db'}"])
    err = capsys.readouterr().err
    assert code == 0 and "不触发连锁" in err and "tracker confirm" in err

"""The tally, narrated clause by clause from the five rule posts (each test cites its sentence).

Days here open at 10:00 on 3-1 and close at 22:00 on 3-2 (Asia/Shanghai), like the rule posts'
usual 22:00 close; ballots are built directly so each scenario reads as a few lines of a thread.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from tracker.clock import SHANGHAI
from tracker.engine.ballots import Ballot
from tracker.engine.tally import PlayerView, Roster, TallyRules, VoteModifier, VoteWindow, tally

OPENS = datetime(2025, 3, 1, 10, 0, tzinfo=SHANGHAI)
CLOSES = datetime(2025, 3, 2, 22, 0, tzinfo=SHANGHAI)
EXILE = VoteWindow(day=2, opens=OPENS, closes=CLOSES)
ELECTION = VoteWindow(day=1, opens=OPENS, closes=CLOSES, purpose="election", office="警长")
NAMES = ["甲", "乙", "丙", "丁", "戊", "己"]


@dataclass(frozen=True)
class W:
    weight: float
    tag: str | None = None
    role: str | None = None
    hidden: bool = False


@dataclass(frozen=True)
class Bonus:
    tag: str
    per_role: str
    bonus: float = 1.0


class Thread:
    """Posts a day's ballots in order; ``at`` is hours after the opening unless given."""

    def __init__(self) -> None:
        self.ballots: list[Ballot] = []
        self.pid_of: dict[str, int] = {}

    def vote(self, voter: str, target: str | None, hours: float, *, change: bool = False,
             quote: str | int | None = "own", proxy_by: str | None = None, edited_hours: float | None = None,
             at: datetime | None = None) -> int:
        pid = 100 + len(self.ballots)
        when = at or OPENS + timedelta(hours=hours)
        quoted: tuple[int, ...] = ()
        if change and quote == "own":
            quoted = (self.pid_of[voter],)
        elif isinstance(quote, int):
            quoted = (quote,)
        kind = "proxy" if proxy_by else ("change" if change else "vote")
        self.ballots.append(Ballot(
            pid=pid, tid=4, floor=len(self.ballots) + 2, author=proxy_by or voter, posted_at=when,
            voter=voter, kind=kind, change=change, target=target, reason_text="理由", proxy_by=proxy_by,
            quoted_pids=quoted,
            edited_at=OPENS + timedelta(hours=edited_hours) if edited_hours is not None else None))
        self.pid_of.setdefault(voter, pid)
        return pid


def roster(*views: PlayerView, modifiers: tuple[VoteModifier, ...] = (), dead_by_role: dict[str, int] | None = None,
           ) -> Roster:
    named = {v.name: v for v in views}
    players = tuple(named.get(n, PlayerView(n)) for n in NAMES) + tuple(v for v in views if v.name not in NAMES)
    return Roster(players=players, modifiers=modifiers, dead_by_role=dead_by_role or {})


def codes(result) -> list[str | None]:  # type: ignore[no-untyped-def]
    return [cb.verdict.code.value if cb.verdict else None for cb in result.ballots]


# --------------------------------------------------------------------------- changes


def test_107_unlimited_changes_last_valid_counts() -> None:
    """107 投票规则："改票不限制次数，但以最后一次有效投票为准。" """
    rules = TallyRules(change_limit=None, freeze_minutes=0, accelerated_changes="forbidden")
    t = Thread()
    t.vote("甲", "乙", 1)
    t.vote("甲", "丙", 2, change=True)
    t.vote("甲", "丁", 3, change=True)
    t.vote("甲", "戊", 35.9, change=True)  # six minutes before close: no freeze in 107
    result = tally(t.ballots, rules=rules, roster=roster(), window=EXILE)
    assert codes(result) == [None, None, None, None]
    assert result.final["甲"] == "戊" and result.totals == {"戊": 1}


def test_213_only_one_change() -> None:
    """213 投票规则："改票只允许进行一次。" """
    rules = TallyRules(change_limit=1, freeze_minutes=60)
    t = Thread()
    t.vote("甲", "乙", 1)
    t.vote("甲", "丙", 2, change=True)
    t.vote("甲", "丁", 3, change=True)
    result = tally(t.ballots, rules=rules, roster=roster(), window=EXILE)
    assert codes(result) == [None, None, "change_limit"]
    assert result.final["甲"] == "丙"


def test_213_no_change_or_proxy_in_the_last_hour() -> None:
    """213 投票规则："关门前一小时不允许改票或代投"."""
    rules = TallyRules(change_limit=1, freeze_minutes=60, freeze_blocks_proxy=True)
    t = Thread()
    t.vote("甲", "乙", 1)
    t.vote("甲", "丙", 0, change=True, at=CLOSES - timedelta(minutes=30))
    t.vote("乙", "丙", 0, proxy_by="导演", at=CLOSES - timedelta(minutes=59))
    t.vote("丙", "乙", 0, at=CLOSES - timedelta(minutes=10))  # a first vote is still fine
    result = tally(t.ballots, rules=rules, roster=roster(), window=EXILE)
    assert codes(result) == [None, "proxy_too_late", "change_in_freeze", None]  # in forum time order
    assert result.final["甲"] == "乙"


def test_213_noon_exception_allows_one_change_inside_the_freeze() -> None:
    """213 用语定义·投票："如果投票的角色在正午就已出局，即使在禁止改票的时间内也可以进行一次改票。" """
    rules = TallyRules(change_limit=1, freeze_minutes=60, noon_exception=True)
    out_at_noon = OPENS + timedelta(hours=26)  # 3-2 12:00
    t = Thread()
    t.vote("甲", "乙", 1)
    t.vote("甲", "丙", 2, change=True)   # the one ordinary change
    t.vote("丁", "丙", 3)
    t.vote("甲", "丁", 0, change=True, quote=t.pid_of["甲"], at=CLOSES - timedelta(minutes=20))
    t.vote("丁", "乙", 0, change=True, at=CLOSES - timedelta(minutes=20))
    t.vote("甲", "戊", 0, change=True, quote=t.pid_of["甲"], at=CLOSES - timedelta(minutes=10))
    result = tally(t.ballots, rules=rules, roster=roster(PlayerView("丙", out_at=out_at_noon)), window=EXILE)
    assert codes(result) == [None, None, None, None, None, "change_in_freeze"]
    assert [f.code.value for f in result.ballots[3].flags] == ["noon_exception"]
    assert result.final["甲"] == "丁" and result.final["丁"] == "乙"
    assert "丙" not in result.totals


def test_without_the_noon_clause_the_freeze_holds() -> None:
    rules = TallyRules(change_limit=1, freeze_minutes=60, noon_exception=False)
    t = Thread()
    t.vote("甲", "丙", 1)
    t.vote("甲", "丁", 0, change=True, at=CLOSES - timedelta(minutes=20))
    result = tally(t.ballots, rules=rules, roster=roster(PlayerView("丙", out_at=OPENS + timedelta(hours=26))),
                   window=EXILE)
    assert codes(result) == [None, "change_in_freeze"]


def test_m65_no_changes_while_accelerated() -> None:
    """M65 投票规则："执行加速时不允许改票。" """
    rules = TallyRules(change_limit=1, freeze_minutes=60, accelerated_changes="forbidden")
    day = VoteWindow(day=2, opens=OPENS, closes=CLOSES, accelerated=True)
    t = Thread()
    t.vote("甲", "乙", 1)
    t.vote("甲", "丙", 2, change=True)
    result = tally(t.ballots, rules=rules, roster=roster(), window=day)
    assert codes(result) == [None, "change_accelerated"]
    assert result.final["甲"] == "乙"


def test_acceleration_from_a_moment_only_forbids_later_changes() -> None:
    rules = TallyRules(change_limit=None, freeze_minutes=0, accelerated_changes="forbidden")
    day = VoteWindow(day=2, opens=OPENS, closes=CLOSES, accelerated=True,
                    accelerated_at=OPENS + timedelta(hours=10))
    t = Thread()
    t.vote("甲", "乙", 1)
    t.vote("甲", "丙", 2, change=True)
    t.vote("甲", "丁", 11, change=True)
    assert codes(tally(t.ballots, rules=rules, roster=roster(), window=day)) == [None, None, "change_accelerated"]


def test_m19_acceleration_voids_every_change() -> None:
    """M19："进程加速后不允许改票，所有改票作废。" — a change made before the acceleration is void too."""
    rules = TallyRules(change_limit=1, freeze_minutes=60, accelerated_changes="void_all")
    day = VoteWindow(day=2, opens=OPENS, closes=CLOSES, accelerated=True, accelerated_at=OPENS + timedelta(hours=20))
    t = Thread()
    t.vote("甲", "乙", 1)
    t.vote("甲", "丙", 2, change=True)
    result = tally(t.ballots, rules=rules, roster=roster(), window=day)
    assert codes(result) == [None, "change_voided_by_acceleration"]
    assert result.final["甲"] == "乙"


def test_change_must_quote_ones_own_vote_floor() -> None:
    """All five: "【改票格式】改票需回复原投票楼层"."""
    rules = TallyRules(change_limit=None, freeze_minutes=0)
    t = Thread()
    t.vote("甲", "乙", 1)
    t.vote("乙", "丙", 1.5)
    t.vote("甲", "丙", 2, change=True, quote=None)
    t.vote("甲", "丙", 3, change=True, quote=t.pid_of["乙"])
    t.vote("丙", "乙", 4, change=True, quote=None)  # 丙 never voted
    t.vote("甲", "丁", 5)  # a second 投票对象 is not a change
    result = tally(t.ballots, rules=rules, roster=roster(), window=EXILE)
    assert codes(result) == [None, None, "change_without_quote", "change_quotes_other", "change_without_vote",
                             "second_vote"]
    assert result.final["甲"] == "乙"


def test_an_invalid_vote_is_corrected_by_a_new_post() -> None:
    """All five: "投票格式或投票对象有误的票无效。无效票须通过重新发帖来更正。" """
    t = Thread()
    t.vote("甲", "饺字", 1)
    t.vote("甲", "乙", 2)
    result = tally(t.ballots, rules=TallyRules(), roster=roster(), window=EXILE)
    assert codes(result) == ["unknown_target", None]
    assert result.final["甲"] == "乙"


# --------------------------------------------------------------------------- voters, targets, time


def test_benched_players_are_targets_but_not_voters() -> None:
    """107/M160："挂机状态的角色属于游戏范畴，允许被选为技能或投票的目标，但不能继续参与讨论、投票"."""
    t = Thread()
    t.vote("甲", "乙", 1)
    t.vote("乙", "甲", 2)
    result = tally(t.ballots, rules=TallyRules(), roster=roster(PlayerView("乙", status="benched")), window=EXILE)
    assert codes(result) == [None, "voter_benched"]
    assert result.totals == {"乙": 1}


def test_out_players_neither_vote_nor_are_voted() -> None:
    """"已经公示的出局角色不属于游戏范畴，不允许被选为技能或投票的目标" (107/M19); 出局后不能投票."""
    t = Thread()
    t.vote("甲", "乙", 1)
    t.vote("乙", "甲", 2)
    t.vote("丙", "路人", 3)
    result = tally(t.ballots, rules=TallyRules(), roster=roster(PlayerView("乙", status="out")), window=EXILE)
    assert codes(result) == ["target_not_alive", "voter_not_alive", "unknown_target"]
    assert "乙" not in result.final


def test_late_and_early_posts() -> None:
    """M65："入夜前，所有人需要将投票投在投票贴。入夜后投票无效。白天开始时就可以投票。" """
    t = Thread()
    t.vote("甲", "乙", 0, at=OPENS - timedelta(minutes=1))
    t.vote("乙", "甲", 0, at=CLOSES + timedelta(minutes=5))
    t.vote("丙", "甲", 0, at=CLOSES)
    assert codes(tally(t.ballots, rules=TallyRules(), roster=roster(), window=EXILE)) == [
        "posted_before_open", None, "posted_after_close"]  # in forum time order; the close itself counts


def test_edited_after_close_is_flagged_with_the_earlier_version() -> None:
    """"Whether an edited vote counts as written…: count what the forum shows, flag the edit." """
    t = Thread()
    pid = t.vote("甲", "乙", 1, edited_hours=37)
    result = tally(t.ballots, rules=TallyRules(), roster=roster(), window=EXILE,
                   earlier_versions={pid: "投票对象：丙\n投票理由：理由"})
    cb = result.ballots[0]
    assert cb.valid and [f.code.value for f in cb.flags] == ["edited_after_close"]
    assert cb.earlier_text is not None and "丙" in cb.earlier_text


def test_m65_proxy_at_least_thirty_minutes_before_close() -> None:
    """M65 导演代投："导演至少在投票截至的30分钟前…发出代投信息…投票截止前30分钟内再让导演代投，该票作废。" """
    rules = TallyRules(proxy_deadline_minutes=30, freeze_minutes=60, freeze_blocks_proxy=True)
    t = Thread()
    t.vote("甲", "乙", 0, proxy_by="导演", at=CLOSES - timedelta(minutes=90))
    t.vote("乙", "甲", 0, proxy_by="导演", at=CLOSES - timedelta(minutes=20))
    result = tally(t.ballots, rules=rules, roster=roster(), window=EXILE)
    assert codes(result) == [None, "proxy_too_late"]
    assert result.ballots[0].ballot.proxy_by == "导演" and result.final["甲"] == "乙"


# --------------------------------------------------------------------------- outcomes


def test_m19_election_tie_goes_to_the_first_to_reach_the_top() -> None:
    """M19 警长·竞岗："在游戏的第一天投票结束后，最先获得投票数最多的角色当选警长。" """
    rules = TallyRules(tie="first_to_top")
    t = Thread()
    t.vote("甲", "丙", 1)
    t.vote("乙", "丁", 2)
    t.vote("戊", "丁", 3)   # 丁 reaches 2 first
    t.vote("己", "丙", 4)   # 丙 reaches 2 later
    result = tally(t.ballots, rules=rules, roster=roster(), window=ELECTION)
    assert result.outcome.kind == "elected" and result.outcome.player == "丁"
    # the tied players in the order they reached the top: the post's 最先 is that order
    assert result.outcome.tied == ("丁", "丙")


def test_213_election_tie_means_no_sheriff() -> None:
    """213："警长/牧首竞选投票产生平票时，本局游戏没有警长/牧首。" """
    t = Thread()
    t.vote("甲", "丙", 1)
    t.vote("乙", "丁", 2)
    result = tally(t.ballots, rules=TallyRules(tie="nobody"), roster=roster(), window=ELECTION)
    assert (result.outcome.kind, result.outcome.reason) == ("nobody", "tie")
    assert "没有警长" in result.outcome.message


def test_exile_tie_nobody_out() -> None:
    """M19："第二天及以后的白天，获得投票最多的角色将出局。平票则无人出局。" """
    t = Thread()
    t.vote("甲", "丙", 1)
    t.vote("乙", "丁", 2)
    t.vote("丙", "弃权", 3)
    result = tally(t.ballots, rules=TallyRules(), roster=roster(), window=EXILE)
    assert (result.outcome.kind, result.outcome.reason) == ("nobody", "tie")
    assert result.abstained == ("丙",) and "弃权" not in result.totals


def test_m160_unique_top_and_half_of_the_living() -> None:
    """M160："被投了大于等于场上存活角色一半的出人票且是唯一最高票后，该玩家【死亡】。" (6 living → 3 needed)."""
    rules = TallyRules(threshold="half_living", change_limit=None, freeze_minutes=0)
    t = Thread()
    t.vote("甲", "丙", 1)
    t.vote("乙", "丙", 2)
    t.vote("丁", "戊", 3)
    short = tally(t.ballots, rules=rules, roster=roster(), window=EXILE)
    assert (short.outcome.kind, short.outcome.reason) == ("nobody", "threshold")
    t.vote("戊", "丙", 4)
    enough = tally(t.ballots, rules=rules, roster=roster(), window=EXILE)
    assert (enough.outcome.kind, enough.outcome.player) == ("exiled", "丙")


def test_m160_the_dead_keep_one_last_vote() -> None:
    """M160："【死亡】状态的玩家仅拥有最后一票，在使用此票后该玩家【出局】"；"再不能成为被选择的目标"；
    "【死亡】但未【出局】玩家在未执行加速的讨论日若未投票，自动视为【弃权】"."""
    rules = TallyRules(dead_last_vote=True, change_limit=None, freeze_minutes=0)
    t = Thread()
    t.vote("甲", "丙", 1)     # 甲 is dead: a valid last vote
    t.vote("丙", "甲", 2)     # a dead player cannot be chosen
    r = roster(PlayerView("甲", status="dead"), PlayerView("乙", status="dead"))
    result = tally(t.ballots, rules=rules, roster=r, window=EXILE)
    assert codes(result) == [None, "target_not_alive"]
    # 乙's automatic 弃权 is their vote: it uses up the last one too (issue 12)
    assert result.last_votes_used == ("甲", "乙")
    assert result.auto_abstain == ("乙",) and result.final["乙"] == "弃权"
    assert "乙" not in result.no_vote and "丙" in result.no_vote


def test_dead_players_may_not_vote_where_the_clause_is_absent() -> None:
    t = Thread()
    t.vote("甲", "丙", 1)
    result = tally(t.ballots, rules=TallyRules(), roster=roster(PlayerView("甲", status="dead")), window=EXILE)
    assert codes(result) == ["voter_not_alive"]


def test_m65_day1_top_voted_seer_means_nobody_out() -> None:
    """M65 预知者<天罡护体>："若成为得票数最高的角色，则当日无人出局（仅限游戏日第一日）。" """
    rules = TallyRules(nobody_out_if_top="预知者")
    day1 = VoteWindow(day=1, opens=OPENS, closes=CLOSES)
    t = Thread()
    t.vote("甲", "丙", 1)
    result = tally(t.ballots, rules=rules, roster=roster(PlayerView("丙", role="预知者")), window=day1)
    assert (result.outcome.kind, result.outcome.reason) == ("nobody", "day1_immunity")


# --------------------------------------------------------------------------- weights and hidden modifiers


def test_213_sheriff_weighs_one_and_a_half_publicly() -> None:
    """213 警长·带队<强制>："计算投票数量时警长投出的票计为1.5票。" """
    rules = TallyRules(weights=(W(1.5, tag="警长"),))
    t = Thread()
    t.vote("甲", "丙", 1)
    t.vote("乙", "丁", 2)
    result = tally(t.ballots, rules=rules, roster=roster(PlayerView("甲", tags=frozenset({"警长"}))), window=EXILE)
    assert result.totals == result.public_totals == {"丙": 1.5, "丁": 1}
    assert result.outcome.player == "丙"


def test_m19_lovers_hidden_plus_and_minus_two() -> None:
    """M19 基佬情深："强攻：投到攻身上的票数暗记+2"；"弱受：投到受身上的票数暗记-2"."""
    mods = (VoteModifier("received_add", "丙", 2), VoteModifier("received_add", "丁", -2))
    t = Thread()
    for v, tgt in (("甲", "丙"), ("乙", "丁"), ("戊", "丁"), ("己", "丁")):
        t.vote(v, tgt, 1)
    result = tally(t.ballots, rules=TallyRules(), roster=roster(modifiers=mods), window=EXILE)
    assert result.public_totals == {"丁": 3, "丙": 1}
    assert result.totals == {"丙": 3, "丁": 1}
    assert result.outcome.player == "丙" and result.outcome.public_differs


def test_m65_doubled_votes_received_are_hidden() -> None:
    """M65 <深青之桩>/<天枢剑圣>："使其第二天被投票数加倍（暗记），被选中的玩家不公示。" """
    mods = (VoteModifier("received_multiply", "丙", 2),)
    t = Thread()
    t.vote("甲", "丙", 1)
    t.vote("乙", "丁", 2)
    t.vote("戊", "丁", 3)
    result = tally(t.ballots, rules=TallyRules(), roster=roster(modifiers=mods), window=EXILE)
    assert result.public_totals == {"丁": 2, "丙": 1}
    assert result.totals == {"丙": 2, "丁": 2}
    assert result.outcome.kind == "nobody"


def test_m65_vote_right_taken_counts_publicly_but_not_truly() -> None:
    """M65 <票权掠夺>："剥夺他的投票权，暗记并不公示，该玩家仍可投票，但投票算无效票。" """
    mods = (VoteModifier("void_voter", "甲"),)
    t = Thread()
    t.vote("甲", "丙", 1)
    result = tally(t.ballots, rules=TallyRules(), roster=roster(modifiers=mods), window=EXILE)
    cb = result.ballots[0]
    assert cb.valid and cb.public_weight == 1 and cb.weight == 0
    assert [f.code.value for f in cb.flags] == ["voter_voided"]
    assert result.public_totals == {"丙": 1} and result.totals == {}


def test_107_rumour_is_announced_with_two_votes() -> None:
    """107 流言："该角色在下个白天被公告记有2票。" — announced, so in both counts."""
    mods = (VoteModifier("announced_add", "丁", 2, public=True),)
    t = Thread()
    t.vote("甲", "丙", 1)
    result = tally(t.ballots, rules=TallyRules(), roster=roster(modifiers=mods), window=EXILE)
    assert result.totals == result.public_totals == {"丁": 2, "丙": 1}
    assert result.outcome.player == "丁"


def test_107_only_some_roles_hold_a_vote_and_the_chosen_one_weighs_more() -> None:
    """107 投票："仅村民、学者、守夜人、慰魂师、神眷者和亡灵阵营的角色拥有票权，神眷者的投票计为1.5票"."""
    rules = TallyRules(weights=(W(1.5, tag="神眷者"),), eligible_voter_roles=frozenset({"村民", "学者"}),
                       eligible_voter_tags=frozenset({"神眷者"}), eligible_voter_factions=frozenset({"亡灵"}))
    r = roster(PlayerView("甲", role="村民"), PlayerView("乙", role="刺客", tags=frozenset({"神眷者"})),
               PlayerView("丙", role="血族", faction="亡灵"), PlayerView("丁", role="刺客"))
    t = Thread()
    for v in ("甲", "乙", "丙", "丁"):
        t.vote(v, "戊", 1)
    result = tally(t.ballots, rules=rules, roster=r, window=EXILE)
    assert result.totals == {"戊": 3.5}
    assert result.public_totals == {"戊": 4.5}
    no_right = next(cb for cb in result.ballots if cb.voter == "丁")
    assert no_right.valid and no_right.weight == 0 and no_right.flags[0].code.value == "no_vote_right"


def test_107_gang_leader_votes_one_more_per_dead_thug() -> None:
    """107 恶徒首领："1.首领的投票计算为有效票 2.每出局一名恶徒，恶徒首领的投票数量+1"."""
    rules = TallyRules(eligible_voter_roles=frozenset({"村民"}), eligible_voter_tags=frozenset({"恶徒首领"}),
                       per_dead_bonus=Bonus("恶徒首领", "恶徒"))
    r = roster(PlayerView("甲", role="恶徒", tags=frozenset({"恶徒首领"})), dead_by_role={"恶徒": 2})
    t = Thread()
    t.vote("甲", "丙", 1)
    assert tally(t.ballots, rules=rules, roster=r, window=EXILE).totals == {"丙": 3}


def test_107_influence_toggles_a_vote_right_for_the_day() -> None:
    """107 权势："对于这些角色的每个，如果原本有投票权，仅限当天失去投票权；如果原本没有投票权，仅限当天获得投票权。" """
    rules = TallyRules(eligible_voter_roles=frozenset({"村民"}))
    mods = (VoteModifier("toggle_vote_right", "甲", public=True), VoteModifier("toggle_vote_right", "乙", public=True))
    r = roster(PlayerView("甲", role="村民"), PlayerView("乙", role="刺客"), modifiers=mods)
    t = Thread()
    t.vote("甲", "丙", 1)
    t.vote("乙", "丁", 2)
    result = tally(t.ballots, rules=rules, roster=r, window=EXILE)
    assert result.totals == {"丁": 1}
    assert result.public_totals == {"丁": 1}


# --------------------------------------------------------------------------- order independence


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False))
def test_the_tally_does_not_depend_on_the_order_posts_were_stored(rnd: random.Random) -> None:
    rules = TallyRules(change_limit=1, freeze_minutes=60, tie="first_to_top")
    t = Thread()
    gen = random.Random(7)
    for i in range(60):
        voter = gen.choice(NAMES)
        target = gen.choice([*NAMES, "弃权", "饺字"])
        change = voter in t.pid_of and gen.random() < 0.6
        t.vote(voter, target, i * 0.5, change=change)
    base = tally(t.ballots, rules=rules, roster=roster(), window=ELECTION)
    shuffled = list(t.ballots)
    rnd.shuffle(shuffled)
    again = tally(shuffled, rules=rules, roster=roster(), window=ELECTION)
    assert again == base

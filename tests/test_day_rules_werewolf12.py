"""werewolf-12's day rules, said in its ruleset and acting on real-parsed Discuz pages.

Each test names the clause of ``werewolf-12.txt`` (三、白天 and 四、警长) it holds the engine to. The
pages are generated from a real capture (tests/discuz_pages.py) and read by the real page parser;
the ballots, the count, the 潜水 count and the detectors then run as the service runs them. The seed
games' own readings are checked beside them, so a key's default keeps them as they were.
"""

from __future__ import annotations

from datetime import datetime

import pytest
from discuz_pages import Said, posts_of

from tracker.clock import SHANGHAI
from tracker.engine.ballots import SEED_FORMAT, Ballot, BallotFormat, parse_ballot
from tracker.engine.candidacy import SignupPost, candidacy
from tracker.engine.ruleset import load_ruleset
from tracker.engine.tally import Candidacy, PlayerView, Roster, Tally, VoteWindow, rules_for_vote, tally
from tracker.penalties.lurk import LurkWindow, PlayerDay, content_free, lurk_report

WW = load_ruleset("werewolf-12")
SEEDS = ["dnf-107", "sanguo-213", "luoluo-m19", "gourmet-m160", "accel-m65"]
DAY = datetime(2026, 3, 2, 10, 0, tzinfo=SHANGHAI)        # 第1天 10:00
CLOSE = DAY.replace(hour=22)                              # "投票帖当日 22:00 截止"
NAMES = ["阿一", "阿二", "阿三", "阿四", "阿五", "阿六", "阿七", "阿八", "阿九", "阿十", "十一", "十二"]
VOTE_TID, TALK_TID = 12, 11
FMT = BallotFormat(reason_required=False, abstain_words=("弃票",), other_keywords=("警长投票",))


def at(hh: int, mm: int = 0, ss: int = 0) -> datetime:
    return DAY.replace(hour=hh, minute=mm, second=ss)


def roster(dead: tuple[str, ...] = (), sheriff: str | None = None) -> Roster:
    return Roster(players=tuple(
        PlayerView(name=n, status="out" if n in dead else "alive", seat=i,
                   tags=frozenset({"警长"}) if n == sheriff else frozenset())
        for i, n in enumerate(NAMES, 1)))


def ballots(said: list[Said], fmt: BallotFormat = FMT, tid: int = VOTE_TID) -> list[Ballot]:
    names = [*NAMES, *(w for i in range(1, 13) for w in (str(i), f"{i}号"))]
    return [b for p in posts_of(tid, said) if (b := parse_ballot(p, names=names, fmt=fmt)) is not None]


def count(said: list[Said], *, dead: tuple[str, ...] = (), sheriff: str | None = None) -> Tally:
    window = VoteWindow(day=1, opens=DAY, closes=CLOSE)
    return tally(ballots(said), rules=rules_for_vote(WW.voting), roster=roster(dead, sheriff), window=window)


def by(name: str, when: datetime, text: str, edited: datetime | None = None) -> Said:
    return Said(name, 100 + NAMES.index(name), when, text, edited)


def verdicts(t: Tally) -> list[tuple[str, str | None]]:
    return [(cb.voter, cb.verdict.code.value if cb.verdict else None) for cb in t.ballots]


# ------------------------------------------------------------------ 三、3(2) the ballot's one line


def test_one_line_without_a_reason_is_a_ballot_here_and_not_in_the_seed_games() -> None:
    """三、3(2) "投票格式必须严格为一行：投票对象：X": no 投票理由 line. The seed posts' format keeps it."""
    assert WW.voting.reason_required is False
    assert all(load_ruleset(r).voting.reason_required for r in SEEDS)
    [post] = posts_of(VOTE_TID, [by("阿一", at(11), "投票对象：7")])
    assert parse_ballot(post, names=NAMES, fmt=FMT).well_formed  # type: ignore[union-attr]
    seed = parse_ballot(post, names=NAMES, fmt=SEED_FORMAT)
    assert seed is not None and [e.code.value for e in seed.errors] == ["missing_reason"]


def test_seat_numbers_and_the_abstain_word() -> None:
    """三、3(2) "X 为存活玩家号码（如“投票对象：7”）……弃票请写：投票对象：弃票"; "投给死者/不存在的号码……
    该帖视为无效票". 弃权 is not this post's word."""
    t = count([by("阿一", at(11), "投票对象：7"), by("阿二", at(11, 1), "投票对象：7号"),
               by("阿三", at(11, 2), "投票对象：弃票"), by("阿四", at(11, 3), "投票对象：13"),
               by("阿五", at(11, 4), "投票对象：3"), by("阿六", at(11, 5), "投票对象：弃权")], dead=("阿三",))
    # 阿三 is out (voting as a dead player is invalid too); 3 号 is 阿三
    assert verdicts(t) == [("阿一", None), ("阿二", None), ("阿三", "voter_not_alive"),
                           ("阿四", "unknown_target"), ("阿五", "target_not_alive"), ("阿六", "unknown_target")]
    assert t.final["阿一"] == "阿七" and t.final["阿二"] == "阿七"
    assert "本局没有 13 号" in (t.ballots[3].reason or "")
    assert "3 号 阿三已出局" in (t.ballots[4].reason or "")
    assert t.outcome.kind == "exiled" and t.outcome.player == "阿七"


def test_two_seats_in_one_post_is_invalid() -> None:
    """三、3(2) "一帖写多个对象的，该帖视为无效票"."""
    t = count([by("阿一", at(11), "投票对象：7、8")])
    assert verdicts(t) == [("阿一", "multiple_targets")]


# ------------------------------------------------------------------ 三、3(3) 改票 and the freeze


def test_the_last_valid_ballot_counts_without_quoting() -> None:
    """三、3(3) "以……该玩家在投票帖中的最后一个有效投票帖为准": no 改票 format, no quote. Under the seed
    games' rule a second plain ballot is refused (second_vote)."""
    said = [by("阿一", at(11), "投票对象：7"), by("阿一", at(15), "投票对象：8"),
            by("阿一", at(16), "投票对象：99")]  # an invalid one does not undo the valid one before it
    t = count(said)
    assert verdicts(t) == [("阿一", None), ("阿一", None), ("阿一", "unknown_target")]
    assert t.final["阿一"] == "阿八"
    seed = tally(ballots(said), rules=rules_for_vote(load_ruleset("luoluo-m19").voting), roster=roster(),
                 window=VoteWindow(day=1, opens=DAY, closes=CLOSE))
    assert [v for _, v in verdicts(seed)][1] == "second_vote"


def test_the_freeze_stops_first_votes_and_silence_is_an_abstention() -> None:
    """三、3(3) "21:00 及之后的投票帖……一律无效"; "21:00 之前从未有效投票者，视为弃票"."""
    t = count([by("阿一", at(20, 59, 59), "投票对象：7"), by("阿二", at(21), "投票对象：7"),
               by("阿一", at(21, 30), "投票对象：8")])
    assert verdicts(t) == [("阿一", None), ("阿二", "vote_in_freeze"), ("阿一", "vote_in_freeze")]
    assert t.final["阿一"] == "阿七"
    assert t.final["阿二"] == "弃票" and "阿二" in t.auto_abstain and "阿二" not in t.no_vote
    assert t.final["十二"] == "弃票"  # never voted at all
    assert t.totals == {"阿七": 1.0}


def test_an_edit_before_the_freeze_is_a_new_ballot_and_after_it_void() -> None:
    """三、3(3) "编辑过的投票帖一律无效（编辑帖以导演看到的最后编辑时间为准，21:00 前编辑视为新帖）"."""
    t = count([by("阿一", at(11), "投票对象：7", edited=at(20, 30)),   # new ballot at 20:30 …
               by("阿一", at(15), "投票对象：8"),                          # … so later than this one
               by("阿二", at(11), "投票对象：7", edited=at(21, 5))])    # edited in the freeze: void
    assert t.final["阿一"] == "阿七"
    assert [(cb.ballot.floor, cb.verdict.code.value if cb.verdict else None) for cb in t.ballots] == [
        (2, None), (1, None), (3, "edited_in_freeze")]
    assert any(f.code.value == "edit_as_new" for f in t.ballots[1].flags)
    assert t.final["阿二"] == "弃票"


def test_a_tie_and_an_all_abstain_day_exile_nobody() -> None:
    """三、3(4) "最高票平票（含全员弃票、0 票）→ 当天无人出局"."""
    assert count([by("阿一", at(11), "投票对象：7"), by("阿二", at(11), "投票对象：8")]).outcome.kind == "nobody"
    assert count([by("阿一", at(11), "投票对象：弃票")]).outcome.reason == "no_votes"


def test_the_sheriff_weighs_one_and_a_half() -> None:
    """四、2 "白天放逐投票中，警长的一票计为 1.5 票"."""
    t = count([by("阿一", at(11), "投票对象：7"), by("阿二", at(11), "投票对象：8"),
               by("阿三", at(11), "投票对象：8")], sheriff="阿一")
    assert t.totals == {"阿八": 2.0, "阿七": 1.5}


# ------------------------------------------------------------------ 四、1 警长竞选


def signups(said: list[Said]) -> Candidacy:
    sheriff = WW.voting.day1[0]
    posts = [SignupPost(player=p.author, floor=p.floor, pid=p.pid, posted_at=p.posted_at, text=p.text)
             for p in posts_of(TALK_TID, said)]
    assert sheriff.signup_word and sheriff.signup_closes == "12:00"
    return candidacy(posts, signup_word=sheriff.signup_word, withdraw_word=sheriff.withdraw_word,
                     opens=DAY, closes=at(12), living=NAMES)


def election(said: list[Said], cands: Candidacy) -> Tally:
    sheriff = WW.voting.day1[0]
    fmt = BallotFormat(reason_required=False, abstain_words=("弃票",), keyword=sheriff.keyword)
    window = VoteWindow(day=1, opens=at(16), closes=at(18), purpose="election", office="警长")
    return tally(ballots(said, fmt), rules=rules_for_vote(WW.voting, sheriff), roster=roster(), window=window,
                 candidacy=cands)


def test_candidates_by_their_posts_and_who_may_vote() -> None:
    """四、1 "10:00 — 12:00 在讨论帖回复“上警”即为参选；12:00 前可回复“退水”退出竞选"; "上警（含已退水者）
    不得投票"; "在投票帖以“警长投票：X”投票"; "17:00 后改票无效"."""
    cands = signups([by("阿一", at(10, 5), "上警！"), by("阿二", at(10, 6), "上警，我是好人"),
                     by("阿三", at(10, 7), "不上警"), by("阿四", at(11), "上警"), by("阿四", at(11, 30), "退水"),
                     by("阿五", at(12, 1), "上警")])  # too late
    assert cands.entered == {"阿一", "阿二", "阿四"} and cands.standing == {"阿一", "阿二"}
    t = election([by("阿五", at(16, 1), "警长投票：1"), by("阿六", at(16, 2), "警长投票：2号"),
                  by("阿七", at(16, 3), "警长投票：1"), by("阿四", at(16, 4), "警长投票：1"),
                  by("阿八", at(16, 5), "警长投票：4"), by("阿九", at(16, 6), "投票对象：2"),
                  by("阿六", at(17, 10), "警长投票：1"), by("阿十", at(15, 59), "警长投票：2")], cands)
    # 阿九's 投票对象 is the exile's ballot, not this vote's
    assert verdicts(t) == [("阿十", "posted_before_open"), ("阿五", None), ("阿六", None), ("阿七", None),
                           ("阿四", "candidate_may_not_vote"), ("阿八", "target_not_candidate"),
                           ("阿六", "vote_in_freeze")]
    assert t.outcome.kind == "elected" and t.outcome.player == "阿一" and t.totals == {"阿一": 2.0, "阿二": 1.0}
    assert "阿四" not in t.final  # a candidate is not expected to vote


def test_a_tied_election_and_all_or_none_lose_the_badge() -> None:
    """四、1 "平票 → 本局无警长（警徽流失）。全员上警或无人上警 → 警徽流失。"""
    two = signups([by("阿一", at(10, 5), "上警"), by("阿二", at(10, 6), "上警")])
    tied = election([by("阿五", at(16, 1), "警长投票：1"), by("阿六", at(16, 2), "警长投票：2")], two)
    assert tied.outcome.kind == "nobody" and tied.outcome.reason == "tie"
    none = election([], signups([]))
    assert (none.outcome.kind, none.outcome.reason) == ("nobody", "no_candidates")
    assert none.outcome.message == "无人上警，本局无警长"
    everyone = signups([by(n, at(10, 10), "上警") for n in NAMES])
    assert election([], everyone).outcome.reason == "all_candidates"


# ------------------------------------------------------------------ 三、4 潜水


def test_lurk_counts_only_posts_with_content_and_has_no_three_day_rule() -> None:
    """三、4 "须发言不少于 3 帖（投票帖不算，遗言帖不算，纯表情/纯标点/“顶”“路过”之类无实质内容的帖不算）".
    The post has no three-day rule: leaving ``three_day_min`` out must not switch one on."""
    smiley = '<img src="static/image/smiley/default/sad.gif" smilieid="2" border="0" alt="" />'
    said = [by("阿一", at(10, i), t) for i, t in enumerate(["顶", "路过", "。。。", smiley, "顶顶顶！", "我觉得7号是狼"])]
    said += [by("阿二", at(11, i), f"第{i}帖：我站边5号") for i in range(3)]
    said += [by("阿三", at(12, i), t) for i, t in enumerate(["有图", "7号发言有问题", "同意"])]
    talk = posts_of(TALK_TID, said)
    vote = posts_of(VOTE_TID, [by("阿一", at(11), "投票对象：7")], first_pid=50_000)
    window = LurkWindow(day=1, discussion_tid=TALK_TID, opens=DAY, closes=CLOSE)
    players = [PlayerDay(n) for n in ("阿一", "阿二", "阿三")]
    rep = lurk_report(window=window, posts=[*talk, *vote], players=players, rules=WW.lurk)
    assert rep.posts == {"阿一": 1, "阿二": 3, "阿三": 3}
    assert [(p.player, p.rule, p.card) for p in rep.penalties] == [("阿一", "min_posts", "yellow")]
    assert WW.lurk.three_day_min is None and WW.lurk.no_vote_penalty is False
    # three days of 3–9 posts: no card under werewolf-12, as the post has no such rule
    streak: dict[str, int] = {}
    for _ in range(3):
        r = lurk_report(window=window, posts=talk, players=[PlayerDay("阿二")], rules=WW.lurk,
                        previous_streaks=streak)
        streak = r.streaks
        assert r.penalties == []


@pytest.mark.parametrize("text,empty", [("顶", True), ("路过~", True), ("？？？", True), ("", True),
                                        ("😀😀", True), ("顶！路过。", True), ("7号", False),
                                        ("顶7号", False), ("我投顶", False)])
def test_what_says_nothing(text: str, empty: bool) -> None:
    assert content_free(text, WW.lurk.content_free_words) is empty
    assert content_free(text, ()) is False  # a ruleset that lists nothing counts every post


def test_the_seed_games_keep_their_lurk_rules_written() -> None:
    """The seed posts' 5-post and three-day rules are written in their files, not defaults."""
    for rid in SEEDS:
        lurk = load_ruleset(rid).lurk
        assert (lurk.min_posts, lurk.three_day_min, lurk.three_day_span) == (5, 10, 3)
        assert lurk.content_free_words == ()


# ------------------------------------------------------------------ 三、5 红字, 八、2 and the card each suggests


def test_detectors_chosen_by_the_ruleset_and_the_card_each_suggests() -> None:
    """三、5 "每发现一帖使用红字，该玩家得 1 张黄牌（同一帖多处红字只算 1 张）"; no enlarged-font rule in
    this post, so a big font is not flagged; 八、2 "禁止发誓/以账号担保身份……禁止贴私信原文。违者一次黄牌"."""
    from tracker.penalties.detect import DetectContext, detect_posts
    from tracker.penalties.review import Flag, suggest_card

    said = [by("阿一", at(10, 1), '<font color="#FF0000">我是预言家</font>，<font color="Red">7号查杀</font>'),
            by("阿二", at(10, 2), '<font size="7">我要竞选警长！</font>'),
            by("阿三", at(10, 3), "我发誓我是好人"),
            by("阿四", at(10, 4), '<font color="#0000FF">蓝色没事</font>'),
            by("阿五", at(10, 5), "阿六 21:15:03 私信：我是女巫<br />阿五 21:15:40 私信：好")]
    posts = posts_of(TALK_TID, said)
    found = detect_posts(posts, context=DetectContext(players=NAMES, ruleset=WW))
    assert [(f.author, f.kind, f.category) for f in found] == [
        ("阿一", "red_text", "font"), ("阿三", "keyword", "oath"), ("阿五", "chat_log_evidence", found[2].category)]
    assert found[0].clause.startswith("三、5 红字规则")
    assert found[1].clause.startswith("八、2") and found[2].clause.startswith("八、2")
    # the seed games keep every detector: the big font is flagged under M19's clause
    seed = detect_posts(posts, context=DetectContext(players=NAMES, ruleset=load_ruleset("luoluo-m19")))
    assert ("阿二", "large_font") in {(f.author, f.kind) for f in seed}

    def flag(i: int) -> Flag:
        f = found[i]
        return Flag(id=i + 1, key="k", kind=f.kind, category=f.category, clause=f.clause, pid=f.pid, tid=f.tid,
                    floor=f.floor, author=f.author, posted_at=f.posted_at, excerpt=f.excerpt, matched=f.matched,
                    html_hash=f.html_hash, evidence=f.evidence, detected_at=at(23))

    for i in range(3):
        suggestion = suggest_card(flag(i), [], rules=WW.detectors)
        assert suggestion.color == "yellow" and "规则写明" in suggestion.why
    assert suggest_card(flag(0), []).color == "blue"  # without the ruleset's word: a first offence


def test_the_detector_kinds_a_ruleset_may_name_are_the_flag_kinds() -> None:
    """`[[detectors]] kind` names what `tracker flags` finds: the format's list and the flags' list are one."""
    from typing import get_args

    from tracker.engine.ruleset import DETECTOR_KINDS
    from tracker.engine.ruleset_model import DetectorT
    from tracker.penalties.findings import FLAG_KINDS

    assert DETECTOR_KINDS == FLAG_KINDS == get_args(DetectorT.model_fields["kind"].annotation)
    assert all(load_ruleset(rid).detectors == () for rid in SEEDS)  # the seeds: every detector, as before

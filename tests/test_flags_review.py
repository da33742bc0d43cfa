"""Flag review: the dedup key, what a re-run may add, the director's two decisions, the card prefill."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

import pytest

from tracker.clock import SHANGHAI
from tracker.errors import GameRuleError, UnknownIdError
from tracker.penalties import ledger as L
from tracker.penalties.findings import Finding
from tracker.penalties.review import (
    Flag,
    check_dismiss,
    finding_key,
    flag_key,
    fresh_findings,
    short_clause,
    suggest_card,
)
from tracker.store.db import Store
from tracker.store.penalties import add_flags, decide_flag, known_flag_keys, list_flags

T = datetime(2025, 3, 1, 12, 0, tzinfo=SHANGHAI)


def finding(pid: int = 7, matched: str = "我发誓", kind: str = "keyword", category: str = "oath",
            clause: str = "贴脸（5）发誓或诅咒", html_hash: str = "a" * 64) -> Finding:
    return Finding(kind=kind, category=category, clause=clause, pid=pid, tid=4, floor=3, author="泡泡",  # type: ignore[arg-type]
                   posted_at=T, excerpt=f"……{matched}……", matched=matched, html_hash=html_hash, evidence="词表命中")


def flag(f: Finding, fid: int = 1, status: str = "open") -> Flag:
    return Flag(id=fid, key=finding_key(f), kind=f.kind, category=f.category, clause=f.clause, pid=f.pid, tid=f.tid,
                floor=f.floor, author=f.author, posted_at=f.posted_at, excerpt=f.excerpt, matched=f.matched,
                html_hash=f.html_hash, evidence=f.evidence, detected_at=T, status=status)  # type: ignore[arg-type]


def test_the_key_is_kind_category_pid_and_match_only() -> None:
    a = finding()
    assert finding_key(a) == flag_key("keyword", "oath", 7, "我发誓")
    # the evidence of a later version (another HTML hash, excerpt) is the same flag
    assert finding_key(replace(a, html_hash="b" * 64, excerpt="changed")) == finding_key(a)
    for other in (replace(a, pid=8), replace(a, matched="发誓"), replace(a, category="insult"),
                  replace(a, kind="spam")):
        assert finding_key(other) != finding_key(a)


def test_fresh_findings_drop_known_and_repeated_keys() -> None:
    a, b = finding(), finding(matched="卧槽", category="insult")
    assert fresh_findings([a, a, b], set()) == [a, b]
    assert fresh_findings([a, b], {finding_key(a)}) == [b]


def test_dismiss_rules() -> None:
    f = flag(finding())
    with pytest.raises(GameRuleError, match="理由"):
        check_dismiss(f, "  ")
    assert check_dismiss(f, " 引用 ") == "引用"
    with pytest.raises(GameRuleError, match="已处理"):
        check_dismiss(replace(f, status="dismissed"), "x")
    with pytest.raises(GameRuleError, match="已处理"):
        check_dismiss(replace(f, status="carded"), "x")


@pytest.mark.parametrize(("clause", "short"), [
    ("账号回帖（1）使用导演专用的红色字体", "6-(1)"), ("帐号及回帖（2）已出局", "6-(2)"), ("2、(3) 侮辱", "2-(3)"),
    ("贴脸（5）发誓或诅咒", "2-(5)"), ("违规判定 5（3）在未执行加速的讨论日未投票", "5-(3)"), ("5-(1)", "5-(1)"),
    ("判罚制度：红牌罚下进入挂机状态", "判罚制度：红牌罚下进入挂机状态"),
])
def test_short_clause(clause: str, short: str) -> None:
    assert short_clause(clause) == short


def test_suggestion_blue_first_then_yellow_for_a_repeat_of_the_clause() -> None:
    f = flag(finding())
    s = suggest_card(f, [])
    assert (s.player, s.color, s.clause, s.post, s.flag, s.evidence) == ("泡泡", "blue", "2-(5)", 7, 1, "a" * 64)
    assert "楼" not in s.reason and s.post == 7 and "首次" in s.why  # the place is the card's, named once
    entries = L.chain(L.issue([], player="泡泡", color="blue", clause="2-(5)", reason="x", issuer="导演A", at=T,
                              ladder=L.Ladder()), after=None)
    assert suggest_card(f, entries).color == "yellow"
    # a card under another clause, or for another player, is no repeat
    other = L.chain(L.issue([], player="包子", color="blue", clause="2-(5)", reason="x", issuer="导演A", at=T,
                            ladder=L.Ladder()), after=None)
    assert suggest_card(f, other).color == "blue"
    # a revoked card is no warning either
    revoked = entries + L.chain(L.revoke(entries, 1, reason="误判", issuer="导演A", at=T, ladder=L.Ladder()),
                                after=entries[-1])
    assert suggest_card(f, revoked).color == "blue"


def test_clauses_that_start_higher() -> None:
    yellow = flag(finding(clause="贴脸（7）以违背阵营转变后利益的假设性发誓、威胁或诅咒句式，加重判罚，黄牌起步"))
    assert suggest_card(yellow, []).color == "yellow"
    red = flag(finding(clause="马甲（1）场外与他人通马甲的红牌罚下"))
    assert suggest_card(red, []).color == "red"
    benched = flag(finding(kind="posted_while_benched", clause="判罚制度：红牌罚下进入挂机状态，不可发言、投票、行动"))
    assert suggest_card(benched, []).color == "blue"


def test_store_keeps_first_evidence_and_refuses_a_second_decision(store: Store) -> None:
    a = finding()
    with store.session() as s:
        (stored,) = add_flags([a], html_by_pid={7: "<p>我发誓</p>"}, detected_at=T, session=s)
    edited = replace(a, html_hash="b" * 64, excerpt="改过")
    new_match = finding(matched="卧槽", category="insult", html_hash="b" * 64)
    with store.session() as s:
        fresh = fresh_findings([edited, new_match], known_flag_keys(session=s))
        assert fresh == [new_match]
        add_flags(fresh, html_by_pid={7: "<p>我发誓 卧槽</p>"}, detected_at=T, session=s)
    with store.session() as s:
        first, second = sorted(list_flags(session=s), key=lambda f: f.id)
    assert (first.html, first.html_hash, first.excerpt) == ("<p>我发誓</p>", "a" * 64, a.excerpt)
    assert (second.html, second.html_hash) == ("<p>我发誓 卧槽</p>", "b" * 64)
    with store.session() as s:
        d = decide_flag(stored.id, status="dismissed", by="导演A", at=T, reason="引用", session=s)
    assert d.status == "dismissed" and d.decided_at == T
    with pytest.raises(GameRuleError), store.session() as s:
        decide_flag(stored.id, status="carded", by="导演A", at=T, reason="x", card=3, session=s)
    with pytest.raises(UnknownIdError, match="没有编号"), store.session() as s:  # a wrong number: exit 2
        decide_flag(999, status="dismissed", by="导演A", at=T, reason="x", session=s)

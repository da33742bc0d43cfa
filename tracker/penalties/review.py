"""Flag review: what a finding becomes once stored, and the director's two ways to close it.

A flag is ``open`` until the director either dismisses it (with a reason) or turns it into a card
(``carded``); nothing is decided automatically ("suggest, then let the director confirm"). A flag's
identity is its dedup key — kind, category, pid and the matched text — so re-running detection
never duplicates one, and an edited post keeps the evidence captured at first detection: a later
version can only add flags with new keys, never rewrite an old one.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Literal

from tracker.errors import GameRuleError
from tracker.jsonvalue import Doc
from tracker.penalties.ledger import COLOR_WORDS, Color, Entry, replay

if TYPE_CHECKING:
    from tracker.engine.ruleset import DetectorRule
    from tracker.penalties.findings import Finding

FlagStatus = Literal["open", "dismissed", "carded"]
FLAG_STATUSES: tuple[FlagStatus, ...] = ("open", "dismissed", "carded")
STATUS_WORDS: dict[str, str] = {"open": "待审", "dismissed": "已驳回", "carded": "已判罚"}

KIND_WORDS: dict[str, str] = {
    "red_text": "使用导演专用的红色字体",
    "large_font": "使用导演专用的放大字体",
    "keyword": "违规发言",
    "posted_while_out": "出局后发言（诈尸）",
    "posted_while_benched": "挂机期间发言",
    "chat_log_evidence": "贴证（贴出带格式的聊天记录）",
    "kidnapped_speech": "绑架状态下主动发言",
    "spam": "大量无意义水帖",
}


def flag_key(kind: str, category: str, pid: int, matched: str) -> str:
    """The stable identity of a flag across re-runs (hex SHA-256 of the four parts)."""
    raw = json.dumps([kind, category, pid, matched], ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()


def finding_key(f: Finding) -> str:
    return flag_key(f.kind, f.category, f.pid, f.matched)


@dataclass(frozen=True, slots=True)
class Flag:
    """A stored finding and where its review stands."""

    id: int
    key: str
    kind: str
    category: str
    clause: str
    pid: int
    tid: int
    floor: int
    author: str
    posted_at: datetime
    excerpt: str
    matched: str
    html_hash: str
    evidence: str
    detected_at: datetime
    status: FlagStatus = "open"
    html: str | None = None
    """The post's HTML when the flag was first detected (the hash above is of this)."""
    related_pids: tuple[int, ...] = ()
    decided_by: str | None = None
    decided_at: datetime | None = None
    decision_reason: str | None = None
    card: int | None = None
    """The ledger entry the flag became (status ``carded``)."""

    def as_json(self) -> Doc:
        """The CLI contract's flag object (docs/cli.md: ``tracker flags``), plus the review details."""
        return {
            "id": self.id, "pid": self.pid, "floor": self.floor, "tid": self.tid, "author": self.author,
            "kind": self.kind, "category": self.category, "clause": self.clause, "excerpt": self.excerpt,
            "status": self.status, "matched": self.matched, "evidence": self.evidence,
            "html_hash": self.html_hash, "posted_at": self.posted_at.isoformat(),
            "detected_at": self.detected_at.isoformat(), "decided_by": self.decided_by,
            "decided_at": self.decided_at.isoformat() if self.decided_at else None,
            "decision_reason": self.decision_reason, "card": self.card,
        }


def fresh_findings(findings: Iterable[Finding], known: set[str]) -> list[Finding]:
    """The findings whose key is not stored yet, each key once (the first finding of a key wins)."""
    seen = set(known)
    out: list[Finding] = []
    for f in findings:
        k = finding_key(f)
        if k not in seen:
            seen.add(k)
            out.append(f)
    return out


def _must_be_open(flag: Flag) -> None:
    if flag.status != "open":
        how = STATUS_WORDS.get(flag.status, flag.status)
        by = f"（{flag.decided_by}，{flag.decision_reason}）" if flag.decided_by else ""
        raise GameRuleError(f"违规记录 {flag.id} 已处理：{how}{by}", hint="只有待审的违规记录可以驳回或判罚")


def check_dismiss(flag: Flag, reason: str) -> str:
    """The reason to record, or a GameRuleError: only an open flag, and never without a reason."""
    _must_be_open(flag)
    why = reason.strip()
    if not why:
        raise GameRuleError("驳回违规记录必须写明理由", hint='例如：--reason "引用他人原话，非本人违规"')
    return why


def check_card(flag: Flag) -> None:
    _must_be_open(flag)


_CLAUSE = re.compile(r"(\d+)\s*[-－、.．]?\s*[（(]\s*(\d+)\s*[)）]")
# The 判罚依据 sections are numbered alike in all five rule posts (1、发言 … 7、作弊 8、其他).
SECTIONS = {"发言": 1, "贴脸": 2, "导演": 3, "马甲": 4, "潜水": 5, "账号": 6, "帐号": 6, "作弊": 7, "其他": 8}
_NAMED = re.compile(r"(发言|贴脸|导演|马甲|潜水|账号|帐号|作弊|其他)[^（(，。：:]{0,4}[（(]\s*(\d+)\s*[)）]")


def short_clause(clause: str) -> str:
    """``"2-(3)"`` from a clause however it is written (``2、(3) 侮辱性词汇…``, ``2-（3）``,
    ``账号回帖（1）…``); the clause as is when it names no section and item."""
    m = _CLAUSE.search(clause)
    if m:
        return f"{m.group(1)}-({m.group(2)})"
    n = _NAMED.search(clause)
    if n:
        return f"{SECTIONS[n.group(1)]}-({n.group(2)})"
    return clause.strip()


_RED_OUTRIGHT = re.compile(r"的红牌罚下")          # M19 4-(1) 场外与他人通马甲的红牌罚下
_YELLOW_START = re.compile(r"黄牌起步|固定判罚一张")  # 107/M160 2-(7); 潜水 5


@dataclass(frozen=True, slots=True)
class CardSuggestion:
    """What the TUI's ``c`` key prefills; the director may change any of it before issuing."""

    player: str
    color: Color
    clause: str
    reason: str
    post: int
    flag: int
    evidence: str
    why: str
    """Why this colour (in Chinese), shown next to the choice."""
    count: int = 1
    """How many such cards: 2 where the clause doubles it for a reported player (213 "被举报者会加倍判罚")."""
    written: bool = True
    """False where the ruleset says the post names no card (``card = "none"``): ``color`` is only a
    prefill, and a card needs the director's own colour."""


_DOUBLED_IF_REPORTED = re.compile(r"被举报者(?:会)?加倍")  # 213 作弊(1) 注："被举报者会加倍判罚"


def suggest_card(flag: Flag, ledger: Sequence[Entry], *, reported: bool = False,
                 rules: Sequence[DetectorRule] = ()) -> CardSuggestion:
    """Prefill a card from a flag.

    The rule posts: 蓝牌 is for a first offence from not knowing the rule; 黄牌 for a serious one or
    a light one repeated after a warning; some clauses start at yellow (黄牌起步) or are red
    outright (红牌罚下). So: the clause's own words first, then blue for this player's first card
    under the clause, yellow for a repeat.
    """
    clause = short_clause(flag.clause)
    color: Color
    rule = next((d for d in rules if d.covers(flag.kind, flag.category) and d.card is not None), None)
    if rule is not None and rule.card == "none":
        # the post forbids it but names no card (werewolf-12 三、2 "死者（遗言除外）、旁观者不得发言")
        return CardSuggestion(player=flag.author, color="blue", clause=clause,
                              reason=f"{KIND_WORDS.get(flag.kind, flag.kind)}：{flag.excerpt}", post=flag.pid,
                              flag=flag.id, evidence=flag.html_hash,
                              why=f"规则帖没写此条的牌（{rule.clause}）：只标记，牌色由导演定", written=False)
    if rule is not None and rule.card is not None and rule.card != "none":
        # the ruleset names the card (werewolf-12 三、5 "每发现一帖使用红字，该玩家得 1 张黄牌")
        color, why = rule.card, f"规则写明：{rule.clause}"
    elif _RED_OUTRIGHT.search(flag.clause):
        color, why = "red", "条款规定红牌罚下"
    elif _YELLOW_START.search(flag.clause):
        color, why = "yellow", "条款规定黄牌起步"
    else:
        st = replay(ledger)
        repeats = [c for c in st.cards.values()
                   if c.player == flag.author and c.entry.action != "convert" and c.revoked_by is None
                   and c.reverted_by is None and c.amended_by is None and c.entry.clause == clause]
        if repeats:
            color, why = "yellow", f"同一条款已有 {len(repeats)} 张牌，提醒后再犯"
        else:
            color, why = "blue", "该玩家此条款首次违规"
    count = 1
    if _DOUBLED_IF_REPORTED.search(flag.clause):
        if reported:
            count, why = 2, f"{why}；他人举报，被举报者加倍判罚（两张）"
        else:
            why = f"{why}（若为他人举报，被举报者加倍判罚）"
    what = KIND_WORDS.get(flag.kind, flag.kind)
    reason = f"{what}：{flag.excerpt}"  # 帖 and 楼 are the card's place, named once beside it
    return CardSuggestion(player=flag.author, color=color, clause=clause, reason=reason, post=flag.pid,
                          flag=flag.id, evidence=flag.html_hash, why=f"建议{COLOR_WORDS[color]}：{why}", count=count)

"""Days: how long a discussion day lasts, acceleration (加速) and delay (延时), and turning a day's
confirmed vote into events.

All pure: post records and the folded state in, values out. The director still decides: the
request count and the vote confirmation produce drafts and explanations that the service records
only when the director confirms.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any, Literal

from tracker.engine.events import EventDraft, EventKind
from tracker.engine.ruleset import DayRules, Ruleset
from tracker.engine.state import GameState
from tracker.records import Post

ABSTAIN = "弃权"
WEEKEND = (5, 6)  # Saturday, Sunday


def planned_close(opens: datetime, rules: DayRules, *, first_day: bool = False) -> datetime:
    """When a day opened at ``opens`` closes by the rule post.

    "一般讨论日持续两天，每逢周末时讨论日延长一天" (M19: "A日上午开帖，到A+1日晚上关帖……例外的，
    第一天讨论日不因周末而延长"). A day is "over a weekend" when any calendar day it spans is a
    Saturday or Sunday.
    """
    hh, mm = (int(x) for x in rules.close_time.split(":"))
    last: date = opens.date() + timedelta(days=max(rules.length_days, 1) - 1)
    spans = [opens.date() + timedelta(days=i) for i in range((last - opens.date()).days + 1)]
    extend = rules.weekend_extension if any(d.weekday() in WEEKEND for d in spans) else 0
    if first_day and not rules.first_day_extended:
        extend = 0
    close_day = last + timedelta(days=extend)
    return datetime.combine(close_day, time(hh, mm), tzinfo=opens.tzinfo)


def needed(living: int, threshold: str) -> int:
    """How many requests make it: 大于等于存活人数的一半 (half_living), 超过二分之一 (more_than_half)."""
    if threshold == "more_than_half_living":
        return living // 2 + 1
    return math.ceil(living / 2)


def auto_accelerate(rules: DayRules, living: int) -> bool:
    """213: "未出局角色≤16人时，导演将自动执行加速"."""
    return rules.auto_accelerate_at_living is not None and living <= rules.auto_accelerate_at_living


RequestKind = Literal["accelerate", "delay"]
_REQ = re.compile(r"申请\s*(加速|延时|延迟|延期)")
_NEG = re.compile(r"(不|别|没|勿|莫|无需|无须|反对|拒绝|不要|不用)\s*(想|要|会|打算|准备|必|用)?\s*$")


def find_request(text: str) -> RequestKind | None:
    """The request a post makes, if any: the last unnegated 申请加速 / 申请延时 in it.

    "不申请加速" and "别申请延时" are not requests; only the post's own text counts, never quotes.
    """
    found: RequestKind | None = None
    for m in _REQ.finditer(text):
        if _NEG.search(text[max(0, m.start() - 6):m.start()]):
            continue
        found = "accelerate" if m.group(1) == "加速" else "delay"
    return found


@dataclass(frozen=True, slots=True)
class RequestEvidence:
    player: str
    pid: int
    floor: int
    kind: RequestKind
    posted_at: datetime


@dataclass(frozen=True, slots=True)
class RequestCount:
    """The 申请加速 / 申请延时 count of one day: who, which post, against how many living."""

    day: int | None
    cutoff: datetime
    living: int
    needed: int
    accelerate: tuple[RequestEvidence, ...]
    delay: tuple[RequestEvidence, ...]
    ignored: tuple[tuple[int, str], ...] = field(default_factory=tuple)   # (pid, why) – never silently dropped

    @property
    def accelerate_ok(self) -> bool:
        return len(self.accelerate) >= self.needed

    @property
    def delay_ok(self) -> bool:
        return len(self.delay) >= self.needed

    def to_json(self) -> dict[str, Any]:
        def ev(xs: Sequence[RequestEvidence]) -> list[dict[str, Any]]:
            return [{"player": x.player, "pid": x.pid, "floor": x.floor, "posted_at": x.posted_at.isoformat()}
                    for x in xs]
        return {"day": self.day, "cutoff": self.cutoff.isoformat(), "living": self.living, "needed": self.needed,
                "accelerate": ev(self.accelerate), "delay": ev(self.delay), "accelerate_ok": self.accelerate_ok,
                "delay_ok": self.delay_ok, "ignored": [{"pid": p, "reason": r} for p, r in self.ignored]}


def count_requests(posts: Sequence[Post], *, living: Collection[str], rules: DayRules, closes: datetime,
                   opens: datetime | None = None, day: int | None = None) -> RequestCount:
    """Count requests in the process thread by living players before close − cutoff.

    "未出局角色可在进程帖中申请加速或延时。当日申请人数在讨论日结束三个小时前……大于等于存活人数的一半".
    One voice per player: their latest request before the cutoff counts (a player who asked for
    acceleration and then for a delay is counted once, for the delay).
    """
    cutoff = closes - timedelta(hours=rules.request_cutoff_hours or 0)
    latest: dict[str, RequestEvidence] = {}
    ignored: list[tuple[int, str]] = []
    alive = set(living)
    for post in sorted(posts, key=lambda p: (p.posted_at, p.floor)):
        kind = find_request(post.text)
        if kind is None:
            continue
        if kind not in rules.requests:
            ignored.append((post.pid, f"request_not_allowed: 本规则没有{'延时' if kind == 'delay' else '加速'}申请"))
            continue
        if opens is not None and post.posted_at < opens:
            ignored.append((post.pid, "before_open: 早于本讨论日开门"))
            continue
        if post.posted_at >= cutoff:
            ignored.append((post.pid, f"after_cutoff: 晚于截止时刻 {cutoff:%m-%d %H:%M}"))
            continue
        if post.author not in alive:
            ignored.append((post.pid, f"not_living: {post.author} 不是存活玩家"))
            continue
        latest[post.author] = RequestEvidence(post.author, post.pid, post.floor, kind, post.posted_at)
    acc = tuple(x for x in latest.values() if x.kind == "accelerate")
    dly = tuple(x for x in latest.values() if x.kind == "delay")
    return RequestCount(day=day, cutoff=cutoff, living=len(alive), needed=needed(len(alive), rules.request_threshold),
                        accelerate=acc, delay=dly, ignored=tuple(ignored))


# ---------------------------------------------------------------------------------------------
# A day's vote → events, when the director confirms it.

@dataclass(frozen=True, slots=True)
class VoteResult:
    """What the tally says for one vote: totals by target and who reached the top first.

    ``purpose`` is "exile" or a day-1 election purpose (sheriff, patriarch, god_chosen). ``voters``
    are the players whose vote counted (M160: a dead player who voted has used the last vote).
    """

    day: int
    purpose: str
    totals: Mapping[str, float]
    first_to_top: str | None = None
    voters: Sequence[str] = ()


@dataclass(frozen=True, slots=True)
class Confirmation:
    drafts: tuple[EventDraft, ...]
    explanation: str
    clause: str
    chosen: str | None = None


def confirm_vote(ruleset: Ruleset, state: GameState, result: VoteResult, *, at: datetime,
                 recorded_by: str) -> Confirmation:
    """The events a confirmed vote produces, with the clause that decides it."""
    v = ruleset.voting
    totals = {t: w for t, w in result.totals.items() if t and t != ABSTAIN and w > 0}
    election = next((e for e in v.day1 if e.purpose == result.purpose), None) if result.day == 1 else None
    if result.purpose != "exile" and election is None:
        election = next((e for e in v.day1 if e.purpose == result.purpose), None)
    drafts: list[EventDraft] = []
    dead_voters = [n for n in result.voters if n in state.players and state.players[n].life == "dead"]
    if v.dead_last_vote:
        drafts += [EventDraft(at=at, kind=EventKind.LAST_VOTE_USED, player=n,
                              data={"day": result.day}, recorded_by=recorded_by) for n in dead_voters]
    if not totals:
        return Confirmation(tuple(drafts), "无有效得票，无人出局" if result.purpose == "exile" else "无有效得票，无人当选",
                            "投票规则")
    top = max(totals.values())
    leaders = [t for t, w in totals.items() if w == top]
    tie = election.tie if election is not None else v.tie
    clause = election.clause if election is not None and election.clause else "用语定义·投票"
    chosen: str | None
    if len(leaders) == 1:
        chosen = leaders[0]
    elif tie == "first_to_top" and result.first_to_top in leaders:
        chosen = result.first_to_top
    else:
        word = "无人出局" if result.purpose == "exile" else "无人当选"
        return Confirmation(tuple(drafts), f"平票（{'、'.join(leaders)} 各 {top:g} 票），{word}", clause)
    if result.purpose != "exile":
        tag = election.tag if election is not None else None
        if tag is None:
            return Confirmation(tuple(drafts), f"{chosen} 得票最高，但规则未说明此选举授予什么", clause, chosen)
        drafts.append(EventDraft(at=at, kind=EventKind.TAG_GIVEN, player=chosen,
                                 data={"tag": tag, "cause": "election", "day": None, "votes": top},
                                 recorded_by=recorded_by))
        return Confirmation(tuple(drafts), f"{chosen} 以 {top:g} 票当选{tag}", clause, chosen)
    if election is not None and election.nobody_out_if_top and chosen in state.players \
            and state.players[chosen].role == election.nobody_out_if_top:
        return Confirmation(tuple(drafts), f"{chosen} 得票最高，但{election.nobody_out_if_top}首日得票最高时当日无人出局",
                            election.clause, chosen)
    if v.threshold == "half_living":
        living = len(state.living())
        if top * 2 < living:
            return Confirmation(tuple(drafts), f"{chosen} 得票最高（{top:g} 票），未达存活人数（{living}）的一半，无人死亡",
                                "用语定义·投票", chosen)
    kind = EventKind.DIED if v.dead_last_vote else EventKind.ELIMINATED
    drafts.append(EventDraft(at=at, kind=kind, player=chosen, data={"cause": "vote", "day": result.day, "votes": top},
                             recorded_by=recorded_by))
    word = "死亡（仍保留最后一票）" if v.dead_last_vote else "被投票出局"
    return Confirmation(tuple(drafts), f"{chosen} 以 {top:g} 票{word}", clause, chosen)

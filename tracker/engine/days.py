"""Days: how long a discussion day lasts, acceleration (加速) and delay (延时), and turning a day's
confirmed vote into events.

All pure: post records and the folded state in, values out. The director still decides: the
request count and the vote confirmation produce drafts and explanations that the service records
only when the director confirms.

Who decides what:

* A vote's result is decided once, by the tally (:func:`tracker.engine.tally.decide`);
  :func:`confirm_vote` only turns that :class:`~tracker.engine.tally.VoteOutcome` into events.
* A day's times and acceleration are decided once, by :func:`day_status`; the tally's window, the
  潜水 count and the watcher's schedule all read it.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any, Literal

from tracker.config import DayConfig
from tracker.engine.events import EventDraft, EventKind
from tracker.engine.ruleset import DayRules, Election, Ruleset
from tracker.engine.state import DayState, GameState
from tracker.engine.tally import (
    Tally,
    VoteOutcome,
    VoteWindow,
    election_window,
)
from tracker.errors import GameRuleError
from tracker.records import Post

WEEKEND = (5, 6)  # Saturday, Sunday


def day_now(days: Sequence[DayConfig], now: datetime) -> DayConfig | None:
    """Which day it is now, the one answer the reports, the TUI's header and badges share: the day
    open now (the latest, if two overlap), else the last that has opened (its results still to
    settle); None before the first opens. ``days`` in order, with the times in force."""
    opened = [d for d in days if d.opens <= now]
    live = [d for d in opened if now <= d.closes]
    return (live or opened)[-1] if opened else None


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
            return [{"player": x.player, "pid": x.pid, "floor": x.floor,
                     "posted_at": x.posted_at.astimezone(self.cutoff.tzinfo).isoformat()} for x in xs]
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
# A day's times and acceleration: the one answer the tally, the 潜水 count and the watcher share.

SuggestionKind = Literal["accelerate", "delay"]


@dataclass(frozen=True, slots=True)
class Suggestion:
    """Something the director may record (a passed 申请加速 / 申请延时), with the command that does it."""

    kind: SuggestionKind
    cause: str
    message: str
    command: str

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "cause": self.cause, "message": self.message, "command": self.command}


@dataclass(frozen=True, slots=True)
class DayStatus:
    """One discussion day as it stands: effective times, acceleration in force, the request count.

    ``closes`` is the effective close (the game file's, moved by ``day_extended`` and ``delayed``
    events); ``planned_closes`` the game file's. ``accelerated`` is what is *in force*: the game
    file, the ruleset's first-day rule (M160), the director's ``accelerated`` events, and the
    ruleset's automatic count (213's ≤16 未出局) — a ``delayed`` event lifts all of them
    ("延时成功时，不再视为执行加速状态"). A passed request is never in force by itself: it is a
    :class:`Suggestion` until the director records it.
    """

    day: int
    opens: datetime
    closes: datetime
    planned_closes: datetime
    freeze_starts: datetime | None
    accelerated: bool
    accelerated_at: datetime | None
    accelerated_cause: str | None
    delayed: bool
    closed: bool
    not_out_at_open: int
    living_at_open: int
    auto_accelerate: bool
    requests: RequestCount | None = None
    suggestions: tuple[Suggestion, ...] = ()

    @property
    def extended(self) -> bool:
        return self.closes != self.planned_closes

    def window(self, election: Election | None = None) -> VoteWindow:
        """The tally's window for one vote thread of this day (``election``: a day-1 Election or None)."""
        purpose, office = election_window(election)
        return VoteWindow(day=self.day, opens=self.opens, closes=self.closes, accelerated=self.accelerated,
                         accelerated_at=self.accelerated_at, purpose=purpose, office=office)

    def to_json(self) -> dict[str, Any]:
        """The keys of :meth:`DayState.to_json` (same meaning, effective values) plus the day rules."""
        def iso(x: datetime | None) -> str | None:
            return x.isoformat() if x is not None else None
        return {"day": self.day, "opens": iso(self.opens), "closes": iso(self.closes),
                "accelerated": self.accelerated, "accelerated_cause": self.accelerated_cause,
                "delayed": self.delayed, "closed": self.closed,
                "planned_closes": iso(self.planned_closes), "extended": self.extended,
                "accelerated_at": iso(self.accelerated_at), "freeze_starts": iso(self.freeze_starts),
                "not_out_at_open": self.not_out_at_open, "living_at_open": self.living_at_open,
                "auto_accelerate": self.auto_accelerate,
                "requests": self.requests.to_json() if self.requests is not None else None,
                "suggestions": [x.to_json() for x in self.suggestions]}


def day_status(ruleset: Ruleset, config: DayConfig, recorded: DayState | None, *, at_open: GameState,
               process_posts: Sequence[Post] | None = None, game_ref: str = "GAME.toml") -> DayStatus:
    """The day as the rules and the director's records make it.

    ``recorded`` is the day in the fold of *all* events (``day_extended``, ``accelerated``,
    ``delayed`` … name their day, whenever recorded); ``at_open`` the fold of the events before the
    day opened (who is alive and not out that morning). ``process_posts`` are the 进程帖's posts
    (None: no request count).

    What is automatic and what is a suggestion, from the rule posts:

    * 213 "未出局角色≤16人时，导演将自动执行加速" names its number and calls it automatic, so a day
      opening with ≤16 players not out is accelerated without a record (cause ``auto``), from the
      opening. 107, M65 and M160 only say "减少到一定程度时" — no number, nothing automatic.
    * M160 "首日讨论日自动执行加速": day 1 is accelerated by the ruleset (the fold applies it).
    * A request count that passes ("即判定加速或延时成功") is a suggestion: the count rests on reading
      free-form replies, and the director announces the result in the 进程帖 anyway. It becomes
      real when recorded (``tracker event GAME.toml accelerated --day N --cause request`` or
      ``delayed --day N``).
    * A recorded ``delayed`` lifts any acceleration, the automatic one included; ``delayed`` with
      ``--data days=0`` lifts it without moving the close.
    """
    rules = ruleset.days
    opens = recorded.opens if recorded is not None and recorded.opens is not None else config.opens
    closes = recorded.closes if recorded is not None and recorded.closes is not None else config.closes
    before_delay = (recorded.closes_before_delay if recorded is not None and recorded.closes_before_delay
                    else closes)
    accelerated = bool(recorded and recorded.accelerated)
    accelerated_at = recorded.accelerated_at if recorded is not None and accelerated else None
    cause = recorded.accelerated_cause if recorded is not None and accelerated else None
    delayed = bool(recorded and recorded.delayed)
    not_out = len(at_open.not_out())
    living = at_open.living()
    auto = auto_accelerate(rules, not_out)
    if auto and not accelerated and not delayed:
        accelerated, accelerated_at, cause = True, None, "auto"
    freeze = ruleset.voting.freeze_minutes
    count: RequestCount | None = None
    suggestions: list[Suggestion] = []
    if process_posts is not None:
        count = count_requests(process_posts, living=living, rules=rules, closes=before_delay, opens=opens,
                               day=config.day)
        n, need = config.day, count.needed
        if count.accelerate_ok and not accelerated:
            suggestions.append(Suggestion(
                "accelerate", "request",
                f"第{n}日申请加速 {len(count.accelerate)} 人，达到 {need} 人（存活 {count.living} 人），导演确认后记录加速",
                f"tracker event {game_ref} accelerated --day {n} --cause request"))
        if count.delay_ok and not delayed:
            suggestions.append(Suggestion(
                "delay", "request",
                f"第{n}日申请延时 {len(count.delay)} 人，达到 {need} 人（存活 {count.living} 人），导演确认后记录延时",
                f"tracker event {game_ref} delayed --day {n}"))
    return DayStatus(
        day=config.day, opens=opens, closes=closes, planned_closes=config.closes,
        freeze_starts=closes - timedelta(minutes=freeze) if freeze else None,
        accelerated=accelerated, accelerated_at=accelerated_at, accelerated_cause=cause, delayed=delayed,
        closed=bool(recorded and recorded.closed), not_out_at_open=not_out, living_at_open=len(living),
        auto_accelerate=auto, requests=count, suggestions=tuple(suggestions))


# ---------------------------------------------------------------------------------------------
# A day's vote → events, when the director confirms it.

@dataclass(frozen=True, slots=True)
class VoteResult:
    """One vote's result as the tally decided it, with what its consequences need.

    ``outcome`` is the tally's :class:`~tracker.engine.tally.VoteOutcome`, the only decision of the
    vote. ``purpose`` is "exile" or a day-1 election's purpose (sheriff, patriarch, god_chosen);
    ``last_votes_used`` are the dead-not-out players whose last ballot counted (M160: "在使用此票后
    该玩家【出局】").
    """

    day: int
    purpose: str
    outcome: VoteOutcome
    last_votes_used: Sequence[str] = ()

    @classmethod
    def of(cls, tally: Tally, purpose: str) -> VoteResult:
        return cls(day=tally.day, purpose=purpose, outcome=tally.outcome, last_votes_used=tally.last_votes_used)


@dataclass(frozen=True, slots=True)
class Confirmation:
    drafts: tuple[EventDraft, ...]
    explanation: str
    clause: str
    chosen: str | None = None


def _election(ruleset: Ruleset, day: int, purpose: str) -> Election | None:
    """The day-1 vote a purpose names (an election on any day, an exile only on day 1), or None."""
    if purpose == "exile" and day != 1:
        return None
    return next((e for e in ruleset.voting.day1 if e.purpose == purpose), None)


def confirm_vote(ruleset: Ruleset, state: GameState, result: VoteResult, *, at: datetime,
                 recorded_by: str) -> Confirmation:
    """The events a vote's decided outcome produces, with the clause behind it. Decides nothing.

    elected → the office's tag; exiled → 出局 (or M160's 【死亡】, the last vote kept); nobody →
    nothing. Dead players whose last vote counted are 出局 (``last_vote_used``) whatever the outcome.
    """
    v = ruleset.voting
    o = result.outcome
    election = _election(ruleset, result.day, result.purpose)
    clause = election.clause if election is not None and election.clause else "用语定义·投票"
    drafts: list[EventDraft] = []
    if v.dead_last_vote:
        drafts += [EventDraft(at=at, kind=EventKind.LAST_VOTE_USED, player=n, data={"day": result.day},
                              recorded_by=recorded_by)
                   for n in result.last_votes_used if n in state.players and state.players[n].life == "dead"]
    if o.kind == "nobody":
        named = o.player or (o.tied[0] if len(o.tied) == 1 else None)
        return Confirmation(tuple(drafts), o.message, clause, named)
    chosen = o.player
    if chosen is None or chosen not in state.players:
        raise GameRuleError(f"计票结果指向的玩家 {chosen!r} 不在名单中", hint="检查游戏文件的 [[players]]")
    if (o.kind == "elected") != (result.purpose != "exile"):
        raise GameRuleError(f"计票结果（{o.kind}）与投票目的（{result.purpose}）不符",
                            hint="放逐投票的结果是出局，第一日竞选的结果是当选")
    if o.kind == "elected":
        tag = o.office or (election.tag if election is not None else None)
        if tag is None:
            return Confirmation(tuple(drafts), f"{chosen} 得票最高，但规则未说明此选举授予什么", clause, chosen)
        drafts.append(EventDraft(at=at, kind=EventKind.TAG_GIVEN, player=chosen,
                                 data={"tag": tag, "cause": "election", "day": None, "votes": o.top},
                                 recorded_by=recorded_by))
        return Confirmation(tuple(drafts), o.message, clause, chosen)
    kind = EventKind.DIED if v.dead_last_vote else EventKind.ELIMINATED
    drafts.append(EventDraft(at=at, kind=kind, player=chosen, data={"cause": "vote", "day": result.day, "votes": o.top},
                             recorded_by=recorded_by))
    return Confirmation(tuple(drafts), o.message, clause, chosen)

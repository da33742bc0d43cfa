"""潜水: posts and votes per living player per day, and the yellow cards they earn.

All five rule posts: fewer than ``min_posts`` (5) posts on a non-accelerated discussion day;
fewer than ``three_day_min`` (10) on each of ``three_day_span`` (3) consecutive non-accelerated
discussion days. 213, M19, M65: no vote on a non-accelerated day. M160: dead-but-not-out players
auto-abstain unpunished. M19: a kidnapped player is not punished for fewer than 5 posts that day.
Acceleration (加速) suspends every one of these.

Only the day's discussion thread counts, only between the day's open and close, and only a
player's own posts: directors, spectators and anyone out are not counted, so vote-thread posts and
a dead player's 遗言 (:mod:`tracker.penalties.last_words`: posts made after the exit) never count
(werewolf-12 "投票帖不算，遗言帖不算"). Blocked (屏蔽) posts
still count as posts — the player did post; the director hid the content. Deleted posts are not in
the input at all. Where the ruleset lists ``content_free_words`` (werewolf-12 "纯表情/纯标点/“顶”
“路过”之类无实质内容的帖不算"), a post saying nothing else is not counted (:func:`content_free`).

A rule is on only when the ruleset writes its key: no ``min_posts``, no 发言不足; no
``three_day_min``, no three-day rule (a default once switched on a rule werewolf-12 does not have).

Reading choices (shown in the clause text, changeable by the caller):
- the three-day rule counts consecutive *non-accelerated* days: an accelerated day is skipped,
  neither breaking nor extending a run ("连续三个未执行加速的讨论日"); a day a player was kidnapped
  or not playing is skipped the same way for them;
- a run, once carded, starts over, so days 1–3 earn one card and days 4–6 the next, not 2–4 again.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal, Protocol

from tracker.engine.normalize import normalize
from tracker.engine.ruleset import LurkRules
from tracker.jsonvalue import Doc
from tracker.penalties.presence import Presence  # one vocabulary with the 诈尸 checks

LurkRule = Literal["min_posts", "three_day_min", "no_vote"]


class Stamped(Protocol):
    """What counting needs of a post: where and when, and by whom."""

    @property
    def tid(self) -> int: ...
    @property
    def author(self) -> str: ...
    @property
    def posted_at(self) -> datetime: ...

#: The rule posts' words for each 潜水 rule, for everything the director reads.
RULE_WORDS: dict[str, str] = {"min_posts": "发言不足", "three_day_min": "连续三日发言不足", "no_vote": "未投票"}


@dataclass(frozen=True, slots=True)
class LurkWindow:
    """One game day as the game file gives it."""

    day: int
    discussion_tid: int | None
    opens: datetime
    closes: datetime
    accelerated: bool = False
    has_vote: bool = True
    """False when the day has no vote thread (not yet configured): nobody can have failed to vote."""

    def contains(self, when: datetime) -> bool:
        return self.opens <= when <= self.closes


@dataclass(frozen=True, slots=True)
class PlayerDay:
    """A player's standing on the day: ``out``/``benched`` players are not judged at all."""

    name: str
    status: Presence = "alive"
    kidnapped: bool = False


@dataclass(frozen=True, slots=True)
class LurkPenalty:
    player: str
    rule: LurkRule
    clause: str
    card: str = "yellow"
    detail: str = ""

    @property
    def words(self) -> str:
        return RULE_WORDS.get(self.rule, self.rule)


@dataclass(frozen=True, slots=True)
class LurkReport:
    day: int
    accelerated: bool
    posts: dict[str, int]
    voted: dict[str, bool]
    invalid_only: list[str]
    penalties: list[LurkPenalty]
    # Per-player count of consecutive judged days under three_day_min, as of this day (for the next).
    streaks: dict[str, int] = field(default_factory=dict)
    exempt: dict[str, str] = field(default_factory=dict)  # player -> why a rule was not applied

    def to_json(self) -> Doc:
        """The `tracker lurkers --json` shape (docs/cli.md), plus invalid_only and exemptions."""
        return {
            "day": self.day,
            "accelerated": self.accelerated,
            "posts": dict(self.posts),
            "voted": dict(self.voted),
            "invalid_only": list(self.invalid_only),
            "penalties": [{"player": p.player, "rule": p.rule, "clause": p.clause, "card": p.card,
                           "detail": p.detail} for p in self.penalties],
            "exempt": dict(self.exempt),
        }


def _clause(rules: LurkRules, rule: LurkRule) -> str:
    if rule == "min_posts":
        return rules.clause_min_posts or f"潜水：在未执行加速的讨论日发言不足{rules.min_posts}帖"
    if rule == "three_day_min":
        return rules.clause_three_day or (
            f"潜水：连续{rules.three_day_span}个未执行加速的讨论日发言均不足{rules.three_day_min}帖")
    return rules.clause_no_vote or "潜水：在未执行加速的讨论日未投票"


#: The longest text a content-free post can have (the store fetches only posts this short to check).
CONTENT_FREE_MAX_CHARS = 64
_FILLER = re.compile(r"[\s~～]+")


def content_free(text: str, words: Collection[str], *, images: int = 0) -> bool:
    """Whether a post says nothing: empty (a smiley alone adds no text), only punctuation, symbols and
    emoji, or only ``words`` ("顶", "路过" …, any number of times, with punctuation between). A post
    with a picture says something; ``words`` empty means every post counts."""
    if not words or images:
        return False
    flat = _FILLER.sub("", normalize(text)).casefold()
    if len(flat) > CONTENT_FREE_MAX_CHARS:
        return False
    kept = "".join(ch for ch in flat if unicodedata.category(ch)[0] not in "PSZC")
    if not kept:
        return True
    alts = "|".join(re.escape(w.casefold()) for w in sorted(words, key=len, reverse=True))
    return re.fullmatch(f"(?:{alts})+", kept) is not None


def count_posts(posts: Iterable[Stamped], window: LurkWindow, players: Collection[str],
                content_free_words: Collection[str] = ()) -> dict[str, int]:
    """Posts per player in the day's discussion thread between open and close (a content-free post,
    where the ruleset lists its words, not counted; posts then need a ``text``)."""
    counts = dict.fromkeys(players, 0)
    if window.discussion_tid is None:
        return counts
    for p in posts:
        if p.tid == window.discussion_tid and p.author in counts and window.contains(p.posted_at):
            if content_free_words and content_free(str(getattr(p, "text", "")), content_free_words,
                                                   images=len(getattr(p, "images", ()) or ())):
                continue
            counts[p.author] += 1
    return counts


def lurk_report(
    *,
    window: LurkWindow,
    posts: Iterable[Stamped],
    players: Sequence[PlayerDay],
    rules: LurkRules,
    valid_voters: Collection[str] = (),
    invalid_voters: Collection[str] = (),
    previous_streaks: Mapping[str, int] | None = None,
    counts: Mapping[str, int] | None = None,
) -> LurkReport:
    """The day's counts and penalties.

    ``valid_voters``: players with a counted ballot (including an explicit 弃权 and a director's
    proxy vote); ``invalid_voters``: players who posted ballots that were all invalid — shown
    separately, still "no vote" for the penalty. ``previous_streaks`` is the previous day's
    ``LurkReport.streaks`` (see :func:`lurk_reports` for a whole game).
    """
    judged = [p for p in players if p.status in ("alive", "dead_not_out")]
    names = [p.name for p in judged]
    if counts is None:
        counts = count_posts(posts, window, names, rules.content_free_words)
    else:  # counted by the store: players with no post are 0, authors who are not judged are ignored
        counts = {n: int(counts.get(n, 0)) for n in names}
    valid = set(valid_voters)
    voted = {n: n in valid for n in names}
    tried = set(invalid_voters)
    invalid_only = [n for n in names if n not in valid and n in tried]
    suspended = window.accelerated and rules.accelerated_suspends
    streaks_in = dict(previous_streaks or {})
    streaks: dict[str, int] = {}
    penalties: list[LurkPenalty] = []
    exempt: dict[str, str] = {}
    no_thread = window.discussion_tid is None
    for p in judged:
        n = counts[p.name]
        streak = streaks_in.get(p.name, 0)
        if suspended:
            streaks[p.name] = streak
            exempt[p.name] = "加速日：发言不足与未投票不判罚"
            continue
        kidnap_exempt = p.kidnapped and rules.kidnapped_exempt_from_min_posts
        if no_thread:
            # no thread to post in (not configured yet): nobody lurked in it, and the three-day
            # run is neither broken nor extended
            streaks[p.name] = streak
            exempt[p.name] = "本日未配置讨论帖：不计发言"
        else:
            if rules.min_posts is not None and n < rules.min_posts:
                if kidnap_exempt:
                    exempt[p.name] = "被绑架：当天发言不满5贴不判罚"
                else:
                    penalties.append(LurkPenalty(p.name, "min_posts", _clause(rules, "min_posts"), rules.card,
                                                 f"{n} 帖"))
            if kidnap_exempt or rules.three_day_min is None:
                streaks[p.name] = streak
            elif n < rules.three_day_min:
                streak += 1
                if streak >= rules.three_day_span:
                    penalties.append(LurkPenalty(p.name, "three_day_min", _clause(rules, "three_day_min"),
                                                 rules.card, f"连续 {streak} 个讨论日不足 {rules.three_day_min} 帖"))
                    streak = 0
                streaks[p.name] = streak
            else:
                streaks[p.name] = 0
        if rules.no_vote_penalty and window.has_vote and not voted[p.name]:
            if p.status == "dead_not_out" and rules.dead_not_out_exempt_from_vote:
                exempt[p.name] = "死亡未出局：未投票视为弃权，不判罚"
            else:
                why = "投票均无效" if p.name in invalid_only else "未投票"
                penalties.append(LurkPenalty(p.name, "no_vote", _clause(rules, "no_vote"), rules.card, why))
    return LurkReport(day=window.day, accelerated=window.accelerated, posts=counts, voted=voted,
                      invalid_only=invalid_only, penalties=penalties, streaks=streaks, exempt=exempt)


@dataclass(frozen=True, slots=True)
class LurkDayInput:
    window: LurkWindow
    players: Sequence[PlayerDay]
    valid_voters: Collection[str] = ()
    invalid_voters: Collection[str] = ()
    counts: Mapping[str, int] | None = None
    """Posts per author in the day's discussion thread and window, when the store has counted them
    (an indexed GROUP BY); otherwise they are counted from ``posts``."""


def lurk_reports(days: Sequence[LurkDayInput], posts: Sequence[Stamped], rules: LurkRules) -> list[LurkReport]:
    """Every day in order, carrying the three-day streaks from one day to the next."""
    out: list[LurkReport] = []
    streaks: dict[str, int] = {}
    for d in sorted(days, key=lambda d: d.window.day):
        rep = lurk_report(window=d.window, posts=posts, players=d.players, rules=rules,
                          valid_voters=d.valid_voters, invalid_voters=d.invalid_voters,
                          previous_streaks=streaks, counts=d.counts)
        streaks = {**streaks, **rep.streaks}
        out.append(rep)
    return out

"""诈尸 and posting while benched, judged against the game state at the moment of the post.

账号回帖（2）: "已出局角色在讨论帖、投票帖、进程帖中发言（即“诈尸”）". A benched player (挂机, the
red-card consequence in 107 and M160) "may not post, vote or act". Both depend on when the status
took effect, so the input is the state's timeline of status changes, not a snapshot: a post made
before the death announcement is fine, one after it is not. Being dead but not out (M160) is not
being out.

A dead player's ballot in the vote thread is already reported by the tally as invalid ("voter is
dead"); by default it is not flagged a second time as 诈尸. ``include_vote_threads`` turns that on
for directors who card it as well.

A 遗言 the ruleset allows (werewolf-12 三、2 "死者（遗言除外）……不得发言") is not 诈尸: which posts are
遗言 is :mod:`tracker.penalties.last_words`, the one place that says so.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from tracker.engine.state import STATUS_WORDS
from tracker.penalties.findings import Finding, excerpt, make_finding
from tracker.records import Post

Presence = Literal["alive", "dead_not_out", "out", "benched"]

#: The engine's status (:data:`tracker.engine.state.Status`) in this module's and the 潜水 rules'
#: words: the engine says "dead" for M160's 【死亡】 not yet 【出局】, the rule posts' checks say
#: "dead_not_out". The one translation between the two, used wherever a fold feeds a detector.
FROM_ENGINE: dict[str, Presence] = {"alive": "alive", "dead": "dead_not_out", "out": "out", "benched": "benched"}
ThreadKind = Literal["discussion", "vote", "process", "other"]

OUT_CLAUSE = "账号回帖（2）已出局角色在讨论帖、投票帖、进程帖中发言（诈尸）"
BENCHED_CLAUSE = "判罚制度：红牌罚下进入挂机状态，不可发言、投票、行动"



@dataclass(frozen=True, slots=True)
class StatusChange:
    """From ``at`` on, ``player`` has ``status`` (until a later change).

    For an exit, ``exit`` / ``night`` / ``cause`` say how it happened, as the event log records it
    (:func:`tracker.penalties.last_words.exit_of`): whether it leaves 遗言 is the ruleset's
    ``[last_words]``."""

    player: str
    status: Presence
    at: datetime
    reason: str = ""
    exit: str | None = None
    night: int | None = None
    cause: str = ""


def by_player(timeline: Iterable[StatusChange]) -> dict[str, list[StatusChange]]:
    """Each player's changes in time order, sorted once: the checks ask :func:`in_force` once per
    post, and a per-post filter and sort of the whole timeline was quadratic in a long game."""
    out: dict[str, list[StatusChange]] = {}
    for ch in sorted(timeline, key=lambda c: c.at):
        out.setdefault(ch.player, []).append(ch)
    return out


def in_force(changes: Sequence[StatusChange], when: datetime) -> StatusChange | None:
    """The change in force at ``when`` among one player's time-ordered ``changes`` (``None``: alive
    since the start)."""
    i = bisect_right(changes, when, key=lambda c: c.at)
    return changes[i - 1] if i else None


def detect_presence(
    posts: Iterable[Post],
    timeline: Iterable[StatusChange],
    threads: Mapping[int, ThreadKind],
    *,
    include_vote_threads: bool = False,
    last_words: Collection[int] = (),
) -> list[Finding]:
    """``last_words``: the pids of posts that are a player's allowed 遗言
    (:func:`tracker.penalties.last_words.last_words_posts`), not 诈尸."""
    changes = by_player(timeline)
    kinds: set[str] = {"discussion", "process"} | ({"vote"} if include_vote_threads else set())
    found: list[Finding] = []
    for post in posts:
        if post.author not in changes or threads.get(post.tid) not in kinds or post.pid in last_words:
            continue
        ch = in_force(changes[post.author], post.posted_at)
        if ch is None or ch.status not in ("out", "benched"):
            continue
        why = f"（{ch.reason}）" if ch.reason else ""
        # both times in the zone of the status change (the game file's), not one of them in UTC
        posted = post.posted_at.astimezone(ch.at.tzinfo) if ch.at.tzinfo is not None else post.posted_at
        ev = f"{post.author} 自 {ch.at:%Y-%m-%d %H:%M} 起{STATUS_WORDS[ch.status]}{why}，此帖发于 {posted:%Y-%m-%d %H:%M:%S}"
        if ch.status == "out":
            found.append(make_finding(post, kind="posted_while_out", category="account", clause=OUT_CLAUSE,
                                      matched="出局后发言", evidence=ev, excerpt_text=excerpt(post.text)))
        else:
            found.append(make_finding(post, kind="posted_while_benched", category="account",
                                      clause=BENCHED_CLAUSE, matched="挂机中发言", evidence=ev,
                                      excerpt_text=excerpt(post.text)))
    return found

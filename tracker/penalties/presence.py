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

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from tracker.engine.state import STATUS_WORDS
from tracker.penalties.findings import Finding, excerpt, make_finding
from tracker.records import Post

Status = Literal["alive", "dead_not_out", "out", "benched"]

#: The engine's status (:data:`tracker.engine.state.Status`) in this module's and the 潜水 rules'
#: words: the engine says "dead" for M160's 【死亡】 not yet 【出局】, the rule posts' checks say
#: "dead_not_out". The one translation between the two, used wherever a fold feeds a detector.
FROM_ENGINE: dict[str, Status] = {"alive": "alive", "dead": "dead_not_out", "out": "out", "benched": "benched"}
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
    status: Status
    at: datetime
    reason: str = ""
    exit: str | None = None
    night: int | None = None
    cause: str = ""


def status_at(timeline: Iterable[StatusChange], player: str, when: datetime) -> StatusChange | None:
    """The change in force for ``player`` at ``when`` (``None``: alive since the start)."""
    current: StatusChange | None = None
    for ch in sorted((c for c in timeline if c.player == player), key=lambda c: c.at):
        if ch.at <= when:
            current = ch
        else:
            break
    return current


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
    changes = list(timeline)
    kinds: set[str] = {"discussion", "process"} | ({"vote"} if include_vote_threads else set())
    players = {c.player for c in changes}
    found: list[Finding] = []
    for post in posts:
        if post.author not in players or threads.get(post.tid) not in kinds or post.pid in last_words:
            continue
        ch = status_at(changes, post.author, post.posted_at)
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

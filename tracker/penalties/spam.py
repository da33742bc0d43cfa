"""水帖: many near-empty posts in a row by one author (发言（4）/ 账号回帖（5）大量无意义水帖).

The rule post's example is "连发十楼数字只为抢占某一层". A few short posts are normal ("少量水帖不会
被判罚"), so only a run counts: at least ``min_run`` consecutive floors of one thread by the same
author, each with at most ``max_chars`` meaningful characters once digits, punctuation, spaces and
smilies are gone. One finding per run, on its first post, listing the others.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import groupby

from tracker.penalties.findings import Finding, excerpt, make_finding
from tracker.records import Post

CLAUSE = "发言：大量无意义的水帖（如连发多楼数字抢楼）"

_NOISE = re.compile(r"[\s\d\W_]+|\{:\d+_\d+:\}|:[a-z]+:?", re.UNICODE)


@dataclass(frozen=True, slots=True)
class SpamThresholds:
    min_run: int = 5
    max_chars: int = 2


def meaningful_chars(text: str) -> int:
    return len(_NOISE.sub("", text))


def detect_spam(posts: Iterable[Post], thresholds: SpamThresholds = SpamThresholds()) -> list[Finding]:
    found: list[Finding] = []
    ordered = sorted(posts, key=lambda p: (p.tid, p.floor, p.pid))
    for _tid, thread in groupby(ordered, key=lambda p: p.tid):
        for _author, run_iter in groupby(thread, key=lambda p: p.author):
            run = list(run_iter)
            # Split the same-author run into stretches of near-empty posts.
            stretch: list[Post] = []
            for post in [*run, None]:
                if post is not None and not post.blocked and meaningful_chars(post.text) <= thresholds.max_chars:
                    stretch.append(post)
                    continue
                if len(stretch) >= thresholds.min_run:
                    head = stretch[0]
                    floors = f"{stretch[0].floor}–{stretch[-1].floor}"
                    found.append(make_finding(
                        head, kind="spam", category="spam", clause=CLAUSE, matched=f"{len(stretch)} 帖",
                        evidence=f"{head.author} 连续 {len(stretch)} 帖近乎空白（第 {floors} 楼，"
                                 f"每帖有意义字符 ≤ {thresholds.max_chars}）",
                        excerpt_text=excerpt(" / ".join(p.text.strip() for p in stretch[:10])),
                        related_pids=tuple(p.pid for p in stretch[1:])))
                stretch = []
    return found

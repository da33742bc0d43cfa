"""Who stands in a day-1 election, from the discussion thread's 上警 / 退水 posts.

werewolf-12 四、1: "上警：10:00 — 12:00 在讨论帖回复“上警”即为参选；12:00 前可回复“退水”退出竞选".
A post signs up (or withdraws) when its first line, punctuation and blanks removed, starts with the
ruleset's word (``signup_word`` / ``withdraw_word``): "上警！" and "上警，发言如下" sign up, "不上警"
and a word in the middle of a sentence do not. Only posts between the day's opening and the signup
close count, only by players living at the opening, in forum time order; a player's latest word
decides whether they still stand, and anyone who ever signed up has entered ("上警（含已退水者）
不得投票"). Pure: the service reads the posts and identifies their authors.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime

from tracker.engine.normalize import normalize
from tracker.engine.tally_model import Candidacy

_NOT_WORD = re.compile(r"[\W_]+")


@dataclass(frozen=True, slots=True)
class SignupPost:
    """One discussion-thread post as the count needs it: the player who wrote it (None: not a player)."""

    player: str | None
    floor: int
    pid: int
    posted_at: datetime
    text: str


def _says(text: str, word: str) -> bool:
    first = normalize(text).split("\n", 1)[0]
    return _NOT_WORD.sub("", first).startswith(_NOT_WORD.sub("", normalize(word)))


def candidacy(posts: Sequence[SignupPost], *, signup_word: str, withdraw_word: str | None,
              opens: datetime, closes: datetime, living: Collection[str]) -> Candidacy:
    """The election's candidates: who signed up in ``[opens, closes)`` and who still stands."""
    entered: list[str] = []
    standing: dict[str, bool] = {}
    evidence: list[tuple[str, int, str]] = []
    for p in sorted(posts, key=lambda x: (x.posted_at, x.floor, x.pid)):
        if p.player is None or p.player not in living or not opens <= p.posted_at < closes:
            continue
        if withdraw_word and _says(p.text, withdraw_word):
            if standing.get(p.player):
                standing[p.player] = False
                evidence.append((p.player, p.floor, withdraw_word))
        elif _says(p.text, signup_word) and not standing.get(p.player):
            standing[p.player] = True
            if p.player not in entered:
                entered.append(p.player)
            evidence.append((p.player, p.floor, signup_word))
    return Candidacy(entered=frozenset(entered), standing=frozenset(n for n, on in standing.items() if on),
                     evidence=tuple(evidence))

"""M19 绑架: a kidnapped player may only make animal sounds or use the forum's smilies.

"被绑架的角色在下一个游戏日不得主动发表观点，在游戏日白天只能发出动物叫声，或使用小镇的表情"
with the 25 sounds listed in the rule post. They may still vote (the vote lines themselves are
allowed, "投票理由不得主动表达意见": the reason must be sounds too) and answer questions by quoting
them; a quote is the asker's text, not theirs. Anything else left in the post is speech.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from tracker.penalties.findings import Finding, excerpt, make_finding
from tracker.records import Post

CLAUSE = "绑架：被绑架的角色只能发出动物叫声（限 25 种）或使用小镇的表情，不得主动发言"

ANIMAL_SOUNDS = "喵汪吱嘎哞咩喳嘤啾叽唧咯咕嘶呱吼嗷呜哒咪哼啊哈呲噜"

# Smiley codes as typed (":)", ":lol", "{:2_25:}") when the text still holds them.
_SMILEY = re.compile(r"\{:\d+_\d+:\}|:[a-z]+:?|[:;][-']?[()DPpOo|/\\]|:\$|:@")
_VOTE_LABEL = re.compile(r"(?:投票|改票)(?:对象|理由)\s*[:：]")
_VOTE_TARGET = re.compile(r"(?:投票|改票)对象\s*[:：]\s*\S+")
_IGNORED = re.compile(r"[\s\W_~～…—·]+", re.UNICODE)


@dataclass(frozen=True, slots=True)
class Kidnap:
    """``player`` is kidnapped from ``starts`` until ``ends`` (the end of the next game day)."""

    player: str
    starts: datetime
    ends: datetime


def leftover_speech(text: str, sounds: str = ANIMAL_SOUNDS) -> str:
    """What remains of a post once sounds, smilies, punctuation and vote labels are removed."""
    t = _VOTE_TARGET.sub(" ", text)
    t = _VOTE_LABEL.sub(" ", t)
    t = _SMILEY.sub(" ", t)
    t = t.translate({ord(c): " " for c in sounds})
    return _IGNORED.sub("", t)


def detect_kidnapped_speech(posts: Iterable[Post], kidnaps: Iterable[Kidnap], *,
                            sounds: str = ANIMAL_SOUNDS, clause: str = CLAUSE) -> list[Finding]:
    spans = list(kidnaps)
    found: list[Finding] = []
    for post in posts:
        for k in spans:
            if post.author == k.player and k.starts <= post.posted_at < k.ends:
                rest = leftover_speech(post.text, sounds)
                if rest:
                    found.append(make_finding(
                        post, kind="kidnapped_speech", category="kidnap", clause=clause, matched=rest[:30],
                        evidence=f"{k.player} 被绑架（{k.starts:%m-%d %H:%M} 至 {k.ends:%m-%d %H:%M}），"
                                 f"帖中除动物叫声与表情外还有：{rest[:30]}",
                        excerpt_text=excerpt(post.text)))
                break
    return found

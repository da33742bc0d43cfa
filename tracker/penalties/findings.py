"""What a detector hands the director: a candidate flag with the evidence to judge it.

A finding is a suggestion, never a card: the director confirms or dismisses it (see the flags
store). It carries everything needed to judge it later even if the player edits the post away:
the post's identity (pid, thread, floor, author, time), the words or values that matched, a short
excerpt and the SHA-256 of the post's HTML as it was when the detector saw it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from tracker.records import Post

FlagKind = Literal[
    "red_text",
    "large_font",
    "keyword",
    "posted_while_out",
    "posted_while_benched",
    "chat_log_evidence",
    "kidnapped_speech",
    "spam",
]

FLAG_KINDS: tuple[FlagKind, ...] = (
    "red_text",
    "large_font",
    "keyword",
    "posted_while_out",
    "posted_while_benched",
    "chat_log_evidence",
    "kidnapped_speech",
    "spam",
)

EXCERPT_CHARS = 60


#: Short Chinese names of the flag kinds (docs/cli.md's kinds), for every list the director reads.
KIND_WORDS: dict[str, str] = {
    "red_text": "红字", "large_font": "大字", "keyword": "违禁词", "posted_while_out": "出局发言",
    "posted_while_benched": "挂机发言", "chat_log_evidence": "贴证", "kidnapped_speech": "绑架发言",
    "spam": "刷屏",
}


@dataclass(frozen=True, slots=True)
class Finding:
    """One candidate flag.

    ``category`` names the rule section or lexicon (``insult``, ``oath``, ``font`` …) and
    ``clause`` is the rule post's wording the director cites (Chinese). ``matched`` is the exact
    text or attribute value that triggered it; ``evidence`` says in Chinese why it matched (colour
    distance, homophone of what, which status since when). ``related_pids`` lists the other posts
    of a multi-post finding (a spam run).
    """

    kind: FlagKind
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
    related_pids: tuple[int, ...] = ()

    @property
    def key(self) -> tuple[str, str, int, str]:
        """Identity across re-runs: the same post, rule and match is the same finding."""
        return (self.kind, self.category, self.pid, self.matched)

    @property
    def label(self) -> str:
        """``kind`` for most flags, ``keyword:<category>`` for lexicon hits (the scenario's notation)."""
        return f"keyword:{self.category}" if self.kind == "keyword" else self.kind


def html_hash(post: Post) -> str:
    """SHA-256 of the post's HTML as detected, so an edit made afterwards is provable."""
    return hashlib.sha256(post.html.encode("utf-8")).hexdigest()


def excerpt(text: str, start: int = 0, end: int | None = None, *, width: int = EXCERPT_CHARS) -> str:
    """The matched span with some context on each side, on one line."""
    flat = " ".join(text.split())
    if end is None:
        return flat[:width] + ("…" if len(flat) > width else "")
    # Map the span onto the flattened text approximately: flattening only shrinks whitespace.
    prefix = " ".join(text[:start].split())
    span = " ".join(text[start:end].split())
    lead = max(0, len(prefix) - (width - len(span)) // 2)
    begin = lead
    stop = min(len(flat), begin + max(width, len(span)))
    out = flat[begin:stop]
    return ("…" if begin > 0 else "") + out + ("…" if stop < len(flat) else "")


def make_finding(
    post: Post,
    *,
    kind: FlagKind,
    category: str,
    clause: str,
    matched: str,
    evidence: str,
    excerpt_text: str | None = None,
    related_pids: tuple[int, ...] = (),
) -> Finding:
    return Finding(
        kind=kind,
        category=category,
        clause=clause,
        pid=post.pid,
        tid=post.tid,
        floor=post.floor,
        author=post.author,
        posted_at=post.posted_at,
        excerpt=excerpt_text if excerpt_text is not None else excerpt(post.text),
        matched=matched,
        html_hash=html_hash(post),
        evidence=evidence,
        related_pids=related_pids,
    )

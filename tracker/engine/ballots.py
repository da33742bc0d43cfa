"""Post text → Ballot: the strict vote format of the rule posts, parsed without judging the game.

The format every rule post gives::

    投票对象：饺子            改票对象：包子        (a change: a reply quoting one's own vote floor)
    投票理由：饺子好吃        改票理由：包子也好吃

"标点符号不区分全半角" and "投票对象与投票理由之间可以不换行" (all five posts): colons of any width,
target and reason on one line or two, formatting wrappers and invisible characters ignored
(see :mod:`tracker.engine.normalize`). ``投票对象：弃权`` abstains. A director posts a proxy vote
(代投) as ``代投：<player>`` on the first line followed by the normal lines.

This module decides only *what the post says*: a post that tries to vote but breaks the format
("我投饺子，理由是…", a reason before the target, two targets) is returned as a :class:`Ballot`
carrying a format :class:`~tracker.engine.verdicts.Verdict` so that it is listed, never skipped.
Whether the voter, the target, the time and the change are allowed is the tally's job
(:mod:`tracker.engine.tally`), because that needs the ruleset and the game state.

Quoted text is never a ballot: :attr:`tracker.records.Post.text` already excludes quotes, and a
post that only quotes a vote and comments ("同意楼上") is not an attempt.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import TYPE_CHECKING, Literal

from tracker.engine.normalize import name_key, normalize
from tracker.engine.verdicts import Code, Verdict
from tracker.records import Post
from tracker.visible import visible

if TYPE_CHECKING:
    from tracker.engine.identity import Authors

#: Every ballot form needs one of these (投票/改票对象, 理由, 弃权 …; 选/象/像/目 cover the look-alike
#: labels the parser accepts). Kept here, beside the rules that use them, so a new form updates both.
_BALLOT_CHARS = re.compile("[投票选象像目理弃]")


def cannot_be_ballot(text: str) -> bool:
    """True when parse_ballot must return None: no ballot character even after NFKC (which is what
    turns compatibility forms such as the Kangxi radical ⽬ into 目; removing invisible characters,
    mapping colons and stripping tags never creates a CJK character)."""
    if _BALLOT_CHARS.search(text) is not None:
        return False
    if text.isascii() or unicodedata.is_normalized("NFKC", text):
        return True
    return _BALLOT_CHARS.search(unicodedata.normalize("NFKC", text)) is None


BallotKind = Literal["vote", "change", "proxy"]
ABSTAIN = "弃权"

# A label: 投票/改票 + 对象/理由, blanks allowed in between, then (normally) a colon.
_LABEL = re.compile(r"(投票|改票)\s*(对象|理由)\s*(:?)")
_PROXY = re.compile(r"^代投\s*(:?)\s*(.*)$")
# Looks like a label but is not one of the four (投票：…, 对象：…, 投票对像：…, 改投：…).
_NEAR_LABEL = re.compile(r"(?:投票|改票|改投|票|对象|对像|目标|理由)\s*(?:对像|人|给|目标)?\s*:\s*\S")
# A verb form without names known: 我投X / 投给X / 票投X / 改投X.
_GENERIC_VERB = re.compile(r"(?:我投|投给|票投|改投|投向|投一票给)\s*\S")
_SPLIT_TARGETS = re.compile(r"\s*(?:、|,|;|/|\||和|与|及|跟)\s*")


@dataclass(frozen=True, slots=True)
class Ballot:
    """What one post in a vote thread says, before any game rule is applied.

    ``voter`` is the author, or for a proxy the player named on the 代投 line (``proxy_by`` is then
    the director). ``target`` is the target as written (normalised), ``None`` when it could not be
    read. ``errors`` holds format verdicts; an empty tuple means the format is right.
    """

    pid: int
    tid: int
    floor: int
    author: str
    posted_at: datetime
    voter: str
    kind: BallotKind
    change: bool
    target: str | None
    reason_text: str | None
    proxy_by: str | None = None
    quoted_pids: tuple[int, ...] = ()
    edited_at: datetime | None = None
    errors: tuple[Verdict, ...] = ()
    #: Quotes without a findpost link (a mobile client's 引用): (the header's minute, the quoted text),
    #: matched by the tally against the voter's own earlier ballots.
    quoted_unlinked: tuple[tuple[datetime, str], ...] = ()
    #: What the post says, blanks removed: what such a quote of it is compared with.
    said: str = ""
    #: The ruleset's abstain words (``voting.abstain_words``: 弃权, or werewolf-12's 弃票).
    abstain_words: tuple[str, ...] = (ABSTAIN,)

    @property
    def abstain(self) -> bool:
        return self.target is not None and name_key(self.target) in {name_key(w) for w in self.abstain_words}

    @property
    def well_formed(self) -> bool:
        return not self.errors


@dataclass(frozen=True, slots=True)
class _Label:
    kind: str  # 投票 | 改票
    field: str  # 对象 | 理由
    start: int
    end: int
    has_colon: bool


@dataclass(frozen=True, slots=True)
class BallotFormat:
    """The ruleset's words for one vote's ballots (``voting`` keys; the seed posts' by default).

    ``reason_required``: a missing 投票理由 is a format error (werewolf-12 has no reason line).
    ``abstain_words``: 弃权, or werewolf-12's 弃票. ``keyword``: a day-1 election voted with its own
    label in the day's vote thread (werewolf-12 "警长投票：X"): only posts with it are this vote's
    ballots. ``other_keywords``: such labels of the thread's other votes, whose posts are not ballots
    of this one.
    """

    reason_required: bool = True
    abstain_words: tuple[str, ...] = (ABSTAIN,)
    keyword: str | None = None
    other_keywords: tuple[str, ...] = ()


SEED_FORMAT = BallotFormat()


@lru_cache(maxsize=32)
def _keyword_label(keyword: str) -> re.Pattern[str]:
    return re.compile(rf"^{re.escape(normalize(keyword))}\s*(:?)", re.MULTILINE)


def parse_ballot(post: Post, *, directors: Collection[str] = (), names: Iterable[str] = (),
                 authors: Authors | None = None, fmt: BallotFormat = SEED_FORMAT) -> Ballot | None:
    """Read one post; ``None`` when it is not a ballot and not an attempt at one.

    ``directors``: only they may post 代投, and their other posts (the opening post with the format,
    the closing tally) are never ballots. ``names``: the players' names (and seat numbers where the
    game has seats), used to recognise attempts without labels ("我投饺子") and several targets in
    one label; the parser never resolves a target to a player. ``fmt``: the ruleset's ballot words.
    """
    text = normalize(post.text or "")
    if not text:
        return None
    if any(_keyword_label(k).search(text) for k in fmt.other_keywords):
        return None  # another vote's ballot in the same thread (警长投票 on day 1)
    if fmt.keyword is not None:
        label = _keyword_label(fmt.keyword)
        if label.search(text) is None:
            return None
        text = label.sub(lambda m: "投票对象" + m.group(1), text)
    who = authors.identify(post.author, post.uid) if authors is not None else None
    if who is not None:
        # The author is who the forum says: a director by their exact name, a player by uid or exact
        # name (tracker.engine.identity), never by a look-alike of either.
        is_director = post.author in directors and who.lookalike is None
    else:
        is_director = name_key(post.author) in _keys(tuple(directors))
    name_tuple = _prepared_names(tuple(names))

    voter = who.player if who is not None and who.player else post.author
    lookalike: tuple[Verdict, ...] = ()
    if who is not None and who.lookalike:
        lookalike = (Verdict(Code.VOTER_LOOKALIKE, who.reason),)
        # never the player's own name, even for an account with that exact name and another uid
        voter = f"{visible(post.author)}（uid {post.uid}）" if post.uid is not None else visible(post.author)
    proxy_by: str | None = None
    errors: list[Verdict] = []
    first, _, rest = text.partition("\n")
    proxy = _PROXY.match(first)
    if proxy is not None:
        body_first = proxy.group(2)
        cut = _LABEL.search(body_first)
        proxied = (body_first[: cut.start()] if cut else body_first).strip()
        text = ((body_first[cut.start():] if cut else "") + "\n" + rest).strip("\n")
        if not is_director:
            errors.append(Verdict(Code.PROXY_NOT_DIRECTOR, f"发帖人 {post.author}"))
        elif not proxied or not proxy.group(1):
            errors.append(Verdict(Code.BAD_LABEL, "代投格式应为“代投：玩家名”"))
            proxy_by = post.author
            voter = proxied or post.author
        else:
            proxy_by = post.author
            voter = proxied
    elif is_director:
        return None

    labels = [
        _Label(m.group(1), m.group(2), m.start(), m.end(), bool(m.group(3)))
        for m in _LABEL.finditer(text)
    ]

    def make(kind: BallotKind, change: bool, target: str | None, reason: str | None) -> Ballot:
        return Ballot(pid=post.pid, tid=post.tid, floor=post.floor, author=post.author,
                      posted_at=post.posted_at, voter=voter, kind=kind, change=change, target=target,
                      reason_text=reason, proxy_by=proxy_by,
                      quoted_pids=tuple(q.pid for q in post.quotes if q.pid is not None),
                      edited_at=post.edited_at, errors=(lookalike if proxy_by is None else ()) + tuple(errors),
                      quoted_unlinked=tuple((q.posted_at, q.text) for q in post.quotes
                                            if q.pid is None and q.posted_at is not None),
                      said=quote_key(post.text or ""), abstain_words=fmt.abstain_words)

    if not labels:
        attempt = _attempt_without_labels(text, name_tuple, fmt.abstain_words)
        if attempt is None:
            if proxy_by is None and not errors:
                return None
            errors.append(Verdict(Code.MISSING_LABEL, "代投帖缺少“投票对象：”"))
            return make("proxy" if proxy_by else "vote", False, None, None)
        code, target = attempt
        # quote the post as written (its own full-width punctuation), not the normalised form parsed
        errors.append(Verdict(code, f"原文：{_excerpt((post.text or text).strip())}"))
        kind: BallotKind = "proxy" if proxy_by else ("change" if "改" in text[:8] else "vote")
        return make(kind, kind == "change", target, None)

    target, reason, change, format_errors = _read_labels(text, labels, name_tuple, fmt.reason_required)
    errors.extend(format_errors)
    kind = "proxy" if proxy_by else ("change" if change else "vote")
    return make(kind, change, target, reason)


def _read_labels(text: str, labels: list[_Label], names: tuple[str, ...], reason_required: bool = True,
                 ) -> tuple[str | None, str | None, bool, list[Verdict]]:
    errors: list[Verdict] = []
    values: list[str] = []
    for i, lab in enumerate(labels):
        stop = labels[i + 1].start if i + 1 < len(labels) else len(text)
        values.append(text[lab.end:stop].strip())
    if any(not lab.has_colon for lab in labels):
        bad = next(lab for lab in labels if not lab.has_colon)
        errors.append(Verdict(Code.BAD_LABEL, f"“{bad.kind}{bad.field}”后缺少冒号"))

    objects = [(lab, v) for lab, v in zip(labels, values, strict=True) if lab.field == "对象"]
    reasons = [(lab, v) for lab, v in zip(labels, values, strict=True) if lab.field == "理由"]
    change = any(lab.kind == "改票" for lab, _ in objects) if objects else any(
        lab.kind == "改票" for lab, _ in reasons)

    target: str | None = None
    if not objects:
        errors.append(Verdict(Code.MISSING_LABEL, "只有理由，没有“投票对象：”"))
    else:
        firsts = [_first_line(v) for _, v in objects]
        target = firsts[0] or None
        if len({name_key(t) for t in firsts}) > 1:
            errors.append(Verdict(Code.MULTIPLE_TARGETS, "、".join(t or "（空）" for t in firsts)))
        if not target:
            errors.append(Verdict(Code.MISSING_TARGET))
        elif names and name_key(target) not in _keys(names):
            parts = [p for p in _SPLIT_TARGETS.split(target) if p]
            known = _keys(names)
            if len(parts) > 1 and sum(name_key(p) in known for p in parts) > 1:
                errors.append(Verdict(Code.MULTIPLE_TARGETS, target))
    reason: str | None = None
    if not reasons:
        # The reason may follow the target's line without its label only when labelled: strict.
        if reason_required:
            errors.append(Verdict(Code.MISSING_REASON))
    else:
        reason = reasons[0][1] or None
        if reason is None and reason_required:
            errors.append(Verdict(Code.MISSING_REASON, "投票理由为空"))
        if objects and reasons[0][0].start < objects[0][0].start:
            errors.append(Verdict(Code.REASON_BEFORE_TARGET))
    kinds = {lab.kind for lab in labels}
    if len(kinds) > 1:
        errors.append(Verdict(Code.LABEL_MISMATCH, "、".join(f"{lab.kind}{lab.field}" for lab in labels)))
    return target, reason, change, errors


def quote_key(text: str) -> str:
    """Text as a Discuz quote of it can be compared: normalised, without blanks.

    Discuz quotes with ``messagecutstr()``: BBCode stripped, at most 100 characters and 3 lines,
    ending in `` ...`` when cut (and a quote may be trimmed by hand): :func:`quote_matches` compares
    the quote with the start of what was said.
    """
    return "".join(normalize(text).split())


def quote_matches(quoted: str, said: str) -> bool:
    """Whether a quote's text is (the start of) what a post said, the way Discuz cuts it."""
    q = quote_key(quoted).removesuffix("...")
    return bool(q) and said.startswith(q)


def _first_line(value: str) -> str:
    for line in value.split("\n"):
        if line.strip():
            return line.strip()
    return ""


@lru_cache(maxsize=64)
def _prepared_names(names: tuple[str, ...]) -> tuple[str, ...]:
    """Canonical names, longest first (so 花千树 wins over a shorter name it contains)."""
    return tuple(sorted({n for n in map(normalize, names) if n}, key=len, reverse=True))


@lru_cache(maxsize=64)
def _keys(names: tuple[str, ...]) -> frozenset[str]:
    return frozenset(name_key(n) for n in names)


@lru_cache(maxsize=64)
def _verb_pattern(names: tuple[str, ...], abstain: tuple[str, ...] = (ABSTAIN,)) -> re.Pattern[str]:
    alts = "|".join(re.escape(n) for n in (*names, *abstain))
    return re.compile(rf"(?:投|选|改投|票给)(?:票|一票|出)?(?:给|向|了|的是)?\s*({alts})")


def _attempt_without_labels(text: str, names: tuple[str, ...], abstain: tuple[str, ...] = (ABSTAIN,),
                            ) -> tuple[Code, str | None] | None:
    """A post that clearly tries to vote without the labels; ``None`` for a mere comment."""
    near = _NEAR_LABEL.search(text)
    if near is not None:
        after = text[near.end() - 1:].split("\n", 1)[0].strip()
        return Code.BAD_LABEL, after or None
    verb = _verb_pattern(names, abstain).search(text)
    if verb is not None:
        return Code.MISSING_LABEL, verb.group(1)
    for word in abstain:
        if name_key(text) in {name_key(word), name_key("我" + word)}:
            return Code.MISSING_LABEL, word
    generic = _GENERIC_VERB.search(text)
    if generic is not None:
        return Code.MISSING_LABEL, None
    return None


def _excerpt(text: str, limit: int = 30) -> str:
    flat = text.replace("\n", " ")
    return flat if len(flat) <= limit else flat[:limit] + "…"

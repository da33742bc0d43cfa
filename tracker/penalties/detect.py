"""Run every post detector over a game's posts: the one entry point the flags store calls.

Pure: posts and the game's context in, findings out, in post order. Directors are exempt from
everything (the red, large font is theirs). Blocked posts (屏蔽) show no text, so only the
status checks apply to them. Text inside quotes is never examined for content: ``Post.text``
excludes quotes, and the font scan cuts quote blocks out of the HTML.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from tracker.engine.ruleset import Ruleset
from tracker.penalties.chatlog import detect_chat_log
from tracker.penalties.findings import Finding
from tracker.penalties.fonts import FontThresholds, detect_fonts
from tracker.penalties.kidnap import ANIMAL_SOUNDS, Kidnap, detect_kidnapped_speech
from tracker.penalties.kidnap import CLAUSE as KIDNAP_CLAUSE
from tracker.penalties.last_words import last_words_posts
from tracker.penalties.phrases import PhraseMatcher, load_lexicon
from tracker.penalties.presence import StatusChange, ThreadKind, detect_presence
from tracker.penalties.spam import SpamThresholds, detect_spam
from tracker.records import Post


@dataclass(frozen=True, slots=True)
class Thresholds:
    fonts: FontThresholds = field(default_factory=FontThresholds)
    spam: SpamThresholds = field(default_factory=SpamThresholds)


@dataclass(frozen=True)
class DetectContext:
    """What the detectors need to know about the game.

    ``threads`` maps tid → ``discussion`` / ``vote`` / ``process`` / ``other``; 诈尸 is judged only
    in game threads. ``timeline`` is when each player became out / benched / alive again;
    ``kidnaps`` are M19 绑架 windows. ``lexicon_paths`` are the director's extra word lists (files
    or folders). ``ruleset`` supplies the kidnap sounds and clause where it has them.
    ``detectors`` limits which run (all by default).
    """

    players: Sequence[str]
    directors: Sequence[str] = ()
    threads: Mapping[int, ThreadKind] = field(default_factory=dict)
    timeline: Sequence[StatusChange] = ()
    kidnaps: Sequence[Kidnap] = ()
    lexicon_paths: Sequence[Path] = ()
    thresholds: Thresholds = field(default_factory=Thresholds)
    flag_dead_votes: bool = False
    detectors: frozenset[str] = frozenset({"fonts", "phrases", "chat_log", "presence", "kidnap", "spam"})
    extra_names: Sequence[str] = ()
    ruleset: Ruleset | None = None


class Detector:
    """A compiled detector set for one game: build once, run over any number of posts.

    Building compiles the lexicons (milliseconds); jieba and the pinyin table load only when a post
    first needs them.
    """

    def __init__(self, context: DetectContext) -> None:
        self.context = context
        names = [*context.players, *context.directors, *context.extra_names]
        rs = context.ruleset
        #: The ruleset's [[detectors]]: only those run, citing the ruleset's clause (none: all, as before).
        self.rules = rs.detectors if rs is not None else ()
        # The bundled lists as the ruleset selects and cites them, then the director's own lists.
        clauses = rs.phrase_clauses() if rs is not None else None
        lexicon = load_lexicon()
        keyword_rules = [d for d in self.rules if d.kind == "keyword"]
        if keyword_rules:
            clauses = {c: d.clause for d in reversed(keyword_rules) for c in (d.categories or lexicon.categories)}
        lexicon = lexicon.for_ruleset(clauses)
        if context.lexicon_paths:
            lexicon = lexicon.merged(load_lexicon(list(context.lexicon_paths), builtin=False))
        self.matcher = PhraseMatcher(lexicon, names=names)
        self._directors = frozenset(context.directors)

    def run(self, posts: Iterable[Post]) -> list[Finding]:
        found = self._run(posts)
        if not self.rules:
            return found
        out = []
        for f in found:
            rule = next((d for d in self.rules if d.covers(f.kind, f.category)), None)
            if rule is not None:
                out.append(f if f.kind == "keyword" else replace(f, clause=rule.clause))
        return out

    def _run(self, posts: Iterable[Post]) -> list[Finding]:
        ctx = self.context
        on = ctx.detectors
        if self.rules:
            kinds = {d.kind for d in self.rules}
            wanted = {"fonts": {"red_text", "large_font"}, "phrases": {"keyword"}, "chat_log": {"chat_log_evidence"},
                      "presence": {"posted_while_out", "posted_while_benched"}, "kidnap": {"kidnapped_speech"},
                      "spam": {"spam"}}
            on = frozenset(name for name in on if wanted.get(name, set()) & kinds)
        subject = [p for p in posts if p.author not in self._directors]
        found: list[Finding] = []
        for post in subject:
            if post.blocked:
                continue
            if "fonts" in on:
                found += detect_fonts(post, ctx.thresholds.fonts)
            if "phrases" in on:
                found += self.matcher.detect(post)
            if "chat_log" in on:
                found += detect_chat_log(post)
        if "presence" in on and ctx.timeline:
            allowed = (last_words_posts(subject, ctx.timeline, ctx.threads, ctx.ruleset.last_words)
                       if ctx.ruleset is not None else frozenset())
            found += detect_presence(subject, ctx.timeline, ctx.threads, include_vote_threads=ctx.flag_dead_votes,
                                     last_words=allowed)
        if "kidnap" in on and ctx.kidnaps:
            speech = ctx.ruleset.speech if ctx.ruleset is not None else None
            sounds = "".join(speech.kidnap_allowed_words) if speech and speech.kidnap_allowed_words else ANIMAL_SOUNDS
            clause = speech.clause if speech and speech.clause else KIDNAP_CLAUSE
            found += detect_kidnapped_speech((p for p in subject if not p.blocked), ctx.kidnaps,
                                             sounds=sounds, clause=clause)
        if "spam" in on:
            found += detect_spam(subject, ctx.thresholds.spam)
        order = {p.pid: i for i, p in enumerate(subject)}
        found.sort(key=lambda f: (order.get(f.pid, 0), f.kind, f.category))
        return found


def detect_posts(posts: Iterable[Post], *, context: DetectContext) -> list[Finding]:
    """Every finding in ``posts`` under ``context`` (see :class:`Detector` to reuse the compiled lexicon)."""
    return Detector(context).run(posts)

"""FlagReview: the violation detectors run over new or changed posts, and the director's review of them.

Detection is incremental: a watermark per post and per *context* (players, statuses over time,
kidnaps, lexicons, the ruleset, the detectors' own code) — when the context changes every post is
scanned again under it. Reviewing a flag either dismisses it (with a reason) or turns it into a card
through :class:`tracker.service.cards.Cards`, the one place cards are decided.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from tracker.errors import GameRuleError
from tracker.penalties.presence import ThreadKind
from tracker.penalties.review import (
    CardSuggestion,
    Flag,
    check_card,
    check_dismiss,
    fresh_findings,
    suggest_card,
)
from tracker.records import Post
from tracker.service.context import GameContext
from tracker.service.request import one_request
from tracker.store.penalties import (
    add_flags,
    count_flags,
    decide_flag,
    get_flag,
    known_flag_keys,
    list_flags,
    mark_scanned,
    posts_near,
    unscanned,
)

if TYPE_CHECKING:
    # the detectors (word lists, segmentation) are loaded when detection runs, not by `tracker state`
    from tracker.penalties.detect import DetectContext
    from tracker.penalties.findings import Finding
    from tracker.service.cards import CardDecision, Cards

    # the services this one is given (tracker.service composes them)
    from tracker.service.gamelog import GameLog

SPAM_REACH = 40
"""Floors either side of a new or changed post that the run detector (水帖) looks at."""

_PENALTIES_DIR = Path(__file__).parents[1] / "penalties"


@dataclass(frozen=True, slots=True)
class DetectionRun:
    """One detection pass: how many posts were scanned (new or changed only) and the flags it added."""

    scanned: int
    new_flags: tuple[Flag, ...] = ()
    skipped: int = 0


@dataclass(frozen=True, slots=True)
class Scan:
    """The detectors' fingerprint (the watermark's key) and how to build their context: the detectors'
    module (word lists, Aho-Corasick) is loaded only when some post is new or changed, not by a
    `tracker flags` that finds nothing to scan."""

    key: str
    build: Callable[[], DetectContext]

    @property
    def context(self) -> DetectContext:
        return self.build()


class FlagReview:
    def __init__(self, ctx: GameContext, log: GameLog, cards: Cards) -> None:
        self.ctx = ctx
        self.log = log
        self.cards = cards

    # --------------------------------------------------------------------------------- detection

    @one_request
    def detect_flags(self) -> DetectionRun:
        """Run the detectors on the posts that are new or changed since the last run (the watermark)."""
        tids = self.ctx.game.thread_ids()
        scan = self._scan()
        with self.ctx.store.session() as s:
            todo = unscanned(tids, context_key=scan.key, session=s)
            if not todo:
                return DetectionRun(scanned=0)
            wanted = {m.pid for m in todo}
            near = posts_near(todo, reach=SPAM_REACH, session=s)
            around = [p.to_post() for p in near]
            posts = [p for p in around if p.pid in wanted]
            findings = run_detectors(posts, scan.context, neighbours=around)
            fresh = fresh_findings(findings, known_flag_keys(session=s))
            html = {p.pid: p.html for p in near}
            new = add_flags(fresh, html_by_pid=html, detected_at=self.ctx.clock.now(), session=s)
            mark_scanned(todo, context_key=scan.key, at=self.ctx.clock.now(), session=s)
            return DetectionRun(scanned=len(posts), new_flags=tuple(new))

    def _scan(self) -> Scan:
        """The detectors' context and its fingerprint: when it changes (a player goes out, a lexicon
        file is edited, the ruleset changes), every post is scanned again under it."""
        game, ruleset = self.ctx.game, self.ctx.ruleset
        threads: dict[int, ThreadKind] = {}
        if game.process_thread is not None:
            threads[game.process_thread] = "process"
        for d in game.days:
            if d.discussion is not None:
                threads[d.discussion] = "discussion"
            for v in d.vote:
                threads[v] = "vote"
        timeline = self.log.timeline()
        kidnaps = self.log.kidnaps()
        lexicons = self._lexicon_paths()
        players, directors, extra = list(game.player_names), list(game.directors), list(self.log.substitutes())

        def build() -> DetectContext:
            from tracker.penalties.detect import DetectContext

            return DetectContext(players=players, directors=directors, threads=threads, timeline=timeline,
                                 kidnaps=kidnaps, lexicon_paths=lexicons, extra_names=extra, ruleset=ruleset)

        fingerprint: dict[str, object] = {
            "ruleset": ruleset.id, "options": {k: repr(v) for k, v in sorted(ruleset.option_values.items())},
            "players": players, "directors": directors, "extra": list(extra),
            "threads": {str(k): v for k, v in sorted(threads.items())},
            "timeline": [[c.player, c.status, c.at.isoformat(), *([c.exit, c.night, c.cause] if c.exit else [])]
                         for c in timeline],
            "kidnaps": [[k.player, k.starts.isoformat(), k.ends.isoformat()] for k in kidnaps],
            "lexicons": _files_digest([*lexicons, _PENALTIES_DIR / "lexicons"]),
            "detector": _files_digest([_PENALTIES_DIR]),
        }
        if ruleset.last_words.exits:  # which posts are 遗言: a change rescans
            lw = ruleset.last_words
            fingerprint["last_words"] = [list(lw.exits), list(lw.nights), lw.posts, lw.thread, list(lw.none_for)]
        if ruleset.detectors:  # the ruleset's choice of detectors and clauses: a change rescans
            fingerprint["rules"] = [[d.kind, d.clause, d.card, list(d.categories)] for d in ruleset.detectors]
        raw = json.dumps(fingerprint, ensure_ascii=False, sort_keys=True)
        return Scan(hashlib.sha256(raw.encode()).hexdigest(), build)

    def _lexicon_paths(self) -> list[Path]:
        """A ``lexicons/`` folder next to the game file holds the director's own word lists."""
        if self.ctx.base_dir is None:
            return []
        folder = self.ctx.base_dir / "lexicons"
        return [folder] if folder.is_dir() else []

    # --------------------------------------------------------------------------------- review

    @one_request
    def flags(self, *, detect: bool = True, status: str | None = None) -> list[Flag]:
        """Every flag (open first for the TUI's queue is the caller's choice); detection runs first."""
        if detect:
            self.detect_flags()
        with self.ctx.store.session() as s:
            return list_flags(session=s, status=status)

    def flag_count(self, *, status: str | None = None) -> int:
        """Stored flags counted by the database; never runs the detectors."""
        with self.ctx.store.session() as s:
            return count_flags(session=s, status=status)

    def flag(self, flag_id: int) -> Flag:
        with self.ctx.store.session() as s:
            return get_flag(flag_id, session=s)

    def dismiss_flag(self, flag_id: int, reason: str, *, by: str | None = None) -> Flag:
        with self.ctx.store.session() as s:
            why = check_dismiss(get_flag(flag_id, session=s), reason)
            return decide_flag(flag_id, status="dismissed", by=self.ctx.director(by), at=self.ctx.clock.now(),
                               reason=why, session=s)

    def suggest_card(self, flag_id: int, *, reported: bool = False) -> CardSuggestion:
        """The TUI's `c` key: colour, clause and reason prefilled from the flag and the player's record."""
        fl = self.flag(flag_id)
        check_card(fl)
        return suggest_card(fl, self.cards.ledger(), reported=reported, rules=self.ctx.ruleset.detectors)

    @one_request
    def card_from_flag(self, flag_id: int, *, color: str | None = None, clause: str | None = None,
                       reason: str | None = None, by: str | None = None, day: int | None = None,
                       reported: bool = False) -> CardDecision:
        """Turn a flag into a card (the director confirmed the suggestion, perhaps changed); a clause that
        doubles the penalty for a reported player (``reported``, 213 "被举报者会加倍判罚") gives the second card too."""
        sug = self.suggest_card(flag_id, reported=reported)
        if not sug.written and color is None:
            raise GameRuleError(f"违规 #{flag_id}：{sug.why}",
                                hint=f"导演定了牌色就写 --color（蓝 / 黄 / 红），例如 from-flag {flag_id} --color 黄")
        first = self.cards.issue_card(sug.player, color or sug.color, clause or sug.clause, reason or sug.reason,
                                          post=sug.post, by=by, flag=flag_id, day=day)
        if sug.count < 2:
            return first
        second = self.cards.issue_card(sug.player, color or sug.color, clause or sug.clause,
                                           f"{reason or sug.reason}（被举报者加倍判罚）", post=sug.post, by=by, day=day)
        return replace(first, written=first.written + second.written,
                       consequences=first.consequences + second.consequences,
                       events=first.events + second.events, recorded=first.recorded + second.recorded)


def run_detectors(posts: list[Post], context: DetectContext, *, neighbours: list[Post] | None = None,
                  ) -> list[Finding]:
    """Per-post detectors on the new or changed posts only; the run detector (水帖) sees their
    whole threads, since a run is judged over consecutive posts (dedup keeps old runs single)."""
    from tracker.penalties.detect import Detector

    per_post = Detector(replace(context, detectors=context.detectors - {"spam"}))
    found = per_post.run(posts)
    if "spam" in context.detectors:
        spam = Detector(replace(context, detectors=frozenset({"spam"})))
        pids = {p.pid for p in posts}
        found += [f for f in spam.run(neighbours if neighbours is not None else posts)
                  if f.pid in pids or pids.intersection(f.related_pids)]
    return found


def _files_digest(paths: Sequence[Path]) -> str:
    """Size and mtime of every file under the paths: cheap, and changes whenever a file is saved."""
    h = hashlib.sha256()
    for root in paths:
        files = sorted(root.rglob("*")) if root.is_dir() else [root]
        for f in files:
            if f.is_file() and f.suffix in (".txt", ".toml", ".py", ".json", ".csv"):
                st = f.stat()
                h.update(f"{f}\x00{st.st_size}\x00{st.st_mtime_ns}\n".encode())
    return h.hexdigest()

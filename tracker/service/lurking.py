"""潜水: posts per player in each day's discussion thread and window, and who voted, judged by the
ruleset's lurk rules with the three-day rule carried from day 1.

Statuses are those at the day's close and votes those the tally counted (:class:`Votes`), so the
潜水 screen and the 票型 screen never disagree about who voted; the day's window is the one the
tally's uses (:meth:`GameLog.day_status`: 加速 suspends 潜水, 延时 moves the close).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from typing import TYPE_CHECKING

from tracker.engine.identity import Authors
from tracker.penalties.lurk import (
    CONTENT_FREE_MAX_CHARS,
    LurkDayInput,
    LurkReport,
    LurkWindow,
    PlayerDay,
    content_free,
    lurk_reports,
)
from tracker.penalties.presence import FROM_ENGINE
from tracker.reports.announce_cards import LurkLine, lurkers_bbcode
from tracker.service.context import GameContext
from tracker.service.request import one_request
from tracker.store.posts import author_uid_post_counts, author_uid_short_posts

if TYPE_CHECKING:  # the services this one is given (tracker.service composes them)
    from sqlmodel import Session

    from tracker.service.gamelog import GameLog
    from tracker.service.votes import Votes


class Lurking:
    def __init__(self, ctx: GameContext, log: GameLog, votes: Votes) -> None:
        self.ctx = ctx
        self.log = log
        self.votes = votes

    @one_request
    def lurkers(self, day: int) -> LurkReport:
        """The day's 潜水 report, the three-day rule carried from day 1."""
        game = self.ctx.game
        game.day(day)
        inputs = [self.lurk_input(d.day) for d in game.days if d.day <= day]
        # The store counts (an indexed GROUP BY per day): no post row crosses into Python, so the
        # TUI's 潜水 worker does not hold the GIL for a 30k-post game. The window's close is
        # inclusive (a post at 22:00:00 counts), the query's end exclusive: one microsecond past.
        authors = Authors(game.players)  # posts are a player's by uid, never by a look-alike name
        rules = self.ctx.ruleset.lurk
        with self.ctx.store.session() as s:
            inputs = [replace(i, counts=self._counts(s, authors, i.window, rules.content_free_words))
                      if i.window.discussion_tid is not None else i for i in inputs]
        reports = lurk_reports(inputs, (), rules)
        return next(r for r in reports if r.day == day)

    @staticmethod
    def _counts(s: Session, authors: Authors, window: LurkWindow, words: tuple[str, ...]) -> dict[str, int]:
        """Posts per player in the window; where the ruleset lists content-free words, less the short
        posts that say nothing (only those short enough to be checked are read from the store)."""
        tid = window.discussion_tid
        assert tid is not None
        end = window.closes + timedelta(microseconds=1)
        counts = authors.count_by_player(author_uid_post_counts(s, tid, window.opens, end, include_deleted=False))
        if words:
            empty: dict[tuple[str, int | None], int] = {}
            for author, uid, text, images in author_uid_short_posts(s, tid, window.opens, end,
                                                                    max_chars=CONTENT_FREE_MAX_CHARS):
                if content_free(text, words, images=images):
                    empty[(author, uid)] = empty.get((author, uid), 0) + 1
            for name, n in authors.count_by_player(empty).items():
                counts[name] = counts.get(name, 0) - n
        return counts

    def lurk_input(self, day: int) -> LurkDayInput:
        """One day's input to the 潜水 rules: its window, each player's status at its close, who voted."""
        d = self.ctx.game.day(day)
        status = self.log.day_status(day, requests=False)
        state = self.log.state_before(status.closes)
        kidnapped = {k.player for k in self.log.kidnaps() if k.starts < status.closes and k.ends > status.opens}
        players = [PlayerDay(name, FROM_ENGINE[p.status], kidnapped=name in kidnapped)
                   for name, p in state.players.items()]
        valid, invalid = self._voters(day) if d.vote else (set(), set())
        window = LurkWindow(day=day, discussion_tid=d.discussion, opens=status.opens, closes=status.closes,
                           accelerated=status.accelerated, has_vote=bool(d.vote))
        return LurkDayInput(window=window, players=players, valid_voters=valid, invalid_voters=invalid)

    def _voters(self, day: int) -> tuple[set[str], set[str]]:
        """(players with a counted ballot, players whose ballots were all invalid), from the tally."""
        valid: set[str] = set()
        tried: set[str] = set()
        for dt in self.votes.tally_day(day):
            t = dt.tally
            # `final` lists every voter; those without a counted ballot are `no_vote` / `auto_abstain`
            valid |= {v for v in t.final if v not in t.no_vote and v not in t.auto_abstain}
            tried |= {b.voter for b in t.ballots}
        return valid, tried - valid

    @one_request
    def lurkers_announcement(self, day: int) -> str:
        """The 潜水 名单 to paste (BBCode), final once the day has closed."""
        rep = self.lurkers(day)
        d = self.ctx.game.day(day)
        now = self.ctx.clock.now()
        by_player: dict[str, list[tuple[str, str]]] = {}
        for p in rep.penalties:
            by_player.setdefault(p.player, []).append((p.rule, p.clause))
        invalid_only = set(rep.invalid_only)
        rows = [LurkLine(name, n, rep.voted.get(name) if d.vote else None,
                         tuple(by_player.get(name, ())),
                         rep.exempt.get(name, "") or ("仅有无效票" if name in invalid_only else ""))
                for name, n in rep.posts.items()]
        return lurkers_bbcode(day, rows, min_posts=self.ctx.ruleset.lurk.min_posts or 0, accelerated=rep.accelerated,
                              final=now >= d.closes, as_of=min(now, d.closes), tz=self.ctx.game.tz)

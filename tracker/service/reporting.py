"""Reports: the day's tally, lurker and card reports in Markdown, BBCode and HTML, at stable paths.

The watcher writes them on its schedule and the cron commands on demand; both go through
:meth:`Reports.write_reports`, so a report looks the same whoever produced it. File names are
stable (``day2-lurkers.md``, ``day2-lurkers-warning.html`` …) so a director's bookmarks and a
forum paste routine keep working, and a re-run replaces a file rather than multiplying it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import tzinfo
from pathlib import Path
from typing import TYPE_CHECKING

from tracker.config import DayConfig
from tracker.engine.events import given
from tracker.engine.state import STATUS_WORDS
from tracker.errors import ConfigError, os_error_words
from tracker.penalties.findings import KIND_WORDS
from tracker.penalties.ledger import ACTION_WORDS, LADDER_ISSUER
from tracker.penalties.place import place_words
from tracker.reports.announce_day import OutEntry, announce_day_bbcode, announced_changes
from tracker.reports.announce_tally import PURPOSE_WORDS, announce_tally_bbcode
from tracker.reports.elevator import ElevatorEntry, elevator_bbcode, elevator_order
from tracker.reports.html import render_html
from tracker.reports.markdown import render_markdown
from tracker.reports.model import (
    BallotRow,
    CardRow,
    CardsSection,
    DayReport,
    LurkRow,
    LurkSection,
    PenaltyRow,
    StandingRow,
    TallySection,
)
from tracker.service.context import GameContext
from tracker.service.report_files import write_report
from tracker.service.request import one_request
from tracker.store.posts import posts_for_thread

if TYPE_CHECKING:  # the services this one is given (tracker.service composes them)
    from tracker.service.cards import Cards
    from tracker.service.flag_review import FlagReview
    from tracker.service.gamelog import GameLog
    from tracker.service.lurking import Lurking
    from tracker.service.votes import DayTally, Votes

KINDS = ("tally", "lurkers", "cards")


@dataclass(frozen=True, slots=True)
class Attention:
    """What needs the director in a report: drives the cron exit code and the summary line."""

    items: tuple[str, ...]

    @property
    def needed(self) -> bool:
        return bool(self.items)


class Reports:
    """The day's reports and the director's own posts (电梯楼, 开门公示), from the other services."""

    def __init__(self, ctx: GameContext, log: GameLog, votes: Votes, lurking: Lurking, cards: Cards,
                 flag_review: FlagReview) -> None:
        self.ctx = ctx
        self.log = log
        self.votes = votes
        self.lurking = lurking
        self.cards = cards
        self.flag_review = flag_review

    def reports_dir(self) -> Path:
        game = self.ctx.game
        if game.schedule.reports_dir is not None:
            return game.schedule.reports_dir
        base = game.path.parent if game.path is not None else Path.cwd()
        return base / "reports"

    @one_request
    def current_day(self) -> int:
        """The day that is open now, else the last one that has opened (what a cron job means by "today")."""
        from tracker.engine.days import day_now

        d = day_now(self._days(), self.ctx.clock.now())
        if d is None:
            raise ConfigError("还没有任何一日开门", hint="用 --day N 指定日子")
        return d.day

    # ----------------------------------------------------------------- sections from the engine

    def _tally_sections(self, day: int) -> list[TallySection]:
        out: list[TallySection] = []
        for dt in self.votes.tally_day(day):
            t = dt.tally
            purpose = PURPOSE_WORDS.get(t.window.purpose, t.window.purpose)
            sec = TallySection(
                public_totals=tuple(sorted(t.public_totals.items(), key=lambda kv: (-kv[1], kv[0]))),
                true_totals=tuple(sorted(t.totals.items(), key=lambda kv: (-kv[1], kv[0]))),
                ballots=tuple(BallotRow(floor=cb.ballot.floor, pid=cb.ballot.pid, voter=cb.voter, kind=cb.kind,
                                        target=cb.target if cb.target is not None else cb.ballot.target,
                                        valid=cb.valid, reason=cb.verdict.message if cb.verdict else None,
                                        posted_at=cb.ballot.posted_at)
                              for cb in t.ballots),
                outcome=t.outcome.message, purpose=purpose)
            out.append(sec)
        return out

    def _lurk_section(self, day: int) -> LurkSection:
        rep = self.lurking.lurkers(day)
        d = self.ctx.game.day(day)
        minimum = self.ctx.ruleset.lurk.min_posts or 0
        rows = tuple(LurkRow(player=name, posts=n, minimum=minimum,
                             voted=rep.voted.get(name) if d.vote else None,
                             invalid_only=name in rep.invalid_only, exempt=rep.exempt.get(name) or None)
                     for name, n in rep.posts.items())
        pens = tuple(PenaltyRow(p.player, p.words, p.clause, p.card) for p in rep.penalties)
        return LurkSection(rows=rows, penalties=pens, accelerated=rep.accelerated)

    def _cards_section(self) -> CardsSection:
        colors = {"blue", "yellow", "red"}
        entries = tuple(CardRow(id=e.id, at=e.at.astimezone(self.ctx.game.tz), player=e.player or "",
                                color=e.color or "", clause=e.clause or "", reason=e.reason or "",
                                issuer="自动" if e.issuer == LADDER_ISSUER else (e.issuer or ""),
                                note="" if e.action == "issue" else ACTION_WORDS.get(e.action, e.action))
                        for e in self.cards.ledger()
                        if (e.color in colors) or e.action != "issue")
        standing = tuple(StandingRow(s.player, s.blue, s.yellow, s.red, STATUS_WORDS.get(s.status, s.status))
                         for s in self.cards.standing().values())
        return CardsSection(entries=entries, standing=standing)

    # ----------------------------------------------------------------------------- the report

    def _days(self) -> list[DayConfig]:
        """The days with their effective times (GameLog.effective_days: a delayed day closes later)."""
        return self.log.effective_days()

    def _day(self, day: int) -> DayConfig:
        self.ctx.game.day(day)  # the ConfigError for a day the game file lacks
        return next(d for d in self._days() if d.day == day)

    @one_request
    def day_report(self, day: int, kinds: Sequence[str] = KINDS, *, final: bool | None = None) -> DayReport:
        d = self._day(day)
        game = self.ctx.game
        now = self.ctx.clock.now()
        tally = self._tally_sections(day) if "tally" in kinds and d.vote else []
        notes = tuple(f"另有投票帖 {s.purpose}：{s.outcome}" for s in tally[1:])
        return DayReport(
            game=game.name, ruleset=self.ctx.ruleset.id, day=day, closes_at=d.closes.astimezone(game.tz),
            generated_at=now.astimezone(game.tz), final=(now >= d.closes) if final is None else final,
            lurk=self._lurk_section(day) if "lurkers" in kinds else None,
            tally=tally[0] if tally else None,
            cards=self._cards_section() if "cards" in kinds else None, notes=notes)

    @one_request
    def report_bbcode(self, day: int, kind: str) -> str:
        if kind == "tally":
            return tally_bbcode(self.votes.tally_day(day), self.ctx.game.tz)
        if kind == "lurkers":
            return self.lurking.lurkers_announcement(day)
        if kind == "cards":
            return self.cards.cards_announcement(day)
        raise ValueError(kind)

    @one_request
    def attention(self, day: int, kind: str) -> Attention:
        items: list[str] = []
        if kind in ("lurkers", "cards"):
            # a 潜水 penalty needs the director until it is a card (then the 公示 and the ledger agree)
            from tracker.penalties.lurk_cards import lurk_findings

            found = lurk_findings(day, self.lurking.lurkers(day).penalties, self.cards.ledger())
            items += [f"潜水待判罚：{f.penalty.player} {f.penalty.words}（{f.clause}）"
                      f"——tracker card GAME.toml from-lurker --day {day}"
                      for f in found if f.card is None]
        if kind == "tally":
            # a confirmed vote is settled: its invalid ballots were read at confirm and need nobody now
            confirmed = self.votes.confirmed_tids()
            for dt in self.votes.tally_day(day):
                if dt.tid in confirmed:
                    continue
                items += [f"{place_words(dt.tid, cb.ballot.floor)} {cb.voter}：{cb.verdict.message}"
                          for cb in dt.tally.invalid if cb.verdict]
                if self.ctx.clock.now() >= dt.tally.window.closes:
                    items.append(f"结果待确认：{dt.tally.outcome.message}")
        if kind == "cards":
            items += [f"待审违规 #{f.id} {place_words(f.tid, f.floor)} {f.author}：{KIND_WORDS.get(f.kind, f.kind)}"
                      for f in self.flag_review.flags(status="open")]
        return Attention(tuple(items))

    @one_request
    def write_reports(self, day: int, kinds: Sequence[str] = KINDS, *, final: bool | None = None,
                      suffix: str = "", force: bool = False, beside: bool = False) -> list[Path]:
        """Write each kind as .md, .bbcode and .html; returns the paths written. A report the
        director edited is never replaced silently (:mod:`tracker.service.report_files`): refused,
        or with ``beside`` written next to it; ``force`` replaces it."""
        written: list[Path] = []
        for kind in kinds:
            report = self.day_report(day, (kind,), final=final)
            stem = f"day{day}-{kind}{suffix}"
            files: dict[str, str] = {".md": render_markdown(report), ".html": render_html(report),
                                     ".bbcode": self.report_bbcode(day, kind)}
            written += [self.write_file(f"{stem}{ext}", text, force=force, beside=beside) for ext, text in files.items()]
        return written

    def write_file(self, name: str, text: str, *, force: bool = False, beside: bool = False) -> Path:
        """One report file in the reports directory, replaced atomically: a reader (a browser, a
        paste routine) never sees half a report, and a re-run replaces rather than multiplies; a
        file the director edited is kept (:func:`tracker.service.report_files.write_report`)."""
        out_dir = self.reports_dir()
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise _unwritable(out_dir, exc) from exc
        return write_report(out_dir, name, text, force=force, beside=beside)

    # ------------------------------------------------------------------- the director's own posts

    def _elevator_entries(self, day: int) -> tuple[int, list[ElevatorEntry]]:
        d = self._day(day)
        if d.discussion is None:
            raise ConfigError(f"第 {day} 日没有配置讨论帖", hint=f"在 [[days]] day = {day} 下加 discussion = tid")
        state = self.log.state(at=d.opens)
        with self.ctx.store.session() as s:
            posts = [p for p in posts_for_thread(s, d.discussion, include_deleted=False)
                     if d.opens <= p.posted_at <= d.closes]
        from tracker.service.roster_check import stored_uids

        # the uid from any stored post (a player not yet posting in this thread keeps their link)
        uid_of = {**stored_uids(self.ctx, [pl.name for pl in self.ctx.game.players if pl.uid is None]),
                  **{p.author: p.uid for p in posts if p.uid is not None}}
        entries = [ElevatorEntry(pl.name, pl.uid if pl.uid is not None else uid_of.get(pl.name),
                                 tuple(sorted(p.pid for p in posts if p.author == pl.name)))
                   for pl in self.ctx.game.players
                   if pl.name in state.players and state.players[pl.name].status != "out"]
        return d.discussion, entries

    @one_request
    def elevator_bbcode(self, day: int) -> str:
        """The 电梯楼 for a day's discussion thread, as the ruleset's rule post describes it."""
        tid, entries = self._elevator_entries(day)
        pub = self.ctx.ruleset.publication
        return elevator_bbcode(forum=self.ctx.game.forum, tid=tid, day=day, entries=entries, style=pub.elevator,
                               shuffle=pub.elevator_shuffle)

    @one_request
    def day_announcement_bbcode(self, day: int) -> str:
        """The 公示 that opens ``day``: the previous day's and night's 出局 lists in the rule post's order,
        the day's title holders and acceleration."""
        game, pub = self.ctx.game, self.ctx.ruleset.publication
        d = game.day(day)
        prev = next((x for x in game.days if x.day == day - 1), None)
        now_state = self.log.state(at=d.opens)
        out: list[OutEntry] = []
        elevator: list[str] = []
        if prev is not None:
            before = self.log.state(at=prev.opens)
            events = [e for e in self.log.events() if prev.opens < e.at <= d.opens]
            # 出局, or (M160) 【死亡】 too: "公示前一天白天【死亡】……失去最后一票的【出局】……夜晚【死亡】角色名单"
            for name, kind in announced_changes(before, now_state):
                ev = next((e for e in sorted(events, key=lambda e: (e.at, e.seq))
                           if e.player == name and (kind == "out" or e.kind == "died")), None)
                cause = str(given(ev.payload.cause, "")) if ev is not None else ""
                night = cause == "night" or (ev is not None and ev.at > prev.closes and cause != "vote")
                out.append(OutEntry(name, "night" if night else "day", ev.seq if ev is not None else 0, kind))
            if prev.discussion is not None:
                _, entries = self._elevator_entries(prev.day)
                elevator = [e.name for e in elevator_order(entries, shuffle=pub.elevator_shuffle,
                                                           tid=prev.discussion)]
        titles = [(t, now_state.holder(t) or "") for t in pub.titles]
        from tracker.reports.night_line import night_known

        return announce_day_bbcode(day=day, out=out, order=pub.out_order, elevator=elevator, titles=titles,
                                   accelerated=now_state.accelerated(day), living=len(now_state.living()),
                                   night_known=night_known(self.log.events(), day - 1,
                                                           any(e.phase == "night" for e in out)),
                                   dead_lists=self.ctx.ruleset.voting.dead_last_vote, last_words=pub.last_words)


def tally_bbcode(tallies: Sequence[DayTally], tz: tzinfo) -> str:
    """The 票型公示 of a day's vote thread(s), as `tracker report tally` and the TUI's `b` write it."""
    return "\n\n".join(announce_tally_bbcode(dt.tally, tz=tz) for dt in tallies)


def _unwritable(path: Path, exc: OSError) -> ConfigError:
    """A reports directory that cannot be written (a file in its place, no permission, disk full)."""
    return ConfigError(f"无法写入报告 {path}：{os_error_words(exc)}",
                       hint="检查 [schedule] reports_dir 指向的目录是否存在、可写（默认：游戏文件旁的 reports/）")

"""Reports: the day's tally, lurker and card reports in Markdown, BBCode and HTML, at stable paths.

The watcher writes them on its schedule and the cron commands on demand; both go through
:meth:`ReportOps.write_reports`, so a report looks the same whoever produced it. File names are
stable (``day2-lurkers.md``, ``day2-lurkers-warning.html`` …) so a director's bookmarks and a
forum paste routine keep working, and a re-run replaces a file rather than multiplying it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tracker.config import DayConfig
from tracker.engine.state import STATUS_WORDS
from tracker.errors import ConfigError, os_error_words
from tracker.penalties.ledger import ACTION_WORDS, LADDER_ISSUER
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
from tracker.service.base import ServiceBase

KINDS = ("tally", "lurkers", "cards")


@dataclass(frozen=True, slots=True)
class Attention:
    """What needs the director in a report: drives the cron exit code and the summary line."""

    items: tuple[str, ...]

    @property
    def needed(self) -> bool:
        return bool(self.items)


class ReportOps(ServiceBase):
    def reports_dir(self) -> Path:
        if self.game.schedule.reports_dir is not None:
            return self.game.schedule.reports_dir
        base = self.game.path.parent if self.game.path is not None else Path.cwd()
        return base / "reports"

    def current_day(self) -> int:
        """The day that is open now, else the last one that has opened (what a cron job means by "today")."""
        from tracker.errors import ConfigError

        now = self.clock.now()
        opened = [d for d in self._days() if d.opens <= now]
        if not opened:
            raise ConfigError("还没有任何一日开门", hint="用 --day N 指定日子")
        live = [d for d in opened if now <= d.closes]
        return (live or opened)[-1].day

    # ----------------------------------------------------------------- sections from the engine

    def _tally_sections(self, day: int) -> list[tuple[TallySection, str]]:
        from tracker.reports.announce_tally import PURPOSE_WORDS, announce_tally_bbcode

        out: list[tuple[TallySection, str]] = []
        for dt in self.tally_day(day):  # type: ignore[attr-defined]
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
            out.append((sec, announce_tally_bbcode(t, tz=self.game.tz)))
        return out

    def _lurk_section(self, day: int) -> LurkSection:
        rep = self.lurkers(day)  # type: ignore[attr-defined]
        d = self.game.day(day)
        minimum = self.ruleset.lurk.min_posts
        rows = tuple(LurkRow(player=name, posts=n, minimum=minimum,
                             voted=rep.voted.get(name) if d.vote else None,
                             invalid_only=name in rep.invalid_only, exempt=rep.exempt.get(name) or None)
                     for name, n in rep.posts.items())
        pens = tuple(PenaltyRow(p.player, p.words, p.clause, p.card) for p in rep.penalties)
        return LurkSection(rows=rows, penalties=pens, accelerated=rep.accelerated)

    def _cards_section(self) -> CardsSection:
        colors = {"blue", "yellow", "red"}
        entries = tuple(CardRow(id=e.id, at=e.at.astimezone(self.game.tz), player=e.player or "",
                                color=e.color or "", clause=e.clause or "", reason=e.reason or "",
                                issuer="自动" if e.issuer == LADDER_ISSUER else (e.issuer or ""),
                                note="" if e.action == "issue" else ACTION_WORDS.get(e.action, e.action))
                        for e in self.ledger()  # type: ignore[attr-defined]
                        if (e.color in colors) or e.action != "issue")
        standing = tuple(StandingRow(s.player, s.blue, s.yellow, s.red, STATUS_WORDS.get(s.status, s.status))
                         for s in self.standing().values())  # type: ignore[attr-defined]
        return CardsSection(entries=entries, standing=standing)

    # ----------------------------------------------------------------------------- the report

    def _days(self) -> list[DayConfig]:
        """The days with their effective times (StateOps.effective_days: a delayed day closes later)."""
        days: list[DayConfig] = self.effective_days()  # type: ignore[attr-defined]
        return days

    def _day(self, day: int) -> DayConfig:
        self.game.day(day)  # the ConfigError for a day the game file lacks
        return next(d for d in self._days() if d.day == day)

    def day_report(self, day: int, kinds: Sequence[str] = KINDS, *, final: bool | None = None) -> DayReport:
        d = self._day(day)
        now = self.clock.now()
        tally = self._tally_sections(day) if "tally" in kinds and d.vote else []
        notes = tuple(f"另有投票帖 {s.purpose}：{s.outcome}" for s, _ in tally[1:])
        return DayReport(
            game=self.game.name, ruleset=self.ruleset.id, day=day, closes_at=d.closes.astimezone(self.game.tz),
            generated_at=now.astimezone(self.game.tz), final=(now >= d.closes) if final is None else final,
            lurk=self._lurk_section(day) if "lurkers" in kinds else None,
            tally=tally[0][0] if tally else None,
            cards=self._cards_section() if "cards" in kinds else None, notes=notes)

    def report_bbcode(self, day: int, kind: str) -> str:
        if kind == "tally":
            return "\n\n".join(b for _, b in self._tally_sections(day))
        if kind == "lurkers":
            return str(self.lurkers_announcement(day))  # type: ignore[attr-defined]
        if kind == "cards":
            return str(self.cards_announcement(day))  # type: ignore[attr-defined]
        raise ValueError(kind)

    def attention(self, day: int, kind: str) -> Attention:
        items: list[str] = []
        if kind == "lurkers":
            rep = self.lurkers(day)  # type: ignore[attr-defined]
            items += [f"{p.player}：{p.words}（{p.clause}）" for p in rep.penalties]
        elif kind == "tally":
            from tracker.engine.events import effective

            live, _ = effective(self._recorded_events())  # type: ignore[attr-defined]
            confirmed = {int(e.get("vote_tid")) for e in live if e.get("vote_tid") is not None}
            for dt in self.tally_day(day):  # type: ignore[attr-defined]
                items += [f"{cb.ballot.floor}楼 {cb.voter}：{cb.verdict.message}" for cb in dt.tally.invalid
                          if cb.verdict]
                if dt.tid not in confirmed and self.clock.now() >= dt.tally.window.closes:
                    items.append(f"结果待确认：{dt.tally.outcome.message}")
        elif kind == "cards":
            from tracker.penalties.findings import KIND_WORDS

            items += [f"待处理违规 #{f.id} {f.floor}楼 {f.author}：{KIND_WORDS.get(f.kind, f.kind)}"
                      for f in self.flags(status="open")]  # type: ignore[attr-defined]
        return Attention(tuple(items))

    def write_reports(self, day: int, kinds: Sequence[str] = KINDS, *, final: bool | None = None,
                      suffix: str = "") -> list[Path]:
        """Write each kind as .md, .bbcode and .html; returns the paths written."""
        out_dir = self.reports_dir()
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise _unwritable(out_dir, exc) from None
        from tracker.reports.html import render_html
        from tracker.reports.markdown import render_markdown
        from tracker.safefile import write_atomic

        written: list[Path] = []
        for kind in kinds:
            report = self.day_report(day, (kind,), final=final)
            stem = f"day{day}-{kind}{suffix}"
            files: dict[str, str] = {".md": render_markdown(report), ".html": render_html(report),
                                     ".bbcode": self.report_bbcode(day, kind)}
            for ext, text in files.items():
                path = out_dir / f"{stem}{ext}"
                try:
                    write_atomic(path, text)  # atomic, through an O_EXCL temporary: never a planted .tmp
                except OSError as exc:
                    raise _unwritable(path, exc) from None
                written.append(path)
        return written

    # ------------------------------------------------------------------- the director's own posts

    def _elevator_entries(self, day: int) -> tuple[int, list[Any]]:
        from tracker.reports.elevator import ElevatorEntry
        from tracker.store.posts import posts_for_thread

        d = self._day(day)
        if d.discussion is None:
            from tracker.errors import ConfigError

            raise ConfigError(f"第 {day} 日没有配置讨论帖", hint=f"在 [[days]] day = {day} 下加 discussion = tid")
        state = self.game_state(at=d.opens)  # type: ignore[attr-defined]
        with self.store.session() as s:
            posts = [p for p in posts_for_thread(s, d.discussion, include_deleted=False)
                     if d.opens <= p.posted_at <= d.closes]
        uid_of = {p.author: p.uid for p in posts if p.uid is not None}
        entries = [ElevatorEntry(pl.name, pl.uid if pl.uid is not None else uid_of.get(pl.name),
                                 tuple(sorted(p.pid for p in posts if p.author == pl.name)))
                   for pl in self.game.players
                   if pl.name in state.players and state.players[pl.name].status != "out"]
        return d.discussion, entries

    def elevator_bbcode(self, day: int) -> str:
        """The 电梯楼 for a day's discussion thread, as the ruleset's rule post describes it."""
        from tracker.reports.elevator import elevator_bbcode

        tid, entries = self._elevator_entries(day)
        pub = self.ruleset.publication
        return elevator_bbcode(forum=self.game.forum, tid=tid, day=day, entries=entries, style=pub.elevator,
                               shuffle=pub.elevator_shuffle)

    def day_announcement_bbcode(self, day: int) -> str:
        """The 公示 that opens ``day``: the previous day's and night's 出局 lists in the rule post's order,
        the day's title holders and acceleration."""
        from tracker.reports.announce_day import OutEntry, announce_day_bbcode, announced_changes
        from tracker.reports.elevator import elevator_order

        d = self.game.day(day)
        prev = next((x for x in self.game.days if x.day == day - 1), None)
        now_state = self.game_state(at=d.opens)  # type: ignore[attr-defined]
        out: list[OutEntry] = []
        elevator: list[str] = []
        if prev is not None:
            before = self.game_state(at=prev.opens)  # type: ignore[attr-defined]
            events = [e for e in self.all_events() if prev.opens < e.at <= d.opens]  # type: ignore[attr-defined]
            for name, kind in announced_changes(before, now_state):
                ev = next((e for e in sorted(events, key=lambda e: (e.at, e.seq))
                           if e.player == name and (kind == "out" or e.kind == "died")), None)
                cause = str(ev.get("cause", "")) if ev is not None else ""
                night = cause == "night" or (ev is not None and ev.at > prev.closes and cause != "vote")
                out.append(OutEntry(name, "night" if night else "day", ev.seq if ev is not None else 0, kind))
            if prev.discussion is not None:
                _, entries = self._elevator_entries(prev.day)
                elevator = [e.name for e in elevator_order(entries, shuffle=self.ruleset.publication.elevator_shuffle,
                                                           tid=prev.discussion)]
        pub = self.ruleset.publication
        titles = [(t, now_state.holder(t) or "") for t in pub.titles]
        return announce_day_bbcode(day=day, out=out, order=pub.out_order, elevator=elevator, titles=titles,
                                   accelerated=now_state.accelerated(day), living=len(now_state.living()),
                                   dead_lists=self.ruleset.voting.dead_last_vote, last_words=pub.last_words)

    def report_json(self, day: int, kind: str) -> dict[str, Any]:
        att = self.attention(day, kind)
        return {"day": day, "kind": kind, "needs_director": att.needed, "items": list(att.items),
                "bbcode": self.report_bbcode(day, kind)}


def _unwritable(path: Path, exc: OSError) -> ConfigError:
    """A reports directory that cannot be written (a file in its place, no permission, disk full)."""
    return ConfigError(f"无法写入报告 {path}：{os_error_words(exc)}",
                       hint="检查 [schedule] reports_dir 指向的目录是否存在、可写（默认：游戏文件旁的 reports/）")

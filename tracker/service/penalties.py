"""Penalties: flag review, the card ledger and its audit trail, lurking, and their announcements.

The ledger's decisions are pure (:mod:`tracker.penalties.ledger`); this mixin loads the entries,
asks the ledger what to append, appends it in one transaction together with the flag's new status,
and records a red card's effect on the game (挂机 / 出局 / 丑角 / 阵营判负) as game events, so the
game state — a fold over events — sees it like any other elimination.
"""

from __future__ import annotations

import difflib
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tracker.engine.state import STATUS_WORDS
from tracker.errors import GameRuleError
from tracker.penalties import ledger as L
from tracker.penalties.review import (
    CardSuggestion,
    Flag,
    check_card,
    check_dismiss,
    fresh_findings,
    suggest_card,
)
from tracker.service.base import ServiceBase

if TYPE_CHECKING:
    from datetime import datetime

    from sqlmodel import Session


SPAM_REACH = 40
"""Floors either side of a new or changed post that the run detector (水帖) looks at."""


@dataclass(frozen=True, slots=True)
class CardDecision:
    """What one decision wrote: the entry the director asked for, every entry written with it, and
    the game events its red cards caused."""

    entry: L.Entry
    written: tuple[L.Entry, ...]
    consequences: tuple[L.Consequence, ...] = ()
    events: tuple[str, ...] = ()
    """What the red cards did to the game, in the director's words (Chinese)."""
    recorded: tuple[str, ...] = ()
    """The game events appended to the log (``kind:player#seq``)."""


@dataclass(frozen=True, slots=True)
class PlayerStanding:
    player: str
    blue: int
    yellow: int
    red: int
    status: str


@dataclass(frozen=True, slots=True)
class DetectionRun:
    """One detection pass: how many posts were scanned (new or changed only) and the flags it added."""

    scanned: int
    new_flags: tuple[Flag, ...] = ()
    skipped: int = 0


@dataclass
class _Ctx:
    key: str
    extra: dict[str, Any] = field(default_factory=dict)


def entry_json(e: L.Entry) -> dict[str, Any]:
    """A ledger entry as the CLI prints it (stable English keys)."""
    return {
        "id": e.id, "action": e.action, "player": e.player, "color": e.color, "clause": e.clause,
        "reason": e.reason, "post": e.post, "flag": e.flag, "issuer": e.issuer, "at": e.at.isoformat(),
        "ref": e.ref, "consumed": list(e.consumed), "evidence": e.evidence, "prev_hash": e.prev_hash,
        "hash": e.hash,
    }


def decision_json(d: CardDecision) -> dict[str, Any]:
    out = entry_json(d.entry)
    out["written"] = [entry_json(e) for e in d.written]
    out["events"] = list(d.events)
    out["recorded_events"] = list(d.recorded)
    return out


class PenaltyOps(ServiceBase):
    # ------------------------------------------------------------------------------ the ledger

    def ladder(self) -> L.Ladder:
        rules = self.ruleset.cards
        return L.Ladder(blue_to_yellow=rules.blue_to_yellow, yellow_to_red=rules.yellow_to_red)

    def ledger(self) -> list[L.Entry]:
        from tracker.store.penalties import load_entries

        with self.store.session() as s:
            return load_entries(session=s)

    def verify_ledger(self) -> L.Verification:
        from tracker.store.penalties import load_entries, load_head

        with self.store.session() as s:
            return L.verify(load_entries(session=s), load_head(session=s))

    def card_history(self, card_id: int) -> list[L.Entry]:
        """One card's audit trail: the card, what merged it, what undid or replaced it, in order."""
        entries = self.ledger()
        st = L.fold(entries)
        st.entry(card_id)
        related = {card_id}
        changed = True
        while changed:
            changed = False
            for e in entries:
                if e.id in related:
                    continue
                if (e.ref in related) or any(c in related for c in e.consumed) or \
                        (e.action == "convert" and any(x.id in related and x.consumed_by == e.id
                                                       for x in st.cards.values())):
                    related.add(e.id)
                    changed = True
        return [e for e in entries if e.id in related]

    def standing(self) -> dict[str, PlayerStanding]:
        """Every player's cards now held, with their status in the game (alive/dead/out/benched)."""
        entries = self.ledger()
        names = [self._account(p) for p in self.game.player_names]
        stands = L.standings(entries, names)
        status = self._statuses()
        return {p: PlayerStanding(p, s.blue, s.yellow, s.red, status.get(p, "alive")) for p, s in stands.items()}

    def cards(self) -> dict[str, Any]:
        """The `tracker cards --json` document."""
        return {
            "ledger": [entry_json(e) for e in self.ledger()],
            "standing": {p: {"blue": s.blue, "yellow": s.yellow, "red": s.red, "status": s.status}
                         for p, s in self.standing().items()},
        }

    def issue_card(self, player: str, color: str, clause: str | None, reason: str, *, post: int | None = None,
                   by: str | None = None, flag: int | None = None, at: datetime | None = None) -> CardDecision:
        """Give a card; the ladder's conversions and the red card's consequence follow as their own entries.

        ``at``: when the violation is settled (default now). A red's consequence takes effect then, and
        the ruleset's ``red_settled`` places it before or after that day's vote: a director settling a
        day's red after its close dates it at the close (213: "白天结束时红牌罚下的出局结算在投票结算之前执行").
        """
        account = self._known_player(player)
        if color not in L.COLORS:
            raise GameRuleError(f"牌色 {color!r} 无效", hint="可选：blue（蓝牌）、yellow（黄牌）、red（红牌）")
        issuer = self._issuer(by)
        at = at or self.clock.now()
        with self.store.session() as s:
            evidence = self._evidence(post, session=s) if post is not None else None
            if flag is not None:
                from tracker.store.penalties import decide_flag, get_flag

                fl = get_flag(flag, session=s)
                check_card(fl)
                evidence = fl.html_hash
                post = fl.pid if post is None else post
            return self._decide(s, lambda entries: L.issue(
                entries, player=account, color=color, clause=clause, reason=reason,  # type: ignore[arg-type]
                issuer=issuer, at=at, ladder=self.ladder(), post=post, flag=flag, evidence=evidence),
                primary="issue", after=(lambda e: decide_flag(
                    flag, status="carded", by=issuer, at=at, reason=e.reason, card=e.id, session=s))
                if flag is not None else None)

    def revoke_card(self, card_id: int, reason: str, *, by: str | None = None) -> CardDecision:
        """A pardon: a new entry naming the card; a conversion it was part of is undone as new entries."""
        issuer = self._issuer(by)
        at = self.clock.now()
        with self.store.session() as s:
            return self._decide(s, lambda entries: L.revoke(entries, card_id, reason=reason, issuer=issuer, at=at,
                                                            ladder=self.ladder()), primary="revoke")

    def amend_card(self, card_id: int, reason: str, *, color: str | None = None, clause: str | None = None,
                   by: str | None = None) -> CardDecision:
        issuer = self._issuer(by)
        at = self.clock.now()
        if color is not None and color not in L.COLORS:
            raise GameRuleError(f"牌色 {color!r} 无效", hint="可选：blue、yellow、red")
        with self.store.session() as s:
            return self._decide(s, lambda entries: L.amend(
                entries, card_id, reason=reason, issuer=issuer, at=at, ladder=self.ladder(),
                color=color, clause=clause), primary="amend")  # type: ignore[arg-type]

    def _decide(self, s: Session, make: Any, *, primary: str, after: Any = None) -> CardDecision:
        from tracker.store.penalties import append_entries, load_entries, load_head

        before = load_entries(session=s)
        check = L.verify(before, load_head(session=s))
        if not check.ok:
            raise L_broken(check)
        drafts = make(before)
        written = L.chain(drafts, after=before[-1] if before else None)
        append_entries(written, session=s)
        if self.game.ledger.key_file is not None:  # the keyed local seal, once the append is committed
            from sqlalchemy import event

            from tracker.penalties.anchor import seal

            key_file, last = self.game.ledger.key_file, written[-1]
            event.listen(s, "after_commit", lambda _s: seal(key_file, last), once=True)
        main = next(e for e in written if e.action == primary)
        if after is not None:
            after(main)
        cards = self.ruleset.cards
        cons = L.consequences(before, [*before, *written], factions=self._factions(),
                              faction_loses_at_reds=cards.faction_loses_at_reds)
        recorded = self._record_consequences(cons, written, session=s) if cons else []
        return CardDecision(main, tuple(written), tuple(cons), tuple(self._consequence_words(cons)),
                            tuple(recorded))

    # --------------------------------------------------------------------------------- flags

    def detect_flags(self) -> DetectionRun:
        """Run the detectors on the posts that are new or changed since the last run (the watermark)."""
        from tracker.store.penalties import add_flags, known_flag_keys, mark_scanned, posts_near, unscanned

        tids = self.game.thread_ids()
        ctx = self._detect_context()
        with self.store.session() as s:
            todo = unscanned(tids, context_key=ctx.key, session=s)
            if not todo:
                return DetectionRun(scanned=0)
            wanted = {m.pid for m in todo}
            near = posts_near(todo, reach=SPAM_REACH, session=s)
            around = [p.to_post() for p in near]
            posts = [p for p in around if p.pid in wanted]
            findings = self._run_detectors(posts, ctx, neighbours=around)
            fresh = fresh_findings(findings, known_flag_keys(session=s))
            html = {p.pid: p.html for p in near}
            new = add_flags(fresh, html_by_pid=html, detected_at=self.clock.now(), session=s)
            mark_scanned(todo, context_key=ctx.key, at=self.clock.now(), session=s)
            return DetectionRun(scanned=len(posts), new_flags=tuple(new))

    def flags(self, *, detect: bool = True, status: str | None = None) -> list[Flag]:
        """Every flag (open first for the TUI's queue is the caller's choice); detection runs first."""
        from tracker.store.penalties import list_flags

        if detect:
            self.detect_flags()
        with self.store.session() as s:
            return list_flags(session=s, status=status)

    def flag_count(self, *, status: str | None = None) -> int:
        """Stored flags counted by the database; never runs the detectors."""
        from tracker.store.penalties import count_flags

        with self.store.session() as s:
            return count_flags(session=s, status=status)

    def flag(self, flag_id: int) -> Flag:
        from tracker.store.penalties import get_flag

        with self.store.session() as s:
            return get_flag(flag_id, session=s)

    def dismiss_flag(self, flag_id: int, reason: str, *, by: str | None = None) -> Flag:
        from tracker.store.penalties import decide_flag, get_flag

        with self.store.session() as s:
            why = check_dismiss(get_flag(flag_id, session=s), reason)
            return decide_flag(flag_id, status="dismissed", by=self._issuer(by), at=self.clock.now(),
                               reason=why, session=s)

    def suggest_card(self, flag_id: int, *, reported: bool = False) -> CardSuggestion:
        """The TUI's `c` key: colour, clause and reason prefilled from the flag and the player's record."""
        fl = self.flag(flag_id)
        check_card(fl)
        return suggest_card(fl, self.ledger(), reported=reported)

    def card_from_flag(self, flag_id: int, *, color: str | None = None, clause: str | None = None,
                       reason: str | None = None, by: str | None = None, reported: bool = False) -> CardDecision:
        """Turn a flag into a card (the director confirmed the suggestion, perhaps changed); a clause that
        doubles the penalty for a reported player (``reported``) gives the second card too."""
        sug = self.suggest_card(flag_id, reported=reported)
        first = self.issue_card(sug.player, color or sug.color, clause or sug.clause, reason or sug.reason,
                                post=sug.post, by=by, flag=flag_id)
        if sug.count < 2:
            return first
        second = self.issue_card(sug.player, color or sug.color, clause or sug.clause,
                                 f"{reason or sug.reason}（被举报者加倍判罚）", post=sug.post, by=by)
        return CardDecision(first.entry, first.written + second.written, first.consequences + second.consequences,
                            first.events + second.events, first.recorded + second.recorded)

    # --------------------------------------------------------------------------------- helpers

    def _issuer(self, by: str | None) -> str:
        if by and by.strip():
            return by.strip()
        return self.game.directors[0] if self.game.directors else "导演"

    def _known_player(self, name: str) -> str:
        n = name.strip()
        names = list(self.game.player_names) + list(self._substitutes())
        if n not in names:
            near = difflib.get_close_matches(n, names, n=3)
            raise GameRuleError(f"游戏里没有玩家 {n!r}",
                                hint=f"是不是：{'、'.join(near)}？" if near else "玩家名须与游戏文件 [[players]] 一致")
        return self._account(n)

    def _evidence(self, pid: int, *, session: Session) -> str:
        from tracker.store.tables import PostRow

        row = session.get(PostRow, pid)
        if row is None:
            raise GameRuleError(f"数据库里没有帖子 pid {pid}", hint="先运行 `tracker crawl GAME.toml` 抓取，或去掉 --post")
        return str(row.html_hash)

    def _factions(self) -> dict[str, str | None]:
        return {self._account(p.name): p.faction for p in self.game.players}

    def _detect_context(self) -> _Ctx:
        """The detectors' context and its fingerprint: when it changes (a player goes out, a lexicon
        file is edited, the ruleset changes), every post is scanned again under it."""
        from tracker.penalties.detect import DetectContext

        threads: dict[int, Any] = {}
        if self.game.process_thread is not None:
            threads[self.game.process_thread] = "process"
        for d in self.game.days:
            if d.discussion is not None:
                threads[d.discussion] = "discussion"
            for v in d.vote:
                threads[v] = "vote"
        timeline = self._timeline()
        kidnaps = self._kidnaps()
        lexicons = self._lexicon_paths()
        ctx = DetectContext(players=list(self.game.player_names), directors=list(self.game.directors),
                            threads=threads, timeline=timeline, kidnaps=kidnaps, lexicon_paths=lexicons,
                            extra_names=list(self._substitutes()), ruleset=self.ruleset)
        fingerprint = {
            "ruleset": self.ruleset.id, "options": {k: repr(v) for k, v in sorted(self.ruleset.option_values.items())},
            "players": ctx.players, "directors": ctx.directors, "extra": list(ctx.extra_names),
            "threads": {str(k): v for k, v in sorted(threads.items())},
            "timeline": [[c.player, c.status, c.at.isoformat()] for c in timeline],
            "kidnaps": [[k.player, k.starts.isoformat(), k.ends.isoformat()] for k in kidnaps],
            "lexicons": _files_digest([*lexicons, _builtin_lexicons()]),
            "detector": _files_digest([Path(__file__).parents[1] / "penalties"]),
        }
        raw = json.dumps(fingerprint, ensure_ascii=False, sort_keys=True)
        return _Ctx(hashlib.sha256(raw.encode()).hexdigest(), {"context": ctx})

    def _run_detectors(self, posts: list[Any], ctx: _Ctx, *, neighbours: list[Any] | None = None) -> list[Any]:
        """Per-post detectors on the new or changed posts only; the run detector (水帖) sees their
        whole threads, since a run is judged over consecutive posts (dedup keeps old runs single)."""
        from dataclasses import replace as _replace

        from tracker.penalties.detect import Detector

        context = ctx.extra["context"]
        per_post = Detector(_replace(context, detectors=context.detectors - {"spam"}))
        found = per_post.run(posts)
        if "spam" in context.detectors:
            spam = Detector(_replace(context, detectors=frozenset({"spam"})))
            pids = {p.pid for p in posts}
            found += [f for f in spam.run(neighbours if neighbours is not None else posts)
                      if f.pid in pids or pids.intersection(f.related_pids)]
        return found

    def _lexicon_paths(self) -> list[Path]:
        """A ``lexicons/`` folder next to the game file holds the director's own word lists."""
        if self.game.path is None:
            return []
        folder = self.game.path.parent / "lexicons"
        return [folder] if folder.is_dir() else []

    # -- from the game state: hooks that StateOps (tracker/service/state.py) provides ----------------
    # One fold answers "is this player out?" for every area; these declarations only give the
    # penalties area their types. Service puts StateOps before PenaltyOps, so its methods win.

    def all_events(self) -> list[Any]:
        raise NotImplementedError("provided by StateOps")

    def _substitutes(self) -> dict[str, str]:
        """substitute's name → the account (game-file player) they play: cards stay with the account
        (M65: "替补玩家……继承前任玩家受到的一切判罚")."""
        raise NotImplementedError("provided by StateOps")

    def _statuses(self) -> dict[str, str]:
        raise NotImplementedError("provided by StateOps")

    def _timeline(self) -> list[Any]:
        """When each player's status changed (出局, 挂机, 死亡, back), for 诈尸 and posting while benched."""
        raise NotImplementedError("provided by StateOps")

    def _kidnaps(self) -> list[Any]:
        raise NotImplementedError("provided by StateOps")

    def _record_consequences(self, cons: Sequence[L.Consequence], written: Sequence[L.Entry], *,
                             session: Session) -> list[str]:
        """Append the red cards' game events (built by :func:`consequence_drafts`) in the ledger's
        own transaction, so the ledger and the game state move together or not at all."""
        raise NotImplementedError("provided by StateOps")

    def _account(self, name: str) -> str:
        return self._substitutes().get(name, name)

    def _game_state(self, *, until: Any = None) -> Any:
        """The fold of the events strictly before ``until`` (None: all of them)."""
        from tracker.engine.state import fold

        events = self.all_events()
        if until is not None:
            events = [e for e in events if e.at < until]
        return fold(self.ruleset, self.game.players, events, self.game.days)

    def _consequence_words(self, cons: Sequence[L.Consequence]) -> list[str]:
        """What the red cards did, in the rule posts' words (for the director's confirmation)."""
        rules = self.ruleset.cards
        what = STATUS_WORDS.get(rules.red_consequence, rules.red_consequence)
        words: list[str] = []
        for c in cons:
            if c.kind == "red_card":
                extra = f"，成为{rules.red_turns_role}" if rules.red_turns_role else ""
                words.append(f"{c.player} 红牌罚下：{what}{extra}")
            elif c.kind == "red_card_undone":
                words.append(f"{c.player} 的红牌已撤销：恢复为红牌前的状态")
            elif c.kind == "red_card_again":
                words.append(f"{c.player} 再获红牌（已罚下）：计入阵营红牌数")
            elif c.kind == "red_card_again_undone":
                words.append(f"{c.player} 的又一张红牌已撤销：阵营红牌数减一")
            elif c.kind == "faction_lost":
                words.append(f"{c.faction}阵营累计 {c.reds} 张红牌：阵营判负")
            elif c.kind == "faction_loss_undone":
                words.append(f"{c.faction}阵营红牌减为 {c.reds} 张：撤销阵营判负")
        return words

    # ------------------------------------------------------------------------------- lurking

    def lurkers(self, day: int) -> Any:
        """The day's 潜水 report (tracker.penalties.lurk.LurkReport), the three-day rule carried
        from day 1; statuses are those at the day's close, votes those the tally counted."""
        from dataclasses import replace
        from datetime import timedelta

        from tracker.engine.identity import Authors
        from tracker.penalties.lurk import lurk_reports
        from tracker.store.posts import author_uid_post_counts

        self.game.day(day)
        # one scope: the event log read once, day 1's count shared with day 2's provisional election
        with self.tally_scope():  # type: ignore[attr-defined]
            inputs = [self._lurk_input(d.day) for d in self.game.days if d.day <= day]
        # The store counts (an indexed GROUP BY per day): no post row crosses into Python, so the
        # TUI's 潜水 worker does not hold the GIL for a 30k-post game. The window's close is
        # inclusive (a post at 22:00:00 counts), the query's end exclusive: one microsecond past.
        authors = Authors(self.game.players)  # posts are a player's by uid, never by a look-alike name
        with self.store.session() as s:
            inputs = [replace(i, counts=authors.count_by_player(author_uid_post_counts(
                s, i.window.discussion_tid, i.window.opens, i.window.closes + timedelta(microseconds=1),
                include_deleted=False))) if i.window.discussion_tid is not None else i for i in inputs]
        reports = lurk_reports(inputs, (), self.ruleset.lurk)
        return next(r for r in reports if r.day == day)

    def _lurk_input(self, day: int) -> Any:
        from tracker.penalties.lurk import DayWindow, LurkDayInput, PlayerDay

        d = self.game.day(day)
        # StateOps.day_status: the same times and acceleration the tally's window uses (加速 suspends 潜水)
        status = self.day_status(day, requests=False)  # type: ignore[attr-defined]
        state = self._game_state(until=status.closes)
        kidnapped = {k.player for k in self._kidnaps() if k.starts < status.closes and k.ends > status.opens}
        players = [PlayerDay(name, {"dead": "dead_not_out"}.get(str(p.status), str(p.status)),  # type: ignore[arg-type]
                             kidnapped=name in kidnapped)
                   for name, p in state.players.items()]
        valid, invalid = self._voters(day) if d.vote else (set(), set())
        window = DayWindow(day=day, discussion_tid=d.discussion, opens=status.opens, closes=status.closes,
                           accelerated=status.accelerated)
        return LurkDayInput(window=window, players=players, valid_voters=valid, invalid_voters=invalid)

    def _voters(self, day: int) -> tuple[set[str], set[str]]:
        """(players with a counted ballot, players whose ballots were all invalid), from the tally."""
        tally_day = getattr(self, "tally_day", None)
        if tally_day is None:  # pragma: no cover - the Service always has VoteOps
            raise GameRuleError("计票功能不可用，无法判断是否投票")
        valid: set[str] = set()
        tried: set[str] = set()
        for dt in tally_day(day):
            t = dt.tally
            # `final` lists every voter; those without a counted ballot are `no_vote` / `auto_abstain`
            valid |= {v for v in t.final if v not in t.no_vote and v not in t.auto_abstain}
            tried |= {b.voter for b in t.ballots}
        return valid, tried - valid

    # --------------------------------------------------------------------------- announcements

    def cards_announcement(self, day: int) -> str:
        """判罚公示 for one day: the decisions between the day's opening and the next day's."""
        from tracker.penalties.anchor import anchor_line
        from tracker.reports.announce_cards import RedOff, cards_bbcode

        d = self.game.day(day)
        later = [x.opens for x in self.game.days if x.opens > d.opens]
        end = min(later) if later else None
        entries = self.ledger()
        upto = [e for e in entries if end is None or e.at < end]
        before = [e for e in entries if e.at < d.opens]
        todays = [e for e in upto if e.at >= d.opens]
        cons = L.consequences(before, upto, factions=self._factions(),
                              faction_loses_at_reds=self.ruleset.cards.faction_loses_at_reds)
        reds = [RedOff(c.player, self.ruleset.cards.red_consequence) for c in cons
                if c.kind == "red_card" and c.player]
        lost = [c.faction for c in cons if c.kind == "faction_lost" and c.faction]
        names = [self._account(p) for p in self.game.player_names]
        return cards_bbcode(day, todays, L.standings(upto, names), reds=reds, lost_factions=lost,
                            floors=self._floors([e.post for e in todays if e.post is not None]), tz=self.game.tz,
                            anchor=anchor_line(entries))

    def lurkers_announcement(self, day: int) -> str:
        from tracker.reports.announce_cards import LurkLine, lurkers_bbcode

        rep = self.lurkers(day)
        d = self.game.day(day)
        now = self.clock.now()
        by_player: dict[str, list[tuple[str, str]]] = {}
        for p in rep.penalties:
            by_player.setdefault(p.player, []).append((p.rule, p.clause))
        rows = [LurkLine(name, n, rep.voted.get(name) if d.vote else None,
                         tuple(by_player.get(name, ())), rep.exempt.get(name, ""))
                for name, n in rep.posts.items()]
        return lurkers_bbcode(day, rows, min_posts=self.ruleset.lurk.min_posts, accelerated=rep.accelerated,
                              final=now >= d.closes, as_of=min(now, d.closes), tz=self.game.tz)

    def _floors(self, pids: list[int]) -> dict[int, int]:
        if not pids:
            return {}
        from sqlalchemy import select

        from tracker.store.tables import PostRow

        post_t = PostRow.__table__  # type: ignore[attr-defined]
        with self.store.session() as s:
            rows = s.connection().execute(select(post_t.c.pid, post_t.c.floor).where(post_t.c.pid.in_(pids)))
            return {int(r[0]): int(r[1]) for r in rows}


def _builtin_lexicons() -> Path:
    return Path(__file__).parents[1] / "penalties" / "lexicons"


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


def consequence_drafts(cons: Sequence[L.Consequence], *, events: Sequence[Any], red_consequence: str,
                       at: Any, by: str) -> list[Any]:
    """A red card's effect as game events (pure): ``card_consequence`` when a player's first live red
    appears, an ``undo`` of that event when their last live red is gone.

    The engine's fold applies the ruleset to ``card_consequence`` (挂机 or 出局, M160's 丑角, a
    faction's second red losing it in 213/M19), so faction losses are not recorded separately: the
    state derives them, and undoing the red undoes the loss.
    """
    from tracker.engine.events import EventKind, effective, make_draft

    live, _ = effective(list(events))
    out: list[Any] = []
    undone: set[int] = set()
    for c in cons:
        if c.kind in ("red_card", "red_card_again") and c.player is not None:
            data: dict[str, Any] = {"color": "red", "consequence": red_consequence, "ledger_id": c.card}
            if c.kind == "red_card_again":
                data["again"] = True  # counted for the faction; the player is already carded off
            out.append(make_draft(EventKind.CARD_CONSEQUENCE.value, at=at, player=c.player, recorded_by=by,
                                  data=data))
        elif c.kind == "red_card_again_undone" and c.player is not None:
            again = [e for e in live if e.kind == EventKind.CARD_CONSEQUENCE and e.player == c.player
                     and e.data.get("again") and e.seq not in undone]
            same = [e for e in again if e.data.get("ledger_id") == c.card]
            for e in (same or again)[-1:]:
                undone.add(e.seq)
                out.append(make_draft(EventKind.UNDO.value, at=at, recorded_by=by,
                                      data={"seq": e.seq, "reason": f"红牌（记牌账本第 {c.card} 条）已撤销"}))
        elif c.kind == "red_card_undone" and c.player is not None:
            mine = [e for e in live if e.kind == EventKind.CARD_CONSEQUENCE and e.player == c.player
                    and str(e.data.get("color", "red")) == "red"]
            for e in mine:
                out.append(make_draft(EventKind.UNDO.value, at=at, recorded_by=by,
                                      data={"seq": e.seq, "reason": f"红牌（记牌账本第 {c.card} 条）已撤销"}))
    return out


def L_broken(v: L.Verification) -> Exception:
    from tracker.errors import LedgerBrokenError

    return LedgerBrokenError(f"记牌账本校验失败：{v.problem}（第 {v.broken_at} 条）",
                             hint="账本在记牌工具之外被改动；先用 `tracker cards GAME.toml verify` 查看，再从备份恢复")


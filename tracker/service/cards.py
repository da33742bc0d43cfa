"""Cards: the card ledger, its audit trail and its announcement (判罚公示).

The ledger's decisions are pure (:mod:`tracker.penalties.ledger`); this service loads the entries,
asks the ledger what to append, appends it in one transaction together with the flag's new status,
and records a red card's effect on the game (挂机 / 出局 / 丑角 / 阵营判负) as game events, so the
game state — a fold over events — sees it like any other elimination.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import event
from sqlmodel import Session

from tracker.engine.events import Event, EventDraft, EventKind, effective, given, make_draft
from tracker.engine.roster_names import did_you_mean
from tracker.engine.state import STATUS_WORDS, GameState
from tracker.errors import GameRuleError, LedgerBrokenError
from tracker.penalties import ledger as L
from tracker.penalties.anchor import (
    Anchor,
    SealCheck,
    SealPen,
    anchor_line,
    anchors_in,
    check_anchor,
    check_seals,
    load_key,
)
from tracker.penalties.review import check_card
from tracker.reports.announce_cards import RedOff, cards_bbcode
from tracker.service.context import GameContext
from tracker.service.request import one_request
from tracker.store.penalties import append_entries, decide_flag, get_flag, load_entries, load_head

if TYPE_CHECKING:  # the services this one is given (tracker.service composes them)
    from pathlib import Path

    from tracker.jsonvalue import JSON
    from tracker.records import Post
    from tracker.service.gamelog import GameLog
    from tracker.service.night_desk import NightDesk
    from tracker.store.posts import StoredPost


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
class LedgerAudit:
    """The ledger against every witness kept outside its tables: the chain, the anchors (given, and
    those the directors posted in the process thread) and the keyed local seal. ``problems`` lists
    what failed, the chain's first; ``source`` says where the process thread was read ("": not at all)."""

    chain: L.Verification
    problems: tuple[str, ...]
    given: int
    posted: int
    source: str
    key_file: Path | None
    sealed: int
    covers: int

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def anchored(self) -> int:
        return self.given + self.posted


@dataclass(frozen=True, slots=True)
class PlayerStanding:
    player: str
    blue: int
    yellow: int
    red: int
    status: str


class Cards:
    """The card ledger: every decision a new hash-chained entry, a red card's effect a game event."""

    def __init__(self, ctx: GameContext, log: GameLog, desk: Callable[[Session], NightDesk] | None = None) -> None:
        self.ctx = ctx
        self.log = log
        #: The night desk over a transaction: a red card's 出局 settles there with what it sets off.
        self._desk = desk

    # ------------------------------------------------------------------------------ the ledger

    def ladder(self) -> L.Ladder:
        rules = self.ctx.ruleset.cards
        return L.Ladder(blue_to_yellow=rules.blue_to_yellow, yellow_to_red=rules.yellow_to_red)

    def ledger(self) -> list[L.Entry]:
        with self.ctx.store.session() as s:
            return load_entries(session=s)

    def verify_ledger(self) -> L.Verification:
        """The chain, and with ``[ledger] key_file`` the local seal: every entry covered by a keyed seal."""
        with self.ctx.store.session() as s:
            entries = load_entries(session=s)
            v = L.verify(entries, load_head(session=s))
        return self._sealed(v, entries) if v.ok else v

    def audit(self, given: Sequence[Anchor] = (), process_posts: Sequence[Post] | None = None,
              source: str = "") -> LedgerAudit:
        """The chain, then each witness kept outside the database, each named with what it was read
        from (`tracker cards verify`, the TUI's 判罚 screen). ``process_posts`` (the process thread
        read from the forum, named by ``source``) replaces the database's copy of it."""
        from tracker.store.posts import posts_for_thread

        game = self.ctx.game
        posts: Sequence[Post | StoredPost] = process_posts or ()
        with self.ctx.store.session() as s:
            entries = load_entries(session=s)
            v = L.verify(entries, load_head(session=s))
            if process_posts is None and game.process_thread is not None:
                posts = posts_for_thread(s, game.process_thread)
                source = f"数据库里进程帖（帖 {game.process_thread}）的副本"
        # the anchors the directors posted (a player's post may not vouch for the ledger)
        posted = anchors_in((f"进程帖 {p.floor} 楼", p.text) for p in posts if p.author in game.directors)
        problems = [] if v.ok else [f"{v.problem}（第 {v.broken_at} 条）"]
        problems += [p for a in (*given, *posted) if (p := check_anchor(entries, a)) is not None]
        sealed = covers = 0
        check = self._seal_check(entries)
        if check is not None:
            sealed, covers = check.lines, check.covers
            if check.problem:
                problems.append(check.problem)
        return LedgerAudit(v, tuple(problems), len(given), len(posted), source, game.ledger.key_file, sealed,
                           covers)

    def _sealed(self, v: L.Verification, entries: Sequence[L.Entry]) -> L.Verification:
        check = self._seal_check(entries)
        return v if check is None or check.problem is None else L.Verification(False, v.entries, check.at,
                                                                                 check.problem)

    def _seal_check(self, entries: Sequence[L.Entry]) -> SealCheck | None:
        """The keyed local seal against ``entries``, the one rule for when there is one to check (None:
        no ``[ledger] key_file``, or no card yet and no key — the key is created with the first one)."""
        key_file = self.ctx.game.ledger.key_file
        if key_file is None or (not entries and not key_file.exists() and not key_file.is_symlink()):
            return None
        return check_seals(load_key(key_file, create=False), key_file, entries)

    def card_history(self, card_id: int) -> list[L.Entry]:
        """One card's audit trail: the card, what merged it, what undid or replaced it, in order."""
        entries = self.ledger()
        st = L.replay(entries)
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

    @one_request
    def standing(self) -> dict[str, PlayerStanding]:
        """Every player's cards now held, with their status in the game (alive/dead/out/benched)."""
        entries = self.ledger()
        names = [self.log.account(p) for p in self.ctx.game.player_names]
        stands = L.standings(entries, names)
        status = self.log.statuses()
        return {p: PlayerStanding(p, s.blue, s.yellow, s.red, status.get(p, "alive")) for p, s in stands.items()}

    @one_request
    def issue_card(self, player: str, color: str, clause: str | None, reason: str, *,
                   post: int | str | None = None, by: str | None = None, flag: int | None = None,
                   day: int | None = None, at: datetime | None = None) -> CardDecision:
        """Give a card; the ladder's conversions and the red card's consequence follow as their own entries.

        ``post`` is a pid or ``TID#FLOOR``; the card's ``day`` is the violation's (given, else the
        post's thread's day, else the day open now), so the 公示 of that day announces it.
        ``at``: when the violation is settled (default now). A red's consequence takes effect then, and
        the ruleset's ``red_settled`` places it before or after that day's vote: a director settling a
        day's red after its close dates it at the close (213: "白天结束时红牌罚下的出局结算在投票结算之前执行").
        """
        from tracker.service.card_place import locate

        account = self.known_player(player)
        if color not in L.COLORS:
            raise GameRuleError(f"牌色 {color!r} 无效", hint="可选：blue（蓝牌）、yellow（黄牌）、red（红牌）")
        issuer = self.ctx.director(by)
        at = at or self.ctx.clock.now()
        with self.ctx.store.session() as s:
            after: Callable[[L.Entry], object] | None = None
            flag_hash: str | None = None
            flag_pid: int | None = None
            if flag is not None:
                fl = get_flag(flag, session=s)
                check_card(fl)
                flag_hash, flag_pid = fl.html_hash, fl.pid
                post = fl.pid if post is None else post
                flag_id = flag

                def after(e: L.Entry) -> object:
                    return decide_flag(flag_id, status="carded", by=issuer, at=at, reason=e.reason, card=e.id,
                                       session=s)
            where = locate(self.ctx.game, post=post, day=day, now=at, session=s)
            evidence, pid = where.evidence, where.pid
            if flag_pid is not None and pid == flag_pid:
                evidence = flag_hash  # the post as the detector saw it (players edit violations away)
            return self._decide(s, lambda entries: L.issue(
                entries, player=account, color=color, clause=clause, reason=reason,
                issuer=issuer, at=at, ladder=self.ladder(), post=pid, flag=flag, evidence=evidence,
                day=where.day),
                primary="issue", after=after)

    @one_request
    def revoke_card(self, card_id: int, reason: str, *, by: str | None = None) -> CardDecision:
        """A pardon: a new entry naming the card; a conversion it was part of is undone as new entries."""
        issuer = self.ctx.director(by)
        at = self.ctx.clock.now()
        with self.ctx.store.session() as s:
            return self._decide(s, lambda entries: L.revoke(entries, card_id, reason=reason, issuer=issuer, at=at,
                                                            ladder=self.ladder(),
                                                            day=self._announced_on(entries, card_id)),
                                primary="revoke")

    @one_request
    def amend_card(self, card_id: int, reason: str, *, color: str | None = None, clause: str | None = None,
                   by: str | None = None) -> CardDecision:
        issuer = self.ctx.director(by)
        at = self.ctx.clock.now()
        if color is not None and color not in L.COLORS:
            raise GameRuleError(f"牌色 {color!r} 无效", hint="可选：blue、yellow、red")
        with self.ctx.store.session() as s:
            return self._decide(s, lambda entries: L.amend(
                entries, card_id, reason=reason, issuer=issuer, at=at, ladder=self.ladder(),
                color=color, clause=clause, day=self._announced_on(entries, card_id)),
                primary="amend")

    def _announced_on(self, entries: Sequence[L.Entry], card_id: int) -> int | None:
        """The day whose 公示 announced card ``card_id``: its own day, else the day it was decided in."""
        from tracker.penalties.place import decided_on

        card = next((e for e in entries if e.id == card_id), None)
        return None if card is None else decided_on(self.ctx.game.days, card.day, card.at)

    def _decide(self, s: Session, make: Callable[[list[L.Entry]], list[L.Draft]], *, primary: str,
                after: Callable[[L.Entry], object] | None = None) -> CardDecision:
        before = load_entries(session=s)
        check = L.verify(before, load_head(session=s))
        key_file = self.ctx.game.ledger.key_file
        pen = SealPen(key_file) if check.ok and key_file is not None else None  # the key checked first
        try:
            if pen is not None and not pen.fresh:  # never seal over entries the seal does not cover
                check = self._sealed(check, before)
            if not check.ok:
                raise ledger_broken(check)
            drafts = make(before)
        except BaseException:
            if pen is not None:
                pen.close()
            raise
        written = L.chain(drafts, after=before[-1] if before else None)
        append_entries(written, session=s)
        if pen is not None:  # the line is written once the append is committed; the file closed either way
            last, seal_pen = written[-1], pen
            event.listen(s, "after_commit", lambda _s: seal_pen.write(last), once=True)
            event.listen(s, "after_rollback", lambda _s: seal_pen.close(), once=True)
        main = next(e for e in written if e.action == primary)
        if after is not None:
            after(main)
        # The ledger says whose red card is new or gone; what that does to a faction is the fold's
        # (it knows a faction_set), compared before and after the red cards' events.
        cons = L.consequences(before, [*before, *written])
        if not cons:
            return CardDecision(main, tuple(written))
        lost_before, _ = self._lost_by_reds(session=s)
        # at the decision's own time (a card settled `--at` the close takes effect at the close)
        recorded, settled = self._record_consequences(cons, session=s, at=max(e.at for e in written))
        lost_after, reds = self._lost_by_reds(session=s)
        words = [*self._consequence_words(cons),
                 *(f"{f}阵营累计 {reds.get(f, 0)} 张红牌：阵营判负" for f in sorted(lost_after - lost_before)),
                 *(f"{f}阵营红牌减为 {reds.get(f, 0)} 张：撤销阵营判负" for f in sorted(lost_before - lost_after)),
                 *settled]
        return CardDecision(main, tuple(written), tuple(cons), tuple(words), tuple(recorded))

    def _lost_by_reds(self, *, session: Session) -> tuple[set[str], Mapping[str, int]]:
        """The factions the fold has lost by red cards, and each faction's reds (in this transaction)."""
        state = self.log.fold(self.log.events_in(session))
        return _red_losses(state), state.faction_reds

    def _record_consequences(self, cons: Sequence[L.Consequence], *, session: Session,
                             at: datetime | None = None) -> tuple[list[str], list[str]]:
        """A red card's effect on the game, recorded in the ledger's own transaction, so the ledger
        and the game state move together or not at all: the events appended, and the settlement of
        what the 出局 set off, in the director's words."""
        rules = self.ctx.ruleset.cards
        drafts = consequence_drafts(cons, events=self.log.events_in(session), red_consequence=rules.red_consequence,
                                    at=at or self.ctx.clock.now(), by=self.ctx.director())
        appended = self.log.append(session, drafts)
        cascade, said = self._cascades(appended, session=session)
        appended += cascade
        out = []
        for e in appended:
            if e.kind == "undo":
                out.append(f"事件 #{e.seq}：撤销事件 #{e.get('seq')}（{e.get('reason') or '红牌已撤销'}）")
            elif e.payload.again:
                out.append(f"事件 #{e.seq}：{e.player} 再获红牌，计入阵营红牌数")
            elif e.kind == EventKind.CARD_CONSEQUENCE:
                what = STATUS_WORDS.get(str(e.payload.consequence), str(e.payload.consequence))
                turn = f"，成为{rules.red_turns_role}" if rules.red_turns_role else ""
                out.append(f"事件 #{e.seq}：{e.player} 红牌罚下，{what}{turn}")
            elif e.kind == EventKind.TAG_PASSED:
                out.append(f"事件 #{e.seq}：{e.get('tag')} {e.player} → {e.get('to')}（{e.get('cause')}）")
            elif e.kind in (EventKind.ELIMINATED, EventKind.DIED):
                out.append(f"事件 #{e.seq}：{e.player} {'死亡' if e.kind == EventKind.DIED else '出局'}"
                           f"（{e.get('cause')}，随红牌罚下结算）")
            elif e.kind == EventKind.FACTION_LOST:
                out.append(f"事件 #{e.seq}：{e.get('faction')}阵营判负（{e.get('reason')}）")
            elif e.kind == EventKind.NIGHT_SETTLED:
                from tracker.engine.night.desk import phase_words

                win = (e.payload.result or {}).get("outcome")
                out.append(f"事件 #{e.seq}：{phase_words(str(e.get('phase')))}结算，随红牌罚下"
                           + (f"：{win['winner']}获胜（{win['reason']}）" if win else ""))
        return out, said

    def _cascades(self, appended: Sequence[Event], *, session: Session) -> tuple[list[Event], list[str]]:
        """What a red card's 出局 sets off (殉情, 遇难, 殉职's random successor, the win check),
        settled at the night desk in the same transaction, where the game's night file names its
        red-card skill; undoing the red card undoes them with it. The ledger's consequence event
        stays the one record of the carded player's own exit."""
        if self._desk is None:
            return [], []
        desk = self._desk(session)
        if not desk.has_exit_skill("red_card"):
            return [], []
        from tracker.reports.night_settlement import exit_lines

        # the log is read again only to find what an undone red card set off
        undoing = any(e.kind == EventKind.UNDO for e in appended)
        live = effective(self.log.events_in(session))[0] if undoing else []
        drafts: list[EventDraft] = []
        said: list[str] = []
        for e in appended:
            if e.kind == EventKind.UNDO:  # the red is gone: so is what it set off
                drafts += [make_draft(EventKind.UNDO.value, at=e.at, recorded_by=e.recorded_by,
                                      data={"seq": c.seq, "reason": f"红牌（事件 #{e.get('seq')}）已撤销，其连锁随之撤销"})
                           for c in live if c.payload.cascade_of == e.payload.seq]
            elif e.kind == EventKind.CARD_CONSEQUENCE and e.payload.consequence == "out" and not e.payload.again \
                    and e.player is not None:
                settled = desk.settle_exit("red_card", self._day_at(e.at), e.player, at=e.at, without={e.seq},
                                           via=f"tracker card（记牌账本第 {e.get('ledger_id')} 条）")
                drafts += [replace(d, data={**d.data, "cascade_of": e.seq}) for d in settled.drafts]
                said += exit_lines(settled.words, settled.result)
        return (self.log.append(session, drafts) if drafts else []), said

    def _day_at(self, at: datetime) -> int:
        """The game day a red card's 出局 happens in: the last day opened by then (the same day the
        night desk's table gives its ``出局`` record)."""
        from tracker.engine.night.desk import day_in_force

        return day_in_force(self.log.effective_days(), at)

    def _consequence_words(self, cons: Sequence[L.Consequence]) -> list[str]:
        """What the red cards did, in the rule posts' words (for the director's confirmation)."""
        rules = self.ctx.ruleset.cards
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
        return words

    # --------------------------------------------------------------------------------- helpers

    def known_player(self, name: str) -> str:
        """The account a card goes to, or a GameRuleError naming the players it might have meant."""
        n = name.strip()
        names = list(self.ctx.game.player_names) + list(self.log.substitutes())
        if n not in names:
            raise GameRuleError(f"游戏里没有玩家 {n!r}",
                                hint=did_you_mean(n, names) or "玩家名须与游戏文件 [[players]] 一致")
        return self.log.account(n)

    # --------------------------------------------------------------------------- announcement

    @one_request
    def cards_announcement(self, day: int) -> str:
        """判罚公示 for one day: the decisions between the day's opening and the next day's."""
        from tracker.penalties.place import announced_split

        game, cards = self.ctx.game, self.ctx.ruleset.cards
        d = game.day(day)
        later = [x.opens for x in game.days if x.opens > d.opens]
        end = min(later) if later else None
        entries = self.ledger()
        todays, upto = announced_split(entries, game.days, day)
        today_ids = {e.id for e in todays}
        before = [e for e in upto if e.id not in today_ids]
        cons = L.consequences(before, upto)
        reds = [RedOff(c.player, cards.red_consequence) for c in cons if c.kind == "red_card" and c.player]
        lost = self._lost_between(d.opens, end)
        names = [self.log.account(p) for p in game.player_names]
        return cards_bbcode(day, todays, L.standings(upto, names), reds=reds, lost_factions=lost,
                            places=self.post_places([e.post for e in todays]), tz=game.tz,
                            anchor=anchor_line(entries))

    def post_places(self, pids: Sequence[int | None]) -> dict[int, tuple[int, int, datetime]]:
        """pid → (tid, floor, posted_at) of the posts cards name: the 公示 and the ledger say 帖 and 楼."""
        from tracker.service.card_place import places

        wanted = [p for p in pids if p is not None]
        if not wanted:
            return {}
        with self.ctx.store.session() as s:
            return places(wanted, session=s)

    def _lost_between(self, start: datetime, end: datetime | None) -> list[str]:
        """Factions the fold has lost by red cards at ``end`` (None: now) and had not at ``start``."""
        was = _red_losses(self.log.state_before(start))
        now = _red_losses(self.log.state() if end is None else self.log.state_before(end))
        return sorted(now - was)


def _red_losses(state: GameState) -> set[str]:
    """The factions ``state`` has lost by red cards: by a ``[[win]]`` rule counting them
    (``red_cards_at_least``), not another loss condition."""
    by_reds = {w.id for w in state.ruleset.win if w.when.kind == "red_cards_at_least"}
    return {f for f, loss in state.lost.items() if loss.rule in by_reds}


def consequence_drafts(cons: Sequence[L.Consequence], *, events: Sequence[Event], red_consequence: str,
                       at: datetime, by: str) -> list[EventDraft]:
    """A red card's effect as game events (pure): ``card_consequence`` when a player's first live red
    appears, an ``undo`` of that event when their last live red is gone.

    The engine's fold applies the ruleset to ``card_consequence`` (挂机 or 出局, M160's 丑角, a
    faction's second red losing it in 213/M19), so faction losses are not recorded separately: the
    state derives them, and undoing the red undoes the loss.
    """
    live, _ = effective(list(events))
    out: list[EventDraft] = []
    undone: set[int] = set()
    for c in cons:
        if c.kind in ("red_card", "red_card_again") and c.player is not None:
            data: dict[str, JSON] = {"color": "red", "consequence": red_consequence, "ledger_id": c.card}
            if c.kind == "red_card_again":
                data["again"] = True  # counted for the faction (两张红牌判负); the player is already carded off
            out.append(make_draft(EventKind.CARD_CONSEQUENCE.value, at=at, player=c.player, recorded_by=by,
                                  data=data))
        elif c.kind == "red_card_again_undone" and c.player is not None:
            again = [e for e in live if e.kind == EventKind.CARD_CONSEQUENCE and e.player == c.player
                     and e.payload.again and e.seq not in undone]
            same = [e for e in again if e.payload.ledger_id == c.card]
            for e in (same or again)[-1:]:
                undone.add(e.seq)
                out.append(make_draft(EventKind.UNDO.value, at=at, recorded_by=by,
                                      data={"seq": e.seq, "reason": f"红牌（记牌账本第 {c.card} 条）已撤销"}))
        elif c.kind == "red_card_undone" and c.player is not None:
            mine = [e for e in live if e.kind == EventKind.CARD_CONSEQUENCE and e.player == c.player
                    and str(given(e.payload.color, "red")) == "red"]
            for e in mine:
                out.append(make_draft(EventKind.UNDO.value, at=at, recorded_by=by,
                                      data={"seq": e.seq, "reason": f"红牌（记牌账本第 {c.card} 条）已撤销"}))
    return out


def ledger_broken(v: L.Verification) -> LedgerBrokenError:
    """The error for a ledger changed outside the tool: nothing is appended to a broken chain."""
    return LedgerBrokenError(f"记牌账本校验失败：{v.problem}（第 {v.broken_at} 条）",
                             hint="账本在记牌工具之外被改动；先用 `tracker cards GAME.toml verify` 查看，再从备份恢复")


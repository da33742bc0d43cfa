"""The card ledger: cards, the 3-blue / 3-yellow ladder, red-card consequences, and the hash chain.

Pure: entries in, entries (or a verdict) out; the store keeps the rows and the service applies the
consequences as game events. The ledger is append-only. Every decision is a new entry that names
the entry it acts on, so the history always says who did what, when, why and on which evidence:

    issue    a card given by the director (``flag`` and ``post`` name the evidence)
    convert  the ladder (判罚制度 "累计三张蓝牌合并为一张黄牌", 三黄 → 红): ``consumed`` names the
             merged cards; the entry itself is the new card
    revoke   a pardon: ``ref`` is the card taken back
    amend    a correction (colour, clause or reason): ``ref`` is the card replaced; the entry is the
             card from now on
    revert   a conversion undone because one of its cards was revoked or amended: ``ref`` is the
             ``convert`` entry; its other cards become loose again and may convert anew

Each stored entry carries ``prev_hash`` and ``hash = sha256(prev_hash + canonical JSON)`` so that an
edit or a deletion made behind the tool's back (a hand-edited database) shows in :func:`verify`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Literal

from tracker.errors import GameRuleError, UnknownIdError

Color = Literal["blue", "yellow", "red"]
Action = Literal["issue", "convert", "revoke", "amend", "revert"]

COLORS: tuple[Color, ...] = ("blue", "yellow", "red")
ACTIONS: tuple[Action, ...] = ("issue", "convert", "revoke", "amend", "revert")
COLOR_WORDS: dict[str, str] = {"blue": "蓝牌", "yellow": "黄牌", "red": "红牌"}
ACTION_WORDS: dict[str, str] = {"issue": "判罚", "convert": "合并", "revoke": "撤销", "amend": "更正",
                                "revert": "撤销合并"}
GENESIS = "0" * 64
LADDER_ISSUER = "ladder"
"""The issuer recorded on entries the ladder writes by itself (conversions and their reverts)."""


@dataclass(frozen=True, slots=True)
class Ladder:
    """How many cards of one colour make one of the next (判罚制度: 3 蓝 = 1 黄, 3 黄 = 1 红)."""

    blue_to_yellow: int = 3
    yellow_to_red: int = 3

    def __post_init__(self) -> None:
        if self.blue_to_yellow < 1 or self.yellow_to_red < 1:
            raise ValueError("ladder thresholds must be positive")

    def threshold(self, color: Color) -> int | None:
        if color == "blue":
            return self.blue_to_yellow
        if color == "yellow":
            return self.yellow_to_red
        return None


NEXT_COLOR: dict[str, Color] = {"blue": "yellow", "yellow": "red"}


@dataclass(frozen=True, slots=True)
class Draft:
    """An entry before it has a place in the chain (no id, no hashes yet)."""

    action: Action
    player: str
    color: Color | None
    reason: str
    issuer: str
    at: datetime
    clause: str | None = None
    post: int | None = None
    flag: int | None = None
    ref: int | None = None
    consumed: tuple[int, ...] = ()
    evidence: str | None = None
    """The evidence post's HTML hash at the time of the decision (players edit violations away)."""
    day: int | None = None
    """The game day of the violation (a day-1 post carded on day 2 is day 1's card); None: the day
    the decision was made in, by its time (revocations, and entries written before days were kept)."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One row of the ledger, chained."""

    id: int
    action: Action
    player: str
    color: Color | None
    reason: str
    issuer: str
    at: datetime
    clause: str | None = None
    post: int | None = None
    flag: int | None = None
    ref: int | None = None
    consumed: tuple[int, ...] = ()
    evidence: str | None = None
    prev_hash: str = GENESIS
    hash: str = ""
    day: int | None = None
    """The game day the card belongs to (see :class:`Draft`)."""

    def payload(self) -> dict[str, object]:
        """The fields the hash covers, in a canonical form (UTC time with microseconds).

        ``day`` is covered only when set, so the entries written before it existed keep their hashes.
        """
        out: dict[str, object] = {
            "id": self.id, "action": self.action, "player": self.player, "color": self.color,
            "clause": self.clause, "reason": self.reason, "post": self.post, "flag": self.flag,
            "issuer": self.issuer, "at": utc_iso(self.at), "ref": self.ref,
            "consumed": list(self.consumed), "evidence": self.evidence,
        }
        if self.day is not None:
            out["day"] = self.day
        return out


def utc_iso(at: datetime) -> str:
    """A timestamp as the hash sees it. A naive value (some databases drop the zone) is UTC."""
    aware = at if at.tzinfo is not None else at.replace(tzinfo=UTC)
    return aware.astimezone(UTC).isoformat(timespec="microseconds")


def canonical_json(payload: Mapping[str, object]) -> str:
    return json.dumps(payload, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def entry_hash(prev_hash: str, entry: Entry) -> str:
    return hashlib.sha256((prev_hash + canonical_json(entry.payload())).encode("utf-8")).hexdigest()


def chain(drafts: Iterable[Draft], *, after: Entry | None) -> list[Entry]:
    """Give drafts their ids and hashes, continuing the chain after ``after`` (None: an empty ledger)."""
    prev = after.hash if after is not None else GENESIS
    next_id = after.id + 1 if after is not None else 1
    out: list[Entry] = []
    for d in drafts:
        e = Entry(id=next_id, action=d.action, player=d.player, color=d.color, reason=d.reason,
                  issuer=d.issuer, at=d.at, clause=d.clause, post=d.post, flag=d.flag, ref=d.ref,
                  consumed=tuple(d.consumed), evidence=d.evidence, prev_hash=prev, day=d.day)
        e = replace(e, hash=entry_hash(prev, e))
        out.append(e)
        prev = e.hash
        next_id += 1
    return out


# ---------------------------------------------------------------------------------------- verify


@dataclass(frozen=True, slots=True)
class Head:
    """What the store remembers beside the rows: how many entries and the last hash.

    Without it, deleting the newest rows would leave a chain that still verifies.
    """

    entries: int
    hash: str


@dataclass(frozen=True, slots=True)
class Verification:
    ok: bool
    entries: int
    broken_at: int | None
    problem: str | None = None
    """Why it is broken, in the director's words (None when ok)."""


def verify(entries: Sequence[Entry], head: Head | None) -> Verification:
    """Recompute the chain in id order; the first entry that does not fit is where it broke.

    Ids run 1..n without gaps (a gap is a deleted row); each ``prev_hash`` is the previous row's
    ``hash`` and each ``hash`` is recomputed from the row's own fields; the head's count and hash
    must match the last row (a deleted newest row or an inserted one shows here).
    """
    ordered = sorted(entries, key=lambda e: e.id)
    prev = GENESIS
    for expected_id, e in enumerate(ordered, 1):
        if e.id != expected_id:
            return Verification(False, len(ordered), expected_id, f"第 {expected_id} 条记录被删除")
        if e.prev_hash != prev:
            return Verification(False, len(ordered), e.id, f"第 {e.id} 条记录的前一条被改动或删除")
        if entry_hash(prev, e) != e.hash:
            return Verification(False, len(ordered), e.id, f"第 {e.id} 条记录在记牌工具之外被改动")
        prev = e.hash
    n = len(ordered)
    if head is None:
        if n:
            return Verification(False, n, 1, "账本摘要丢失（记录数与末条哈希无从核对）")
        return Verification(True, 0, None)
    if head.entries > n:
        return Verification(False, n, n + 1, f"第 {n + 1} 条及之后的记录被删除")
    if head.entries < n:
        return Verification(False, n, head.entries + 1, f"第 {head.entries + 1} 条记录不是记牌工具写入的")
    if head.hash != prev:
        return Verification(False, n, n if n else None, f"第 {n} 条记录与账本摘要不符")
    return Verification(True, n, None)


# ---------------------------------------------------------------------------------------- replay


@dataclass(slots=True)
class CardState:
    """A card as the ledger now sees it: the entry that made it and what happened since."""

    entry: Entry
    color: Color
    consumed_by: int | None = None
    """The ``convert`` entry that merged this card into the next colour (None: loose)."""
    revoked_by: int | None = None
    amended_by: int | None = None
    reverted_by: int | None = None
    """For a card made by a conversion: the ``revert`` entry that undid it."""

    @property
    def live(self) -> bool:
        """Not revoked, amended away or undone: the card counts (loose or merged)."""
        return self.revoked_by is None and self.amended_by is None and self.reverted_by is None

    @property
    def loose(self) -> bool:
        """Live and not merged into a higher card: what the standing shows."""
        return self.live and self.consumed_by is None

    @property
    def id(self) -> int:
        return self.entry.id

    @property
    def player(self) -> str:
        return self.entry.player


@dataclass(frozen=True, slots=True)
class Standing:
    """The cards a player now holds (merged cards are counted once, as the card they became)."""

    player: str
    blue: int = 0
    yellow: int = 0
    red: int = 0


@dataclass
class LedgerState:
    """The ledger replayed: every card and conversion with its fate."""

    entries: list[Entry] = field(default_factory=list)
    cards: dict[int, CardState] = field(default_factory=dict)

    @property
    def last(self) -> Entry | None:
        return self.entries[-1] if self.entries else None

    def entry(self, entry_id: int) -> Entry:
        for e in self.entries:
            if e.id == entry_id:
                return e
        raise UnknownIdError(f"记牌账本里没有第 {entry_id} 条记录", hint="用 `tracker cards GAME.toml` 查看账本")

    def loose_cards(self, player: str, color: Color) -> list[CardState]:
        return [c for c in self.cards.values() if c.player == player and c.color == color and c.loose]

    def live_reds(self) -> list[CardState]:
        return [c for c in self.cards.values() if c.color == "red" and c.live]

    def standing(self, player: str) -> Standing:
        counts = {c: len(self.loose_cards(player, c)) for c in COLORS}
        return Standing(player, counts["blue"], counts["yellow"], counts["red"])

    def players(self) -> list[str]:
        return list(dict.fromkeys(c.player for c in self.cards.values()))


def replay(entries: Iterable[Entry]) -> LedgerState:
    """Replay the ledger. Entries are trusted here; :func:`verify` is what checks them."""
    st = LedgerState()
    for e in sorted(entries, key=lambda x: x.id):
        _apply(st, e)
    return st


def _apply(st: LedgerState, e: Entry) -> None:
    st.entries.append(e)
    if e.action in ("issue", "convert", "amend"):
        if e.color is None:
            raise GameRuleError(f"第 {e.id} 条记录缺少牌色")
        st.cards[e.id] = CardState(e, e.color)
    if e.action == "convert":
        for cid in e.consumed:
            st.cards[cid].consumed_by = e.id
    elif e.action == "revoke" and e.ref is not None:
        st.cards[e.ref].revoked_by = e.id
    elif e.action == "amend" and e.ref is not None:
        old = st.cards[e.ref]
        old.amended_by = e.id
        if old.consumed_by is not None and old.color == e.color:
            # same colour: the corrected card takes the old one's place in its conversion
            st.cards[e.id].consumed_by = old.consumed_by
    elif e.action == "revert" and e.ref is not None:
        st.cards[e.ref].reverted_by = e.id
        for c in st.cards.values():
            if c.consumed_by == e.ref:
                c.consumed_by = None


# ------------------------------------------------------------------------------------- decisions


def _settle(st: LedgerState, player: str, ladder: Ladder, at: datetime, day: int | None = None) -> list[Draft]:
    """Merge loose cards while a colour reaches its threshold (blue first, so a cascade reaches red).

    A merge a new card sets off is announced with that card (``day``)."""
    drafts: list[Draft] = []
    for color in ("blue", "yellow"):
        n = ladder.threshold(color)
        assert n is not None
        while True:
            loose = sorted(st.loose_cards(player, color), key=lambda c: c.id)
            if len(loose) < n:
                break
            merged = tuple(c.id for c in loose[:n])
            nxt = NEXT_COLOR[color]
            clauses = sorted({c.entry.clause for c in loose[:n] if c.entry.clause})
            d = Draft(action="convert", player=player, color=nxt, issuer=LADDER_ISSUER, at=at,
                      reason=f"累计三张{COLOR_WORDS[color]}合并为一张{COLOR_WORDS[nxt]}"
                      if n == 3 else f"累计{n}张{COLOR_WORDS[color]}合并为一张{COLOR_WORDS[nxt]}",
                      clause="、".join(clauses) or None, consumed=merged, day=day)
            _apply_draft(st, d)
            drafts.append(d)
    return drafts


def _apply_draft(st: LedgerState, d: Draft) -> Entry:
    """Fold a draft into the working state under a provisional id (the real ids come from :func:`chain`)."""
    last = st.last
    e = chain([d], after=last)[0]
    _apply(st, e)
    return e


def _undo_merges(st: LedgerState, card: CardState, issuer: str, at: datetime, why: str,
                 day: int | None = None) -> list[Draft]:
    """Revert the conversion that merged ``card`` — and first any conversion that merged its result.
    Announced on ``day``, the day of the card whose revocation or correction undoes it."""
    if card.consumed_by is None:
        return []
    conv = st.cards[card.consumed_by]
    drafts = _undo_merges(st, conv, issuer, at, why, day)
    d = Draft(action="revert", player=conv.player, color=conv.color, issuer=issuer, at=at, ref=conv.id,
              clause=conv.entry.clause, consumed=conv.entry.consumed,
              reason=f"{why}，第 {conv.id} 条的合并不再成立", day=day)
    _apply_draft(st, d)
    drafts.append(d)
    return drafts


def _working_copy(entries: Sequence[Entry]) -> LedgerState:
    return replay(entries)


def _card(st: LedgerState, card_id: int) -> CardState:
    st.entry(card_id)
    card = st.cards.get(card_id)
    if card is None:
        raise GameRuleError(f"第 {card_id} 条记录不是一张牌", hint="撤销或更正只能针对发牌、合并或更正记录")
    if card.revoked_by is not None:
        raise GameRuleError(f"第 {card_id} 条的牌已在第 {card.revoked_by} 条撤销")
    if card.amended_by is not None:
        raise GameRuleError(f"第 {card_id} 条的牌已在第 {card.amended_by} 条更正，请针对更正后的记录操作")
    if card.reverted_by is not None:
        raise GameRuleError(f"第 {card_id} 条的合并已在第 {card.reverted_by} 条撤销")
    if card.entry.action == "convert":
        raise GameRuleError(f"第 {card_id} 条是自动合并出的{COLOR_WORDS[card.color]}",
                            hint="请撤销或更正构成它的原始牌，合并会随之撤销")
    return card


def _need_text(value: str, what: str) -> str:
    v = value.strip()
    if not v:
        raise GameRuleError(f"{what}不能为空", hint="写明理由，账本会永久保存")
    return v


def issue(entries: Sequence[Entry], *, player: str, color: Color, clause: str | None, reason: str,
          issuer: str, at: datetime, ladder: Ladder, post: int | None = None, flag: int | None = None,
          evidence: str | None = None, day: int | None = None) -> list[Draft]:
    """A card for ``player``, followed by whatever conversions it triggers (each its own entry)."""
    if color not in COLORS:
        raise GameRuleError(f"牌色 {color!r} 无效", hint="可选：blue（蓝牌）、yellow（黄牌）、red（红牌）")
    if not player.strip():
        raise GameRuleError("没有指定受罚玩家")
    st = _working_copy(entries)
    d = Draft(action="issue", player=player, color=color, clause=clause, reason=_need_text(reason, "判罚理由"),
              issuer=issuer, at=at, post=post, flag=flag, evidence=evidence, day=day)
    _apply_draft(st, d)
    return [d, *_settle(st, player, ladder, at, day)]


def revoke(entries: Sequence[Entry], card_id: int, *, reason: str, issuer: str, at: datetime,
           ladder: Ladder, day: int | None = None) -> list[Draft]:
    """Take a card back. A conversion it was part of is reverted first, then the ladder settles again.

    Every entry it writes carries the revoked card's day (``day`` for a card that has none: the day it
    was announced on), so that day's 公示 lists the revocation and its 累计 is the ledger's."""
    st = _working_copy(entries)
    card = _card(st, card_id)
    why = _need_text(reason, "撤销理由")
    day = card.entry.day if card.entry.day is not None else day
    drafts = _undo_merges(st, card, issuer, at, f"撤销第 {card_id} 条", day)
    d = Draft(action="revoke", player=card.player, color=card.color, clause=card.entry.clause, reason=why,
              issuer=issuer, at=at, ref=card_id, post=card.entry.post, flag=card.entry.flag, day=day)
    _apply_draft(st, d)
    drafts.append(d)
    return drafts + _settle(st, card.player, ladder, at, day)


def amend(entries: Sequence[Entry], card_id: int, *, reason: str, issuer: str, at: datetime, ladder: Ladder,
          color: Color | None = None, clause: str | None = None, day: int | None = None) -> list[Draft]:
    """Correct a card's colour or clause; the amended entry is the card from now on. Announced on the
    card's day, as a revocation is (``day`` for a card that has none)."""
    st = _working_copy(entries)
    card = _card(st, card_id)
    day = card.entry.day if card.entry.day is not None else day
    why = _need_text(reason, "更正理由")
    new_color = color or card.color
    if new_color not in COLORS:
        raise GameRuleError(f"牌色 {new_color!r} 无效", hint="可选：blue、yellow、red")
    new_clause = clause if clause is not None else card.entry.clause
    if new_color == card.color and new_clause == card.entry.clause:
        raise GameRuleError("更正没有改变牌色或条款", hint="用 --color 或 --clause 写明更正后的内容")
    drafts: list[Draft] = []
    if new_color != card.color:
        drafts = _undo_merges(st, card, issuer, at, f"更正第 {card_id} 条", day)
    d = Draft(action="amend", player=card.player, color=new_color, clause=new_clause, reason=why,
              issuer=issuer, at=at, ref=card_id, post=card.entry.post, flag=card.entry.flag,
              evidence=card.entry.evidence, day=day)
    _apply_draft(st, d)
    drafts.append(d)
    return drafts + _settle(st, card.player, ladder, at, day)


# ---------------------------------------------------------------------------------- consequences


@dataclass(frozen=True, slots=True)
class Consequence:
    """What a red card (or its undoing) does to the game, for the service to record as an event.

    ``kind``: ``red_card`` (apply the ruleset's consequence to ``player``), ``red_card_undone`` (the
    red that caused it is gone), ``red_card_again`` / ``red_card_again_undone`` (a further red to a
    player already carded off: nothing more happens to the player, but it counts towards the faction's
    "同一阵营的角色累计获得两张或以上红牌时，阵营判负" in the game state, where the win check reads it).
    """

    kind: Literal["red_card", "red_card_undone", "red_card_again", "red_card_again_undone"]
    card: int
    """The entry of the red card (made, or undone)."""
    player: str | None = None


def consequences(before: Sequence[Entry], after: Sequence[Entry]) -> list[Consequence]:
    """Compare the live red cards before and after new entries; name whose red is new or gone.

    Only live reds matter: a red merged from yellows counts, a revoked or reverted one no longer does.
    What the reds do to a faction is not the ledger's: the fold counts them and the one win check
    (``[[win]]`` ``red_cards_at_least``, :mod:`tracker.engine.outcome`) judges the loss.
    """
    old = {c.id: c for c in replay(before).live_reds()}
    new = {c.id: c for c in replay(after).live_reds()}
    out: list[Consequence] = []
    old_players = {c.player for c in old.values()}
    new_players = {c.player for c in new.values()}
    carded = set(old_players)
    for cid, c in sorted(new.items()):
        if cid not in old:
            out.append(Consequence("red_card_again" if c.player in carded else "red_card", cid, player=c.player))
            carded.add(c.player)
    cleared: set[str] = set()
    for cid, c in sorted(old.items()):
        if cid not in new:
            if c.player in new_players:
                out.append(Consequence("red_card_again_undone", cid, player=c.player))
            elif c.player not in cleared:
                out.append(Consequence("red_card_undone", cid, player=c.player))
                cleared.add(c.player)
    return out


def standings(entries: Iterable[Entry], players: Iterable[str] = ()) -> dict[str, Standing]:
    """Every listed player (with zeros) plus anyone who ever had a card."""
    st = replay(entries)
    names = list(dict.fromkeys([*players, *st.players()]))
    return {p: st.standing(p) for p in names}

"""Tables of the penalties area: flags under review, the card ledger and its head, the scan watermark.

The ledger rows are written once and never updated (a revocation is a new row); their ids are the
chain's own numbering, assigned by :func:`tracker.penalties.ledger.chain`, so two directors
appending at once collide on the primary key instead of forking the chain. The head row holds the
entry count and last hash so a deleted newest row is detectable.

The scan watermark remembers which content of which post the detectors have seen, under which
detection context (ruleset, lexicons, game state), so a re-run scans only new or changed posts.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Iterable, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, cast

from sqlalchemy import JSON, Column, Index, String, Text, select
from sqlalchemy.exc import IntegrityError
from sqlmodel import Field, Session, SQLModel, col

import tracker.store.metadata  # noqa: F401  (naming convention before any table)
from tracker.errors import GameRuleError, StoreError
from tracker.penalties.ledger import Action, Color, Entry, Head
from tracker.penalties.review import Flag, FlagStatus, finding_key

if TYPE_CHECKING:
    from tracker.penalties.findings import Finding

LEDGER = "cards"


class FlagRow(SQLModel, table=True):
    """A finding as first detected, plus the director's decision on it."""

    __tablename__ = "flag"
    __table_args__ = (Index("ix_flag_status_pid", "status", "pid"),)

    id: int | None = Field(default=None, primary_key=True)
    key: str = Field(sa_type=String(64), unique=True)
    kind: str = Field(sa_type=String(32))
    category: str = Field(sa_type=String(64))
    clause: str = Field(sa_type=Text)
    pid: int
    tid: int
    floor: int
    author: str = Field(sa_type=String(255))
    posted_at: datetime
    excerpt: str = Field(sa_type=Text)
    matched: str = Field(sa_type=Text)
    html: str = Field(default="", sa_type=Text)
    html_hash: str = Field(sa_type=String(64))
    evidence: str = Field(default="", sa_type=Text)
    related_pids: list[Any] = Field(default_factory=list, sa_type=JSON)
    detected_at: datetime
    status: str = Field(default="open", sa_type=String(16))
    decided_by: str | None = Field(default=None, sa_type=String(255))
    decided_at: datetime | None = None
    decision_reason: str | None = Field(default=None, sa_type=Text)
    card_id: int | None = None


class CardRow(SQLModel, table=True):
    """One ledger entry, exactly the fields the hash covers plus the two hashes."""

    __tablename__ = "card_ledger"

    id: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    action: str = Field(sa_type=String(16))
    player: str = Field(sa_type=String(255), index=True)
    color: str | None = Field(default=None, sa_type=String(16))
    clause: str | None = Field(default=None, sa_type=Text)
    reason: str = Field(sa_type=Text)
    issuer: str = Field(sa_type=String(255))
    at: datetime
    post: int | None = None
    flag: int | None = None
    ref: int | None = None
    consumed: list[Any] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    evidence: str | None = Field(default=None, sa_type=String(64))
    prev_hash: str = Field(sa_type=String(64))
    hash: str = Field(sa_type=String(64))


class LedgerHeadRow(SQLModel, table=True):
    """The ledger's count and last hash, moved forward in the same transaction as each append."""

    __tablename__ = "card_ledger_head"

    name: str = Field(primary_key=True, sa_type=String(32))
    entries: int
    hash: str = Field(sa_type=String(64))


class FlagScanRow(SQLModel, table=True):
    """The detection watermark: post ``pid`` was scanned with this content under this context."""

    __tablename__ = "flag_scan"

    pid: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    content_key: str = Field(sa_type=String(64))
    context_key: str = Field(sa_type=String(64))
    scanned_at: datetime


# ------------------------------------------------------------------------------------ converters


def _utc(dt: datetime) -> datetime:
    return dt if dt.tzinfo is not None else dt.replace(tzinfo=UTC)


def entry_from_row(r: CardRow) -> Entry:
    return Entry(id=r.id, action=cast(Action, r.action), player=r.player, color=cast("Color | None", r.color),
                 reason=r.reason, issuer=r.issuer, at=_utc(r.at), clause=r.clause, post=r.post, flag=r.flag,
                 ref=r.ref, consumed=tuple(int(x) for x in (r.consumed or [])), evidence=r.evidence,
                 prev_hash=r.prev_hash, hash=r.hash)


def row_from_entry(e: Entry) -> CardRow:
    return CardRow(id=e.id, action=e.action, player=e.player, color=e.color, clause=e.clause, reason=e.reason,
                   issuer=e.issuer, at=e.at, post=e.post, flag=e.flag, ref=e.ref, consumed=list(e.consumed),
                   evidence=e.evidence, prev_hash=e.prev_hash, hash=e.hash)


def flag_from_row(r: FlagRow) -> Flag:
    assert r.id is not None
    return Flag(id=r.id, key=r.key, kind=r.kind, category=r.category, clause=r.clause, pid=r.pid, tid=r.tid,
                floor=r.floor, author=r.author, posted_at=_utc(r.posted_at), excerpt=r.excerpt,
                matched=r.matched, html_hash=r.html_hash, evidence=r.evidence, detected_at=_utc(r.detected_at),
                status=cast(FlagStatus, r.status), html=r.html or None,
                related_pids=tuple(int(x) for x in (r.related_pids or [])), decided_by=r.decided_by,
                decided_at=_utc(r.decided_at) if r.decided_at else None, decision_reason=r.decision_reason,
                card=r.card_id)


# -------------------------------------------------------------------------------------- ledger


def load_entries(*, session: Session) -> list[Entry]:
    rows = session.execute(select(CardRow).order_by(col(CardRow.id))).scalars().all()
    return [entry_from_row(r) for r in rows]


def load_head(*, session: Session) -> Head | None:
    row = session.get(LedgerHeadRow, LEDGER)
    return Head(row.entries, row.hash) if row is not None else None


def append_entries(entries: Sequence[Entry], *, session: Session) -> None:
    """Append chained entries and move the head; refuses entries that do not continue the head.

    A concurrent append by another director shows as a head mismatch or a primary-key collision:
    the caller's transaction is rolled back and the director retries on the fresh ledger.
    """
    if not entries:
        return
    head = session.get(LedgerHeadRow, LEDGER)
    expected_prev = head.hash if head is not None else "0" * 64
    expected_id = head.entries + 1 if head is not None else 1
    if entries[0].prev_hash != expected_prev or entries[0].id != expected_id:
        raise GameRuleError("记牌账本刚被更新过（可能是另一位导演），本次操作未写入", hint="请重新执行该命令")
    for e in entries:
        session.add(row_from_entry(e))
    if head is None:
        head = LedgerHeadRow(name=LEDGER, entries=0, hash=expected_prev)
    head.entries = entries[-1].id
    head.hash = entries[-1].hash
    session.add(head)
    try:
        session.flush()
    except IntegrityError:
        raise GameRuleError("记牌账本刚被更新过（可能是另一位导演），本次操作未写入",
                            hint="请重新执行该命令") from None


# --------------------------------------------------------------------------------------- flags


def known_flag_keys(*, session: Session) -> set[str]:
    return set(session.execute(select(col(FlagRow.key))).scalars().all())


def add_flags(findings: Iterable[Finding], *, html_by_pid: dict[int, str], detected_at: datetime,
              session: Session) -> list[Flag]:
    """Store findings as open flags; the caller has already removed known keys (see fresh_findings)."""
    rows: list[FlagRow] = []
    for f in findings:
        row = FlagRow(key=finding_key(f), kind=f.kind, category=f.category, clause=f.clause, pid=f.pid,
                      tid=f.tid, floor=f.floor, author=f.author, posted_at=f.posted_at, excerpt=f.excerpt,
                      matched=f.matched, html=html_by_pid.get(f.pid, ""), html_hash=f.html_hash,
                      evidence=f.evidence, related_pids=list(f.related_pids), detected_at=detected_at)
        session.add(row)
        rows.append(row)
    session.flush()
    return [flag_from_row(r) for r in rows]


def list_flags(*, session: Session, status: str | None = None) -> list[Flag]:
    q = select(FlagRow)
    if status is not None:
        q = q.where(col(FlagRow.status) == status)
    rows = session.execute(q.order_by(col(FlagRow.tid), col(FlagRow.floor), col(FlagRow.id))).scalars().all()
    return [flag_from_row(r) for r in rows]


def get_flag(flag_id: int, *, session: Session) -> Flag:
    row = session.get(FlagRow, flag_id)
    if row is None:
        raise GameRuleError(f"没有编号为 {flag_id} 的标记", hint="用 `tracker flags GAME.toml` 查看全部标记")
    return flag_from_row(row)


def decide_flag(flag_id: int, *, status: FlagStatus, by: str, at: datetime, reason: str | None,
                card: int | None = None, session: Session) -> Flag:
    """Record the director's decision; only an open flag changes (the check is repeated in SQL)."""
    row = session.get(FlagRow, flag_id, with_for_update=True)
    if row is None:
        raise GameRuleError(f"没有编号为 {flag_id} 的标记", hint="用 `tracker flags GAME.toml` 查看全部标记")
    if row.status != "open":
        raise GameRuleError(f"标记 {flag_id} 已处理（{row.status}）", hint="只有待处理的标记可以驳回或判罚")
    row.status = status
    row.decided_by = by
    row.decided_at = at
    row.decision_reason = reason
    row.card_id = card
    session.add(row)
    session.flush()
    return flag_from_row(row)


# ------------------------------------------------------------------------------------ watermark


def scan_key(content_key: str, html_hash: str, blocked: bool) -> str:
    """What a scan depends on: the text (content_key), the HTML (fonts, colours) and whether it is blocked."""
    return hashlib.sha256(f"{content_key}\x00{html_hash}\x00{int(blocked)}".encode()).hexdigest()


def unscanned(tids: Collection[int], *, context_key: str, session: Session) -> dict[int, str]:
    """pid → scan key of the posts in these threads not yet scanned as they now are, under this context.

    Reads only the identity columns (no bodies), so an unchanged store costs one light query. Deleted
    posts are included: a player deleting a violation is exactly when the stored copy matters.
    """
    from tracker.store.tables import PostRow

    post_t = PostRow.__table__  # type: ignore[attr-defined]
    scan_t = FlagScanRow.__table__  # type: ignore[attr-defined]
    q = (select(post_t.c.pid, post_t.c.content_key, post_t.c.html_hash, post_t.c.blocked,
                scan_t.c.content_key.label("scanned"), scan_t.c.context_key.label("ctx"))
         .select_from(post_t.outerjoin(scan_t, scan_t.c.pid == post_t.c.pid))
         .where(post_t.c.tid.in_(list(tids))))
    out: dict[int, str] = {}
    for m in session.connection().execute(q).mappings():
        key = scan_key(m["content_key"], m["html_hash"], bool(m["blocked"]))
        if m["scanned"] != key or m["ctx"] != context_key:
            out[int(m["pid"])] = key
    return out


def mark_scanned(marks: Iterable[tuple[int, str]], *, context_key: str, at: datetime, session: Session) -> int:
    """Move the watermark for these (pid, content_key) pairs; returns how many were written."""
    n = 0
    for pid, content_key in marks:
        row = session.get(FlagScanRow, pid)
        if row is None:
            row = FlagScanRow(pid=pid, content_key=content_key, context_key=context_key, scanned_at=at)
        else:
            row.content_key, row.context_key, row.scanned_at = content_key, context_key, at
        session.add(row)
        n += 1
    try:
        session.flush()
    except IntegrityError as exc:
        raise StoreError(f"无法保存检测进度：{exc.orig}") from None
    return n

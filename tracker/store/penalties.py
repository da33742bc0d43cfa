"""Tables of the penalties area: flags under review, the card ledger and its head, the scan watermark.

The ledger rows are written once and never updated (a revocation is a new row); their ids are the
chain's own numbering, assigned by :func:`tracker.penalties.ledger.chain`, so two directors
appending at once collide on the primary key instead of forking the chain. The head row holds the
entry count and last hash so a deleted newest row is detectable.

The scan watermark remembers which content of which post the detectors have seen, under which
detection context (ruleset, lexicons, game state), so a re-run scans only new or changed posts.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, cast

from sqlalchemy import JSON, Column, Index, String, Text, and_, bindparam, func, or_, select, update
from sqlalchemy import false as sa_false
from sqlalchemy.exc import IntegrityError
from sqlmodel import Field, Session, SQLModel, col

from tracker.errors import GameRuleError, StoreError, UnknownIdError
from tracker.penalties.ledger import Action, Color, Entry, Head
from tracker.penalties.review import Flag, FlagStatus, finding_key
from tracker.store.orm import DEFERRED, table_of  # (the project's MetaData before any table)

if TYPE_CHECKING:
    from tracker.penalties.findings import Finding

LEDGER = "cards"


class FlagRow(SQLModel, table=True):
    """A finding as first detected, plus the director's decision on it."""

    model_config = DEFERRED
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

    model_config = DEFERRED
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
    day: int | None = None
    """The game day of the violation (None on entries written before penalties_0003)."""


class LedgerHeadRow(SQLModel, table=True):
    """The ledger's count and last hash, moved forward in the same transaction as each append."""

    model_config = DEFERRED
    __tablename__ = "card_ledger_head"

    name: str = Field(primary_key=True, sa_type=String(32))
    entries: int
    hash: str = Field(sa_type=String(64))


class FlagScanRow(SQLModel, table=True):
    """The detection watermark: post ``pid`` was scanned as it was (text key, HTML hash, blocked)
    under this detection context. Compared in SQL with the post row, so an unchanged store costs
    one query that returns nothing."""

    model_config = DEFERRED
    __tablename__ = "flag_scan"

    pid: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    content_key: str = Field(sa_type=String(64))
    context_key: str = Field(sa_type=String(64))
    scanned_at: datetime
    html_hash: str = Field(default="", sa_type=String(64), sa_column_kwargs={"server_default": ""})
    blocked: bool = Field(default=False, sa_column_kwargs={"server_default": sa_false()})


# ------------------------------------------------------------------------------------ converters


def _utc(dt: datetime) -> datetime:
    return dt if dt.tzinfo is not None else dt.replace(tzinfo=UTC)


def entry_from_row(r: CardRow) -> Entry:
    return Entry(id=r.id, action=cast(Action, r.action), player=r.player, color=cast("Color | None", r.color),
                 reason=r.reason, issuer=r.issuer, at=_utc(r.at), clause=r.clause, post=r.post, flag=r.flag,
                 ref=r.ref, consumed=tuple(int(x) for x in (r.consumed or [])), evidence=r.evidence,
                 prev_hash=r.prev_hash, hash=r.hash, day=r.day)


def row_from_entry(e: Entry) -> CardRow:
    return CardRow(id=e.id, action=e.action, player=e.player, color=e.color, clause=e.clause, reason=e.reason,
                   issuer=e.issuer, at=e.at, post=e.post, flag=e.flag, ref=e.ref, consumed=list(e.consumed),
                   evidence=e.evidence, prev_hash=e.prev_hash, hash=e.hash, day=e.day)


def flag_from_row(r: FlagRow | Any) -> Flag:
    """From an ORM row or a Core mapping (bulk paths skip the ORM: 10k flags in one go)."""
    m = r if isinstance(r, Mapping) else r.__dict__
    return Flag(id=int(m["id"]), key=m["key"], kind=m["kind"], category=m["category"], clause=m["clause"],
                pid=m["pid"], tid=m["tid"], floor=m["floor"], author=m["author"], posted_at=_utc(m["posted_at"]),
                excerpt=m["excerpt"], matched=m["matched"], html_hash=m["html_hash"], evidence=m["evidence"],
                detected_at=_utc(m["detected_at"]), status=cast(FlagStatus, m["status"]), html=m["html"] or None,
                related_pids=tuple(int(x) for x in (m["related_pids"] or [])), decided_by=m["decided_by"],
                decided_at=_utc(m["decided_at"]) if m["decided_at"] else None,
                decision_reason=m["decision_reason"], card=m["card_id"])


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
    except IntegrityError as exc:
        raise GameRuleError("记牌账本刚被更新过（可能是另一位导演），本次操作未写入",
                            hint="请重新执行该命令") from exc


# --------------------------------------------------------------------------------------- flags


def known_flag_keys(*, session: Session) -> set[str]:
    return set(session.execute(select(col(FlagRow.key))).scalars().all())


def add_flags(findings: Iterable[Finding], *, html_by_pid: dict[int, str], detected_at: datetime,
              session: Session) -> list[Flag]:
    """Store findings as open flags in one bulk insert; the caller has removed known keys (fresh_findings)."""
    flag_t = table_of(FlagRow)
    rows = [{"key": finding_key(f), "kind": f.kind, "category": f.category, "clause": f.clause, "pid": f.pid,
             "tid": f.tid, "floor": f.floor, "author": f.author, "posted_at": f.posted_at, "excerpt": f.excerpt,
             "matched": f.matched, "html": html_by_pid.get(f.pid, ""), "html_hash": f.html_hash,
             "evidence": f.evidence, "related_pids": list(f.related_pids), "detected_at": detected_at,
             "status": "open"} for f in findings]
    if not rows:
        return []
    # ON CONFLICT DO NOTHING: two detections racing on one new database (six first crawls with
    # --detect at once) store each finding once, and neither fails on the other's key.
    conn = session.connection()
    stmt = _dialect_insert(conn.dialect.name, flag_t).on_conflict_do_nothing(index_elements=["key"])
    result = conn.execute(stmt.returning(flag_t), rows)
    order = {r["key"]: i for i, r in enumerate(rows)}
    flags = [flag_from_row(m) for m in result.mappings()]
    return sorted(flags, key=lambda f: order.get(f.key, len(order)))


def _dialect_insert(dialect: str, table: Any) -> Any:
    """``INSERT`` with ON CONFLICT support, on SQLite and PostgreSQL (the two backends we run on)."""
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        return pg_insert(table)
    from sqlalchemy.dialects.sqlite import insert as sqlite_insert

    return sqlite_insert(table)


def list_flags(*, session: Session, status: str | None = None) -> list[Flag]:
    flag_t = table_of(FlagRow)
    q = select(flag_t)
    if status is not None:
        q = q.where(flag_t.c.status == status)
    q = q.order_by(flag_t.c.tid, flag_t.c.floor, flag_t.c.id)
    return [flag_from_row(m) for m in session.connection().execute(q).mappings()]


def count_flags(*, session: Session, status: str | None = None) -> int:
    """How many flags (the badge and the overview): a COUNT, not thousands of rows read to be counted."""
    flag_t = table_of(FlagRow)
    q = select(func.count()).select_from(flag_t)
    if status is not None:
        q = q.where(flag_t.c.status == status)
    return int(session.connection().execute(q).scalar_one())


def get_flag(flag_id: int, *, session: Session) -> Flag:
    row = session.get(FlagRow, flag_id)
    if row is None:
        raise UnknownIdError(f"没有编号为 {flag_id} 的违规记录", hint="用 `tracker flags GAME.toml` 查看全部违规记录")
    return flag_from_row(row)


def decide_flag(flag_id: int, *, status: FlagStatus, by: str, at: datetime, reason: str | None,
                card: int | None = None, session: Session) -> Flag:
    """Record the director's decision; only an open flag changes (the check is repeated in SQL)."""
    row = session.get(FlagRow, flag_id, with_for_update=True)
    if row is None:
        raise UnknownIdError(f"没有编号为 {flag_id} 的违规记录", hint="用 `tracker flags GAME.toml` 查看全部违规记录")
    if row.status != "open":
        raise GameRuleError(f"违规记录 {flag_id} 已处理（{row.status}）", hint="只有待审的违规记录可以驳回或判罚")
    row.status = status
    row.decided_by = by
    row.decided_at = at
    row.decision_reason = reason
    row.card_id = card
    session.add(row)
    session.flush()
    return flag_from_row(row)


# ------------------------------------------------------------------------------------ watermark


@dataclass(frozen=True, slots=True)
class ScanMark:
    """A post as the detectors must see it now: what the watermark will record once it is scanned."""

    pid: int
    tid: int
    floor: int
    content_key: str
    html_hash: str
    blocked: bool


def unscanned(tids: Collection[int], *, context_key: str, session: Session) -> list[ScanMark]:
    """The posts of these threads not yet scanned as they now are, under this context.

    The comparison runs in SQL over identity columns (no bodies): an unchanged store returns no
    rows. Deleted posts are included: a player deleting a violation is when the stored copy matters.
    """
    from tracker.store.tables import post_t

    scan_t = table_of(FlagScanRow)
    stale = or_(scan_t.c.pid.is_(None), scan_t.c.content_key != post_t.c.content_key,
                scan_t.c.html_hash != post_t.c.html_hash, scan_t.c.blocked != post_t.c.blocked,
                scan_t.c.context_key != context_key)
    q = (select(post_t.c.pid, post_t.c.tid, post_t.c.floor, post_t.c.content_key, post_t.c.html_hash,
                post_t.c.blocked)
         .select_from(post_t.outerjoin(scan_t, scan_t.c.pid == post_t.c.pid))
         .where(and_(post_t.c.tid.in_(list(tids)), stale))
         .order_by(post_t.c.tid, post_t.c.floor))
    return [ScanMark(int(r[0]), int(r[1]), int(r[2]), str(r[3]), str(r[4]), bool(r[5]))
            for r in session.connection().execute(q)]


def posts_near(marks: Sequence[ScanMark], *, reach: int, session: Session) -> list[Any]:
    """Stored posts within ``reach`` floors of the marked ones, same thread (for run detectors such
    as 水帖), plus the marked posts themselves; loaded a window at a time, never a whole game."""
    from tracker.store.posts import _stored
    from tracker.store.tables import post_t

    windows: list[tuple[int, int, int]] = []
    for m in sorted(marks, key=lambda m: (m.tid, m.floor)):
        lo, hi = m.floor - reach, m.floor + reach
        if windows and windows[-1][0] == m.tid and lo <= windows[-1][2] + 1:
            windows[-1] = (m.tid, windows[-1][1], max(hi, windows[-1][2]))
        else:
            windows.append((m.tid, lo, hi))
    seen: dict[int, Any] = {}
    conn = session.connection()
    for tid, lo, hi in windows:
        q = select(post_t).where(post_t.c.tid == tid, post_t.c.floor >= lo, post_t.c.floor <= hi)
        for row in conn.execute(q).mappings():
            seen[int(row["pid"])] = _stored(row)
    missing = [m.pid for m in marks if m.pid not in seen]
    for i in range(0, len(missing), 500):
        q = select(post_t).where(post_t.c.pid.in_(missing[i:i + 500]))
        for row in conn.execute(q).mappings():
            seen[int(row["pid"])] = _stored(row)
    return sorted(seen.values(), key=lambda p: (p.tid, p.floor, p.pid))


def mark_scanned(marks: Sequence[ScanMark], *, context_key: str, at: datetime, session: Session) -> int:
    """Move the watermark for these posts (bulk: one query to split updates from inserts)."""
    scan_t = table_of(FlagScanRow)
    conn = session.connection()
    have: set[int] = set()
    pids = [m.pid for m in marks]
    for i in range(0, len(pids), 500):
        have |= {int(r[0]) for r in conn.execute(select(scan_t.c.pid).where(scan_t.c.pid.in_(pids[i:i + 500])))}
    rows = [{"b_pid": m.pid, "content_key": m.content_key, "html_hash": m.html_hash, "blocked": m.blocked,
             "context_key": context_key, "scanned_at": at} for m in marks]
    updates = [r for r in rows if r["b_pid"] in have]
    inserts = [{**{k: v for k, v in r.items() if k != "b_pid"}, "pid": r["b_pid"]} for r in rows
               if r["b_pid"] not in have]
    try:
        if updates:
            conn.execute(update(scan_t).where(scan_t.c.pid == bindparam("b_pid")), updates)
        if inserts:  # another detection may have marked the same post meanwhile: keep its mark
            conn.execute(_dialect_insert(conn.dialect.name, scan_t).on_conflict_do_nothing(
                index_elements=["pid"]), inserts)
    except IntegrityError as exc:
        raise StoreError(f"无法保存检测进度：{exc.orig}") from exc
    return len(rows)

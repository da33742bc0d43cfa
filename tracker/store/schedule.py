"""What the watcher must remember across restarts: who holds the game, and which report slots are written.

The lock is a row, not a file, so two directors on a shared PostgreSQL database see each other's
watcher too. A holder that stopped heart-beating for ``STALE_AFTER`` is presumed dead (SIGKILL,
power loss) and may be taken over; a live one is reported by name, host and pid.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Field, Session, SQLModel, col

from tracker.errors import TrackerError
from tracker.store.orm import DEFERRED  # (the project's MetaData before any table)

STALE_AFTER = timedelta(minutes=10)


class WatchLockRow(SQLModel, table=True):
    model_config = DEFERRED
    __tablename__ = "watch_lock"

    name: str = Field(primary_key=True)
    holder: str
    host: str
    pid: int
    acquired_at: datetime
    heartbeat_at: datetime


class ReportSlotRow(SQLModel, table=True):
    model_config = DEFERRED
    __tablename__ = "report_slot"

    key: str = Field(primary_key=True)
    day: int
    kind: str
    due_at: datetime
    written_at: datetime
    files: str = ""


class WatchLockedError(TrackerError):
    exit_code = 8


def _utc(dt: datetime) -> datetime:
    return dt if dt.tzinfo is not None else dt.replace(tzinfo=UTC)


def acquire_lock(session: Session, *, name: str, holder: str, host: str, pid: int, now: datetime) -> None:
    """Take the game's watch lock or raise WatchLockedError naming whoever holds it."""
    row = session.get(WatchLockRow, name)
    if row is not None:
        alive = now - _utc(row.heartbeat_at) < STALE_AFTER
        same = row.host == host and row.pid == pid
        if alive and not same:
            raise WatchLockedError(
                f"另一个 watch 正在运行：{row.holder}（主机 {row.host}，进程 {row.pid}，"
                f"最后心跳 {_utc(row.heartbeat_at).astimezone().strftime('%Y-%m-%d %H:%M:%S')}）",
                hint=f"先停止它；若它已崩溃，{int(STALE_AFTER.total_seconds() // 60)} 分钟无心跳后可自动接管",
            )
        session.execute(delete(WatchLockRow).where(col(WatchLockRow.name) == name))
        session.flush()
    session.add(WatchLockRow(name=name, holder=holder, host=host, pid=pid, acquired_at=now, heartbeat_at=now))
    try:
        session.flush()
    except IntegrityError as exc:
        session.rollback()
        raise WatchLockedError("另一个 watch 刚刚取得了锁", hint="稍后再试") from exc


def heartbeat(session: Session, *, name: str, host: str, pid: int, now: datetime) -> bool:
    """Renew our lock; False when the lock is no longer ours (taken over after a long silence)."""
    res = session.execute(update(WatchLockRow)
                          .where(col(WatchLockRow.name) == name, col(WatchLockRow.host) == host,
                                 col(WatchLockRow.pid) == pid)
                          .values(heartbeat_at=now))
    return bool(getattr(res, "rowcount", 0) == 1)


def holds_lock(session: Session, *, name: str, host: str, pid: int) -> bool:
    """Whether this watcher still holds the game's lock (checked right before writing or posting)."""
    row = session.get(WatchLockRow, name)
    if row is not None:
        session.refresh(row)
    return row is not None and row.host == host and row.pid == pid


def release_lock(session: Session, *, name: str, host: str, pid: int) -> None:
    session.execute(delete(WatchLockRow)
                    .where(col(WatchLockRow.name) == name, col(WatchLockRow.host) == host, col(WatchLockRow.pid) == pid))


def lock_holder(session: Session, name: str) -> WatchLockRow | None:
    return session.get(WatchLockRow, name)


def written_slots(session: Session) -> set[str]:
    return set(session.execute(select(col(ReportSlotRow.key))).scalars())


def mark_slot_written(session: Session, *, key: str, day: int, kind: str, due_at: datetime, now: datetime,
                      files: list[str]) -> bool:
    """Record a written slot; False when it was already recorded (written by an earlier run)."""
    if session.get(ReportSlotRow, key) is not None:
        return False
    session.add(ReportSlotRow(key=key, day=day, kind=kind, due_at=due_at, written_at=now, files="\n".join(files)))
    session.flush()
    return True

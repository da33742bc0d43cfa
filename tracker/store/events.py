"""The event table: the game's append-only log, read back whole and folded by the engine.

Rows are inserted, never updated or deleted; an undo is another row. ``seq`` is the primary key the
database assigns, so two directors recording at once get distinct, ordered numbers. Times are aware
and stored in UTC; ``data`` is JSON (non-JSON values such as times are written as ISO text).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime
from typing import Any

from sqlalchemy import JSON, String
from sqlmodel import Field, Session, SQLModel, col, select

from tracker.engine.events import Event, EventDraft
from tracker.store.metadata import DEFERRED  # (naming convention before any table)


class EventRow(SQLModel, table=True):
    model_config = DEFERRED
    __tablename__ = "event"

    seq: int | None = Field(default=None, primary_key=True)
    at: datetime
    kind: str = Field(sa_type=String(32), index=True)
    player: str | None = Field(default=None, sa_type=String(255))
    data: dict[str, Any] = Field(default_factory=dict, sa_type=JSON)
    recorded_by: str = Field(sa_type=String(255))
    recorded_at: datetime


def _jsonable(v: Any) -> Any:
    if isinstance(v, datetime | date):
        return v.isoformat()
    if isinstance(v, Mapping):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, list | tuple):
        return [_jsonable(x) for x in v]
    if v is None or isinstance(v, str | int | float | bool):
        return v
    return str(v)


def _to_event(r: EventRow) -> Event:
    assert r.seq is not None
    return Event(seq=r.seq, at=r.at, kind=r.kind, player=r.player, data=dict(r.data or {}),
                 recorded_by=r.recorded_by, recorded_at=r.recorded_at)


def append_event(session: Session, event: Event | EventDraft, *, recorded_at: datetime | None = None) -> Event:
    """Insert one event (its ``seq``, if any, is ignored: the database numbers the log)."""
    when = recorded_at or (event.recorded_at if isinstance(event, Event) else event.at)
    row = EventRow(at=event.at, kind=str(event.kind), player=event.player, data=_jsonable(dict(event.data)),
                   recorded_by=event.recorded_by, recorded_at=when)
    session.add(row)
    session.flush()
    return _to_event(row)


def load_events(session: Session) -> list[Event]:
    """The whole log in recording order."""
    return [_to_event(r) for r in session.exec(select(EventRow).order_by(col(EventRow.seq)))]

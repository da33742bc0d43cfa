"""The event table (:data:`tracker.store.tables.event_t`): the game's append-only log, read back whole
and folded by the engine.

Rows are inserted, never updated or deleted; an undo is another row. ``seq`` is the primary key the
database assigns, so two directors recording at once get distinct, ordered numbers. Times are aware
and stored in UTC; ``data`` is JSON (non-JSON values such as times are written as ISO text).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from tracker.engine.events import Event, EventDraft
from tracker.store import crawl_statements as cs
from tracker.store.sql import statements

if TYPE_CHECKING:
    from tracker.store.db import UnitOfWork


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


def append_event(session: UnitOfWork, event: Event | EventDraft, *, recorded_at: datetime | None = None) -> Event:
    """Insert one event (its ``seq``, if any, is ignored: the database numbers the log)."""
    when = recorded_at or (event.recorded_at if isinstance(event, Event) else event.at)
    values = {"at": event.at, "kind": str(event.kind), "player": event.player, "data": _jsonable(dict(event.data)),
              "recorded_by": event.recorded_by, "recorded_at": when}
    from sqlalchemy import insert

    from tracker.store.tables import event_t

    pk = session.connection().execute(insert(event_t).values(**values)).inserted_primary_key
    assert pk is not None
    return _to_event({**values, "seq": pk[0]})  # as recorded, in the caller's zones (as the ORM row was)


def _to_event(r: Mapping[Any, Any]) -> Event:
    return Event(seq=r["seq"], at=r["at"], kind=r["kind"], player=r["player"], data=dict(r["data"] or {}),
                 recorded_by=r["recorded_by"], recorded_at=r["recorded_at"])


def load_events(session: UnitOfWork) -> list[Event]:
    """The whole log in recording order (the crawl's roster check asks whether it records a
    substitution: a statement of :mod:`tracker.store.crawl_statements`, without SQLAlchemy on SQLite)."""
    return [_to_event(r) for r in statements(session).dicts(cs.EVENTS)]

"""The single MetaData every table registers on, with a naming convention alembic can batch-alter on SQLite."""

from __future__ import annotations

from sqlalchemy import Table
from sqlmodel import SQLModel
from sqlmodel._compat import SQLModelConfig

SQLModel.metadata.naming_convention = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

metadata = SQLModel.metadata

#: Every table's pydantic config: its validator and serializer are built on first use, not when the
#: class is defined. A table row is built without validation (sqlmodel's table construct) and
#: never dumped, so no command builds them; each table's definition costs ~1 ms less (~10 ms of
#: every command's start-up).
DEFERRED = SQLModelConfig(defer_build=True)


def table_of(model: type[SQLModel]) -> Table:
    """The Core table of a row class, for bulk inserts and Core queries. SQLModel's metaclass sets
    ``__table__`` at run time; its type stubs do not declare it, hence the one ignore here."""
    table: Table = model.__table__  # type: ignore[attr-defined]
    return table


def load_all_tables() -> None:
    """Import every table module so the metadata is complete (for alembic's comparison and tests).

    Each area adds its module here: posts/crawls, events, penalties, schedule.
    """
    import importlib

    for name in ("tracker.store.tables", "tracker.store.events", "tracker.store.penalties",
                 "tracker.store.schedule"):
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise

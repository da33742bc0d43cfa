"""The single MetaData every table registers on, with a naming convention alembic can batch-alter on SQLite.

Plain SQLAlchemy Core: the posts area's and the event log's tables are Core ``Table``s defined on it
(what `tracker crawl` writes and reads loads neither the ORM, nor sqlmodel, nor pydantic), and the
areas still written as sqlmodel classes register on it too (:mod:`tracker.store.orm`).
"""

from __future__ import annotations

from sqlalchemy import MetaData

metadata = MetaData(naming_convention={
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
})


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

"""What the areas still written as sqlmodel classes (penalties, schedule) share: the project's one
MetaData under sqlmodel, and the deferred pydantic build.

Imported by those areas only: the crawl's tables (:mod:`tracker.store.tables`, the event log) are
Core, so `tracker crawl` never loads this module, sqlmodel, the ORM or pydantic's model building
for the store.
"""

from __future__ import annotations

from sqlalchemy import Table
from sqlmodel import SQLModel
from sqlmodel._compat import SQLModelConfig

from tracker.store.metadata import metadata

# Every sqlmodel table registers on the project's MetaData (declarative reads ``cls.metadata``), so
# alembic and the tests see one schema, its naming convention included. Set before any table class.
SQLModel.metadata = metadata

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

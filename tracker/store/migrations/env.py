"""Alembic environment: runs on the connection Store.migrate() hands over (or the URL for the CLI)."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, engine_from_config, pool

from tracker.store.metadata import load_all_tables, metadata

load_all_tables()
config = context.config


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=True,
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


conn = config.attributes.get("connection")
if conn is not None:
    _run(conn)
else:
    engine = engine_from_config(config.get_section(config.config_ini_section) or {}, prefix="sqlalchemy.",
                                poolclass=pool.NullPool)
    with engine.connect() as connection:
        _run(connection)

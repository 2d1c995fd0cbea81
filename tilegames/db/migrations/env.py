"""Alembic's environment: always run by tilegames.db.migrate on a connection it has locked."""

from __future__ import annotations

from alembic import context

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError(
        "run the migrations with tilegames.db.migrate(), which passes a locked connection"
    )
context.configure(connection=connection)
with context.begin_transaction():
    context.run_migrations()

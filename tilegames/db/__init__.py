"""Databases for the arcade: SQLite (the embedded default) or PostgreSQL (several server processes).

- :func:`parse_target` reads what ``--db`` takes into a :class:`Target`.
- :func:`migrate` brings a database to the newest schema (Alembic over SQLAlchemy Core, one history for both
  backends, safe when several servers start at once).
- :class:`tilegames.db.postgres.Pool` runs operations on PostgreSQL, each in its own transaction.
- :func:`tilegames.db.copy.copy_database` moves an arcade from one database to another and checks the counts.
"""

from tilegames.db.migrate import HEAD, MigrationError, engine_for, migrate, revision
from tilegames.db.url import Target, TargetError, parse_target

__all__ = [
    "HEAD",
    "MigrationError",
    "Target",
    "TargetError",
    "engine_for",
    "migrate",
    "parse_target",
    "revision",
]

"""One entry point for both backends: a ``--db`` value (a SQLite path or a libpq URL) -> the arcade's store."""

from __future__ import annotations

import os
from pathlib import Path

from tilegames.store.repository import RETENTION_SECONDS, Store, default_path


def open_store(
    db: str | os.PathLike[str] | None = None,
    *,
    synchronous: str = "FULL",
    retention: float = RETENTION_SECONDS,
) -> Store:
    """The store for ``db``: None or a path -> SQLite (group commit); ``postgresql://…`` -> PostgreSQL.

    Raises :class:`tilegames.db.TargetError` for a value that names no usable database and
    :class:`~tilegames.store.StoreError` for one that cannot be opened or migrated.
    """
    path = Path(db) if db is not None else default_path()
    if "://" in str(db):  # a URL (a file path is opened as given, with the store's own messages)
        from tilegames.db import parse_target

        target = parse_target(str(db))
        if target.backend == "postgresql":
            from tilegames.store.postgres import PostgresStore

            return PostgresStore(target, retention=retention)
        assert target.path is not None
        path = target.path
    return Store(path, synchronous=synchronous, retention=retention)

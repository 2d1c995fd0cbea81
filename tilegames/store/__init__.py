"""Persistence for the arcade: the repository on SQLite (group commit) or PostgreSQL (tilegames.store.postgres),
opened by :func:`open_store` from a ``--db`` value."""

from tilegames.store.executor import BATCH, CHECKPOINT_SECONDS, GroupCommit, StoreError
from tilegames.store.open import open_store
from tilegames.store.repository import (
    IDLE_CAP,
    RETENTION_SECONDS,
    Best,
    Conflict,
    GameRow,
    Record,
    Store,
    default_path,
)
from tilegames.store.schema import MIGRATIONS, SCHEMA_VERSION

__all__ = [
    "BATCH",
    "CHECKPOINT_SECONDS",
    "IDLE_CAP",
    "MIGRATIONS",
    "RETENTION_SECONDS",
    "SCHEMA_VERSION",
    "Best",
    "Conflict",
    "GameRow",
    "GroupCommit",
    "Record",
    "Store",
    "StoreError",
    "default_path",
    "open_store",
]

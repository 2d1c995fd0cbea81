"""SQLite persistence for the arcade: the group-commit executor, the schema and its migrations, the repository."""

from tilegames.store.executor import BATCH, CHECKPOINT_SECONDS, GroupCommit, StoreError
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
]

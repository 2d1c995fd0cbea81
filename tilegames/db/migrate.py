"""One migration history for both backends: Alembic over SQLAlchemy Core, run at start, without an alembic.ini.

:func:`migrate` takes a lock first, so two servers starting at once on an empty database do not race: one
migrates, the other waits and then finds nothing to do. On PostgreSQL the lock is ``pg_advisory_xact_lock``; on
SQLite the migration runs inside ``BEGIN IMMEDIATE`` (the file's write lock). DDL is transactional on both, so a
failed upgrade leaves the database as it was.

Files made by the old store carry ``PRAGMA user_version`` 1 or 2 and no ``alembic_version`` table; they are
adopted (stamped with the matching revision, then upgraded). On SQLite ``user_version`` is kept equal to the head
revision's number, so an older tilegames still refuses a file newer than it knows.

To add a revision: copy the newest file in ``migrations/versions/`` to ``NNNN_what.py``, set ``revision = "NNNN"``
and ``down_revision`` to the previous one, write ``upgrade()`` with ``op.create_table`` / ``op.add_column`` /
``op.create_index`` and the types of :mod:`tilegames.db.types` (on SQLite, changing or dropping a column needs
``with op.batch_alter_table(...)``). Nothing else changes: :data:`HEAD` follows.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util.exc import CommandError
from sqlalchemy.engine import Connection, Engine

from tilegames.db.url import Target

_SCRIPTS = Path(__file__).with_name("migrations")

#: Any fixed 64-bit number: the advisory lock all tilegames servers take while migrating.
_LOCK_KEY = 0x7469_6C65_6761_6D65  # "tilegame"

#: Seconds a second server waits on SQLite's write lock while the first migrates.
SQLITE_TIMEOUT = 60.0


class MigrationError(ValueError):
    """The database cannot be brought to this program's schema (newer, foreign, or damaged)."""


def _config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(_SCRIPTS))
    return config


def _scripts() -> ScriptDirectory:
    return ScriptDirectory.from_config(_config())


#: The newest revision this program knows ("0003").
HEAD: str = _scripts().get_current_head() or ""

#: Old store's ``PRAGMA user_version`` -> the revision with the same schema.
_USER_VERSIONS = {1: "0001", 2: "0002", 3: "0003", 4: "0004", 5: "0005"}


def engine_for(target: Target, **options: object) -> Engine:
    """A SQLAlchemy engine for the target; on SQLite, transactions begin with ``BEGIN IMMEDIATE``.

    (pysqlite's own transaction handling defers BEGIN to the first write, which would let two migrating
    processes both read "empty" before either takes the lock.)
    """
    if target.backend == "postgresql":
        return sa.create_engine(target.sqlalchemy_url, **options)
    assert target.path is not None
    target.path.parent.mkdir(parents=True, exist_ok=True)
    engine = sa.create_engine(
        target.sqlalchemy_url,
        connect_args={"timeout": SQLITE_TIMEOUT},
        **options,
    )

    @sa.event.listens_for(engine, "connect")
    def _connect(dbapi_connection: sqlite3.Connection, _record: object) -> None:
        dbapi_connection.isolation_level = None  # we say when transactions begin
        dbapi_connection.execute("PRAGMA foreign_keys=ON")

    @sa.event.listens_for(engine, "begin")
    def _begin(connection: Connection) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


def revision(target: Target) -> str | None:
    """The database's current revision (None for an empty database or an unadopted old file)."""
    engine = engine_for(target)
    try:
        with engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()
    finally:
        engine.dispose()


def migrate(target: Target) -> tuple[str, ...]:
    """Upgrade the database to :data:`HEAD`; return the revisions applied (empty if already there)."""
    engine = engine_for(target)
    try:
        with engine.begin() as connection, _locked(connection):
            return _upgrade(connection)
    except CommandError as error:
        raise MigrationError(f"database {target}: {error}") from error
    except sa.exc.DatabaseError as error:
        reason = str(error.orig).strip().splitlines()[0] if error.orig else str(error)
        raise MigrationError(f"database {target}: {reason}") from error
    finally:
        engine.dispose()


@contextlib.contextmanager
def _locked(connection: Connection) -> Iterator[None]:
    """Hold the migration lock for the rest of the transaction (SQLite: BEGIN IMMEDIATE already holds it)."""
    if connection.dialect.name == "postgresql":
        connection.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": _LOCK_KEY})
    yield


def _upgrade(connection: Connection) -> tuple[str, ...]:
    config = _config()
    config.attributes["connection"] = connection
    context = MigrationContext.configure(connection)
    current = context.get_current_revision()
    sqlite = connection.dialect.name == "sqlite"
    if current is None and sqlite:
        current = _adopt(connection, config)
    scripts = _scripts()
    if current is not None and current not in {s.revision for s in scripts.walk_revisions()}:
        raise MigrationError(
            f"schema revision {current} is newer than this program's {HEAD}: upgrade tilegames"
        )
    pending = [
        script.revision
        for script in reversed(list(scripts.iterate_revisions(HEAD, current or "base")))
    ]
    if pending:
        command.upgrade(config, HEAD)
    if sqlite:
        connection.exec_driver_sql(f"PRAGMA user_version = {int(HEAD)}")
    return tuple(pending)


def _adopt(connection: Connection, config: Config) -> str | None:
    """Stamp a file made by the old store (``user_version`` 1 or 2, no alembic_version) with its revision."""
    version = connection.exec_driver_sql("PRAGMA user_version").scalar_one()
    if version == 0:
        return None
    found = _USER_VERSIONS.get(version)
    if found is None:
        if version > int(HEAD):
            raise MigrationError(
                f"database schema version {version} is newer than this program's {int(HEAD)}"
            )
        raise MigrationError(f"database schema version {version} has no matching revision")
    command.stamp(config, found)
    return found

"""The arcade's repository on PostgreSQL: the same methods and statements as the SQLite store, several processes.

Every operation passed to :meth:`PostgresStore.run` (or :meth:`~PostgresStore.submit`) is one transaction on a
connection of :class:`tilegames.db.postgres.Pool` (``synchronous_commit=on``: an answered move is on disk); the
store's own methods called inside it join that transaction. The reads a write depends on (the game's ply, the
variant's bests) take a row lock (``SELECT … FOR UPDATE``), so two processes never both accept a move for one
ply: the second waits for the first's commit, then sees the new ply and raises :class:`Conflict`. Engine work
never runs here: the web layer checks a move first and passes only the store's statements.

The repository writes ``?`` parameters; :class:`_Translated` turns them into psycopg's ``%s`` (the one place the
two dialects' parameter styles differ).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

import psycopg

from tilegames.db import MigrationError, Target, migrate
from tilegames.db.postgres import DatabaseError, Pool, one
from tilegames.store.executor import TRUNCATE_SECONDS, StoreError
from tilegames.store.repository import _HEALTH, RETENTION_SECONDS, Store

T = TypeVar("T")

#: Connections (and threads running operations) per process.
POOL_SIZE = 8


class _Translated:
    """A psycopg connection that takes the repository's ``?`` parameters."""

    def __init__(self, connection: psycopg.Connection[Any]) -> None:
        self.connection = connection

    def execute(self, sql: str, params: Any = ()) -> psycopg.Cursor[Any]:
        return self.connection.execute(sql.replace("?", "%s"), tuple(params))


class PostgresStore(Store):
    """The store on a PostgreSQL database (a :class:`~tilegames.db.url.Target` with a libpq URL)."""

    row_lock = " FOR UPDATE"

    def __init__(
        self, target: Target, *, retention: float = RETENTION_SECONDS, size: int = POOL_SIZE
    ) -> None:
        self.target = target
        self.path = str(target)  # what messages and the startup line name (password hidden)
        self.retention = retention
        self.commits = 0
        self.operations = 0
        self._closed = False
        self._local = threading.local()
        try:
            self.migrations_applied = tuple(int(r) for r in migrate(target))
            self._pool = Pool(target, size=size)
        except (MigrationError, DatabaseError) as error:
            raise StoreError(str(error)) from None
        self._threads = ThreadPoolExecutor(size, thread_name_prefix="tilegames-pg")
        self._stop = threading.Event()
        self._purger = threading.Thread(
            target=self._purge_loop, name="tilegames-purge", daemon=True
        )
        self.run(self._purge, time.time())
        self._purger.start()

    @property
    def _db(self) -> _Translated:  # type: ignore[override]  # the base's attribute, per thread here
        """The connection of the transaction this thread is in (only inside :meth:`run`)."""
        db: _Translated | None = getattr(self._local, "db", None)
        if db is None:
            raise RuntimeError("the store's statements run only inside PostgresStore.run")
        return db

    def run(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` in one transaction (or in the one this thread is already in); its result once
        committed."""
        if getattr(self._local, "db", None) is not None:
            return fn(*args)
        if self._closed:
            raise StoreError(f"the store {self.target} is closed")

        def transaction(connection: psycopg.Connection[Any]) -> T:
            self._local.db = _Translated(connection)
            try:
                return fn(*args)
            finally:
                self._local.db = None

        try:
            result = self._pool.run(transaction)
        except psycopg.Error as error:
            reason = (
                str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
            )
            raise StoreError(f"database {self.target}: {reason}") from error
        self.commits += 1
        self.operations += 1
        return result

    def submit(self, fn: Callable[..., T], *args: Any) -> Future[T]:
        """``fn(*args)`` in one transaction on a thread of the store's own; the future is set once committed."""
        if self._closed:
            raise StoreError(f"the store {self.target} is closed")
        return self._threads.submit(self.run, fn, *args)

    def read(self, fn: Callable[[Any], T]) -> T:
        """Run the read-only ``fn(connection)`` in a transaction of its own."""
        return self.run(lambda: fn(self._db))

    @property
    def version(self) -> int:
        return self.run(
            lambda: int(one(self._db.execute("SELECT version_num AS v FROM alembic_version"))["v"])
        )

    def check_writable(self, *, headroom: int = 1 << 20) -> None:
        """Commit one write (``synchronous_commit=on``: flushed to the server's disk) or raise StoreError."""
        self.run(lambda: self._db.execute(_HEALTH, (time.time(),)))

    def pragma(self, name: str) -> Any:
        raise StoreError("PRAGMA is SQLite's; PostgreSQL settings are in Pool.durability()")

    def durability(self) -> dict[str, str]:
        """The server settings that decide whether an answered move is on disk (all should be ``on``)."""
        return self._pool.durability()

    def _purge_loop(self) -> None:
        while not self._stop.wait(TRUNCATE_SECONDS):
            try:
                self.run(self.periodic)
            except StoreError:
                continue  # the next round tries again; requests report the problem meanwhile

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._stop.set()
        self._threads.shutdown(wait=True)
        self._pool.close()

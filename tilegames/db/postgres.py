"""PostgreSQL connections for the arcade's repository: a small pool, each operation its own transaction.

``synchronous_commit`` is set to ``on`` for every connection the pool opens, whatever the server's default: a
commit returns only once its WAL record is flushed to disk, so a move the server has answered survives a
``kill -9`` of any process and a power cut (given ``fsync=on`` and ``full_page_writes=on`` on the server, which
:meth:`Pool.durability` reports; see docs/deploy.md). PostgreSQL groups concurrent commits into one WAL flush by
itself, so unlike the SQLite store no writer thread is needed: N threads commit in parallel.

Engine work (solving, hints) must happen outside :meth:`Pool.run`: a transaction is held only for the
operation's statements.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Concatenate, ParamSpec, TypeVar

import psycopg
from psycopg.rows import dict_row
from psycopg_pool import ConnectionPool

from tilegames.db.url import Target, TargetError

P = ParamSpec("P")
T = TypeVar("T")

#: Settings every connection gets: acknowledged commits are on disk.
SESSION_SETTINGS = {"synchronous_commit": "on"}


def one(cursor: psycopg.Cursor[Any]) -> Any:
    """The one row a query that always answers returns (a missing row is a broken server, not a user error)."""
    row = cursor.fetchone()
    if row is None:
        raise DatabaseError("the database returned no row")
    return row


class DatabaseError(ValueError):
    """PostgreSQL refused an operation or could not be reached."""


def _configure(connection: psycopg.Connection[Any]) -> None:
    for name, value in SESSION_SETTINGS.items():
        connection.execute("SELECT set_config(%s, %s, false)", (name, value))
    connection.commit()


class Pool:
    """``pool.run(fn, *args)`` calls ``fn(connection, *args)`` inside one transaction and commits it.

    An exception rolls the transaction back and propagates. Rows come back as dicts. Thread-safe; at most
    ``size`` connections are open.
    """

    def __init__(self, target: Target, *, size: int = 8, timeout: float = 30.0) -> None:
        if target.backend != "postgresql" or target.conninfo is None:
            raise TargetError(f"{target} is not a PostgreSQL database")
        if size < 1:
            raise ValueError(f"pool size must be at least 1, not {size}")
        self.target = target
        self._pool: ConnectionPool[psycopg.Connection[dict[str, Any]]] = ConnectionPool(
            target.conninfo,
            min_size=1,
            max_size=size,
            timeout=timeout,
            kwargs={"row_factory": dict_row},
            configure=_configure,
            check=ConnectionPool.check_connection,
            open=False,
            name="tilegames",
        )
        try:
            self._pool.open(wait=True, timeout=timeout)
        except psycopg.Error as error:
            self._pool.close()
            raise DatabaseError(f"cannot connect to {target}: {error}") from error

    def run(
        self,
        fn: Callable[Concatenate[psycopg.Connection[Any], P], T],
        *args: P.args,
        **kw: P.kwargs,
    ) -> T:
        """Run ``fn(connection, *args)`` in its own transaction; return its result once committed."""
        with self._pool.connection() as connection, connection.transaction():
            return fn(connection, *args, **kw)

    def durability(self) -> dict[str, str]:
        """The server settings that decide whether an acknowledged commit is on disk (all should be ``on``)."""

        def read(connection: psycopg.Connection[Any]) -> dict[str, str]:
            names = ("synchronous_commit", "fsync", "full_page_writes")
            return {
                name: one(connection.execute("SELECT current_setting(%s) AS v", (name,)))["v"]
                for name in names
            }

        return self.run(read)

    def close(self) -> None:
        self._pool.close()

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

"""Group commit: one writer thread runs every database operation and commits them in batches, one fsync each.

An fsync costs about 3 ms on a virtual disk, which would cap the server near 300 moves a second if each move
paid for its own. So the writer thread takes all the operations waiting, runs each inside its own SAVEPOINT (a
failing one is rolled back alone), commits them with one fsync, and only then answers each caller. Callers block
on :meth:`GroupCommit.run` (or await :meth:`GroupCommit.submit`); code already on the writer thread runs directly.

Only database work belongs here: engine work (checking a move, a reshuffle) runs before, and its result is
committed with a ply check (see :mod:`tilegames.store.repository`), so a slow engine call never delays the batch.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import sqlite3
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")

#: Operations committed together at most (one fsync for all of them).
BATCH = 256

LOG = logging.getLogger("tilegames.store")

#: Seconds between two PASSIVE checkpoints of the write-ahead log (they never block the writer).
CHECKPOINT_SECONDS = 2.0

#: Seconds between two TRUNCATE checkpoints, which shrink the log file back to zero bytes.
TRUNCATE_SECONDS = 300.0

#: The write-ahead log is truncated to this size after a checkpoint at most (``journal_size_limit``).
JOURNAL_SIZE_LIMIT = 64 * 1024 * 1024


class StoreError(ValueError):
    """The database is unusable: not a database, corrupted, newer than this program, full, or closed."""


Job = tuple[Callable[..., Any], tuple[Any, ...], "Future[Any]"]


class GroupCommit:
    """A SQLite connection owned by one writer thread that commits queued operations in batches.

    ``periodic`` is called on the writer thread now and then (every ``period`` seconds at most, inside a batch of
    its own); the store uses it to purge abandoned games.
    """

    def __init__(self, path: Path, connection: sqlite3.Connection) -> None:
        self.path: Path | str = path
        self._db = connection
        self.commits = 0
        self.operations = 0
        self._queue: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
        self._closed = False
        self._local = threading.local()
        self._readers: list[sqlite3.Connection] = []
        self._readers_lock = threading.Lock()
        self._writer = threading.Thread(
            target=self._write_loop, name="tilegames-store", daemon=True
        )
        self._writer.start()
        self._stop = threading.Event()
        self._checkpointer = threading.Thread(
            target=self._checkpoint_loop, name="tilegames-checkpoint", daemon=True
        )
        if str(self.path) != ":memory:":
            self._checkpointer.start()

    def submit(self, fn: Callable[..., T], *args: Any) -> Future[T]:
        """Queue ``fn(*args)`` for the writer thread; the future is set once its batch is committed."""
        future: Future[T] = Future()
        if threading.current_thread() is self._writer:
            try:
                future.set_result(fn(*args))
            except BaseException as error:
                future.set_exception(error)
            return future
        if self._closed:
            raise StoreError(f"the store {self.path} is closed")
        self._queue.put((fn, args, future))
        return future

    def run(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` on the writer thread and return its result once it is committed to disk."""
        if threading.current_thread() is self._writer:
            return fn(*args)
        return self.submit(fn, *args).result()

    def read(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run the read-only ``fn(connection)`` on the calling thread's own connection.

        In WAL mode a reader sees every committed write (so everything answered) and never waits for the
        writer's batch and its fsync: GETs do not queue behind moves. On the writer thread, or for an
        in-memory database, it runs on the writer's connection.
        """
        if threading.current_thread() is self._writer or str(self.path) == ":memory:":
            return self.run(fn, self._db)
        if self._closed:
            raise StoreError(f"the store {self.path} is closed")
        try:
            db = getattr(self._local, "db", None)
            if db is None:
                db = sqlite3.connect(
                    str(self.path), check_same_thread=False, isolation_level=None, timeout=10.0
                )
                db.row_factory = sqlite3.Row
                db.execute("PRAGMA query_only=ON")
                self._local.db = db
                with self._readers_lock:
                    self._readers.append(db)
            return fn(db)
        except sqlite3.Error as error:
            raise StoreError(f"database {self.path}: {error}") from error

    def _write_loop(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            while len(batch) < BATCH:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    self._queue.put(None)  # finish this batch, then stop
                    break
                batch.append(item)
            self._commit(batch)

    def _commit(self, batch: list[Job]) -> None:
        outcomes: list[tuple[bool, Any]] = []
        db = self._db
        try:
            db.execute("BEGIN IMMEDIATE")
            for fn, args, _ in batch:
                db.execute("SAVEPOINT op")
                try:
                    outcomes.append((True, fn(*args)))
                    db.execute("RELEASE op")
                except BaseException as error:  # this operation alone is undone
                    try:
                        db.execute("ROLLBACK TO op")
                        db.execute("RELEASE op")
                    except sqlite3.Error:
                        # SQLite rolled the whole transaction back (a full disk does that): every
                        # operation of the batch fails, with the first error's reason.
                        if isinstance(error, sqlite3.Error):
                            raise error from None
                        raise
                    if isinstance(error, sqlite3.Error):  # disk full, I/O error: say why
                        error = StoreError(f"database {self.path}: {error}")
                    outcomes.append((False, error))
            db.execute("COMMIT")
        except sqlite3.Error as error:
            if db.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    db.execute("ROLLBACK")
            failure = StoreError(f"database {self.path}: {error}")
            outcomes = [(False, failure)] * len(batch)
        self.commits += 1
        self.operations += len(batch)
        for (_, _, future), (ok, value) in zip(batch, outcomes, strict=True):
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)

    def pragma(self, name: str) -> Any:
        """The value of a PRAGMA (journal_mode, synchronous, ...), read on the writer thread."""
        if not name.isidentifier():
            raise StoreError(f"not a pragma name: {name!r}")
        return self.run(lambda: self._db.execute(f"PRAGMA {name}").fetchone()[0])

    def periodic(self) -> None:
        """Maintenance run on the writer thread every :data:`TRUNCATE_SECONDS` (subclasses add to it)."""

    def _checkpoint_loop(self) -> None:
        """Copy the write-ahead log into the database now and then, beside the writer (PASSIVE never blocks
        it), so the log stays small and commits never pay for a checkpoint's fsync; now and then a TRUNCATE
        checkpoint resets the log file to zero bytes (it waits for the writer, briefly)."""
        db = sqlite3.connect(str(self.path), isolation_level=None, timeout=10.0)
        last_truncate = time.monotonic()
        try:
            while not self._stop.wait(CHECKPOINT_SECONDS):
                with contextlib.suppress(sqlite3.Error):
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")
                if time.monotonic() - last_truncate >= TRUNCATE_SECONDS:
                    last_truncate = time.monotonic()
                    with contextlib.suppress(sqlite3.Error, StoreError):
                        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                    try:
                        self.submit(self.periodic)
                    except StoreError:
                        pass  # closing
                    except Exception:  # the upkeep failing must not end the checkpoints
                        LOG.exception("the store's periodic upkeep could not be queued")
        finally:
            db.close()

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._queue.put(None)
        self._writer.join()
        self._stop.set()
        if self._checkpointer.is_alive():
            self._checkpointer.join()
        with self._readers_lock:
            for reader in self._readers:
                with contextlib.suppress(sqlite3.Error):
                    reader.close()
        with contextlib.suppress(sqlite3.Error):
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self._db.close()

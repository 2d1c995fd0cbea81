"""SQLite persistence for the arcade: games in progress, their move history, finished results, best scores.

One file (by default in the user's data directory), opened in WAL mode with ``synchronous=FULL``: a transaction
that has committed is in the write-ahead log and fsync'ed before the commit returns, so a move the server has
answered survives a ``kill -9`` of the server and even a power cut. (``NORMAL`` would survive the first but not
the second.)

An fsync costs about 3 ms on a virtual disk, which would cap the server near 300 moves a second if each move
paid for its own. So every operation runs on one writer thread that does *group commit*: it takes all the
operations waiting, runs each inside its own SAVEPOINT (a failing one is rolled back alone), commits them with
one fsync, and only then answers each caller. Callers block on :meth:`Store.run` (or await :meth:`Store.submit`);
code already on the writer thread (an operation calling another) runs directly.

The schema is versioned with ``PRAGMA user_version``; :data:`MIGRATIONS` upgrades an older file step by step,
each step in one transaction.
"""

from __future__ import annotations

import contextlib
import json
import queue
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import platformdirs

MIGRATIONS: tuple[str, ...] = (
    # 1: games, their plies (one row per accepted move, with the board before it, for undo), results.
    """
    CREATE TABLE games (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        variant TEXT NOT NULL,
        start TEXT NOT NULL,
        board TEXT NOT NULL,
        options TEXT NOT NULL DEFAULT '{}',
        status TEXT NOT NULL DEFAULT 'playing',
        moves INTEGER NOT NULL DEFAULT 0,
        seconds REAL NOT NULL DEFAULT 0,
        last_action REAL,
        created REAL NOT NULL,
        updated REAL NOT NULL
    );
    CREATE TABLE plies (
        game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        ply INTEGER NOT NULL,
        move TEXT NOT NULL,
        before TEXT NOT NULL,
        moves_before INTEGER NOT NULL,
        PRIMARY KEY (game_id, ply)
    );
    CREATE TABLE results (
        game_id TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        game TEXT NOT NULL,
        variant TEXT NOT NULL,
        moves INTEGER NOT NULL,
        seconds REAL NOT NULL,
        score INTEGER,
        finished REAL NOT NULL
    );
    """,
    # 2: help counters (a hint or an undo marks a game as assisted; a solver playback as autoplayed).
    """
    ALTER TABLE games ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN undos INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN autoplay INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE results ADD COLUMN assisted INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX results_by_variant ON results (game, variant);
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)

T = TypeVar("T")

#: Operations committed together at most (one fsync for all of them).
BATCH = 256

#: Seconds between two checkpoints of the write-ahead log.
CHECKPOINT_SECONDS = 2.0

#: Time between two actions counted at most this much: a game left open overnight does not score 8 hours.
IDLE_CAP = 60.0


class StoreError(ValueError):
    """The database file is unusable (newer schema than this program knows, or not a database)."""


@dataclass(frozen=True)
class GameRow:
    """One game as stored."""

    id: str
    game: str
    """``slide``, ``klotski`` or ``link``."""
    variant: str
    """What best results are grouped by: a size (``3x3``), a layout name, ``14x6 k21 gravity``."""
    start: str
    """The board at the start, in the game's notation."""
    board: str
    """The board now."""
    options: dict[str, Any]
    status: str
    """``playing`` or ``won``."""
    moves: int
    seconds: float
    """Active playing time: the gaps between actions, each capped at :data:`IDLE_CAP`."""
    last_action: float | None
    created: float
    updated: float
    hints: int = 0
    undos: int = 0
    autoplay: int = 0
    plies: int = 0

    @property
    def assisted(self) -> bool:
        return bool(self.hints or self.undos)

    def clock(self, now: float) -> float:
        """The playing time as of ``now`` (the running gap included, capped)."""
        if self.status != "playing" or self.last_action is None:
            return self.seconds
        return self.seconds + min(max(now - self.last_action, 0.0), IDLE_CAP)


@dataclass(frozen=True)
class Best:
    """The best finished results of one game and variant."""

    game: str
    variant: str
    played: int
    fewest_moves: int
    fastest_seconds: float
    top_score: int | None
    unassisted: int
    """How many of the finished games used no hint and no undo."""


@dataclass
class _Migrator:
    connection: sqlite3.Connection
    applied: list[int] = field(default_factory=list)

    def run(self) -> None:
        version = self.connection.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"database schema version {version} is newer than this program's {SCHEMA_VERSION}"
            )
        for number in range(version + 1, SCHEMA_VERSION + 1):
            script = MIGRATIONS[number - 1]
            # executescript commits first; BEGIN makes the step and its version bump one transaction.
            self.connection.executescript(
                f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;"
            )
            self.applied.append(number)


def default_path() -> Path:
    """The default database file, in the user's data directory."""
    return Path(platformdirs.user_data_dir("tilegames")) / "arcade.sqlite3"


class Store:
    """The arcade's database. Thread-safe: every operation runs on the store's writer thread (group commit).

    Wrap a read-modify-write in one function and pass it to :meth:`run` so two requests on one game cannot
    interleave; the store's own methods may be called inside it.
    """

    def __init__(
        self, path: str | Path | None = None, *, upto: int | None = None, synchronous: str = "FULL"
    ) -> None:
        self.path = Path(path) if path is not None else default_path()
        if str(self.path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        if synchronous not in ("FULL", "NORMAL"):
            raise StoreError(f"synchronous must be FULL or NORMAL, not {synchronous!r}")
        try:
            self._db = sqlite3.connect(
                str(self.path), check_same_thread=False, isolation_level=None, timeout=10.0
            )
            self._db.row_factory = sqlite3.Row
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(f"PRAGMA synchronous={synchronous}")
            self._db.execute("PRAGMA foreign_keys=ON")
            # Checkpoints (copying the log into the database file, with an fsync) happen on a thread of
            # their own (see _checkpoint_loop), never inside a commit that a player is waiting for.
            self._db.execute("PRAGMA wal_autocheckpoint=0")
            migrator = _Migrator(self._db)
            if upto is None:
                migrator.run()
            else:  # only for tests of the migrations: stop at an older version
                for number in range(1, upto + 1):
                    self._db.executescript(
                        f"BEGIN;\n{MIGRATIONS[number - 1]}\nPRAGMA user_version = {number};\nCOMMIT;"
                    )
        except sqlite3.DatabaseError as error:
            raise StoreError(f"cannot open database {self.path}: {error}") from error
        self.migrations_applied = tuple(migrator.applied)
        self.commits = 0
        self.operations = 0
        self._queue: queue.SimpleQueue[
            tuple[Callable[..., Any], tuple[Any, ...], Future[Any]] | None
        ] = queue.SimpleQueue()
        self._closed = False
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

    # The writer thread.

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

    def _commit(self, batch: list[tuple[Callable[..., Any], tuple[Any, ...], Future[Any]]]) -> None:
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
                    db.execute("ROLLBACK TO op")
                    db.execute("RELEASE op")
                    outcomes.append((False, error))
            db.execute("COMMIT")
        except sqlite3.Error as error:
            if db.in_transaction:
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

    @property
    def version(self) -> int:
        return self.run(lambda: int(self._db.execute("PRAGMA user_version").fetchone()[0]))

    def pragma(self, name: str) -> Any:
        """The value of a PRAGMA (journal_mode, synchronous, ...), read on the writer thread."""
        if not name.isidentifier():
            raise StoreError(f"not a pragma name: {name!r}")
        return self.run(lambda: self._db.execute(f"PRAGMA {name}").fetchone()[0])

    def _checkpoint_loop(self) -> None:
        """Copy the write-ahead log into the database now and then, beside the writer (PASSIVE never
        blocks it), so the log stays small and commits never pay for a checkpoint's fsync."""
        db = sqlite3.connect(str(self.path), isolation_level=None, timeout=10.0)
        try:
            while not self._stop.wait(CHECKPOINT_SECONDS):
                with contextlib.suppress(sqlite3.Error):
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)")
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
        with contextlib.suppress(sqlite3.Error):
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self._db.close()

    # Games.

    def create_game(
        self, game: str, variant: str, board: str, options: dict[str, Any] | None = None
    ) -> GameRow:
        """Store a new game and return it."""
        return self.run(self._create_game, game, variant, board, options)

    def _create_game(
        self, game: str, variant: str, board: str, options: dict[str, Any] | None
    ) -> GameRow:
        now = time.time()
        game_id = uuid.uuid4().hex
        self._db.execute(
            "INSERT INTO games (id, game, variant, start, board, options, created, updated)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (game_id, game, variant, board, board, json.dumps(options or {}), now, now),
        )
        row = self._game(game_id)
        assert row is not None
        return row

    def game(self, game_id: str) -> GameRow | None:
        """The game with this id, or None."""
        return self.run(self._game, game_id)

    def _game(self, game_id: str) -> GameRow | None:
        row = self._db.execute(
            "SELECT g.*, (SELECT COUNT(*) FROM plies p WHERE p.game_id = g.id) AS plies"
            " FROM games g WHERE g.id = ?",
            (game_id,),
        ).fetchone()
        return _game_row(row) if row is not None else None

    def last_move(self, game_id: str) -> str | None:
        """The last move still on the game's history (None at the start)."""

        def read() -> str | None:
            row = self._db.execute(
                "SELECT move FROM plies WHERE game_id = ? ORDER BY ply DESC LIMIT 1", (game_id,)
            ).fetchone()
            return row["move"] if row is not None else None

        return self.run(read)

    def history(self, game_id: str) -> list[str]:
        """The moves on the game's history, oldest first."""

        def read() -> list[str]:
            rows = self._db.execute(
                "SELECT move FROM plies WHERE game_id = ? ORDER BY ply", (game_id,)
            ).fetchall()
            return [row["move"] for row in rows]

        return self.run(read)

    def record_move(
        self,
        row: GameRow,
        move: str,
        board: str,
        moves: int,
        *,
        won: bool = False,
        score: int | None = None,
        options: dict[str, Any] | None = None,
        now: float | None = None,
    ) -> GameRow:
        """Append an accepted move (the board after it, the new move count) and commit; on a win, the result too."""
        return self.run(self._record_move, row, move, board, moves, won, score, options, now)

    def _record_move(
        self,
        row: GameRow,
        move: str,
        board: str,
        moves: int,
        won: bool,
        score: int | None,
        options: dict[str, Any] | None,
        now: float | None,
    ) -> GameRow:
        now = time.time() if now is None else now
        seconds = row.clock(now) if row.last_action is not None else row.seconds
        status = "won" if won else "playing"
        db = self._db
        db.execute(
            "INSERT INTO plies (game_id, ply, move, before, moves_before) VALUES (?, ?, ?, ?, ?)",
            (row.id, row.plies + 1, move, row.board, row.moves),
        )
        db.execute(
            "UPDATE games SET board = ?, moves = ?, seconds = ?, last_action = ?, status = ?,"
            " options = ?, updated = ? WHERE id = ?",
            (
                board,
                moves,
                seconds,
                now,
                status,
                json.dumps(row.options if options is None else options),
                now,
                row.id,
            ),
        )
        if won and not row.autoplay:
            db.execute(
                "INSERT OR REPLACE INTO results"
                " (game_id, game, variant, moves, seconds, score, finished, assisted)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (row.id, row.game, row.variant, moves, seconds, score, now, int(row.assisted)),
            )
        new = self._game(row.id)
        assert new is not None
        return new

    def undo(self, row: GameRow, *, now: float | None = None) -> GameRow | None:
        """Take back the last move (board and move count as before it); None when there is none."""
        return self.run(self._undo, row, now)

    def _undo(self, row: GameRow, now: float | None) -> GameRow | None:
        now = time.time() if now is None else now
        db = self._db
        last = db.execute(
            "SELECT ply, before, moves_before FROM plies WHERE game_id = ?"
            " ORDER BY ply DESC LIMIT 1",
            (row.id,),
        ).fetchone()
        if last is None:
            return None
        db.execute("DELETE FROM plies WHERE game_id = ? AND ply = ?", (row.id, last["ply"]))
        db.execute(
            "UPDATE games SET board = ?, moves = ?, undos = undos + 1, seconds = ?,"
            " last_action = ?, updated = ? WHERE id = ?",
            (last["before"], last["moves_before"], row.clock(now), now, now, row.id),
        )
        return self._game(row.id)

    def update_options(self, game_id: str, options: dict[str, Any]) -> None:
        """Replace a game's options (for facts learnt later, such as the optimal length)."""
        self.run(
            self._db.execute,
            "UPDATE games SET options = ? WHERE id = ?",
            (json.dumps(options), game_id),
        )

    def count_help(self, game_id: str, *, hint: bool = False, autoplay: bool = False) -> None:
        """Count a hint, or mark the game as played by the solver (no best result then)."""

        def write() -> None:
            if hint:
                self._db.execute("UPDATE games SET hints = hints + 1 WHERE id = ?", (game_id,))
            if autoplay:
                self._db.execute("UPDATE games SET autoplay = 1 WHERE id = ?", (game_id,))

        self.run(write)

    def delete_game(self, game_id: str) -> bool:
        return self.run(
            lambda: self._db.execute("DELETE FROM games WHERE id = ?", (game_id,)).rowcount > 0
        )

    # Results.

    def best(self, game: str | None = None) -> list[Best]:
        """The best results per game and variant, from every finished game not played by the solver."""
        query = (
            "SELECT game, variant, COUNT(*) AS played, MIN(moves) AS fewest, MIN(seconds) AS fastest,"
            " MAX(score) AS top, SUM(assisted = 0) AS unassisted FROM results"
        )
        params: tuple[Any, ...] = ()
        if game is not None:
            query += " WHERE game = ?"
            params = (game,)
        query += " GROUP BY game, variant ORDER BY game, variant"
        rows = self.run(lambda: self._db.execute(query, params).fetchall())
        return [
            Best(
                r["game"],
                r["variant"],
                r["played"],
                r["fewest"],
                r["fastest"],
                r["top"],
                r["unassisted"],
            )
            for r in rows
        ]


def _game_row(row: sqlite3.Row) -> GameRow:
    data = dict(row)
    data["options"] = json.loads(data["options"])
    return GameRow(**data)

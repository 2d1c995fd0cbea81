"""The arcade's repository: games in progress, their move history, finished results, the table of bests.

One SQLite file (by default in the user's data directory), opened in WAL mode with ``synchronous=FULL``: a
transaction that has committed is in the write-ahead log and fsync'ed before the commit returns, so a move the
server has answered survives a ``kill -9`` of the server and even a power cut. Every operation runs on the
writer thread of :class:`~tilegames.store.executor.GroupCommit`.

Every request costs O(1) in the game's history: the game row keeps its ply count, last move and second metric;
undo reads one ply by its key; the best results are a table updated when a game is won, not a query over all
results. A move is checked by the engine before it reaches the store, and :meth:`Store.record_move` commits it
only if the game is still at the ply the check saw (else :class:`Conflict`).
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import time
import uuid
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import platformdirs

from tilegames.store.executor import GroupCommit, StoreError
from tilegames.store.schema import SCHEMA_VERSION, check_integrity
from tilegames.store.schema import migrate as legacy_migrate

#: Time between two actions counted at most this much: a game left open overnight does not score 8 hours.
IDLE_CAP = 60.0

#: Unfinished games untouched this long are purged (their results, if any, are kept).
RETENTION_SECONDS = 30 * 24 * 3600.0

#: What a record can be: fewest moves, fastest time, top score.
METRICS = ("moves", "seconds", "score")


class Conflict(ValueError):
    """The game moved on since the move was checked (another tab, another request): nothing was written."""


@dataclass(frozen=True)
class Record:
    """What a winning move did to the table of bests."""

    new: bool
    """True when this game set at least one record of its variant."""
    kinds: tuple[str, ...]
    """Which records it set: ``moves``, ``seconds``, ``score``."""
    previous: dict[str, Any] | None
    """The variant's bests before this game (None for the first game of the variant)."""
    counted: bool
    """False when the game had help (a hint or solver playback) and so could not set a record."""

    def as_json(self) -> dict[str, Any]:
        return {
            "new": self.new,
            "kinds": list(self.kinds),
            "previous": self.previous,
            "counted": self.counted,
        }


@dataclass(frozen=True)
class GameRow:
    """One game as stored."""

    id: str
    game: str
    """``slide``, ``klotski`` or ``link``."""
    variant: str
    """What best results are grouped by: each kind of deal its own (``3x3``, ``3x3 d5``, a layout name...)."""
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
    """Moves on the history now (undo takes one off)."""
    last_move: str | None = None
    """The last move on the history (None at the start)."""
    steps: int = 0
    """A second count kept by the game's adapter (Klotski: unit steps; 0 elsewhere)."""
    label: str = ""
    """The variant in words, for people ("4×4, 30 moves from solved")."""
    taken_back: int = 0
    """Moves taken back by undo: undo is allowed, but the moves it took back still count for records."""
    paused: float | None = None
    """When the game was paused (None while it is not): its clock stands still until it is resumed."""
    record: Record | None = None
    """Set only on the row answered for a winning move."""

    @property
    def assisted(self) -> bool:
        """Helped by a hint or by the solver: such a game counts as played but sets no record."""
        return bool(self.hints or self.autoplay)

    @property
    def moves_counted(self) -> int:
        """The moves a record is judged by: those on the board now and those taken back."""
        return self.moves + self.taken_back

    @property
    def running(self) -> bool:
        """Whether the clock runs: from the first move until the win, except while paused."""
        return self.status == "playing" and self.last_action is not None and self.paused is None

    def clock(self, now: float) -> float:
        """The playing time as of ``now`` (the running gap included, capped; nothing added while paused)."""
        if not self.running or self.last_action is None:
            return self.seconds
        return self.seconds + min(max(now - self.last_action, 0.0), IDLE_CAP)


@dataclass(frozen=True)
class Best:
    """The best finished results of one game and variant."""

    game: str
    variant: str
    played: int
    """Games finished, with or without help."""
    fewest_moves: int | None
    """Fewest moves of a game won without help (None for Lianliankan, where it is always tiles ÷ 2)."""
    fastest_seconds: float | None
    top_score: int | None
    unassisted: int
    """How many of the finished games used no hint and no solver playback."""
    label: str = ""


def default_path() -> Path:
    """The default database file, in the user's data directory."""
    return Path(platformdirs.user_data_dir("tilegames")) / "arcade.sqlite3"


#: The health probe's write: one row, replaced (portable upsert).
_HEALTH = (
    "INSERT INTO health (id, checked) VALUES (1, ?)"
    " ON CONFLICT (id) DO UPDATE SET checked = excluded.checked"
)


class Store(GroupCommit):
    """The arcade's database. Thread-safe: every operation runs on the store's writer thread (group commit).

    Wrap a read-modify-write in one function and pass it to :meth:`run` so two requests on one game cannot
    interleave; the store's own methods may be called inside it.

    The statements are written once, with ``?`` parameters and SQL both backends accept;
    :class:`tilegames.store.postgres.PostgresStore` runs the same methods on PostgreSQL.
    """

    #: Appended to the reads a write depends on: nothing here (the writer thread is the only writer),
    #: " FOR UPDATE" on PostgreSQL, where several processes write at once.
    row_lock = ""

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        upto: int | None = None,
        synchronous: str = "FULL",
        retention: float = RETENTION_SECONDS,
    ) -> None:
        path = Path(path) if path is not None else default_path()
        if synchronous not in ("FULL", "NORMAL"):
            raise StoreError(f"synchronous must be FULL or NORMAL, not {synchronous!r}")
        self.retention = retention
        try:
            if str(path) != ":memory:":
                path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(
                str(path), check_same_thread=False, isolation_level=None, timeout=10.0
            )
        except (OSError, sqlite3.Error) as error:
            raise StoreError(f"cannot open database {path}: {error}") from error
        try:
            db.row_factory = sqlite3.Row
            db.execute("PRAGMA journal_mode=WAL")
            db.execute(f"PRAGMA synchronous={synchronous}")
            db.execute("PRAGMA foreign_keys=ON")
            db.execute(f"PRAGMA journal_size_limit={64 * 1024 * 1024}")
            # Checkpoints (copying the log into the database file, with an fsync) happen on a thread of
            # their own (see GroupCommit._checkpoint_loop), never inside a commit a player is waiting for.
            db.execute("PRAGMA wal_autocheckpoint=0")
            check_integrity(db, path)
            if upto is not None or str(path) == ":memory:":
                # The old PRAGMA user_version steps: only to make files as older releases left them (tests),
                # and for a private in-memory database no second process can open.
                self.migrations_applied = legacy_migrate(db, upto)
            else:
                self.migrations_applied = _migrate_file(path)
        except sqlite3.DatabaseError as error:
            db.close()
            raise StoreError(f"cannot open database {path}: {error}") from error
        except StoreError:
            db.close()
            raise
        super().__init__(path, db)
        if upto is None:
            self.run(self._purge, time.time())

    @property
    def version(self) -> int:
        return self.run(lambda: int(self._db.execute("PRAGMA user_version").fetchone()[0]))

    # Maintenance.

    def periodic(self) -> None:
        self._purge(time.time())

    def purge(self, now: float | None = None) -> int:
        """Delete unfinished games untouched for longer than the retention period; their number."""
        return self.run(self._purge, time.time() if now is None else now)

    def _purge(self, now: float) -> int:
        return self._db.execute(
            "DELETE FROM games WHERE status = 'playing' AND updated < ?", (now - self.retention,)
        ).rowcount

    def check_writable(self, *, headroom: int = 1 << 20) -> None:
        """Commit one write (with its fsync) and make sure ``headroom`` bytes more would fit, in the file's page
        limit and on its disk: raises StoreError (its message says "full" when space is the problem)."""

        def probe() -> None:
            db = self._db
            db.execute(_HEALTH, (time.time(),))
            page = db.execute("PRAGMA page_size").fetchone()[0]
            pages = db.execute("PRAGMA page_count").fetchone()[0]
            free_pages = db.execute("PRAGMA freelist_count").fetchone()[0]
            limit = db.execute("PRAGMA max_page_count").fetchone()[0]
            if (limit - pages + free_pages) * page < headroom:
                raise StoreError(f"database {self.path} is full (its page limit is reached)")

        self.run(probe)
        if str(self.path) != ":memory:":
            try:
                free = shutil.disk_usage(Path(self.path).parent).free
            except OSError as error:
                raise StoreError(f"database {self.path}: {error}") from error
            if free < headroom:
                raise StoreError(f"database {self.path}: the disk is full ({free} bytes free)")

    # Games.

    def create_game(
        self,
        game: str,
        variant: str,
        board: str,
        options: dict[str, Any] | None = None,
        *,
        label: str = "",
    ) -> GameRow:
        """Store a new game and return it."""
        return self.run(self._create_game, game, variant, board, options, label)

    def _create_game(
        self, game: str, variant: str, board: str, options: dict[str, Any] | None, label: str
    ) -> GameRow:
        now = time.time()
        game_id = uuid.uuid4().hex
        self._db.execute(
            "INSERT INTO games (id, game, variant, start, board, options, created, updated, label)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                game_id,
                game,
                variant,
                board,
                board,
                json.dumps(options or {}),
                now,
                now,
                label or variant,
            ),
        )
        row = self._game(game_id)
        assert row is not None
        return row

    def game(self, game_id: str) -> GameRow | None:
        """The game with this id, or None."""
        return self.run(self._game, game_id)

    def _game(self, game_id: str) -> GameRow | None:
        return _select_game(self._db, game_id)

    def game_and_best(self, game_id: str) -> tuple[GameRow | None, list[Best]]:
        """The game and its variant's bests, read beside the writer (never queued behind a commit)."""

        def read(db: sqlite3.Connection) -> tuple[GameRow | None, list[Best]]:
            row = _select_game(db, game_id)
            return row, [] if row is None else _select_best(db, row.game, row.variant)

        return self.read(read)

    def history(self, game_id: str) -> list[str]:
        """The moves on the game's history, oldest first (for replays and tests; requests never need it)."""

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
        steps: int | None = None,
        records: tuple[str, ...] = ("moves", "seconds"),
    ) -> GameRow:
        """Append a move checked against ``row`` (the board after it, the new counts) and commit; on a win, the
        result and the bests too (``records``: which metrics can set a record for this game).

        Raises :class:`Conflict` when the game is no longer at ``row.plies`` (or already won).
        """
        return self.run(
            self._record_move, row, move, board, moves, won, score, options, now, steps, records
        )

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
        steps: int | None,
        records: tuple[str, ...],
    ) -> GameRow:
        now = time.time() if now is None else now
        current = _select_game(self._db, row.id, lock=self.row_lock)
        if current is None or current.plies != row.plies or current.status != "playing":
            raise Conflict("the game changed since this move was checked")
        if current.paused is not None:
            raise Conflict("the game was paused since this move was checked")
        row = current  # the help counters and the clock as they are now
        seconds = row.clock(now) if row.last_action is not None else row.seconds
        db = self._db
        db.execute(
            "INSERT INTO plies (game_id, ply, move, before, moves_before, steps_before)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (row.id, row.plies + 1, move, row.board, row.moves, row.steps),
        )
        db.execute(
            "UPDATE games SET board = ?, moves = ?, seconds = ?, last_action = ?, status = ?,"
            " options = ?, updated = ?, plies = plies + 1, last_move = ?, steps = ? WHERE id = ?",
            (
                board,
                moves,
                seconds,
                now,
                "won" if won else "playing",
                json.dumps(row.options if options is None else options),
                now,
                move,
                row.steps if steps is None else steps,
                row.id,
            ),
        )
        record = None
        if won:
            record = self._finish(row, moves + row.taken_back, seconds, score, now, records)
        new = self._game(row.id)
        assert new is not None
        return new if record is None else replace(new, record=record)

    def _finish(
        self,
        row: GameRow,
        moves: int,
        seconds: float,
        score: int | None,
        now: float,
        records: tuple[str, ...],
    ) -> Record:
        """Keep the result and update the variant's bests, in the winning move's transaction."""
        db = self._db
        db.execute(
            "INSERT INTO results (game_id, game, variant, moves, seconds, score, finished, assisted)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET game = excluded.game,"
            " variant = excluded.variant, moves = excluded.moves, seconds = excluded.seconds,"
            " score = excluded.score, finished = excluded.finished, assisted = excluded.assisted",
            (row.id, row.game, row.variant, moves, seconds, score, now, int(row.assisted)),
        )
        before = db.execute(
            "SELECT * FROM bests WHERE game = ? AND variant = ?" + self.row_lock,
            (row.game, row.variant),
        ).fetchone()
        previous = None
        if before is not None:
            previous = {
                "fewest_moves": before["fewest_moves"],
                "fastest_seconds": before["fastest_seconds"],
                "top_score": before["top_score"],
            }
        counted = not row.assisted
        kinds: list[str] = []
        if counted:
            values = {"moves": moves, "seconds": seconds, "score": score}
            columns = {"moves": "fewest_moves", "seconds": "fastest_seconds", "score": "top_score"}
            for kind in records:
                value = values[kind]
                if value is None:
                    continue
                old = previous[columns[kind]] if previous else None
                better = old is None or (value > old if kind == "score" else value < old)
                if better:
                    kinds.append(kind)
        best = dict(previous or {"fewest_moves": None, "fastest_seconds": None, "top_score": None})
        for kind in kinds:
            column = {"moves": "fewest_moves", "seconds": "fastest_seconds", "score": "top_score"}[
                kind
            ]
            best[column] = {"moves": moves, "seconds": seconds, "score": score}[kind]
        db.execute(
            "INSERT INTO bests (game, variant, label, played, unassisted, fewest_moves,"
            " fastest_seconds, top_score, updated) VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?)"
            " ON CONFLICT (game, variant) DO UPDATE SET played = bests.played + 1,"
            " unassisted = bests.unassisted + excluded.unassisted,"
            # The better of the row as it is now and this game's: right even if another process
            # inserted the variant's first row after the read above (nothing to lock then).
            " fewest_moves = CASE WHEN bests.fewest_moves IS NULL"
            " OR excluded.fewest_moves < bests.fewest_moves"
            " THEN excluded.fewest_moves ELSE bests.fewest_moves END,"
            " fastest_seconds = CASE WHEN bests.fastest_seconds IS NULL"
            " OR excluded.fastest_seconds < bests.fastest_seconds"
            " THEN excluded.fastest_seconds ELSE bests.fastest_seconds END,"
            " top_score = CASE WHEN bests.top_score IS NULL OR excluded.top_score > bests.top_score"
            " THEN excluded.top_score ELSE bests.top_score END,"
            " label = excluded.label, updated = excluded.updated",
            (
                row.game,
                row.variant,
                row.label or row.variant,
                int(counted),
                best["fewest_moves"],
                best["fastest_seconds"],
                best["top_score"],
                now,
            ),
        )
        return Record(bool(kinds), tuple(kinds), previous, counted)

    def undo(self, row: GameRow, *, now: float | None = None) -> GameRow | None:
        """Take back the last move (board and counts as before it); None when there is none.

        Raises :class:`Conflict` when the game is no longer at ``row.plies``.
        """
        return self.run(self._undo, row, now)

    def _undo(self, row: GameRow, now: float | None) -> GameRow | None:
        now = time.time() if now is None else now
        current = _select_game(self._db, row.id, lock=self.row_lock)
        if current is None or current.plies != row.plies:
            raise Conflict("the game changed since this undo was asked")
        if current.paused is not None:
            raise Conflict("the game is paused")
        if current.plies == 0:
            return None
        db = self._db
        last = db.execute(
            "SELECT before, moves_before, steps_before FROM plies WHERE game_id = ? AND ply = ?",
            (row.id, current.plies),
        ).fetchone()
        earlier = db.execute(
            "SELECT move FROM plies WHERE game_id = ? AND ply = ?", (row.id, current.plies - 1)
        ).fetchone()
        db.execute("DELETE FROM plies WHERE game_id = ? AND ply = ?", (row.id, current.plies))
        db.execute(
            "UPDATE games SET board = ?, moves = ?, steps = ?, undos = undos + 1, seconds = ?,"
            " last_action = ?, updated = ?, plies = plies - 1, last_move = ?,"
            " taken_back = taken_back + ? WHERE id = ?",
            (
                last["before"],
                last["moves_before"],
                last["steps_before"],
                current.clock(now),
                now,
                now,
                earlier["move"] if earlier is not None else None,
                current.moves - last["moves_before"],
                row.id,
            ),
        )
        return self._game(row.id)

    def pause(self, game_id: str, *, now: float | None = None) -> GameRow | None:
        """Stop the game's clock (and so the Lianliankan score): the time so far is kept, and nothing of the
        pause counts when it resumes. Does nothing to a game already paused or finished; None for no game."""
        row: GameRow | None = self.run(self._pause, game_id, time.time() if now is None else now)
        return row

    def _pause(self, game_id: str, now: float) -> GameRow | None:
        row = _select_game(self._db, game_id, lock=self.row_lock)
        if row is None or row.status != "playing" or row.paused is not None:
            return row
        self._db.execute(
            "UPDATE games SET seconds = ?, paused = ?, updated = ? WHERE id = ?",
            (row.clock(now), now, now, game_id),
        )
        return self._game(game_id)

    def resume(self, game_id: str, *, now: float | None = None) -> GameRow | None:
        """Start the clock again from ``now`` (a game not yet started stays unstarted: its clock starts with
        the first move). Does nothing to a game that is not paused; None for no game."""
        row: GameRow | None = self.run(self._resume, game_id, time.time() if now is None else now)
        return row

    def _resume(self, game_id: str, now: float) -> GameRow | None:
        row = _select_game(self._db, game_id, lock=self.row_lock)
        if row is None or row.paused is None:
            return row
        self._db.execute(
            "UPDATE games SET paused = NULL, last_action = ?, updated = ? WHERE id = ?",
            (None if row.last_action is None else now, now, game_id),
        )
        return self._game(game_id)

    def update_options(self, game_id: str, options: dict[str, Any]) -> None:
        """Replace a game's options (for facts learnt later, such as the optimal length)."""
        text = json.dumps(options)
        self.run(
            lambda: (
                self._db.execute(
                    "UPDATE games SET options = ? WHERE id = ?", (text, game_id)
                ).rowcount
            )
        )

    def count_help(
        self, game_id: str, *, hint: bool = False, autoplay: bool = False, analysis: bool = False
    ) -> None:
        """Count a hint, or mark the game as played by the solver or analysed (it then sets no record).

        ``autoplay`` is a bit set: 1 the solver played, 2 Analysis was on (:mod:`tilegames.web.analysis`).
        """

        def write() -> None:
            if hint:
                self._db.execute("UPDATE games SET hints = hints + 1 WHERE id = ?", (game_id,))
            if autoplay or analysis:
                bits = (1 if autoplay else 0) | (2 if analysis else 0)
                self._db.execute(
                    "UPDATE games SET autoplay = autoplay | ? WHERE id = ?", (bits, game_id)
                )

        self.run(write)

    def delete_game(self, game_id: str) -> bool:
        return self.run(
            lambda: self._db.execute("DELETE FROM games WHERE id = ?", (game_id,)).rowcount > 0
        )

    # Progress (per player).

    def record_progress(
        self, row: GameRow, player: str, *, score: int | None = None, now: float | None = None
    ) -> None:
        """Count a won game in its player's progress: solved unless the solver played it, a star when won with
        no help in at most the optimal number of moves, the player's fewest moves and top score."""
        if row.status != "won" or row.autoplay:
            return
        optimal = row.options.get("optimal")
        star = int(not row.assisted and optimal is not None and row.moves_counted <= optimal)
        moves = None if row.game == "link" else row.moves_counted  # Lianliankan: always tiles ÷ 2
        self.run(
            lambda: self._db.execute(
                """INSERT INTO progress (player, game, variant, solved, star, fewest_moves, top_score,
                       updated) VALUES (?, ?, ?, 1, ?, ?, ?, ?)
                   ON CONFLICT (player, game, variant) DO UPDATE SET
                       solved = progress.solved + 1,
                       star = CASE WHEN excluded.star > progress.star THEN excluded.star
                                   ELSE progress.star END,
                       fewest_moves = CASE WHEN progress.fewest_moves IS NULL
                                             OR excluded.fewest_moves < progress.fewest_moves
                                           THEN excluded.fewest_moves ELSE progress.fewest_moves END,
                       top_score = CASE WHEN progress.top_score IS NULL
                                          OR excluded.top_score > progress.top_score
                                        THEN excluded.top_score ELSE progress.top_score END,
                       updated = excluded.updated""",
                (
                    player,
                    row.game,
                    row.variant,
                    star,
                    moves,
                    score,
                    time.time() if now is None else now,
                ),
            )
        )

    def progress(self, player: str, game: str | None = None) -> list[dict[str, Any]]:
        """A player's progress, per game and variant (read beside the writer)."""

        def read(db: sqlite3.Connection) -> list[dict[str, Any]]:
            query = "SELECT game, variant, solved, star, fewest_moves, top_score FROM progress"
            query += (
                " WHERE player = ?" + (" AND game = ?" if game else "") + " ORDER BY game, variant"
            )
            rows = db.execute(query, (player, game) if game else (player,)).fetchall()
            return [{**dict(r), "star": bool(r["star"])} for r in rows]

        return self.read(read)

    # Results.

    def best(self, game: str | None = None, variant: str | None = None) -> list[Best]:
        """The table of bests (kept up to date by each win), per game and variant."""
        return self.run(lambda: _select_best(self._db, game, variant))


def _migrate_file(path: Path) -> tuple[int, ...]:
    """Bring the file to the newest schema with the one Alembic history (shared with PostgreSQL); the steps."""
    from tilegames.db import MigrationError, migrate, parse_target

    try:
        return tuple(int(revision) for revision in migrate(parse_target(str(path))))
    except MigrationError as error:
        raise StoreError(str(error)) from None


def _select_game(db: Any, game_id: str, *, lock: str = "") -> GameRow | None:
    """The game row; ``lock`` (" FOR UPDATE" on PostgreSQL) holds it until the transaction ends."""
    row = db.execute("SELECT * FROM games WHERE id = ?" + lock, (game_id,)).fetchone()
    return _game_row(row) if row is not None else None


def _select_best(db: Any, game: str | None, variant: str | None) -> list[Best]:
    query = "SELECT * FROM bests"
    clauses, params = [], []
    if game is not None:
        clauses.append("game = ?")
        params.append(game)
    if variant is not None:
        clauses.append("variant = ?")
        params.append(variant)
    if clauses:
        query += " WHERE " + " AND ".join(clauses)
    query += " ORDER BY game, variant"
    return [
        Best(
            r["game"],
            r["variant"],
            r["played"],
            r["fewest_moves"],
            r["fastest_seconds"],
            r["top_score"],
            r["unassisted"],
            r["label"],
        )
        for r in db.execute(query, params).fetchall()
    ]


def _game_row(row: Any) -> GameRow:
    data = dict(row)
    data["options"] = json.loads(data["options"])
    return GameRow(**data)


__all__ = [
    "IDLE_CAP",
    "SCHEMA_VERSION",
    "Best",
    "Conflict",
    "GameRow",
    "Record",
    "Store",
    "StoreError",
]

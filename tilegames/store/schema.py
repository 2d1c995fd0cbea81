"""The arcade's schema and its migrations, versioned with ``PRAGMA user_version``.

Each step upgrades the file by one version inside one transaction. Steps are only ever added, never edited: a
file written by an older release is upgraded step by step. (A later PostgreSQL backend moves this history to
Alembic.)
"""

from __future__ import annotations

import sqlite3

from tilegames.store.executor import StoreError

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
    # 3: O(1) per request and honest records.
    # - Counters kept with the game row: plies, the last move, the second metric (Klotski's unit steps), the
    #   moves taken back by undo (they still count for records), and per ply the steps before it, so neither a
    #   GET nor an undo reads the history.
    # - Each kind of deal its own variant: slide deals by exact distance move from "3x3" to "3x3 d5".
    # - A table of bests per variant, updated when a game is won; records only from games won with no hint and
    #   no solver playback (the old rows: no hint and no undo, as version 2 counted "assisted").
    # - Results outlive their games (a purge of abandoned games never touches them): no cascade.
    """
    ALTER TABLE games ADD COLUMN plies INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN last_move TEXT;
    ALTER TABLE games ADD COLUMN steps INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE games ADD COLUMN label TEXT NOT NULL DEFAULT '';
    ALTER TABLE games ADD COLUMN taken_back INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE plies ADD COLUMN steps_before INTEGER NOT NULL DEFAULT 0;
    UPDATE games SET
        plies = (SELECT COUNT(*) FROM plies p WHERE p.game_id = games.id),
        last_move = (SELECT move FROM plies p WHERE p.game_id = games.id ORDER BY ply DESC LIMIT 1);
    -- Klotski's steps (the letters after the colon) for games already in progress: the same rule as
    -- tilegames.web.games.klotski, written once more here because old rows have no counter.
    UPDATE plies SET steps_before = (
        SELECT COALESCE(SUM(length(q.move) - instr(q.move, ':')), 0) FROM plies q
        WHERE q.game_id = plies.game_id AND q.ply < plies.ply)
        WHERE game_id IN (SELECT id FROM games WHERE game = 'klotski');
    UPDATE games SET steps = (
        SELECT COALESCE(SUM(length(q.move) - instr(q.move, ':')), 0) FROM plies q
        WHERE q.game_id = games.id) WHERE game = 'klotski';
    UPDATE games SET variant = variant || ' d' || json_extract(options, '$.distance')
        WHERE game = 'slide' AND json_extract(options, '$.distance') IS NOT NULL;
    UPDATE games SET label = variant;
    CREATE TABLE results3 (
        game_id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        variant TEXT NOT NULL,
        moves INTEGER NOT NULL,
        seconds REAL NOT NULL,
        score INTEGER,
        finished REAL NOT NULL,
        assisted INTEGER NOT NULL DEFAULT 0
    );
    INSERT INTO results3 SELECT r.game_id, r.game, COALESCE(g.variant, r.variant), r.moves, r.seconds,
        r.score, r.finished, r.assisted FROM results r LEFT JOIN games g ON g.id = r.game_id;
    DROP TABLE results;
    ALTER TABLE results3 RENAME TO results;
    CREATE INDEX results_by_variant ON results (game, variant);
    CREATE TABLE bests (
        game TEXT NOT NULL,
        variant TEXT NOT NULL,
        label TEXT NOT NULL,
        played INTEGER NOT NULL DEFAULT 0,
        unassisted INTEGER NOT NULL DEFAULT 0,
        fewest_moves INTEGER,
        fastest_seconds REAL,
        top_score INTEGER,
        updated REAL NOT NULL,
        PRIMARY KEY (game, variant)
    );
    INSERT INTO bests SELECT game, variant, variant, COUNT(*), SUM(assisted = 0),
        CASE WHEN game = 'link' THEN NULL ELSE MIN(CASE WHEN assisted = 0 THEN moves END) END,
        MIN(CASE WHEN assisted = 0 THEN seconds END),
        MAX(CASE WHEN assisted = 0 THEN score END), MAX(finished)
        FROM results GROUP BY game, variant;
    CREATE INDEX games_abandoned ON games (status, updated);
    CREATE TABLE health (id INTEGER PRIMARY KEY CHECK (id = 1), checked REAL NOT NULL);
    """,
    # 4: progress per player (no accounts: a random id the browser keeps), per game and variant (a Klotski
    # level, a sliding-puzzle rung, a Lianliankan size): solved (wins without solver playback), star (won with no
    # help in the optimal number of moves), the player's own bests.
    """
    CREATE TABLE progress (
        player TEXT NOT NULL,
        game TEXT NOT NULL,
        variant TEXT NOT NULL,
        solved INTEGER NOT NULL DEFAULT 0,
        star INTEGER NOT NULL DEFAULT 0,
        fewest_moves INTEGER,
        top_score INTEGER,
        updated REAL NOT NULL,
        PRIMARY KEY (player, game, variant)
    );
    """,
    # 5: pause on the server: when the game was paused (NULL while it is not); its clock stands still meanwhile.
    """
    ALTER TABLE games ADD COLUMN paused REAL;
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)


def migrate(connection: sqlite3.Connection, upto: int | None = None) -> tuple[int, ...]:
    """Upgrade the file to :data:`SCHEMA_VERSION` (or to ``upto``, for tests of old files); the steps applied."""
    version = connection.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"database schema version {version} is newer than this program's {SCHEMA_VERSION}"
        )
    applied = []
    for number in range(version + 1, (SCHEMA_VERSION if upto is None else upto) + 1):
        # executescript commits first; BEGIN makes the step and its version bump one transaction.
        connection.executescript(
            f"BEGIN IMMEDIATE;\n{MIGRATIONS[number - 1]}\nPRAGMA user_version = {number};\nCOMMIT;"
        )
        applied.append(number)
    return tuple(applied)


def check_integrity(connection: sqlite3.Connection, path: object) -> None:
    """Refuse a damaged file at open (``PRAGMA quick_check``), naming it, rather than fail on some later move."""
    rows = connection.execute("PRAGMA quick_check").fetchall()
    problems = [row[0] for row in rows if row[0] != "ok"]
    if problems:
        raise StoreError(f"database {path} is damaged: {problems[0]}")

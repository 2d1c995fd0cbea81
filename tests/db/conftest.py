"""Old store files for the migration tests (the throwaway PostgreSQL cluster is in tests/conftest.py)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from tilegames.store.schema import migrate as legacy_migrate


@pytest.fixture
def pg(cluster):
    """The cluster with an empty ``tilegames`` database."""
    cluster.reset()
    return cluster


@pytest.fixture
def old_store():
    """``old_store(path, version=2)``: see :func:`old_store_file`."""
    return old_store_file


def old_store_file(path: Path, *, version: int = 2, games: int = 3) -> Path:
    """A database as the old store (``PRAGMA user_version`` steps of tilegames.store.schema) left it at schema
    ``version``: games with two moves each (and, from version 2, a won game with its result and a hint).

    Rows are written with plain SQL in the columns every version has, as the old releases wrote them."""
    db = sqlite3.connect(path, isolation_level=None)
    try:
        legacy_migrate(db, upto=version)
        for number in range(games):
            game_id = f"g{number}"
            db.execute(
                "INSERT INTO games (id, game, variant, start, board, options, moves, created, updated,"
                " last_action) VALUES (?, 'slide', '3x3', ?, ?, ?, 2, ?, ?, ?)",
                (game_id, "1 2 3/4 5 6/7 0 8", "1 2 3/4 5 6/7 0 8", json.dumps({"seed": number}),
                 1000.0 + number, 1001.0 + number, 1001.0 + number),
            )  # fmt: skip
            db.execute(
                "INSERT INTO plies VALUES (?, 1, 'R', '1 2 3/4 5 6/7 0 8', 0)"
                if version < 3
                else "INSERT INTO plies (game_id, ply, move, before, moves_before) VALUES"
                " (?, 1, 'R', '1 2 3/4 5 6/7 0 8', 0)",
                (game_id,),
            )
            db.execute(
                "INSERT INTO plies (game_id, ply, move, before, moves_before) VALUES"
                " (?, 2, 'L', '1 2 3/4 5 6/0 7 8', 1)",
                (game_id,),
            )
            if version >= 2 and number == 0:
                db.execute(
                    "UPDATE games SET hints = 1, status = 'won', moves = 3, board = '1 2 3/4 5 6/7 8 0'"
                    " WHERE id = ?",
                    (game_id,),
                )
                db.execute(
                    "INSERT INTO plies (game_id, ply, move, before, moves_before) VALUES"
                    " (?, 3, 'L', '1 2 3/4 5 6/7 0 8', 2)",
                    (game_id,),
                )
                db.execute(
                    "INSERT INTO results (game_id, game, variant, moves, seconds, score, finished,"
                    " assisted) VALUES (?, 'slide', '3x3', 3, 2.0, 90, 1003.0, 1)",
                    (game_id,),
                )
    finally:
        db.close()
    return path

"""The PostgreSQL pool: one transaction per operation, durable settings, errors."""

from __future__ import annotations

import threading

import pytest

from tilegames.db import migrate, parse_target
from tilegames.db.postgres import DatabaseError, Pool


def _insert(connection, game_id: str) -> int:
    connection.execute(
        "INSERT INTO games (id, game, variant, start, board, created, updated)"
        " VALUES (%s, 'slide', '3x3', 's', 'b', 1, 1)",
        (game_id,),
    )
    return connection.execute("SELECT COUNT(*) AS n FROM games").fetchone()["n"]


def test_operations_commit_or_roll_back_alone(pg) -> None:
    target = parse_target(pg.socket_url)
    migrate(target)
    with Pool(target, size=2) as pool:
        assert pool.run(_insert, "a") == 1

        def fails(connection) -> None:
            _insert(connection, "b")
            raise RuntimeError("engine said no")

        with pytest.raises(RuntimeError):
            pool.run(fails)
        assert pg.sql("SELECT id FROM games ORDER BY id").split() == ["a"]
        assert pool.durability() == {
            "synchronous_commit": "on",
            "fsync": "on",
            "full_page_writes": "on",
        }


def test_synchronous_commit_is_forced_on(pg) -> None:
    """Even when the database's default is off, the pool's connections commit synchronously."""
    pg.sql("ALTER DATABASE tilegames SET synchronous_commit = off")
    with Pool(parse_target(pg.url), size=1) as pool:
        assert pool.durability()["synchronous_commit"] == "on"


def test_threads_share_a_small_pool(pg) -> None:
    target = parse_target(pg.url)
    migrate(target)
    with Pool(target, size=3) as pool:
        threads = [
            threading.Thread(target=lambda i=i: [pool.run(_insert, f"{i}-{j}") for j in range(20)])
            for i in range(8)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert pg.sql("SELECT COUNT(DISTINCT id) FROM games").strip() == "160"
        backends = pg.sql("SELECT COUNT(*) FROM pg_stat_activity WHERE datname = 'tilegames'")
        assert int(backends) <= 3 + 1  # the pool's connections and psql itself


def test_refuses_sqlite_and_unreachable_servers(tmp_path) -> None:
    with pytest.raises(ValueError, match="not a PostgreSQL database"):
        Pool(parse_target(str(tmp_path / "a.sqlite3")))
    with pytest.raises(DatabaseError, match="cannot connect"):
        Pool(parse_target("postgresql://nobody@127.0.0.1:1/none"), timeout=2)

"""The migration history on both backends: same schema as the old store, adoption of its files, no race."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest
import sqlalchemy as sa

from tilegames.db import HEAD, MigrationError, engine_for, migrate, parse_target, revision
from tilegames.store import MIGRATIONS, Store


def _schema(path: Path) -> dict[str, object]:
    """Columns (name, declared type, not null, default, pk), foreign keys and indexes of every table."""
    db = sqlite3.connect(path)
    try:
        tables = [
            r[0]
            for r in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name != 'alembic_version'"
            )
        ]
        schema: dict[str, object] = {}
        for table in sorted(tables):
            # A primary key is NOT NULL in the history (as PostgreSQL requires); the old SQL left it
            # nullable (an SQLite quirk no row relies on), so key columns count as NOT NULL in both.
            columns = [
                (
                    name,
                    kind,
                    notnull or bool(pk),
                    str(default).strip("'") if default is not None else None,
                    pk,
                )
                for _, name, kind, notnull, default, pk in db.execute(f"PRAGMA table_info({table})")
            ]
            keys = [row[2:] for row in db.execute(f"PRAGMA foreign_key_list({table})")]
            indexes = sorted(
                (name, [c[2] for c in db.execute(f"PRAGMA index_info({name})")])
                for _, name, _, origin, _ in db.execute(f"PRAGMA index_list({table})")
                if origin == "c"
            )
            schema[table] = (columns, keys, indexes)
        return schema
    finally:
        db.close()


def test_sqlite_schema_is_the_old_stores(tmp_path: Path) -> None:
    """Cross-check: the Alembic history builds, column for column, what the old store's SQL builds."""
    Store(tmp_path / "old.sqlite3").close()
    new = parse_target(str(tmp_path / "new.sqlite3"))
    assert (
        migrate(new)
        == ("0001", "0002", "0003", "0004", "0005")
        == tuple(f"{n:04d}" for n in range(1, len(MIGRATIONS) + 1))
    )
    assert _schema(tmp_path / "new.sqlite3") == _schema(tmp_path / "old.sqlite3")
    assert revision(new) == HEAD


def test_migrate_twice_does_nothing_and_old_store_opens_it(tmp_path: Path) -> None:
    target = parse_target(str(tmp_path / "a.sqlite3"))
    migrate(target)
    assert migrate(target) == ()
    store = Store(target.path)  # user_version is kept: the old store sees its own newest schema
    try:
        assert store.version == int(HEAD) and store.migrations_applied == ()
        row = store.create_game("link", "4x4", "AB/BA")
        assert store.game(row.id) == row
    finally:
        store.close()


@pytest.mark.parametrize("version", [1, 2, 3])
def test_old_store_files_are_adopted(tmp_path: Path, version: int, old_store) -> None:
    path = old_store(tmp_path / "old.sqlite3", version=version)
    before = (
        sqlite3.connect(path).execute("SELECT id, board, moves FROM games ORDER BY id").fetchall()
    )
    target = parse_target(str(path))
    assert revision(target) is None
    applied = migrate(target)
    assert (
        applied
        == {1: ("0002", "0003", "0004", "0005"), 2: ("0003", "0004", "0005"), 3: ("0004", "0005")}[
            version
        ]
    )
    assert revision(target) == HEAD
    db = sqlite3.connect(path)
    assert db.execute("SELECT id, board, moves FROM games ORDER BY id").fetchall() == before
    assert db.execute("SELECT COUNT(*) FROM plies").fetchone()[0] >= 6
    assert {r[1] for r in db.execute("PRAGMA table_info(games)")} >= {"hints", "undos", "autoplay"}
    db.close()


def test_newer_files_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "future.sqlite3"
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version = 99")
    db.close()
    with pytest.raises(MigrationError, match="newer than this program"):
        migrate(parse_target(str(path)))
    target = parse_target(str(tmp_path / "b.sqlite3"))
    migrate(target)
    engine = engine_for(target)
    with engine.begin() as connection:
        connection.exec_driver_sql("UPDATE alembic_version SET version_num = '9999'")
    engine.dispose()
    with pytest.raises(MigrationError, match="9999"):
        migrate(target)


def test_not_a_database(tmp_path: Path) -> None:
    path = tmp_path / "junk.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(MigrationError, match="not a database"):
        migrate(parse_target(str(path)))


def _race(url: str, racers: int = 4) -> list[object]:
    """``racers`` threads migrate the same empty database at the same moment; each one's outcome."""
    barrier = threading.Barrier(racers)
    outcomes: list[object] = [None] * racers

    def one(index: int) -> None:
        barrier.wait()
        try:
            outcomes[index] = migrate(parse_target(url))
        except Exception as error:  # recorded and asserted on below
            outcomes[index] = error

    threads = [threading.Thread(target=one, args=(i,), daemon=True) for i in range(racers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=180)
    assert not any(t.is_alive() for t in threads), "migrations deadlocked"
    return outcomes


def _assert_one_winner(outcomes: list[object]) -> None:
    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    assert sorted(outcomes, key=len) == [()] * (len(outcomes) - 1) + [
        ("0001", "0002", "0003", "0004", "0005")
    ]


def test_concurrent_sqlite_migrations_do_not_race(tmp_path: Path) -> None:
    path = tmp_path / "race.sqlite3"
    _assert_one_winner(_race(str(path)))
    db = sqlite3.connect(path)
    assert db.execute("SELECT version_num FROM alembic_version").fetchall() == [(HEAD,)]


def test_postgres_types_and_constraints(pg) -> None:
    target = parse_target(pg.url)
    assert migrate(target) == ("0001", "0002", "0003", "0004", "0005")
    assert revision(target) == HEAD
    types = dict(
        line.split("|")
        for line in pg.sql(
            "SELECT table_name || '.' || column_name, data_type FROM information_schema.columns"
            " WHERE table_schema = 'public'"
        ).splitlines()
    )
    assert types["games.id"] == "text" and types["plies.before"] == "text"
    assert types["games.moves"] == "bigint" and types["results.assisted"] == "bigint"
    assert types["games.seconds"] == types["results.seconds"] == "double precision"
    assert "results_by_variant" in pg.sql("SELECT indexname FROM pg_indexes")
    engine = engine_for(target)
    with engine.begin() as connection:
        connection.exec_driver_sql(
            "INSERT INTO games (id, game, variant, start, board, created, updated)"
            " VALUES ('g', 'slide', '3x3', 's', 'b', 1, 1)"
        )
        connection.exec_driver_sql("INSERT INTO plies VALUES ('g', 1, 'R', 's', 0)")
        row = connection.exec_driver_sql("SELECT status, options, hints FROM games").one()
        assert tuple(row) == ("playing", "{}", 0)
        connection.exec_driver_sql("DELETE FROM games")
        assert connection.exec_driver_sql("SELECT COUNT(*) FROM plies").scalar_one() == 0
    with pytest.raises(sa.exc.IntegrityError), engine.begin() as connection:
        connection.exec_driver_sql("INSERT INTO plies VALUES ('nobody', 1, 'R', 's', 0)")
    engine.dispose()


def test_concurrent_postgres_migrations_do_not_race(pg) -> None:
    _assert_one_winner(_race(pg.url, racers=6))
    assert pg.sql("SELECT version_num FROM alembic_version").split() == [HEAD]
    assert (
        pg.sql("SELECT COUNT(*) FROM pg_tables WHERE schemaname = 'public'").strip() == "7"
    )  # 6 + alembic_version


def test_socket_url_migrates(pg) -> None:
    assert migrate(parse_target(pg.socket_url)) == ("0001", "0002", "0003", "0004", "0005")
    assert migrate(parse_target(pg.url)) == ()


def test_unreachable_postgres_is_one_line() -> None:
    with pytest.raises(MigrationError) as caught:
        migrate(parse_target("postgresql://nobody@127.0.0.1:1/none?connect_timeout=2"))
    assert "\n" not in str(caught.value) and "127.0.0.1" in str(caught.value)

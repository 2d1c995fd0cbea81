"""`tilegames db copy`: an old store's file into a real PostgreSQL, every row, counts checked."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
import sqlalchemy as sa

from tilegames.cli import main
from tilegames.db import engine_for, migrate, parse_target
from tilegames.db.copy import CopyError, copy_database


def _rows(target, table: str, like=None) -> list[tuple]:
    """The table's rows, in the columns ``like`` (another target) has, or all of its own."""
    if like is not None:
        engine = engine_for(like)
        with engine.connect() as connection:
            columns = [c["name"] for c in sa.inspect(connection).get_columns(table)]
        engine.dispose()
    engine = engine_for(target)
    with engine.connect() as connection:
        if like is None:
            columns = [c["name"] for c in sa.inspect(connection).get_columns(table)]
        rows = connection.exec_driver_sql(
            f"SELECT {', '.join(sorted(columns))} FROM {table}"
        ).fetchall()
    engine.dispose()
    return sorted(tuple(r) for r in rows)


@pytest.mark.parametrize("version", [1, 2])
def test_copy_an_old_store_into_postgres(pg, tmp_path: Path, old_store, version: int) -> None:
    path = old_store(tmp_path / "arcade.sqlite3", version=version, games=5)
    before = path.read_bytes()
    source, target = parse_target(str(path)), parse_target(pg.url)
    copied = copy_database(source, target)
    assert path.read_bytes() == before  # read only
    counts = {t: sqlite3.connect(path).execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
              for t in ("games", "plies", "results")}  # fmt: skip
    assert copied.tables == counts and counts["games"] == 5 and counts["plies"] >= 10
    if version == 2:
        assert counts["results"] == 1
        assert _rows(target, "games", like=source) == _rows(source, "games")
        assert _rows(target, "plies", like=source) == _rows(source, "plies")
        assert _rows(target, "results", like=source) == _rows(source, "results")
    else:  # columns the old file lacks get the target's defaults
        assert set(pg.sql("SELECT hints + undos + autoplay FROM games").split()) == {"0"}


def test_non_empty_target_needs_force(pg, tmp_path: Path, old_store) -> None:
    path = old_store(tmp_path / "a.sqlite3", games=2)
    source, target = parse_target(str(path)), parse_target(pg.url)
    copy_database(source, target)
    with pytest.raises(CopyError, match=r"not empty: games \(2 rows\)"):
        copy_database(source, target)
    again = copy_database(source, target, force=True)
    assert again.replaced == sum(again.tables.values())
    assert pg.sql("SELECT COUNT(*) FROM games").strip() == "2"


def test_tables_added_later_are_copied_generically(pg, tmp_path: Path, old_store) -> None:
    """A table present in both (as a future revision would add) is copied without code changes."""
    path = old_store(tmp_path / "a.sqlite3", games=1)
    db = sqlite3.connect(path)
    db.executescript(
        "CREATE TABLE daily (day TEXT PRIMARY KEY, board TEXT NOT NULL);"
        "INSERT INTO daily VALUES ('2026-11-23', 'x'), ('2026-11-24', 'y');"
        "CREATE TABLE scratch (n INTEGER);"
    )
    db.close()
    target = parse_target(pg.url)
    migrate(target)
    pg.sql("CREATE TABLE daily (day text PRIMARY KEY, board text NOT NULL)")
    copied = copy_database(parse_target(str(path)), target)
    assert copied.tables["daily"] == 2 and copied.skipped == ("scratch",)
    assert pg.sql("SELECT board FROM daily ORDER BY day").split() == ["x", "y"]


def test_a_failed_copy_leaves_the_target_empty(pg, tmp_path: Path, old_store) -> None:
    path = old_store(tmp_path / "a.sqlite3", games=2)
    db = sqlite3.connect(path)
    db.execute(
        "INSERT INTO plies VALUES ('no-such-game', 1, 'R', 'b', 0)"
    )  # breaks the foreign key
    db.commit()
    db.close()
    with pytest.raises(CopyError, match="failed"):
        copy_database(parse_target(str(path)), parse_target(pg.url))
    assert pg.sql("SELECT COUNT(*) FROM games").strip() == "0"


def test_cli_copy_json_and_text(pg, tmp_path: Path, old_store, capsys) -> None:
    path = old_store(tmp_path / "a.sqlite3", games=3)
    assert main(["db", "copy", "--from", str(path), "--to", pg.socket_url, "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["tables"]["games"] == 3 and payload["tables"]["results"] == 1
    assert main(["db", "copy", "--from", str(path), "--to", pg.url, "--force"]) == 0
    out = capsys.readouterr().out
    assert "games: 3 rows" in out and "replaced" in out
    assert main(["db", "migrate", "--db", pg.url, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["applied"] == []


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--from", "missing.sqlite3", "--to", "postgresql://u@h/db"], "does not exist"),
        (["--from", "a.sqlite3", "--to", "mysql://u@h/db"], "unknown database scheme"),
        (["--from", "a.sqlite3", "--to", "postgresql://u@h"], "names no database"),
        (["--from", "a.sqlite3", "--to", "a.sqlite3"], "same database"),
        (["--from", "a.sqlite3"], "required"),
    ],
)
def test_cli_bad_input_is_one_line(
    tmp_path: Path, old_store, capsys, monkeypatch, args: list[str], words: str
) -> None:
    monkeypatch.chdir(tmp_path)
    old_store(tmp_path / "a.sqlite3", games=1)
    assert main(["db", "copy", *args]) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1

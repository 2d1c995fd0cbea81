"""Storage failures and upkeep (issue 12 §2 and §4): a full store answers 507 JSON and health says so, both
recover when space is freed; a damaged file is refused at open; abandoned games are purged, results kept; an
old (version 2) file is upgraded with its records split by kind of deal."""

from __future__ import annotations

import sqlite3
import time
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from tilegames.store import SCHEMA_VERSION, Store, StoreError
from tilegames.web import create_app

from .conftest import GENEROUS

START = "1 2 3/4 5 6/0 7 8"


def limit_pages(store: Store, pages: int | None) -> None:
    """Cap the file at its current size (None: lift the cap), as a full disk would."""
    count = store.pragma("page_count") if pages is None else pages
    store.run(lambda: store._db.execute(f"PRAGMA max_page_count = {count}"))


def test_a_full_store_answers_507_and_health_reads_not_ok_until_space_is_freed(tmp_path):
    store = Store(tmp_path / "full.sqlite3")
    with TestClient(create_app(store=store, limits=GENEROUS, warm=False)) as client:
        game = store.create_game("slide", "3x3", START, label="3×3")
        assert client.get("/api/health").json() == {
            "ok": True,
            "schema": SCHEMA_VERSION,
            "store": "ok",
        }
        limit_pages(store, None)
        # Play back and forth until the file has no room left for the next move.
        moved, plies = None, 0
        for letter in "LR" * 2000:
            moved = client.post(f"/api/games/{game.id}/moves", json={"move": letter})
            if moved.status_code != 200:
                break
            plies += 1
        assert moved is not None and moved.status_code == 507
        error = moved.json()["error"]
        assert error["code"] == "storage_full" and "disk is full" in error["message"]
        assert store.game(game.id).plies == plies  # the refused move left nothing behind
        health = client.get("/api/health")
        assert health.status_code == 503 and health.json()["ok"] is False
        assert health.json()["store"] == "storage_full"
        limit_pages(store, 1_000_000)  # space freed
        assert client.get("/api/health").json()["ok"] is True
        letter = "LR"[plies % 2]
        again = client.post(f"/api/games/{game.id}/moves", json={"move": letter})
        assert again.status_code == 200 and again.json()["plies"] == plies + 1
    store.close()


def test_a_damaged_file_is_refused_at_open_naming_it(tmp_path):
    path = tmp_path / "damaged.sqlite3"
    store = Store(path)
    for n in range(300):
        store.create_game("slide", "3x3", f"{START} {n}" * 4)
    store.close()
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) > 6 * page
    data[3 * page : 5 * page] = b"\x07" * (2 * page)  # two pages in the middle turned to garbage
    path.write_bytes(bytes(data))
    with pytest.raises(StoreError) as refused:
        Store(path)
    assert str(path) in str(refused.value)


def test_abandoned_games_are_purged_after_the_retention_period_results_kept(tmp_path):
    store = Store(tmp_path / "purge.sqlite3", retention=3600.0)
    try:
        old = store.create_game("slide", "3x3", START)
        fresh = store.create_game("slide", "3x3", START)
        won = store.create_game("slide", "3x3", START)
        won = store.record_move(won, "L", "1 2 3/4 5 6/7 0 8", 1)
        store.record_move(won, "L", "1 2 3/4 5 6/7 8 0", 2, won=True)
        now = time.time()
        store.run(
            store._db.execute,
            "UPDATE games SET updated = ? WHERE id IN (?, ?)",
            (now - 7200, old.id, won.id),
        )
        assert store.purge(now) == 1
        assert store.game(old.id) is None and store.game(fresh.id) is not None
        assert store.game(won.id) is not None  # finished games are not "abandoned"
        assert store.best("slide")[0].played == 1
        count = store.run(lambda: store._db.execute("SELECT COUNT(*) FROM results").fetchone()[0])
        assert count == 1
    finally:
        store.close()


def test_the_write_ahead_log_is_bounded(tmp_path):
    store = Store(tmp_path / "wal.sqlite3")
    try:
        assert store.pragma("journal_size_limit") == 64 * 1024 * 1024
        assert store.pragma("wal_autocheckpoint") == 0  # checkpoints run on their own thread
    finally:
        store.close()


def test_upgrade_from_a_version_2_file_splits_records_by_kind_of_deal(tmp_path):
    path = tmp_path / "v2.sqlite3"
    old = Store(path, upto=2)
    now = time.time()
    rows = [
        # id, variant, options, moves, hints
        ("u1", "3x3", "{}", 20, 0),
        ("d1", "3x3", '{"distance": 5}', 5, 0),  # bug 4: stored as "3x3" by version 2
        ("h1", "3x3", "{}", 12, 1),
        ("k1", "横刀立马", "{}", 90, 0),
    ]
    for game_id, variant, options, moves, hints in rows:
        game = "klotski" if game_id == "k1" else "slide"
        old.run(
            old._db.execute,
            "INSERT INTO games (id, game, variant, start, board, options, status, moves, created, updated,"
            " hints) VALUES (?, ?, ?, 's', 'b', ?, 'won', ?, ?, ?, ?)",
            (game_id, game, variant, options, moves, now, now, hints),
        )
        old.run(
            old._db.execute,
            "INSERT INTO results (game_id, game, variant, moves, seconds, score, finished, assisted)"
            " VALUES (?, ?, ?, ?, 30.0, NULL, ?, ?)",
            (game_id, game, variant, moves, now, hints),
        )
    playing = old.run(lambda: None)
    assert playing is None
    old.run(
        old._db.execute,
        "INSERT INTO games (id, game, variant, start, board, created, updated)"
        " VALUES ('p1', 'klotski', '横刀立马', 's', 'b', ?, ?)",
        (now, now),
    )
    for ply, move in enumerate(["A:D", "B:LL", "A:U"], start=1):
        old.run(
            old._db.execute,
            "INSERT INTO plies (game_id, ply, move, before, moves_before) VALUES ('p1', ?, ?, 'b', ?)",
            (ply, move, ply - 1),
        )
    old.close()

    new = Store(path)
    try:
        assert new.migrations_applied == tuple(range(3, SCHEMA_VERSION + 1))
        best = {b.variant: b for b in new.best("slide")}
        assert set(best) == {"3x3", "3x3 d5"}
        assert (best["3x3"].played, best["3x3"].unassisted, best["3x3"].fewest_moves) == (2, 1, 20)
        assert (best["3x3 d5"].played, best["3x3 d5"].fewest_moves) == (1, 5)
        assert new.game("d1").variant == "3x3 d5"
        klotski = new.best("klotski")[0]
        assert (klotski.variant, klotski.fewest_moves) == ("横刀立马", 90)
        playing = new.game("p1")
        assert (playing.plies, playing.last_move, playing.steps) == (3, "A:U", 4)
        back = new.undo(playing)
        assert (back.plies, back.last_move, back.steps) == (2, "B:LL", 3)
    finally:
        new.close()
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    raw.close()


def test_serve_refuses_bad_retention_and_move_rate(capsys, tmp_path):
    from tilegames.cli import main

    db = str(tmp_path / "never.sqlite3")
    assert main(["serve", "--db", db, "--retention-days", "0"]) == 2
    assert "--retention-days" in capsys.readouterr().err
    assert main(["serve", "--db", db, "--client-move-rate", "-1"]) == 2
    assert "--client-move-rate" in capsys.readouterr().err
    assert not (tmp_path / "never.sqlite3").exists()  # refused before the database is opened


def test_the_checkpoint_thread_truncates_the_log_and_purges(tmp_path, monkeypatch):
    from tilegames.store import executor

    monkeypatch.setattr(executor, "CHECKPOINT_SECONDS", 0.05)
    monkeypatch.setattr(executor, "TRUNCATE_SECONDS", 0.0)
    path = tmp_path / "upkeep.sqlite3"
    store = Store(path, retention=3600.0)
    try:
        old = store.create_game("slide", "3x3", START)
        store.run(store._db.execute, "UPDATE games SET updated = 0 WHERE id = ?", (old.id,))
        for n in range(50):
            store.create_game("slide", "3x3", f"{START} {n}")
        wal = path.with_name(path.name + "-wal")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and (
            store.game(old.id) is not None or wal.stat().st_size > 0
        ):
            time.sleep(0.05)
        assert store.game(old.id) is None  # purged by the periodic upkeep, not by a request
        assert wal.stat().st_size == 0  # and the log truncated after it
    finally:
        store.close()


def test_a_failing_upkeep_never_stops_the_checkpoints(tmp_path, monkeypatch, caplog):
    """An error nobody foresaw while queueing the periodic upkeep is logged, and the checkpoint
    thread goes on (it used to die, and the log would then grow without bound)."""
    from tilegames.store import executor

    monkeypatch.setattr(executor, "CHECKPOINT_SECONDS", 0.02)
    monkeypatch.setattr(executor, "TRUNCATE_SECONDS", 0.0)
    store = Store(tmp_path / "flaky.sqlite3")
    queue_it = store.submit
    asked: list[bool] = []

    def flaky(fn, *args):
        if fn == store.periodic:
            asked.append(True)
            if len(asked) <= 3:
                raise RuntimeError("the disk caught fire")
        return queue_it(fn, *args)

    store.submit = flaky  # type: ignore[method-assign]
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and len(asked) < 6:
            time.sleep(0.02)
        assert len(asked) >= 6  # asked again after three failures
        assert store._checkpointer.is_alive()
        assert sum("upkeep" in r.getMessage() for r in caplog.records) == 3
    finally:
        store.close()


def test_the_app_closes_the_store_it_opened_and_only_that_one(tmp_path):
    """Stopping the app stops the writer and checkpoint threads of the store it opened (and leaves
    the log truncated); a store handed to it stays open for its owner."""
    own = create_app(tmp_path / "own.sqlite3", limits=GENEROUS, warm=False)
    with TestClient(own) as client:
        assert (
            client.post("/api/games", json={"game": "slide", "width": 3, "height": 3}).status_code
            < 300
        )
    store = own.state.arcade.store
    assert not store._writer.is_alive() and not store._checkpointer.is_alive()
    wal = tmp_path / "own.sqlite3-wal"
    assert not wal.exists() or wal.stat().st_size == 0  # checkpointed into the file, then closed
    theirs = Store(tmp_path / "theirs.sqlite3")
    try:
        with TestClient(create_app(store=theirs, limits=GENEROUS, warm=False)):
            pass
        assert theirs._writer.is_alive()
        assert theirs.create_game("slide", "3x3", START) is not None
    finally:
        theirs.close()

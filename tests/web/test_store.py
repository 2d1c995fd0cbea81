"""The arcade's store on both backends (the ``store`` fixture), and the SQLite file's own behaviour: games and their history, undo, results, migrations, durability settings."""

from __future__ import annotations

import sqlite3

import pytest

from tilegames.store import IDLE_CAP, SCHEMA_VERSION, Store, StoreError, open_store


@pytest.fixture
def store(fresh_db):
    s = open_store(fresh_db())
    yield s
    s.close()


def test_new_database_has_the_current_schema(store):
    assert store.version == SCHEMA_VERSION
    assert store.migrations_applied == tuple(range(1, SCHEMA_VERSION + 1))


def test_new_file_is_in_wal_mode_with_full_sync(tmp_path):
    store = Store(tmp_path / "arcade.sqlite3")
    assert store.pragma("journal_mode") == "wal"
    assert store.pragma("synchronous") == 2  # FULL
    store.close()


def test_moves_and_undo_restore_board_and_count(store):
    row = store.create_game("slide", "3x3", "1 2 3/4 5 6/7 0 8", {"optimal": 1})
    assert (row.moves, row.plies, row.status, row.options) == (0, 0, "playing", {"optimal": 1})
    after = store.record_move(row, "L", "1 2 3/4 5 6/7 8 0", 1, won=True, score=None, now=100.0)
    assert (after.board, after.moves, after.status, after.plies) == (
        "1 2 3/4 5 6/7 8 0",
        1,
        "won",
        1,
    )
    assert store.history(row.id) == ["L"]
    again = store.create_game("slide", "3x3", "1 2 3/4 5 6/0 7 8")
    moved = store.record_move(again, "LL", "1 2 3/4 5 6/7 8 0", 2)
    back = store.undo(moved)
    assert back is not None
    assert (back.board, back.moves, back.plies, back.undos) == ("1 2 3/4 5 6/0 7 8", 0, 0, 1)
    assert store.undo(back) is None


def test_results_and_best_per_variant(store):
    for moves, seconds, hints in ((30, 50.0, 0), (24, 80.0, 1)):
        row = store.create_game("slide", "3x3", "x")
        if hints:
            store.count_help(row.id, hint=True)
            row = store.game(row.id)
        row = store.record_move(row, "R", "y", moves, now=1000.0)
        row = store.record_move(row, "L", "z", moves, won=True, now=1000.0 + seconds)
    auto = store.create_game("slide", "3x3", "x")
    store.count_help(auto.id, autoplay=True)
    store.record_move(store.game(auto.id), "R", "y", 1, won=True)
    store.record_move(store.create_game("slide", "4x4", "x"), "R", "y", 99, won=True)
    best = {b.variant: b for b in store.best("slide")}
    assert set(best) == {"3x3", "4x4"}
    three = best["3x3"]
    # Played counts every finished game; records come only from the one won without help.
    assert (three.played, three.fewest_moves, three.unassisted) == (3, 30, 1)
    assert three.fastest_seconds == pytest.approx(min(50.0, IDLE_CAP))
    assert store.best("link") == []


def test_clock_caps_idle_gaps(store):
    row = store.create_game("link", "6x4 k6", "AA/BB")
    row = store.record_move(row, "0,0-0,1", "../BB", 1, now=1000.0)
    assert row.seconds == 0.0
    row = store.record_move(row, "1,0-1,1", "../..", 2, now=1000.0 + 10 * IDLE_CAP)
    assert row.seconds == IDLE_CAP


def test_data_survives_reopening(tmp_path):
    path = tmp_path / "a.sqlite3"
    first = Store(path)
    row = first.record_move(first.create_game("klotski", "横刀立马", "A"), "G:D", "B", 1)
    first.close()
    second = Store(path)
    again = second.game(row.id)
    assert again is not None and (again.board, again.moves, again.variant) == ("B", 1, "横刀立马")
    assert second.migrations_applied == ()
    second.close()


def test_migration_from_version_1_keeps_games(tmp_path):
    path = tmp_path / "old.sqlite3"
    old = Store(path, upto=1)
    assert old.version == 1
    old.run(
        old._db.execute,
        "INSERT INTO games (id, game, variant, start, board, created, updated)"
        " VALUES ('g1', 'slide', '3x3', 's', 'b', 0, strftime('%s', 'now'))",
    )
    old.close()
    new = Store(path)
    assert new.version == SCHEMA_VERSION and new.migrations_applied == tuple(
        range(2, SCHEMA_VERSION + 1)
    )
    row = new.game("g1")
    assert row is not None and (row.hints, row.undos, row.autoplay, row.board) == (0, 0, 0, "b")
    new.close()


def test_newer_schema_and_garbage_files_are_refused(tmp_path):
    newer = tmp_path / "newer.sqlite3"
    db = sqlite3.connect(newer)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(StoreError, match="newer"):
        Store(newer)
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match="cannot open"):
        Store(garbage)


def test_delete_and_unknown_ids(store):
    row = store.create_game("slide", "3x3", "b")
    assert store.game("nope") is None
    assert store.delete_game(row.id) and not store.delete_game(row.id)
    assert store.game(row.id) is None


def test_group_commit_answers_every_caller_and_isolates_failures(store):
    """Many threads at once: each gets its own answer, a failing operation is rolled back alone."""
    import threading

    row = store.create_game("slide", "3x3", "start")
    results: list[object] = []

    def good(n: int) -> None:
        results.append(
            store.run(
                lambda: (
                    store._db.execute(
                        "UPDATE games SET moves = moves + 1 WHERE id = ?", (row.id,)
                    ).rowcount
                )
            )
        )

    def bad() -> None:
        def fail() -> None:
            store._db.execute("UPDATE games SET board = 'broken' WHERE id = ?", (row.id,))
            raise RuntimeError("boom")

        with pytest.raises(RuntimeError, match="boom"):
            store.run(fail)

    threads = [threading.Thread(target=good, args=(n,)) for n in range(40)]
    threads.append(threading.Thread(target=bad))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    again = store.game(row.id)
    assert results == [1] * 40 and again.moves == 40 and again.board == "start"
    assert store.commits <= store.operations


def test_closed_store_refuses_work(fresh_db):
    s = open_store(fresh_db())
    s.close()
    with pytest.raises(StoreError, match="closed"):
        s.game("x")


def test_one_winner_per_ply_when_moves_race(store):
    """Threads (PostgreSQL: connections, each its own transaction) all submit a move checked at ply 0: exactly
    one is stored, the others raise Conflict; the history has one ply."""
    import threading

    from tilegames.store import Conflict

    row = store.create_game("slide", "3x3", "1 2 3/4 5 6/7 0 8")
    barrier = threading.Barrier(8)
    outcomes: list[object] = []

    def play(n: int) -> None:
        barrier.wait()
        try:
            outcomes.append(store.record_move(row, f"m{n}", f"board{n}", 1).last_move)
        except Conflict:
            outcomes.append(Conflict)

    threads = [threading.Thread(target=play, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    winners = [o for o in outcomes if o is not Conflict]
    assert len(outcomes) == 8 and len(winners) == 1
    assert store.history(row.id) == winners and store.game(row.id).plies == 1


def test_bests_keep_the_best_when_wins_race(store):
    """Many games of one variant won at once: played counts all, the record is the minimum (the upsert)."""
    import threading

    rows = [store.create_game("slide", "5x5", "x") for _ in range(8)]
    barrier = threading.Barrier(len(rows))

    def win(n: int) -> None:
        barrier.wait()
        store.record_move(rows[n], "R", "y", 40 - n, won=True, now=1000.0 + n)

    threads = [threading.Thread(target=win, args=(n,)) for n in range(len(rows))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    (best,) = store.best("slide", "5x5")
    assert (best.played, best.unassisted, best.fewest_moves) == (8, 8, 40 - 7)

"""The exhaustive search in two tables (`halves.Halves`): run by one thread or two, it reaches
the verdicts and the tiles of the obviously right search, its lines replay across the tables,
and a full table claims nothing."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from tests.link.test_exhaust import cells, reachable, ringed_boards
from tests.link.test_solve import replay_clears
from tilegames.link import deal
from tilegames.link import halves as halves_module
from tilegames.link.exhaust import DEAD, FOUND, GROW, PAUSE, SOLVED, USED, Exhaust
from tilegames.link.halves import Halves


def finish(halves: Halves, threads: int, budget: int = 7) -> int:
    """`step` from `threads` threads until each has a verdict; they must agree."""
    verdicts: list[int] = []

    def work() -> None:
        while (status := halves.step(budget)) == PAUSE:
            pass
        verdicts.append(status)

    workers = [threading.Thread(target=work) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert len(set(verdicts)) == 1, verdicts
    return verdicts[0]


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize(("scout", "alone"), [(0, 0), (30_000, 0), (0, 5)])
def test_verdicts_and_tiles_are_those_of_every_position(monkeypatch, threads, scout, alone):
    # confined from the first position or after scouting, split at once or after 5 positions
    monkeypatch.setattr(halves_module, "_ALONE", alone)
    cleared = 0
    for board in ringed_boards(80):
        taken, clearable, _, _ = reachable(board.grid())
        halves = Halves(board.grid(), 1 << 26)
        halves.bounds.scout = scout
        status = finish(halves, threads)
        assert status == (SOLVED if clearable else DEAD), str(board)
        if status == DEAD:
            assert set(np.flatnonzero(halves.may)) == taken, str(board)
        else:
            assert replay_clears(board, cells(halves.moves())), str(board)
            cleared += 1
    assert 0 < cleared < 160


def test_two_threads_split_a_hard_deal_and_keep_its_tiles(monkeypatch):
    monkeypatch.setattr(halves_module, "_ALONE", 0)
    # 24x12, 72 kinds x 4, random: round 7's search sees every position of these in a second
    for seed in (17, 30):
        board = deal(24, 12, 72, 4, seed=seed, gravity=True, solvable=False)
        plain = Exhaust(board.grid(), 1 << 28, confine=False)
        assert plain.step(1 << 30) == DEAD
        halves = Halves(board.grid(), 1 << 28)
        halves.bounds.scout = 0  # split from the first position
        assert finish(halves, 2, 512) == DEAD
        assert np.array_equal(halves.may, plain.taken()), seed
        held = [int(table.meta[USED]) for table in halves.tables]
        assert min(held) > sum(held) // 4, held  # both tables hold a share of the positions


@pytest.mark.parametrize("alone", [0, 20])
def test_a_line_that_crosses_the_tables_replays(monkeypatch, alone):
    # split at once, or after 20 positions in one table (their parents renumbered)
    monkeypatch.setattr(halves_module, "_ALONE", alone)
    board = deal(12, 8, 24, seed=3, gravity=True)
    halves = Halves(board.grid(), 1 << 26)
    halves.bounds.scout = 0
    assert finish(halves, 2, 64) == SOLVED
    assert replay_clears(board, cells(halves.moves()))
    table, row, owners = halves.found, int(halves.found.meta[FOUND]), set()
    while (table.owner, row) != (0, 0):
        owners.add(table.owner)
        up = int(table.parent[row])
        table, row = halves.tables[up & 1], up >> 1
    assert owners == {0, 1}  # the line's positions lie in both tables


def test_one_table_until_shared(monkeypatch):
    # the solver makes its search unshared, and shares it once the restarts' lines die young
    monkeypatch.setattr(halves_module, "_ALONE", 0)
    board = deal(24, 12, 72, 4, seed=17, gravity=True, solvable=False)
    alone = Halves(board.grid(), 1 << 28, shared=False)
    alone.bounds.scout = 0
    assert finish(alone, 2, 512) == DEAD
    assert not alone.split and alone.tables[1].meta[USED] == 0
    later = Halves(board.grid(), 1 << 28, shared=False)
    later.bounds.scout = 0
    assert later.step(512) == PAUSE and not later.split
    later.share()
    assert finish(later, 2, 512) == DEAD
    assert later.split and later.tables[1].meta[USED] > 0
    assert np.array_equal(later.may, alone.may)


def test_a_full_table_claims_nothing():
    board = deal(24, 12, 72, 4, seed=5, gravity=True, solvable=False)
    halves = Halves(board.grid(), 1 << 22)  # 2 MB a table: no room to double its rows
    assert finish(halves, 2, 256) == GROW
    assert halves.full
    assert all(len(t.hashes) * t.row_bytes <= 1 << 21 for t in halves.tables)


def test_past_the_deadline_the_other_halfs_positions_wait_and_none_is_lost(monkeypatch):
    # taking them all at once took up to half a second: a search answered 0.15 s late
    monkeypatch.setattr(halves_module, "_ALONE", 0)
    board = deal(24, 12, 72, 4, seed=17, gravity=True, solvable=False)
    plain = Exhaust(board.grid(), 1 << 28, confine=False)
    assert plain.step(1 << 30) == DEAD
    halves = Halves(board.grid(), 1 << 28)
    halves.bounds.scout = 0
    waited = 0
    while waited < 5:
        if halves._pick() == 1 and halves.inbox[1]:  # table 1 next, with positions to take
            waiting = sum(len(batch) for batch in halves.inbox[1])
            used = int(halves.tables[1].meta[USED])
            halves.bounds.until = time.perf_counter() - 1  # the deadline has passed
            assert halves.step(512) == PAUSE
            assert int(halves.tables[1].meta[USED]) == used  # nothing taken, nothing expanded
            assert sum(len(batch) for batch in halves.inbox[1]) == waiting
            halves.bounds.until = None
            waited += 1
        assert halves.step(512) == PAUSE
    assert finish(halves, 1, 512) == DEAD
    assert np.array_equal(halves.may, plain.taken())  # every position still seen


def test_with_one_thread_neither_inbox_grows_past_its_bound(monkeypatch):
    # with one thread the table with more on its stack was picked again and again: on this
    # deal the other's inbox grew to 66,449 positions (to 1.7 million on harder ones)
    monkeypatch.setattr(halves_module, "_ALONE", 0)
    monkeypatch.setattr(halves_module, "_WAITING", 8192)
    board = deal(24, 12, 72, 4, seed=11, gravity=True, solvable=False)
    one = Exhaust(board.grid(), 1 << 28)
    assert one.step(1 << 30) == DEAD
    halves = Halves(board.grid(), 1 << 28)
    batch = len(halves.tables[0].outbox)  # one hand-over
    most = 0
    while (status := halves.step(512)) == PAUSE:
        most = max(most, *halves.waiting)
    assert status == DEAD
    assert 8192 < most <= 8192 + batch
    assert np.array_equal(halves.may, one.may)

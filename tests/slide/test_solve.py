"""Optimal solvers: heuristics admissible everywhere on 3×3, lengths equal to BFS, PDBs exact."""

from __future__ import annotations

import os
import random
import time
from collections import deque

import numpy as np
import pytest

from tilegames.common import Limits
from tilegames.slide import (
    Board,
    SearchLimitError,
    hint,
    random_board,
    scramble,
    solve,
)
from tilegames.slide.solve import kernels, pdb, pdb_kernels
from tilegames.slide.solve.common import relabel
from tilegames.slide.solve.pdb import PARTITIONS, PatternDatabase, PatternHeuristic, partition_for

KORF_GOAL = Board(4, 4, list(range(16)))
KORF_1 = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3"  # 57 moves


def all_states(goal: Board) -> tuple[np.ndarray, np.ndarray, int]:
    """Every solvable 3×3 state relabelled to `goal`, and its BFS distance."""
    table = kernels.bfs_full(np.array(goal.tiles, np.int64), 3, 3)
    ranks = np.flatnonzero(table >= 0)
    states = np.empty((ranks.size, 9), np.int64)
    perm = np.empty(9, np.int64)
    where = np.argsort(np.array(goal.tiles))
    for i, rank in enumerate(ranks):
        kernels.unrank_perm(int(rank), 9, perm)
        states[i] = where[perm]
    return states, table[ranks].astype(np.int64), goal.blank


@pytest.mark.parametrize("goal", [Board.solved(3, 3), Board(3, 3, list(range(9)))])
def test_linear_conflict_never_overestimates_on_any_8_puzzle_state(goal):
    states, dist, b = all_states(goal)
    assert states.shape[0] == 181_440
    md = kernels.batch_heuristic(states, 3, 3, b, False)
    mdlc = kernels.batch_heuristic(states, 3, 3, b, True)
    assert (mdlc <= dist).all()
    assert (mdlc >= md).all() and (mdlc > md).sum() > 10_000
    assert ((mdlc - dist) % 2 == 0).all()  # both have the parity of the blank's trip


def test_linear_conflict_counts_tiles_not_pairs():
    # 3 2 1 in the top row: three conflicting pairs, but taking 2 tiles out fixes the order.
    board = Board.parse("3 2 1/4 5 6/7 8 0")
    state, b = relabel(board, Board.solved(3, 3))
    assert kernels.manhattan_lc(state, 3, 3, b, True) == board.manhattan() + 4


def test_optimal_lengths_equal_bfs_on_a_large_sample():
    rng = random.Random(11)
    for goal in (Board.solved(3, 3), Board(3, 3, list(range(9)))):
        states, dist, _b = all_states(goal)
        for i in rng.sample(range(states.shape[0]), 400):
            board = Board(3, 3, [goal.tiles[label] for label in states[i]])
            solution = solve(board, goal)
            assert solution.length == dist[i] and solution.optimal
            board.play(solution.moves)
            assert board == goal


def test_rectangular_and_other_heuristics_agree_with_bfs(bfs):
    goal = Board.solved(4, 2)
    distances = bfs(goal.tiles, 4, 2)
    for tiles in random.Random(3).sample(sorted(distances), 150):
        board = Board(4, 2, list(tiles))
        for heuristic in ("mdlc", "manhattan"):
            assert solve(board, heuristic=heuristic).length == distances[tiles]


def reference_pdb(width: int, height: int, blank: int, cells: tuple[int, ...]) -> dict:
    """0-1 BFS over (pattern cells, blank cell): moves of other tiles cost nothing."""
    start = (cells, blank)
    dist = {start: 0}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        placed, z = state
        r, c = divmod(z, width)
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            if not (0 <= r + dr < height and 0 <= c + dc < width):
                continue
            s = (r + dr) * width + c + dc
            cost = 1 if s in placed else 0
            nxt = (tuple(z if p == s else p for p in placed), s)
            if nxt not in dist or dist[nxt] > dist[state] + cost:
                dist[nxt] = dist[state] + cost
                (queue.append if cost else queue.appendleft)(nxt)
    best: dict[tuple[int, ...], int] = {}
    for (placed, _), d in dist.items():
        best[placed] = min(best.get(placed, 99), d)
    return best


@pytest.mark.parametrize(
    ("w", "h", "blank", "cells"),
    [(3, 3, 8, (0, 1, 2, 5)), (3, 3, 4, (6, 7, 3)), (4, 2, 0, (1, 2, 5))],
)
def test_pdb_builder_matches_a_reference_bfs(w, h, blank, cells):
    db = PatternDatabase.build(w, h, blank, cells)
    reference = reference_pdb(w, h, blank, cells)
    factors = np.array([int(x) for x in _factors(w * h, len(cells))], np.int64)
    assert len(reference) == db.table.shape[0]
    for placed, d in reference.items():
        rank = pdb_kernels.rank_cells(np.array(placed, np.int64), len(cells), w * h, factors)
        assert db.table[rank] == d


def _factors(n, k):
    from tilegames.slide.solve.pdb import _factors as f

    return f(n, k)


@pytest.mark.parametrize(
    "goal", [Board.solved(3, 3), Board(3, 3, list(range(9))), Board.parse("1 2 3/4 0 5/6 7 8")]
)
def test_pdb_heuristic_admissible_on_every_8_puzzle_state(goal):
    """The same builder and kernels as the 4×4 7-8 databases, on a cheap 4-4 split of the 8-puzzle."""
    states, dist, b = all_states(goal)
    groups = partition_for(3, 3, b, "4-4")
    heuristic = PatternHeuristic.from_databases(
        tuple(PatternDatabase.build(3, 3, b, g) for g in groups)
    )
    assert heuristic.refl.size == 9  # the blank's goal cell is on the diagonal in all three goals
    values = np.array([heuristic(s) for s in states[::7]])
    assert (values <= dist[::7]).all() and values.mean() > 10


def test_the_partitions_cover_every_tile_once():
    for (w, h, _), groups in PARTITIONS.items():
        assert sorted(c for g in groups for c in g) == list(range(1, w * h))


def test_pdb_cache_is_rebuilt_when_damaged(tmp_path):
    db = PatternDatabase.get(3, 3, 8, (0, 1, 2), cache_dir=tmp_path, progress=False)
    expected = np.array(db.table)  # a copy: the table is a map of the file damaged below
    (path,) = tmp_path.iterdir()
    raw = bytearray(path.read_bytes())
    raw[-5] ^= 0xFF
    path.write_bytes(bytes(raw))
    assert PatternDatabase.load(3, 3, 8, (0, 1, 2), tmp_path) is None
    again = PatternDatabase.get(3, 3, 8, (0, 1, 2), cache_dir=tmp_path, progress=False)
    assert np.array_equal(again.table, expected)
    assert PatternDatabase.load(3, 3, 8, (0, 1, 2), tmp_path) is not None
    path.write_bytes(raw[:100])
    assert PatternDatabase.load(3, 3, 8, (0, 1, 2), tmp_path) is None


def test_cached_tables_are_mapped_read_only(tmp_path):
    built = PatternDatabase.get(3, 3, 8, (0, 1, 2), cache_dir=tmp_path, progress=False)
    loaded = PatternDatabase.load(3, 3, 8, (0, 1, 2), tmp_path)
    assert loaded is not None and not loaded.table.flags.writeable
    assert isinstance(loaded.table.base, np.memmap)
    assert np.array_equal(loaded.table, built.table)
    heuristic = PatternHeuristic.from_databases(
        tuple(
            PatternDatabase.get(3, 3, 8, g, cache_dir=tmp_path)
            for g in ((0, 1, 2, 3), (4, 5, 6, 7))
        )
    )
    assert heuristic(np.array([0, 1, 2, 3, 4, 5, 6, 8, 7])) == 1  # one move from the goal


def test_big_tables_are_checked_once_per_version_of_the_file(tmp_path, monkeypatch):
    """Past ALWAYS_CHECK_BYTES the CRC is checked once and stamped; any rewrite forces a new check."""
    monkeypatch.setattr(pdb, "ALWAYS_CHECK_BYTES", 0)
    PatternDatabase.get(3, 3, 8, (0, 1, 2), cache_dir=tmp_path, progress=False)
    path = tmp_path / PatternDatabase.file_name(3, 3, 8, (0, 1, 2))
    stamp = path.with_name(path.name + ".ok")
    assert stamp.exists()
    assert PatternDatabase.load(3, 3, 8, (0, 1, 2), tmp_path) is not None
    raw = bytearray(path.read_bytes())
    raw[-5] ^= 0xFF
    before = path.stat().st_mtime_ns
    path.write_bytes(bytes(raw))
    os.utime(path, ns=(before + 10**9, before + 10**9))  # a rewrite moves the time, however coarse
    assert PatternDatabase.load(3, 3, 8, (0, 1, 2), tmp_path) is None


def test_an_interrupted_save_leaves_no_file(tmp_path, monkeypatch):
    db = PatternDatabase.build(3, 3, 8, (0, 1, 2))

    def fail(*_):
        raise OSError("disk full")

    monkeypatch.setattr(pdb.os, "fsync", fail)
    with pytest.raises(OSError):
        db.save(tmp_path)
    assert list(tmp_path.iterdir()) == []


KORF_EASY = [
    ("13 5 4 10 9 12 8 14 2 3 7 1 0 15 11 6", 55),  # Korf's 2, 6 and 9
    ("14 7 1 9 12 3 6 15 8 11 2 5 10 0 4 13", 52),
    ("3 14 9 11 5 4 8 2 13 12 6 7 10 1 15 0", 46),
]


def test_korf_instances_with_6_6_3_built_from_nothing(pdb_cache):
    for text, length in KORF_EASY:
        board = Board(4, 4, [int(t) for t in text.split()])
        solution = solve(board, KORF_GOAL, cache_dir=pdb_cache)
        assert solution.length == length and solution.optimal
        board.play(solution.moves)
        assert board == KORF_GOAL


def test_pdb_and_linear_conflict_agree_on_4x4(pdb_cache):
    for seed in range(6):
        board = scramble(Board.solved(4, 4), 36, seed=seed)
        with_pdb = solve(board, cache_dir=pdb_cache)
        plain = solve(board, heuristic="mdlc")
        assert with_pdb.length == plain.length
        assert with_pdb.nodes < plain.nodes or plain.nodes < 1000
        board.play(with_pdb.moves)
        assert board.is_solved()


def test_any_4x4_goal(pdb_cache):
    goal = Board.parse("1 2 3 4/5 0 6 7/8 9 10 11/12 13 14 15")  # blank off the corners
    for seed in range(3):
        board = scramble(goal, 30, seed=seed)
        fast_pdb = solve(board, goal, partition="5-5-5", cache_dir=pdb_cache)
        plain = solve(board, goal, heuristic="mdlc")
        assert fast_pdb.length == plain.length
        board.play(fast_pdb.moves)
        assert board == goal
    corner = Board.parse("15 14 13 12/11 10 9 8/7 6 5 4/3 2 1 0")
    board = scramble(corner, 40, seed=9)
    solution = solve(board, corner, cache_dir=pdb_cache)
    assert solution.length == solve(board, corner, heuristic="mdlc").length


def test_unsolvable_is_answered_at_once():
    # A proof of impossibility is a normal answer: None, at once, whatever the limits.
    assert solve(Board.parse("2 1 3/4 5 6/7 8 0"), limits=Limits(max_nodes=1)) is None
    assert solve(Board.parse("2 1 3/4 5 6/7 8 0"), fast=True) is None
    assert hint(Board.parse("2 1/3 0")) is None


def test_limits_raise_search_limit_error(pdb_cache):
    board = random_board(5, 5, seed=1)
    with pytest.raises(SearchLimitError, match="node limit"):
        solve(board, limits=Limits(max_nodes=1000), heuristic="mdlc")
    with pytest.raises(SearchLimitError, match="time limit"):
        solve(board, limits=Limits(timeout=0.2), heuristic="mdlc")
    with pytest.raises(SearchLimitError, match="node limit") as caught:
        solve(
            Board(4, 4, [int(t) for t in KORF_EASY[0][0].split()]),
            KORF_GOAL,
            limits=Limits(max_nodes=500),
            cache_dir=pdb_cache,
        )
    assert caught.value.nodes >= 500


def test_hint_is_the_first_optimal_move():
    board = Board.parse("5 1 3/4 0 2/7 8 6")
    move = hint(board)
    length = solve(board).length
    board.push(move)
    assert solve(board).length == length - 1
    assert hint(Board.solved(3, 3)) is None


def test_named_partitions_follow_the_blank_first_goal():
    assert partition_for(4, 4, 0, "7-8") == PARTITIONS[(4, 4, "7-8")]
    assert partition_for(4, 4, 0, None) == PARTITIONS[(4, 4, "6-6-3")]
    assert [len(g) for g in partition_for(4, 4, 5, None)] == [6, 6, 3]
    assert [len(g) for g in partition_for(4, 4, 5, "7-8")] == [7, 8]
    with pytest.raises(ValueError, match="does not cover"):
        partition_for(4, 4, 0, "6-6")
    with pytest.raises(ValueError, match="unknown partition"):
        partition_for(4, 4, 0, "big")


def test_cache_directory_from_argument_or_environment(monkeypatch, tmp_path):
    from tilegames.slide.solve.pdb import cache_directory

    monkeypatch.setenv("TILEGAMES_CACHE", str(tmp_path / "env"))
    assert cache_directory() == tmp_path / "env"
    assert cache_directory(tmp_path / "arg") == tmp_path / "arg"
    PatternDatabase.get(3, 3, 8, (0, 1), progress=False)
    assert [p.name for p in (tmp_path / "env").iterdir()] == ["slide-pdb-3x3-b8-0.1.bin"]


@pytest.mark.parametrize(("w", "h"), [(2, 2), (3, 2), (2, 3)])
def test_every_small_board_solved_to_its_bfs_distance(w, h, bfs):
    goal = Board.solved(w, h)
    for tiles, distance in bfs(goal.tiles, w, h).items():
        board = Board(w, h, list(tiles))
        for fast in (False, True):
            solution = solve(board, fast=fast)
            assert solution.length == distance and solution.optimal
            replay = board.copy()
            replay.play(solution.moves)
            assert replay.is_solved()


def slow_builds(monkeypatch, seconds: float) -> None:
    """Make every pattern database take `seconds` longer to build, as on a slow first run."""
    build = PatternDatabase.build.__func__

    def slow_build(cls, *args, **kwargs):
        time.sleep(seconds)
        return build(cls, *args, **kwargs)

    monkeypatch.setattr(PatternDatabase, "build", classmethod(slow_build))


def test_building_the_databases_does_not_count_against_the_timeout(tmp_path, monkeypatch):
    """On a machine's first use the tables are built before the search clock starts."""
    # Three 5-5-5 tables: 6 s, longer than the whole timeout, which leaves the ~650,000 nodes of the
    # search (0.05 s on a quiet machine, up to 2.7 s measured at load 20) room on a busy one.
    slow_builds(monkeypatch, 2.0)
    board = Board(4, 4, [int(t) for t in KORF_1.split()])  # the clock is read during the search
    solution = solve(
        board, KORF_GOAL, partition="5-5-5", limits=Limits(timeout=5.0), cache_dir=tmp_path
    )
    assert solution.length == 57 and solution.optimal
    assert len(list(tmp_path.iterdir())) == 3  # built here, in this call


def test_fast_answer_is_the_same_with_a_fresh_or_a_warm_cache(tmp_path, monkeypatch):
    slow_builds(monkeypatch, 0.5)
    board = Board(4, 4, [int(t) for t in KORF_1.split()])
    limits = Limits(
        max_nodes=1_000_000, timeout=60.0
    )  # the node limit decides; a clock would not repeat
    fresh = solve(board, KORF_GOAL, fast=True, partition="5-5-5", cache_dir=tmp_path, limits=limits)
    warm = solve(board, KORF_GOAL, fast=True, partition="5-5-5", cache_dir=tmp_path, limits=limits)
    assert fresh == warm
    assert fresh.length == 57

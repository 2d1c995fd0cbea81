"""Controlled re-expansion in the PDB kernel: the next bound, fewer nodes for weighted searches,
legal answers, and unweighted searches left optimal."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tilegames.slide import Board, random_board
from tilegames.slide.solve import pdb_kernels, status
from tilegames.slide.solve.common import corner_transform, relabel, transform_state
from tilegames.slide.solve.ida import pattern_heuristic

PARTITION = "4-4-4-3"  # quick to build, weak enough that the searches take thousands of nodes


def test_the_next_bound_lets_in_the_target_and_never_falls_below_the_next_f_value():
    tally = np.zeros(256, np.int64)
    tally[[2, 3, 7, 255]] = (10, 30, 100, 5)
    assert pdb_kernels.controlled_bound(tally, 100, 102, 35) == 103  # 10 + 30 >= 35 at excess 3
    assert pdb_kernels.controlled_bound(tally, 100, 102, 1) == 102  # never below the next f-value
    assert pdb_kernels.controlled_bound(tally, 100, 102, 140) == 107
    assert pdb_kernels.controlled_bound(tally, 100, 102, 10_000) == 102  # unreachable: next f-value


@pytest.fixture(scope="module")
def pdb():
    return pattern_heuristic(4, 4, 0, PARTITION, progress=False)


def search(pdb, board: Board, weight: tuple[int, int], growth: float):
    """(status, moves as blank cells, nodes) of the kernel on `board` seen with its blank goal at 0."""
    state, blank = relabel(board, Board.solved(4, 4))
    cell_map = corner_transform(4, 4, blank)
    state = transform_state(state, cell_map)
    path = np.zeros(200, np.int64)
    found, length, nodes = pdb_kernels.ida_pdb(
        state, 4, 4, 0, pdb.group_of, pdb.glabels, pdb.gk, pdb.factors, pdb.tables, pdb.refl,
        False, weight[0], weight[1], 1 << 40, 1e18, path, growth,
    )  # fmt: skip
    return found, state, path[:length], nodes


def replays_to_goal(state: np.ndarray, path: np.ndarray) -> bool:
    tiles = state.copy()
    z = int(np.flatnonzero(tiles == 0)[0])
    steps = (-4, 4, -1, 1)
    for d in path:
        s = z + steps[d]
        assert 0 <= s < 16 and (d < 2 or s // 4 == z // 4)
        tiles[z], tiles[s] = tiles[s], 0
        z = s
    return bool((tiles == np.arange(16)).all())


def test_weighted_searches_take_far_fewer_nodes(pdb):
    boards = [random_board(4, 4, seed=seed) for seed in range(20)]
    plain = sum(search(pdb, board, (5, 4), 0.0)[3] for board in boards)
    controlled = sum(search(pdb, board, (5, 4), 0.5)[3] for board in boards)
    assert controlled < 0.6 * plain


def walked(seed: int, steps: int) -> Board:
    """The goal after `steps` random moves: near enough for optimal searches to be quick."""
    board = Board.solved(4, 4)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        moves = board.legal_moves()
        board.push(moves[int(rng.integers(len(moves)))])
    return board


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 100_000),
    steps=st.integers(0, 60),
    weight=st.sampled_from([(1, 1), (3, 2), (5, 4), (7, 6)]),
)
def test_answers_are_legal_and_unweighted_ones_stay_optimal(pdb, seed, steps, weight):
    board = walked(seed, steps)
    found, state, path, _ = search(pdb, board, weight, 0.5)
    assert found == status.FOUND and replays_to_goal(state, path)
    optimal = search(pdb, board, (1, 1), 0.0)[2]
    assert len(path) >= len(optimal) and len(path) % 2 == len(optimal) % 2
    if weight == (1, 1):
        assert len(path) == len(optimal)

"""Pattern-database windows: each aims at a state whose blank is in a corner; never longer, always legal."""

from __future__ import annotations

import math
import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tilegames.slide import Board
from tilegames.slide.solve import kernels
from tilegames.slide.solve.common import Budget, blank_cells, letters_from_blank_cells, relabel
from tilegames.slide.solve.ida import ida_relabelled
from tilegames.slide.solve.shorten import corner_ends, shorten_to_corners

UNDO = {"U": "D", "D": "U", "L": "R", "R": "L"}


def walk_solution(goal: Board, steps: int, rng: random.Random) -> tuple[Board, str]:
    """A board `steps` random moves from `goal`, and the walk undone: a legal, often wasteful answer."""
    board, walk = goal.copy(stack=False), []
    for _ in range(steps):
        move = rng.choice(list(board.moves()))
        board.push(move)
        walk.append(move)
    return board.copy(stack=False), "".join(UNDO[m] for m in reversed(walk))


def mdlc_search(w: int, h: int):
    """An optimal IDA* (Manhattan + linear conflict) towards the relabelled identity, as the windows take it."""

    def search(start: np.ndarray, goal_blank: int, length: int, left: int):
        path = np.zeros(max(1, length - 1), np.int64)
        status, found, nodes = kernels.ida_mdlc(
            start, w, h, goal_blank, True, 1, 1, left, math.inf, path
        )
        if status != kernels.FOUND:
            return None, int(nodes)
        z = int(np.flatnonzero(start == goal_blank)[0])
        return letters_from_blank_cells(blank_cells(z, path[:found], w), w), int(nodes)

    return search


def test_corner_ends_are_the_corner_blank_states():
    rng = random.Random(4)
    goal = Board.solved(4, 5)
    board, moves = walk_solution(goal, 60, rng)
    state, blank = relabel(board, goal)
    ends = corner_ends(state, blank, moves, 4, 5)
    replay, expected = board.copy(), []
    for i, move in enumerate(moves, 1):
        replay.push(move)
        if replay.blank in (0, 3, 16, 19):
            expected.append(i)
    assert ends == expected and ends[-1] == len(moves)  # the goal's blank is a corner


def test_a_window_over_the_whole_path_is_optimal_against_bfs(bfs):
    goal = Board.solved(3, 3)
    dist = bfs(tuple(goal.tiles), 3, 3)
    rng = random.Random(11)
    for _ in range(25):
        board, moves = walk_solution(goal, rng.randrange(0, 40), rng)
        state, blank = relabel(board, goal)
        shorter, _ = shorten_to_corners(
            state, blank, moves, 3, 3, mdlc_search(3, 3),
            windows=(64,), max_nodes=10**9, deadline=math.inf,
        )  # fmt: skip
        assert len(shorter) == dist[tuple(board.tiles)] <= len(moves)
        replay = board.copy()
        replay.play(shorter)
        assert replay.is_solved(goal)


@given(st.integers(0, 2**32), st.integers(0, 160), st.integers(1, 200_000))
@settings(max_examples=25, deadline=None)
def test_property_pdb_windows_never_lengthen_and_replay(seed, steps, max_nodes):
    rng = random.Random(seed)
    goal = Board.solved(4, 4)
    board, moves = walk_solution(goal, steps, rng)
    state, blank = relabel(board, goal)

    def search(start: np.ndarray, goal_blank: int, length: int, left: int):
        status, found, nodes = ida_relabelled(
            start, 4, 4, goal_blank, Budget(min(left, 20_000), math.inf, None),
            heuristic="pdb", partition="5-5-5", shorter_than=length,
        )  # fmt: skip
        return (found if status == kernels.FOUND else None), nodes

    shorter, nodes = shorten_to_corners(
        state, blank, moves, 4, 4, search, windows=(20, 40), max_nodes=max_nodes, deadline=math.inf
    )
    assert len(shorter) <= len(moves) and (len(moves) - len(shorter)) % 2 == 0
    assert nodes <= max_nodes + 20_000
    replay = board.copy()
    replay.play(shorter)
    assert replay.is_solved(goal)

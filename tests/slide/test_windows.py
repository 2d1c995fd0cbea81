"""Two-way corner windows: optimal stretches against a plain BFS on 3×3, never longer, always legal."""

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
from tilegames.slide.solve.windows import reverse_moves, two_way_windows

UNDO = {"U": "D", "D": "U", "L": "R", "R": "L"}
CORNERS_3X3 = (0, 2, 6, 8)


def walk_solution(goal: Board, steps: int, rng: random.Random) -> tuple[Board, str]:
    """A board `steps` random moves from `goal`, and the walk undone: a legal, often wasteful answer."""
    board, walk = goal.copy(stack=False), []
    for _ in range(steps):
        move = rng.choice(list(board.moves()))
        board.push(move)
        walk.append(move)
    return board.copy(stack=False), "".join(UNDO[m] for m in reversed(walk))


def mdlc_search(w: int, h: int, calls: list[int] | None = None):
    """An optimal IDA* (Manhattan + linear conflict) towards the relabelled identity, as the windows
    take it; counts its calls in `calls`."""

    def search(start: np.ndarray, goal_blank: int, length: int, left: int):
        if calls is not None:
            calls.append(length)
        path = np.zeros(max(1, length - 1), np.int64)
        status, found, nodes = kernels.ida_mdlc(
            start, w, h, goal_blank, True, 1, 1, left, math.inf, path
        )
        if status != kernels.FOUND:
            return None, int(nodes), status == kernels.EXHAUSTED
        z = int(np.flatnonzero(start == goal_blank)[0])
        return letters_from_blank_cells(blank_cells(z, path[:found], w), w), int(nodes), False

    return search


def boards_along(board: Board, moves: str) -> list[tuple[int, ...]]:
    replay, out = board.copy(), [tuple(board.tiles)]
    for move in moves:
        replay.push(move)
        out.append(tuple(replay.tiles))
    return out


def test_reverse_moves_go_back():
    rng = random.Random(3)
    goal = Board.solved(4, 4)
    board, moves = walk_solution(goal, 50, rng)
    replay = board.copy()
    replay.play(moves)
    replay.play(reverse_moves(moves))
    assert replay == board and reverse_moves(reverse_moves(moves)) == moves


def test_backward_windows_make_every_corner_to_goal_stretch_optimal(bfs):
    """Goal blank in the centre: no window can end at a corner goal, so every gain is a backward
    window (a corner-blank start, searched from the end). At the fixpoint each stretch from a
    corner-blank state to the goal is as short as the BFS says."""
    goal = Board(3, 3, [1, 2, 3, 4, 0, 5, 6, 7, 8])
    dist = bfs(tuple(goal.tiles), 3, 3)  # moves are reversible: distance to the goal
    rng = random.Random(5)
    gained = 0
    for _ in range(30):
        board, moves = walk_solution(goal, rng.randrange(4, 50), rng)
        state, blank = relabel(board, goal)
        shorter, _ = two_way_windows(
            state, blank, moves, 3, 3, mdlc_search(3, 3),
            lengths=(64,), max_nodes=10**9, deadline=math.inf,
        )  # fmt: skip
        assert len(shorter) <= len(moves)
        gained += len(moves) - len(shorter)
        along = boards_along(board, shorter)
        assert along[-1] == tuple(goal.tiles)
        for i, tiles in enumerate(along):
            if tiles.index(0) in CORNERS_3X3:
                assert len(shorter) - i == dist[tiles]
    assert gained > 0


def test_forward_windows_make_the_whole_path_optimal_with_a_corner_goal(bfs):
    goal = Board.solved(3, 3)
    dist = bfs(tuple(goal.tiles), 3, 3)
    rng = random.Random(7)
    for _ in range(25):
        board, moves = walk_solution(goal, rng.randrange(0, 40), rng)
        state, blank = relabel(board, goal)
        shorter, _ = two_way_windows(
            state, blank, moves, 3, 3, mdlc_search(3, 3),
            lengths=(64,), max_nodes=10**9, deadline=math.inf,
        )  # fmt: skip
        assert len(shorter) == dist[tuple(board.tiles)] <= len(moves)


def test_stretches_proved_optimal_are_not_searched_again():
    goal = Board.solved(3, 3)
    rng = random.Random(9)
    board, moves = walk_solution(goal, 30, rng)
    state, blank = relabel(board, goal)
    proved: dict[tuple[bytes, bytes], int] = {}
    first: list[int] = []
    shorter, _ = two_way_windows(
        state, blank, moves, 3, 3, mdlc_search(3, 3, first),
        lengths=(6, 10), max_nodes=10**9, deadline=math.inf, proved=proved,
    )  # fmt: skip
    again: list[int] = []
    same, nodes = two_way_windows(
        state, blank, shorter, 3, 3, mdlc_search(3, 3, again),
        lengths=(6, 10), max_nodes=10**9, deadline=math.inf, proved=proved,
    )  # fmt: skip
    assert first and proved and same == shorter
    assert again == [] and nodes == 0


@given(st.integers(0, 2**32), st.integers(0, 120), st.integers(1, 300_000), st.booleans())
@settings(max_examples=25, deadline=None)
def test_property_pdb_windows_never_lengthen_and_replay(seed, steps, max_nodes, weighted):
    """On 4×4 with pattern databases (cheap 5-5-5 tables), optimal or weighted window searches."""
    rng = random.Random(seed)
    goal = Board.solved(4, 4)
    board, moves = walk_solution(goal, steps, rng)
    state, blank = relabel(board, goal)

    def search(start: np.ndarray, goal_blank: int, length: int, left: int):
        status, found, used = ida_relabelled(
            start, 4, 4, goal_blank, Budget.of(left, None), heuristic="pdb", partition="5-5-5",
            shorter_than=length, weight=(4, 3) if weighted else (1, 1),
        )  # fmt: skip
        return (found if status == kernels.FOUND else None), used, status == kernels.EXHAUSTED

    shorter, nodes = two_way_windows(
        state, blank, moves, 4, 4, search, lengths=(10, 20), max_nodes=max_nodes, deadline=math.inf
    )
    assert len(shorter) <= len(moves)
    assert nodes <= max_nodes
    replay = board.copy()
    replay.play(shorter)
    assert replay.is_solved(goal)

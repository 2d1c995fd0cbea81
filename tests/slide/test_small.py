"""The plain-Python bidirectional search for small boards, against the compiled IDA* and a plain BFS."""

from __future__ import annotations

from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tilegames.common import Limits, SearchLimitError
from tilegames.slide import Board, random_board, solve
from tilegames.slide.solve.common import Budget
from tilegames.slide.solve.small import solve_small

SIZES = [(3, 3), (2, 3), (3, 2), (2, 4), (4, 2), (2, 2)]


def bfs_length(board: Board, goal: Board) -> int | None:
    """Plain one-sided BFS: the optimal length, obviously right."""
    start, target = tuple(board.tiles), tuple(goal.tiles)
    depth = {start: 0}
    queue = deque([start])
    while queue:
        state = queue.popleft()
        if state == target:
            return depth[state]
        work = Board(board.width, board.height, list(state))
        for move in work.moves():
            work.push(move)
            nxt = tuple(work.tiles)
            work.pop()
            if nxt not in depth:
                depth[nxt] = depth[state] + 1
                queue.append(nxt)
    return None


def replays(board: Board, moves: list[str], goal: Board) -> bool:
    work = board.copy(stack=False)
    work.play(moves)
    return tuple(work.tiles) == tuple(goal.tiles)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(SIZES), st.integers(0, 2**32))
def test_same_length_as_the_kernel_and_replays(size: tuple[int, int], seed: int) -> None:
    width, height = size
    board = random_board(width, height, seed=seed)
    goal = Board.solved(width, height)
    small = solve(board)  # the default path on up to 9 cells
    kernel = solve(board, heuristic="mdlc")  # the compiled IDA*
    assert small is not None and kernel is not None
    assert small.optimal and small.length == kernel.length == len(small.moves)
    assert replays(board, small.moves, goal)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 2**32))
def test_any_goal_matches_a_plain_bfs(seed: int, goal_seed: int) -> None:
    board, goal = random_board(2, 3, seed=seed), random_board(2, 3, seed=goal_seed)
    solution = solve(board, goal)
    expected = bfs_length(board, goal)
    if expected is None:
        assert solution is None
    else:
        assert solution is not None and solution.length == expected
        assert replays(board, solution.moves, goal)


def test_hardest_8_puzzle_is_31() -> None:
    solution = solve(Board.parse("8 6 7/2 5 4/3 0 1"))
    assert solution is not None and solution.length == 31


def test_node_limit_is_reported() -> None:
    with pytest.raises(SearchLimitError) as caught:
        solve(Board.parse("8 6 7/2 5 4/3 0 1"), limits=Limits(max_nodes=100))
    assert caught.value.nodes > 100


def test_unreachable_goal_is_none() -> None:
    board = Board.parse("1 2/3 0")
    goal = Board.parse("2 1/3 0")  # one swap: the other parity class
    assert solve_small(board, goal, Budget.of(None, None)) is None

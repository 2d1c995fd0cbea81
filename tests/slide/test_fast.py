"""The fast solver: every answer legal and reaching the goal, on small to big boards and any goal."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tilegames.slide import Board, hint, random_board, scramble, solve

# 4-tile patterns keep the 5×5 databases cheap to build in a test run (the default is 5-5-5-5-4).
CHEAP_5X5 = "4-4-4-4-4-4"
CHEAP_4X4 = "5-5-5"
BUDGET = 3_000_000  # nodes for the anytime search: enough for a first answer, keeps the tests short


def check(board: Board, goal: Board | None, **kwargs) -> None:
    kwargs.setdefault("partition", _cheap(board.width, board.height))
    solution = solve(board, goal, fast=True, **kwargs)
    replay = board.copy()
    replay.play(solution.moves)
    assert replay.is_solved(goal)
    assert solution.length == len(solution.moves) >= solution.lower_bound
    return solution


@pytest.mark.parametrize(
    ("w", "h"),
    [(3, 3), (4, 4), (5, 5), (6, 6), (7, 4), (4, 7), (2, 9), (9, 2), (3, 8), (8, 3), (10, 10)],
)
def test_fast_solutions_reach_the_standard_goal(w, h, pdb_cache):
    rng = random.Random(w * 100 + h)
    for _ in range(3):
        board = random_board(w, h, seed=rng)
        check(board, None, cache_dir=pdb_cache, partition=_cheap(w, h), max_nodes=BUDGET)


def _cheap(w: int, h: int) -> str | None:
    """Cheap databases (built in about a second) whenever the searched board is 5×5 or 4×4."""
    if min(w, h) >= 5:
        return CHEAP_5X5
    return CHEAP_4X4 if (w, h) == (4, 4) else None


@pytest.mark.parametrize("corner", ["first", "top right", "bottom left", "middle"])
def test_fast_solutions_reach_any_goal(corner, pdb_cache):
    rng = random.Random(corner)
    for w, h in ((7, 7), (6, 4), (8, 5)):
        n = w * h
        blank = {
            "first": 0,
            "top right": w - 1,
            "bottom left": n - w,
            "middle": (h // 2) * w + w // 2,
        }[corner]
        tiles = list(range(1, n))
        rng.shuffle(tiles)
        tiles.insert(blank, 0)
        goal = Board(w, h, tiles)
        board = scramble(goal, 400, seed=rng)
        check(board, goal, cache_dir=pdb_cache, partition=_cheap(w, h), max_nodes=BUDGET)


def test_fast_on_30x30():
    board = random_board(30, 30, seed=30)
    solution = check(board, None)
    assert solution.optimal is False and solution.lower_bound > 10_000


def test_fast_is_optimal_when_it_can_prove_it(pdb_cache):
    board = scramble(Board.solved(4, 4), 20, seed=4)
    solution = solve(board, fast=True, partition=CHEAP_4X4, cache_dir=pdb_cache)
    assert solution.length == solve(board, heuristic="mdlc").length
    assert solution.optimal


def test_fast_answers_within_tiny_limits():
    board = random_board(6, 6, seed=1)
    solution = check(board, None, max_nodes=10)
    assert solution.nodes < 100_000  # only the last 3×3 board was searched past the budget
    check(board, None, timeout=0.01)


def test_hint_on_a_big_board():
    board = random_board(12, 12, seed=2)
    move = hint(board, partition=CHEAP_5X5)
    assert move == solve(board, fast=True, partition=CHEAP_5X5).moves[0]
    assert move in board.moves()
    assert hint(Board.solved(12, 12)) is None


@given(st.integers(2, 8), st.integers(2, 8), st.integers(0, 2**32), st.booleans())
@settings(max_examples=25, deadline=None)
def test_property_fast_solutions_replay_to_any_goal(w, h, seed, blank_first):
    rng = random.Random(seed)
    goal = Board(w, h, list(range(w * h))) if blank_first else Board.solved(w, h)
    board = scramble(goal, rng.randrange(0, 300), seed=rng)
    solution = check(board, goal, max_nodes=BUDGET, partition=_cheap(w, h))
    assert (solution.length - board.manhattan(goal)) % 2 == 0


@pytest.mark.parametrize(
    ("board", "goal"),
    [
        # two-wide boards where the last pair of a line once walled the blank out of its window
        ("2 10 9 7 3 0/4 1 6 5 8 11", "5 10 4 0 11 2/7 6 9 3 1 8"),
        (
            "8 17/5 9/16 13/0 10/12 11/3 7/14 6/2 1/4 15",
            "16 13/10 0/11 4/5 1/6 8/17 9/12 2/7 3/14 15",
        ),
    ],
)
def test_fast_regressions(board, goal):
    check(Board.parse(board), Board.parse(goal), max_nodes=1)

"""The fast solver: every answer legal and reaching the goal, on small to big boards and any goal."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tilegames.common import Limits
from tilegames.slide import Board, hint, random_board, scramble, solve
from tilegames.slide.solve import kernels
from tilegames.slide.solve.common import Budget, relabel
from tilegames.slide.solve.ida import ida_relabelled
from tilegames.slide.solve.shorten import shorten

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
        check(
            board,
            None,
            cache_dir=pdb_cache,
            partition=_cheap(w, h),
            limits=Limits(max_nodes=BUDGET),
        )


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
        check(
            board,
            goal,
            cache_dir=pdb_cache,
            partition=_cheap(w, h),
            limits=Limits(max_nodes=BUDGET),
        )


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
    solution = check(board, None, limits=Limits(max_nodes=10))
    assert solution.nodes < 100_000  # only the last 3×3 board was searched past the budget
    check(board, None, limits=Limits(timeout=0.01))


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
    solution = check(board, goal, limits=Limits(max_nodes=BUDGET), partition=_cheap(w, h))
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
    check(Board.parse(board), Board.parse(goal), limits=Limits(max_nodes=1))


def _walk_solution(goal: Board, steps: int, rng: random.Random) -> tuple[Board, str]:
    """A board `steps` random moves from `goal` and the walk undone: a legal, wasteful solution."""
    undo = {"U": "D", "D": "U", "L": "R", "R": "L"}
    board, walk = goal.copy(stack=False), []
    for _ in range(steps):
        move = rng.choice(list(board.moves()))
        board.push(move)
        walk.append(move)
    return board.copy(stack=False), "".join(undo[m] for m in reversed(walk))


@given(st.integers(2, 5), st.integers(2, 5), st.integers(0, 2**32), st.integers(1, 300_000))
@settings(max_examples=30, deadline=None)
def test_property_shortening_never_lengthens_and_replays(w, h, seed, max_nodes):
    rng = random.Random(seed)
    goal = Board.solved(w, h)
    board, moves = _walk_solution(goal, rng.randrange(0, 120), rng)
    state, blank = relabel(board, goal)
    shorter, nodes = shorten(state, blank, moves, w, h, max_nodes=max_nodes, deadline=math.inf)
    assert len(shorter) <= len(moves) and nodes <= max_nodes + 1
    replay = board.copy()
    replay.play(shorter)
    assert replay.is_solved(goal)
    assert (len(moves) - len(shorter)) % 2 == 0


def test_shortening_reaches_optimal_on_3x3_against_bfs(bfs):
    goal = Board.solved(3, 3)
    dist = bfs(tuple(goal.tiles), 3, 3)
    rng = random.Random(9)
    for _ in range(30):
        board, moves = _walk_solution(goal, rng.randrange(0, 60), rng)
        state, blank = relabel(board, goal)
        shorter, _ = shorten(state, blank, moves, 3, 3, max_nodes=10**9, deadline=math.inf)
        optimal = dist[tuple(board.tiles)]
        assert optimal <= len(shorter) <= len(moves)
        if (
            len(moves) <= 28
        ):  # the widest window covers the whole path: it is replaced by an optimal one
            assert len(shorter) == optimal
        replay = board.copy()
        replay.play(shorter)
        assert replay.is_solved(goal)


def test_shortening_removes_detours():
    goal = Board.solved(4, 4)
    board = scramble(goal, 30, seed=3)
    best = "".join(solve(board, heuristic="mdlc").moves)
    state, blank = relabel(board, goal)
    # a loop of the blank round a 2×2 square (12 moves) leaves the board as it was
    start = board.copy()
    start.play(best[:5])
    loop = _loop(start)
    detour = best[:5] + loop + best[5:]
    shorter, _ = shorten(state, blank, detour, 4, 4, max_nodes=10**8, deadline=math.inf)
    assert len(shorter) == len(best)


def _loop(board: Board) -> str:
    """Twelve moves that take the blank three times round a 2×2 square: back where they started."""
    for cycle in ("ULDR", "URDL", "DLUR", "DRUL", "LURD", "LDRU", "RULD", "RDLU"):
        trial = board.copy()
        try:
            trial.play(cycle * 3)
        except ValueError:
            continue
        if trial == board:
            return cycle * 3
    raise AssertionError("no 2×2 loop from here")


@pytest.mark.parametrize("heuristic", ["mdlc", "pdb"])
def test_weighted_search_below_an_incumbent_is_exact(heuristic, pdb_cache):
    """Bounded by an incumbent, a weighted search finds only shorter answers and proves there are none."""
    board = scramble(Board.solved(4, 4), 40, seed=7)
    best = solve(board, heuristic="mdlc").length
    state, blank = relabel(board, Board.solved(4, 4))
    limits = Budget.of(None, None)
    kwargs = {"heuristic": heuristic, "weight": (3, 2), "cache_dir": pdb_cache}
    kwargs["partition"] = CHEAP_4X4 if heuristic == "pdb" else None
    status, moves, _ = ida_relabelled(state, 4, 4, blank, limits, shorter_than=best, **kwargs)
    assert status == kernels.EXHAUSTED and moves == ""
    status, moves, _ = ida_relabelled(state, 4, 4, blank, limits, shorter_than=best + 2, **kwargs)
    assert status == kernels.FOUND and len(moves) == best
    replay = board.copy()
    replay.play(moves)
    assert replay.is_solved()


@pytest.mark.parametrize("seed", range(5))
def test_an_answer_for_the_mirror_image_solves_the_board(seed):
    """The portfolio's second view: the board mirrored about the main diagonal; its answer, with
    the letters mirrored (`fast.TRANSPOSED`), solves the board itself."""
    from tilegames.slide.solve.common import transform_state
    from tilegames.slide.solve.fast import TRANSPOSED

    board = random_board(3, 3, seed=seed)
    state, blank = relabel(board, Board.solved(3, 3))
    mirror = np.array([(c % 3) * 3 + c // 3 for c in range(9)], np.int64)
    status, moves, _ = ida_relabelled(
        transform_state(state, mirror), 3, 3, blank, Budget.of(None, None), heuristic="mdlc"
    )
    assert status == kernels.FOUND
    replay = board.copy()
    replay.play(list(moves.translate(TRANSPOSED)))
    assert replay.is_solved() and len(moves) == solve(board).length

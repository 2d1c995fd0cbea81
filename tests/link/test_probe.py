"""Probing the pairings (`probe.probe`): a position it calls dead cannot be cleared, and the pairs
it forbids are never needed (exhaustive search that avoids them clears every clearable board),
with and without gravity; and it proves random deals the relaxation alone does not."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.link.test_falling import stacked_board
from tests.link.test_solve import exhaustive, small_board
from tilegames.common import Limits
from tilegames.link import Board, deal, falling, solve
from tilegames.link.probe import probe

_NONE = np.empty(0, np.int64)


def clears_avoiding(
    board: Board, ids: np.ndarray, banned: set[tuple[int, int]], memo: dict
) -> bool:
    """Exhaustive search that never pairs two tiles of `banned` (tiles named by `ids`, their
    flat padded cells at the start; with gravity the names fall with the tiles)."""
    if board.is_solved():
        return True
    key = (str(board), ids.tobytes())
    if key not in memo:
        memo[key] = False
        for (r1, c1), (r2, c2) in board.pairs():
            a, b = int(ids[r1, c1]), int(ids[r2, c2])
            if (min(a, b), max(a, b)) in banned:
                continue
            after = ids.copy()
            after[r1, c1] = after[r2, c2] = -1
            if board.gravity:
                for c in {c1, c2}:
                    column = [v for v in after[:, c] if v >= 0]
                    after[:, c] = [-1] * (after.shape[0] - len(column)) + column
            board.push(((r1, c1), (r2, c2)))
            found = clears_avoiding(board, after, banned, memo)
            board.pop()
            if found:
                memo[key] = True
                break
    return memo[key]


def check(board: Board) -> tuple[bool, int]:
    grid = board.grid()
    size, width = grid.size, grid.shape[1]
    probed = probe(grid, board.gravity, 10**9)
    assert probed.complete
    clearable = exhaustive(board.copy())
    if probed.dead:
        assert not clearable, str(board)
        return True, 0
    ids = np.full((board.height, board.width), -1, np.int64)
    for (r, c), _ in board.cells():
        ids[r, c] = (r + 1) * width + c + 1
    banned = {(int(code) // size, int(code) % size) for code in probed.forbid}
    assert clears_avoiding(board.copy(), ids, banned, {}) == clearable, str(board)
    return False, len(banned)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10**9), st.booleans())
def test_probing_without_gravity_is_sound(seed, ring):
    check(small_board(seed, False, ring))


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10**9), st.booleans())
def test_probing_with_gravity_is_sound(seed, ring):
    check(stacked_board(seed, ring))


def test_probing_finds_something_on_small_boards():
    found = [check(stacked_board(seed, seed % 2 == 0)) for seed in range(150)]
    found += [check(small_board(seed, False, seed % 2 == 0)) for seed in range(150)]
    assert sum(dead for dead, _ in found) > 10
    assert sum(banned > 0 for _, banned in found) > 5


def test_a_random_deal_with_gravity_proven_by_probing_alone():
    board = deal(24, 12, 72, 4, seed=7, gravity=True, solvable=False)
    assert not falling.doomed(board.grid(), _NONE, 10**9, _NONE)[0]
    assert probe(board.grid(), True, 10**9).dead
    assert solve(board, limits=Limits(timeout=60)) is None


def test_a_random_deal_of_kinds_of_six_proven_by_probing():
    # without gravity, 48 kinds x 6: dives stick, the relaxation alone proves nothing
    board = deal(24, 12, 48, 6, seed=59, solvable=False)
    assert probe(board.grid(), False, 10**9).dead
    assert solve(board, limits=Limits(timeout=60)) is None


def test_a_small_budget_claims_nothing():
    board = deal(24, 12, 72, 4, seed=7, gravity=True, solvable=False)
    probed = probe(board.grid(), True, 1000)
    assert not probed.dead and not probed.complete

"""Deals: exact uniformity (χ² against Sattolo and the naive shuffle), random walks, set distances."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from tilegames.slide import Board, random_board, scramble, solve
from tilegames.slide.generate import distance_table

DEALS = 72_000  # 200 expected per solvable 2×3 board


def chi_square_critical(dof: int, z: float = 3.09) -> float:
    """Wilson–Hilferty: the χ² value with upper tail ≈ 0.001."""
    return dof * (1 - 2 / (9 * dof) + z * math.sqrt(2 / (9 * dof))) ** 3


def chi_square_uniform(counts: Counter, cells: int, total: int) -> float:
    expected = total / cells
    seen = sum((c - expected) ** 2 / expected for c in counts.values())
    return seen + (cells - len(counts)) * expected


def solvable_boards_2x3(bfs) -> set[tuple[int, ...]]:
    return set(bfs((1, 2, 3, 4, 5, 0), 3, 2))


def fix_parity(tiles: list[int]) -> tuple[int, ...]:
    """The same solvable-making swap as `random_board` (tiles 1 and 2)."""
    if not Board(3, 2, tiles).is_solvable():
        a, b = tiles.index(1), tiles.index(2)
        tiles[a], tiles[b] = 2, 1
    return tuple(tiles)


def sattolo(rng: random.Random) -> tuple[int, ...]:
    """The tutorial's bug: j from 0..i−1 makes only cyclic permutations."""
    tiles = [1, 2, 3, 4, 5, 0]
    for i in range(5, 0, -1):
        j = rng.randrange(i)
        tiles[i], tiles[j] = tiles[j], tiles[i]
    return fix_parity(tiles)


def naive_swaps(rng: random.Random) -> tuple[int, ...]:
    """Swap every tile with a random one: 6^6 equally likely runs cannot spread over 720 orderings."""
    tiles = [1, 2, 3, 4, 5, 0]
    for i in range(6):
        j = rng.randrange(6)
        tiles[i], tiles[j] = tiles[j], tiles[i]
    return fix_parity(tiles)


def test_uniform_deals_pass_chi_square(bfs):
    rng = random.Random(2024)
    counts = Counter(random_board(3, 2, seed=rng).tiles for _ in range(DEALS))
    assert set(counts) <= solvable_boards_2x3(bfs)
    assert len(counts) == 360
    assert chi_square_uniform(counts, 360, DEALS) < chi_square_critical(359)


@pytest.mark.parametrize("shuffle", [sattolo, naive_swaps])
def test_biased_shuffles_fail_chi_square(shuffle, bfs):
    rng = random.Random(2024)
    counts = Counter(shuffle(rng) for _ in range(DEALS))
    assert set(counts) <= solvable_boards_2x3(bfs)
    assert chi_square_uniform(counts, 360, DEALS) > chi_square_critical(359)


def test_seeded_deals_repeat_and_are_solvable():
    assert random_board(4, 4, seed=7) == random_board(4, 4, seed=7)
    assert random_board(4, 4, seed=7) != random_board(4, 4, seed=8)
    for seed in range(50):
        board = random_board(5, 3, seed=seed)
        assert board.is_solvable() and (board.width, board.height) == (5, 3)


def test_big_deal_is_a_permutation():
    board = random_board(200, 150, seed=1)
    assert sorted(board.tiles) == list(range(200 * 150)) and board.is_solvable()


def test_scramble_never_undoes_and_stays_solvable():
    start = Board.solved(4, 4)
    for seed in range(20):
        walked = scramble(start, 30, seed=seed)
        assert walked.is_solvable() and walked.move_stack == ()
        assert start == Board.solved(4, 4)  # the input is not touched
    board = scramble(Board.solved(3, 3), 1, seed=0)
    assert board.manhattan() == 1
    assert scramble(start, 0, seed=1) == start
    with pytest.raises(ValueError, match="at least 0"):
        scramble(start, -1)


def test_scramble_walk_has_no_immediate_reversal():
    # with no back-steps, a 2-move walk from the 3×3 goal can never return to it
    assert all(scramble(Board.solved(3, 3), 2, seed=s) != Board.solved(3, 3) for s in range(50))


def test_3x3_at_every_exact_distance():
    for d in range(32):
        for seed in range(3):
            board = random_board(3, 3, seed=seed, distance=d)
            assert solve(board).length == d


def test_3x3_distance_out_of_range():
    with pytest.raises(ValueError, match="farthest is 31"):
        random_board(3, 3, distance=32)
    with pytest.raises(ValueError, match="at least 0"):
        random_board(3, 3, distance=-1)


def test_3x3_distance_deals_are_uniform_within_a_level():
    table = distance_table(3, 3)
    assert int((table == 30).sum()) == 221  # the published count of 8-puzzle states at depth 30
    rng = random.Random(5)
    counts = Counter(random_board(3, 3, seed=rng, distance=30).tiles for _ in range(221 * 60))
    assert len(counts) == 221
    assert chi_square_uniform(counts, 221, 221 * 60) < chi_square_critical(220)


def test_4x4_at_exact_distance(pdb_cache):
    for d, seed in ((0, 1), (12, 2), (50, 3)):
        board = random_board(4, 4, seed=seed, distance=d, cache_dir=str(pdb_cache))
        assert solve(board, cache_dir=pdb_cache).length == d


@pytest.mark.parametrize(("w", "h", "d"), [(5, 5, 20), (4, 3, 25), (2, 6, 18)])
def test_other_sizes_at_exact_distance(w, h, d):
    board = random_board(w, h, seed=d, distance=d)
    assert solve(board, heuristic="mdlc").length == d

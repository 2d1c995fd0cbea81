"""The search core: the pairing search and the move search against exhaustive search, the
limits (counted in nodes, never in seconds), the memo cap, the relabelling-proof keys."""

from __future__ import annotations

import contextlib
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.link.test_solve import exhaustive, replay_clears, small_board
from tilegames.common import Limits, SearchLimitError
from tilegames.link import Board, deal, solve
from tilegames.link.dense import canonical
from tilegames.link.search import _Limit, _Moves, _Pairing, search


def _pairs(moves):
    return [((r1 - 1, c1 - 1), (r2 - 1, c2 - 1)) for r1, c1, r2, c2 in moves]


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10**9), st.booleans())
def test_pairing_search_matches_exhaustive_search(seed, ring):
    board = small_board(seed, False, ring)
    outcome = search(board.grid(), False, glance=0)  # the pairing search alone
    assert outcome.solved is exhaustive(board.copy()), str(board)
    if outcome.solved:
        assert replay_clears(board, _pairs(outcome.moves))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9), st.booleans())
def test_gravity_search_with_restarts_matches_exhaustive_search(seed, ring):
    board = small_board(seed, True, ring)
    outcome = search(board.grid(), True)
    assert outcome.solved is exhaustive(board.copy()), str(board)
    if outcome.solved:
        assert replay_clears(board, _pairs(outcome.moves))


@pytest.mark.parametrize("shape", [(4, 4, 4, 4), (6, 4, 6, 4), (4, 4, 8, 2)])
def test_pairing_search_on_full_deals(shape):
    verdicts = set()
    for seed in range(60):
        board = deal(*shape, seed=seed, solvable=False, ring=seed % 3 == 0)
        outcome = search(board.grid(), False, glance=0)
        assert outcome.solved is exhaustive(board.copy()), str(board)
        verdicts.add(outcome.solved)
    assert True in verdicts


def test_a_locked_kind_of_four_is_proven_dead():
    # A's pairings: (0,0)-(0,3) with (2,1)-(3,2) crosses B's last pair; the others are walled in
    board = Board.parse("A..A/.AB./.BA./....", ring=False)
    assert exhaustive(board.copy()) is search(board.grid(), False, glance=0).solved


def test_the_hard_by_construction_deal_is_solved():
    board = deal(30, 16, kinds=120, seed=1)
    result = solve(board, limits=Limits(max_nodes=200_000))
    assert result is not None and replay_clears(board, result.moves)


@pytest.mark.parametrize("gravity", [False, True])
@pytest.mark.parametrize("limit", [1, 7, 50])
def test_max_nodes_is_never_exceeded(gravity, limit):
    board = deal(30, 16, kinds=80, copies=6, seed=1, gravity=gravity, solvable=False)
    with pytest.raises(SearchLimitError) as stopped:
        solve(board, limits=Limits(max_nodes=limit))
    assert stopped.value.limit == "max_nodes"
    assert 0 < stopped.value.nodes <= limit


def test_one_long_row_stops_at_its_node_limit():
    rng = random.Random(1)
    tiles = list("AB" * 250)
    rng.shuffle(tiles)
    board = Board.parse("".join(tiles), ring=False)  # 1x500: long rows of pairs per node
    with pytest.raises(SearchLimitError) as stopped:
        solve(board, limits=Limits(max_nodes=20))
    assert stopped.value.nodes <= 20
    with pytest.raises(SearchLimitError) as stopped:
        solve(board, limits=Limits(timeout=1e-9))
    assert stopped.value.limit == "timeout"


def test_thousands_of_copies_under_gravity_keep_to_the_time_limit():
    # 100x100 with two kinds: every move weighs 25 million pairs, so a dive (which reads no
    # clock) would run for minutes; there are none, and the search stops at its limit.
    board = Board.parse("/".join(["AB" * 50] * 100), gravity=True)
    core = _Moves(board.grid(), True, True, True, 1000)
    assert core.dives(10_000, []) is False and core.nodes == 0
    with pytest.raises(SearchLimitError) as stopped:
        solve(board, limits=Limits(timeout=0.5))
    assert stopped.value.limit == "timeout"


def test_the_memo_stays_under_its_cap():
    board = deal(30, 16, kinds=120, seed=3, solvable=False)
    grid = board.grid()
    core = _Pairing(grid, True, 25)
    core.max_nodes = 3000
    with contextlib.suppress(_Limit):  # only the memo's size matters here
        core.run([])
    assert 0 < len(core.dead) <= 25
    gravity = _Moves(board.grid(), True, True, True, 10)
    gravity.max_nodes = 3000
    with contextlib.suppress(_Limit):
        gravity.run([])
    assert 0 < gravity.remembered() <= 10


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 10**9))
def test_memo_keys_survive_relabelling(seed):
    board = small_board(seed, True, True)
    grid = board.grid()
    kinds = sorted(set(grid[grid > 0].tolist()))
    shuffled = kinds[:]
    random.Random(seed).shuffle(shuffled)
    relabel = dict(zip(kinds, shuffled, strict=True))
    other = np.vectorize(lambda v: relabel.get(v, v))(grid).astype(np.int32)
    assert canonical(grid).tobytes() == canonical(other).tobytes()
    # a different partition of the same cells is a different position
    assert (
        canonical(Board.parse("AABB").grid()).tobytes()
        != canonical(Board.parse("ABAB").grid()).tobytes()
    )
    assert (
        canonical(Board.parse("AABB").grid()).tobytes()
        == canonical(Board.parse("CCAA").grid()).tobytes()
    )

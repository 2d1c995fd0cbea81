"""The relaxation under gravity (`falling.doomed`): a dead end it proves is a dead end (against
exhaustive search, at every position reachable from small boards), and it proves some."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.link.test_solve import exhaustive
from tilegames.common import Limits
from tilegames.link import Board, deal, solve
from tilegames.link.dense import kind_spans
from tilegames.link.falling import compact, doomed

_NONE = np.empty(0, np.int64)


def stacked_board(seed: int, ring: bool) -> Board:
    """A small gravity board whose columns are stacks resting on the bottom (kinds of 2, 4, 6)."""
    rng = random.Random(seed)
    width, height = rng.randint(2, 5), rng.randint(2, 5)
    heights = [rng.randint(height // 2, height) for _ in range(width)]
    cells = sum(heights) - sum(heights) % 2
    tiles: list[str] = []
    kind = 0
    while len(tiles) < cells:
        copies = min(rng.choice([2, 2, 4, 4, 6]), cells - len(tiles))
        tiles += ["ABCDEFGHIJKL"[kind % 12]] * copies
        kind += 1
    rng.shuffle(tiles)
    columns = []
    for c in range(width):
        take = min(heights[c], len(tiles))
        columns.append("." * (height - take) + "".join(tiles[:take]))
        tiles = tiles[take:]
    rows = ["".join(column[r] for column in columns) for r in range(height)]
    return Board.parse("/".join(rows), gravity=True, ring=ring)


def proven(board: Board) -> bool:
    return bool(doomed(board.grid(), _NONE, 10**9, _NONE)[0])


def check_every_position(board: Board, seen: dict[str, bool]) -> int:
    """Walk every position reachable from `board`; each proven dead must be one. Proofs found."""
    key = str(board)
    if key in seen:
        return 0
    seen[key] = True
    proofs = 0
    if proven(board):
        assert not exhaustive(board.copy()), key
        proofs += 1
    for pair in board.pairs():
        board.push(pair)
        proofs += check_every_position(board, seen)
        board.pop()
    return proofs


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 10**9), st.booleans())
def test_a_proven_dead_end_cannot_be_cleared(seed, ring):
    board = stacked_board(seed, ring)
    assert compact(board.grid())
    check_every_position(board, {})


def test_it_proves_dead_ends_exhaustive_search_agrees_with():
    proofs = sum(check_every_position(stacked_board(seed, seed % 2 == 0), {}) for seed in range(60))
    assert proofs > 20


def test_it_keeps_the_tiles_between_two_of_a_column():
    # the second column reads F E F E from the top: each pair has a tile of the other between
    # its two, and its neighbours never let either out sideways. A tile's row may fall by the
    # tiles gone under it, but two tiles of a column only meet once those between have gone.
    board = Board.parse("BF../AEDC/BFBD/BEAC", gravity=True, ring=False)
    assert proven(board)
    assert not exhaustive(board.copy())
    assert not doomed(board.grid(), _NONE, 10**9, _NONE, False)[0]  # without that rule


def test_floating_tiles_are_never_claimed_dead():
    # the column of the upper A is not compact: the relaxation does not apply
    board = Board.parse("A./../AB/B.", gravity=True, ring=False)
    assert not compact(board.grid())
    assert not proven(board)


def test_a_small_budget_claims_nothing():
    board = deal(24, 12, 72, 4, seed=2, gravity=True, solvable=False)
    assert proven(board)
    assert not doomed(board.grid(), _NONE, 10, _NONE)[0]


def test_an_impossible_random_deal_is_proven_at_the_root():
    # 284,800 nodes and 25 s of search without the relaxation; one node with it
    board = deal(24, 12, 72, 4, seed=2, gravity=True, solvable=False)
    assert solve(board, limits=Limits(max_nodes=5)) is None


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 0x10FFFF) | st.integers(1, 9), min_size=1, max_size=80))
def test_kind_spans_group_the_tiles_of_each_kind_in_order(kinds):
    """The relaxations find a tile's partners through `kind_spans` (a counting sort, or a rank
    of the kinds when they are code points): each span is exactly the tiles of one kind, in
    the order they were listed."""
    kind = np.array([*kinds, 0], np.int64)  # a spare entry past n, as the callers have
    n = len(kinds)
    order, start, stop = kind_spans(kind, n)
    assert order.tolist() == sorted(range(n), key=lambda t: (kinds[t], t))
    for t in range(n):
        assert order[start[t] : stop[t]].tolist() == [u for u in range(n) if kinds[u] == kinds[t]]

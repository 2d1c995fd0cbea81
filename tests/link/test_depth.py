"""The compiled move search (`depth.run`): its memo compares whole keys (a shared hash never makes
a live position dead), and a search paused every node ends exactly as one left to run."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.link.test_solve import exhaustive, small_board
from tilegames.link import depth
from tilegames.link.search import _Moves


def test_keys_with_one_hash_stay_apart():
    index = np.full(8, -1, np.int64)
    hashes = np.zeros(4, np.uint64)
    keys = np.zeros((4, 3), np.uint8)
    state = np.zeros(10, np.int64)
    same = np.uint64(5)
    first, second = np.array([1, 2, 0], np.uint8), np.array([1, 0, 2], np.uint8)
    known, slot = depth.find(index, hashes, keys, first, same)
    assert not known
    depth._remember(index, hashes, keys, first, same, slot, state)
    known, slot = depth.find(index, hashes, keys, second, same)
    assert not known  # same hash, other key: not dead
    depth._remember(index, hashes, keys, second, same, slot, state)
    assert depth.find(index, hashes, keys, first, same)[0]
    assert depth.find(index, hashes, keys, second, same)[0]
    assert state[depth.USED] == 2
    moved = np.full(16, -1, np.int64)
    depth.reindex(moved, hashes, 2)  # a bigger index finds both again
    assert depth.find(moved, hashes, keys, first, same)[0]
    assert depth.find(moved, hashes, keys, second, same)[0]


def _finish(core: _Moves, pause_every: int | None) -> tuple[int, int, list]:
    """Run one attempt by hand: a call per `pause_every` nodes (None: one call)."""
    state = core.state
    state[depth.LEFT] = core.left
    while True:
        pause = 1 << 62 if pause_every is None else int(state[depth.NODES]) + pause_every
        status = core.step(-1, pause)
        if status == depth.GROW:
            core.grow()
            continue
        if status != depth.PAUSE:
            line = core.line[: state[depth.LINE]].tolist()
            return status, int(state[depth.NODES]), line


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9), st.booleans(), st.booleans())
def test_pausing_changes_nothing_and_the_verdict_is_exhaustive_searchs(seed, gravity, memo):
    board = small_board(seed, gravity, True)
    whole = _finish(_Moves(board.grid(), gravity, True, memo, 1000), None)
    stepped = _finish(_Moves(board.grid(), gravity, True, memo, 1000), 1)
    assert whole == stepped
    assert (whole[0] == depth.SOLVED) is exhaustive(board.copy()), str(board)
    if whole[0] == depth.SOLVED:  # the deepest line the search played: the whole solution
        core = _Moves(board.grid(), gravity, True, memo, 1000)
        _finish(core, None)
        assert int(core.state[depth.DEEPEST]) == len(whole[2]) == core.left // 2


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9), st.booleans())
def test_the_plain_baseline_matches_exhaustive_search(seed, gravity):
    board = small_board(seed, gravity, True)
    status, _, _ = _finish(_Moves(board.grid(), gravity, False, False, 0), None)
    assert (status == depth.SOLVED) is exhaustive(board.copy()), str(board)


def test_the_relaxation_is_rationed_only_where_it_rarely_proves_anything():
    """`_fall_pays`: every node while one call in eight or more proves a dead end (and for the
    first 64 calls), one node in eight below that rate."""
    state = np.zeros(depth.STATE, np.int64)
    state[depth.FALL_CALLS], state[depth.FALL_DEAD] = 40, 0
    assert all(depth._fall_pays(state) for _ in range(16))  # too few calls to judge
    state[depth.FALL_CALLS], state[depth.FALL_DEAD] = 800, 100
    assert all(depth._fall_pays(state) for _ in range(16))  # one in eight: it pays
    state[depth.FALL_DEAD] = 99
    assert sum(depth._fall_pays(state) for _ in range(64)) == 8

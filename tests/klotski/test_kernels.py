import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tilegames.klotski import kernels
from tilegames.klotski.generate import random_layout
from tilegames.klotski.solve import grid_key, grid_neighbours, mirror_grid, tables


@settings(max_examples=80, deadline=None)
@given(
    st.integers(0, 10**6),
    st.sampled_from([(4, 5), (3, 4), (5, 4), (3, 7), (2, 6)]),
    st.integers(1, 4),
    st.sampled_from(["moves", "steps"]),
)
def test_kernel_neighbours_are_the_reference_neighbours(seed, size, empty, metric):
    board = random_layout(*size, empty=empty, seed=seed)
    width, height = size
    t = tables(width, height)
    n = width * height
    out_key = np.zeros(n * n + 4 * n, dtype=np.uint64)
    out_hash = np.zeros_like(out_key)
    out_move = np.zeros(n * n + 4 * n, dtype=np.int64)
    work = np.zeros(6 * n, dtype=np.int64)
    expected = grid_neighbours(board.types(), width, height, metric)
    for fold in (False, True):
        found = kernels.expand(
            np.uint64(board.key()),
            width,
            height,
            metric == "steps",
            fold,
            t.kernel,
            out_key,
            out_hash,
            out_move,
            work,
        )
        keys = [int(k) for k in out_key[:found]]
        if fold:
            assert sorted(keys) == sorted(
                min(grid_key(g), grid_key(mirror_grid(g, width))) for g in expected
            )
        else:
            assert sorted(keys) == sorted(grid_key(g) for g in expected)
        for key, value in zip(
            keys, out_hash[:found], strict=True
        ):  # hashes are the Zobrist hash of the key's board
            assert int(value) == int(kernels._hash_of(np.uint64(key), n, t.kernel[1]))

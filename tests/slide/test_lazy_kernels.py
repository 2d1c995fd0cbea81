"""The lazy PDB kernel runs exactly the search of `pdb_kernels.ida_pdb`: same status, path and nodes."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from tilegames.slide import Board, scramble
from tilegames.slide.solve import pdb_kernels
from tilegames.slide.solve.common import relabel
from tilegames.slide.solve.ida import pattern_heuristic
from tilegames.slide.solve.lazy_kernels import ida_pdb_lazy

CASES = [
    # (width, height, partition, scramble length, weight, use_lc, reflect, max_nodes, max depth)
    (4, 4, "5-5-5", 60, (1, 1), True, True, 10**7, 999),
    (4, 4, "5-5-5", 80, (3, 2), False, True, 10**7, 999),
    (4, 4, "5-5-5", 80, (4, 3), True, False, 10**7, 999),
    (4, 4, "5-5-5", 200, (1, 1), False, True, 30_000, 999),  # stops at the node limit
    (5, 5, "4-4-4-4-4-4", 200, (2, 1), True, True, 10**7, 999),
    (5, 5, "4-4-4-4-4-4", 200, (3, 2), False, True, 2_000_000, 999),
    (5, 5, "4-4-4-4-4-4", 200, (3, 2), True, True, 2_000_000, 130),  # an incumbent to beat
]


@pytest.mark.parametrize("case", CASES)
def test_lazy_kernel_is_the_same_search(case, pdb_cache):
    w, h, partition, steps, (wnum, wden), use_lc, reflect, max_nodes, depth = case
    pdb = pattern_heuristic(
        w, h, 0, partition, cache_dir=pdb_cache, reflect=reflect, progress=False
    )
    rng = random.Random(repr(case))
    for _ in range(4):
        board = scramble(Board.solved(w, h), steps, seed=rng.randrange(2**32))
        state, b = relabel(board, Board.solved(w, h))
        args = (
            state,
            w,
            h,
            b,
            pdb.group_of,
            pdb.glabels,
            pdb.gk,
            pdb.factors,
            pdb.tables,
            pdb.refl,
        )
        rest = (use_lc, wnum, wden, max_nodes, math.inf)
        paths = [np.zeros(depth - 1, np.int64), np.zeros(depth - 1, np.int64)]
        eager = pdb_kernels.ida_pdb(*args, *rest, paths[0])
        lazy = ida_pdb_lazy(*args, *rest, paths[1])
        assert tuple(map(int, lazy)) == tuple(map(int, eager))
        assert np.array_equal(paths[0][: eager[1]], paths[1][: lazy[1]])

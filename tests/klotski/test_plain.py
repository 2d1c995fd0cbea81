"""The plain-Python search (fresh processes) against the compiled kernel: the very same search, step for step."""

from __future__ import annotations

import math
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tilegames.common import Limits, SearchLimitError
from tilegames.klotski import LAYOUTS, Board, kernels, plain
from tilegames.klotski.generate import random_layout
from tilegames.klotski.solve import reference_search, solve, tables

solve_module = sys.modules[
    "tilegames.klotski.solve"
]  # the module (the package exports the function)
CAP = 30_000  # positions per comparison: keeps the plain side fast; bigger searches stop at the cap on both sides


def both(board: Board, steps: bool, cap: int = CAP) -> tuple[tuple, tuple]:
    """(kernel answer, plain answer) of one search from `board`, as lists."""
    start = min(board.key(), board.mirror_key())
    t = tables(board.width, board.height)
    keys, parents, moves, goal, stop = kernels.search(
        np.uint64(start), t.width, t.height, steps, True, t.goal_masks, t.goal_bits, True, cap,
        t.kernel, math.inf,
    )  # fmt: skip
    compiled = (keys.tolist(), parents.tolist(), moves.tolist(), int(goal), int(stop))
    pt = plain.plain_tables(board.width, board.height)
    return compiled, plain.search(start, pt, steps, True, cap, math.inf)


@pytest.mark.parametrize("name", sorted(LAYOUTS)[::4])
@pytest.mark.parametrize("steps", [False, True])
def test_same_search_as_the_kernel_on_named_layouts(name: str, steps: bool) -> None:
    compiled, plain_answer = both(LAYOUTS[name], steps)
    assert plain_answer == compiled


@settings(max_examples=30, deadline=None)
@given(
    st.sampled_from([(3, 4), (4, 4), (4, 5), (5, 4), (3, 5)]),
    st.integers(1, 3),
    st.integers(0, 2**32),
    st.booleans(),
)
def test_same_search_as_the_kernel_on_random_layouts(
    size: tuple[int, int], empty: int, seed: int, steps: bool
) -> None:
    board = random_layout(*size, empty=empty, seed=seed)
    compiled, plain_answer = both(board, steps, cap=5_000)
    assert plain_answer == compiled


def test_tables_match_the_kernel_tables() -> None:
    t, pt = tables(4, 5), plain.plain_tables(4, 5)
    fields = (pt.piece_code, pt.piece_hash, pt.mirror_cell, pt.piece_mask, pt.step_to, pt.halo)
    for array, listed in zip(t.kernel, fields, strict=True):
        assert array.tolist() == listed
    assert t.goal_masks.tolist() == pt.goal_masks and t.goal_bits.tolist() == pt.goal_bits


@pytest.fixture
def plain_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """solve() as in a fresh process: the kernels count as not loaded."""
    monkeypatch.setattr(solve_module, "KERNELS", "no.such.module")


@pytest.mark.usefixtures("plain_first")
@pytest.mark.parametrize("metric", ["moves", "steps"])
def test_solve_without_kernels_matches_the_reference(metric: str) -> None:
    board = LAYOUTS["横刀立马"]
    solution = solve(board, metric)
    assert solution is not None and solution.length == (81 if metric == "moves" else 116)
    for layout in ("AAB/AAC/.DE/..F", "ABBC/ABBC/.DE./FGHI"):
        small = Board.parse(layout)
        found, path = solve(small, metric), reference_search(small, metric)
        assert (found is None) == (path is None)
        assert found is None or (path is not None and found.length == len(path) - 1)
    work = board.copy(stack=False)
    for move in solution.moves:
        work.push(move)
    assert work.is_solved()


@pytest.mark.usefixtures("plain_first")
def test_solve_is_the_same_with_or_without_kernels(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("横刀立马", "走投无路", "捷足先登"):
        fresh = solve(LAYOUTS[name], "moves")
        monkeypatch.setattr(solve_module, "KERNELS", kernels.__name__)
        assert solve(LAYOUTS[name], "moves") == fresh
        monkeypatch.setattr(solve_module, "KERNELS", "no.such.module")


@pytest.mark.usefixtures("plain_first")
def test_a_big_search_moves_on_to_the_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(solve_module, "PLAIN_MAX_STATES", 100)
    solution = solve(LAYOUTS["横刀立马"])
    assert solution is not None and solution.length == 81 and solution.nodes > 100


@pytest.mark.usefixtures("plain_first")
def test_limits_in_the_plain_search() -> None:
    with pytest.raises(SearchLimitError) as caught:
        solve(LAYOUTS["横刀立马"], limits=Limits(max_nodes=100))
    assert caught.value.limit == "max_nodes" and caught.value.nodes >= 100
    pt = plain.plain_tables(4, 5)
    board = LAYOUTS["横刀立马"]
    start = min(board.key(), board.mirror_key())
    assert plain.search(start, pt, False, True, CAP, 0.0)[4] == 2  # the deadline has passed

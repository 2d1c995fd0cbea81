"""The PDB IDA* kernel compiled ahead of time (`pdb_aot`) against the JIT kernel: same status, length,
nodes and path, time limits included; and a fresh process that solves through it without numba."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tilegames.slide import Board, random_board
from tilegames.slide.solve import pdb_aot, pdb_kernels, status
from tilegames.slide.solve.common import relabel
from tilegames.slide.solve.ida import pattern_heuristic

pytestmark = pytest.mark.skipif(
    sys.platform != "linux" or shutil.which("cc") is None, reason="needs Linux and a C compiler"
)
# Sizes and partitions with 2, 3 and 4 tables (the 4-table one is weak: long searches, many nodes).
BOARDS = {(3, 3): "4-4", (4, 3): "4-4-3", (3, 4): "3-3-3-2"}


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory):
    """A cache directory with the extension built in it (about 10 s of CPU) and the small tables."""
    directory = tmp_path_factory.mktemp("aot-cache")
    pdb_aot.build(directory)
    for (width, height), partition in BOARDS.items():
        pattern_heuristic(width, height, 0, partition, cache_dir=directory, progress=False)
    return directory


def blank_first(board: Board) -> Board:
    """`board` shuffled from the blank-first goal instead (so that goal is reachable): same size."""
    width, height = board.width, board.height
    goal = Board.parse(
        "/".join(" ".join(str(r * width + c) for c in range(width)) for r in range(height))
    )
    shuffled = goal.copy()
    rng = np.random.default_rng(sum(board.tiles))
    for _ in range(200):
        moves = shuffled.legal_moves()
        shuffled.push(moves[int(rng.integers(len(moves)))])
    return shuffled


def both(module, cache, board: Board, partition: str, *, refl, lc, weight, nodes, deadline):
    """(status, length, nodes, path) from the extension and from the JIT kernel."""
    width, height = board.width, board.height
    goal = Board.parse(
        "/".join(" ".join(str(r * width + c) for c in range(width)) for r in range(height))
    )
    state, blank = relabel(blank_first(board), goal)
    pdb = pattern_heuristic(width, height, blank, partition, cache_dir=cache, progress=False)
    mirror = pdb.refl if refl else np.zeros(0, np.int64)
    outcomes = []
    for kernel in (getattr(module, f"ida_pdb_{len(pdb.tables)}"), pdb_kernels.ida_pdb):
        path = np.zeros(200, np.int64)
        got = kernel(
            state, board.width, board.height, blank, pdb.group_of, pdb.glabels, pdb.gk,
            pdb.factors, pdb.tables, mirror, lc, weight[0], weight[1], nodes, deadline, path, 0.5,
        )  # fmt: skip
        outcomes.append((*got, path[: got[1]].tolist()))
    return outcomes


@settings(max_examples=30, deadline=None)
@given(
    size=st.sampled_from(sorted(BOARDS)),
    seed=st.integers(0, 10_000),
    refl=st.booleans(),
    lc=st.booleans(),
    weight=st.sampled_from([(1, 1), (3, 2)]),
    nodes=st.sampled_from([50, 1 << 40]),
)
def test_the_extension_searches_exactly_like_the_jit_kernel(
    cache, size, seed, refl, lc, weight, nodes
):
    module = pdb_aot.load(cache)
    board = random_board(*size, seed=seed)
    aot, jit = both(
        module,
        cache,
        board,
        BOARDS[size],
        refl=refl,
        lc=lc,
        weight=weight,
        nodes=nodes,
        deadline=1e18,
    )
    assert aot == jit
    assert aot[0] in (status.FOUND, status.NODE_LIMIT)


def test_a_time_limit_stops_both_at_the_same_node(cache, monkeypatch):
    """The extension's clock (CLOCK_MONOTONIC) is read at the same nodes as the JIT kernel's."""
    module = pdb_aot.load(cache)
    stopped = []
    for seed in range(5):
        board = random_board(4, 4, seed=seed)
        aot, jit = both(
            module,
            cache,
            board,
            "4-4-4-3",
            refl=False,
            lc=False,
            weight=(1, 1),
            nodes=1 << 40,
            deadline=0.0,
        )
        assert aot == jit
        if aot[0] == status.TIME_LIMIT:
            stopped.append(aot[2])
    assert stopped and set(stopped) == {1 << 16}  # the first look at the clock


def test_a_fresh_process_solves_through_the_extension_without_numba(cache, monkeypatch):
    monkeypatch.setenv("TILEGAMES_AOT", "0")  # the reference: the JIT kernel, in this process
    from tilegames import slide

    board = random_board(4, 3, seed=5)
    expected = slide.solve(board, partition="4-4-3", cache_dir=cache)
    script = (
        "import json, sys\n"
        "from tilegames import slide\n"
        f"s = slide.solve(slide.Board.parse({str(board)!r}), partition='4-4-3')\n"
        "print(json.dumps([s.moves, s.nodes, 'numba' in sys.modules]))\n"
    )
    env = {**os.environ, "TILEGAMES_CACHE": str(cache), "TILEGAMES_AOT": "1"}
    out = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    ).stdout
    moves, nodes, numba_loaded = json.loads(out)
    assert (moves, nodes) == (expected.moves, expected.nodes)
    assert not numba_loaded


def test_without_the_extension_the_jit_kernel_answers(tmp_path, monkeypatch):
    monkeypatch.setenv("TILEGAMES_AOT", "0")
    assert pdb_aot.load(tmp_path) is None
    board = random_board(3, 3, seed=1)
    from tilegames import slide

    solution = slide.solve(board, partition="4-4", cache_dir=tmp_path)
    assert solution is not None
    assert solution.length == slide.solve(board, cache_dir=tmp_path).length  # the plain 3x3 search
    assert not list(tmp_path.glob("aot/*"))  # no build started when disabled

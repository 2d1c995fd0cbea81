"""IDA*: optimal with Manhattan + linear conflict or with pattern databases; weighted for speed."""

from __future__ import annotations

import os
import time

import numpy as np

from tilegames.slide.board import Board
from tilegames.slide.solve import pdb_aot, status
from tilegames.slide.solve.common import (
    Budget,
    Solution,
    blank_cells,
    corner_transform,
    letters_from_blank_cells,
    relabel,
    transform_state,
)
from tilegames.slide.solve.pdb import (
    DEFAULT_PARTITION,
    PatternHeuristic,
    load_heuristic,
    partition_for,
)

MAX_DEPTH = 1000
# Controlled re-expansion in weighted PDB searches (`pdb_kernels.ida_pdb`'s `growth`): each iteration
# lets back in at least half as many cut nodes as it searched. On Korf & Felner's 24-puzzles it finds
# answers of the same lengths at a fraction of the nodes (docs/benchmarks.md, round 6).
GROWTH = 0.5


def pattern_heuristic(
    width: int,
    height: int,
    blank: int,
    partition: str | None = None,
    *,
    cache_dir: str | os.PathLike[str] | None = None,
    reflect: bool = True,
    progress: bool = True,
) -> PatternHeuristic:
    """The additive PDB heuristic for a relabelled goal with its blank in cell `blank`."""
    groups = partition_for(width, height, blank, partition)
    where = None if cache_dir is None else str(cache_dir)
    return load_heuristic(width, height, blank, groups, where, reflect, progress)


def corner_tables(
    width: int,
    height: int,
    blank: int,
    partition: str | None = None,
    *,
    cache_dir: str | os.PathLike[str] | None = None,
) -> tuple[np.ndarray | None, PatternHeuristic]:
    """The cell map that turns a corner goal blank into cell 0 (None elsewhere) and the databases
    for the goal seen through it: all four corner goals share one set of tables."""
    cell_map = corner_transform(width, height, blank)
    if cell_map is not None:
        blank = 0
    return cell_map, pattern_heuristic(width, height, blank, partition, cache_dir=cache_dir)


def load_tables(
    width: int,
    height: int,
    blank: int,
    limits: Budget,
    partition: str | None = None,
    *,
    cache_dir: str | os.PathLike[str] | None = None,
) -> tuple[np.ndarray | None, PatternHeuristic, Budget]:
    """`corner_tables`, and `limits` with the clock moved on by the time spent loading them.

    A time limit bounds the search, not the one-time building of the databases on a machine's first
    use (6-6-3: about 10 s), which would otherwise use up a short timeout before the first node.
    """
    started = time.perf_counter()
    cell_map, pdb = corner_tables(width, height, blank, partition, cache_dir=cache_dir)
    return cell_map, pdb, limits.after_setup(time.perf_counter() - started)


def uses_pdb(width: int, height: int, partition: str | None) -> bool:
    """PDBs by default on 4×4 and 5×5; any named partition elsewhere; "none" turns them off."""
    if partition == "none":
        return False
    return partition is not None or (width, height) in DEFAULT_PARTITION


def ida_relabelled(
    state: np.ndarray,
    width: int,
    height: int,
    blank: int,
    limits: Budget,
    *,
    heuristic: str = "auto",
    partition: str | None = None,
    weight: tuple[int, int] = (1, 1),
    cache_dir: str | os.PathLike[str] | None = None,
    shorter_than: int = MAX_DEPTH,
    linear_conflict: bool | None = None,
) -> tuple[int, str, int]:
    """IDA* on a relabelled state (goal = identity, blank label `blank`): (status, moves, nodes).

    Only solutions shorter than `shorter_than` are looked for (EXHAUSTED when there is none).
    On boards past 4×4 the PDB lookup is maxed with Manhattan + linear conflict, unless
    `linear_conflict` says otherwise (the kernel reads the conflicts only for nodes the lookup does
    not cut, so keeping them costs little).

    heuristic: "auto" (PDB where available, else Manhattan + linear conflict), "pdb", "mdlc",
    "manhattan". `weight` (num, den) turns it into weighted IDA* (f = g + h·num/den).
    """
    w, h, b = width, height, blank
    if heuristic == "auto":
        heuristic = "pdb" if uses_pdb(w, h, partition) else "mdlc"
    path = np.zeros(max(1, min(shorter_than, MAX_DEPTH) - 1), np.int64)
    cell_map = None
    wnum, wden = weight
    if heuristic == "pdb":
        use_lc = w * h > 16 if linear_conflict is None else linear_conflict
        cell_map, pdb, limits = load_tables(w, h, b, limits, partition, cache_dir=cache_dir)
        if cell_map is not None:
            state, b = transform_state(state, cell_map), 0
        result, length, nodes = pdb_aot.ida_pdb(
            state, w, h, b, pdb.group_of, pdb.glabels, pdb.gk, pdb.factors, pdb.tables,
            pdb.refl, use_lc, wnum, wden, limits.max_nodes, limits.deadline, path, GROWTH,
        )  # fmt: skip
    elif heuristic in ("mdlc", "manhattan"):
        from tilegames.slide.solve import kernels

        result, length, nodes = kernels.ida_mdlc(
            state, w, h, b, heuristic == "mdlc", wnum, wden, limits.max_nodes, limits.deadline, path
        )
    else:
        raise ValueError(f"unknown heuristic {heuristic!r}: use auto, pdb, mdlc or manhattan")
    if result != status.FOUND:
        return int(result), "", int(nodes)
    return status.FOUND, path_letters(state, b, path[:length], w, cell_map), int(nodes)


def path_letters(
    state: np.ndarray, blank: int, path: np.ndarray, width: int, cell_map: np.ndarray | None
) -> str:
    """Move letters of a kernel's blank directions from `state` (seen through `cell_map`, if any)."""
    start = int(np.flatnonzero(state == blank)[0])
    cells = blank_cells(start, path, width)
    if cell_map is not None:
        inverse = np.argsort(cell_map)
        cells = [int(inverse[c]) for c in cells]
    return letters_from_blank_cells(cells, width)


def ida_star(
    board: Board,
    goal: Board,
    limits: Budget,
    *,
    heuristic: str = "auto",
    partition: str | None = None,
    weight: tuple[int, int] = (1, 1),
    cache_dir: str | os.PathLike[str] | None = None,
) -> tuple[int, str, int]:
    """IDA* from `board` to `goal`; see `ida_relabelled`."""
    state, b = relabel(board, goal)
    return ida_relabelled(
        state, board.width, board.height, b, limits,
        heuristic=heuristic, partition=partition, weight=weight, cache_dir=cache_dir,
    )  # fmt: skip


def solve_optimal(
    board: Board,
    goal: Board,
    limits: Budget,
    *,
    heuristic: str = "auto",
    partition: str | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
) -> Solution:
    """A shortest solution (IDA* with an admissible heuristic); SearchLimitError at a limit."""
    result, moves, nodes = ida_star(
        board, goal, limits, heuristic=heuristic, partition=partition, cache_dir=cache_dir
    )
    if result != status.FOUND:
        raise limits.error(result, nodes)
    return Solution(list(moves), len(moves), True, nodes, len(moves))

"""Fast, legal, near-optimal solutions on any board.

Up to 5×5 an anytime weighted IDA* over pattern databases (or Manhattan + linear conflict) finds
short solutions. Bigger boards are first reduced line by line (`reduce.Reducer`) until at most 5×5 is
left, which is then searched.
"""

from __future__ import annotations

import os
import time

import numpy as np

from tilegames.slide.board import OPPOSITE, Board
from tilegames.slide.solve import kernels
from tilegames.slide.solve.common import (
    Budget,
    Solution,
    corner_transform,
    relabel,
    transform_state,
)
from tilegames.slide.solve.ida import MAX_DEPTH, ida_relabelled, load_tables, uses_pdb
from tilegames.slide.solve.pdb import tables_cached
from tilegames.slide.solve.reduce import Reducer
from tilegames.slide.solve.shorten import shorten, shorten_to_corners

# The anytime schedule of weights (f = g + h·num/den) and its node budget for the last small board:
# small steps, so that each lighter weight has a fair chance to finish within half of what is left.
WEIGHTS = ((2, 1), (9, 5), (5, 3), (8, 5), (3, 2), (7, 5), (4, 3), (5, 4), (6, 5), (1, 1))
FAST_BUDGET = 45_000_000
# Less on what is left of a bigger board: there the line-by-line reduction dominates the length.
REDUCED_BUDGET = 15_000_000
# Path shortening afterwards (`shorten.shorten`): its node budget, on solutions up to this length.
SHORTEN_BUDGET = 8_000_000
SHORTEN_MAX_LENGTH = 400
# Pattern-database windows (`shorten.shorten_to_corners`, on 4×4 and 5×5): window lengths tried in
# turn, the node cap of one window's search and of them all.
CORNER_WINDOWS = (40, 60)
CORNER_WINDOW_NODES = 3_000_000
CORNER_BUDGET = 15_000_000
# The stronger 5×5 databases: they give the lower bound when they are on disk (never built here).
# Built once on request (`partition="6-6-6-6"`, or `python -m bench.slide_pdb_build 6-6-6-6`), about
# 3 minutes of CPU. The search keeps 5-5-5-5-4 by default: measured on Korf & Felner's 50 instances
# (bench/slide_24.py), weighted IDA* gains nothing from 6-6-6-6's accuracy within the same budget,
# as its lookups are slower (docs/benchmarks.md, "The 24-puzzle").
STRONG_5X5 = "6-6-6-6"


def cancel_inverses(moves: str) -> str:
    """Drop every move that is undone at once (UD, DU, LR, RL), repeatedly; the rest stays legal."""
    out: list[str] = []
    for move in moves:
        if out and out[-1] == OPPOSITE[move]:
            out.pop()
        else:
            out.append(move)
    return "".join(out)


def lower_bound(state: np.ndarray, width: int, height: int, blank: int) -> int:
    """Manhattan distance plus linear conflicts: a proven lower bound on the optimal length."""
    return int(kernels.manhattan_lc(state, width, height, blank, True))


def _search_small(
    state: np.ndarray,
    w: int,
    h: int,
    b: int,
    limits: Budget,
    cache_dir: str | os.PathLike[str] | None,
    partition: str | None,
    budget: int = FAST_BUDGET,
) -> tuple[int, str, int, bool]:
    """Anytime weighted IDA*: heavy weight first, then lighter ones looking only for shorter answers.

    Returns (status, moves, nodes, proved optimal).
    """
    if w * h <= 12:
        status, moves, nodes = ida_relabelled(state, w, h, b, limits, heuristic="mdlc")
        return status, moves, nodes, status == kernels.FOUND
    heuristic = "pdb" if uses_pdb(w, h, partition) else "mdlc"
    partition = partition if heuristic == "pdb" else None
    total = min(limits.max_nodes, budget)
    best, nodes, optimal = "", 0, False
    for weight in WEIGHTS:
        left = total - nodes
        if left <= 0:
            break
        share = left if not best else max(1, left // 2)  # later, lighter weights split the rest
        weight_budget = Budget(share, limits.deadline, limits.timeout)
        status, moves, used = ida_relabelled(
            state, w, h, b, weight_budget, heuristic=heuristic, weight=weight, cache_dir=cache_dir, partition=partition,
            shorter_than=len(best) if best else MAX_DEPTH,
        )  # fmt: skip
        nodes += used
        if status == kernels.FOUND:
            best = moves
            optimal = weight == (1, 1)
        elif status == kernels.EXHAUSTED:  # every path shorter than `best` was searched
            optimal = bool(best)
        elif status == kernels.TIME_LIMIT or best:  # lighter weights would cost even more
            break
        if optimal:
            break
    if not best:
        return (
            (kernels.TIME_LIMIT if _clock_passed(limits) else kernels.NODE_LIMIT),
            "",
            nodes,
            False,
        )
    return kernels.FOUND, best, nodes, optimal


def _covers(partition: str | None, width: int, height: int) -> bool:
    """Whether a partition name such as 6-6-3 splits exactly the tiles of a width×height board."""
    if partition is None or partition == "none":
        return partition == "none"
    parts = partition.split("-")
    return all(p.isdigit() for p in parts) and sum(map(int, parts)) == width * height - 1


def _shorten(
    state: np.ndarray, b: int, text: str, w: int, h: int, limits: Budget, nodes: int
) -> tuple[str, int]:
    """`shorten.shorten` within what is left of the limits (nothing when they are used up)."""
    budget = min(SHORTEN_BUDGET, limits.max_nodes - nodes)
    if budget <= 0 or len(text) > SHORTEN_MAX_LENGTH or _clock_passed(limits):
        return text, 0
    return shorten(state, b, text, w, h, max_nodes=budget, deadline=limits.deadline)


def _corner_windows(
    state: np.ndarray, b: int, text: str, w: int, h: int, limits: Budget, nodes: int,
    partition: str | None, cache_dir: str | os.PathLike[str] | None,
) -> tuple[str, int]:  # fmt: skip
    """`shorten.shorten_to_corners` with pattern-database IDA* windows, within the limits left."""
    budget = min(CORNER_BUDGET, limits.max_nodes - nodes)
    if budget <= 0 or _clock_passed(limits):
        return text, 0

    def search(
        start: np.ndarray, goal_blank: int, length: int, left: int
    ) -> tuple[str | None, int]:
        cap = Budget(min(left, CORNER_WINDOW_NODES), limits.deadline, limits.timeout)
        status, moves, used = ida_relabelled(
            start, w, h, goal_blank, cap, heuristic="pdb", partition=partition,
            cache_dir=cache_dir, shorter_than=length,
        )  # fmt: skip
        return (moves if status == kernels.FOUND else None), used

    return shorten_to_corners(
        state, b, text, w, h, search,
        windows=CORNER_WINDOWS, max_nodes=budget, deadline=limits.deadline,
    )  # fmt: skip


def bound_partitions(
    width: int, height: int, partition: str | None, cache_dir: str | os.PathLike[str] | None
) -> list[str | None]:
    """The databases whose lookups bound a board of this size from below: the search's, and on 5×5
    the 6-6-6-6 ones too when they are already on disk (checking never builds them)."""
    names = [partition] if partition is None or _covers(partition, width, height) else []
    square = partition is None and (width, height) == (5, 5)
    if square and tables_cached(5, 5, STRONG_5X5, cache_dir=cache_dir):
        names.append(STRONG_5X5)
    return names


def _clock_passed(limits: Budget) -> bool:
    return time.perf_counter() > limits.deadline


def solve_fast(
    board: Board,
    goal: Board,
    limits: Budget,
    *,
    partition: str | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
) -> Solution:
    """A legal solution quickly; `optimal` only when proved (the search alone did the whole job).

    The limits bound the searching; when they run out, more of the board is solved by construction,
    so an answer always comes back.
    """
    w, h = board.width, board.height
    state, b = relabel(board, goal)
    bound = lower_bound(state, w, h, b)
    for name in bound_partitions(w, h, partition, cache_dir) if uses_pdb(w, h, partition) else []:
        cell_map, pdb, limits = load_tables(w, h, b, limits, name, cache_dir=cache_dir)
        if cell_map is not None:
            bound = max(bound, pdb(transform_state(state, cell_map)))
    reducer = Reducer(state, w, h, b)
    nodes = 0
    for side in (5, 4, 3):
        reducer.reduce_to(side)
        sub, sw, sh, sb = reducer.sub_state()
        last = side == 3 or sw * sh <= 9
        sub_partition = partition if _covers(partition, sw, sh) else None
        if sw * sh > 12 and uses_pdb(sw, sh, sub_partition):
            # Load (or build, once) the small board's databases before its clock starts.
            limits = load_tables(sw, sh, sb, limits, sub_partition, cache_dir=cache_dir)[2]
        # The last board (at most 9 cells, a few thousand nodes) gets its own budget, so there is
        # always an answer.
        budget = Budget.of(None, None) if last else limits.remaining(nodes)
        status, moves, used, optimal = _search_small(
            sub, sw, sh, sb, budget, cache_dir, sub_partition,
            REDUCED_BUDGET if reducer.moves else FAST_BUDGET,
        )  # fmt: skip
        nodes += used
        if status == kernels.FOUND:
            break
        # Out of budget on this board: solve one more line by construction and try a smaller one.
        if last:  # pragma: no cover - an unlimited search of at most 9 cells cannot fail
            raise limits.error(status, nodes)
    text = cancel_inverses("".join(reducer.moves) + moves)
    # Windows aim at corner-blank states, so they read the corner goal's tables: already loaded
    # when the goal blank is in a corner (never built just for the windows).
    corner_goal = corner_transform(w, h, b) is not None
    if (
        not optimal
        and not reducer.moves
        and corner_goal
        and w * h > 12
        and uses_pdb(w, h, partition)
    ):
        text, used = _corner_windows(state, b, text, w, h, limits, nodes, partition, cache_dir)
        nodes += used
    if not optimal or reducer.moves:
        text, used = _shorten(state, b, text, w, h, limits, nodes)
        nodes += used
    proved = (optimal and not reducer.moves) or len(text) == bound
    return Solution(list(text), len(text), proved, nodes, len(text) if proved else bound)

"""Solvers: optimal IDA* (pattern databases on 4×4 and 5×5, Manhattan + linear conflict elsewhere),
a fast near-optimal solver for big boards, and hints."""

from __future__ import annotations

import os

from tilegames.common import Limits, SearchLimitError, limits_of
from tilegames.slide.board import Board, goal_for
from tilegames.slide.solve.common import Budget, Solution
from tilegames.slide.solve.small import MAX_CELLS as SMALL_CELLS
from tilegames.slide.solve.small import solve_small

__all__ = ["SearchLimitError", "Solution", "hint", "solve"]

# An optimal search on a board past 4×4 may run for hours; unless the caller sets a limit, stop here
# (10–30 s on a 2-core machine: 5×5 with its databases ~8 M nodes/s, bigger boards ~20 M nodes/s).
DEFAULT_MAX_NODES_BIG = 200_000_000


def solve(
    board: Board,
    goal: Board | None = None,
    *,
    limits: Limits | None = None,
    fast: bool = False,
    partition: str | None = None,
    heuristic: str = "auto",
    cache_dir: str | os.PathLike[str] | None = None,
) -> Solution | None:
    """Solve `board` to `goal` (default: the standard goal); None when it cannot reach the goal.

    Optimal by default (IDA*; 4×4 uses the 6-6-3 pattern databases, `partition="7-8"` the larger ones);
    `fast=True` gives a legal, near-optimal answer quickly on any size. An unsolvable board is told at
    once by its parity (None, a proof, not a failure); SearchLimitError when `limits` run out. Past 4×4
    the optimal search stops at DEFAULT_MAX_NODES_BIG unless `limits` set a limit. Building pattern
    databases on a machine's first use is not search: it comes before the clock starts (6-6-3: about
    10 s, once; then they are cached on disk).
    """
    limits = limits_of(limits)
    target = goal_for(board, goal)
    if not board.is_solvable(target):
        return None
    if board == target:
        return Solution([], 0, True, 0, 0)
    if fast:
        from tilegames.slide.solve.fast import solve_fast

        return solve_fast(
            board,
            target,
            Budget.of(limits.max_nodes, limits.timeout),
            partition=partition,
            cache_dir=cache_dir,
        )
    if heuristic == "auto" and partition is None and board.width * board.height <= SMALL_CELLS:
        # Plain Python answers a 3×3 in milliseconds, before numba and its kernels would even load.
        return solve_small(board, target, Budget.of(limits.max_nodes, limits.timeout))
    from tilegames.slide.solve.ida import solve_optimal

    default_limit = (
        limits.max_nodes is None and limits.timeout is None and board.width * board.height > 16
    )
    try:
        return solve_optimal(
            board,
            target,
            Budget.of(DEFAULT_MAX_NODES_BIG if default_limit else limits.max_nodes, limits.timeout),
            heuristic=heuristic,
            partition=partition,
            cache_dir=cache_dir,
        )
    except SearchLimitError as error:
        if not default_limit:
            raise
        raise SearchLimitError(
            f"{error} (the default limit past 4x4: set a node or time limit to search longer, "
            "or use the fast solver)",
            limit=error.limit,
            nodes=error.nodes,
        ) from None


def hint(
    board: Board,
    goal: Board | None = None,
    *,
    limits: Limits | None = None,
    partition: str | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
) -> str | None:
    """The next move of an optimal solution (up to 4×4), else of the fast solution; None if there is
    none (solved, or the goal cannot be reached).

    If the optimal search runs out of `limits`, the fast solver's move is given instead (the fast
    solver always answers: its own node budget is bounded).
    """
    limits = limits_of(limits)
    target = goal_for(board, goal)
    if board == target or not board.is_solvable(target):
        return None
    if board.width * board.height <= 16:
        try:
            solution = solve(board, target, limits=limits, partition=partition, cache_dir=cache_dir)
        except SearchLimitError:
            pass
        else:
            return solution.moves[0] if solution else None
    fast = solve(board, target, fast=True, partition=partition, cache_dir=cache_dir)
    return fast.moves[0] if fast else None

"""Solvers: optimal IDA* (pattern databases on 4×4 and 5×5, Manhattan + linear conflict elsewhere),
a fast near-optimal solver for big boards, and hints."""

from __future__ import annotations

import os

from tilegames.slide.board import Board, goal_for
from tilegames.slide.solve.common import (
    Limits,
    SearchLimitError,
    Solution,
    UnsolvableError,
    check_solvable,
)
from tilegames.slide.solve.ida import solve_optimal

__all__ = ["SearchLimitError", "Solution", "UnsolvableError", "hint", "solve"]

# An optimal search on a board past 4×4 may run for hours; unless the caller sets a limit, stop here
# (10–30 s on a 2-core machine: 5×5 with its databases ~8 M nodes/s, bigger boards ~20 M nodes/s).
DEFAULT_MAX_NODES_BIG = 200_000_000


def solve(
    board: Board,
    goal: Board | None = None,
    *,
    fast: bool = False,
    max_nodes: int | None = None,
    timeout: float | None = None,
    partition: str | None = None,
    heuristic: str = "auto",
    cache_dir: str | os.PathLike[str] | None = None,
) -> Solution:
    """Solve `board` to `goal` (default: the standard goal).

    Optimal by default (IDA*; 4×4 uses the 6-6-3 pattern databases, `partition="7-8"` the larger ones);
    `fast=True` gives a legal, near-optimal answer quickly on any size. Raises UnsolvableError at once
    for an unsolvable board and SearchLimitError when `max_nodes` or `timeout` (seconds of search) runs
    out. Building pattern databases on a machine's first use is not search: it comes before the clock
    starts (6-6-3: about 10 s, once; then they are cached on disk).
    """
    target = goal_for(board, goal)
    check_solvable(board, target)
    if board == target:
        return Solution("", 0, True, 0, 0)
    if fast:
        from tilegames.slide.solve.fast import solve_fast

        return solve_fast(
            board, target, Limits.of(max_nodes, timeout), partition=partition, cache_dir=cache_dir
        )
    default_limit = max_nodes is None and timeout is None and board.width * board.height > 16
    try:
        return solve_optimal(
            board,
            target,
            Limits.of(DEFAULT_MAX_NODES_BIG if default_limit else max_nodes, timeout),
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
            error.nodes,
        ) from None


def hint(
    board: Board,
    goal: Board | None = None,
    *,
    timeout: float | None = None,
    partition: str | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
) -> str | None:
    """The next move of an optimal solution (up to 4×4), else of the fast solution; None if solved.

    If the optimal search runs out of `timeout`, the fast solver's move is given instead.
    """
    target = goal_for(board, goal)
    check_solvable(board, target)
    if board == target:
        return None
    if board.width * board.height <= 16:
        try:
            return solve(
                board, target, timeout=timeout, partition=partition, cache_dir=cache_dir
            ).moves[0]
        except SearchLimitError:
            pass
    return solve(board, target, fast=True, partition=partition, cache_dir=cache_dir).moves[0]

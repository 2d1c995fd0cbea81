"""Hints: a pair to remove now, plain (the first in reading order) or one that keeps the board clearable."""

from __future__ import annotations

from tilegames.common import Limits, SearchLimitError, limits_of
from tilegames.link.board import Board, Pair

HINT_MAX_NODES = 20_000
"""The solver's node budget behind a clearable hint unless `limits` say otherwise: a node limit, not a
clock, so a hint is the same on every machine (a few tenths of a second on the biggest deals)."""


def hint(board: Board, *, clearable: bool = False, limits: Limits | None = None) -> Pair | None:
    """A removable pair, or None when there is none (cleared or stuck).

    Plain: the first pair in reading order (KShisen's kind of hint). With `clearable`, the first move
    of a solution when the solver finds one within `limits` (default: HINT_MAX_NODES nodes), so taking
    the hint never strands the player; otherwise (no solution, or the limit hit) the plain hint.
    """
    if clearable:
        from tilegames.link.solve import solve

        limits = limits_of(limits)
        if limits.max_nodes is None:
            limits = Limits(HINT_MAX_NODES, limits.timeout)
        try:
            solution = solve(board, limits=limits)
        except SearchLimitError:
            solution = None
        if solution is not None and solution.moves:
            return solution.moves[0]
    return board.first_pair()

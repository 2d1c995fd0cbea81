"""The whole-board solver: can this board be cleared, and in which order?

`solve(board)` wraps the search core of `tilegames.link.search` (arrays in, a pair sequence, a
proof of impossibility or "limit reached" out) in the board's terms.

Without gravity a removal only empties cells, so a pair that can be removed now can still be
removed later and the only real choice is how the tiles of each kind are paired. Safe moves
(a kind's last two tiles, or all four in some pairing, removable now) are played without
branching: take any solution and move that kind's removals to the front; every other removal
then happens on a board with at least as many empty cells, so it is still legal. The pairing
search branches on one kind at a time (take one of its removable pairs, or forbid them all),
proves dead ends with a relaxation (`dense.relax`) and restarts with growing node budgets.

With gravity tiles fall and a removal can block, so the search runs over moves, with the safe
rule only for removals that make nothing fall, a memo keyed by the grid with its kinds
renumbered (relabelled positions share one entry) and restarts too.
"""

from __future__ import annotations

from dataclasses import dataclass

from tilegames.common import Limits, limits_of
from tilegames.link.board import Board, Pair
from tilegames.link.search import search


@dataclass(frozen=True)
class Solution:
    """A way to clear a board."""

    moves: list[Pair]
    """The pairs to remove, in order (cells as they are at the time of each move: gravity moves tiles)."""
    length: int
    """len(moves): every clearing has the same length (tiles / 2)."""
    optimal: bool
    """Always True: every way to clear a board removes all its tiles, so all have this length."""
    nodes: int
    """Positions expanded."""


def solve(
    board: Board,
    *,
    limits: Limits | None = None,
    safe: bool = True,
    memo: bool = True,
) -> Solution | None:
    """A way to clear `board` (with its gravity and ring rules), or None when none exists (proved).

    `limits` bound the search (none by default); SearchLimitError when one is hit. `safe` turns on
    the safe moves and the dead-end proof, `memo` the memo of dead positions; either one turns on
    the move ordering. `safe=False, memo=False` is the plain depth-first search (every pair in
    reading order), kept as the benchmark's baseline.
    """
    limits = limits_of(limits)
    clock = limits.clock()
    outcome = search(
        board.grid(),
        board.gravity,
        max_nodes=limits.max_nodes,
        timeout=limits.timeout,
        safe=safe,
        memo=memo,
    )
    if outcome.solved is None:
        raise clock.error(outcome.limit or "max_nodes", outcome.nodes)
    if not outcome.solved:
        return None
    pairs = [((r1 - 1, c1 - 1), (r2 - 1, c2 - 1)) for r1, c1, r2, c2 in outcome.moves]
    return Solution(pairs, len(pairs), True, outcome.nodes)


def greedy(board: Board) -> tuple[bool, int]:
    """The greedy player (a baseline): always take the first pair; (cleared?, moves made)."""
    play = board.copy()
    made = 0
    while True:
        pair = play.first_pair()
        if pair is None:
            return play.is_solved(), made
        play.push_unchecked(pair)
        made += 1

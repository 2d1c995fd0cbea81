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

from dataclasses import dataclass, field

from tilegames.link.board import Board, LinkError, Pair
from tilegames.link.path import find_pairs
from tilegames.link.search import search


class SearchLimitError(LinkError):
    """A node or time limit was hit (raised inside the search, turned into `solvable=None`)."""


@dataclass(frozen=True)
class LinkSolution:
    """What the solver found out about a board."""

    solvable: bool | None
    """True: cleared by `pairs`; False: proven impossible (search exhausted); None: limit hit."""
    pairs: list[Pair] = field(default_factory=list)
    """The pairs to remove, in order (cells as they are at the time of each move, gravity moves
    tiles); empty unless solvable."""
    nodes: int = 0
    """Positions expanded."""
    limit: str | None = None
    """Which limit stopped the search ("max_nodes" or "timeout"), if any."""


def solve(
    board: Board,
    *,
    max_nodes: int | None = None,
    timeout: float | None = None,
    safe: bool = True,
    memo: bool = True,
) -> LinkSolution:
    """Decide whether `board` can be cleared (with its gravity and ring rules).

    `max_nodes` / `timeout` (seconds) bound the search; hitting one gives `solvable=None`.
    `safe` turns on the safe moves and the dead-end proof, `memo` the memo of dead positions;
    either one turns on the move ordering. `safe=False, memo=False` is the plain depth-first
    search (every pair in reading order), kept as the benchmark's baseline.
    """
    if max_nodes is not None and max_nodes < 0:
        raise LinkError(f"max_nodes must be 0 or more, not {max_nodes}")
    if timeout is not None and not timeout >= 0:
        raise LinkError(f"timeout must be 0 or more seconds, not {timeout}")
    outcome = search(
        board.grid(), board.gravity, max_nodes=max_nodes, timeout=timeout, safe=safe, memo=memo
    )
    if outcome.solved is None:
        return LinkSolution(None, [], outcome.nodes, outcome.limit)
    if not outcome.solved:
        return LinkSolution(False, [], outcome.nodes)
    pairs = [((r1 - 1, c1 - 1), (r2 - 1, c2 - 1)) for r1, c1, r2, c2 in outcome.moves]
    return LinkSolution(True, pairs, outcome.nodes)


def greedy(board: Board) -> tuple[bool, int]:
    """The greedy player (a baseline): always take the first pair; (cleared?, moves made)."""
    play = board.copy()
    made = 0
    while True:
        hint = find_pairs(play._grid, True)
        if len(hint) == 0:
            return play.is_cleared(), made
        r1, c1, r2, c2 = hint[0].tolist()
        play.push_unchecked(((r1 - 1, c1 - 1), (r2 - 1, c2 - 1)))
        made += 1

"""The whole-board solver: can this board be cleared, and in which order?

Depth-first search over positions with a memo of the positions already known to be dead ends
(occupancy bitmasks without gravity, the whole grid with it).

Without gravity a removal only empties cells, and an empty cell never blocks a path, so a pair
that can be removed now can still be removed later. The only real choice is how the tiles of
a kind are paired. Hence the safe-move rule: when every remaining tile of a kind can be removed
right now (its last two, or all four in some pairing), do it at once, without branching.
Proof: take any solution; move the removals of that kind to the front, in our pairing. Every
other removal then happens on a board with at least as many empty cells as before, so it is
still legal.

With gravity tiles fall and a removal can block, except when the kind's removal makes no other
tile move: every other tile then keeps its place in every continuation (a tile's place depends
only on the tiles below it in its column), and the same exchange argument applies.

Dead-end proof (no gravity): `kernels.doomed`, a relaxation that no real play can beat, run
at the root and after each move that fixes a pairing, trying tiles in the order that worked one
move earlier (the relaxation is monotone, so the order changes the speed, not the verdict).

The hot parts (move generation with the safe rule and the ordering, the relaxation, gravity's
falls) are numba kernels in `kernels.py`; the search itself is a Python loop over an explicit
stack.

Move ordering: pairs of the kinds with the fewest tiles left first (they settle a kind), with
gravity the moves that make nothing fall, then pairs that open the most cells around them.
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

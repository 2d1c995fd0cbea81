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

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from tilegames.common import Limits, SearchLimitError, limits_of
from tilegames.link.board import Board, Pair
from tilegames.link.kernels import expand, relax, remove_falling

_CHECK_EVERY = 256
_NONE = np.empty(0, np.int64)


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


Move = tuple[int, int, int, int]


@dataclass
class _Frame:
    """One node on the search stack: its moves, the next one to try, the undo of the current."""

    state: int | bytes
    moves: list[Move]
    forced: int
    hint: np.ndarray
    index: int = 0
    undo: Any = None


class _Search:
    """The state of one search: the grid (kinds renumbered), counts, memo, limits."""

    def __init__(
        self, board: Board, max_nodes: int | None, timeout: float | None, safe: bool, memo: bool
    ) -> None:
        self.grid = board.grid()
        # Kinds renumbered 1..K (walls stay -1): with gravity the memo keys the whole grid, and
        # one byte per cell keeps those keys small.
        kinds = np.unique(self.grid[self.grid > 0])
        self.grid[self.grid > 0] = np.searchsorted(kinds, self.grid[self.grid > 0]) + 1
        self.cell_type = np.uint8 if len(kinds) < 256 else np.int32
        self.gravity = board.gravity
        self.max_nodes = max_nodes
        self.deadline = None if timeout is None else time.perf_counter() + timeout
        self.safe = safe
        self.prove = safe and not board.gravity  # the dead-end relaxation needs no gravity
        self.memo = memo
        self.dead: set[int | bytes] = set()
        self.nodes = 0
        self.count = np.bincount(self.grid[self.grid > 0], minlength=len(kinds) + 1).astype(
            np.int64
        )
        self.left = int(self.count.sum())
        self.width = self.grid.shape[1]
        self.key = 0
        for index in np.flatnonzero(self.grid.ravel() > 0).tolist():
            self.key |= 1 << index

    # -- making and unmaking moves on the search grid
    def remove(self, r1: int, c1: int, r2: int, c2: int) -> tuple[int, Any]:
        grid = self.grid
        kind = int(grid[r1, c1])
        self.count[kind] -= 2
        self.left -= 2
        if self.gravity:
            return kind, remove_falling(grid, r1, c1, r2, c2)
        grid[r1, c1] = grid[r2, c2] = 0
        self.key ^= (1 << (r1 * self.width + c1)) | (1 << (r2 * self.width + c2))
        return kind, None

    def restore(self, move: tuple[int, int, int, int], undo: tuple[int, Any]) -> None:
        kind, saved = undo
        r1, c1, r2, c2 = move
        self.count[kind] += 2
        self.left += 2
        if saved is None:
            self.grid[r1, c1] = self.grid[r2, c2] = kind
            self.key ^= (1 << (r1 * self.width + c1)) | (1 << (r2 * self.width + c2))
        else:
            self.grid[:, c2] = saved[1]
            self.grid[:, c1] = saved[0]

    def state(self) -> int | bytes:
        if self.gravity:
            return self.grid[1:-1, 1:-1].astype(self.cell_type).tobytes()
        return self.key

    def tick(self) -> None:
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise SearchLimitError("max_nodes")
        if (
            self.deadline is not None
            and self.nodes % _CHECK_EVERY == 1
            and time.perf_counter() > self.deadline
        ):
            raise SearchLimitError("timeout")

    def run(self, line: list[Move]) -> bool:
        """Depth-first search; on success `line` holds the moves played (padded coordinates).

        An explicit stack, not recursion: a big board is deeper than Python's recursion limit.
        The dead-end proof runs at the root and after a move that left tiles of its kind
        (clearing a whole kind never makes the relaxation fail), trying first the tiles in the
        order the last proof removed them.
        """
        stack: list[_Frame] = []
        enter: tuple[bool, np.ndarray] | None = (True, _NONE)  # (check, hint) of a new node
        while True:
            if enter is not None:
                check, hint = enter
                enter = None
                self.tick()
                if not self.left:
                    return True
                state = self.state()
                dead = self.memo and state in self.dead
                if not dead and self.prove and check:
                    dead, hint = relax(self.grid, hint)
                    if dead:
                        self.dead.add(state)
                if not dead:
                    found, forced = expand(
                        self.grid, self.count, self.gravity, self.safe, self.safe or self.memo
                    )
                    frame = _Frame(state, [tuple(m) for m in found.tolist()], forced, hint)
                    stack.append(frame)
                    if forced:  # the safe macro move, the only child
                        frame.undo = [self.remove(*m) for m in frame.moves]
                        frame.index = len(frame.moves)
                        line.extend(frame.moves)
                        enter = (False, hint)
                        continue
            if not stack:
                return False
            frame = stack[-1]
            if frame.undo is not None:  # the child failed: take its move back
                if frame.forced:
                    del line[-frame.forced :]
                    for move, undo in zip(reversed(frame.moves), reversed(frame.undo), strict=True):
                        self.restore(move, undo)
                else:
                    line.pop()
                    self.restore(frame.moves[frame.index - 1], frame.undo)
                frame.undo = None
            if frame.index >= len(frame.moves):
                if self.memo:
                    self.dead.add(frame.state)
                stack.pop()
                continue
            move = frame.moves[frame.index]
            frame.index += 1
            frame.undo = self.remove(*move)
            line.append(move)
            enter = (bool(self.count[frame.undo[0]] > 0), frame.hint)


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
    search = _Search(board, limits.max_nodes, limits.timeout, safe, memo)
    line: list[Move] = []
    try:
        found = search.run(line)
    except SearchLimitError as error:
        clock = limits.clock()
        raise clock.error(
            "timeout" if str(error) == "timeout" else "max_nodes", search.nodes
        ) from None
    if not found:
        return None
    pairs = [((r1 - 1, c1 - 1), (r2 - 1, c2 - 1)) for r1, c1, r2, c2 in line]
    return Solution(pairs, len(pairs), True, search.nodes)


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

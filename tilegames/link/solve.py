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

Dead-end proof (no gravity): `kernels.doomed`, a relaxation that no real play can beat.

Move ordering: pairs of the kinds with the fewest tiles left first (they settle a kind), with
gravity the moves that make nothing fall, then pairs that open the most cells around them.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from tilegames.link.board import Board, LinkError, Pair
from tilegames.link.kernels import doomed
from tilegames.link.path import connect, find_pairs

_CHECK_EVERY = 256


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


class _Search:
    def __init__(
        self, board: Board, max_nodes: int | None, timeout: float | None, safe: bool, memo: bool
    ) -> None:
        self.grid = board.grid()
        self.gravity = board.gravity
        self.max_nodes = max_nodes
        self.deadline = None if timeout is None else time.perf_counter() + timeout
        self.safe = safe
        self.prove = safe and not board.gravity  # the dead-end relaxation needs no gravity
        self.memo = memo
        self.dead: set[int | bytes] = set()
        self.nodes = 0
        self.count = Counter(int(v) for v in self.grid.ravel() if v > 0)
        self.width = self.grid.shape[1]
        self.key = 0
        for index in np.flatnonzero(self.grid.ravel() > 0).tolist():
            self.key |= 1 << index
        self.path = np.empty((4, 2), np.int64)

    # -- making and unmaking moves on the search grid
    def remove(self, r1: int, c1: int, r2: int, c2: int) -> object:
        grid = self.grid
        kind = int(grid[r1, c1])
        self.count[kind] -= 2
        if self.gravity:
            saved = [(c, grid[:, c].copy()) for c in {c1, c2}]
            grid[r1, c1] = grid[r2, c2] = 0
            for c, _ in saved:
                inner = grid[1:-1, c]
                tiles = inner[inner > 0]
                inner[:] = 0
                if len(tiles):
                    inner[len(inner) - len(tiles) :] = tiles
            return kind, saved
        grid[r1, c1] = grid[r2, c2] = 0
        self.key ^= (1 << (r1 * self.width + c1)) | (1 << (r2 * self.width + c2))
        return kind, None

    def restore(self, move: tuple[int, int, int, int], undo: object) -> None:
        kind, saved = undo  # type: ignore[misc]
        r1, c1, r2, c2 = move
        self.count[kind] += 2
        if saved is None:
            self.grid[r1, c1] = self.grid[r2, c2] = kind
            self.key ^= (1 << (r1 * self.width + c1)) | (1 << (r2 * self.width + c2))
        else:
            for c, column in saved:
                self.grid[:, c] = column

    def state(self) -> int | bytes:
        return self.grid.tobytes() if self.gravity else self.key

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

    # -- the safe-move rule
    def _still(self, move: tuple[int, int, int, int]) -> bool:
        """Would removing this pair leave every other tile in place (always so without gravity)?"""
        if not self.gravity:
            return True
        grid = self.grid
        r1, c1, r2, c2 = move
        for r, c, other in ((r1, c1, (r2, c2)), (r2, c2, (r1, c1))):
            if grid[r - 1, c] > 0 and (r - 1, c) != other:
                return False  # the tile above would fall
        for c in {c1, c2}:
            column = grid[1:-1, c] > 0
            for r, cc in ((r1, c1), (r2, c2)):
                if cc == c:
                    column[r - 1] = False
            k = int(column.sum())
            if k and not column[len(column) - k :].all():
                return False  # a floating tile would settle
        return True

    def safe_moves(self, moves: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
        """Moves that clear a whole kind right now (its last two, or all four tiles), and with
        gravity only when no other tile moves (then every other tile keeps its place forever)."""
        grid = self.grid
        by_kind: dict[int, list[tuple[int, int, int, int]]] = {}
        for move in moves:
            by_kind.setdefault(int(grid[move[0], move[1]]), []).append(move)
        for kind, pairs in by_kind.items():
            left = self.count[kind]
            if left not in (2, 4):
                continue
            for move in pairs:
                if not self._still(move):
                    continue
                if left == 2:
                    return [move]
                r1, c1, r2, c2 = move
                grid[r1, c1] = grid[r2, c2] = 0  # nothing moves: emptying the cells is the move
                (r3, c3), (r4, c4) = zip(*np.nonzero(grid == kind), strict=True)
                rest = (int(r3), int(c3), int(r4), int(c4))
                ok = connect(grid, *rest, self.path) > 0 and self._still(rest)
                grid[r1, c1] = grid[r2, c2] = kind
                if ok:
                    return [move, rest]
        return []

    def order(self, moves: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
        """Kinds with the fewest tiles left first; with gravity, moves that make nothing fall;
        then the pairs with the most tiles around them (their removal opens the most paths)."""
        grid = self.grid

        def score(move: tuple[int, int, int, int]) -> tuple[int, bool, int]:
            r1, c1, r2, c2 = move
            opened = 0
            for r, c in ((r1, c1), (r2, c2)):
                opened += int(grid[r - 1, c] > 0) + int(grid[r + 1, c] > 0)
                opened += int(grid[r, c - 1] > 0) + int(grid[r, c + 1] > 0)
            falls = self.gravity and not self._still(move)
            return self.count[int(grid[r1, c1])], falls, -opened

        return sorted(moves, key=score)

    def run(self, line: list[tuple[int, int, int, int]], check: bool = True) -> bool:
        """Depth-first search; on success `line` holds the moves played (padded coordinates).

        `check`: run the dead-end proof here (needed only at the root and after a move that
        left tiles of its kind: clearing a whole kind never makes the relaxation fail).
        """
        self.tick()
        if not self.count.total():
            return True
        state = self.state()
        if self.memo and state in self.dead:
            return False
        if self.prove and check and doomed(self.grid):
            self.dead.add(state)
            return False
        moves = [tuple(m) for m in find_pairs(self.grid, False).tolist()]
        if self.safe and moves:
            forced = self.safe_moves(moves)  # type: ignore[arg-type]
            if forced:
                undos = [self.remove(*m) for m in forced]
                line.extend(forced)
                if self.run(line, False):
                    return True
                del line[-len(forced) :]
                for m, undo in zip(reversed(forced), reversed(undos), strict=True):
                    self.restore(m, undo)
                if self.memo:
                    self.dead.add(state)
                return False
        for move in self.order(moves) if self.safe or self.memo else moves:  # type: ignore[arg-type]
            undo = self.remove(*move)
            line.append(move)
            if self.run(line, self.count[undo[0]] > 0):
                return True
            line.pop()
            self.restore(move, undo)
        if self.memo:
            self.dead.add(state)
        return False


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
    `safe=False, memo=False` is the plain depth-first search, kept as a baseline.
    """
    search = _Search(board, max_nodes, timeout, safe, memo)
    line: list[tuple[int, int, int, int]] = []
    try:
        found = search.run(line)
    except SearchLimitError as error:
        return LinkSolution(None, [], search.nodes, str(error))
    if not found:
        return LinkSolution(False, [], search.nodes)
    pairs = [((r1 - 1, c1 - 1), (r2 - 1, c2 - 1)) for r1, c1, r2, c2 in line]
    return LinkSolution(True, pairs, search.nodes)


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

"""The Lianliankan board: notation, paths, removable pairs, make and unmake a move, gravity.

Notation (DESIGN.md): rows top to bottom joined by '/' (or newlines), one character per cell,
'.' an empty cell, any other printable non-space character a tile kind; every kind an even
number of times. `AB/BA` is a 2 x 2 board. Cells are `(row, col)` from the top left; a path is
a list of `[row, col]` points (both ends and every corner) and may use the ring just outside the
board: rows -1 and H, columns -1 and W.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from tilegames.link.path import WALL, connect, find_pairs

EMPTY = "."

Cell = tuple[int, int]
Pair = tuple[Cell, Cell]


class LinkError(ValueError):
    """Base of every Lianliankan error."""


class InvalidBoardError(LinkError):
    """The text is not a board: ragged rows, a bad character, a kind with an odd count."""


ParseError = InvalidBoardError
"""The contract's name for a notation error (the same class)."""


class CellError(LinkError):
    """A cell outside the board, or an empty cell where a tile was expected."""


class KindMismatchError(LinkError):
    """Two tiles of different kinds were asked to connect."""


class IllegalMoveError(LinkError):
    """A pair that cannot be removed now (not connectable, different kinds, not tiles)."""


@dataclass(frozen=True)
class _Undo:
    """What `pop()` needs: the pair, its kind, and with gravity the columns as they were."""

    pair: Pair
    kind: int
    columns: tuple[tuple[int, np.ndarray], ...]


class Board:
    """A Lianliankan position plus its rules (gravity, outside ring) and its move stack."""

    def __init__(self, rows: Sequence[str], *, gravity: bool = False, ring: bool = True) -> None:
        """Build a board from rows of equal length (use `Board.parse` for notation); the rows are
        checked as `parse` checks them (InvalidBoardError)."""
        if isinstance(rows, str):
            raise InvalidBoardError("rows must be a list of strings; use Board.parse for notation")
        _check_rows(list(rows))
        self.height = len(rows)
        self.width = len(rows[0])
        self.gravity = bool(gravity)
        self.ring = bool(ring)
        self._stack: list[Pair] = []
        self._undo: list[_Undo] = []
        grid = np.zeros((self.height + 2, self.width + 2), np.int32)
        if not ring:
            grid[0, :] = grid[-1, :] = grid[:, 0] = grid[:, -1] = WALL
        for r, row in enumerate(rows):
            for c, char in enumerate(row):
                if char != EMPTY:
                    grid[r + 1, c + 1] = ord(char)
        self._grid = grid

    @classmethod
    def from_grid(cls, grid: np.ndarray, *, gravity: bool = False) -> Board:
        """A new board (empty move stack) from a padded grid as `grid()` gives it: 0 empty, -1 wall (a
        walled ring means `ring=False`), else a kind's code point. The public way for generators and
        solvers to build relabelled boards; checked like any board."""
        grid = np.asarray(grid)
        if grid.ndim != 2 or grid.shape[0] < 3 or grid.shape[1] < 3:
            raise InvalidBoardError(f"a padded grid has at least 3x3 cells, not {grid.shape}")
        ring = not bool(np.any(grid[0, :] == WALL))
        inner = grid[1:-1, 1:-1].tolist()
        rows = ["".join(chr(v) if v > 0 else EMPTY for v in row) for row in inner]
        return cls(rows, gravity=gravity, ring=ring)

    # ------------------------------------------------------------------ notation

    @classmethod
    def parse(cls, text: str, *, gravity: bool = False, ring: bool = True) -> Board:
        """Read the notation; raise InvalidBoardError naming the problem and where."""
        if not isinstance(text, str):
            raise InvalidBoardError(f"board notation must be text, not {type(text).__name__}")
        rows = [row.strip() for row in text.strip().replace("\n", "/").split("/")]
        return cls(rows, gravity=gravity, ring=ring)

    @property
    def move_stack(self) -> tuple[Pair, ...]:
        """The pairs removed so far, oldest first (read-only)."""
        return tuple(self._stack)

    def peek(self) -> Pair:
        """The last pair removed (IndexError if none)."""
        if not self._stack:
            raise IndexError("peek at a board with no moves")
        return self._stack[-1]

    def key(self) -> tuple[bool, bool, str]:
        """An immutable, hashable code of the position and its rules, for search tables."""
        return self.gravity, self.ring, str(self)

    def rows(self) -> list[str]:
        """The rows of the notation, top to bottom."""
        inner = self._grid[1:-1, 1:-1]
        return ["".join(chr(v) if v > 0 else EMPTY for v in row) for row in inner.tolist()]

    def __str__(self) -> str:
        return "/".join(self.rows())

    def __repr__(self) -> str:
        options = (", gravity=True" if self.gravity else "") + ("" if self.ring else ", ring=False")
        return f"Board.parse({str(self)!r}{options})"

    def __eq__(self, other: object) -> bool:
        """Two boards are equal when they hold the same tiles in the same cells (the position)."""
        if not isinstance(other, Board):
            return NotImplemented
        return self._grid.shape == other._grid.shape and bool(
            np.array_equal(self._grid[1:-1, 1:-1], other._grid[1:-1, 1:-1])
        )

    __hash__ = None  # type: ignore[assignment]  # mutable

    def copy(self, *, stack: bool = True) -> Board:
        """An independent copy with the same rules (and the move stack unless `stack=False`)."""
        board = Board.__new__(Board)
        board.height, board.width = self.height, self.width
        board.gravity, board.ring = self.gravity, self.ring
        board._stack = list(self._stack) if stack else []
        board._undo = list(self._undo) if stack else []
        board._grid = self._grid.copy()
        return board

    # ------------------------------------------------------------------ cells

    def _check(self, cell: Iterable[int]) -> Cell:
        try:
            r, c = (int(v) for v in cell)
        except (TypeError, ValueError):
            raise CellError(f"{cell!r} is not a cell (row, col)") from None
        if not (0 <= r < self.height and 0 <= c < self.width):
            raise CellError(
                f"cell ({r}, {c}) is outside the {self.width}x{self.height} board "
                f"(rows 0..{self.height - 1}, cols 0..{self.width - 1})"
            )
        return r, c

    def __getitem__(self, cell: Cell) -> str | None:
        """The kind at `(row, col)`, or None for an empty cell."""
        r, c = self._check(cell)
        value = int(self._grid[r + 1, c + 1])
        return chr(value) if value > 0 else None

    def cells(self) -> Iterator[tuple[Cell, str]]:
        """Every occupied cell with its kind, in reading order."""
        inner = self._grid[1:-1, 1:-1]
        for r, c in zip(*np.nonzero(inner > 0), strict=True):
            yield (int(r), int(c)), chr(int(inner[r, c]))

    @property
    def remaining(self) -> int:
        """How many tiles are left."""
        return int(np.count_nonzero(self._grid[1:-1, 1:-1] > 0))

    def grid(self) -> np.ndarray:
        """A copy of the padded int32 grid the kernels use (0 empty, -1 wall, else the code point)."""
        return self._grid.copy()

    # ------------------------------------------------------------------ paths and moves

    def path(self, a: Cell, b: Cell) -> list[list[int]] | None:
        """The fewest-turn (then shortest) path joining two tiles of one kind, or None.

        Raises CellError for a cell off the board or empty, KindMismatchError for two kinds.
        """
        (r1, c1), (r2, c2) = self._check(a), self._check(b)
        ka, kb = self[(r1, c1)], self[(r2, c2)]
        for cell, kind in (((r1, c1), ka), ((r2, c2), kb)):
            if kind is None:
                raise CellError(f"cell {cell} is empty")
        if (r1, c1) == (r2, c2):
            raise CellError(f"cell {(r1, c1)} cannot connect to itself")
        if ka != kb:
            raise KindMismatchError(
                f"cell {(r1, c1)} holds {ka!r} but cell {(r2, c2)} holds {kb!r}"
            )
        out = np.empty((4, 2), np.int64)
        count = connect(self._grid, r1 + 1, c1 + 1, r2 + 1, c2 + 1, out)
        if count == 0:
            return None
        return [[int(r) - 1, int(c) - 1] for r, c in out[:count]]

    def pairs(self) -> list[Pair]:
        """Every pair that can be removed now, in reading order of the first then second cell."""
        found = find_pairs(self._grid, False)
        return [((r1 - 1, c1 - 1), (r2 - 1, c2 - 1)) for r1, c1, r2, c2 in found.tolist()]

    def legal_moves(self) -> list[Pair]:
        """Every pair that can be removed now (the same as `pairs()`)."""
        return self.pairs()

    def first_pair(self) -> Pair | None:
        """The first removable pair in reading order (KShisen's plain hint), or None; cheap."""
        found = find_pairs(self._grid, True)
        if len(found) == 0:
            return None
        r1, c1, r2, c2 = found[0].tolist()
        return (r1 - 1, c1 - 1), (r2 - 1, c2 - 1)

    def is_solved(self) -> bool:
        """No tile left: the board is cleared."""
        return not bool(np.any(self._grid > 0))

    def is_stuck(self) -> bool:
        """Tiles left but no pair can be removed."""
        return not self.is_solved() and len(find_pairs(self._grid, True)) == 0

    def _pair(self, pair: Iterable[Iterable[int]]) -> Pair:
        try:
            a, b = pair
        except (TypeError, ValueError):
            raise IllegalMoveError(f"{pair!r} is not a pair of cells") from None
        try:
            a, b = self._check(a), self._check(b)
            if self.path(a, b) is None:
                raise IllegalMoveError(
                    f"tiles {a} and {b} ({self[a]!r}) cannot be joined with at most two turns"
                )
        except (CellError, KindMismatchError) as error:
            raise IllegalMoveError(str(error)) from None
        return a, b

    def push(self, pair: Iterable[Iterable[int]]) -> None:
        """Remove a connectable pair (then let tiles fall if gravity is on).

        Raises IllegalMoveError when the two cells are not a removable pair now.
        """
        self.push_unchecked(self._pair(pair))

    def push_unchecked(self, pair: Pair) -> None:
        """`push` without the legality test (for searches that generated the pair themselves)."""
        (r1, c1), (r2, c2) = pair
        pair = ((int(r1), int(c1)), (int(r2), int(c2)))
        grid = self._grid
        kind = int(grid[r1 + 1, c1 + 1])
        saved: tuple[tuple[int, np.ndarray], ...] = ()
        if self.gravity:
            saved = tuple((c, grid[:, c].copy()) for c in sorted({c1 + 1, c2 + 1}))
        grid[r1 + 1, c1 + 1] = grid[r2 + 1, c2 + 1] = 0
        for c, _ in saved:
            _fall(grid, c)
        self._undo.append(_Undo(pair, kind, saved))
        self._stack.append(pair)

    def pop(self) -> Pair:
        """Take back the last move (falls included) and return it; IndexError if there is none."""
        if not self._undo:
            raise IndexError("pop from a board with no moves")
        undo = self._undo.pop()
        self._stack.pop()
        grid = self._grid
        (r1, c1), (r2, c2) = undo.pair
        for col, before in undo.columns:
            grid[:, col] = before
        if not undo.columns:
            grid[r1 + 1, c1 + 1] = grid[r2 + 1, c2 + 1] = undo.kind
        return undo.pair


def _check_rows(rows: list[str]) -> None:
    """Refuse rows that are not a board, naming the problem and where (rows counted from 1 in
    messages, as the other games do; cells keep the API's (row, col))."""
    if not rows or rows == [""]:
        raise InvalidBoardError("empty board: expected rows joined by '/'")
    for r, row in enumerate(rows):
        if not isinstance(row, str):
            raise InvalidBoardError(f"row {r + 1} is {type(row).__name__}, not a string")
        if not row:
            raise InvalidBoardError(f"row {r + 1} is empty")
        for c, char in enumerate(row):
            if not char.isprintable() or char.isspace():
                raise InvalidBoardError(f"cell ({r}, {c}) holds {char!r}, not a tile kind")
        if len(row) != len(rows[0]):
            cells = "cell" if len(row) == 1 else "cells"
            raise InvalidBoardError(
                f"row {r + 1} has {len(row)} {cells}, expected {len(rows[0])} like row 1"
            )
    counts = Counter(char for row in rows for char in row if char != EMPTY)
    odd = sorted(kind for kind, count in counts.items() if count % 2)
    if odd:
        kind = odd[0]
        where = next((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == kind)
        raise InvalidBoardError(
            f"kind {kind!r} appears {_times(counts[kind])} (first at cell {where}); "
            "every kind needs an even count"
        )


def _fall(grid: np.ndarray, col: int) -> None:
    """Let the tiles of one column fall to the bottom, keeping their order (KShisen's gravity)."""
    inner = grid[1:-1, col]
    tiles = inner[inner > 0]
    inner[:] = 0
    if len(tiles):
        inner[len(inner) - len(tiles) :] = tiles


def _times(count: int) -> str:
    return "once" if count == 1 else f"{count} times"

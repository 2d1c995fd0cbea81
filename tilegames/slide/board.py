"""The sliding number puzzle board: notation, legal moves, make/unmake, solved and solvable.

A board is W×H cells in row-major order holding the tiles 1..W·H−1 and the blank 0. A move is named by
the direction the *tile* travels (`R`: the tile left of the blank slides right into it).
"""

from __future__ import annotations

import operator
import re
from collections.abc import Iterator, Sequence

MOVES = "UDLR"
"""The moves, each the direction the *tile* travels."""
FROM_BLANK: dict[str, tuple[int, int]] = {"U": (1, 0), "D": (-1, 0), "L": (0, 1), "R": (0, -1)}
"""Where the moving tile stands, seen from the blank as (rows, columns): `U` moves the tile below it up.
The one direction table of the game (the JavaScript page keeps its own copy)."""
OPPOSITE: dict[str, str] = {"U": "D", "D": "U", "L": "R", "R": "L"}
"""The move that undoes each move."""
DIRECTION_NAMES: dict[str, str] = {"U": "up", "D": "down", "L": "left", "R": "right"}
MAX_CELLS = 4_000_000
_ROW_SPLIT = re.compile(r"\s*[/\n]\s*")


class SlideError(ValueError):
    """Base of every sliding-puzzle error."""


class InvalidBoardError(SlideError):
    """The text or the tiles do not describe a board (ragged rows, a missing or duplicate tile, ...)."""


ParseError = InvalidBoardError
"""The contract's name for a notation error (the same class)."""


class InvalidMoveError(SlideError):
    """The text is not a move: a move is one of the letters U, D, L, R."""


class IllegalMoveError(SlideError):
    """A move, but not legal here: no tile can slide that way into the blank."""


def _check_size(width: int, height: int) -> None:
    if width < 2 or height < 2:
        raise InvalidBoardError(f"board is {width}x{height}: width and height must be at least 2")
    if width * height > MAX_CELLS:
        raise InvalidBoardError(
            f"board {width}x{height} has {width * height} cells, more than the limit {MAX_CELLS}"
        )


def blank_offset(move: str, width: int) -> int:
    """How the blank's index changes when a tile moves in direction `move`."""
    dr, dc = FROM_BLANK[move]
    return dr * width + dc


def permutation_parity(perm: Sequence[int]) -> int:
    """Parity (0 even, 1 odd) of a permutation of 0..n−1, by counting cycles: O(n), not O(n²)."""
    n = len(perm)
    seen = bytearray(n)
    cycles = 0
    for start in range(n):
        if seen[start]:
            continue
        cycles += 1
        i = start
        while not seen[i]:
            seen[i] = 1
            i = perm[i]
    return (n - cycles) & 1


class Board:
    """A W×H sliding puzzle position with a move stack (`push`/`pop`), like python-chess's Board."""

    __slots__ = ("_blank", "_stack", "_tiles", "height", "width")

    def __init__(self, width: int, height: int, tiles: Sequence[int]) -> None:
        _check_size(width, height)
        n = width * height
        if len(tiles) != n:
            raise InvalidBoardError(f"a {width}x{height} board has {n} tiles, got {len(tiles)}")
        try:
            tiles = [operator.index(t) for t in tiles]
        except TypeError:
            raise InvalidBoardError("tiles must be integers") from None
        seen = bytearray(n)
        for index, tile in enumerate(tiles):
            if not 0 <= tile < n:
                raise InvalidBoardError(
                    f"tile {tile!r} at row {index // width + 1}, column {index % width + 1} "
                    f"is out of range 0..{n - 1}"
                )
            if seen[tile]:
                raise InvalidBoardError(
                    f"tile {tile} appears twice (again at row {index // width + 1}, "
                    f"column {index % width + 1})"
                )
            seen[tile] = 1
        self.width = width
        self.height = height
        self._tiles = list(tiles)
        self._blank = self._tiles.index(0)
        self._stack: list[str] = []

    # -- notation -----------------------------------------------------------------------------
    @classmethod
    def parse(cls, text: str) -> Board:
        """Parse `1 2 3/4 5 6/7 8 0` ('/' or newlines between rows); InvalidBoardError on bad text."""
        if not isinstance(text, str) or not text.strip():
            raise InvalidBoardError("empty board text")
        rows = _ROW_SPLIT.split(text.strip())
        width = len(rows[0].split())
        tiles: list[int] = []
        for number, row in enumerate(rows, 1):
            cells = row.split()
            if len(cells) != width:
                raise InvalidBoardError(f"row {number} has {len(cells)} tiles, expected {width}")
            if not all(c.isascii() and c.isdigit() for c in cells):
                bad = next(c for c in cells if not (c.isascii() and c.isdigit()))
                raise InvalidBoardError(
                    f"{bad!r} at row {number}, column {cells.index(bad) + 1} is not a tile number"
                )
            tiles.extend(map(int, cells))
        return cls(width, len(rows), tiles)

    @classmethod
    def solved(cls, width: int, height: int) -> Board:
        """The standard goal: 1..N−1 in reading order, blank last."""
        _check_size(width, height)
        n = width * height
        return cls(width, height, [*range(1, n), 0])

    def __str__(self) -> str:
        w, t = self.width, self._tiles
        return "/".join(" ".join(map(str, t[r * w : (r + 1) * w])) for r in range(self.height))

    def __repr__(self) -> str:
        return f"Board.parse({str(self)!r})"

    def pretty(self) -> str:
        """Rows on separate lines, numbers right-aligned, the blank shown as '.'."""
        cell = len(str(len(self._tiles) - 1))
        w = self.width
        return "\n".join(
            " ".join((str(t) if t else ".").rjust(cell) for t in self._tiles[r * w : (r + 1) * w])
            for r in range(self.height)
        )

    # -- state --------------------------------------------------------------------------------
    @property
    def tiles(self) -> tuple[int, ...]:
        """The tiles in row-major order, 0 the blank."""
        return tuple(self._tiles)

    @property
    def blank(self) -> int:
        """Row-major index of the blank cell."""
        return self._blank

    @property
    def size(self) -> str:
        return f"{self.width}x{self.height}"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (self.width, self.height, self._tiles) == (other.width, other.height, other._tiles)

    __hash__ = None  # type: ignore[assignment]  # mutable, like python-chess's Board; use key()

    def key(self) -> tuple[int, int, tuple[int, ...]]:
        """An immutable, hashable code of the position (width, height, tiles) for search tables."""
        return self.width, self.height, tuple(self._tiles)

    def copy(self, *, stack: bool = True) -> Board:
        """An independent copy (with the move stack unless `stack=False`)."""
        board = Board.__new__(Board)
        board.width, board.height = self.width, self.height
        board._tiles = list(self._tiles)
        board._blank = self._blank
        board._stack = list(self._stack) if stack else []
        return board

    @property
    def move_stack(self) -> tuple[str, ...]:
        """The moves pushed so far, oldest first (read-only)."""
        return tuple(self._stack)

    def peek(self) -> str:
        """The last move pushed (IndexError if none)."""
        if not self._stack:
            raise IndexError("peek at a board with no moves")
        return self._stack[-1]

    # -- moves --------------------------------------------------------------------------------
    def _is_legal(self, move: str) -> bool:
        row, col = divmod(self._blank, self.width)
        if move == "U":
            return row < self.height - 1
        if move == "D":
            return row > 0
        if move == "L":
            return col < self.width - 1
        return col > 0

    def moves(self) -> Iterator[str]:
        """The legal moves in the order U, D, L, R (the letter is the direction the tile travels)."""
        return (m for m in MOVES if self._is_legal(m))

    def legal_moves(self) -> list[str]:
        """The legal moves as a list, in the order U, D, L, R."""
        return [m for m in MOVES if self._is_legal(m)]

    def push(self, move: str) -> None:
        """Slide one tile; InvalidMoveError for a non-move, IllegalMoveError if no tile can go that way."""
        if not isinstance(move, str) or len(move) != 1 or move not in MOVES:
            raise InvalidMoveError(f"{move!r} is not a move: use one of U, D, L, R")
        if not self._is_legal(move):
            row, col = divmod(self._blank, self.width)
            raise IllegalMoveError(
                f"move {move}: no tile can slide {DIRECTION_NAMES[move]}"
                f" into the blank at row {row + 1}, column {col + 1}"
            )
        self._slide(move)
        self._stack.append(move)

    def _slide(self, move: str) -> None:
        src = self._blank + blank_offset(move, self.width)
        t = self._tiles
        t[self._blank], t[src] = t[src], 0
        self._blank = src

    def pop(self) -> str:
        """Undo the last move and return it (IndexError if nothing to undo)."""
        if not self._stack:
            raise IndexError("pop from a board with no moves")
        move = self._stack.pop()
        self._slide(OPPOSITE[move])
        return move

    def play(self, moves: str | Sequence[str]) -> None:
        """Push every move of `RDLU` or `['R', 'D']`; on an illegal move the board is left unchanged."""
        done = 0
        try:
            for move in moves:
                self.push(move)
                done += 1
        except ValueError as error:
            for _ in range(done):
                self.pop()
            raise type(error)(f"move {done + 1} of {len(moves)}: {error}") from None

    # -- goals --------------------------------------------------------------------------------
    def is_solved(self, goal: Board | None = None) -> bool:
        """True when the tiles stand as in `goal` (default: the standard goal, blank last)."""
        if goal is None:
            t = self._tiles
            n = len(t)
            return t[-1] == 0 and all(t[i] == i + 1 for i in range(n - 1))
        return self._tiles == goal_for(self, goal)._tiles

    def is_solvable(self, goal: Board | None = None) -> bool:
        """Whether sliding can reach `goal`.

        Every move swaps the blank with a neighbour: one transposition, and the blank's taxicab distance
        to its goal cell changes by one. So the permutation parity and that distance's parity flip
        together, and a board is solvable exactly when they agree (for W, H >= 2 the condition is also
        sufficient). This is the tutorial rule (inversions, plus the blank's row for even widths)
        generalised to any goal; the parity comes from counting cycles, O(N).
        """
        target = goal_for(self, goal)
        where = [0] * len(self._tiles)
        for index, tile in enumerate(target._tiles):
            where[tile] = index
        perm = [where[tile] for tile in self._tiles]
        w = self.width
        br, bc = divmod(self._blank, w)
        gr, gc = divmod(target._blank, w)
        return permutation_parity(perm) == (abs(br - gr) + abs(bc - gc)) & 1

    def manhattan(self, goal: Board | None = None) -> int:
        """Sum over tiles (not the blank) of the taxicab distance to the tile's goal cell."""
        target = goal_for(self, goal)
        w = self.width
        where = [0] * len(self._tiles)
        for index, tile in enumerate(target._tiles):
            where[tile] = index
        total = 0
        for index, tile in enumerate(self._tiles):
            if tile:
                r, c = divmod(index, w)
                gr, gc = divmod(where[tile], w)
                total += abs(r - gr) + abs(c - gc)
        return total


def goal_for(board: Board, goal: Board | None) -> Board:
    """`goal`, checked to be a board of the same size; the standard goal when None."""
    if goal is None:
        return Board.solved(board.width, board.height)
    if not isinstance(goal, Board):
        raise InvalidBoardError(f"goal must be a Board, not {type(goal).__name__}")
    if (goal.width, goal.height) != (board.width, board.height):
        raise InvalidBoardError(f"goal is {goal.size} but the board is {board.size}")
    return goal

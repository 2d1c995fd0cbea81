"""The Klotski board: parse and format layouts, list and make moves, tell solved, hash.

A layout is written one character per cell, rows top to bottom joined by '/', '.' for an empty cell; the cells of
one piece share a character (its *letter*). Pieces are 1×1, 1×2 (one row, two columns), 2×1 (two rows, one column)
or 2×2 rectangles, and there is exactly one 2×2 piece, which wins when it stands in the bottom two rows, centred
(on a board of odd width either of the two middle columns counts).

Pieces of one shape are interchangeable: two boards are equal when the same shapes stand on the same cells,
whatever their letters. Moves keep the letters, so a move list reads in the layout as given.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from tilegames.klotski import zobrist

EMPTY = "."
SHAPES: dict[int, tuple[int, int]] = {1: (1, 1), 2: (1, 2), 3: (2, 1), 4: (2, 2)}
"""Occupant type → (rows, columns) of the piece: 1 = 1×1, 2 = 1×2, 3 = 2×1, 4 = 2×2."""
SHAPE_OF: dict[tuple[int, int], int] = {dims: kind for kind, dims in SHAPES.items()}
GOAL_TYPE = 4
DIRECTIONS: dict[str, tuple[int, int]] = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
DIRECTION_NAMES = {"U": "up", "D": "down", "L": "left", "R": "right"}
METRICS = ("moves", "steps")
MAX_SIDE = zobrist.MAX_SIDE
RESERVED = ":/"
"""Characters that cannot be piece letters: ':' separates a move's piece from its steps (``G:RD``), '/' rows.
U, D, L and R may be letters: a move is read by position (letter, ':', steps), so ``U:UD`` is unambiguous."""


class KlotskiError(ValueError):
    """Base of every Klotski error."""


class LayoutError(KlotskiError):
    """The text is not a valid Klotski layout (the message says what is wrong and where)."""


ParseError = LayoutError
"""The contract's name for a notation error (the same class)."""


class InvalidMoveError(KlotskiError):
    """The text is not a move of the form ``X:STEPS`` (for example ``G:RD``)."""


class IllegalMoveError(KlotskiError):
    """A well-formed move that cannot be made on this board."""


@dataclass(frozen=True)
class Piece:
    """One piece on the board."""

    letter: str
    """Its character in the layout."""
    row: int
    """Row of its top-left cell (0 = top)."""
    column: int
    """Column of its top-left cell (0 = left)."""
    height: int
    """Rows it spans (1 or 2)."""
    width: int
    """Columns it spans (1 or 2)."""


def check_metric(metric: str) -> str:
    """Return `metric` if it is ``"moves"`` or ``"steps"``, else raise ValueError."""
    if metric not in METRICS:
        raise ValueError(f"unknown metric {metric!r}: use 'moves' or 'steps'")
    return metric


def move_count(moves: Sequence[str], metric: str = "moves") -> int:
    """The length of a move list in `metric`: the engine's one count, so the web and the CLI never recount.

    ``"moves"`` is the classic count: a piece moved again right after itself continues its move (``G:R``
    then ``G:D`` is one move, as ``G:RD`` is). ``"steps"`` counts every unit step.
    """
    check_metric(metric)
    if metric == "steps":
        return sum(len(move) - 2 for move in moves)
    count, last = 0, None
    for move in moves:
        if move[:1] != last:
            count += 1
        last = move[:1]
    return count


def exit_columns(width: int) -> tuple[int, ...]:
    """Columns where the 2×2 piece's left half stands when it has escaped (one, or two on odd widths)."""
    return (width // 2 - 1,) if width % 2 == 0 else (width // 2 - 1, width // 2)


class Board:
    """A Klotski position with its move stack.

    >>> board = Board.parse("ABBC/ABBC/DEEF/DGHF/I..J")
    >>> board.push("I:R"); board.pop()
    'I:R'
    """

    def __init__(self, width: int, height: int, cells: list[str]) -> None:
        """Build from row-major cells (letters or '.'); use :meth:`parse` for text. Raises LayoutError."""
        for name, value in (("width", width), ("height", height)):
            if isinstance(value, bool) or not isinstance(value, int) or not 2 <= value <= MAX_SIDE:
                raise LayoutError(f"board {name} {value!r} is out of range 2..{MAX_SIDE}")
        self._width = width
        self._height = height
        self._cells = list(cells)
        self._pieces: dict[str, list[int]] = _read_pieces(width, height, self._cells)
        self._stack: list[tuple[str, int, int, str]] = []
        self._hash, self._mirror_hash = zobrist.hashes(self.types(), width)

    # --- notation -------------------------------------------------------------------------------------------
    @classmethod
    def parse(cls, text: str) -> Board:
        """Read layout notation: rows joined by '/' or newlines, '.' empty. Raises LayoutError."""
        rows = [row.strip() for row in re.split(r"[/\n]", text.strip())]
        if not text.strip():
            raise LayoutError("empty layout")
        for number, row in enumerate(rows, 1):
            if not row:
                raise LayoutError(f"row {number} is empty")
            for column, char in enumerate(row, 1):
                if char.isspace() or not char.isprintable():
                    raise LayoutError(
                        f"row {number}, column {column}: {char!r} is not a piece letter or '.'"
                    )
        width = len(rows[0])
        for number, row in enumerate(rows, 1):
            if len(row) != width:
                raise LayoutError(
                    f"row {number} has {len(row)} cells, expected {width} (as in row 1)"
                )
        return cls(width, len(rows), [char for row in rows for char in row])

    def __str__(self) -> str:
        w = self._width
        return "/".join("".join(self._cells[r * w : (r + 1) * w]) for r in range(self._height))

    def __repr__(self) -> str:
        return f"Board.parse({str(self)!r})"

    def _repr_svg_(self) -> str:
        from tilegames.klotski.render import svg

        return svg(self)

    # --- what is on the board -------------------------------------------------------------------------------
    @property
    def width(self) -> int:
        """Columns of the board (4 for the classic one)."""
        return self._width

    @property
    def height(self) -> int:
        """Rows of the board (5 for the classic one)."""
        return self._height

    @property
    def pieces(self) -> tuple[Piece, ...]:
        """The pieces in the order their letters first appear in the layout."""
        return tuple(
            Piece(letter, row, column, *SHAPES[kind])
            for letter, (row, column, kind) in self._pieces.items()
        )

    @property
    def goal_piece(self) -> str:
        """The letter of the 2×2 piece."""
        return next(letter for letter, (_, _, kind) in self._pieces.items() if kind == GOAL_TYPE)

    def types(self) -> tuple[int, ...]:
        """Occupant type of every cell, row-major: 0 empty, 1 = 1×1, 2 = 1×2, 3 = 2×1, 4 = 2×2."""
        kinds = {letter: piece[2] for letter, piece in self._pieces.items()}
        return tuple(kinds.get(char, 0) for char in self._cells)

    def key(self) -> int:
        """The exact code of the position: 3 bits per cell (its occupant type), first cell most significant.

        Two boards have the same key exactly when they are equal (same shapes on the same cells); the
        occupant-type grid determines the pieces because runs of 1×2 (2×1) cells pair up from the left (top).
        """
        return grid_key(self.types())

    def mirror_key(self) -> int:
        """The key of the left–right mirror image."""
        return grid_key(mirror_grid(self.types(), self._width))

    def canonical_key(self) -> int:
        """``min(key, mirror key)``: one code for a position and its mirror image."""
        return min(self.key(), self.mirror_key())

    def zobrist_hash(self) -> int:
        """The 64-bit Zobrist hash (kept up to date incrementally by push and pop)."""
        return self._hash

    def mirror_hash(self) -> int:
        """The Zobrist hash of the mirror image: ``b.mirror().zobrist_hash() == b.mirror_hash()``."""
        return self._mirror_hash

    def is_solved(self) -> bool:
        """Whether the 2×2 piece stands in the bottom two rows, centred."""
        row, column, _ = self._pieces[self.goal_piece]
        return row == self._height - 2 and column in exit_columns(self._width)

    # --- moves ----------------------------------------------------------------------------------------------
    def moves(self, metric: str = "moves") -> Iterator[str]:
        """Legal moves as ``"X:STEPS"`` strings.

        Metric ``"steps"``: one unit step each. Metric ``"moves"``: one per cell a piece can reach in any number
        of unit steps (turns allowed), each with a shortest step path.
        """
        check_metric(metric)
        for letter, (row, column, kind) in self._pieces.items():
            if metric == "steps":
                for name, (dr, dc) in DIRECTIONS.items():
                    if self._fits(letter, kind, row + dr, column + dc):
                        yield f"{letter}:{name}"
                continue
            seen = {(row, column): ""}
            queue = deque([(row, column)])
            while queue:
                r, c = queue.popleft()
                for name, (dr, dc) in DIRECTIONS.items():
                    target = (r + dr, c + dc)
                    if target not in seen and self._fits(letter, kind, *target):
                        seen[target] = seen[(r, c)] + name
                        queue.append(target)
                        yield f"{letter}:{seen[target]}"

    def legal_moves(self, metric: str = "moves") -> list[str]:
        """The legal moves as a list (see :meth:`moves`)."""
        return list(self.moves(metric))

    def _fits(self, letter: str, kind: int, row: int, column: int) -> bool:
        rows, columns = SHAPES[kind]
        if row < 0 or column < 0 or row + rows > self._height or column + columns > self._width:
            return False
        for r in range(row, row + rows):
            for c in range(column, column + columns):
                if self._cells[r * self._width + c] not in (EMPTY, letter):
                    return False
        return True

    def is_legal(self, move: str) -> bool:
        """Whether `move` can be pushed (False for malformed text too)."""
        try:
            self._target(move)
        except ValueError:
            return False
        return True

    def _target(self, move: str) -> tuple[str, int, int]:
        if not isinstance(move, str):
            raise InvalidMoveError(f"{move!r} is not a move: expected a string such as 'G:RD'")
        letter, steps = move[:1], move[2:]  # by position: U, D, L, R may be piece letters
        if move[1:2] != ":" or not steps or set(steps) - set(DIRECTIONS):
            raise InvalidMoveError(
                f"{move!r} is not a move: expected a letter, ':' and steps over U D L R (G:RD)"
            )
        if letter not in self._pieces:
            raise IllegalMoveError(f"move {move}: there is no piece {letter} on the board")
        row, column, kind = self._pieces[letter]
        rows, columns = SHAPES[kind]
        r, c = row, column
        for step in steps:
            dr, dc = DIRECTIONS[step]
            r, c = r + dr, c + dc
            if r < 0 or c < 0 or r + rows > self._height or c + columns > self._width:
                raise IllegalMoveError(
                    f"move {move}: piece {letter} cannot move {DIRECTION_NAMES[step]}: off the board"
                )
            for rr in range(r, r + rows):
                for cc in range(c, c + columns):
                    other = self._cells[rr * self._width + cc]
                    if other not in (EMPTY, letter):
                        raise IllegalMoveError(
                            f"move {move}: piece {letter} cannot move {DIRECTION_NAMES[step]}: "
                            f"row {rr + 1}, column {cc + 1} is taken by {other}"
                        )
        if (r, c) == (row, column):
            raise IllegalMoveError(f"move {move}: piece {letter} ends where it started")
        return letter, r, c

    def push(self, move: str) -> None:
        """Make a move ``"X:STEPS"``; raises InvalidMoveError or IllegalMoveError (the board is then unchanged)."""
        letter, row, column = self._target(move)
        old_row, old_column, _ = self._pieces[letter]
        self._place(letter, row, column)
        self._stack.append((letter, old_row, old_column, move))

    def pop(self) -> str:
        """Undo the last move and return it; IndexError if there is none."""
        if not self._stack:
            raise IndexError("pop from a board with no moves")
        letter, row, column, move = self._stack.pop()
        self._place(letter, row, column)
        return move

    @property
    def move_stack(self) -> tuple[str, ...]:
        """The moves pushed so far, oldest first (read-only)."""
        return tuple(move for *_, move in self._stack)

    def peek(self) -> str:
        """The last move pushed (IndexError if none)."""
        if not self._stack:
            raise IndexError("peek at a board with no moves")
        return self._stack[-1][3]

    def count(self, metric: str = "moves") -> int:
        """How long the move stack is in `metric` (:func:`move_count`): 81 moves or 116 steps for 横刀立马."""
        return move_count(self.move_stack, metric)

    def _place(self, letter: str, row: int, column: int) -> None:
        """Move a piece to (row, column), updating cells and both hashes."""
        old_row, old_column, kind = self._pieces[letter]
        rows, columns = SHAPES[kind]
        w = self._width
        for r, c, char in ((old_row, old_column, EMPTY), (row, column, letter)):
            for rr in range(r, r + rows):
                for cc in range(c, c + columns):
                    self._cells[rr * w + cc] = char
                    self._hash ^= zobrist.key(rr, cc, kind)
                    self._mirror_hash ^= zobrist.key(rr, w - 1 - cc, kind)
        self._pieces[letter] = [row, column, kind]

    # --- copies and comparison ------------------------------------------------------------------------------
    def copy(self, *, stack: bool = True) -> Board:
        """An independent copy (with the move stack unless ``stack=False``)."""
        board = Board(self._width, self._height, self._cells)
        if stack:
            board._stack = list(self._stack)
        return board

    def mirror(self) -> Board:
        """The left–right mirror image (letters kept, no move stack)."""
        w = self._width
        cells = [self._cells[r * w + w - 1 - c] for r in range(self._height) for c in range(w)]
        return Board(w, self._height, cells)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (self._width, self._height, self.types()) == (
            other._width,
            other._height,
            other.types(),
        )

    __hash__ = None  # type: ignore[assignment]  # mutable, like python-chess's Board; use key() or zobrist_hash()


def grid_key(types: tuple[int, ...]) -> int:
    """The exact code of a grid of occupant types: 3 bits per cell, first cell most significant."""
    code = 0
    for kind in types:
        code = code << 3 | kind
    return code


def mirror_grid(types: tuple[int, ...], width: int) -> tuple[int, ...]:
    """The occupant types of the left–right mirror image."""
    return tuple(
        types[r + width - 1 - c] for r in range(0, len(types), width) for c in range(width)
    )


def _read_pieces(width: int, height: int, cells: list[str]) -> dict[str, list[int]]:
    """Check that the letters form allowed rectangles with exactly one 2×2; return letter → [row, col, type]."""
    if len(cells) != width * height:
        raise LayoutError(f"{len(cells)} cells for a {width}×{height} board")
    where: dict[str, list[tuple[int, int]]] = {}
    for index, char in enumerate(cells):
        if not isinstance(char, str) or len(char) != 1 or char.isspace() or not char.isprintable():
            row, column = divmod(index, width)
            raise LayoutError(
                f"row {row + 1}, column {column + 1}: {char!r} is not a piece letter or '.'"
            )
        if char in RESERVED:
            row, column = divmod(index, width)
            raise LayoutError(
                f"row {row + 1}, column {column + 1}: {char!r} cannot be a piece letter "
                "(':' separates a move's piece from its steps, '/' the rows)"
            )
        if char != EMPTY:
            where.setdefault(char, []).append(divmod(index, width))
    pieces: dict[str, list[int]] = {}
    for letter, spots in where.items():
        _check_connected(letter, spots)
        top, left = min(r for r, _ in spots), min(c for _, c in spots)
        rows = max(r for r, _ in spots) - top + 1
        columns = max(c for _, c in spots) - left + 1
        if rows * columns != len(spots):
            raise LayoutError(f"piece {letter} is not a rectangle (cells {_cell_list(spots)})")
        if (rows, columns) not in SHAPE_OF:
            raise LayoutError(
                f"piece {letter} at row {top + 1}, column {left + 1} is {rows}×{columns}; "
                "pieces are 1×1, 1×2, 2×1 or 2×2 (rows×columns)"
            )
        pieces[letter] = [top, left, SHAPE_OF[(rows, columns)]]
    goals = [letter for letter, (_, _, kind) in pieces.items() if kind == GOAL_TYPE]
    if not goals:
        raise LayoutError(
            "no 2×2 piece: a layout needs exactly one (the piece that must reach the exit)"
        )
    if len(goals) > 1:
        raise LayoutError(
            f"{len(goals)} 2×2 pieces ({', '.join(goals)}): a layout needs exactly one"
        )
    return pieces


def _check_connected(letter: str, spots: list[tuple[int, int]]) -> None:
    todo, seen = [spots[0]], {spots[0]}
    spot_set = set(spots)
    while todo:
        r, c = todo.pop()
        for dr, dc in DIRECTIONS.values():
            nxt = (r + dr, c + dc)
            if nxt in spot_set and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    if len(seen) != len(spots):
        apart = next(spot for spot in spots if spot not in seen)
        raise LayoutError(
            f"letter {letter} is used in two separate places (row {spots[0][0] + 1}, column {spots[0][1] + 1} "
            f"and row {apart[0] + 1}, column {apart[1] + 1}): each piece needs its own letter"
        )


def _cell_list(spots: list[tuple[int, int]]) -> str:
    return ", ".join(f"({r + 1}, {c + 1})" for r, c in spots)

"""Klotski (华容道, Huarong Dao): layouts, Zobrist hashing, optimal solvers and whole state-space analysis."""

from tilegames.klotski.board import (
    Board,
    IllegalMoveError,
    InvalidMoveError,
    LayoutError,
    Piece,
)
from tilegames.klotski.layouts import (
    LAYOUTS,
    NAMED_LAYOUTS,
    NamedLayout,
    UnknownLayoutError,
    layout,
)
from tilegames.klotski.solve import SearchLimitError, Solution, hint, solve

__all__ = [
    "LAYOUTS",
    "NAMED_LAYOUTS",
    "Board",
    "IllegalMoveError",
    "InvalidMoveError",
    "LayoutError",
    "NamedLayout",
    "Piece",
    "SearchLimitError",
    "Solution",
    "UnknownLayoutError",
    "hint",
    "layout",
    "solve",
]

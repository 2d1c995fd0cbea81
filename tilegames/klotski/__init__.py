"""Klotski (华容道, Huarong Dao): layouts, Zobrist hashing, optimal solvers and whole state-space analysis."""

from tilegames.common import Limits, SearchLimitError
from tilegames.klotski.board import (
    Board,
    IllegalMoveError,
    InvalidMoveError,
    KlotskiError,
    LayoutError,
    ParseError,
    Piece,
    move_count,
)
from tilegames.klotski.layouts import (
    LAYOUTS,
    NAMED_LAYOUTS,
    NamedLayout,
    UnknownLayoutError,
    layout,
)
from tilegames.klotski.solve import Solution, hint, solve

__all__ = [
    "LAYOUTS",
    "NAMED_LAYOUTS",
    "Board",
    "IllegalMoveError",
    "InvalidMoveError",
    "KlotskiError",
    "LayoutError",
    "Limits",
    "NamedLayout",
    "ParseError",
    "Piece",
    "SearchLimitError",
    "Solution",
    "UnknownLayoutError",
    "hint",
    "layout",
    "move_count",
    "solve",
]

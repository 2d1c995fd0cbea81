"""The sliding number puzzle (数字华容道, 8/15/24-puzzle) on any W×H board.

>>> from tilegames.slide import Board, solve
>>> board = Board.parse("5 1 3/4 0 2/7 8 6")
>>> solve(board).length
12
"""

from tilegames.common import Limits, SearchLimitError
from tilegames.slide.board import (
    MOVES,
    Board,
    IllegalMoveError,
    InvalidBoardError,
    InvalidMoveError,
    ParseError,
    SlideError,
    permutation_parity,
)
from tilegames.slide.generate import random_board, scramble
from tilegames.slide.solve import Solution, hint, solve

__all__ = [
    "MOVES",
    "Board",
    "IllegalMoveError",
    "InvalidBoardError",
    "InvalidMoveError",
    "Limits",
    "ParseError",
    "SearchLimitError",
    "SlideError",
    "Solution",
    "hint",
    "permutation_parity",
    "random_board",
    "scramble",
    "solve",
]

"""Lianliankan (连连看, Onet, Shisen-Sho): paths, hints, fair reshuffles, solvable deals, a solver."""

from tilegames.common import Limits, SearchLimitError
from tilegames.link.board import (
    Board,
    CellError,
    IllegalMoveError,
    InvalidBoardError,
    KindMismatchError,
    LinkError,
    ParseError,
)
from tilegames.link.generate import (
    KINDS,
    Deal,
    DealError,
    deal,
    deal_with_solution,
    make_clearable,
    reshuffle,
)
from tilegames.link.hint import hint
from tilegames.link.score import ScoreError, score
from tilegames.link.solve import Solution, solve

__all__ = [
    "KINDS",
    "Board",
    "CellError",
    "Deal",
    "DealError",
    "IllegalMoveError",
    "InvalidBoardError",
    "KindMismatchError",
    "Limits",
    "LinkError",
    "ParseError",
    "ScoreError",
    "SearchLimitError",
    "Solution",
    "deal",
    "deal_with_solution",
    "hint",
    "make_clearable",
    "reshuffle",
    "score",
    "solve",
]

"""Lianliankan (连连看, Onet, Shisen-Sho): paths, hints, fair reshuffles, solvable deals, a solver."""

from tilegames.link.board import (
    Board,
    CellError,
    IllegalMoveError,
    InvalidBoardError,
    KindMismatchError,
    LinkError,
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
from tilegames.link.score import ScoreError, score
from tilegames.link.solve import LinkSolution, solve

__all__ = [
    "KINDS",
    "Board",
    "CellError",
    "Deal",
    "DealError",
    "IllegalMoveError",
    "InvalidBoardError",
    "KindMismatchError",
    "LinkError",
    "LinkSolution",
    "ScoreError",
    "deal",
    "deal_with_solution",
    "make_clearable",
    "reshuffle",
    "score",
    "solve",
]

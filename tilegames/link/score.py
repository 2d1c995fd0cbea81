"""The score of a cleared (or abandoned) game: rewards speed and board size.

KShisen documents S = (n / t) * sqrt(n / 84) / 0.0014, doubled with gravity: n tiles in t seconds,
84 the cells of its smallest board (14 x 6). We apply it in floating point, round to the nearest
integer (not truncate), and split the two roles of n: speed is the tiles *removed* per second,
the size bonus uses the board's cells. For a cleared board both are the same n and the value is
KShisen's; an abandoned game earns for the tiles it did remove, no more.
"""

from __future__ import annotations

import math

from tilegames.link.board import LinkError

#: Cells of KShisen's smallest board (14 x 6): the size bonus is 1 there.
BASE_CELLS = 84
#: Scale: removing one tile per second on the smallest board scores about 714.
SCALE = 0.0014


class ScoreError(LinkError):
    """Arguments that cannot be scored (negative time, more tiles than cells)."""


def score(tiles_removed: int, seconds: float, *, gravity: bool, board_cells: int) -> int:
    """S = round((n / t) * sqrt(N / 84) / 0.0014), doubled with gravity.

    n = tiles removed, t = seconds played (at least one second counts), N = the board's cells.
    """
    if board_cells <= 0:
        raise ScoreError(f"board_cells must be positive, not {board_cells}")
    if not 0 <= tiles_removed <= board_cells:
        raise ScoreError(f"tiles_removed {tiles_removed} is not in 0..{board_cells}")
    if not seconds >= 0 or math.isinf(seconds):
        raise ScoreError(f"seconds must be a finite number >= 0, not {seconds}")
    t = max(float(seconds), 1.0)
    points = (tiles_removed / t) * math.sqrt(board_cells / BASE_CELLS) / SCALE
    return round(points * (2 if gravity else 1))

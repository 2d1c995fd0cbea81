"""What every solver shares: results, errors, relabelling to an identity goal, board symmetries."""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tilegames.common import SearchLimitError
from tilegames.slide.board import Board

if TYPE_CHECKING:
    import numpy as np

# Blank directions in the kernels (0 up, 1 down, 2 left, 3 right) name the tile's move the other way.
TILE_LETTER = "DURL"


@dataclass(frozen=True)
class Solution:
    """A move sequence that takes the board to the goal."""

    moves: list[str]
    """The moves, each the direction a tile travels (U D L R)."""
    length: int
    """len(moves)."""
    optimal: bool
    """True when no shorter solution exists (proved by the search)."""
    nodes: int
    """Search nodes generated (0 for constructive steps)."""
    lower_bound: int = 0
    """A proven lower bound on the optimal length (= length when optimal)."""


def relabel(board: Board, goal: Board) -> tuple[np.ndarray, int]:
    """Each tile replaced by its goal cell (so the goal becomes the identity); and the blank's label."""
    import numpy as np  # not at import time: a 3x3 solve never needs it

    where = np.empty(len(goal.tiles), np.int64)
    where[np.asarray(goal.tiles, np.int64)] = np.arange(len(goal.tiles), dtype=np.int64)
    return where[np.asarray(board.tiles, np.int64)], goal.blank


def letters_from_blank_cells(cells: Sequence[int], width: int) -> str:
    """Moves from the blank's successive cells (the tile moves opposite to the blank)."""
    out = []
    for a, c in itertools.pairwise(cells):
        delta = c - a
        if delta == width:
            out.append("U")
        elif delta == -width:
            out.append("D")
        elif delta == 1:
            out.append("L")
        elif delta == -1:
            out.append("R")
        else:
            raise AssertionError(f"blank jumped from {a} to {c}")
    return "".join(out)


def blank_cells(start: int, directions: Sequence[int] | np.ndarray, width: int) -> list[int]:
    """The blank's cells along kernel directions (0 up, 1 down, 2 left, 3 right)."""
    step = (-width, width, -1, 1)
    cells = [start]
    for d in directions:
        cells.append(cells[-1] + step[int(d)])
    return cells


def corner_transform(width: int, height: int, blank: int) -> np.ndarray | None:
    """A flip or half turn (cell map) taking the goal blank cell `blank` to cell 0, if it is a corner."""
    import numpy as np  # not at import time: a 3x3 solve never needs it

    r, c = divmod(blank, width)
    if r not in (0, height - 1) or c not in (0, width - 1):
        return None
    rows = np.arange(height)[:, None].repeat(width, 1)
    cols = np.arange(width)[None, :].repeat(height, 0)
    if r:
        rows = height - 1 - rows
    if c:
        cols = width - 1 - cols
    return (rows * width + cols).ravel().astype(np.int64)


def diagonal_mirror(width: int, height: int, blank: int) -> np.ndarray | None:
    """The reflection about the main diagonal (cell map), when it keeps the puzzle: a square board
    with the goal blank cell `blank` on the diagonal; None otherwise."""
    import numpy as np  # not at import time: a 3x3 solve never needs it

    if width != height or blank % width != blank // width:
        return None
    return np.array([(c % width) * width + c // width for c in range(width * height)], np.int64)


def transform_state(state: np.ndarray, cell_map: np.ndarray) -> np.ndarray:
    """The relabelled state seen through a symmetry: the tile of cell p goes to T(p), named T(label)."""
    import numpy as np  # not at import time: a 3x3 solve never needs it

    out = np.empty_like(state)
    out[cell_map] = cell_map[state]
    return out


@dataclass(frozen=True)
class Budget:
    """Node and time budget of one running search, as the kernels take them (from a Limits)."""

    max_nodes: int
    deadline: float
    timeout: float | None

    @classmethod
    def of(cls, max_nodes: int | None, timeout: float | None) -> Budget:
        """Start the clock now; the limits were checked by tilegames.common.Limits."""
        return cls(
            max_nodes if max_nodes is not None else (1 << 62),
            time.perf_counter() + timeout if timeout is not None else math.inf,
            timeout,
        )

    def after_setup(self, seconds: float) -> Budget:
        """The same budget with the deadline moved `seconds` later (setup that is not search)."""
        return Budget(self.max_nodes, self.deadline + seconds, self.timeout)

    def remaining(self, used_nodes: int) -> Budget:
        return Budget(max(1, self.max_nodes - used_nodes), self.deadline, self.timeout)

    def error(self, status: int, nodes: int) -> SearchLimitError:
        if status == -2:
            return SearchLimitError(
                f"time limit reached: {self.timeout} s passed after {nodes} nodes",
                limit="timeout",
                nodes=nodes,
            )
        if status == -1:
            return SearchLimitError(f"node limit reached: {nodes} nodes searched", nodes=nodes)
        # The kernels' depth cap: the search gave up without an answer, like a node limit.
        return SearchLimitError(
            f"depth limit reached: no solution found in {nodes} nodes", nodes=nodes
        )

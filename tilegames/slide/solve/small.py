"""Optimal solving of small boards (up to 9 cells) by a plain-Python bidirectional breadth-first search.

A 3×3 has 181,440 positions and an optimal solution of at most 31 moves; searching from both ends meets
after a few thousand positions each way, a few milliseconds in plain Python. That beats IDA* in the compiled
kernels on a fresh process, which first pays for importing numba and loading its cached kernels (~0.5 s):
a command like `tilegames slide solve "5 1 3/4 0 2/7 8 6"` then answers without loading either.
"""

from __future__ import annotations

import time

from tilegames.slide.board import Board
from tilegames.slide.solve.common import Budget, Solution

MAX_CELLS = 9
"""Boards up to this many cells are searched here by default (the IDA* kernels take the rest)."""
_CLOCK_EVERY = 1023  # positions between two looks at the clock (mask)
Parents = dict[tuple[int, ...], tuple[tuple[int, ...], str] | None]


def _steps(width: int, height: int) -> list[list[tuple[int, str]]]:
    """For each blank cell: the cells the blank can move to, with the letter of the tile's move."""
    steps: list[list[tuple[int, str]]] = []
    for cell in range(width * height):
        row, column = divmod(cell, width)
        here = []
        if row > 0:
            here.append((cell - width, "D"))  # the tile above slides down
        if row < height - 1:
            here.append((cell + width, "U"))
        if column > 0:
            here.append((cell - 1, "R"))
        if column < width - 1:
            here.append((cell + 1, "L"))
        steps.append(here)
    return steps


def _path(parents: Parents, at: tuple[int, ...]) -> list[str]:
    """The letters from the root of `parents` to `at`."""
    letters = []
    link = parents[at]
    while link is not None:
        at, letter = link
        letters.append(letter)
        link = parents[at]
    letters.reverse()
    return letters


def solve_small(board: Board, goal: Board, limits: Budget) -> Solution | None:
    """A shortest solution of a solvable `board` (None if `goal` is unreachable); SearchLimitError at a limit.

    The two searches alternate whole layers, the smaller frontier first. The first layer that reaches a
    position the other side has seen yields a shortest solution: before it the two balls (radii df, db) were
    disjoint, so the optimum exceeds df + db, and every meeting in the layer has length df + db + 1.
    """
    steps = _steps(board.width, board.height)
    back_letter = {"U": "D", "D": "U", "L": "R", "R": "L"}
    start, target = tuple(board.tiles), tuple(goal.tiles)
    if start == target:
        return Solution([], 0, True, 0, 0)
    # Per side: each position seen, with its parent and the move between them (child to parent backwards).
    seen: list[Parents] = [{start: None}, {target: None}]
    frontiers = [[start], [target]]
    nodes = 0
    while frontiers[0] and frontiers[1]:
        side = 0 if len(frontiers[0]) <= len(frontiers[1]) else 1
        mine, other = seen[side], seen[1 - side]
        layer: list[tuple[int, ...]] = []
        for state in frontiers[side]:
            blank = state.index(0)
            for to, letter in steps[blank]:
                tiles = list(state)
                tiles[blank], tiles[to] = tiles[to], 0
                nxt = tuple(tiles)
                if nxt in mine:
                    continue
                mine[nxt] = (state, letter if side == 0 else back_letter[letter])
                nodes += 1
                if nxt in other:
                    moves = _path(seen[0], nxt) + _path(seen[1], nxt)[::-1]
                    return Solution(moves, len(moves), True, nodes, len(moves))
                if nodes > limits.max_nodes:
                    raise limits.error(-1, nodes)
                if not nodes & _CLOCK_EVERY and time.perf_counter() > limits.deadline:
                    raise limits.error(-2, nodes)
                layer.append(nxt)
        frontiers[side] = layer
    return None

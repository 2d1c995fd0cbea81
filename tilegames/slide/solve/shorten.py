"""Path shortening: replace windows of a solution by optimal paths between their end states.

Any stretch of a solution can be swapped for a shorter path between the same two states. An optimal
IDA* (Manhattan + linear conflict, which is tight over a few dozen moves) between the ends of each
window proves the stretch optimal or finds a shorter one. The answer never gets longer and stays legal.
"""

from __future__ import annotations

import time

import numpy as np

from tilegames.slide.board import MOVES, blank_offset
from tilegames.slide.solve import kernels
from tilegames.slide.solve.common import blank_cells, letters_from_blank_cells

# Windows tried in turn (moves) and the node cap of one window's search.
WINDOWS = (12, 20, 28)
WINDOW_NODES = 40_000


def _blank_steps(width: int) -> dict[str, int]:
    """How the blank's cell changes with each move letter (the tile moves the other way)."""
    return {move: blank_offset(move, width) for move in MOVES}


def _states(state: np.ndarray, blank: int, moves: str, width: int) -> np.ndarray:
    """Every state along `moves` (row i: after i moves), in the relabelled frame of `state`."""
    steps = _blank_steps(width)
    out = np.empty((len(moves) + 1, state.shape[0]), state.dtype)
    cur = state.copy()
    z = int(np.flatnonzero(cur == blank)[0])
    out[0] = cur
    for i, move in enumerate(moves):
        s = z + steps[move]
        cur[z], cur[s] = cur[s], blank
        z = s
        out[i + 1] = cur
    return out


def _better_window(
    start: np.ndarray, end: np.ndarray, blank: int, width: int, height: int, length: int,
    max_nodes: int, deadline: float,
) -> tuple[str | None, int]:  # fmt: skip
    """A path from `start` to `end` shorter than `length` (or None), and the nodes searched."""
    where = np.empty_like(end)
    where[end] = np.arange(end.shape[0], dtype=end.dtype)  # cell of each label in `end`
    rel = where[start]  # `start` with every tile named by its cell in `end`: the goal is identity
    goal_blank = int(where[blank])
    path = np.zeros(max(1, length - 1), np.int64)
    status, found, nodes = kernels.ida_mdlc(
        rel, width, height, goal_blank, True, 1, 1, max_nodes, deadline, path
    )
    if status != kernels.FOUND:
        return None, int(nodes)
    z = int(np.flatnonzero(rel == goal_blank)[0])
    return letters_from_blank_cells(blank_cells(z, path[:found], width), width), int(nodes)


def shorten(
    state: np.ndarray,
    blank: int,
    moves: str,
    width: int,
    height: int,
    *,
    max_nodes: int,
    deadline: float,
    windows: tuple[int, ...] = WINDOWS,
) -> tuple[str, int]:
    """`moves` (from relabelled `state`, blank label `blank`) with windows replaced by shorter paths.

    Returns (moves, nodes searched). Stops at `max_nodes` or at the `deadline` (perf_counter seconds);
    the answer is never longer than `moves` and reaches the same end state.
    """
    nodes = 0
    for window in windows:
        states = _states(state, blank, moves, width)
        i = 0
        while i + 2 <= len(moves):
            left = max_nodes - nodes
            if left <= 0 or time.perf_counter() > deadline:
                return moves, nodes
            length = min(window, len(moves) - i)
            better, used = _better_window(
                states[i], states[i + length], blank, width, height, length,
                min(WINDOW_NODES, left), deadline,
            )  # fmt: skip
            nodes += used
            if better is None:
                i += 1
                continue
            moves = moves[:i] + better + moves[i + length :]
            states = _states(state, blank, moves, width)
            i = max(0, i - window // 2)
    return moves, nodes

"""Two-way corner windows: shorten a solution where either end of a stretch has the blank in a corner.

The pattern databases serve any goal whose blank is in a corner (a flip maps it onto cell 0), so an
optimal IDA* towards a corner-blank state is as well informed as one towards the goal. A stretch
A → B of a solution can be re-searched that way when B's blank is in a corner (forwards, A → B) or
when A's is (backwards: dist(A, B) = dist(B, A), so search B → A and reverse the path). Windows of
several lengths, both ways, are tried until a whole pass finds nothing shorter (a fixpoint); windows
already proved optimal are remembered and never searched twice. The answer never gets longer and
reaches the same end state.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from tilegames.slide.board import OPPOSITE
from tilegames.slide.solve.shorten import _states

# search(start, goal_blank, length, max_nodes) -> (moves or None, nodes, proved): a path from the
# relabelled `start` to the identity (blank label `goal_blank`, in a corner) shorter than `length`, if
# any; `proved` when the search ran to the end (no shorter path exists).
Search = Callable[[np.ndarray, int, int, int], tuple[str | None, int, bool]]


def reverse_moves(moves: str) -> str:
    """The moves that undo `moves`: the path back from its end state to its start."""
    return "".join(OPPOSITE[m] for m in reversed(moves))


def _relabelled(start: np.ndarray, end: np.ndarray, blank: int) -> tuple[np.ndarray, int]:
    """`start` with every tile named by its cell in `end` (so `end` is the identity) and the blank's
    label in that frame."""
    where = np.empty_like(end)
    where[end] = np.arange(end.shape[0], dtype=end.dtype)
    return where[start], int(where[blank])


def _corner_indices(states: np.ndarray, blank: int, width: int, height: int) -> list[int]:
    """Indices of the states whose blank is in a corner."""
    corners = (0, width - 1, (height - 1) * width, height * width - 1)
    blank_cells = np.argmax(states == blank, axis=1)
    return [int(i) for i in np.flatnonzero(np.isin(blank_cells, corners))]


def two_way_windows(
    state: np.ndarray,
    blank: int,
    moves: str,
    width: int,
    height: int,
    search: Search,
    *,
    lengths: tuple[int, ...],
    max_nodes: int,
    deadline: float,
    max_passes: int = 8,
    proved: dict[tuple[bytes, bytes], int] | None = None,
) -> tuple[str, int]:
    """`moves` (from relabelled `state`, blank label `blank`) with stretches replaced by shorter paths,
    each stretch starting or ending where the blank is in a corner; see the module's docstring.

    Returns (moves, nodes searched); stops at `max_nodes`, at `deadline` (perf_counter seconds) or
    after `max_passes` passes over all the window lengths. `proved` maps the (start, end) states of
    searched stretches to a proved lower bound on their distance, to skip those that cannot be
    shortened; pass the same dict to later calls to share it.
    """
    nodes = 0
    proved = {} if proved is None else proved
    for _ in range(max_passes):
        improved = False
        for length in lengths:
            states = _states(state, blank, moves, width)
            done: set[tuple[int, int]] = set()  # windows searched since the path last changed
            while True:
                corners = _corner_indices(states, blank, width, height)
                windows = [
                    window
                    for j in corners
                    for window in ((max(0, j - length), j), (j, min(len(moves), j + length)))
                    if window[1] - window[0] >= 2 and window not in done
                ]
                if not windows:
                    break
                i, j = windows[0]
                done.add((i, j))
                key = (states[i].tobytes(), states[j].tobytes())
                if proved.get(key, 0) >= j - i:  # no shorter path between these two states
                    continue
                left = max_nodes - nodes
                if left <= 0 or time.perf_counter() > deadline:
                    return moves, nodes
                forwards = j in corners
                if forwards:
                    start, goal_blank = _relabelled(states[i], states[j], blank)
                else:
                    start, goal_blank = _relabelled(states[j], states[i], blank)
                better, used, exhausted = search(start, goal_blank, j - i, left)
                nodes += used
                if better is None or len(better) >= j - i:
                    if exhausted:
                        proved[key] = j - i
                    continue
                if not forwards:
                    better = reverse_moves(better)
                moves = moves[:i] + better + moves[j:]
                improved = True
                states = _states(state, blank, moves, width)
                done = set()
        if not improved:
            break
    return moves, nodes

"""Optimal Klotski solving by breadth-first search, in either metric, with hints.

The visited set is keyed on exact codes (:meth:`Board.key`, mirror folded by ``min(code, mirror code)``); the
Zobrist hash only picks the hash-table slot, so two different positions are never merged and every answer is
optimal. Boards of up to 21 cells run in a compiled kernel (or, while a process has not loaded the kernels, in
their plain-Python twin :mod:`tilegames.klotski.plain` for small searches: same answer, no numba start-up);
larger ones fall back to the plain Python search (:func:`reference_search`), which is also the obviously right
reference the tests compare against.
"""

from __future__ import annotations

import sys
from collections import deque
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from tilegames.common import Clock, Limits, limits_of
from tilegames.common import SearchLimitError as SearchLimitError  # space.py imports it from here
from tilegames.klotski import plain
from tilegames.klotski.board import (
    DIRECTIONS,
    SHAPES,
    Board,
    check_metric,
    exit_columns,
    grid_key,
    mirror_grid,
    move_count,
)

if TYPE_CHECKING:
    import numpy as np

MAX_KERNEL_CELLS = 21
"""Boards with more cells than this do not fit a 64-bit code and are searched in plain Python."""
DEFAULT_MAX_STATES = 50_000_000
"""Default limit of the compiled search (a few seconds)."""
KERNEL_LIMIT_CAP = 2**62
"""Limits above this are passed to the kernels as this (they take an int64); no board comes near it."""
DEFAULT_MAX_STATES_PYTHON = 500_000
"""Default limit of the plain Python search that boards over 21 cells fall back to (about 15 s)."""
PLAIN_MAX_STATES = 40_000
"""A search first runs in plain Python, while numba's kernels are not loaded in the process, up to this many
positions (~0.3 s; importing numba and loading the kernels costs ~0.6 s); past it, the kernels take over."""
KERNELS = "tilegames.klotski.kernels"
STEP_NAMES = plain.STEP_NAMES  # the kernels' direction order
FLIP = str.maketrans("LR", "RL")


def check_limit(max_states: int | None) -> None:
    """Refuse a state limit below 1 (None means the default)."""
    if max_states is not None and max_states < 1:
        raise ValueError(f"max_states must be at least 1, not {max_states}")


@dataclass(frozen=True)
class Solution:
    """An optimal solution."""

    moves: list[str]
    """The moves, ``"X:STEPS"`` with the letters of the layout as given."""
    length: int
    """Its length in `metric`: moves, or unit steps."""
    optimal: bool
    """Always True: the search is breadth-first, so no shorter solution exists in `metric`."""
    nodes: int
    """Positions the search visited (mirror images counted once; 0 when replayed from the reference)."""
    metric: str
    """``"moves"`` (one piece moved any distance counts one) or ``"steps"`` (every unit step counts)."""
    move_count: int
    """Its length counted in moves (:func:`~tilegames.klotski.board.move_count`)."""
    step_count: int
    """Its length counted in unit steps."""


@dataclass(frozen=True)
class Tables:
    """Per-board-size tables for the kernels (see :mod:`tilegames.klotski.kernels`)."""

    width: int
    height: int
    kernel: tuple[np.ndarray, ...]
    """(piece_code, piece_hash, mirror_cell, piece_mask, step_to, halo), the ``tabs`` argument of the kernels."""
    goal_masks: np.ndarray
    goal_bits: np.ndarray


@lru_cache(maxsize=32)
def tables(width: int, height: int) -> Tables:
    """The code, hash and mirror tables of a board size as NumPy arrays (computed once per size)."""
    import numpy as np

    n = width * height
    if n > MAX_KERNEL_CELLS:
        raise ValueError(
            f"a {width}×{height} board has {n} cells; the kernels take at most {MAX_KERNEL_CELLS}"
        )
    t = plain.plain_tables(width, height)
    return Tables(
        width,
        height,
        (
            np.array(t.piece_code, dtype=np.uint64),
            np.array(t.piece_hash, dtype=np.uint64),
            np.array(t.mirror_cell, dtype=np.int64),
            np.array(t.piece_mask, dtype=np.uint64),
            np.array(t.step_to, dtype=np.int64),
            np.array(t.halo, dtype=np.uint64),
        ),
        np.array(t.goal_masks, dtype=np.uint64),
        np.array(t.goal_bits, dtype=np.uint64),
    )


def _search(
    board: Board, start: int, metric: str, limit: int, clock: Clock, *, plain_first: bool
) -> tuple[Any, Any, Any, int, int]:
    """`kernels.search` from `start` to the first solved key; with `plain_first` in plain Python
    (`plain.search`, the same answer) unless the search grows past PLAIN_MAX_STATES."""
    steps = metric == "steps"
    if plain_first:
        t = plain.plain_tables(board.width, board.height)
        cap = min(limit, PLAIN_MAX_STATES)
        found = plain.search(start, t, steps, True, cap, clock.deadline)
        if found[4] != 1 or cap == limit:
            return found
    import numpy as np

    from tilegames.klotski import kernels

    k = tables(board.width, board.height)
    keys, parents, moves, goal, stop = kernels.search(
        np.uint64(start),
        k.width,
        k.height,
        steps,
        True,
        k.goal_masks,
        k.goal_bits,
        True,
        min(limit, KERNEL_LIMIT_CAP),
        k.kernel,
        clock.deadline,
    )
    return keys, parents, moves, int(goal), int(stop)


def solve(board: Board, metric: str = "moves", *, limits: Limits | None = None) -> Solution | None:
    """An optimal solution of `board` in `metric`, or None when no position reachable from it is solved.

    Raises SearchLimitError when more than `limits.max_nodes` positions would be visited (default
    :data:`DEFAULT_MAX_STATES`, or :data:`DEFAULT_MAX_STATES_PYTHON` on boards too big for the kernel: the
    default also bounds memory) or `limits.timeout` seconds pass.
    """
    check_metric(metric)
    limits = limits_of(limits)
    big = board.width * board.height > MAX_KERNEL_CELLS
    default = DEFAULT_MAX_STATES_PYTHON if big else DEFAULT_MAX_STATES
    limit = default if limits.max_nodes is None else limits.max_nodes
    clock = Limits(limit, limits.timeout).clock()
    if big:
        path, visited = _reference(board, metric, clock)
        return None if path is None else _replay_keys(board, path, metric, visited)
    raw, mirrored = board.key(), board.mirror_key()
    start = min(raw, mirrored)
    # Until numba's kernels are loaded in this process, a small search is done sooner without them.
    plain_first = KERNELS not in sys.modules
    keys, parents, moves, goal, stop = _search(
        board, start, metric, limit, clock, plain_first=plain_first
    )
    if goal < 0:
        if stop:
            raise clock.error("timeout" if stop == 2 else "max_nodes", len(keys))
        return None
    chain = []
    at = int(goal)
    while at > 0:
        chain.append(at)
        at = int(parents[at])
    chain.reverse()
    n = board.width * board.height
    heads = {p.row * board.width + p.column: p.letter for p in board.pieces}
    flipped = start != raw
    result = []
    for index in chain:
        packed = int(moves[index])
        source, target = packed & 63, packed >> 6 & 63
        length, code = packed >> 13 & 31, packed >> 18
        steps = "".join(STEP_NAMES[code >> 2 * (length - 1 - i) & 3] for i in range(length))
        if flipped:
            kind = int(keys[parents[index]]) >> 3 * (n - 1 - source) & 7
            mirror_cell = plain.plain_tables(board.width, board.height).mirror_cell[kind]
            source, target = mirror_cell[source], mirror_cell[target]
            steps = steps.translate(FLIP)
        letter = heads.pop(source)
        heads[target] = letter
        result.append(f"{letter}:{steps}")
        flipped ^= bool(packed >> 12 & 1)
    return _solution(result, metric, len(keys))


def hint(board: Board, metric: str = "moves", *, limits: Limits | None = None) -> str | None:
    """The first move of an optimal solution; None when the board is solved or cannot be solved."""
    solution = solve(board, metric, limits=limits)
    return solution.moves[0] if solution and solution.moves else None


# --- the plain Python reference --------------------------------------------------------------------------------


def grid_neighbours(
    types: tuple[int, ...], width: int, height: int, metric: str
) -> list[tuple[int, ...]]:
    """Every position one move (or one step) away from a grid of occupant types; plain Python, for reference."""
    n = width * height
    done = [False] * n
    result = []
    for cell in range(n):
        kind = types[cell]
        if not kind or done[cell]:
            continue
        rows, columns = SHAPES[kind]
        row, column = divmod(cell, width)
        own = {(r, c) for r in range(row, row + rows) for c in range(column, column + columns)}
        for r, c in own:
            done[r * width + c] = True
        free = [t == 0 for t in types]
        for r, c in own:
            free[r * width + c] = True

        def fits(
            r: int, c: int, rows: int = rows, columns: int = columns, free: list[bool] = free
        ) -> bool:
            return (
                0 <= r <= height - rows
                and 0 <= c <= width - columns
                and all(
                    free[rr * width + cc]
                    for rr in range(r, r + rows)
                    for cc in range(c, c + columns)
                )
            )

        seen = {(row, column)}
        queue = deque([(row, column)])
        while queue:
            r, c = queue.popleft()
            for dr, dc in DIRECTIONS.values():
                spot = (r + dr, c + dc)
                if spot in seen or not fits(*spot):
                    continue
                seen.add(spot)
                if metric == "moves":
                    queue.append(spot)
                moved = list(types)
                for rr, cc in own:
                    moved[rr * width + cc] = 0
                for rr in range(spot[0], spot[0] + rows):
                    for cc in range(spot[1], spot[1] + columns):
                        moved[rr * width + cc] = kind
                result.append(tuple(moved))
    return result


def is_solved_grid(types: tuple[int, ...], width: int, height: int) -> bool:
    """Whether the 2×2 piece stands at the exit."""
    cell = types.index(4)
    return cell // width == height - 2 and cell % width in exit_columns(width)


def reference_search(
    board: Board, metric: str = "moves", *, max_states: int | None = None
) -> list[int] | None:
    """Plain Python BFS over mirror-folded grids: the canonical keys from the start to a nearest solved
    position, or None if there is none.

    Slow and obviously right; the baseline of the benchmarks and the reference of the tests.
    """
    return _reference(board, metric, Limits(max_states).clock())[0]


def _reference(board: Board, metric: str, clock: Clock) -> tuple[list[int] | None, int]:
    """`reference_search` and the positions it visited; SearchLimitError past the `clock`'s limits
    (the clock is looked at every 256 expansions)."""
    check_metric(metric)
    width, height = board.width, board.height

    def canon(types: tuple[int, ...]) -> tuple[int, ...]:
        return min(types, mirror_grid(types, width))

    start = canon(board.types())
    parent: dict[tuple[int, ...], tuple[int, ...] | None] = {start: None}
    queue = deque([start])
    expanded = 0
    while queue:
        types = queue.popleft()
        if is_solved_grid(types, width, height):
            path = []
            node: tuple[int, ...] | None = types
            while node is not None:
                path.append(grid_key(node))
                node = parent[node]
            return path[::-1], len(parent)
        expanded += 1
        if not expanded & 255:
            clock.check(len(parent))
        for nxt in grid_neighbours(types, width, height, metric):
            nxt = canon(nxt)
            if nxt not in parent:
                parent[nxt] = types
                queue.append(nxt)
                if len(parent) > clock.max_nodes:
                    raise clock.error("max_nodes", clock.max_nodes)
    return None, len(parent)


def _replay_keys(board: Board, path: list[int], metric: str, visited: int = 0) -> Solution:
    """Turn a chain of canonical keys into lettered moves by trying the board's moves (slow, any size)."""
    work = board.copy(stack=False)
    result = []
    for key in path[1:]:
        for move in work.moves(metric):
            work.push(move)
            if work.canonical_key() == key:
                result.append(move)
                break
            work.pop()
        else:  # pragma: no cover - the path comes from the same move rules
            raise AssertionError(f"no move from {work} reaches key {key}")
    return _solution(result, metric, visited)


def _solution(moves: list[str], metric: str, positions: int) -> Solution:
    """A Solution with its length counted in `metric` and in both metrics."""
    counts = move_count(moves, "moves"), move_count(moves, "steps")
    length = counts[METRIC_INDEX[metric]]
    return Solution(moves, length, True, positions, metric, *counts)


METRIC_INDEX = {"moves": 0, "steps": 1}

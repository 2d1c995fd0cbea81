"""Connecting two tiles with at most two turns: compiled kernels over a padded grid.

The grid is an int32 array of (H + 2) x (W + 2) cells: the board framed by one ring of cells.
0 is an empty cell, a positive value is a tile kind (the code point of its character) and
`WALL` (-1) a cell no path may cross (the ring when the outside route is turned off).
A ring one cell wide is enough: a path of at most two turns gains nothing by going further out.

The test for a pair scans the empty runs from each end (the cells a straight segment can
reach), then tries, in order of turns, a straight line, the two L corners, and every middle
segment that joins the two ends' runs (the Z and U shapes), keeping the shortest of the
fewest-turn paths. No search over the board per pair.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tilegames.link.lean import lean

WALL = -1


@lean
def _row_clear(grid: np.ndarray, r: int, c1: int, c2: int) -> bool:
    """Are the cells of row r strictly between columns c1 and c2 empty?"""
    lo, hi = (c1, c2) if c1 < c2 else (c2, c1)
    for c in range(lo + 1, hi):  # noqa: SIM110 (a plain loop compiles best)
        if grid[r, c] != 0:
            return False
    return True


@lean
def _col_clear(grid: np.ndarray, c: int, r1: int, r2: int) -> bool:
    """Are the cells of column c strictly between rows r1 and r2 empty?"""
    lo, hi = (r1, r2) if r1 < r2 else (r2, r1)
    for r in range(lo + 1, hi):  # noqa: SIM110
        if grid[r, c] != 0:
            return False
    return True


@lean
def _reach(grid: np.ndarray, r: int, c: int) -> tuple[int, int, int, int]:
    """The furthest row up/down and column left/right a straight segment from (r, c) reaches,
    as four numbers (no array: the solvers ask millions of times)."""
    h, w = grid.shape
    up = r
    while up > 0 and grid[up - 1, c] == 0:
        up -= 1
    down = r
    while down < h - 1 and grid[down + 1, c] == 0:
        down += 1
    left = c
    while left > 0 and grid[r, left - 1] == 0:
        left -= 1
    right = c
    while right < w - 1 and grid[r, right + 1] == 0:
        right += 1
    return up, down, left, right


@lean
def connect(grid: np.ndarray, r1: int, c1: int, r2: int, c2: int, out: np.ndarray) -> int:
    """Write the fewest-turn, then shortest, path from (r1, c1) to (r2, c2) into `out`.

    Coordinates are padded (board row r is grid row r + 1). `out` is a (4, 2) array that gets
    the ends and corners; the return value is how many points were written, 0 if no path.
    The kinds of the two end cells are not looked at: the caller pairs equal kinds.
    """
    out[0, 0], out[0, 1] = r1, c1
    if r1 == r2 and c1 == c2:
        return 0
    # No turn: a straight line.
    if (r1 == r2 and _row_clear(grid, r1, c1, c2)) or (c1 == c2 and _col_clear(grid, c1, r1, r2)):
        out[1, 0], out[1, 1] = r2, c2
        return 2
    # One turn: an L through one of the two corners.
    if r1 != r2 and c1 != c2:
        if grid[r1, c2] == 0 and _row_clear(grid, r1, c1, c2) and _col_clear(grid, c2, r1, r2):
            out[1, 0], out[1, 1] = r1, c2
            out[2, 0], out[2, 1] = r2, c2
            return 3
        if grid[r2, c1] == 0 and _col_clear(grid, c1, r1, r2) and _row_clear(grid, r2, c1, c2):
            out[1, 0], out[1, 1] = r2, c1
            out[2, 0], out[2, 1] = r2, c2
            return 3
    # Two turns: a middle segment joining the runs of the two ends.
    ra = _reach(grid, r1, c1)
    rb = _reach(grid, r2, c2)
    best = -1
    best_line = 0
    best_horizontal = True
    if c1 != c2:  # horizontal middle segment in row r, legs along columns c1 and c2
        for r in range(max(ra[0], rb[0]), min(ra[1], rb[1]) + 1):
            if r in (r1, r2):
                continue
            if _row_clear(grid, r, c1, c2):
                length = abs(r - r1) + abs(r - r2) + abs(c1 - c2)
                if best < 0 or length < best:
                    best, best_line, best_horizontal = length, r, True
    if r1 != r2:  # vertical middle segment in column c, legs along rows r1 and r2
        for c in range(max(ra[2], rb[2]), min(ra[3], rb[3]) + 1):
            if c in (c1, c2):
                continue
            if _col_clear(grid, c, r1, r2):
                length = abs(c - c1) + abs(c - c2) + abs(r1 - r2)
                if best < 0 or length < best:
                    best, best_line, best_horizontal = length, c, False
    if best < 0:
        return 0
    if best_horizontal:
        out[1, 0], out[1, 1] = best_line, c1
        out[2, 0], out[2, 1] = best_line, c2
    else:
        out[1, 0], out[1, 1] = r1, best_line
        out[2, 0], out[2, 1] = r2, best_line
    out[3, 0], out[3, 1] = r2, c2
    return 4


@lean
def walled(grid: np.ndarray, r: int, c: int) -> bool:
    """Are the four neighbours of (r, c) all tiles or walls? Then only a tile next to it joins it."""
    return bool(
        grid[r - 1, c] != 0 and grid[r + 1, c] != 0 and grid[r, c - 1] != 0 and grid[r, c + 1] != 0
    )


@lean
def joinable(grid: np.ndarray, r1: int, c1: int, r2: int, c2: int) -> bool:
    """Is there a path of at most two turns from (r1, c1) to (r2, c2)? `connect(...) > 0`,
    without the path: it stops at the first one found and allocates nothing, and answers at once
    for an end with no empty neighbour (most tiles of a full board), which is what the solvers'
    relaxations and `find_pairs` need."""
    if r1 == r2 and c1 == c2:
        return False
    if abs(r1 - r2) + abs(c1 - c2) == 1:
        return True
    if walled(grid, r1, c1) or walled(grid, r2, c2):
        return False
    if (r1 == r2 and _row_clear(grid, r1, c1, c2)) or (c1 == c2 and _col_clear(grid, c1, r1, r2)):
        return True
    if r1 != r2 and c1 != c2:
        if grid[r1, c2] == 0 and _row_clear(grid, r1, c1, c2) and _col_clear(grid, c2, r1, r2):
            return True
        if grid[r2, c1] == 0 and _col_clear(grid, c1, r1, r2) and _row_clear(grid, r2, c1, c2):
            return True
    up1, down1, left1, right1 = _reach(grid, r1, c1)
    up2, down2, left2, right2 = _reach(grid, r2, c2)
    if c1 != c2:
        for r in range(max(up1, up2), min(down1, down2) + 1):
            if r != r1 and r != r2 and _row_clear(grid, r, c1, c2):
                return True
    if r1 != r2:
        for c in range(max(left1, left2), min(right1, right2) + 1):
            if c != c1 and c != c2 and _col_clear(grid, c, r1, r2):
                return True
    return False


@lean
def _run(height: np.ndarray, level: int, c: int, w: int) -> tuple[int, int]:
    """The first and last column a horizontal segment at `level` from column c reaches on a
    fallen board with the ring: the columns no taller than `level`, and the ring's columns."""
    lo = c
    while lo > 1 and height[lo - 1] <= level:
        lo -= 1
    hi = c
    while hi < w - 2 and height[hi + 1] <= level:
        hi += 1
    return (0 if lo == 1 else lo), (w - 1 if hi == w - 2 else hi)


@lean
def joinable_fallen(height: np.ndarray, bottom: int, r1: int, c1: int, r2: int, c2: int) -> bool:
    """`joinable` for a board under gravity with the ring, from the columns' heights alone.

    On such a board the empty cells of a column are those above its tiles, so a path of at most
    two turns is one of few shapes: over the top (two tops) or under the board (two on the
    bottom row); a straight or L-shaped run along one tile's row; or two runs along the two
    tiles' rows joined in a column both reach (a column no taller than either row, or the ring's).
    Each run is one scan of heights, with no scan of columns for the turn. Padded coordinates, as
    in `joinable`; `height[c]` is how many tiles column c holds, and `bottom` the bottom row."""
    if r1 == r2 and c1 == c2:
        return False
    if abs(r1 - r2) + abs(c1 - c2) == 1:
        return True
    w = height.shape[0]
    l1, l2 = bottom - r1, bottom - r2  # levels above the bottom row
    top1, top2 = l1 == height[c1] - 1, l2 == height[c2] - 1
    if (top1 and top2) or (l1 == 0 and l2 == 0):
        return True  # over the board, or under it
    lo1, hi1 = _run(height, l1, c1, w)
    lo2, hi2 = _run(height, l2, c2, w)
    if l1 == l2 and (c2 == hi1 + 1 or c2 == lo1 - 1):
        return True  # straight along the row
    if (top2 and l1 > l2 and lo1 <= c2 <= hi1) or (top1 and l2 > l1 and lo2 <= c1 <= hi2):
        return True  # along one row, then down onto the other tile
    lo, hi = max(lo1, lo2), min(hi1, hi2)
    turns = hi - lo + 1
    if lo <= c1 <= hi:
        turns -= 1
    if c2 != c1 and lo <= c2 <= hi:
        turns -= 1
    return turns > 0  # along both rows, joined in a column between


@njit(cache=True)
def find_pairs(grid: np.ndarray, first_only: bool) -> np.ndarray:
    """Every connectable pair of equal tiles as rows (r1, c1, r2, c2), padded coordinates.

    Pairs come in reading order of the first cell, then of the second. With `first_only`
    the scan stops at the first pair found (a hint).
    """
    h, w = grid.shape
    n = 0
    pos = np.empty(h * w, np.int64)
    kind = np.empty(h * w, np.int64)
    for r in range(h):
        for c in range(w):
            if grid[r, c] > 0:
                pos[n] = r * w + c
                kind[n] = grid[r, c]
                n += 1
    order = np.argsort(kind[:n], kind="mergesort")
    rank = np.empty(n, np.int64)
    for i in range(n):
        rank[order[i]] = i
    found = np.empty((max(n * 2, 1), 4), np.int64)
    count = 0
    for i in range(n):
        a = pos[i]
        for s in range(rank[i] + 1, n):
            j = order[s]
            if kind[j] != kind[i]:
                break
            b = pos[j]
            if joinable(grid, a // w, a % w, b // w, b % w):
                if count == found.shape[0]:
                    bigger = np.empty((count * 2, 4), np.int64)
                    bigger[:count] = found
                    found = bigger
                found[count, 0], found[count, 1] = a // w, a % w
                found[count, 2], found[count, 3] = b // w, b % w
                count += 1
                if first_only:
                    return found[:count]
    return found[:count]

"""Which move may stand for all in a position of confined play (`exhaust.run`): its keys.

A key is two tiles that stay joinable whatever else goes inside `may`, that could be joined to no
other tile alive (`closure.pairable`: the pairs that some position of play inside `may` could
join), and whose fall parts no pair that could be joined above them. Then any play of other
moves can be reordered to take the key first and the key stays playable (a stubborn set of one
move, Valmari): every position with no move inside `may`, and every move out of it, is still
reached (docs/link.md, solver item 12).
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def still(grid: np.ndarray, r1: int, c1: int, r2: int, c2: int) -> bool:
    """Does removing the two tiles make nothing fall (nothing above either but the other)? For a
    compact board: every column resting on the bottom."""
    return (grid[r1 - 1, c1] <= 0 or (r1 - 1 == r2 and c1 == c2)) and (
        grid[r2 - 1, c2] <= 0 or (r2 - 1 == r1 and c1 == c2)
    )


@njit(cache=True)
def _lasting(
    grid: np.ndarray, row_of: np.ndarray, col: np.ndarray, loose: np.ndarray, x: int, y: int,
    bottom: int, w: int,
) -> bool:  # fmt: skip
    """Do x and y (joinable now, with the ring) stay joinable while both are there, whatever
    else goes inside `may`? Two tops, two bottoms, two tiles beside the same side of the ring,
    two tiles one on the other, or two that nothing can lower while they are there (`loose`:
    the tiles of `may` under a tile that can go before it)."""
    rx, cx, ry, cy = row_of[x], col[x], row_of[y], col[y]
    if grid[rx - 1, cx] == 0 and grid[ry - 1, cy] == 0:
        return True
    if rx == bottom and ry == bottom:
        return True
    if cx == cy and (cx == 1 or cx == w - 2 or abs(rx - ry) == 1):
        return True
    return bool(loose[x] == 0 and loose[y] == 0)


@njit(cache=True)
def _robust(t: int, row_of: np.ndarray, col: np.ndarray, fixed: np.ndarray, bottom: int) -> bool:
    """Can no cell beside t ever empty (each neighbouring column keeps more tiles outside `may`
    than t has under it)? Then every path from t leaves up, into the ring or down, and falling
    keeps it: from t's new cell the same path goes on through its old one."""
    w = fixed.shape[0]
    c = col[t]
    for nb in (c - 1, c + 1):  # noqa: SIM110 (a plain loop compiles best)
        if 0 < nb < w - 1 and fixed[nb] <= bottom - row_of[t]:
            return False
    return True


@njit(cache=True)
def _beside(
    t: int, u: int, row_of: np.ndarray, col: np.ndarray, loose: np.ndarray, bottom: int
) -> bool:
    """Could t and u ever sit side by side (neighbouring columns, one height)? `loose[t]`: the
    most t can still fall."""
    if abs(col[t] - col[u]) != 1:
        return False
    height_t, height_u = bottom - row_of[t], bottom - row_of[u]
    return bool(max(height_t - loose[t], height_u - loose[u]) <= min(height_t, height_u))


@njit(cache=True)
def key(
    grid: np.ndarray, row_of: np.ndarray, col: np.ndarray, kind: np.ndarray, loose: np.ndarray,
    fixed: np.ndarray, at: np.ndarray, height: np.ndarray, gone: np.ndarray,
    x: int, y: int, pairable: np.ndarray, order: np.ndarray, base: np.ndarray, bottom: int,
) -> bool:  # fmt: skip
    """May the move x, y alone stand for all the position's moves (`exhaust.run`'s docstring)?"""
    w = fixed.shape[0]
    k = kind[x]
    for p in range(base[k], base[k + 1]):  # x and y: partners only of each other
        u = order[p]
        if u in (x, y) or (gone[u >> 6] >> np.uint64(u & 63)) & np.uint64(1):
            continue
        if pairable[x, u] or pairable[y, u]:
            return False
    rx, cx, ry, cy = row_of[x], col[x], row_of[y], col[y]
    if not _lasting(grid, row_of, col, loose, x, y, bottom, w) and (
        (rx == ry and abs(cx - cy) == 1)
        or not _robust(x, row_of, col, fixed, bottom)
        or not _robust(y, row_of, col, fixed, bottom)
    ):
        return False
    for t in (x, y):  # every pair above them that could ever be joined survives their fall
        c = col[t]
        for j in range(bottom - row_of[t] + 1, height[c]):
            z = at[c, j]
            if z in (x, y):
                continue
            robust = _robust(z, row_of, col, fixed, bottom)
            k = kind[z]
            for p in range(base[k], base[k + 1]):
                u = order[p]
                if u == z or (gone[u >> 6] >> np.uint64(u & 63)) & np.uint64(1):
                    continue
                if not pairable[z, u] or _lasting(grid, row_of, col, loose, z, u, bottom, w):
                    continue
                if robust and not _beside(z, u, row_of, col, loose, bottom):
                    continue
                return False
    return True

"""A proof of dead ends under gravity: the relaxation that tracks where a tile may have fallen.

Without gravity a tile keeps its cell and empties only grow (`dense.relax`). With gravity a tile
keeps its column and its order in it, and on a compact board (every column's tiles stacked from
the bottom) the occupied cells of a column are its lowest `height` cells, so empties only grow
here too. What is uncertain is a tile's row: the tile that starts `i` tiles above the bottom
sits, at any time, `i - removed` above it, where `removed` counts the tiles of its column below
it that have gone.

The relaxation lets a tile go as soon as it can be joined to some tile of its kind (gone or
not) with both ends anywhere their rows may be: from `i - gone below` to `i`, where "gone" is
what the relaxation has removed. Induction on a real play: every tile it removes is removed by
the relaxation too, no later, so the relaxation's columns are never taller than the real ones,
its "gone below" is never less than the real count, and the real rows lie in the ranges tried.
Two tiles of one column keep between them every tile between them that the relaxation still
has (a real play has it too), so they lie at least that many rows and one apart.
A tile the relaxation can never remove cannot be removed in the real game: a dead end.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tilegames.link.dense import forbidden, kind_spans
from tilegames.link.path import joinable, walled


@njit(cache=True)
def compact(grid: np.ndarray) -> bool:
    """Is every column's stack of tiles resting on the bottom (no empty cell under a tile)?"""
    h, w = grid.shape
    for c in range(1, w - 1):
        gap = False
        for r in range(h - 2, 0, -1):
            if grid[r, c] > 0:
                if gap:
                    return False
            elif grid[r, c] == 0:
                gap = True
    return True


@njit(cache=True)
def _fill(grid: np.ndarray, c: int, bottom: int, low: int, high: int, value: int) -> None:
    """Set the cells of column c from `low` to `high - 1` tiles above the bottom to `value`."""
    for i in range(low, high):
        grid[bottom - i, c] = value


@njit(cache=True)
def doomed(
    grid: np.ndarray, hint: np.ndarray, budget: int, forbid: np.ndarray, apart: bool = True
) -> tuple[bool, np.ndarray, int]:
    """True when some tile can never go under gravity, whatever is played: (doomed, the cells
    of the tiles in the order they went, work).

    `forbid` holds pairs no solution from `grid` plays (sorted codes `a * size + b`, a < b, of
    the tiles' flat cells in `grid`; `dense`'s codes): a tile only goes with a partner it may
    still be paired with, so a real play that avoids them is still a play of the relaxation.

    `grid` is padded (0 empty, -1 wall, > 0 kinds); tiles are tried in the order of the flat
    cells in `hint` first (the order that worked one move earlier: one pass instead of many).
    A board that is not compact, or a scan past `budget` path tests, answers "not doomed"
    (sound: no proof is claimed). `apart=False` drops the rule for two tiles of one column (the
    tiles kept between them), as the move search below the root does: there the dead ends it
    adds steered the restarts away from clearings (docs/link.md, item 9).
    """
    h, w = grid.shape
    gone = np.empty(0, np.int64)
    if not compact(grid):
        return False, gone, 0
    bottom = h - 2
    n = 0
    col = np.empty(h * w, np.int64)
    idx = np.empty(h * w, np.int64)  # tiles under it at the start
    kind = np.empty(h * w, np.int64)
    tile_at = np.full(h * w, -1, np.int64)
    for c in range(1, w - 1):
        i = 0
        for r in range(bottom, 0, -1):
            if grid[r, c] > 0:
                col[n], idx[n], kind[n] = c, i, grid[r, c]
                tile_at[r * w + c] = n
                n += 1
                i += 1
    if n == 0:
        return False, gone, 0
    visit = np.empty(n, np.int64)  # the hint's tiles first, in its order, then the others
    listed = np.zeros(n, np.bool_)
    v = 0
    for p in range(hint.shape[0]):
        t = tile_at[hint[p]]
        if t >= 0 and not listed[t]:
            listed[t] = True
            visit[v] = t
            v += 1
    for t in range(n):
        if not listed[t]:
            visit[v] = t
            v += 1
    gone = np.empty(n, np.int64)
    order, start, stop = kind_spans(kind, n)
    height = np.zeros(w, np.int64)
    for t in range(n):
        height[col[t]] += 1
    tall = height.copy()
    relaxed = np.where(grid > 0, 1, grid).astype(grid.dtype)
    alive = np.ones(n, np.bool_)
    gone_in = np.zeros((w, h), np.int64)  # gone_in[c, i]: tile i of column c is gone (0/1)
    left = n
    work = 0
    changed = True
    while changed and left > 0:
        changed = False
        for v in range(n):
            x = visit[v]
            if not alive[x]:
                continue
            cx = col[x]
            below_x = 0
            for i in range(idx[x]):
                below_x += gone_in[cx, i]
            above_x = 0
            for i in range(idx[x] + 1, tall[cx]):
                above_x += 1 - gone_in[cx, i]
            found = False
            for q in range(start[x], stop[x]):
                y = order[q]
                if y == x:
                    continue
                if forbid.shape[0] and forbidden(
                    forbid, h * w, (bottom - idx[x]) * w + cx, (bottom - idx[y]) * w + col[y]
                ):
                    continue
                cy = col[y]
                between = 0  # tiles between x and y in one column that the relaxation keeps
                if cx == cy and apart:
                    for i in range(min(idx[x], idx[y]) + 1, max(idx[x], idx[y])):
                        between += 1 - gone_in[cx, i]
                below_y = 0
                for i in range(idx[y]):
                    below_y += gone_in[cy, i]
                above_y = 0
                for i in range(idx[y] + 1, tall[cy]):
                    above_y += 1 - gone_in[cy, i]
                for jx in range(idx[x], idx[x] - below_x - 1, -1):
                    rx = bottom - jx
                    # x has jx tiles under it and at least above_x on it: its column that tall
                    hx = max(height[cx], jx + 1 + above_x)
                    _fill(relaxed, cx, bottom, height[cx], hx, 1)
                    closed = walled(relaxed, rx, cx)
                    for jy in range(idx[y], idx[y] - below_y - 1, -1):
                        ry = bottom - jy
                        if cx == cy and (
                            (idx[y] - idx[x]) * (jy - jx) <= 0 or abs(jy - jx) <= between
                        ):
                            continue  # a column keeps its order, and the tiles between
                        if closed and abs(rx - ry) + abs(cx - cy) != 1:
                            continue  # no empty neighbour: only a tile next to it is reachable
                        work += 1
                        if work > budget:
                            _fill(relaxed, cx, bottom, height[cx], hx, 0)
                            return False, gone[: n - left], work
                        now = hx if cy == cx else height[cy]
                        hy = max(now, jy + 1 + above_y)
                        _fill(relaxed, cy, bottom, now, hy, 1)
                        found = joinable(relaxed, rx, cx, ry, cy)
                        _fill(relaxed, cy, bottom, now, hy, 0)
                        if found:
                            break
                    _fill(relaxed, cx, bottom, height[cx], hx, 0)
                    if found:
                        break
                if found:
                    break
            if found:
                alive[x] = False
                gone[n - left] = (bottom - idx[x]) * w + cx
                gone_in[cx, idx[x]] = 1
                relaxed[bottom - height[cx] + 1, cx] = 0  # the column is one tile lower
                height[cx] -= 1
                left -= 1
                changed = True
    return left > 0, gone[: n - left], work

"""Compiled helpers of the solver (the path kernel itself lives in path.py)."""

from __future__ import annotations

import numpy as np
from numba import njit

from tilegames.link.path import connect


@njit(cache=True)
def doomed(grid: np.ndarray) -> bool:
    """True when some tile can never be removed, whatever is played (a proof of a dead end).

    The relaxation, without gravity: a tile may go as soon as a path joins it to the cell of any
    tile of its kind that is on the board now (that tile may stay). Empties only grow, so every
    removal of the real game is also possible here, at the latest when it happens there; a tile
    this relaxation can never remove (two pairs crossing each other, or any longer cycle of
    tiles blocking each other) cannot be removed in the real game either.
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
    if n == 0:
        return False
    order = np.argsort(kind[:n], kind="mergesort")
    start = np.empty(n, np.int64)  # first index in `order` of each tile's kind
    stop = np.empty(n, np.int64)
    s = 0
    while s < n:
        e = s
        while e < n and kind[order[e]] == kind[order[s]]:
            e += 1
        for i in range(s, e):
            start[order[i]] = s
            stop[order[i]] = e
        s = e
    relaxed = grid.copy()
    alive = np.ones(n, np.bool_)
    left = n
    path = np.empty((4, 2), np.int64)
    changed = True
    while changed and left > 0:
        changed = False
        for i in range(n):
            if not alive[i]:
                continue
            a = pos[i]
            for s in range(start[i], stop[i]):
                j = order[s]
                if j == i:
                    continue
                b = pos[j]
                if connect(relaxed, a // w, a % w, b // w, b % w, path) > 0:
                    alive[i] = False
                    relaxed[a // w, a % w] = 0
                    left -= 1
                    changed = True
                    break
    return left > 0

"""Which pairs confined play could ever join: the static half of the closure search.

Under gravity most random deals die with a few dozen tiles gone, always the same few dozen: the
tiles that can ever go, `may`. The exhaustive search (`exhaust`) confines its play to `may`. It
needs to know which pairs some position of that play could join: a pair with a tile outside
`may` is a way out of it, and its keys (`keys.key`) must disturb no pair that could be joined.
Any position reached by moves inside `may` has a set of tiles gone that is a subset of `may` with
two properties, both of which cut the positions to try here:

- A kind with exactly two tiles in `may` loses both or neither (its pair is its only move): the
  two are one *unit*.
- A unit's tiles must be joinable when it goes, and some tiles must be gone before that in every
  position where they are: all those above a tile whose only way out is up, and so on. Its
  *predecessors* are gone whenever it is (`_needs`).

For a pair `a`, `b`, the units with a tile under `a` or `b` decide where the two sit; every
choice of which of those units are still there (with all that need them) is tried, with every
other unit of `may` gone, which only empties cells (above `a` and `b` too). A pair that no
choice joins is never joined while play keeps to `may` (docs/link.md, solver item 12).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tilegames.link.dense import kind_spans
from tilegames.link.path import joinable

_REL_MOST = 12
"""Units under a pair's tiles above which the choices are not tried: the pair is pairable
(sound, just weaker; 2^12 grids at most per pair)."""


@njit(cache=True)
def _column(
    grid: np.ndarray, c: int, col_first: np.ndarray, kind: np.ndarray, present: np.ndarray,
    bottom: int, row_of: np.ndarray,
) -> None:  # fmt: skip
    """Stack column c's present tiles from the bottom, noting each tile's row."""
    j = 0
    for t in range(col_first[c], col_first[c + 1]):
        if present[t]:
            grid[bottom - j, c] = kind[t]
            row_of[t] = bottom - j
            j += 1
    for r in range(bottom - j, 0, -1):
        grid[r, c] = 0


@njit(cache=True)
def _needs(
    p: int, q: int, col: np.ndarray, first: np.ndarray, may: np.ndarray, low: np.ndarray,
    w: int, out: np.ndarray,
) -> None:  # fmt: skip
    """Mark in `out` the tiles of p's column that must be gone whenever p is joined to q, while
    only tiles of `may` ever go: what every way out of p requires (up, down, a side, or next to
    q). `low[c]` is the fewest tiles column c can keep. A board with the ring is assumed (a
    tile at the bottom or beside the ring has a way out)."""
    c = col[p]
    i = p - first[c]
    top = first[c + 1] - first[c]
    if c == 1 or c == w - 2:
        return  # beside the ring: always a way out
    for nb in (c - 1, c + 1):
        if 0 < nb < w - 1 and low[nb] <= i:
            return  # out to a side, once that column is low enough: nothing of p's column
    ways = 0
    need = np.zeros(top, np.int64)  # how many ways require tile j of the column gone
    lo, hi = i + 1, top  # up: all above
    for way in range(3):
        if way == 1:
            lo, hi = 0, i  # down: all below
        elif way == 2:
            if col[q] != c:
                break
            iq = q - first[c]
            lo, hi = min(i, iq) + 1, max(i, iq)  # next to q: all between
        possible = True
        for j in range(lo, hi):
            possible = possible and may[first[c] + j]
        if possible:
            ways += 1
            for j in range(lo, hi):
                need[j] += 1
    cq = col[q]
    if abs(cq - c) == 1:  # next to q in a neighbouring column: both at one height
        iq = q - first[cq]
        drop_p = 0
        for j in range(i):
            drop_p += may[first[c] + j]
        drop_q = 0
        for j in range(iq):
            drop_q += may[first[cq] + j]
        level = min(i, iq)
        if max(i - drop_p, iq - drop_q) <= level:
            if i - level < drop_p:
                return  # p need not drop all it can: nothing of p's column is certain
            ways += 1
            for j in range(i):
                need[j] += 1
    for j in range(top):
        if ways > 0 and need[j] == ways and may[first[c] + j]:
            out[first[c] + j] = True


@njit(cache=True, nogil=True)
def pairable(
    grid: np.ndarray, col: np.ndarray, kind: np.ndarray, first: np.ndarray, may: np.ndarray
) -> np.ndarray:
    """Which pairs of one kind could be joined in some position that play inside `may` reaches
    (see the module's docstring): `out[a, b]`, both ways. A pair with a tile outside `may` is a
    way out of it; a pair of `may` that is never joinable never goes. `grid` is the padded
    start, with the ring (`exhaust` confines play only then)."""
    h, w = grid.shape
    bottom = h - 2
    n = col.shape[0]
    out = np.zeros((n, n), np.bool_)
    kinds = 0
    for t in range(n):
        kinds = max(kinds, kind[t])
    in_may = np.zeros(kinds + 1, np.int64)
    for t in range(n):
        if may[t]:
            in_may[kind[t]] += 1
    # units: the two tiles of a kind with exactly two in `may`, else one tile each
    unit = np.full(n, -1, np.int64)
    members = np.full((n, 2), -1, np.int64)
    units = 0
    pending = np.full(kinds + 1, -1, np.int64)
    for t in range(n):
        if not may[t]:
            continue
        k = kind[t]
        if in_may[k] == 2 and pending[k] >= 0:
            u = pending[k]
            unit[t] = u
            members[u, 1] = t
            continue
        unit[t] = units
        members[units, 0] = t
        if in_may[k] == 2:
            pending[k] = units
        units += 1
    low = np.zeros(w, np.int64)
    for c in range(1, w - 1):
        for t in range(first[c], first[c + 1]):
            low[c] += 0 if may[t] else 1
    # predecessors, stored as successors: succ[v, :count[v]] are the units that need unit v gone
    succ = np.empty((max(units, 1), max(units, 1)), np.int64)
    count = np.zeros(max(units, 1), np.int64)
    needed = np.zeros(n, np.bool_)
    for u in range(units):
        if members[u, 1] < 0:
            continue
        needed[:] = False
        for side in range(2):
            p, q = members[u, side], members[u, 1 - side]
            _needs(p, q, col, first, may, low, w, needed)
        linked = np.zeros(units, np.bool_)
        for t in range(n):
            if needed[t] and unit[t] >= 0 and unit[t] != u and not linked[unit[t]]:
                linked[unit[t]] = True
                v = unit[t]
                succ[v, count[v]] = u
                count[v] += 1
    # the grid with every tile of `may` gone: the most open every other column can be
    present = ~may
    base = grid.copy()
    row_of = np.zeros(n, np.int64)
    for c in range(1, w - 1):
        _column(base, c, first, kind, present, bottom, row_of)
    kept = np.zeros(units, np.bool_)
    stack = np.empty(units + 2, np.int64)
    rel = np.empty(units + 2, np.int64)
    order, start, stop = kind_spans(kind, n)
    g = base.copy()
    for a in range(n):
        for s in range(start[a], stop[a]):
            b = order[s]
            if b <= a:
                continue
            if may[a] and may[b] and unit[a] == unit[b]:
                out[a, b] = out[b, a] = True  # a unit: its pair is joinable when it goes
                continue
            ca, cb = col[a], col[b]
            m = 0
            for side in range(2):
                c, above = (ca, a) if side == 0 else (cb, b)
                for t in range(first[c], above):  # under a or b: where they sit
                    u = unit[t]
                    if u < 0 or (may[a] and u == unit[a]) or (may[b] and u == unit[b]):
                        continue
                    fresh = True
                    for i in range(m):
                        fresh = fresh and rel[i] != u
                    if fresh:
                        rel[m] = u
                        m += 1
            if m > _REL_MOST:
                out[a, b] = out[b, a] = True
                continue
            for choice in range(1 << m):
                kept[:] = False
                top = 0
                for t in (a, b):
                    if may[t] and not kept[unit[t]]:
                        kept[unit[t]] = True
                        stack[top] = unit[t]
                        top += 1
                for i in range(m):
                    if (choice >> i) & 1:
                        kept[rel[i]] = True
                        stack[top] = rel[i]
                        top += 1
                while top > 0:  # and every unit that needs one of them gone
                    top -= 1
                    v = stack[top]
                    for i in range(count[v]):
                        x = succ[v, i]
                        if not kept[x]:
                            kept[x] = True
                            stack[top] = x
                            top += 1
                g[:, :] = base
                for t in range(n):
                    present[t] = (not may[t]) or kept[unit[t]]
                for c in range(1, w - 1):
                    _column(g, c, first, kind, present, bottom, row_of)
                if joinable(g, row_of[a], ca, row_of[b], cb):
                    out[a, b] = out[b, a] = True
                    break
    return out

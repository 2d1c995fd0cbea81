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
  position where they are: all those above a tile whose only way out is up, and so on (`_needs`),
  and every unit that, while there, leaves it joined in none of its ways (`_goes_only_after`).
  Its *predecessors* are gone whenever it is. A tile whose unit needs x's gone is *pinned*
  under x: it stays while x does.

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
def stack_column(
    grid: np.ndarray, c: int, col_first: np.ndarray, kind: np.ndarray, present: np.ndarray,
    bottom: int, row_of: np.ndarray,
) -> None:  # fmt: skip
    """Stack column c's present tiles from the bottom (tiles numbered as `exhaust.tiles` numbers
    them), emptying the cells above, and note each tile's row."""
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


@njit(cache=True)
def _units(kind: np.ndarray, may: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """The units of `may`: the two tiles of a kind with exactly two in it are one; every other
    tile of `may` is a unit alone. (each tile's unit or -1, each unit's members, how many)"""
    n = kind.shape[0]
    kinds = 0
    for t in range(n):
        kinds = max(kinds, kind[t])
    in_may = np.zeros(kinds + 1, np.int64)
    for t in range(n):
        if may[t]:
            in_may[kind[t]] += 1
    unit = np.full(n, -1, np.int64)
    members = np.full((n, 2), -1, np.int64)
    units = 0
    pending = np.full(kinds + 1, -1, np.int64)
    for t in range(n):
        if not may[t]:
            continue
        k = kind[t]
        if in_may[k] == 2 and pending[k] >= 0:
            unit[t] = pending[k]
            members[pending[k], 1] = t
            continue
        unit[t] = units
        members[units, 0] = t
        if in_may[k] == 2:
            pending[k] = units
        units += 1
    return unit, members, units


@njit(cache=True)
def _closed(
    kept: np.ndarray, stack: np.ndarray, top: int, succ: np.ndarray, count: np.ndarray
) -> None:
    """Keep every unit that needs a kept one gone: the units on `stack[:top]` are kept already."""
    while top > 0:
        top -= 1
        v = stack[top]
        for i in range(count[v]):
            x = succ[v, i]
            if not kept[x]:
                kept[x] = True
                stack[top] = x
                top += 1


@njit(cache=True)
def _joined(
    g: np.ndarray, a: int, b: int, kept: np.ndarray, col: np.ndarray, kind: np.ndarray,
    first: np.ndarray, may: np.ndarray, unit: np.ndarray, present: np.ndarray,
    row_of: np.ndarray,
) -> bool:  # fmt: skip
    """Are a and b joinable with the units of `kept` there and the rest of `may` gone?"""
    h, w = g.shape
    for t in range(col.shape[0]):
        present[t] = (not may[t]) or kept[unit[t]]
    for c in range(1, w - 1):
        stack_column(g, c, first, kind, present, h - 2, row_of)
    return joinable(g, row_of[a], col[a], row_of[b], col[b])


@njit(cache=True)
def _ways(
    a: int, b: int, base: np.ndarray, col: np.ndarray, kind: np.ndarray, first: np.ndarray,
    may: np.ndarray, unit: np.ndarray, succ: np.ndarray, count: np.ndarray, ways: np.ndarray,
    found: int, most: int, tried: np.ndarray,
) -> int:  # fmt: skip
    """Which units could be there when a and b are joined? Every choice of which units under
    them are there is tried, with every unit that needs one there gone (`succ`) there too and
    the rest of `may` gone (`base`: the grid with all of `may` gone). Each choice that joins
    them is written to `ways[found]`, `ways[found + 1]`, ... (the units there); the count of
    them after `found` is returned, or `len(ways)` once there is no room for another (more
    than `most` units under a and b count as no room). `tried[0]` counts the grids tried."""
    n = col.shape[0]
    units = count.shape[0]
    ca, cb = col[a], col[b]
    rel = np.empty(units, np.int64)
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
    if m > most:
        return int(ways.shape[0])
    stack = np.empty(units + 2, np.int64)
    present = np.empty(n, np.bool_)
    row_of = np.zeros(n, np.int64)
    g = base.copy()
    for choice in range(1 << m):
        tried[0] += 1
        kept = ways[found]
        kept[:] = False
        top = 0
        for u in (unit[a] if may[a] else -1, unit[b] if may[b] else -1):
            if u >= 0 and not kept[u]:
                kept[u] = True
                stack[top] = u
                top += 1
        for i in range(m):
            if (choice >> i) & 1:
                kept[rel[i]] = True
                stack[top] = rel[i]
                top += 1
        _closed(kept, stack, top, succ, count)
        if _joined(g, a, b, kept, col, kind, first, may, unit, present, row_of):
            found += 1
            if found == ways.shape[0]:
                return found
    return found


_WAYS = 8
"""The most ways a unit can be joined for `reckon` to look for units that must be gone first."""

_TRIES = 100_000
"""The most grids `reckon` tries in its search for units that must go first (a few hundred ms
on 24x12): past it, those are the ones found so far (sound, just weaker)."""


@njit(cache=True)
def _goes_only_after(
    v: int, u: int, ways: np.ndarray, partner: np.ndarray, found: int, col: np.ndarray,
    kind: np.ndarray, first: np.ndarray, may: np.ndarray, unit: np.ndarray, members: np.ndarray,
    succ: np.ndarray, count: np.ndarray, kept: np.ndarray, stack: np.ndarray,
    present: np.ndarray, row_of: np.ndarray, g: np.ndarray,
) -> bool:  # fmt: skip
    """Is unit v joined in none of its `found` ways (all it has) while unit u is there, so that
    u is gone whenever v is? A unit of two is joined to itself, a tile alone to another of its
    kind in `may` (`ways` as `_ways` writes them, joined to `partner`)."""
    p = members[v, 0]
    for i in range(found):
        if ways[i, u]:
            return False
        kept[:] = ways[i]
        kept[u] = True
        stack[0] = u
        _closed(kept, stack, 1, succ, count)
        if _joined(g, p, partner[i], kept, col, kind, first, may, unit, present, row_of):
            return False
    return True


@njit(cache=True, nogil=True)
def reckon(
    grid: np.ndarray, col: np.ndarray, kind: np.ndarray, first: np.ndarray, may: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What confined play can do (see the module's docstring): `pairable[a, b]`, the pairs of
    one kind that some position of play inside `may` could join, both ways, `pinned[x, z]`,
    the tiles z of `may` under x in its column that stay while x does (z's unit goes only after
    x's), and `before[a, b]`, the tiles b of `may` that go only after a, wherever they are (b's
    unit needs a's gone: `seal` adds it to its model). A pair with a tile outside `may` is a way
    out of it; a pair of `may` that is never joinable never goes. `grid` is the padded start,
    with the ring (`exhaust` confines play only then)."""
    h, w = grid.shape
    bottom = h - 2
    n = col.shape[0]
    unit, members, units = _units(kind, may)
    low = np.zeros(w, np.int64)
    for c in range(1, w - 1):
        for t in range(first[c], first[c + 1]):
            low[c] += 0 if may[t] else 1
    # predecessors, stored as successors: succ[v, :count[v]] are the units that need unit v gone
    size = max(units, 1)
    succ = np.empty((size, size), np.int64)
    count = np.zeros(size, np.int64)
    linked = np.zeros((size, size), np.bool_)  # linked[v, u]: u needs v gone
    needed = np.zeros(n, np.bool_)
    for u in range(units):
        if members[u, 1] < 0:
            continue
        needed[:] = False
        for side in range(2):
            p, q = members[u, side], members[u, 1 - side]
            _needs(p, q, col, first, may, low, w, needed)
        for t in range(n):
            if needed[t] and unit[t] >= 0 and unit[t] != u and not linked[unit[t], u]:
                v = unit[t]
                linked[v, u] = True
                succ[v, count[v]] = u
                count[v] += 1
    # the grid with every tile of `may` gone: the most open every other column can be
    base = grid.copy()
    row_of = np.zeros(n, np.int64)
    never = ~may
    for c in range(1, w - 1):
        stack_column(base, c, first, kind, never, bottom, row_of)
    # more predecessors: u is one of v's if v is joined in none of its ways while u is there;
    # each found keeps more units there in the tests after it, so to a fixed point
    ways = np.zeros((_WAYS + 1, size), np.bool_)
    partner = np.zeros(_WAYS + 1, np.int64)
    kept = np.zeros(size, np.bool_)
    stack = np.empty(size + 2, np.int64)
    present = np.empty(n, np.bool_)
    g = base.copy()
    changed = True
    tried = np.zeros(1, np.int64)  # grids tried, by `_ways` and here
    while changed and tried[0] < _TRIES:
        changed = False
        for v in range(units):
            p, found = members[v, 0], 0
            for r in range(n):
                if found <= _WAYS and r != p and may[r] and kind[r] == kind[p]:
                    start = found
                    found = _ways(
                        p, r, base, col, kind, first, may, unit, succ, count, ways, found,
                        _REL_MOST, tried,
                    )  # fmt: skip
                    partner[start:found] = r
            if found == 0 or found > _WAYS or tried[0] >= _TRIES:
                continue  # never joined (it goes after every unit), too many ways, tried enough
            tried[0] += units * found
            for u in range(units):
                if u != v and not linked[u, v] and _goes_only_after(
                    v, u, ways, partner, found, col, kind, first, may, unit, members, succ,
                    count, kept, stack, present, row_of, g,
                ):  # fmt: skip
                    linked[u, v] = True
                    succ[u, count[u]] = v
                    count[u] += 1
                    changed = True
    out = np.zeros((n, n), np.bool_)
    order, start, stop = kind_spans(kind, n)
    for a in range(n):
        for s in range(start[a], stop[a]):
            b = order[s]
            if b <= a:
                continue
            if (may[a] and may[b] and unit[a] == unit[b]) or _ways(
                a, b, base, col, kind, first, may, unit, succ, count, ways[:1], 0, _REL_MOST, tried
            ):  # a unit's pair is joinable when it goes
                out[a, b] = out[b, a] = True
    # pinned: z under x of x's unit, or whose unit needs x's gone, directly or through others
    after = np.zeros((size, size), np.bool_)  # after[v, u]: u needs v gone, transitively
    stack = np.empty(size * size + 1, np.int64)
    for v in range(units):
        top = 0
        for i in range(count[v]):
            stack[top] = succ[v, i]
            top += 1
        while top > 0:
            top -= 1
            u = stack[top]
            if after[v, u]:
                continue
            after[v, u] = True
            for i in range(count[u]):
                stack[top] = succ[u, i]
                top += 1
    pinned = np.zeros((n, n), np.bool_)
    for x in range(n):
        if not may[x]:
            continue
        for z in range(first[col[x]], x):
            if may[z] and (unit[z] == unit[x] or after[unit[x], unit[z]]):
                pinned[x, z] = True
    before = np.zeros((n, n), np.bool_)  # before[a, b]: b's unit needs a's gone
    for a in range(n):
        for b in range(n):
            if may[a] and may[b] and unit[a] != unit[b] and after[unit[a], unit[b]]:
                before[a, b] = True
    return out, pinned, before


def pairable(
    grid: np.ndarray, col: np.ndarray, kind: np.ndarray, first: np.ndarray, may: np.ndarray
) -> np.ndarray:
    """The pairs that some position of play inside `may` could join (`reckon`)."""
    return reckon(grid, col, kind, first, may)[0]

"""Numba kernels for building a pattern database layer by layer, without a queue.

A search state is a placement of the pattern tiles (its rank `r`) plus the region the blank can reach
without moving a pattern tile (moving other tiles is free). One record per placement holds the union
of the regions reached so far (a cell mask, little-endian bytes) and the depth the placement was first
reached at (the last byte, 255 = not yet). Layer `d` is expanded by scanning the records for depth
`d`: that replaces the breadth-first queue (gigabytes for the 7-8 tables) by a sequential pass.

A region reached later than its placement's depth (a *late* region: the blank walled off in another
part of the board) cannot be told apart in the record, so it also goes to a list (one int64 each:
rank, a flag, one cell of the region) that is expanded with the next layer. Its bits join the record at once when the placement's layer is already
behind, and after the scan when it is the layer being scanned (else it would be expanded too early).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tilegames.slide.solve.pdb_kernels import _unrank_cells, rank_cells

_UNSEEN = 255
MAX_MOVES = 64  # at most 4 moves for each of at most 16 pattern tiles


@njit(cache=True, inline="always")
def _flood(start, occupied, geom):
    """Bit mask of the free cells connected to `start`, by whole-board shifts (no stack).

    `geom` = [width, all cells, cells not in the last column, cells not in the first column].
    """
    w = geom[0]
    free = geom[1] & ~occupied
    m = np.uint64(1) << np.uint64(start)
    while True:
        grown = m | (
            (((m & geom[2]) << np.uint64(1)) | ((m & geom[3]) >> np.uint64(1))
             | (m << w) | (m >> w)) & free
        )  # fmt: skip
        if grown == m:
            return m
        m = grown


@njit(cache=True)
def _moved_rank(r, cells, i, q, k, factors):
    """The rank after tile `i` moves from its cell to the neighbouring cell `q`: O(k), not O(k²).

    Only tiles on cells strictly between the old and the new cell (a vertical move passes
    width − 1 of them) change their "smaller earlier cells" counts.
    """
    c = cells[i]
    lo, hi = (c, q) if c < q else (q, c)
    sign = 1 if q > c else -1
    before = 0
    r += (q - c) * factors[i]
    for j in range(k):
        x = cells[j]
        if lo < x < hi:
            if j < i:
                before += 1
            else:
                r += sign * factors[j]
    return r - sign * before * factors[i]


@njit(cache=True)
def geometry(width, height):
    """The masks `_flood` needs for a width×height board."""
    n = width * height
    full = np.uint64(0)
    notlast = np.uint64(0)
    notfirst = np.uint64(0)
    for c in range(n):
        bit = np.uint64(1) << np.uint64(c)
        full |= bit
        if c % width != width - 1:
            notlast |= bit
        if c % width != 0:
            notfirst |= bit
    return np.array([np.uint64(width), full, notlast, notfirst], np.uint64)


@njit(cache=True)
def read_mask(rec, r, mb):
    m = np.uint64(0)
    for j in range(mb):
        m |= np.uint64(rec[r, j]) << np.uint64(8 * j)
    return m


@njit(cache=True)
def _or_mask(rec, r, mb, mask):
    for j in range(mb):
        rec[r, j] |= np.uint8((mask >> np.uint64(8 * j)) & np.uint64(255))


@njit(cache=True)
def layers_init(rec, labels, k, n, b, factors, geom, mb):
    """The goal: pattern tiles home, the blank's region around its goal cell, depth 0."""
    cells = labels[:k].copy()
    occupied = np.uint64(0)
    for i in range(k):
        occupied |= np.uint64(1) << np.uint64(cells[i])
    r = rank_cells(cells, k, n, factors)
    _or_mask(rec, r, mb, _flood(b, occupied, geom))
    rec[r, mb] = 0


@njit(cache=True)
def _expand(rec, r, cells, mask, depth, k, n, factors, nbr, geom, mb, scratch, late, nlate):
    """Generate the successors of placement `cells` (rank `r`) with the blank anywhere in `mask`.

    Returns (placements newly reached, late entries now in `late`).
    """
    one = np.uint64(1)
    occupied = _occupied(cells, k)
    # The successors' ranks first, then one read of each record: the cache misses overlap.
    moves = 0
    for i in range(k):
        c = cells[i]
        for d in range(4):
            q = nbr[c, d]
            if q < 0 or not (mask >> np.uint64(q)) & one:
                continue
            scratch[moves, 0] = _moved_rank(r, cells, i, q, k, factors)
            scratch[moves, 1] = c
            scratch[moves, 2] = q
            moves += 1
    warm = 0
    for m in range(moves):
        warm += rec[scratch[m, 0], mb]
    scratch[MAX_MOVES - 1, 3] = warm  # keeps the reads
    filled = 0
    nxt = depth + 1
    for m in range(moves):
        r2, c, q = scratch[m, 0], scratch[m, 1], scratch[m, 2]
        have = read_mask(rec, r2, mb)
        if (have >> np.uint64(c)) & one:
            continue
        occ2 = (occupied & ~(one << np.uint64(c))) | (one << np.uint64(q))
        region = _flood(c, occ2, geom)
        seen = rec[r2, mb]
        if seen == _UNSEEN:
            rec[r2, mb] = nxt
            filled += 1
            _or_mask(rec, r2, mb, region)
        elif seen == nxt:
            _or_mask(rec, r2, mb, region)
        else:
            deferred = 0
            if seen < depth:  # its layer is behind us: mark it visited now
                _or_mask(rec, r2, mb, region)
            else:
                deferred = 1
            late[nlate] = (r2 << 7) | (deferred << 6) | c
            nlate += 1
    return filled, nlate


@njit(cache=True)
def layers_scan(rec, start, stop, depth, k, n, factors, nbr, geom, mb, late, nlate):
    """Expand the placements of rank start..stop−1 first reached at `depth`, with the regions in their
    records. Late regions found go to `late` (from row `nlate`).

    Returns (next rank to scan, placements newly reached, rows of `late` used); stops early, before
    a placement whose successors might not fit in `late`.
    """
    cells = np.empty(k, np.int64)
    scratch = np.zeros((MAX_MOVES, 4), np.int64)
    filled = 0
    d8 = np.uint8(depth)
    cap = late.shape[0] - 4 * k
    for r in range(start, stop):
        if rec[r, mb] != d8:
            continue
        if nlate > cap:
            return r, filled, nlate
        _unrank_cells(r, k, n, factors, cells)
        mask = read_mask(rec, r, mb)
        got, nlate = _expand(
            rec, r, cells, mask, depth, k, n, factors, nbr, geom, mb, scratch, late, nlate
        )
        filled += got
    return stop, filled, nlate


@njit(cache=True)
def _occupied(cells, k):
    occupied = np.uint64(0)
    for i in range(k):
        occupied |= np.uint64(1) << np.uint64(cells[i])
    return occupied


@njit(cache=True)
def layers_late(rec, todo, count, depth, k, n, factors, nbr, geom, mb, late, nlate):
    """Expand the late regions `todo[:count]` (rank << 7 | deferred << 6 | a cell of the region)
    at `depth`, like `layers_scan`.

    Returns (entries of `todo` done, placements newly reached, rows of `late` used).
    """
    cells = np.empty(k, np.int64)
    scratch = np.zeros((MAX_MOVES, 4), np.int64)
    filled = 0
    cap = late.shape[0] - 4 * k
    for j in range(count):
        if nlate > cap:
            return j, filled, nlate
        r = todo[j] >> 7
        _unrank_cells(r, k, n, factors, cells)
        region = _flood(todo[j] & 63, _occupied(cells, k), geom)
        got, nlate = _expand(
            rec, r, cells, region, depth, k, n, factors, nbr, geom, mb, scratch, late, nlate
        )
        filled += got
    return count, filled, nlate


@njit(cache=True)
def layers_merge(rec, late, count, k, n, factors, geom, mb):
    """OR the deferred late regions into their records (after the layer that must not see them)."""
    cells = np.empty(k, np.int64)
    for j in range(count):
        if (late[j] >> 6) & 1:
            r = late[j] >> 7
            _unrank_cells(r, k, n, factors, cells)
            _or_mask(rec, r, mb, _flood(late[j] & 63, _occupied(cells, k), geom))


@njit(cache=True)
def layers_compact(flat, entries, width):
    """Move each record's depth byte to the front, in place: flat[i] = depth of placement i."""
    for i in range(entries):
        flat[i] = flat[i * width + width - 1]


@njit(cache=True)
def mirror_table(source, k, n, factors, cell_map, order, out):
    """The table of a mirrored pattern from its mirror image's: no search at all.

    The target pattern's tile j is the image under `cell_map` of the source's tile `order[j]`; a
    placement y of the target is the mirror of the source placement x with x[order[j]] = map(y[j]),
    which is exactly as far from the (symmetric) goal.
    """
    y = np.empty(k, np.int64)
    x = np.empty(k, np.int64)
    for r in range(out.shape[0]):
        _unrank_cells(r, k, n, factors, y)
        for j in range(k):
            x[order[j]] = cell_map[y[j]]
        out[r] = source[rank_cells(x, k, n, factors)]

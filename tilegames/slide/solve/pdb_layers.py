"""Numba kernels for building a pattern database layer by layer, without a queue, on every core.

A search state is a placement of the pattern tiles (its rank `r`) plus the region the blank can reach
without moving a pattern tile (moving other tiles is free). One record per placement holds the union
of the regions reached so far and the depth the placement was first reached at (the last byte, 255 =
not yet). The regions are stored as a mask over the placement's *free* cells only (n − k bits: one byte
for the 8-tile table of 4×4, so 2-byte records). Layer `d` is expanded by scanning the records for
depth `d`: that replaces the breadth-first queue (gigabytes for the 7-8 tables) by a sequential pass.

Both cores, without races: a move of tile i ≥ 1 keeps tile 0's cell, so the placements split into
blocks by tile 0's cell (contiguous ranks) whose successors stay in the block; one task per block
expands those moves (`tiles` = 1..k). Tile 0's moves keep tile 1's cell: a second pass with one task
per cell of tile 1. Each task writes only records of its own block.

A region reached later than its placement's depth (a *late* region: the blank walled off in another
part of the board) cannot be told apart in the record, so it also goes to a list (one int64 each:
rank << 7 | deferred << 6 | one cell of the region) that is expanded with the next layer. Its bits
join the record at once when the placement's layer is already behind, and after the layer when it is
the layer being expanded (else it would be expanded too early).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from tilegames.slide.solve.pdb_kernels import _unrank_cells, rank_cells

_UNSEEN = 255
MAX_MOVES = 64  # at most 4 moves for each of at most 16 pattern tiles


@njit(cache=True)
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
def _popcount(x):
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return (x * np.uint64(0x0101010101010101)) >> np.uint64(56)


@njit(cache=True)
def _free_index(c, occupied):
    """The bit of free cell `c` in a packed mask: how many free cells come before it."""
    below = (np.uint64(1) << np.uint64(c)) - np.uint64(1)
    return np.uint64(c) - _popcount(occupied & below)


@njit(cache=True)
def pack(mask, occupied, n):
    """`mask` (a set of free cells) as bits over the free cells only, in cell order."""
    out = np.uint64(0)
    j = np.uint64(0)
    one = np.uint64(1)
    for c in range(n):
        bit = one << np.uint64(c)
        if not occupied & bit:
            if mask & bit:
                out |= one << j
            j += one
    return out


@njit(cache=True)
def unpack(packed, occupied, n):
    """Inverse of `pack`."""
    out = np.uint64(0)
    j = np.uint64(0)
    one = np.uint64(1)
    for c in range(n):
        bit = one << np.uint64(c)
        if not occupied & bit:
            if (packed >> j) & one:
                out |= bit
            j += one
    return out


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
def _occupied(cells, k):
    occupied = np.uint64(0)
    for i in range(k):
        occupied |= np.uint64(1) << np.uint64(cells[i])
    return occupied


@njit(cache=True)
def layers_init(rec, labels, k, n, b, factors, geom, mb):
    """The goal: pattern tiles home, the blank's region around its goal cell, depth 0."""
    cells = labels[:k].copy()
    occupied = _occupied(cells, k)
    r = rank_cells(cells, k, n, factors)
    _or_mask(rec, r, mb, pack(_flood(b, occupied, geom), occupied, n))
    rec[r, mb] = 0


@njit(cache=True)
def _expand(rec, r, cells, mask, depth, tiles, k, n, factors, nbr, geom, mb, scratch, late, nlate):
    """Successors of placement `cells` (rank `r`) with the blank anywhere in `mask`, by moves of the
    tiles `tiles[0]..tiles[1]−1`. Returns (placements newly reached, entries now in `late`)."""
    one = np.uint64(1)
    occupied = _occupied(cells, k)
    # The successors' ranks first, then one read of each record: the cache misses overlap.
    moves = 0
    for i in range(tiles[0], tiles[1]):
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
        occ2 = (occupied & ~(one << np.uint64(c))) | (one << np.uint64(q))
        if (read_mask(rec, r2, mb) >> _free_index(c, occ2)) & one:
            continue
        region = pack(_flood(c, occ2, geom), occ2, n)
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


@njit(cache=True, parallel=True)
def layers_scan(rec, starts, length, off, depth, tiles, k, n, factors, nbr, geom, mb, late, nlate):
    """Expand, in parallel over the tasks, the placements first reached at `depth`, by moves of
    `tiles`. Task t scans the ranks starts[t, j] .. starts[t, j] + length − 1 for each j, from its
    offset `off[t]`; its late regions go to late[t] (from nlate[t]). A task stops early, before a
    placement whose successors might not fit: `off` and `nlate` say where each task got to.

    Returns the number of placements newly reached.
    """
    ntasks, nruns = starts.shape
    filled = np.zeros(ntasks, np.int64)
    d8 = np.uint8(depth)
    cap = late.shape[1] - 4 * k
    for t in prange(ntasks):
        cells = np.empty(k, np.int64)
        scratch = np.zeros((MAX_MOVES, 4), np.int64)
        o = off[t]
        nl = nlate[t]
        got = 0
        full = False
        for j in range(o // length, nruns):
            base = starts[t, j]
            for r in range(base + o - j * length, base + length):
                if rec[r, mb] == d8:
                    if nl > cap:
                        full = True
                        o = j * length + (r - base)
                        break
                    _unrank_cells(r, k, n, factors, cells)
                    occupied = _occupied(cells, k)
                    mask = unpack(read_mask(rec, r, mb), occupied, n)
                    f, nl = _expand(
                        rec, r, cells, mask, depth, tiles, k, n, factors, nbr, geom, mb,
                        scratch, late[t], nl,
                    )  # fmt: skip
                    got += f
            if full:
                break
            o = (j + 1) * length
        off[t] = o
        nlate[t] = nl
        filled[t] = got
    return filled.sum()


@njit(cache=True)
def task_of(r, key, n, factors):
    """The task (block) of rank `r` in a pass: tile 0's cell (key 0), tile 1's cell (key 1), or the
    one task of a single-tile pattern (key 2)."""
    if key == 2:
        return 0
    c0 = r // factors[0]
    if key == 0:
        return c0
    d1 = (r // factors[1]) % (n - 1)
    return d1 + 1 if d1 >= c0 else d1


@njit(cache=True, parallel=True)
def layers_late(
    rec, todo, count, key, off, depth, tiles, k, n, factors, nbr, geom, mb, late, nlate
):
    """Expand the late regions todo[:count] (rank << 7 | deferred << 6 | a cell of the region) at
    `depth`, in parallel without sorting them: worker w (one per row of `late`) scans them all from
    off[w] and takes those whose task (`task_of`) is ≡ w, so each task's block has one writer.
    Stops early like `layers_scan`. Returns the number of placements newly reached.
    """
    workers = late.shape[0]
    filled = np.zeros(workers, np.int64)
    cap = late.shape[1] - 4 * k
    for w in prange(workers):
        cells = np.empty(k, np.int64)
        scratch = np.zeros((MAX_MOVES, 4), np.int64)
        nl = nlate[w]
        got = 0
        j = off[w]
        while j < count and nl <= cap:
            r = todo[j] >> 7
            if task_of(r, key, n, factors) % workers == w:
                _unrank_cells(r, k, n, factors, cells)
                region = _flood(todo[j] & 63, _occupied(cells, k), geom)
                f, nl = _expand(
                    rec, r, cells, region, depth, tiles, k, n, factors, nbr, geom, mb,
                    scratch, late[w], nl,
                )  # fmt: skip
                got += f
            j += 1
        off[w] = j
        nlate[w] = nl
        filled[w] = got
    return filled.sum()


@njit(cache=True)
def layers_merge(rec, late, count, k, n, factors, geom, mb):
    """OR the deferred late regions into their records (after the layer that must not see them)."""
    cells = np.empty(k, np.int64)
    for j in range(count):
        if (late[j] >> 6) & 1:
            r = late[j] >> 7
            _unrank_cells(r, k, n, factors, cells)
            occupied = _occupied(cells, k)
            _or_mask(rec, r, mb, pack(_flood(late[j] & 63, occupied, geom), occupied, n))


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

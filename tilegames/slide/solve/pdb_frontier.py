"""Numba kernels for the frontier-code pattern-database builder: one scan per layer, no late lists.

A search state is a placement of the pattern tiles (rank `r`) plus one connected region of its free
cells (where the blank can go without moving a pattern tile). Each placement has one record with a
2-bit code per *free* cell (n − k cells, packed in cell order: the low n − k bits are plane X, the
next n − k plane Y); all cells of one region share a code:

    X Y
    0 0   not reached
    1 0   reached and expanded (old)
    0 1   frontier, depth even
    1 1   frontier, depth odd

Layer `d` expands the cells whose frontier parity is d's and turns them old; what it reaches gets
the other parity. So a region reached later than its placement (the blank walled off elsewhere) is
just another frontier region of the same record: no list, one scan per layer. `depth[r]` is set
when a record is first reached: that byte array is the table itself.

Two workers without races: the ranks split into blocks by tile 0's cell (its rank digit), and a move
of tile i ≥ 1 stays in its block, so each scan task writes only its own block. Tile 0's new states
go to a buffer (rank, region, free cells) that `frontier_apply` applies afterwards, each worker the
blocks `b % workers == worker`. Reading another block's record only to skip a state already reached
is safe while it is being written: a cell, once reached, stays reached.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from tilegames.slide.solve.pdb_kernels import _unrank_from, rank_cells
from tilegames.slide.solve.pdb_layers import _flood

MAX_MOVES = 64  # at most 4 moves for each of at most 16 pattern tiles
CHUNK_SHIFT = 12  # records per "has a frontier of parity p" flag: 4,096
_BUDGET = 1 << 21  # records expanded by one worker alone between returns (progress updates)


@intrinsic
def _popcount(typingctx, x):
    """Set bits of a uint64 (LLVM's ctpop: one instruction where the CPU has it)."""

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.uint64(types.uint64), codegen


@intrinsic
def _lowest(typingctx, x):
    """Index of the lowest set bit of a non-zero uint64 (LLVM's cttz)."""

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], cgutils.true_bit)

    return types.uint64(types.uint64), codegen


@njit(cache=True, inline="always")
def _pext(x, mask):
    """The bits of `x` at the set bits of `mask`, packed to the low end."""
    x = np.uint64(x)
    out = np.uint64(0)
    j = np.uint64(0)
    m = np.uint64(mask)
    while m:
        out |= ((x >> _lowest(m)) & np.uint64(1)) << j
        j += np.uint64(1)
        m &= m - np.uint64(1)
    return out


@njit(cache=True, inline="always")
def _pdep(x, mask):
    """The low bits of `x` spread to the set bits of `mask` (inverse of `_pext`)."""
    x = np.uint64(x)
    out = np.uint64(0)
    j = np.uint64(0)
    m = np.uint64(mask)
    while m:
        out |= ((x >> j) & np.uint64(1)) << _lowest(m)
        j += np.uint64(1)
        m &= m - np.uint64(1)
    return out


@njit(cache=True, inline="always")
def _apply(rec, depth, active, r2, region, free2, nd, f, fm, block, lo, cpb):
    """Give the region `region` of placement r2 (free cells `free2`) depth `nd` unless reached.

    Returns (new states, new placements): (0, 0), (1, 0) or (1, 1).
    """
    v = np.uint64(rec[r2])
    packed = _pext(region, free2)
    if ((v | (v >> np.uint64(f))) & fm) & packed:
        return 0, 0
    x = v & fm
    y = (v >> np.uint64(f)) | packed
    parity = nd & 1
    if parity:
        x |= packed
    rec[r2] = x | (y << np.uint64(f))
    active[parity, block * cpb + ((r2 - lo) >> CHUNK_SHIFT)] = 1
    if v == 0:
        depth[r2] = nd
        return 1, 1
    return 1, 0


@njit(cache=True)
def _suffix_table(n, k, prefix, group, factors):
    """For each rank modulo `group`, the last k − prefix (at most 3) tiles' indices into the sorted
    list of the cells the first `prefix` tiles leave free: no division per record."""
    table = np.zeros((group, 3), np.int64)
    for rem in range(group):
        x = rem
        taken = 0
        for t in range(k - prefix):
            q = x // factors[prefix + t]
            x -= q * factors[prefix + t]
            j = 0
            while True:  # the q-th index not taken by an earlier suffix tile
                if not (taken >> j) & 1:
                    if q == 0:
                        break
                    q -= 1
                j += 1
            table[rem, t] = j
            taken |= 1 << j
    return table


@njit(cache=True, inline="always")
def _moved_rank_at(r, i, c, q, occupied, earlier, fac_at, factors):
    """``pdb_layers._moved_rank` from the board: a sideways move passes no tile; a vertical one passes the
    tiles on the cells between, those before tile i (`earlier[i]`: their cells) counted at once,
    the others adding their factor (`fac_at[cell]`)."""
    r += (q - c) * factors[i]
    if q == c + 1 or q == c - 1:
        return r
    lo, hi = (c, q) if c < q else (q, c)
    one = np.uint64(1)
    between = occupied & ((one << np.uint64(hi)) - (one << np.uint64(lo + 1)))
    if between == 0:
        return r
    sign = 1 if q > c else -1
    rest = between & ~earlier[i]
    while rest:
        r += sign * fac_at[_lowest(rest)]
        rest &= rest - one
    return r - sign * np.int64(_popcount(between & earlier[i])) * factors[i]


@njit(cache=True)
def frontier_init(rec, depth, active, labels, k, n, blank, factors, geom):
    """The goal: pattern tiles home, the blank's region around its goal cell, depth 0."""
    cells = labels[:k].copy()
    occupied = np.uint64(0)
    for i in range(k):
        occupied |= np.uint64(1) << np.uint64(cells[i])
    r = rank_cells(cells, k, n, factors)
    free = geom[1] & ~occupied
    cpb = (factors[0] + (1 << CHUNK_SHIFT) - 1) >> CHUNK_SHIFT
    block = r // factors[0]
    _apply(rec, depth, active, r, _flood(blank, occupied, geom), free, 0, n - k,
           (np.uint64(1) << np.uint64(n - k)) - np.uint64(1), block, block * factors[0], cpb)  # fmt: skip


@njit(cache=True, nogil=True)
def frontier_scan(
    rec, words, depth, active, block, start, end, d, k, n, factors, nbr, geom, out, count, inplace,
    halt,
):  # fmt: skip
    """Expand the frontier of parity d of the records of tile 0's block `block`, ranks start..end−1
    (`end` at a chunk boundary of the block or its end).
    `words` is `rec`'s memory as uint64: runs of records without a frontier are skipped a word
    at a time.

    Moves of tiles 1..k−1 are applied at once; tile 0's go to `out` (rows [rank, region | free << 32])
    from row `count`, unless `inplace` (one worker: applied at once too). Returns (next rank, rows
    of `out` used, new states, new placements); the next rank is below `end` when `out`
    had no room for another record's moves (then `halt[0]` is set, which stops every worker's scan
    at its next record: the buffers are applied, and the scans resumed), or, alone (`inplace`),
    after `_BUDGET` records, for a progress update.
    """
    one = np.uint64(1)
    f = n - k
    fm = (one << np.uint64(f)) - one
    per_word = 8 // rec.itemsize
    word_shift = 3 if per_word == 8 else 2 if per_word == 4 else 1 if per_word == 2 else 0
    lanes = np.uint64(0)
    for lane in range(per_word):
        lanes |= fm << np.uint64(8 * rec.itemsize * lane)
    full = geom[1]
    span = factors[0]
    lo = block * span
    cpb = (span + (1 << CHUNK_SHIFT) - 1) >> CHUNK_SHIFT
    parity = d & 1
    nd = d + 1
    cells = np.empty(k, np.int64)
    scratch = np.zeros((MAX_MOVES, 3), np.int64)
    # The last three tiles' cells change fastest: unrank the first k − 3 once per run of ranks, the
    # last three from a table (indices into the cells the first k − 3 leave free).
    prefix = max(k - 3, 0)
    group = factors[prefix - 1] if prefix > 0 else factors[0] * n
    suffix = _suffix_table(n, k, prefix, group, factors)
    freelist = np.empty(n, np.int64)
    tile_at = np.zeros(n, np.int64)
    fac_at = np.zeros(n, np.int64)
    earlier = np.zeros(k + 1, np.uint64)  # cells of tiles 0..i−1
    gstart, gnext = 0, lo  # the current run of ranks with the same first k − 2 tiles
    head = np.uint64(0)
    width = geom[0]
    w = np.int64(width)
    sink = np.zeros(1, np.uint64)
    states = 0
    placed = 0
    expanded = 0
    cap = out.shape[0] - 4
    r = start
    while r < end:
        ch = (r - lo) >> CHUNK_SHIFT
        stop = min(end, lo + ((ch + 1) << CHUNK_SHIFT))
        flag = block * cpb + ch
        if active[parity, flag] == 0:
            r = stop
            continue
        active[parity, flag] = 0
        while r < stop:
            if (r & (per_word - 1)) == 0 and r + per_word <= stop:
                wv = words[r >> word_shift]
                xl = wv & lanes
                yl = (wv >> np.uint64(f)) & lanes
                if (yl & xl if parity else yl & ~xl) == 0:
                    r += per_word
                    continue
            v = np.uint64(rec[r])
            x = v & fm
            y = (v >> np.uint64(f)) & fm
            cur = y & x if parity else y & ~x
            if cur == 0:
                r += 1
                continue
            expanded += 1
            if count > cap or halt[0] or (inplace and expanded > _BUDGET):
                halt[0] = 1
                active[parity, flag] = 1  # resumed from r: this chunk is not done
                return r, count, states, placed
            rec[r] = (x | cur) | ((y & ~cur) << np.uint64(f))
            if r >= gnext:  # a new run of the first k − 2 tiles: unrank them once
                g = r // group
                gstart, gnext = g * group, (g + 1) * group
                _unrank_from(r, prefix, n, factors, cells, 0, np.uint64(0))
                head = np.uint64(0)
                for i in range(prefix):
                    earlier[i] = head
                    head |= one << np.uint64(cells[i])
                    tile_at[cells[i]] = i
                    fac_at[cells[i]] = factors[i]
                j = 0
                for c in range(n):
                    if not (head >> np.uint64(c)) & one:
                        freelist[j] = c
                        j += 1
            occupied = head
            rem = r - gstart
            for i in range(prefix, k):
                c = freelist[suffix[rem, i - prefix]]
                tile_at[c] = i
                fac_at[c] = factors[i]
                earlier[i] = occupied
                occupied |= one << np.uint64(c)
            mask = _pdep(cur, full & ~occupied)
            # The tiles next to the region, one direction at a time: (movers, step).
            moves = 0
            for dd in range(4):
                if dd == 0:
                    movers, step = occupied & (mask >> one) & geom[2], 1
                elif dd == 1:
                    movers, step = occupied & (mask << one) & geom[3], -1
                elif dd == 2:
                    movers, step = occupied & (mask >> width), w
                else:
                    movers, step = occupied & (mask << width) & full, -w
                while movers:
                    c = np.int64(_lowest(movers))
                    movers &= movers - one
                    i = tile_at[c]
                    q = c + step
                    scratch[moves, 0] = _moved_rank_at(
                        r, i, c, q, occupied, earlier, fac_at, factors
                    )
                    scratch[moves, 1] = c
                    scratch[moves, 2] = q | (i << 8)
                    moves += 1
            warm = np.uint64(0)
            for m in range(moves):  # the successors' records first: the cache misses overlap
                warm |= np.uint64(rec[scratch[m, 0]])
            for m in range(moves):
                r2, c, q = scratch[m, 0], scratch[m, 1], scratch[m, 2] & 255
                occ2 = (occupied & ~(one << np.uint64(c))) | (one << np.uint64(q))
                free2 = full & ~occ2
                v2 = np.uint64(rec[r2])
                below = free2 & ((one << np.uint64(c)) - one)
                if ((v2 | (v2 >> np.uint64(f))) >> _popcount(below)) & one:
                    continue
                region = _flood(c, occ2, geom)
                if scratch[m, 2] >> 8 == 0 and not inplace:
                    out[count, 0] = r2
                    out[count, 1] = region | (free2 << np.uint64(32))
                    count += 1
                    continue
                b2 = r2 // span if inplace else block
                s, p = _apply(rec, depth, active, r2, region, free2, nd, f, fm, b2, b2 * span, cpb)
                states += s
                placed += p
            sink[0] ^= warm
            r += 1
    return end, count, states, placed


@njit(cache=True, nogil=True)
def frontier_apply(rec, depth, active, out, count, d, k, n, factors, workers, worker):
    """Apply the buffered tile-0 states `out[:count]` whose block is `worker` modulo `workers`.

    Returns (new states, new placements).
    """
    f = n - k
    fm = (np.uint64(1) << np.uint64(f)) - np.uint64(1)
    span = factors[0]
    cpb = (span + (1 << CHUNK_SHIFT) - 1) >> CHUNK_SHIFT
    low32 = np.uint64(0xFFFFFFFF)
    states = 0
    placed = 0
    for j in range(count):
        r2 = np.int64(out[j, 0])
        b2 = r2 // span
        if b2 % workers != worker:
            continue
        word = out[j, 1]
        s, p = _apply(
            rec, depth, active, r2, word & low32, word >> np.uint64(32), d + 1, f, fm, b2,
            b2 * span, cpb,
        )  # fmt: skip
        states += s
        placed += p
    return states, placed

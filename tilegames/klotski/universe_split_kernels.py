"""The whole-universe search on a split index: skeleton rank × singles subset, so that a single's move is ranked
with one table look-up.

A layout of a piece set (h 1×2, v 2×1, s 1×1 pieces besides the 2×2) is its *skeleton* (the 2×2, 1×2 and 2×1
pieces; every other cell free) plus which `s` of the skeleton's `F = cells - 4 - 2h - 2v` free cells hold the
singles. Its index in the set is ``skeleton rank × C(F, s) + colex rank of the singles`` (the skeleton rank from
the completion counts of :mod:`universe_kernels` with no singles; the colex rank of the singles' positions among
the free cells, so a subset's rank is a table look-up on its bit mask). Dense, like the code-order rank, but a move
of a single keeps the skeleton: its neighbour's index is one XOR of two bits and one look-up, and it lands in the
same block of C(F, s) entries (a few kB), so the visited check stays in the first-level cache. Moves of the other
pieces re-rank the skeleton from the parent's trail over the cells the move spans.

Cell masks are dense (bit i = cell i); codes as in :mod:`tilegames.klotski.kernels` (3 bits per cell, cell 0
most significant). Each piece set is searched by one thread; the sets are dealt to the threads beforehand in equal
shares (:func:`share_out`).
"""

from __future__ import annotations

import numpy as np
from numba import get_thread_id, njit, prange

from tilegames.klotski.universe_kernels import _enumerate_set as _skeletons
from tilegames.klotski.universe_kernels import (
    _find,
    _is_goal,
    _walk,
    _walk_near,
    flat_counts,
    mirror_code,
    unrank,
)

ONE = np.uint64(1)
M64 = np.uint64(0xFFF)
MEMO_BLOCK = 4
"""A piece set keeps its skeletons' moves when each skeleton stands for at least this many layouts..."""
MEMO_ENTRIES = 2_000_000
"""...and the memo (skeletons × non-single pieces × cells, 4 bytes each) has at most this many entries."""


def share_out(sizes: np.ndarray, threads: int) -> tuple[np.ndarray, np.ndarray]:
    """The piece sets dealt to `threads` threads, the biggest first to the least loaded (equal layouts each, to
    within the biggest set): (the sets share by share, where each share starts). The kernels run a `prange` over
    the shares, one share per thread, instead of leaving the split to numba's schedule (which gave one thread the
    95 % of the layouts in the 102 biggest sets and the other the rest)."""
    threads = max(1, min(threads, len(sizes)))
    load = np.zeros(threads, np.int64)
    dealt: list[list[int]] = [[] for _ in range(threads)]
    for s in np.argsort(-sizes, kind="stable"):
        t = int(np.argmin(load))
        dealt[t].append(int(s))
        load[t] += int(sizes[s])
    order = np.array([s for share in dealt for s in share], np.int64)
    starts = np.concatenate(([0], np.cumsum([len(share) for share in dealt]))).astype(np.int64)
    return order, starts


@njit(cache=True)
def _popcount(x):
    """Set bits of a non-negative int below 2**32 (SWAR; LLVM turns it into one instruction)."""
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F
    return ((x * 0x01010101) & 0xFFFFFFFF) >> 24


@njit(cache=True)
def split_tables(w, h):
    """(chunk, pext, colex, binomial, neighbourhood, field) tables of a board (see the functions that use them).

    chunk[v]: for 4 cells' 3-bit fields v (first cell most significant), nibble k = the cells of kind k.
    pext[free | singles << 4]: the singles' bits packed over the free cells, for 4 cells at a time.
    colex[m]: the colex rank of the subset m (the rank of m among the masks of its popcount, in numeric order).
    field[0]: bit 0 of every cell's 3-bit field.
    """
    n = w * h
    chunk = np.zeros(4096, np.int64)
    for value in range(4096):
        packed = 0
        for j in range(4):
            kind = (value >> (3 * (3 - j))) & 7
            if kind <= 4:
                packed |= 1 << (4 * kind + j)
        chunk[value] = packed
    pext = np.zeros(256, np.int64)
    for free in range(16):
        for sing in range(16):
            out = 0
            k = 0
            for j in range(4):
                if (free >> j) & 1:
                    if (sing >> j) & 1:
                        out |= 1 << k
                    k += 1
            pext[free | (sing << 4)] = out
    binomial = np.zeros((n + 2, n + 2), np.int64)
    for a in range(n + 2):
        binomial[a, 0] = 1
        for b in range(1, a + 1):
            binomial[a, b] = binomial[a - 1, b - 1] + binomial[a - 1, b]
    f_max = max(n - 4, 0)
    colex = np.zeros(1 << f_max, np.int32)
    for m in range(1 << f_max):
        r = 0
        i = 0
        for c in range(f_max):
            if (m >> c) & 1:
                i += 1
                r += binomial[c, i]
        colex[m] = r
    near = np.zeros(n, np.int64)
    for i in range(n):
        r, c = i // w, i % w
        if c > 0:
            near[i] |= 1 << (i - 1)
        if c < w - 1:
            near[i] |= 1 << (i + 1)
        if r > 0:
            near[i] |= 1 << (i - w)
        if r < h - 1:
            near[i] |= 1 << (i + w)
    field = np.zeros(1, np.uint64)
    for i in range(n):
        field[0] |= ONE << np.uint64(3 * i)
    return chunk, pext, colex, binomial, near, field


@njit(cache=True, inline="always")
def _kind_masks(code, n, chunk):
    """(empty, single, 1×2, 2×1, 2×2) cells of `code` as dense masks."""
    pad = (4 - n % 4) % 4
    padded = code << np.uint64(3 * pad)
    chunks = (n + pad) // 4
    k0 = k1 = k2 = k3 = k4 = 0
    for k in range(chunks):
        v = chunk[np.int64((padded >> np.uint64(12 * (chunks - 1 - k))) & M64)]
        s = 4 * k
        k0 |= (v & 15) << s
        k1 |= ((v >> 4) & 15) << s
        k2 |= ((v >> 8) & 15) << s
        k3 |= ((v >> 12) & 15) << s
        k4 |= ((v >> 16) & 15) << s
    full = (1 << n) - 1
    return k0 & full, k1, k2, k3, k4


@njit(cache=True, inline="always")
def _compress(sing, free, n, pext):
    """The bits of `sing` packed over the set bits of `free` (a software PEXT, 4 cells at a time)."""
    out = 0
    at = 0
    for k in range(0, n, 4):
        f = (free >> k) & 15
        out |= pext[f | (((sing >> k) & 15) << 4)] << at
        at += _popcount(f)
    return out


@njit(cache=True, inline="always")
def _singles_field(code, lo):
    """The code's 1×1 cells as their 3-bit fields (value 1 each; `lo`: bit 0 of every field): ``code - that`` is
    the skeleton's code."""
    a = code & lo
    b = (code >> ONE) & lo
    c = (code >> np.uint64(2)) & lo
    return a & ~b & ~c


@njit(cache=True, inline="always")
def _index(code, w, h, flat, strides, st0, hh, vv, ss, split):
    """:func:`index_of` with the set's flattened counts (:func:`universe_kernels.flat_counts` with no singles)."""
    chunk, pext, colex, binomial, _, lo = split
    n = w * h
    _, sing, _, _, _ = _kind_masks(code, n, chunk)
    skeleton = code - _singles_field(code, lo[0])
    trail = np.zeros((1, 6), np.int64)
    skr = _walk(skeleton, w, h, flat, strides, 0, n, 0, st0, hh, vv, 0, trail, False)
    free, _, _, _, _ = _kind_masks(skeleton, n, chunk)
    return skr * binomial[n - 4 - 2 * hh - 2 * vv, ss] + colex[_compress(sing, free, n, pext)]


@njit(cache=True)
def index_of(code, w, h, counts, hh, vv, ss, split):
    """The index of `code` in its piece set (hh, vv, ss): skeleton rank × C(F, ss) + colex rank of the singles."""
    flat, strides, st0 = flat_counts(counts, hh, vv, 0)
    return _index(code, w, h, flat, strides, st0, hh, vv, ss, split)


@njit(cache=True)
def unindex(index, w, h, counts, piece_code, hh, vv, ss, split):
    """The code of the layout at `index` in its piece set (the inverse of :func:`index_of`)."""
    chunk, _, _, binomial, _, _ = split
    n = w * h
    f = n - 4 - 2 * hh - 2 * vv
    block = binomial[f, ss]
    skeleton = unrank(index // block, w, h, counts, piece_code, hh, vv, 0)
    free, _, _, _, _ = _kind_masks(skeleton, n, chunk)
    sub = index % block
    mask = 0  # colex unrank: the largest c with C(c, i) <= sub, for i = ss..1
    c = f
    for i in range(ss, 0, -1):
        c -= 1
        while binomial[c, i] > sub:
            c -= 1
        sub -= binomial[c, i]
        mask |= 1 << c
    code = skeleton
    k = 0
    for cell in range(n):
        if (free >> cell) & 1:
            if (mask >> k) & 1:
                code += piece_code[1, cell]
            k += 1
    return code


@njit(cache=True)
def _enumerate_set(w, h, counts, piece_code, hh, vv, ss, split, out, start):
    """Write the codes of piece set (hh, vv, ss) in index order into out[start:]; return how many."""
    chunk = split[0]
    n = w * h
    f = n - 4 - 2 * hh - 2 * vv
    bones = np.empty(counts[0, 0, 1, hh, vv, 0], np.uint64)
    _skeletons(w, h, counts, piece_code, hh, vv, 0, bones, 0)
    fields = np.zeros(max(f, 1), np.uint64)
    written = start
    last = (1 << f) - 1
    for skeleton in bones:
        free, _, _, _, _ = _kind_masks(skeleton, n, chunk)
        k = 0
        for cell in range(n):
            if (free >> cell) & 1:
                fields[k] = piece_code[1, cell]
                k += 1
        m = (1 << ss) - 1
        while True:
            code = skeleton
            rest = m
            k = 0
            while rest:
                if rest & 1:
                    code += fields[k]
                rest >>= 1
                k += 1
            out[written] = code
            written += 1
            if ss == 0 or m == last - ((1 << (f - ss)) - 1):
                break
            low = m & -m  # Gosper's hack: the next mask with as many bits, in numeric order
            ripple = m + low
            m = (((ripple ^ m) >> 2) // low) | ripple
    return written - start


@njit(cache=True, parallel=True)
def enumerate_all(w, h, counts, piece_code, sets, offsets, shares, split, out):
    """Every layout of every piece set at its offset, in index order; thread t enumerates its share of the sets
    (`shares`: see :func:`share_out`)."""
    order, starts = shares
    for t in prange(starts.shape[0] - 1):
        for q in range(starts[t], starts[t + 1]):
            s = order[q]
            _enumerate_set(
                w, h, counts, piece_code, sets[s, 0], sets[s, 1], sets[s, 2], split, out, offsets[s]
            )


@njit(cache=True, inline="always")
def _expand(
    code, index, steps, w, h, block, flat, strides, st0, hh, vv, tabs, split, trail, comps, memo,
    out_code, out_index,
):  # fmt: skip
    """Write the neighbours of the layout `code` (at `index` in its set) into out_code / out_index: one move
    away, or one unit step with `steps`. Returns how many.

    ``memo[skeleton rank, piece, destination]`` keeps the skeleton ranks found so far (-1: not yet) when it
    has a row per skeleton; a one-row memo is not used.
    """
    piece_code, piece_mask, halo, masks = tabs
    chunk, pext, colex, _, near, _ = split
    n = w * h
    not_first, not_last = np.int64(masks[1]), np.int64(masks[2])
    empty, sing, horizontal, vertical, big = _kind_masks(code, n, chunk)
    free = empty | sing
    skr = index // block
    base = skr * block
    packed = _compress(sing, free, n, pext)
    count = 0
    # singles: each goes anywhere in the empty regions next to it (with `steps`, to a next empty cell)
    if sing and empty:
        regions = 0
        if not steps:
            rest = empty
            while rest:
                region = rest & -rest
                while True:
                    grown = region | ((region << 1) & not_first) | ((region >> 1) & not_last)
                    grown = (grown | (region << w) | (region >> w)) & empty
                    if grown == region:
                        break
                    region = grown
                comps[regions] = region
                regions += 1
                rest &= ~region
        rest = sing
        while rest:
            bit = rest & -rest
            rest ^= bit
            cell = _popcount(bit - 1)
            touching = near[cell] & empty
            if not touching:
                continue
            if steps:
                reach = touching
            else:
                reach = 0
                for r in range(regions):
                    if comps[r] & touching:
                        reach |= comps[r]
            here = 1 << _popcount(free & (bit - 1))
            left = code - piece_code[1, cell]
            while reach:
                to_bit = reach & -reach
                reach ^= to_bit
                to = _popcount(to_bit - 1)
                out_code[count] = left + piece_code[1, to]
                out_index[count] = (
                    base + colex[packed ^ here ^ (1 << _popcount(free & (to_bit - 1)))]
                )
                count += 1
    # the other pieces: re-rank the skeleton over the cells the move spans
    others = horizontal | vertical | big
    if not others:
        return count
    skeleton = code - _singles_field(code, split[5][0])
    walked = False
    remember = memo.shape[0] > 1
    piece = -1
    while others:
        bit = others & -others
        cell = _popcount(bit - 1)
        if big & bit:
            kind = 4
        elif horizontal & bit:
            kind = 2
        else:
            kind = 3
        mask = np.int64(piece_mask[kind, cell])
        others &= ~mask
        piece += 1
        if np.int64(halo[kind, cell]) & empty == 0:
            continue
        room = empty | mask
        if kind == 2:
            fits = room & (room >> 1) & not_last
        elif kind == 3:
            fits = room & (room >> w)
        else:
            fits = room & (room >> 1) & not_last
            fits &= fits >> w
        reach = bit
        while True:
            grown = reach | ((reach << 1) & not_first) | ((reach >> 1) & not_last)
            grown = (grown | (reach << w) | (reach >> w)) & fits
            if grown == reach or steps:
                reach = grown
                break
            reach = grown
        reach &= ~bit
        if not reach:
            continue
        extent = (w if kind >= 3 else 0) + (1 if kind != 3 else 0) + 1
        left = code - piece_code[kind, cell]
        bare = skeleton - piece_code[kind, cell]
        while reach:
            to_bit = reach & -reach
            reach ^= to_bit
            to = _popcount(to_bit - 1)
            rank = memo[skr, piece, to] if remember else -1
            if rank < 0:
                if not walked:
                    _walk(skeleton, w, h, flat, strides, 0, n, 0, st0, hh, vv, 0, trail, True)
                    walked = True
                moved = bare + piece_code[kind, to]
                lo, hi = min(cell, to), max(cell, to) + extent
                rank = _walk_near(moved, lo, hi, w, h, flat, strides, trail, skr)
                if remember:
                    memo[skr, piece, to] = rank
            room_after = (free | mask) & ~np.int64(piece_mask[kind, to])
            out_code[count] = left + piece_code[kind, to]
            out_index[count] = rank * block + colex[_compress(sing, room_after, n, pext)]
            count += 1
    return count


@njit(cache=True)
def neighbours(code, w, h, counts, hh, vv, ss, steps, tabs, split, out_code, out_index):
    """The neighbours of `code` with their indices in the set (for tests; the search inlines :func:`_expand`)."""
    n = w * h
    flat, strides, st0 = flat_counts(counts, hh, vv, 0)
    block = split[3][n - 4 - 2 * hh - 2 * vv, ss]
    index = index_of(code, w, h, counts, hh, vv, ss, split)
    trail = np.zeros((n + 1, 6), np.int64)
    comps = np.zeros(n, np.int64)
    memo = np.full((1, 1, 1), -1, np.int32)
    return _expand(
        code, index, steps, w, h, block, flat, strides, st0, hh, vv, tabs, split, trail, comps, memo,
        out_code, out_index,
    )  # fmt: skip


@njit(cache=True)
def _solve_set(
    codes, lo, hi, w, h, counts, hh, vv, ss, tabs, split, goal_masks, goal_bits, group, distance
):
    """Group the layouts codes[lo:hi] of one piece set and give each its distance to the nearest exit layout.

    One breadth-first search by moves from all exit layouts at once gives the distances; each exit layout starts
    a label and labels that meet are merged (union-find), so that search also finds the solvable groups. The
    layouts it never reaches are grouped by a search by unit steps from each in turn. Groups are numbered from 0
    in order of their first layout (in index order); returns their number.
    """
    n = w * h
    flat, strides, st0 = flat_counts(counts, hh, vv, 0)
    block = split[3][n - 4 - 2 * hh - 2 * vv, ss]
    most = n * n + 4 * n
    out_code = np.zeros(most, np.uint64)
    out_index = np.zeros(most, np.int64)
    trail = np.zeros((n + 1, 6), np.int64)
    comps = np.zeros(n, np.int64)
    size = hi - lo
    skeletons = size // block
    if block >= MEMO_BLOCK and skeletons * (1 + hh + vv) * n <= MEMO_ENTRIES:
        memo = np.full((skeletons, 1 + hh + vv, n), -1, np.int32)
    else:
        memo = np.full((1, 1, 1), -1, np.int32)
    label_of = group[lo:hi]
    queue = np.empty(size, np.int32)
    held = np.empty(size, np.uint64)
    tail = 0
    for i in range(size):
        if _is_goal(codes[lo + i], goal_masks, goal_bits):
            label_of[i] = tail
            queue[tail] = i
            held[tail] = codes[lo + i]
            tail += 1
    parent = np.arange(max(tail, 1))
    head = 0
    ends = np.zeros(n + 1, np.int64)
    level = 0
    ends[0] = tail
    while head < tail:
        if head == ends[level]:
            level += 1
            if level == ends.shape[0]:
                ends = np.concatenate((ends, np.zeros_like(ends)))
            ends[level] = tail
        x = queue[head]
        code = held[head]
        head += 1
        label = _find(parent, label_of[x])
        found = _expand(
            code, x, False, w, h, block, flat, strides, st0, hh, vv, tabs, split, trail, comps, memo,
            out_code, out_index,
        )  # fmt: skip
        for k in range(found):
            j = out_index[k]
            other = label_of[j]
            if other < 0:
                label_of[j] = label
                queue[tail] = j
                held[tail] = out_code[k]
                tail += 1
            elif other != label:
                root = _find(parent, other)
                if root != label:
                    parent[max(root, label)] = min(root, label)
                    label = min(root, label)
                label_of[j] = label  # its root now: the next look-up from there needs no find
    start = 0
    mine = distance[lo:hi]
    for d in range(level + 1):
        for q in range(start, ends[d]):
            mine[queue[q]] = d
        start = ends[d]
    for i in range(size):
        if label_of[i] >= 0:
            label_of[i] = _find(parent, label_of[i])
    labels = parent.shape[0]
    for i in range(size):
        if label_of[i] >= 0:
            continue
        label_of[i] = labels
        queue[0] = i
        held[0] = codes[lo + i]
        head, tail = 0, 1
        while head < tail:
            x = queue[head]
            code = held[head]
            head += 1
            found = _expand(
                code, x, True, w, h, block, flat, strides, st0, hh, vv, tabs, split, trail, comps, memo,
                out_code, out_index,
            )  # fmt: skip
            for k in range(found):
                j = out_index[k]
                if label_of[j] < 0:
                    label_of[j] = labels
                    queue[tail] = j
                    held[tail] = out_code[k]
                    tail += 1
        labels += 1
    renumber = np.full(labels, -1, np.int64)
    groups = 0
    for i in range(size):
        g = label_of[i]
        if renumber[g] < 0:
            renumber[g] = groups
            groups += 1
        label_of[i] = renumber[g]
    return groups


@njit(cache=True, parallel=True)
def solve_all(
    codes, w, h, counts, sets, offsets, shares, tabs, split, goal_masks, goal_bits, group, distance,
    thread_of,
):  # fmt: skip
    """:func:`_solve_set` for every piece set, thread t searching its share (`shares`: see :func:`share_out`);
    returns the groups per set. ``thread_of[set]`` gets the thread that searched it (for the bench)."""
    groups = np.zeros(sets.shape[0], np.int64)
    order, starts = shares
    for t in prange(starts.shape[0] - 1):
        for q in range(starts[t], starts[t + 1]):
            s = order[q]
            thread_of[s] = get_thread_id()
            groups[s] = _solve_set(
                codes, offsets[s], offsets[s + 1], w, h, counts, sets[s, 0], sets[s, 1], sets[s, 2],
                tabs, split, goal_masks, goal_bits, group, distance,
            )  # fmt: skip
    return groups


@njit(cache=True, inline="always")
def _is_symmetric(code, w, h):
    """1 if `code` is its own mirror image, else 0 (stops at the first cell that differs from its mirror)."""
    n = w * h
    for r in range(h):
        for c in range(w // 2):
            a = (code >> np.uint64(3 * (n - 1 - (r * w + c)))) & np.uint64(7)
            b = (code >> np.uint64(3 * (n - 1 - (r * w + w - 1 - c)))) & np.uint64(7)
            if a != b:
                return 0
    return 1


@njit(cache=True, parallel=True)
def mirror_figures(
    codes, w, h, counts, sets, offsets, group, first, by_set, set_start, split, shares
):
    """(layouts equal to their mirror image, groups that contain the mirror image of their layouts).

    `by_set` lists the groups piece set by piece set (set s's from ``set_start[s]``), so that each thread ranks
    the mirror images of its share of the sets' groups with each set's tables.
    """
    symmetric = 0
    for i in prange(codes.shape[0]):
        symmetric += _is_symmetric(codes[i], w, h)
    symmetric_groups = 0
    order, starts = shares
    for t in prange(starts.shape[0] - 1):
        for q in range(starts[t], starts[t + 1]):
            s = order[q]
            hh, vv, ss = sets[s, 0], sets[s, 1], sets[s, 2]
            flat, steps, st0 = flat_counts(counts, hh, vv, 0)
            for k in range(set_start[s], set_start[s + 1]):
                g = by_set[k]
                mirrored = mirror_code(codes[first[g]], w, h)
                j = offsets[s] + _index(mirrored, w, h, flat, steps, st0, hh, vv, ss, split)
                if group[j] == g:
                    symmetric_groups += 1
    return symmetric, symmetric_groups

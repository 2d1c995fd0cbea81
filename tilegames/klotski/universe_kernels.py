"""Compiled loops of the whole-universe analysis: count, rank and enumerate layouts per piece set, then group them
and measure every layout's distance to the exit, one piece set per thread.

Codes as in :mod:`tilegames.klotski.kernels` (3 bits per cell, cell 0 most significant). A layout's *rank* is its
index among the layouts of its piece set in code order, computed without any table of codes: walking the cells in
reading order, each uncovered cell adds the number of completions of the smaller choices there. Those numbers come
from ``counts[cell, cover, big, horizontal, vertical, singles]``: the tilings of the cells from `cell` on when
`cover` marks which of the next ``width + 1`` cells are covered already (bit 0 = `cell`) and exactly that many
pieces of each shape are still to place (the remaining cells are empty).

A move keeps the piece set, so every group lies inside one piece set: the piece sets are solved independently,
spread over the threads biggest first (each thread takes the next set when it is free), each in its own slice of
the shared arrays (no locks, no races).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

SEVEN = np.uint64(7)
ONE = np.uint64(1)
COLUMN_OF_KIND = (0, 3, 1, 2, 0)
DE_BRUIJN = np.uint64(0x03F79D71B4CB0A89)
DE_BRUIJN_INDEX = np.zeros(64, np.int64)
for _i in range(64):
    DE_BRUIJN_INDEX[(((1 << _i) * 0x03F79D71B4CB0A89) & 0xFFFFFFFFFFFFFFFF) >> 58] = (
        _i  # occupant type -> column of the pieces-left state: big, h, v, singles
    )


@njit(cache=True)
def count_table(w, h, most_pairs, most_singles):
    """The completion counts described in the module docstring."""
    n = w * h
    covers = 1 << (w + 1)
    counts = np.zeros(
        (n + 1, covers, 2, most_pairs + 1, most_pairs + 1, most_singles + 1), np.int64
    )
    counts[n, 0, 0, 0, 0, 0] = 1
    below = 1 << (w - 1)
    for i in range(n - 1, -1, -1):
        row, col = i // w, i % w
        for cover in range(covers):
            rest = cover >> 1
            for b in range(2):
                for hh in range(most_pairs + 1):
                    for vv in range(most_pairs + 1):
                        for ss in range(most_singles + 1):
                            if cover & 1:
                                counts[i, cover, b, hh, vv, ss] = counts[i + 1, rest, b, hh, vv, ss]
                                continue
                            total = counts[i + 1, rest, b, hh, vv, ss]
                            if ss > 0:
                                total += counts[i + 1, rest, b, hh, vv, ss - 1]
                            if hh > 0 and col + 1 < w and not cover & 2:
                                total += counts[i + 1, rest | 1, b, hh - 1, vv, ss]
                            if vv > 0 and row + 1 < h:
                                total += counts[i + 1, rest | below, b, hh, vv - 1, ss]
                            if b > 0 and col + 1 < w and row + 1 < h and not cover & 2:
                                total += counts[
                                    i + 1, rest | 1 | below | (below << 1), 0, hh, vv, ss
                                ]
                            counts[i, cover, b, hh, vv, ss] = total
    return counts


@njit(cache=True, inline="always")
def _contribution(code, w, h, counts, start, stop, cover, b, hh, vv, ss, trail, keep):
    """The part of the rank that cells start..stop-1 add, from the state at `start` (cells before it placed).

    With `keep`, row i of `trail` (n + 1 rows) gets (rank so far, cover, big, horizontal, vertical, singles)
    as the walk reaches cell i, so that a layout that differs only in some cells can be ranked from there.
    """
    n = w * h
    below = 1 << (w - 1)
    r = 0
    for i in range(start, stop):
        if keep:
            trail[i, 0], trail[i, 1], trail[i, 2] = r, cover, b
            trail[i, 3], trail[i, 4], trail[i, 5] = hh, vv, ss
        if cover & 1:
            cover >>= 1
            continue
        t = np.int64((code >> np.uint64(3 * (n - 1 - i))) & SEVEN)
        rest = cover >> 1
        if t >= 1:
            r += counts[i + 1, rest, b, hh, vv, ss]
            if t >= 2 and ss > 0:
                r += counts[i + 1, rest, b, hh, vv, ss - 1]
            if t >= 3 and hh > 0 and i % w + 1 < w and not cover & 2:
                r += counts[i + 1, rest | 1, b, hh - 1, vv, ss]
            if t >= 4 and vv > 0 and i // w + 1 < h:
                r += counts[i + 1, rest | below, b, hh, vv - 1, ss]
        if t == 0:
            cover = rest
        elif t == 1:
            ss -= 1
            cover = rest
        elif t == 2:
            hh -= 1
            cover = rest | 1
        elif t == 3:
            vv -= 1
            cover = rest | below
        else:
            b = 0
            cover = rest | 1 | below | (below << 1)
    if keep:
        trail[stop, 0] = r
    return r


@njit(cache=True)
def rank(code, w, h, counts, hh, vv, ss):
    """Index of `code` among the layouts of its piece set (hh, vv, ss) in code order."""
    trail = np.zeros((1, 6), np.int64)
    return _contribution(code, w, h, counts, 0, w * h, 0, 1, hh, vv, ss, trail, False)


@njit(cache=True, inline="always")
def _walk(code, w, h, flat, steps, start, stop, cover, st, hh, vv, ss, trail, keep):
    """:func:`_contribution` on one piece set's flattened counts ``flat[cell, cover, state]``.

    The state index ``st`` folds (big, horizontal, vertical, singles) left into one number; placing a piece
    subtracts its stride (``steps``: big, horizontal, vertical; a single's is 1), so each look-up is one index
    instead of six. Row i of `trail` gets (rank so far, cover, st, horizontal, vertical, singles).
    """
    n = w * h
    below = 1 << (w - 1)
    full = 1 | below | (below << 1)
    sb, sh, sv = steps[0], steps[1], steps[2]
    r = 0
    for i in range(start, stop):
        if keep:
            trail[i, 0], trail[i, 1], trail[i, 2] = r, cover, st
            trail[i, 3], trail[i, 4], trail[i, 5] = hh, vv, ss
        if cover & 1:
            cover >>= 1
            continue
        t = np.int64((code >> np.uint64(3 * (n - 1 - i))) & SEVEN)
        rest = cover >> 1
        if t >= 1:
            r += flat[i + 1, rest, st]
            if t >= 2 and ss > 0:
                r += flat[i + 1, rest, st - 1]
            if t >= 3 and hh > 0 and i % w + 1 < w and not cover & 2:
                r += flat[i + 1, rest | 1, st - sh]
            if t >= 4 and vv > 0 and i // w + 1 < h:
                r += flat[i + 1, rest | below, st - sv]
        if t == 0:
            cover = rest
        elif t == 1:
            ss -= 1
            st -= 1
            cover = rest
        elif t == 2:
            hh -= 1
            st -= sh
            cover = rest | 1
        elif t == 3:
            vv -= 1
            st -= sv
            cover = rest | below
        else:
            st -= sb
            cover = rest | full
    if keep:
        trail[stop, 0] = r
    return r


@njit(cache=True, inline="always")
def _walk_near(code, lo, hi, w, h, flat, steps, trail, whole):
    """The rank of `code`, a layout equal to the one `trail` was made for (of rank `whole`) outside cells lo..hi-1."""
    part = _walk(
        code, w, h, flat, steps, lo, hi, trail[lo, 1], trail[lo, 2], trail[lo, 3], trail[lo, 4], trail[lo, 5],
        trail, False,
    )  # fmt: skip
    return whole - (trail[hi, 0] - trail[lo, 0]) + part


@njit(cache=True)
def flat_counts(counts, hh, vv, ss):
    """This piece set's corner of `counts` as ``flat[cell, cover, state]``, the strides, and the start state."""
    corner = counts[:, :, :, : hh + 1, : vv + 1, : ss + 1].copy()
    flat = corner.reshape((corner.shape[0], corner.shape[1], -1))
    steps = np.array([(hh + 1) * (vv + 1) * (ss + 1), (vv + 1) * (ss + 1), ss + 1], np.int64)
    start = steps[0] + hh * steps[1] + vv * steps[2] + ss
    return flat, steps, start


@njit(cache=True)
def unrank(index, w, h, counts, piece_code, hh, vv, ss):
    """The code of the layout of rank `index` in its piece set (the inverse of :func:`rank`)."""
    n = w * h
    below = 1 << (w - 1)
    code = np.uint64(0)
    cover = 0
    b = 1
    for i in range(n):
        if cover & 1:
            cover >>= 1
            continue
        rest = cover >> 1
        c = counts[i + 1, rest, b, hh, vv, ss]
        if index < c:
            cover = rest
            continue
        index -= c
        if ss > 0:
            c = counts[i + 1, rest, b, hh, vv, ss - 1]
            if index < c:
                ss -= 1
                code += piece_code[1, i]
                cover = rest
                continue
            index -= c
        if hh > 0 and i % w + 1 < w and not cover & 2:
            c = counts[i + 1, rest | 1, b, hh - 1, vv, ss]
            if index < c:
                hh -= 1
                code += piece_code[2, i]
                cover = rest | 1
                continue
            index -= c
        if vv > 0 and i // w + 1 < h:
            c = counts[i + 1, rest | below, b, hh, vv - 1, ss]
            if index < c:
                vv -= 1
                code += piece_code[3, i]
                cover = rest | below
                continue
            index -= c
        b = 0
        code += piece_code[4, i]
        cover = rest | 1 | below | (below << 1)
    return code


@njit(cache=True)
def _enumerate_set(w, h, counts, piece_code, hh, vv, ss, out, start):
    """Write the codes of piece set (hh, vv, ss) in code order into out[start:] (depth first, pruned by counts)."""
    n = w * h
    below = 1 << (w - 1)
    cells = np.zeros(n + 2, np.int64)
    covers = np.zeros(n + 2, np.int64)
    state = np.zeros((n + 2, 4), np.int64)  # big, horizontal, vertical, singles still to place
    codes = np.zeros(n + 2, np.uint64)
    option = np.zeros(n + 2, np.int64)
    state[0, 0], state[0, 1], state[0, 2], state[0, 3] = 1, hh, vv, ss
    written = start
    d = 0
    while d >= 0:
        i = cells[d]
        if i == n:
            out[written] = codes[d]
            written += 1
            d -= 1
            continue
        cover = covers[d]
        b, ph, pv, ps = state[d, 0], state[d, 1], state[d, 2], state[d, 3]
        rest = cover >> 1
        k = option[d]
        nxt_cover = -1
        while k <= 4 and nxt_cover < 0:
            if k == 0:
                if counts[i + 1, rest, b, ph, pv, ps] > 0:
                    nxt_cover = rest
            elif k == 1:
                if ps > 0 and counts[i + 1, rest, b, ph, pv, ps - 1] > 0:
                    nxt_cover = rest
            elif k == 2:
                fits = ph > 0 and i % w + 1 < w and not cover & 2
                if fits and counts[i + 1, rest | 1, b, ph - 1, pv, ps] > 0:
                    nxt_cover = rest | 1
            elif k == 3:
                if pv > 0 and i // w + 1 < h and counts[i + 1, rest | below, b, ph, pv - 1, ps] > 0:
                    nxt_cover = rest | below
            else:
                full = rest | 1 | below | (below << 1)
                fits = b > 0 and i % w + 1 < w and i // w + 1 < h and not cover & 2
                if fits and counts[i + 1, full, 0, ph, pv, ps] > 0:
                    nxt_cover = full
            if nxt_cover < 0:
                k += 1
        if nxt_cover < 0:
            d -= 1
            continue
        option[d] = k + 1
        e = d + 1
        state[e, 0], state[e, 1], state[e, 2], state[e, 3] = b, ph, pv, ps
        codes[e] = codes[d]
        if k > 0:
            codes[e] += piece_code[k, i]
            state[e, COLUMN_OF_KIND[k]] -= 1
        j = i + 1
        while j < n and nxt_cover & 1:
            nxt_cover >>= 1
            j += 1
        cells[e] = j
        covers[e] = nxt_cover
        option[e] = 0
        d = e
    return written - start


@njit(cache=True, parallel=True)
def enumerate_all(w, h, counts, piece_code, sets, offsets, order, out):
    """Every layout of every piece set, each set at its offset, the sets taken in `order` (biggest first: with
    a parallel chunk size of 1 each thread takes the next set when it is free)."""
    for q in prange(order.shape[0]):
        s = order[q]
        _enumerate_set(
            w, h, counts, piece_code, sets[s, 0], sets[s, 1], sets[s, 2], out, offsets[s]
        )


@njit(cache=True, inline="always")
def _decode(code, n, piece_mask, heads, kinds):
    """Fill the head cell and kind of each piece; return (count, occupied cells as a bit mask)."""
    occupied = ONE - ONE
    covered = ONE - ONE
    pieces = 0
    for i in range(n):
        kind = np.int64((code >> np.uint64(3 * (n - 1 - i))) & SEVEN)
        if kind == 0:
            continue
        bit = ONE << np.uint64(i)
        occupied |= bit
        if covered & bit:
            continue
        covered |= piece_mask[kind, i]
        heads[pieces] = i
        kinds[pieces] = kind
        pieces += 1
    return pieces, occupied


@njit(cache=True)
def board_masks(w, h):
    """Cell masks of a board: [every cell, all but the first column, all but the last column]."""
    masks = np.zeros(3, np.uint64)
    for i in range(w * h):
        bit = ONE << np.uint64(i)
        masks[0] |= bit
        if i % w:
            masks[1] |= bit
        if i % w != w - 1:
            masks[2] |= bit
    return masks


@njit(cache=True, inline="always")
def _lowest(bits):
    """Index of the lowest set bit of a nonzero uint64 (a de Bruijn multiply)."""
    low = bits & (~bits + ONE)
    return DE_BRUIJN_INDEX[((low * DE_BRUIJN) >> np.uint64(58)) & np.uint64(63)]


@njit(cache=True)
def neighbours(code, w, h, steps, piece_code, piece_mask, halo, masks, out, span, heads, kinds):
    """Write the codes one move away (one unit step with `steps`) into `out`; return how many.

    ``span[k]`` gets the cells (first, last + 1) where neighbour k may differ from `code`. Where a piece can stand
    is a bit mask, and where it can go in one move is that mask flooded from where it stands.
    """
    n = w * h
    pieces, occupied = _decode(code, n, piece_mask, heads, kinds)
    full, not_first, not_last = masks[0], masks[1], masks[2]
    uw = np.uint64(w)
    count = 0
    for p in range(pieces):
        cell = heads[p]
        kind = kinds[p]
        if halo[kind, cell] & ~occupied == 0:
            continue
        free = full & ~(occupied ^ piece_mask[kind, cell])
        if kind == 1:
            fits = free
        elif kind == 2:
            fits = free & (free >> ONE) & not_last
        elif kind == 3:
            fits = free & (free >> uw)
        else:
            fits = free & (free >> ONE) & not_last
            fits &= fits >> uw
        start = ONE << np.uint64(cell)
        reach = start
        while True:
            grown = reach | ((reach << ONE) & not_first) | ((reach >> ONE) & not_last)
            grown = (grown | (reach << uw) | (reach >> uw)) & fits
            if grown == reach or steps:
                reach = grown
                break
            reach = grown
        reach &= ~start
        extent = (w if kind >= 3 else 0) + (1 if kind == 2 or kind == 4 else 0) + 1
        base = code - piece_code[kind, cell]
        while reach:
            to = _lowest(reach)
            reach &= reach - ONE
            out[count] = base + piece_code[kind, to]
            span[count, 0] = min(cell, to)
            span[count, 1] = max(cell, to) + extent
            count += 1
    return count


@njit(cache=True)
def _is_goal(code, goal_masks, goal_bits):
    found = False
    for g in range(goal_masks.shape[0]):
        found = found or (code & goal_masks[g]) == goal_bits[g]
    return found


@njit(cache=True)
def _find(parent, x):
    root = x
    while parent[root] != root:
        root = parent[root]
    while parent[x] != root:
        parent[x], x = root, parent[x]
    return root


@njit(cache=True)
def _solve_set(
    codes, lo, hi, w, h, counts, hh, vv, ss, tabs, goal_masks, goal_bits, group, distance
):
    """Group the layouts codes[lo:hi] of one piece set and give each its distance to the nearest exit layout.

    One breadth-first search by moves from all exit layouts at once gives the distances; each exit layout starts
    a label and labels that meet are merged (union-find), so that search also finds the solvable groups. The
    layouts it never reaches are grouped by a search by unit steps from each in turn. Groups are numbered from 0
    in order of their first layout; returns their number.
    """
    piece_code, piece_mask, halo = tabs
    n = w * h
    flat, steps, st0 = flat_counts(counts, hh, vv, ss)  # this set's corner, to stay in cache
    out = np.zeros(n * n + 4 * n, np.uint64)
    span = np.zeros((n * n + 4 * n, 2), np.int64)
    trail = np.zeros((n + 1, 6), np.int64)
    heads = np.zeros(n, np.int64)
    kinds = np.zeros(n, np.int64)
    masks = board_masks(w, h)
    queue = np.empty(hi - lo, np.int32)  # this set's own queue, and its layouts' codes beside
    held = np.empty(hi - lo, np.uint64)  # (read in order, not from random places in `codes`)
    tail = 0
    for i in range(lo, hi):
        if _is_goal(codes[i], goal_masks, goal_bits):
            group[i] = tail
            queue[tail] = i
            held[tail] = codes[i]
            tail += 1
    parent = np.arange(max(tail, 1))
    head = 0
    ends = np.zeros(n + 1, np.int64)  # ends[d]: end in the queue of the layouts at distance d
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
        label = _find(parent, group[x])
        found = neighbours(
            code, w, h, False, piece_code, piece_mask, halo, masks, out, span, heads, kinds
        )
        whole = _walk(code, w, h, flat, steps, 0, n, 0, st0, hh, vv, ss, trail, True)
        for k in range(found):
            j = lo + _walk_near(out[k], span[k, 0], span[k, 1], w, h, flat, steps, trail, whole)
            other = group[j]
            if other < 0:
                group[j] = label
                queue[tail] = j
                held[tail] = out[k]
                tail += 1
            elif other != label:
                root = _find(parent, other)
                if root != label:  # two searches meet: their labels are one group
                    parent[max(root, label)] = min(root, label)
                    label = min(root, label)
    start = 0
    for d in range(level + 1):
        for q in range(start, ends[d]):
            distance[queue[q]] = d
        start = ends[d]
    for i in range(lo, hi):
        if group[i] >= 0:
            group[i] = _find(parent, group[i])
    labels = parent.shape[0]
    for i in range(lo, hi):
        if group[i] >= 0:
            continue
        group[i] = labels
        queue[0] = i
        held[0] = codes[i]
        head, tail = 0, 1
        while head < tail:
            code = held[head]
            head += 1
            found = neighbours(
                code, w, h, True, piece_code, piece_mask, halo, masks, out, span, heads, kinds
            )
            whole = _walk(code, w, h, flat, steps, 0, n, 0, st0, hh, vv, ss, trail, True)
            for k in range(found):
                j = lo + _walk_near(out[k], span[k, 0], span[k, 1], w, h, flat, steps, trail, whole)
                if group[j] < 0:
                    group[j] = labels
                    queue[tail] = j
                    held[tail] = out[k]
                    tail += 1
        labels += 1
    renumber = np.full(labels, -1, np.int64)
    groups = 0
    for i in range(lo, hi):
        g = group[i]
        if renumber[g] < 0:
            renumber[g] = groups
            groups += 1
        group[i] = renumber[g]
    return groups


@njit(cache=True, parallel=True)
def solve_all(
    codes, w, h, counts, sets, offsets, order, tabs, goal_masks, goal_bits, group, distance
):
    """:func:`_solve_set` for every piece set, taken in `order` as in :func:`enumerate_all`; returns groups per
    set."""
    groups = np.zeros(sets.shape[0], np.int64)
    for q in prange(order.shape[0]):
        s = order[q]
        groups[s] = _solve_set(
            codes, offsets[s], offsets[s + 1], w, h, counts, sets[s, 0], sets[s, 1], sets[s, 2],
            tabs, goal_masks, goal_bits, group, distance,
        )  # fmt: skip
    return groups


@njit(cache=True)
def first_layouts(group, offsets, first_group):
    """The first index of every group while groups are still numbered per set (``first_group[set] + local``)."""
    first = np.full(first_group[-1], -1, np.int64)
    for s in range(offsets.shape[0] - 1):
        for i in range(offsets[s], offsets[s + 1]):
            g = first_group[s] + group[i]
            if first[g] < 0:
                first[g] = i
    return first


@njit(cache=True, parallel=True)
def relabel(group, offsets, first_group, order_of):
    """Turn per-set group numbers into global ones: ``order_of[first_group[set] + local]``."""
    for s in range(offsets.shape[0] - 1):
        for i in prange(offsets[s], offsets[s + 1]):
            group[i] = order_of[first_group[s] + group[i]]


@njit(cache=True)
def group_stats(group, distance, groups):
    """Per group: size, largest distance (-1 if unsolvable), the first layout at it, and its first layout."""
    size = np.zeros(groups, dtype=np.int64)
    top = np.full(groups, -1, dtype=np.int64)
    at = np.full(groups, -1, dtype=np.int64)
    first = np.full(groups, -1, dtype=np.int64)
    for i in range(group.shape[0]):
        g = group[i]
        size[g] += 1
        if first[g] < 0:
            first[g] = i
        if distance[i] > top[g]:
            top[g] = distance[i]
            at[g] = i
    return size, top, at, first


@njit(cache=True)
def hardest_positions(group, distance, set_of_group, hardest, cap):
    """Positions whose distance equals the hardest of their piece set: (index, set) pairs, at most `cap` per set."""
    sets = hardest.shape[0]
    taken = np.zeros(sets, dtype=np.int64)
    counts = np.zeros(sets, dtype=np.int64)
    out = np.zeros((sets * cap, 2), dtype=np.int64)
    used = 0
    for i in range(group.shape[0]):
        s = set_of_group[group[i]]
        if distance[i] >= 0 and distance[i] == hardest[s]:
            counts[s] += 1
            if taken[s] < cap:
                out[used, 0] = i
                out[used, 1] = s
                used += 1
                taken[s] += 1
    return out[:used], counts


@njit(cache=True)
def mirror_code(code, w, h):
    """The code of the mirror image (left and right swapped)."""
    n = w * h
    out = np.uint64(0)
    for r in range(h):
        for c in range(w - 1, -1, -1):
            out = (out << np.uint64(3)) | ((code >> np.uint64(3 * (n - 1 - (r * w + c)))) & SEVEN)
    return out


@njit(cache=True, parallel=True)
def mirror_figures(codes, w, h, counts, sets, offsets, set_of_group, group, first):
    """(layouts equal to their mirror image, groups that contain the mirror image of their layouts)."""
    symmetric = 0
    for i in prange(codes.shape[0]):
        if mirror_code(codes[i], w, h) == codes[i]:
            symmetric += 1
    symmetric_groups = 0
    for g in range(first.shape[0]):
        s = set_of_group[g]
        mirrored = mirror_code(codes[first[g]], w, h)
        j = offsets[s] + rank(mirrored, w, h, counts, sets[s, 0], sets[s, 1], sets[s, 2])
        if group[j] == g:
            symmetric_groups += 1
    return symmetric, symmetric_groups

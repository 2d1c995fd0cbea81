"""Compiled loops of the whole-universe analysis: count, rank and enumerate layouts (and skeletons) per piece set,
and the per-group and per-piece-set summaries; the search itself is in :mod:`universe_split_kernels`.

Codes as in :mod:`tilegames.klotski.kernels` (3 bits per cell, cell 0 most significant). A layout's *rank* is its
index among the layouts of its piece set in code order, computed without any table of codes: walking the cells in
reading order, each uncovered cell adds the number of completions of the smaller choices there. Those numbers come
from ``counts[cell, cover, big, horizontal, vertical, singles]``: the tilings of the cells from `cell` on when
`cover` marks which of the next ``width + 1`` cells are covered already (bit 0 = `cell`) and exactly that many
pieces of each shape are still to place (the remaining cells are empty).

A move keeps the piece set, so every group lies inside one piece set: the search (:mod:`universe_split_kernels`) solves
the piece sets independently, and the summaries here also give each thread its share of the piece sets (no locks,
no races).
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
def _walk(code, w, h, flat, steps, start, stop, cover, st, hh, vv, ss, trail, keep):
    """The part of a layout's rank (its index among its piece set's layouts in code order) that cells
    start..stop-1 add, from the state at `start`, on the set's flattened counts ``flat[cell, cover, state]``.

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
    """The code of the layout of rank `index` in its piece set (the inverse of the rank :func:`_walk` computes)."""
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


@njit(cache=True, parallel=True)
def relabel(group, offsets, first_group, order_of):
    """Turn per-set group numbers into global ones: ``order_of[first_group[set] + local]``."""
    for s in range(offsets.shape[0] - 1):
        for i in prange(offsets[s], offsets[s + 1]):
            group[i] = order_of[first_group[s] + group[i]]


@njit(cache=True, parallel=True)
def group_stats(codes, group, distance, groups, offsets, shares):
    """Per group: size, largest distance (-1 if unsolvable), its smallest code at that distance, and its
    smallest code (positions in the arrays). Thread t takes its share of the piece sets (`shares`: sets share by
    share, where each share starts): a group lies inside one set."""
    size = np.zeros(groups, dtype=np.int64)
    top = np.full(groups, -1, dtype=np.int64)
    at = np.full(groups, -1, dtype=np.int64)
    first = np.full(groups, -1, dtype=np.int64)
    order, starts = shares
    for t in prange(starts.shape[0] - 1):
        for q in range(starts[t], starts[t + 1]):
            _group_stats_of(
                codes,
                group,
                distance,
                offsets[order[q]],
                offsets[order[q] + 1],
                size,
                top,
                at,
                first,
            )
    return size, top, at, first


@njit(cache=True, inline="always")
def _group_stats_of(codes, group, distance, lo, hi, size, top, at, first):
    """:func:`group_stats` over the layouts lo..hi-1."""
    for i in range(lo, hi):
        g = group[i]
        size[g] += 1
        if first[g] < 0 or codes[i] < codes[first[g]]:
            first[g] = i
        d = distance[i]
        if d > top[g] or (d == top[g] and d >= 0 and codes[i] < codes[at[g]]):
            top[g] = d
            at[g] = i


@njit(cache=True, parallel=True)
def hardest_positions(codes, distance, offsets, hardest, cap, shares):
    """Per piece set, its layouts at its hardest distance: their number and the `cap` smallest codes' positions
    (in code order), as (index, set) pairs. Thread t takes its share of the piece sets (as in :func:`group_stats`)."""
    sets = hardest.shape[0]
    counts = np.zeros(sets, dtype=np.int64)
    kept = np.zeros(sets, dtype=np.int64)
    picks = np.zeros((sets, cap), dtype=np.int64)
    order, starts = shares
    for t in prange(starts.shape[0] - 1):
        for q in range(starts[t], starts[t + 1]):
            _hardest_of(codes, distance, offsets, hardest, cap, order[q], counts, kept, picks)
    out = np.zeros((kept.sum(), 2), dtype=np.int64)
    used = 0
    for s in range(sets):
        for k in range(kept[s]):
            out[used, 0] = picks[s, k]
            out[used, 1] = s
            used += 1
    return out, counts


@njit(cache=True, inline="always")
def _hardest_of(codes, distance, offsets, hardest, cap, s, counts, kept, picks):
    """:func:`hardest_positions` for piece set `s`: keeps the `cap` smallest codes, in order."""
    if hardest[s] < 0:
        return
    for i in range(offsets[s], offsets[s + 1]):
        if distance[i] != hardest[s]:
            continue
        counts[s] += 1
        k = kept[s]
        if k == cap and codes[i] >= codes[picks[s, k - 1]]:
            continue
        if k < cap:
            kept[s] += 1
        else:
            k -= 1
        while k > 0 and codes[picks[s, k - 1]] > codes[i]:
            picks[s, k] = picks[s, k - 1]
            k -= 1
        picks[s, k] = i


@njit(cache=True, parallel=True)
def smallest_codes(codes, group, offsets, first_group, shares):
    """The smallest code of every group while groups are still numbered per set (``first_group[set] + local``);
    thread t takes its share of the piece sets (as in :func:`group_stats`)."""
    smallest = np.zeros(first_group[-1], np.uint64)
    seen = np.zeros(first_group[-1], np.bool_)
    order, starts = shares
    for t in prange(starts.shape[0] - 1):
        for q in range(starts[t], starts[t + 1]):
            s = order[q]
            for i in range(offsets[s], offsets[s + 1]):
                g = first_group[s] + group[i]
                if not seen[g] or codes[i] < smallest[g]:
                    smallest[g] = codes[i]
                    seen[g] = True
    return smallest


@njit(cache=True)
def mirror_code(code, w, h):
    """The code of the mirror image (left and right swapped)."""
    n = w * h
    out = np.uint64(0)
    for r in range(h):
        for c in range(w - 1, -1, -1):
            out = (out << np.uint64(3)) | ((code >> np.uint64(3 * (n - 1 - (r * w + c)))) & SEVEN)
    return out

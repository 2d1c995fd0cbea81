"""Numba kernels: arrays in, arrays out. The wrappers in the sibling modules translate boards.

States are "relabelled": every tile carries the index of its goal cell, so the goal is the identity
and the blank is the label `b` (the blank's goal cell). Blank directions: 0 up, 1 down, 2 left,
3 right (the tile moves the opposite way); `d ^ 1` undoes `d`.
"""

from __future__ import annotations

import time

import numba
import numpy as np
from numba import njit

from tilegames.slide.solve.status import EXHAUSTED, FOUND, NODE_LIMIT, TIME_LIMIT

__all__ = ["EXHAUSTED", "FOUND", "NODE_LIMIT", "TIME_LIMIT"]
_INF = 1 << 40


@njit(cache=True)
def _step(z, d, w, h):
    """Where the blank at `z` goes in direction `d`, or -1 off the board."""
    r = z // w
    c = z - r * w
    if d == 0:
        return z - w if r > 0 else -1
    if d == 1:
        return z + w if r < h - 1 else -1
    if d == 2:
        return z - 1 if c > 0 else -1
    return z + 1 if c < w - 1 else -1


@njit(cache=True)
def _clock():
    with numba.objmode(t="float64"):
        t = time.perf_counter()
    return t


# -- full permutations (small boards) --------------------------------------------------------
@njit(cache=True)
def rank_perm(p):
    """Lehmer rank of a permutation of 0..n−1."""
    n = p.shape[0]
    r = 0
    for i in range(n):
        smaller = 0
        for j in range(i + 1, n):
            if p[j] < p[i]:
                smaller += 1
        r = r * (n - i) + smaller
    return r


@njit(cache=True)
def unrank_perm(r, n, out):
    """Inverse of `rank_perm`, written into `out`."""
    digits = np.empty(n, np.int64)
    for i in range(n - 1, -1, -1):
        base = n - i
        digits[i] = r % base
        r //= base
    used = np.zeros(n, np.bool_)
    for i in range(n):
        k = digits[i]
        for v in range(n):
            if not used[v]:
                if k == 0:
                    out[i] = v
                    used[v] = True
                    break
                k -= 1


@njit(cache=True)
def bfs_full(goal, w, h):
    """Distance (−1 unreachable) from `goal` to every permutation, indexed by `rank_perm`."""
    n = w * h
    total = 1
    for i in range(2, n + 1):
        total *= i
    dist = np.full(total, -1, np.int8)
    queue = np.empty(total // 2 + 1, np.int64)
    state = np.empty(n, np.int64)
    start = rank_perm(goal)
    dist[start] = 0
    queue[0] = start
    head, tail = 0, 1
    while head < tail:
        r = queue[head]
        head += 1
        unrank_perm(r, n, state)
        z = 0
        for i in range(n):
            if state[i] == 0:
                z = i
        for d in range(4):
            s = _step(z, d, w, h)
            if s < 0:
                continue
            state[z], state[s] = state[s], 0
            q = rank_perm(state)
            if dist[q] < 0:
                dist[q] = dist[r] + 1
                queue[tail] = q
                tail += 1
            state[s], state[z] = state[z], 0
    return dist


# -- Manhattan + linear conflict -------------------------------------------------------------
@njit(cache=True)
def _line_removals(state, w, h, b, is_row, idx, buf):
    """Fewest tiles to take out of one line so the tiles that belong there stand in goal order.

    Each such tile must step out of the line and back (+2): counting per tile, not per conflicting
    pair, keeps the heuristic admissible (m − longest increasing subsequence).
    """
    m = 0
    if is_row:
        for c in range(w):
            lab = state[idx * w + c]
            if lab != b and lab // w == idx:
                buf[m] = lab % w
                m += 1
    else:
        for r in range(h):
            lab = state[r * w + idx]
            if lab != b and lab % w == idx:
                buf[m] = lab // w
                m += 1
    if m < 2:
        return 0
    longest = 0
    off = buf.shape[0] // 2
    for i in range(m):
        best = 1
        for j in range(i):
            if buf[j] < buf[i] and buf[off + j] + 1 > best:
                best = buf[off + j] + 1
        buf[off + i] = best
        if best > longest:
            longest = best
    return m - longest


@njit(cache=True)
def manhattan_lc(state, w, h, b, use_lc):
    """Manhattan distance (plus 2 per tile that must leave its line when `use_lc`)."""
    n = w * h
    md = 0
    for p in range(n):
        lab = state[p]
        if lab != b:
            md += abs(p // w - lab // w) + abs(p % w - lab % w)
    if not use_lc:
        return md
    buf = np.empty(2 * max(w, h), np.int64)
    lc = 0
    for r in range(h):
        lc += _line_removals(state, w, h, b, True, r, buf)
    for c in range(w):
        lc += _line_removals(state, w, h, b, False, c, buf)
    return md + 2 * lc


@njit(cache=True)
def batch_heuristic(states, w, h, b, use_lc):
    """`manhattan_lc` for every row of `states` (relabelled), vectorised for tests and benches."""
    out = np.empty(states.shape[0], np.int64)
    for i in range(states.shape[0]):
        out[i] = manhattan_lc(states[i], w, h, b, use_lc)
    return out


@njit(cache=True)
def ida_mdlc(state0, w, h, b, use_lc, wnum, wden, max_nodes, deadline, path):
    """IDA* (weighted when wnum > wden) with Manhattan (+ linear conflict).

    Returns (status, length, nodes); the blank directions of a solution go to `path`.
    The linear-conflict update and its undo are written out where they happen (here and in
    `pdb_kernels.ida_pdb`) on purpose: as separate njit functions the search ran 2–3× slower.
    """
    n = w * h
    maxdepth = path.shape[0]
    state = state0.copy()
    z = 0
    for p in range(n):
        if state[p] == b:
            z = p
    buf = np.empty(2 * max(w, h), np.int64)
    rowlc = np.zeros(h, np.int64)
    collc = np.zeros(w, np.int64)
    md = 0
    for p in range(n):
        lab = state[p]
        if lab != b:
            md += abs(p // w - lab // w) + abs(p % w - lab % w)
    lc = 0
    if use_lc:
        for r in range(h):
            rowlc[r] = _line_removals(state, w, h, b, True, r, buf)
            lc += rowlc[r]
        for c in range(w):
            collc[c] = _line_removals(state, w, h, b, False, c, buf)
            lc += collc[c]
    if md == 0:
        return FOUND, 0, 0
    nodes = 0
    bound = (md + 2 * lc) * wnum
    nxt_dir = np.zeros(maxdepth + 1, np.int64)
    old_md = np.zeros(maxdepth + 1, np.int64)
    old_lc = np.zeros(maxdepth + 1, np.int64)
    old_a = np.zeros(maxdepth + 1, np.int64)
    old_b = np.zeros(maxdepth + 1, np.int64)
    while True:
        next_bound = _INF
        depth = 0
        nxt_dir[0] = 0
        while True:
            if nxt_dir[depth] >= 4:
                if depth == 0:
                    break
                depth -= 1
                # undo path[depth]
                d = path[depth]
                s = z
                z = _step(s, d ^ 1, w, h)
                state[s] = state[z]
                state[z] = b
                md = old_md[depth]
                lc = old_lc[depth]
                if use_lc:
                    if d < 2:
                        rowlc[z // w] = old_a[depth]
                        rowlc[s // w] = old_b[depth]
                    else:
                        collc[z % w] = old_a[depth]
                        collc[s % w] = old_b[depth]
                continue
            d = nxt_dir[depth]
            nxt_dir[depth] = d + 1
            if depth > 0 and d == (path[depth - 1] ^ 1):
                continue
            s = _step(z, d, w, h)
            if s < 0:
                continue
            lab = state[s]
            old_md[depth] = md
            old_lc[depth] = lc
            md += abs(z // w - lab // w) + abs(z % w - lab % w)
            md -= abs(s // w - lab // w) + abs(s % w - lab % w)
            state[z] = lab
            state[s] = b
            if use_lc:
                if d < 2:  # vertical: the rows of both cells change
                    old_a[depth] = rowlc[z // w]
                    old_b[depth] = rowlc[s // w]
                    rowlc[z // w] = _line_removals(state, w, h, b, True, z // w, buf)
                    rowlc[s // w] = _line_removals(state, w, h, b, True, s // w, buf)
                    lc += rowlc[z // w] + rowlc[s // w] - old_a[depth] - old_b[depth]
                else:
                    old_a[depth] = collc[z % w]
                    old_b[depth] = collc[s % w]
                    collc[z % w] = _line_removals(state, w, h, b, False, z % w, buf)
                    collc[s % w] = _line_removals(state, w, h, b, False, s % w, buf)
                    lc += collc[z % w] + collc[s % w] - old_a[depth] - old_b[depth]
            nodes += 1
            hval = md + 2 * lc
            f = (depth + 1) * wden + hval * wnum
            if md == 0:
                path[depth] = d
                return FOUND, depth + 1, nodes
            # h is admissible: a node that cannot finish within maxdepth moves is a dead end.
            dead = depth + 1 + hval > maxdepth
            if dead or f > bound or depth + 1 >= maxdepth:
                if not dead and f > bound and depth + 1 < maxdepth and f < next_bound:
                    next_bound = f
                # undo at once
                state[s] = lab
                state[z] = b
                md = old_md[depth]
                lc = old_lc[depth]
                if use_lc:
                    if d < 2:
                        rowlc[z // w] = old_a[depth]
                        rowlc[s // w] = old_b[depth]
                    else:
                        collc[z % w] = old_a[depth]
                        collc[s % w] = old_b[depth]
            else:
                path[depth] = d
                z = s
                depth += 1
                nxt_dir[depth] = 0
            if nodes >= max_nodes:
                return NODE_LIMIT, 0, nodes
            if (nodes & 0xFFFF) == 0 and _clock() > deadline:
                return TIME_LIMIT, 0, nodes
        if next_bound == _INF:
            return EXHAUSTED, 0, nodes
        bound = next_bound

"""Compiled loops of the whole-universe analysis: enumerate every layout, rank codes, label groups, BFS levels.

Codes as in :mod:`tilegames.klotski.kernels`; the universe is a sorted uint64 array of codes and a position's
index in it is its *rank* (found by binary search inside a bucket of codes sharing their top bits).

These kernels call :func:`tilegames.klotski.kernels.expand`; numba's on-disk cache does not notice a change in
another module, so after changing ``expand`` delete the ``*.nbi``/``*.nbc`` files in ``__pycache__``.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from tilegames.klotski.kernels import expand

SEVEN = np.uint64(7)


@njit(cache=True)
def _set(grid, cell, w, kind, value):
    """Write `value` into the cells a piece of `kind` would cover with its top-left corner at `cell`."""
    grid[cell] = value
    if kind == 2 or kind == 4:
        grid[cell + 1] = value
    if kind == 3 or kind == 4:
        grid[cell + w] = value
    if kind == 4:
        grid[cell + w + 1] = value


@njit(cache=True)
def _free_square(grid, cell, w):
    return grid[cell + 1] < 0 and grid[cell + w] < 0 and grid[cell + w + 1] < 0


@njit(cache=True)
def _walk(w, h, min_empty, out, write):
    """Depth-first walk over tilings (an explicit stack: numba cannot cache recursive functions)."""
    n = w * h
    grid = np.full(n, -1, dtype=np.int64)
    cells = np.zeros(n + 1, dtype=np.int64)
    option = np.zeros(n + 1, dtype=np.int64)
    empties = np.zeros(n + 1, dtype=np.int64)
    big = np.zeros(n + 1, dtype=np.int64)
    count = 0
    depth = 0
    while depth >= 0:
        cell = cells[depth]
        if cell == n:
            if big[depth] and empties[depth] >= min_empty:
                if write:
                    code = np.uint64(0)
                    for i in range(n):
                        code = (code << np.uint64(3)) | np.uint64(grid[i])
                    out[count] = code
                count += 1
            depth -= 1
            continue
        if option[depth] > 0:  # take back the piece placed last time at this depth
            _set(grid, cell, w, option[depth] - 1, -1)
        r, c = cell // w, cell % w
        kind = option[depth]
        # options in increasing occupant type, so codes come out sorted
        while kind <= 4:
            if kind <= 1:
                break
            if kind == 2 and c + 1 < w and grid[cell + 1] < 0:
                break
            if kind == 3 and r + 1 < h and grid[cell + w] < 0:
                break
            if (
                kind == 4
                and not big[depth]
                and c + 1 < w
                and r + 1 < h
                and _free_square(grid, cell, w)
            ):
                break
            kind += 1
        if kind > 4:
            option[depth] = 0
            depth -= 1
            continue
        _set(grid, cell, w, kind, kind)
        option[depth] = kind + 1
        nxt = cell + 1
        while nxt < n and grid[nxt] >= 0:
            nxt += 1
        cells[depth + 1] = nxt
        option[depth + 1] = 0
        empties[depth + 1] = empties[depth] + (1 if kind == 0 else 0)
        big[depth + 1] = 1 if (big[depth] or kind == 4) else 0
        depth += 1
    return count


@njit(cache=True)
def enumerate_codes(w, h, min_empty):
    """Every layout with exactly one 2×2 piece and at least `min_empty` empty cells, as sorted codes."""
    total = _walk(w, h, min_empty, np.zeros(1, dtype=np.uint64), False)
    out = np.zeros(total, dtype=np.uint64)
    _walk(w, h, min_empty, out, True)
    return out


@njit(cache=True)
def rank(codes, buckets, shift, key):
    """Index of `key` in the sorted `codes` (-1 if absent)."""
    lo = buckets[key >> shift]
    hi = buckets[(key >> shift) + np.uint64(1)]
    while lo < hi:
        mid = (lo + hi) >> 1
        if codes[mid] < key:
            lo = mid + 1
        else:
            hi = mid
    if lo < codes.shape[0] and codes[lo] == key:
        return lo
    return -1


@njit(cache=True)
def label_groups(codes, buckets, shift, w, h, tabs, group, queue, state, budget):
    """Label connected groups by BFS over unit steps, resumably: `state` is [next index, head, tail, groups].

    Processes at most `budget` positions and returns how many it did.
    """
    n = w * h
    out_key = np.zeros(n * n + 4 * n, dtype=np.uint64)
    out_hash = np.zeros(n * n + 4 * n, dtype=np.uint64)
    out_move = np.zeros(n * n + 4 * n, dtype=np.int64)
    work = np.zeros(6 * n, dtype=np.int64)
    i, head, tail, groups = state[0], state[1], state[2], state[3]
    total = codes.shape[0]
    done = 0
    while done < budget:
        if head == tail:
            while i < total and group[i] >= 0:
                i += 1
            if i == total:
                break
            group[i] = groups
            groups += 1
            queue[0] = i
            head, tail = 0, 1
        x = queue[head]
        head += 1
        done += 1
        found = expand(codes[x], w, h, True, False, tabs, out_key, out_hash, out_move, work)
        for k in range(found):
            j = rank(codes, buckets, shift, out_key[k])
            if group[j] < 0:
                group[j] = group[x]
                queue[tail] = j
                tail += 1
    state[0], state[1], state[2], state[3] = i, head, tail, groups
    return done


@njit(cache=True, parallel=True)
def bfs_level(codes, buckets, shift, w, h, tabs, steps, distance, level):
    """One level of a multi-source BFS: give distance level + 1 to every unvisited neighbour of level `level`.

    Parallel over blocks of positions; two threads may write the same distance to the same cell, which is benign.
    Returns how many positions got the new level (counted once each after the level, see caller).
    """
    n = w * h
    total = codes.shape[0]
    blocks = 256
    size = (total + blocks - 1) // blocks
    expanded = 0
    for b in prange(blocks):
        out_key = np.zeros(n * n + 4 * n, dtype=np.uint64)
        out_hash = np.zeros(n * n + 4 * n, dtype=np.uint64)
        out_move = np.zeros(n * n + 4 * n, dtype=np.int64)
        work = np.zeros(6 * n, dtype=np.int64)
        local = 0
        for i in range(b * size, min(total, (b + 1) * size)):
            if distance[i] != level:
                continue
            local += 1
            found = expand(codes[i], w, h, steps, False, tabs, out_key, out_hash, out_move, work)
            for k in range(found):
                j = rank(codes, buckets, shift, out_key[k])
                if distance[j] < 0:
                    distance[j] = level + 1
        expanded += local
    return expanded


@njit(cache=True)
def group_stats(group, distance, groups):
    """Per group: size, largest distance (-1 if unsolvable) and the first position at it."""
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
def _mirror_code(code, w, h):
    n = w * h
    out = np.uint64(0)
    for r in range(h):
        for c in range(w - 1, -1, -1):
            out = (out << np.uint64(3)) | ((code >> np.uint64(3 * (n - 1 - (r * w + c)))) & SEVEN)
    return out


@njit(cache=True)
def mirror_figures(codes, buckets, shift, w, h, group, first):
    """(layouts equal to their mirror image, groups that contain the mirror image of their layouts)."""
    symmetric = 0
    for i in range(codes.shape[0]):
        if _mirror_code(codes[i], w, h) == codes[i]:
            symmetric += 1
    symmetric_groups = 0
    for g in range(first.shape[0]):
        j = rank(codes, buckets, shift, _mirror_code(codes[first[g]], w, h))
        if group[j] == g:
            symmetric_groups += 1
    return symmetric, symmetric_groups

"""Compiled kernels of the pairing search (no gravity): one node's verdict, the relaxation with
forbidden pairs, and a canonical key for gravity's grids.

A forbidden pair is two cells of one kind that the search has decided never to pair (the "none of
these" branch). Forbidden pairs are int64 codes `a * size + b` (flat padded cells, a < b) in a
sorted array, so the kernels look them up by binary search.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tilegames.link.path import joinable

DEAD = 0
"""Some kind can no longer be paired (all partners of a tile forbidden, or no pairing left)."""
FORCED = 1
"""`moves` are safe: play them all, no other child is needed."""
BRANCH = 2
"""`moves` are the pairs of one kind that can go now: take one, or forbid them all."""
STUCK = 3
"""No pair can go (tiles remain): a dead end."""
OVER = 4
"""The work budget ran out before a move was found."""


def matchings(m: int) -> np.ndarray:
    """Every way to pair up tiles 0..m-1, one row each (pairs as consecutive entries)."""
    if m == 0:
        return np.zeros((1, 0), np.int64)
    rows = []
    for partner in range(1, m):
        rest = [t for t in range(1, m) if t != partner]
        for sub in matchings(m - 2).tolist():
            rows.append([0, partner] + [rest[t] for t in sub])
    return np.array(rows, np.int64)


_P2, _P4, _P6 = matchings(2), matchings(4), matchings(6)
"""The pairings of a kind's last 2, 4 and 6 tiles (1, 3 and 15 of them)."""


@njit(cache=True)
def forbidden(forbid: np.ndarray, size: int, a: int, b: int) -> bool:
    code = a * size + b if a < b else b * size + a
    i = np.searchsorted(forbid, code)
    return i < forbid.shape[0] and forbid[i] == code


@njit(cache=True)
def node(grid: np.ndarray, count: np.ndarray, forbid: np.ndarray, rank: np.ndarray, budget: int):
    """The verdict at one position of the pairing search: (status, moves, work).

    Kinds are visited by fewest tiles left. For a kind of at most six tiles every allowed pairing
    (no forbidden pair) is listed: none left is DEAD; a pairing whose pairs all connect now, or a
    connectable pair that every allowed pairing uses (a locked kind), is FORCED (removing a pair
    of a solution earlier never hurts without gravity). Otherwise the BRANCH kind is the one with
    the fewest connectable pairs that some allowed pairing uses. Bigger kinds are only scanned
    while no smaller kind offers a branch; `budget` bounds the path tests of that scan (OVER
    when spent).
    Ties between kinds go by `rank[kind]` (a permutation: the search's restarts vary it).
    Moves are rows (r1, c1, r2, c2) in padded coordinates.
    """
    h, w = grid.shape
    size = h * w
    n = 0
    pos = np.empty(size, np.int64)
    key = np.empty(size, np.int64)
    for r in range(h):
        for c in range(w):
            k = grid[r, c]
            if k > 0:
                pos[n] = r * w + c
                key[n] = count[k] * (count.shape[0] + 1) + rank[k]
                n += 1
    order = np.argsort(key[:n], kind="mergesort")
    best = np.empty((0, 4), np.int64)
    best_n = 1 << 62
    work = 0
    conn = np.zeros((6, 6), np.bool_)
    allowed = np.zeros((6, 6), np.bool_)
    used = np.zeros((6, 6), np.int64)  # how many allowed pairings use each pair
    cells = np.empty(n, np.int64)
    s = 0
    while s < n:
        e = s
        while e < n and key[order[e]] == key[order[s]]:
            e += 1
        m = e - s
        for i in range(m):
            cells[i] = pos[order[s + i]]
        if m <= 6:
            table = _P2 if m == 2 else (_P4 if m == 4 else _P6)
            for i in range(m):
                for j in range(i + 1, m):
                    a, b = cells[i], cells[j]
                    allowed[i, j] = not forbidden(forbid, size, a, b)
                    conn[i, j] = allowed[i, j] and joinable(grid, a // w, a % w, b // w, b % w)
                    work += 1
            used[:] = 0
            left = 0
            both = -1
            for p in range(table.shape[0]):
                ok = True
                every = True
                for q in range(m // 2):
                    i, j = table[p, 2 * q], table[p, 2 * q + 1]
                    if not allowed[i, j]:
                        ok = False
                        break
                    if not conn[i, j]:
                        every = False
                if ok:
                    left += 1
                    for q in range(m // 2):
                        used[table[p, 2 * q], table[p, 2 * q + 1]] += 1
                    if every and both < 0:
                        both = p
            if left == 0:
                return DEAD, np.empty((0, 4), np.int64), work
            if both >= 0:  # the whole kind can go now in one allowed pairing
                forced = np.empty((m // 2, 4), np.int64)
                for q in range(m // 2):
                    a, b = cells[table[both, 2 * q]], cells[table[both, 2 * q + 1]]
                    forced[q, 0], forced[q, 1] = a // w, a % w
                    forced[q, 2], forced[q, 3] = b // w, b % w
                return FORCED, forced, work
            found = 0
            for i in range(m):
                for j in range(i + 1, m):
                    if used[i, j] > 0 and conn[i, j]:
                        if used[i, j] == left:  # every pairing left uses it: take it now
                            a, b = cells[i], cells[j]
                            forced = np.empty((1, 4), np.int64)
                            forced[0, 0], forced[0, 1] = a // w, a % w
                            forced[0, 2], forced[0, 3] = b // w, b % w
                            return FORCED, forced, work
                        found += 1
            if 0 < found < best_n:
                best_n = found
                best = np.empty((found, 4), np.int64)
                q = 0
                for i in range(m):
                    for j in range(i + 1, m):
                        if used[i, j] > 0 and conn[i, j]:
                            a, b = cells[i], cells[j]
                            best[q, 0], best[q, 1] = a // w, a % w
                            best[q, 2], best[q, 3] = b // w, b % w
                            q += 1
        elif best_n == 1 << 62:
            found = 0
            rows = np.empty((16, 4), np.int64)
            for i in range(m):
                for j in range(i + 1, m):
                    a, b = cells[i], cells[j]
                    if work >= budget and found == 0:
                        return OVER, np.empty((0, 4), np.int64), work
                    work += 1
                    if forbidden(forbid, size, a, b):
                        continue
                    if joinable(grid, a // w, a % w, b // w, b % w):
                        if found == rows.shape[0]:
                            bigger = np.empty((found * 2, 4), np.int64)
                            bigger[:found] = rows
                            rows = bigger
                        rows[found, 0], rows[found, 1] = a // w, a % w
                        rows[found, 2], rows[found, 3] = b // w, b % w
                        found += 1
                        if found >= 64:  # enough children: the last one forbids these
                            break
                if found >= 64 or (found > 0 and work >= budget):
                    break
            if found > 0:
                best_n = found
                best = rows[:found].copy()
        s = e
    if best_n == 1 << 62:
        return STUCK, np.empty((0, 4), np.int64), work
    return BRANCH, best, work


@njit(cache=True)
def kind_spans(kind: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The first `n` tiles sorted by kind (stable): `order`, and for each tile the span
    `order[start[t]:stop[t]]` of the tiles of its kind."""
    top = 0
    for t in range(n):
        top = max(top, kind[t])
    if top > 4 * n + 256:  # kinds not renumbered (code points): number them by rank
        values = np.unique(kind[:n])
        kind = np.searchsorted(values, kind[:n]).astype(np.int64)
        top = values.shape[0]
    first = np.zeros(top + 2, np.int64)  # a counting sort: the solvers' kinds are 1..K
    for t in range(n):
        first[kind[t] + 1] += 1
    for k in range(top + 1):
        first[k + 1] += first[k]
    order = np.empty(n, np.int64)
    start = np.empty(n, np.int64)
    stop = np.empty(n, np.int64)
    fill = first.copy()
    for t in range(n):
        k = kind[t]
        order[fill[k]] = t
        fill[k] += 1
        start[t] = first[k]
        stop[t] = first[k + 1]
    return order, start, stop


@njit(cache=True)
def relax(grid: np.ndarray, forbid: np.ndarray, hint: np.ndarray, budget: int):
    """True when some tile can never go, whatever is played: (doomed, order tiles went, work).

    The relaxation of `kernels.relax` with forbidden pairs: a tile goes as soon as a path joins it
    to a tile of its kind on the board now that it may still be paired with. Every real play that
    respects the forbidden pairs is also a play here (at the latest), so a tile left over cannot
    go in the real game. When `budget` path tests are spent the answer is "not doomed" (sound).
    """
    h, w = grid.shape
    size = h * w
    n = 0
    pos = np.empty(size, np.int64)
    kind = np.empty(size, np.int64)
    listed = np.zeros(size, np.bool_)
    for i in range(hint.shape[0]):
        p = hint[i]
        if grid[p // w, p % w] > 0 and not listed[p]:
            listed[p] = True
            pos[n] = p
            kind[n] = grid[p // w, p % w]
            n += 1
    for r in range(h):
        for c in range(w):
            if grid[r, c] > 0 and not listed[r * w + c]:
                pos[n] = r * w + c
                kind[n] = grid[r, c]
                n += 1
    gone = np.empty(n, np.int64)
    if n == 0:
        return False, gone, 0
    order, start, stop = kind_spans(kind, n)
    relaxed = grid.copy()
    alive = np.ones(n, np.bool_)
    left = n
    work = 0
    changed = True
    while changed and left > 0:
        changed = False
        for i in range(n):
            if not alive[i]:
                continue
            a = pos[i]
            for s in range(start[i], stop[i]):
                j = order[s]
                if j == i:
                    continue
                b = pos[j]
                if forbid.shape[0] and forbidden(forbid, size, a, b):
                    continue
                work += 1
                if work > budget:
                    return False, gone[: n - left], work
                if joinable(relaxed, a // w, a % w, b // w, b % w):
                    alive[i] = False
                    relaxed[a // w, a % w] = 0
                    gone[n - left] = a
                    left -= 1
                    changed = True
                    break
    return left > 0, gone[: n - left], work


@njit(cache=True)
def canonical(grid: np.ndarray) -> np.ndarray:
    """The inner grid with kinds renumbered 1, 2, ... in reading order of first appearance.

    Two positions that differ only by which kind is which get one key, so a dead end found
    under one labelling is known under every other (int16 cells: up to 32767 kinds)."""
    h, w = grid.shape
    out = np.zeros((h - 2) * (w - 2), np.int16)
    canonical_into(grid, np.zeros(int(grid.max()) + 1, np.int64), out)
    return out


@njit(cache=True)
def canonical_into(grid: np.ndarray, seen: np.ndarray, out: np.ndarray) -> None:
    """`canonical` written into `out`; `seen` is scratch (one entry per kind, 0 on entry and
    on return)."""
    h, w = grid.shape
    nxt = 0
    q = 0
    for r in range(1, h - 1):
        for c in range(1, w - 1):
            k = grid[r, c]
            if k > 0:
                if seen[k] == 0:
                    nxt += 1
                    seen[k] = nxt
                out[q] = seen[k]
            else:
                out[q] = 0
            q += 1
    for r in range(1, h - 1):
        for c in range(1, w - 1):
            seen[max(grid[r, c], 0)] = 0

"""Every position once: the exhaustive search under gravity, for boards that die young.

With gravity a tile keeps its column and its order in it, so a position is named exactly by the
set of tiles gone: a bit mask. This search visits each position reachable from the start once,
depth first, marking a position when it is first seen (an open-addressing table of masks keyed
by Zobrist hashes), and stops at the first cleared board or when none is left: then no play
clears the board, a proof that needs no relaxation.

It pays where the relaxation under gravity (`falling.doomed`) proves nothing: uniformly random
24x12 deals with 72 kinds x 4, on which that relaxation frees every tile at the start, but every
play dies within 20 to 30 pairs. Their reachable positions number 0.1 to 10 million; one costs a
few microseconds here (a move generation from the mask, no undo, no relaxation), against tens in
the move search, which also revisits positions across its restarts.
"""

from __future__ import annotations

import itertools
import time
import weakref
from collections.abc import Sequence

import numpy as np
from numba import njit

from tilegames.link import keys
from tilegames.link.bounds import Bounds, past
from tilegames.link.dense import kind_spans
from tilegames.link.depth import same
from tilegames.link.kernels import settle
from tilegames.link.lean import lean, popcount, prefetch
from tilegames.link.path import joinable, joinable_fallen

SOLVED, DEAD, PAUSE, GROW, ESCAPE, BOX = 0, 1, 2, 3, 4, 5
"""What a call of `run` ended with: a cleared board found, every position seen, the call's
positions spent (call again), the table full (grow it, call again), a position with a move out
of `may` (widen `may`, call again: the position is still on the stack), the outbox full (hand
it over, call again)."""

_SCOUT = 30_000
"""Positions seen with every move before play is confined (0.1 s on 24x12): many clearable deals
are cleared here, and `may` starts with the tiles they took instead of none."""

USED, TOP, NODES, FOUND, OUT, BOXED = range(6)
"""The slots of `meta`: rows in the table, positions on the stack, positions expanded, the row of
the cleared board, the moves out of `may` written to `escapes`, the positions in `outbox`."""


@njit(cache=True)
def tiles(grid: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The tiles of a padded grid, column by column from the bottom up: (column, kind, first),
    where the tiles of column c are `first[c]:first[c + 1]`. A tile's number is its bit."""
    h, w = grid.shape
    col = np.empty(h * w, np.int64)
    kind = np.empty(h * w, np.int64)
    first = np.zeros(w + 1, np.int64)
    n = 0
    for c in range(w):
        first[c] = n
        if 0 < c < w - 1:
            for r in range(h - 2, 0, -1):
                if grid[r, c] > 0:
                    col[n], kind[n] = c, grid[r, c]
                    n += 1
    first[w] = n
    return col[:n].copy(), kind[:n].copy(), first


@lean
def _bit(single: np.uint64) -> int:
    """The index of the one bit set in `single`."""
    i = 0
    if single >> np.uint64(32):
        single >>= np.uint64(32)
        i += 32
    if single >> np.uint64(16):
        single >>= np.uint64(16)
        i += 16
    if single >> np.uint64(8):
        single >>= np.uint64(8)
        i += 8
    while single > np.uint64(1):
        single >>= np.uint64(1)
        i += 1
    return i


_ROW = np.int64(0xFFFFFFFF)


@lean
def _tag(key: np.uint64) -> np.int64:
    """The high bits of a position's hash, kept in its slot of the index beside its row."""
    return np.int64(key >> np.uint64(33)) << 32


@lean
def _find(
    index: np.ndarray, rows: np.ndarray, mask: np.ndarray, key: np.uint64
) -> tuple[bool, np.int64]:
    """The slot of a position in the index: (seen?, slot; the empty slot to fill when not). A
    slot holds its row and the high bits of its hash (`_tag`): a probe reads a row of the table
    only when those agree, and never a hash, so in a table of millions it waits for memory once
    or twice instead of two or three times."""
    last = index.shape[0] - 1
    tag = _tag(key)
    slot = np.int64(key & np.uint64(last))
    while index[slot] >= 0:
        entry = index[slot]
        if entry & ~_ROW == tag and same(rows[entry & _ROW], mask):
            return True, slot
        slot = (slot + 1) & last
    return False, slot


@lean
def _reindex(index: np.ndarray, hashes: np.ndarray, used: int) -> None:
    """Fill the empty `index` (all -1) with the first `used` rows, by their hashes."""
    last = index.shape[0] - 1
    for row in range(used):
        slot = np.int64(hashes[row] & np.uint64(last))
        while index[slot] >= 0:
            slot = (slot + 1) & last
        index[slot] = _tag(hashes[row]) | row


@lean
def _neighbours(
    kind: np.ndarray, at: np.ndarray, height: np.ndarray, c: int, w: int, out: np.ndarray,
    count: np.ndarray,
) -> None:  # fmt: skip
    """The pairs of tiles of a kind side by side in column c, or in c and c + 1, into out[c]."""
    m = 0
    for j in range(height[c]):
        t = at[c, j]
        if j + 1 < height[c] and kind[at[c, j + 1]] == kind[t]:
            out[c, m, 0], out[c, m, 1] = t, at[c, j + 1]
            m += 1
        if c + 1 < w - 1 and j < height[c + 1] and kind[at[c + 1, j]] == kind[t]:
            out[c, m, 0], out[c, m, 1] = t, at[c + 1, j]
            m += 1
    count[c] = m


@lean
def _open(
    grid: np.ndarray, at: np.ndarray, height: np.ndarray, c: int, bottom: int, out: np.ndarray,
    count: np.ndarray,
) -> None:  # fmt: skip
    """The tiles of column c with an empty cell beside them, into out[c]."""
    m = 0
    for j in range(height[c]):
        r = bottom - j
        if grid[r - 1, c] == 0 or grid[r + 1, c] == 0 or grid[r, c - 1] == 0 or grid[r, c + 1] == 0:
            out[c, m] = at[c, j]
            m += 1
    count[c] = m


@njit(cache=True, nogil=True)
def run(
    frame: np.ndarray, col: np.ndarray, kind: np.ndarray, first: np.ndarray, zobrist: np.ndarray,
    rows: np.ndarray, hashes: np.ndarray, parent: np.ndarray, index: np.ndarray,
    stack: np.ndarray, meta: np.ndarray, budget: int, may: np.ndarray, pairable: np.ndarray,
    pinned: np.ndarray, escapes: np.ndarray, keyed: bool, pruned: bool, key_at: np.ndarray,
    key_pair: np.ndarray, version: int, owner: int, outbox: np.ndarray,
) -> int:  # fmt: skip
    """Expand up to `budget` positions from the stack (see the module's docstring).

    `frame` is the padded grid with every tile removed (the ring: 0 open, -1 walled). A position
    is a row of `rows` (bit t set: tile t gone) with its hash and its parent's row; `index` maps
    hashes to rows. A position's children are its moves (all pairs joinable now, or the safe
    macro alone: a kind whose last two, or all four, go without making anything fall), pushed
    worst first so that the best, the fewest left of its kind and nothing falling, is next.

    Play is confined to the tiles of `may`: a position with a move that takes a tile outside it
    ends the call (ESCAPE, the moves in `escapes`). Then one move alone may stand for all (a
    key, `keys.key`): two tiles that stay joinable and could be joined to no other tile alive
    (`pairable`, the pairs that could ever be joined: `closure.pairable`), such that every pair
    that could be joined with a tile above them stays joinable through their fall (a tile falls
    at most by the tiles under it that are not `pinned` under it: `closure.reckon`); failing
    that, the moves of one kind may (`keys.group`; its row's `key_pair` is then -1 - kind, -1).
    Every position with no move inside `may` that play reaches is still reached, and so is a
    move out of `may` if there is one (docs/link.md, solver item 12).
    """
    h, w = frame.shape
    bottom = h - 2
    n = col.shape[0]
    words = rows.shape[1]
    ring = frame[0, 1] == 0
    grid = frame.copy()
    row_of = np.empty(n, np.int64)
    at = np.full((w, h), -1, np.int64)  # at[c, j]: the tile j above the bottom of column c
    order = kind_spans(kind, n)[0]
    kinds = 0
    for t in range(n):
        kinds = max(kinds, kind[t])
    base = np.zeros(kinds + 2, np.int64)  # kind k's tiles are order[base[k]:base[k + 1]]
    for t in range(n):
        base[kind[t] + 1] += 1
    for k in range(kinds + 1):
        base[k + 1] += base[k]
    alive_of = np.zeros(kinds + 1, np.int64)
    alive_may = np.zeros(kinds + 1, np.int64)  # alive tiles of `may` per kind
    keyable = keyed and frame[0, 1] == 0  # with the ring
    fixed = np.zeros(w, np.int64)  # tiles outside `may` in column c: they never go
    for t in range(n):
        if not may[t]:
            fixed[col[t]] += 1
    loose = np.zeros(n, np.int64)  # loose[t]: alive tiles of `may` under t not pinned by it
    # free[t], bit i: the tile i above the bottom of t's column is of `may`, under t and not
    # pinned by it (a word per 64 tiles of the tallest column)
    tallest = 1
    for c in range(1, w - 1):
        tallest = max(tallest, first[c + 1] - first[c])
    free = np.zeros((n, (tallest + 63) // 64), np.uint64)
    for t in range(n):
        for z in range(first[col[t]], t):
            if may[z] and not pinned[t, z]:
                place = z - first[col[t]]
                free[t, place >> 6] |= np.uint64(1) << np.uint64(place & 63)
    under = np.zeros(free.shape[1], np.uint64)  # the alive tiles under one, by place in column
    built = np.full(words, np.uint64(0xFFFFFFFFFFFFFFFF))  # the grid's position: every tile gone
    dirty = np.zeros(w, np.bool_)
    height = np.zeros(w, np.int64)
    col_pairs = np.empty((w, 2 * h, 2), np.int64)  # neighbours: in column c, or c and c + 1
    pairs_in = np.zeros(w, np.int64)
    col_open = np.empty((w, h), np.int64)  # tiles of column c with an empty cell beside
    open_in = np.zeros(w, np.int64)
    stale_pairs = np.ones(w, np.bool_)
    stale_open = np.ones(w, np.bool_)
    is_open = np.zeros(n, np.bool_)  # the tiles of the columns' `col_open`
    open_of = np.zeros(kinds + 1, np.int64)  # how many of them per kind
    moves_of = np.zeros(kinds + 1, np.int64)  # a position's moves per kind (`keys.group`)
    most = 1  # moves a position can have: every two tiles of one kind
    for k in range(1, kinds + 1):
        most += (base[k + 1] - base[k]) * (base[k + 1] - base[k] - 1) // 2
    pair = np.empty((most, 4), np.int64)  # a position's moves: x, y, then a macro's z, w (or -1)
    rank = np.empty(most, np.int64)
    child = np.empty(words, np.uint64)
    gone = np.empty(words, np.uint64)  # the position's row, copied: a slice counts references
    full = np.empty(words, np.uint64)
    for i in range(words):
        bits = n - 64 * i
        full[i] = (
            np.uint64(0xFFFFFFFFFFFFFFFF)
            if bits >= 64
            else (np.uint64(1) << np.uint64(bits)) - np.uint64(1)
        )
    done = 0
    while done < budget:
        top = meta[TOP]
        if top == 0:
            return DEAD
        node = stack[top - 1]
        meta[TOP] = top - 1
        done += 1
        meta[NODES] += 1
        again = node < 0  # expanded by a key of an older version: is the key still one?
        if again:
            node = -node - 1
        # the grid of the position: the columns whose tiles differ from the last one's, rebuilt
        for i in range(words):
            diff = rows[node, i] ^ built[i]
            while diff:
                bit = diff & (~diff + np.uint64(1))
                t = 64 * i + _bit(bit)
                diff ^= bit
                if t < n:
                    dirty[col[t]] = True
                    alive_of[kind[t]] += 1 if (rows[node, i] & bit) == 0 else -1
                    if may[t]:
                        alive_may[kind[t]] += 1 if (rows[node, i] & bit) == 0 else -1
            built[i] = gone[i] = rows[node, i]
        for c in range(1, w - 1):
            if not dirty[c]:
                continue
            dirty[c] = False
            stale_pairs[c - 1] = stale_pairs[c] = True
            stale_open[c - 1] = stale_open[c] = stale_open[c + 1] = True
            j = 0
            for i in range(under.shape[0]):
                under[i] = 0
            for t in range(first[c], first[c + 1]):
                if (rows[node, t >> 6] >> np.uint64(t & 63)) & np.uint64(1) == 0:
                    grid[bottom - j, c] = kind[t]
                    row_of[t] = bottom - j
                    at[c, j] = t
                    loose[t] = 0
                    for i in range(under.shape[0]):
                        loose[t] += popcount(free[t, i] & under[i])
                    place = t - first[c]
                    under[place >> 6] |= np.uint64(1) << np.uint64(place & 63)
                    j += 1
            for r in range(bottom - j, bottom - height[c], -1):
                grid[r, c] = 0
            height[c] = j
        if again and key_pair[node, 0] >= 0 and keys.key(
            grid, row_of, col, kind, loose, fixed, at, height, gone, key_pair[node, 0],
            key_pair[node, 1], pairable, order, base, bottom,
        ):  # fmt: skip
            key_at[node] = version
            continue
        # the moves: neighbours of a kind, then pairs of open tiles (an empty cell beside); each
        # column keeps its lists until it or a neighbour changes
        m = 0
        for c in range(1, w - 1):
            if stale_pairs[c]:
                stale_pairs[c] = False
                _neighbours(kind, at, height, c, w, col_pairs, pairs_in)
            if stale_open[c]:
                stale_open[c] = False
                for i in range(open_in[c]):
                    is_open[col_open[c, i]] = False
                    open_of[kind[col_open[c, i]]] -= 1
                _open(grid, at, height, c, bottom, col_open, open_in)
                for i in range(open_in[c]):
                    is_open[col_open[c, i]] = True
                    open_of[kind[col_open[c, i]]] += 1
            for i in range(pairs_in[c]):
                pair[m, 0], pair[m, 1] = col_pairs[c, i, 0], col_pairs[c, i, 1]
                m += 1
        for k in range(1, kinds + 1):
            if open_of[k] < 2:
                continue
            for p in range(base[k], base[k + 1]):
                x = order[p]
                if not is_open[x]:
                    continue
                rx, cx = row_of[x], col[x]
                for q in range(p + 1, base[k + 1]):
                    y = order[q]
                    if not is_open[y]:
                        continue
                    ry, cy = row_of[y], col[y]
                    if abs(rx - ry) + abs(cx - cy) == 1:
                        continue  # neighbours: listed already
                    if pruned and not pairable[x, y]:
                        continue  # never joined in confined play
                    if (
                        joinable_fallen(height, bottom, rx, cx, ry, cy)
                        if ring
                        else joinable(grid, rx, cx, ry, cy)
                    ):
                        pair[m, 0], pair[m, 1] = x, y
                        m += 1
        out = 0  # a move out of `may`: widen it first
        for i in range(m):
            if not (may[pair[i, 0]] and may[pair[i, 1]]) and out < escapes.shape[0]:
                escapes[out, 0], escapes[out, 1] = pair[i, 0], pair[i, 1]
                out += 1
        if out > 0:
            meta[OUT] = out
            meta[TOP] = top  # this position again, once `may` is wider
            meta[NODES] -= 1
            return ESCAPE
        # the safe macro, a key, else every move in order
        lo, hi = 0, m
        for i in range(m):
            x, y = pair[i, 0], pair[i, 1]
            pair[i, 2] = pair[i, 3] = -1
            rx, cx, ry, cy = row_of[x], col[x], row_of[y], col[y]
            left = alive_of[kind[x]]
            still = keys.still(grid, rx, cx, ry, cy)
            rank[i] = 2 * left + (0 if still else 1)
            if lo != 0 or hi != m or not still or (left != 2 and left != 4):
                continue
            if alive_may[kind[x]] != left:
                continue  # a tile outside `may`: not this macro
            if left == 2:
                lo, hi = i, i + 1
                continue
            z = -1
            for p in range(base[kind[x]], base[kind[x] + 1]):
                t = order[p]
                if (
                    t != x
                    and t != y
                    and (rows[node, t >> 6] >> np.uint64(t & 63)) & np.uint64(1) == 0
                ):
                    if z < 0:
                        z = t
                    else:
                        rz, cz, rt, ct = row_of[z], col[z], row_of[t], col[t]
                        grid[rx, cx] = grid[ry, cy] = 0
                        if joinable(grid, rz, cz, rt, ct) and keys.still(grid, rz, cz, rt, ct):
                            pair[i, 2], pair[i, 3] = z, t
                            lo, hi = i, i + 1
                        grid[rx, cx] = grid[ry, cy] = kind[x]
        key_at[node] = 0
        for i in range(m if keyable and lo == 0 and hi == m else 0):
            x, y = pair[i, 0], pair[i, 1]
            if keys.key(
                grid, row_of, col, kind, loose, fixed, at, height, gone, x, y,
                pairable, order, base, bottom,
            ):  # fmt: skip
                lo, hi = i, i + 1
                key_at[node], key_pair[node, 0], key_pair[node, 1] = version, x, y
                break
        if keyable and lo == 0 and hi == m and m > 1:  # no key: the moves of one kind?
            chosen = keys.kind_for_all(
                grid, row_of, col, kind, loose, fixed, at, height, gone, pair, rank, m,
                moves_of, pairable, order, base, bottom,
            )  # fmt: skip
            if chosen >= 0:
                hi = moves_of[chosen]
                moves_of[chosen] = 0
                key_at[node], key_pair[node, 0], key_pair[node, 1] = version, -1 - chosen, -1
        if meta[USED] + hi - lo > rows.shape[0]:
            meta[TOP] = top  # this position again, once the table has grown
            meta[NODES] -= 1
            return GROW
        if owner >= 0 and meta[BOXED] + hi - lo > outbox.shape[0]:
            meta[TOP] = top  # this position again, once the outbox is handed over
            meta[NODES] -= 1
            return BOX
        if hi - lo > 32:  # best first
            best = np.argsort(rank[lo:hi], kind="mergesort")
            pair[lo:hi] = pair[lo:hi][best]
        for i in range(lo + 1, hi if hi - lo <= 32 else lo):  # few: an insertion sort
            j = i
            while j > lo and rank[j - 1] > rank[j]:
                rank[j - 1], rank[j] = rank[j], rank[j - 1]
                for q in range(4):
                    pair[j - 1, q], pair[j, q] = pair[j, q], pair[j - 1, q]
                j -= 1
        for i in range(hi - 1 if hi - lo > 1 else lo - 1, lo - 1, -1):  # their slots, asked for
            key = hashes[node]
            for q in range(4):
                if pair[i, q] >= 0:
                    key ^= zobrist[pair[i, q]]
            prefetch(index, np.int64(key & np.uint64(index.shape[0] - 1)))
        for i in range(hi - 1, lo - 1, -1):  # worst first: the best is expanded next
            key = hashes[node]
            for q in range(words):
                child[q] = gone[q]
            for q in range(4):
                t = pair[i, q]
                if t >= 0:
                    child[t >> 6] |= np.uint64(1) << np.uint64(t & 63)
                    key ^= zobrist[t]
            if owner >= 0 and np.int64(key >> np.uint64(62)) & 1 != owner:  # the other table's
                b = meta[BOXED]
                for q in range(words):
                    outbox[b, q] = child[q]
                outbox[b, words] = key
                outbox[b, words + 1] = np.uint64(2 * node + owner)
                meta[BOXED] = b + 1
                continue
            seen, slot = _find(index, rows, child, key)
            if seen:
                continue
            new = meta[USED]
            cleared = True
            for q in range(words):
                rows[new, q] = child[q]
                cleared = cleared and child[q] == full[q]
            hashes[new] = key
            parent[new] = node if owner < 0 else 2 * node + owner
            index[slot] = _tag(key) | new
            meta[USED] = new + 1
            if cleared:
                meta[FOUND] = new
                return SOLVED
            stack[meta[TOP]] = new
            meta[TOP] += 1
    return PAUSE


@njit(cache=True, nogil=True)
def take(
    rows: np.ndarray, hashes: np.ndarray, parent: np.ndarray, index: np.ndarray,
    stack: np.ndarray, meta: np.ndarray, inbox: np.ndarray, full: np.ndarray,
) -> int:  # fmt: skip
    """Put the positions of `inbox` (rows of `run`'s outbox: mask, hash, parent) that are new to
    the table in it and on the stack: SOLVED if one is the cleared board, else PAUSE. The table
    must have room for all of them."""
    words = rows.shape[1]
    for i in range(inbox.shape[0]):
        key = inbox[i, words]
        seen, slot = _find(index, rows, inbox[i, :words], key)
        if seen:
            continue
        new = meta[USED]
        rows[new] = inbox[i, :words]
        hashes[new] = key
        parent[new] = np.int64(inbox[i, words + 1])
        index[slot] = _tag(key) | new
        meta[USED] = new + 1
        if np.array_equal(rows[new], full):
            meta[FOUND] = new
            return SOLVED
        stack[meta[TOP]] = new
        meta[TOP] += 1
    return PAUSE


@njit(cache=True, nogil=True)
def _deepest(rows: np.ndarray, used: int) -> tuple[int, int]:
    """The row of `rows[:used]` with the most tiles gone, and how many."""
    best, most = 0, -1
    for r in range(used):
        gone = 0
        for w in range(rows.shape[1]):
            gone += popcount(rows[r, w])
        if gone > most:
            best, most = r, gone
    return best, most


def deepest_line(tables: Sequence[weakref.ref[Exhaust]]) -> list[np.ndarray]:
    """The tiles gone after each step of a line from the start to a position with the most tiles
    gone in `tables` (one search's, weakly held: `Bounds` must not keep them alive), a play for
    `seal` to start from. Another thread may be running the tables, so the line is checked (it
    reaches the start, and each position holds its parent's tiles); [] when it does not hold."""
    held = [table() for table in tables]
    if any(table is None for table in held):
        return []
    found = [(*_deepest(t.rows, int(t.meta[USED])), t) for t in held if t is not None]
    row, _, table = max(found, key=lambda deepest: deepest[1])
    try:
        line = table.line(row, [t for t in held if t is not None])
    except (IndexError, ValueError):
        return []
    if any((before & ~after).any() for before, after in itertools.pairwise(line)):
        return []
    return line


def recheck(tables: Sequence[Exhaust]) -> bool:
    """The stacks of `tables` (of one search) have run out: check their keys of older versions
    against the present one (`Exhaust.revisit`, after a new version if `pairable` is stale).
    True if some were put back on a stack; if not, the search is over."""
    bounds = tables[0].bounds
    if not bounds.current:
        bounds.reckon()
    again = [table.revisit() for table in tables]
    bounds.forget()
    return any(again)


class Exhaust:
    """The exhaustive search from a padded, compact grid under gravity, run a slice at a time.

    `step` expands positions until its budget, a cleared board or the end; `moves` replays the
    line to a cleared board. The table grows by doubling up to `max_bytes` (then `step` answers
    GROW for good and the caller gives up on this search: nothing is claimed).

    With the ring, play is confined to `may` once `scout` positions are seen: the tiles gone in
    those, widened by every move out of it that a position offers. Widening keeps the table:
    every position in it was reached by real moves inside `may`, and one expanded with all its
    moves stays expanded. Only a position expanded by a key alone may need more: a key is chosen
    by `pairable` and `may` as they were (a *version*, `bounds.Bounds`), and a wider `may` can
    spoil it. When the stack runs out, the keys of older versions are checked against the
    present one, and the positions whose key may be spoilt are expanded again (`revisit`). When
    none is left, no play ever takes a tile outside `may`, and if some tile is outside it, none
    clears the board (DEAD).
    `confine=False` searches every move from the start, with no keys (round 7's search: every
    position play reaches but for the safe macros).

    With an `owner` (0 or 1) the table is half of one search (`halves.Halves`): it keeps the
    positions whose hash has that bit 62 (the Zobrist keys have 63 bits) and writes the others
    to `outbox` for the other half, with their parents as `2 * row + owner`, once `bounds.split`
    is set. Only half 0 starts with a position, and until then it runs alone, as a whole table.
    """

    def __init__(
        self,
        grid: np.ndarray,
        max_bytes: int,
        rows: int = 1 << 14,
        confine: bool = True,
        scout: int = _SCOUT,
        owner: int = -1,
        bounds: Bounds | None = None,
    ) -> None:
        self.grid = np.array(grid, np.int32)
        tiles_at = self.grid > 0  # kinds numbered 1..K: the kernel's arrays are indexed by kind
        self.grid[tiles_at] = np.unique(self.grid[tiles_at], return_inverse=True)[1] + 1
        self.frame = np.where(self.grid > 0, 0, self.grid).astype(np.int32)
        self.col, self.kind, self.first = tiles(self.grid)
        n = len(self.col)
        words = max(1, (n + 63) // 64)
        self.max_bytes = max_bytes
        # mask, hash, parent, stack, two index slots, the key's version and tiles
        self.row_bytes = 8 * words + 8 + 8 + 8 + 16 + 4 + 8
        rng = np.random.default_rng(0x5EED)
        self.zobrist = rng.integers(1, 1 << 63, n, dtype=np.int64).astype(np.uint64)
        self.rows = np.zeros((rows, words), np.uint64)
        self.hashes = np.zeros(rows, np.uint64)
        self.parent = np.full(rows, -1, np.int64)
        self.stack = np.zeros(rows, np.int64)
        self.index = np.full(2 * rows, -1, np.int64)
        self.key_at = np.zeros(rows, np.int32)  # the version of the key a row was expanded by
        self.key_pair = np.zeros((rows, 2), np.int32)
        self.meta = np.zeros(6, np.int64)
        self.owner = owner
        self.outbox = np.zeros((4096 if owner >= 0 else 1, words + 2), np.uint64)
        self.restart()
        self.full = False  # no room left: out of memory, or of time to grow (`grow`)
        self.doubled_in = 0.0  # seconds the last `grow` took
        confined = bool(confine and self.frame[0, 1] == 0)
        if bounds is None:
            bounds = Bounds(self.grid, self.col, self.kind, self.first, confined, scout)
            me = weakref.ref(self)
            bounds.deepest = lambda: deepest_line([me])
        self.bounds = bounds
        self.escapes = np.zeros((256, 2), np.int64)
        self.revisited = 0  # positions expanded again: their keys may be spoilt
        self.everyone = np.ones(n, np.bool_)
        self.filled = np.full(words, np.uint64(0xFFFFFFFFFFFFFFFF))  # the cleared board's mask
        if n % 64:
            self.filled[-1] = np.uint64((1 << (n % 64)) - 1)

    @property
    def nodes(self) -> int:
        """Positions expanded so far (and again, `revisited`)."""
        return int(self.meta[NODES])

    @property
    def may(self) -> np.ndarray:
        """The tiles play may take (`Bounds.may`)."""
        return self.bounds.may

    def restart(self) -> None:
        """Back to the start, the positions seen forgotten."""
        self.meta[USED] = self.meta[TOP] = 0 if self.owner == 1 else 1  # row 0: the start
        self.stack[0] = 0
        self.index[:] = -1
        if self.owner != 1:
            self.index[0] = 0  # hash 0: no tile gone

    def step(self, budget: int, until: float | None = None) -> int:
        """Expand up to `budget` positions: SOLVED, DEAD, PAUSE, or GROW when the table is full
        (`full`: out of memory, or growing it would run past the deadline, `grows_in_time`).
        Past `until` (a `perf_counter` time) a step that keeps widening `may` pauses instead."""
        bounds = self.bounds
        goal = self.nodes + budget
        while True:
            status = self.chunk(goal)
            if status == PAUSE and self.nodes < goal:
                continue  # the scouting's end
            if status == ESCAPE:
                bounds.widen(self.escapes[: self.meta[OUT]].ravel(), self.nodes)
                if bounds.halted or past(until):
                    return PAUSE
                continue
            if status == DEAD and not bounds.scouting and bounds.confined and recheck([self]):
                continue
            if status == PAUSE and bounds.seal(self.nodes):
                return DEAD  # no play leaves `may` (`seal`)
            if status != GROW:
                return int(status)
            if not self.grow():
                self.full = True
                return GROW

    def chunk(self, goal: int) -> int:
        """One call of `run` (with the bounds as they are now) towards `goal` positions; the end
        of the scouting first if it has come, and its end the call's too."""
        bounds = self.bounds
        if bounds.scouting and self.nodes >= bounds.scout:
            self.confine()
        stop = min(goal, bounds.scout) if bounds.scouting else goal
        confined = bounds.confined and not bounds.scouting
        may, pairable, pinned, current, version = bounds.now()
        status = run(
            self.frame, self.col, self.kind, self.first, self.zobrist, self.rows, self.hashes,
            self.parent, self.index, self.stack, self.meta, max(stop - self.nodes, 1),
            self.everyone if bounds.scouting else may, pairable, pinned, self.escapes, confined,
            confined and current, self.key_at, self.key_pair, version,
            self.owner if bounds.split else -1, self.outbox,
        )  # fmt: skip
        if status == DEAD and bounds.scouting:  # every position seen: `may` is what went
            bounds.may = self.taken()
        return int(status)

    def confine(self) -> None:
        """End the scouting: `may` is every tile gone in a position seen, and confined play
        starts over (the scouting's positions were expanded with every move: too many)."""
        self.bounds.may = self.taken()
        self.bounds.scouting = False
        self.bounds.grew_at = self.nodes
        self.restart()
        self.bounds.reckon()

    def take(self, inbox: np.ndarray) -> int:
        """The other half's positions in (`take`, the kernel): SOLVED or PAUSE (or GROW when the
        table cannot hold them and cannot grow: `grow`)."""
        while self.meta[USED] + len(inbox) > len(self.hashes):
            if not self.grow():
                self.full = True
                return GROW
        status = take(
            self.rows, self.hashes, self.parent, self.index, self.stack, self.meta, inbox,
            self.filled,
        )  # fmt: skip
        return int(status)

    def split(self) -> None:
        """From a whole table to half 0 (`bounds.split` set next): the parents as `2 * row`. Its
        positions of the other half stay (a position may then be expanded in both: once more)."""
        used = int(self.meta[USED])
        self.parent[1:used] *= 2

    def handed(self) -> np.ndarray:
        """The outbox's positions, copied, and the outbox emptied."""
        out = self.outbox[: self.meta[BOXED]].copy()
        self.meta[BOXED] = 0
        return out

    def revisit(self) -> bool:
        """Put back on the stack every position whose key an older version chose and the present
        one might not; True if there is one. The rest are keys of the present version now."""
        bounds = self.bounds
        used = int(self.meta[USED])
        older = np.flatnonzero((self.key_at[:used] > 0) & (self.key_at[:used] < bounds.version))
        back = []
        for version in np.unique(self.key_at[older]):
            rows = older[self.key_at[older] == version]
            spoilt = bounds.spoilt(*bounds.versions[int(version)])
            pair = self.key_pair[rows]
            one = pair[:, 0] >= 0  # one key; else the moves of kind -1 - pair[:, 0]
            again = np.ones(len(rows), bool)
            again[one] = spoilt[self.col[pair[one, 0]]] | spoilt[self.col[pair[one, 1]]]
            back.append(rows[again])
            self.key_at[rows[~again]] = bounds.version
        again = np.concatenate(back) if back else np.zeros(0, np.int64)
        top = int(self.meta[TOP])
        self.stack[top : top + len(again)] = -again - 1  # to check, or else to expand again
        self.meta[TOP] = top + len(again)
        self.revisited += len(again)
        return len(again) > 0

    def taken(self, start: int = 0, end: int | None = None) -> np.ndarray:
        """The tiles gone in some position of the table (of its rows `start` to `end`)."""
        end = int(self.meta[USED]) if end is None else end
        taken = np.bitwise_or.reduce(self.rows[start:end], axis=0)
        return np.unpackbits(taken.view(np.uint8), bitorder="little")[: len(self.col)] > 0

    def grows_in_time(self) -> bool:
        """Would the next `grow` end before the deadline (`bounds.until`)? It cannot be cut
        short and takes about twice as long as the last (0.3 s from 4 to 8 million rows), so
        a search that grew its table just before its time limit ran that much past it."""
        until = self.bounds.until
        return until is None or time.perf_counter() + 2 * self.doubled_in < until

    def grow(self) -> bool:
        """Double the table, if that stays within `max_bytes` and ends before the deadline."""
        started = time.perf_counter()
        rows = 2 * len(self.hashes)
        if rows * self.row_bytes > self.max_bytes or not self.grows_in_time():
            return False
        used = int(self.meta[USED])

        def bigger(array: np.ndarray, fill: int) -> np.ndarray:
            out = np.full((rows, *array.shape[1:]), fill, array.dtype)
            out[: len(array)] = array
            return out

        self.rows, self.hashes = bigger(self.rows, 0), bigger(self.hashes, 0)
        self.parent, self.stack = bigger(self.parent, -1), bigger(self.stack, 0)
        self.key_at, self.key_pair = bigger(self.key_at, 0), bigger(self.key_pair, 0)
        self.index = np.full(2 * rows, -1, np.int64)
        _reindex(self.index, self.hashes, used)
        self.doubled_in = time.perf_counter() - started
        return True

    def moves(self, halves: Sequence[Exhaust] = ()) -> list[tuple[int, int, int, int]]:
        """The pairs that clear the board (after SOLVED, in this table), padded cells as they are
        when played. A half (`owner`) needs both `halves`: a parent may be in the other."""
        grid = self.grid.copy()
        gone = np.zeros(len(self.col), bool)
        played: list[tuple[int, int, int, int]] = []
        for mask in self.line(int(self.meta[FOUND]), halves):
            bits = np.unpackbits(mask.view(np.uint8), bitorder="little")
            new = [int(t) for t in np.flatnonzero(bits[: len(self.col)].astype(bool) & ~gone)]
            for x, y in self._pairing(grid, new, gone):
                (r1, c1), (r2, c2) = self._cell(x, gone), self._cell(y, gone)
                played.append((r1, c1, r2, c2))
                settle(grid, r1, c1, r2, c2)
                gone[x] = gone[y] = True
        return played

    def line(self, row: int, halves: Sequence[Exhaust] = ()) -> list[np.ndarray]:
        """The masks of the positions from the start (left out) to `row` of this table, by their
        parents; a half needs both `halves`. ValueError if the parents do not reach the start."""
        line: list[np.ndarray] = []
        split = self.owner >= 0 and self.bounds.split
        table = self
        while (table.owner, row) != (0, 0) if split else row > 0:
            if len(line) > len(self.col) // 2 or row < 0:
                raise ValueError("the parents do not lead to the start")
            line.append(table.rows[row].copy())
            up = int(table.parent[row])
            table, row = (halves[up & 1], up >> 1) if split else (table, up)
        return line[::-1]

    def _cell(self, tile: int, gone: np.ndarray) -> tuple[int, int]:
        """The padded cell of a tile while the tiles in `gone` are gone."""
        c = int(self.col[tile])
        below = int(np.count_nonzero(~gone[self.first[c] : tile]))
        return self.grid.shape[0] - 2 - below, c

    def _pairing(
        self, grid: np.ndarray, tiles: list[int], gone: np.ndarray
    ) -> list[tuple[int, int]]:
        """The two tiles of a step, or the four of a macro as two pairs in a playable order (its
        pairs make nothing fall, so the cells of the second do not depend on the first)."""
        if len(tiles) == 2:
            return [(tiles[0], tiles[1])]
        a, b, c, d = tiles
        for one, two in (((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))):
            (r1, c1), (r2, c2) = self._cell(one[0], gone), self._cell(one[1], gone)
            (r3, c3), (r4, c4) = self._cell(two[0], gone), self._cell(two[1], gone)
            if not joinable(grid, r1, c1, r2, c2):
                continue
            after = grid.copy()
            after[r1, c1] = after[r2, c2] = 0
            if joinable(after, r3, c3, r4, c4):
                return [one, two]
        raise AssertionError("a macro step with no playable pairing")

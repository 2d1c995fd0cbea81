"""Compiled hot loops over integer-encoded Klotski positions (numba); arrays in, arrays out.

A position of a board with N <= 21 cells is one uint64 *code*: 3 bits per cell holding its occupant type
(0 empty, 1 = 1×1, 2 = 1×2, 3 = 2×1, 4 = 2×2), cell 0 (top left) in the most significant bits, so sorting codes
sorts positions in reading order. With ``fold`` a position is keyed by ``min(code, mirror code)``.

The ``tabs`` argument is the tuple built by :func:`tilegames.klotski.solve.tables`: ``piece_code[kind, cell]`` (the
code bits of a piece of that kind with its top-left cell there, 0 when it does not fit), ``piece_hash[kind, cell]``
(the XOR of its Zobrist keys; rows 5..8 hold single-cell keys), ``mirror_cell[kind, cell]`` (where its mirror image
stands), ``piece_mask[kind, cell]`` (its cells as a bit mask, bit i = cell i), ``step_to[kind, cell, d]`` (the
top-left cell after one step U, D, L, R, or -1 off the board) and ``halo[kind, cell]`` (the cells a single step
would newly cover, as a bit mask).

Visited sets are keyed on exact codes; the Zobrist hash (kept incrementally per move) only picks the table slot.
"""

from __future__ import annotations

import math
import time

import numpy as np
from numba import njit, objmode

_CLOCK_EVERY = 1023  # expansions between two looks at the clock (mask): about a millisecond

ONE = np.uint64(1)
SEVEN = np.uint64(7)


@njit(cache=True)
def expand(code, w, h, steps, fold, tabs, out_key, out_hash, out_move, work):
    """Write the neighbours of `code` and return their number.

    For each: its key, the Zobrist hash of the keyed orientation, and the move packed as
    ``from | to << 6 | flipped << 12 | steps << 13 | path << 18`` (cells of the piece's top-left corner in `code`'s
    orientation; flipped when the key is the mirror image; path 2 bits per step over U D L R, first step most
    significant). `steps` selects unit steps; otherwise one move per cell a piece reaches in any number of steps.
    `work` is an int64 scratch array of at least 6 * cells.
    """
    piece_code, piece_hash, mirror_cell, piece_mask, step_to, halo = tabs
    n = w * h
    seen = work[0:n]
    queue = work[n : 2 * n]
    heads = work[2 * n : 3 * n]
    kinds = work[3 * n : 4 * n]
    path = work[4 * n : 5 * n]
    length = work[5 * n : 6 * n]
    occupied = np.uint64(0)
    covered = np.uint64(0)
    mcode = np.uint64(0)
    zhash = np.uint64(0)
    mhash = np.uint64(0)
    pieces = 0
    for i in range(n):
        seen[i] = 0
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
        mirrored = mirror_cell[kind, i]
        mcode += piece_code[kind, mirrored]
        zhash ^= piece_hash[kind, i]
        mhash ^= piece_hash[kind, mirrored]
    count = 0
    for p in range(pieces):
        cell = heads[p]
        kind = kinds[p]
        if halo[kind, cell] & ~occupied == 0:  # no empty cell next to it: it cannot move
            continue
        others = occupied ^ piece_mask[kind, cell]
        mirrored = mirror_cell[kind, cell]
        base = code - piece_code[kind, cell]
        mbase = mcode - piece_code[kind, mirrored]
        zbase = zhash ^ piece_hash[kind, cell]
        mzbase = mhash ^ piece_hash[kind, mirrored]
        stamp = p + 1
        seen[cell] = stamp
        path[cell] = 0
        length[cell] = 0
        queue[0] = cell
        head, tail = 0, 1
        while head < tail:
            at = queue[head]
            head += 1
            for d in range(4):
                to = step_to[kind, at, d]
                if to < 0 or seen[to] == stamp or piece_mask[kind, to] & others:
                    continue
                seen[to] = stamp
                path[to] = path[at] * 4 + d
                length[to] = length[at] + 1
                if not steps:
                    queue[tail] = to
                    tail += 1
                key = base + piece_code[kind, to]
                mto = mirror_cell[kind, to]
                mkey = mbase + piece_code[kind, mto]
                flipped = 0
                if fold and mkey < key:
                    flipped = 1
                    out_key[count] = mkey
                    out_hash[count] = mzbase ^ piece_hash[kind, mto]
                else:
                    out_key[count] = key
                    out_hash[count] = zbase ^ piece_hash[kind, to]
                out_move[count] = cell | to << 6 | flipped << 12 | length[to] << 13 | path[to] << 18
                count += 1
    return count


@njit(cache=True)
def _slot(keys, mask, key, hashed):
    """The slot of `key` in an open-addressing table (linear probing), or the empty slot where it would go."""
    slot = hashed & mask
    while keys[slot] != key and keys[slot] != 0:
        slot = (slot + np.uint64(1)) & mask
    return slot


@njit(cache=True)
def _insert(keys, values, mask, key, hashed, value):
    """Insert into the table; return the existing value, or -1 if `key` was new."""
    slot = _slot(keys, mask, key, hashed)
    if keys[slot] == key:
        return values[slot]
    keys[slot] = key
    values[slot] = value
    return -1


@njit(cache=True)
def _lookup(keys, values, mask, key, hashed):
    """The value stored for `key`, or -1 if it is not in the table."""
    slot = _slot(keys, mask, key, hashed)
    return values[slot] if keys[slot] == key else -1


@njit(cache=True)
def _hash_of(key, n, piece_hash):
    """Zobrist hash of a code, from scratch (the search keeps hashes incrementally; this is for the start)."""
    value = np.uint64(0)
    for i in range(n):
        kind = np.int64((key >> np.uint64(3 * (n - 1 - i))) & np.uint64(7))
        if kind != 0:
            value ^= piece_hash[4 + kind, i]  # rows 5..8 hold the single-cell keys
    return value


@njit(cache=True)
def _is_goal(key, goal_masks, goal_bits):
    found = False
    for g in range(goal_masks.shape[0]):
        found = found or (key & goal_masks[g]) == goal_bits[g]
    return found


@njit(cache=True)
def _grow(array, size):
    bigger = np.zeros(size, dtype=array.dtype)
    bigger[: array.shape[0]] = array
    return bigger


@njit(cache=True)
def _rehash(keys_out, count, size, n, tabs):
    table_keys = np.zeros(size, dtype=np.uint64)
    table_values = np.zeros(size, dtype=np.int32)
    mask = np.uint64(size - 1)
    for i in range(count):
        _insert(table_keys, table_values, mask, keys_out[i], _hash_of(keys_out[i], n, tabs[1]), i)
    return table_keys, table_values


@njit(cache=True)
def _bfs_run(w, h, steps, fold, goal_masks, goal_bits, stop_at_goal, limit, tabs,
             keys_out, parents, moves, table_keys, table_values, scratch, head, count, goal, deadline):  # fmt: skip
    """Run the BFS until done or the arrays or table fill up: returns (head, count, goal, stop), stop 0 (none),
    1 (the state limit) or 2 (the deadline, a time.perf_counter() value)."""
    out_key, out_hash, out_move, work = scratch
    mask = np.uint64(table_keys.shape[0] - 1)
    room = min(keys_out.shape[0], table_keys.shape[0] // 2)
    timed = deadline < math.inf
    while head < count:
        if count + out_key.shape[0] > room:
            return head, count, goal, 0
        if timed and (head & _CLOCK_EVERY) == 0:
            with objmode(now="float64"):
                now = time.perf_counter()
            if now > deadline:
                return head, count, goal, 2
        found = expand(keys_out[head], w, h, steps, fold, tabs, out_key, out_hash, out_move, work)
        for k in range(found):
            nxt = out_key[k]
            if _insert(table_keys, table_values, mask, nxt, out_hash[k], count) >= 0:
                continue
            if count >= limit:
                return head, count, goal, 1
            keys_out[count] = nxt
            parents[count] = head
            moves[count] = out_move[k]
            count += 1
            if goal < 0 and _is_goal(nxt, goal_masks, goal_bits):
                goal = count - 1
                if stop_at_goal:
                    return head, count, goal, 0
        head += 1
    return head, count, goal, 0


@njit(cache=True)
def search(
    start,
    w,
    h,
    steps,
    fold,
    goal_masks,
    goal_bits,
    stop_at_goal,
    max_states,
    tabs,
    deadline=math.inf,
):
    """Breadth-first search from `start` (a key), until `max_states` keys or the `deadline` (perf_counter).

    Returns (keys in BFS order, parent index of each, packed move from the parent, index of the first solved key
    or -1, stop: 0 none, 1 the state limit, 2 the deadline). With `stop_at_goal` the search ends at the first solved key, whose depth is optimal.
    """
    n = w * h
    width = n * n + 4 * n
    scratch = (
        np.zeros(width, dtype=np.uint64),
        np.zeros(width, dtype=np.uint64),
        np.zeros(width, dtype=np.int64),
        np.zeros(6 * n, dtype=np.int64),
    )
    capacity = 1 << 14
    keys_out = np.zeros(capacity, dtype=np.uint64)
    parents = np.zeros(capacity, dtype=np.int32)
    moves = np.zeros(capacity, dtype=np.int64)
    table_keys, table_values = _rehash(keys_out, 0, 4 * capacity, n, tabs)
    keys_out[0] = start
    parents[0] = -1
    _insert(
        table_keys, table_values, np.uint64(4 * capacity - 1), start, _hash_of(start, n, tabs[1]), 0
    )
    count = 1
    goal = 0 if _is_goal(start, goal_masks, goal_bits) else -1
    head = 0
    while not (goal >= 0 and stop_at_goal) and head < count:
        head, count, goal, hit = _bfs_run(
            w, h, steps, fold, goal_masks, goal_bits, stop_at_goal, max_states, tabs, keys_out, parents, moves, table_keys, table_values, scratch, head, count, goal, deadline,
        )  # fmt: skip
        if hit:
            return keys_out[:count], parents[:count], moves[:count], goal, hit
        if head == count or (goal >= 0 and stop_at_goal):
            break
        if count + width > keys_out.shape[0]:
            capacity = 2 * keys_out.shape[0]
            keys_out = _grow(keys_out, capacity)
            parents = _grow(parents, capacity)
            moves = _grow(moves, capacity)
        if 2 * (count + width) > table_keys.shape[0]:
            table_keys, table_values = _rehash(keys_out, count, 2 * table_keys.shape[0], n, tabs)
    return keys_out[:count], parents[:count], moves[:count], goal, 0


@njit(cache=True)
def links(keys, w, h, steps, fold, goal_masks, goal_bits, tabs):
    """For a closed set of keys (a whole reachable set): its edges (i < j) and every key's distance to a win.

    Distances are -1 where no solved key is reachable.
    """
    n = w * h
    count = keys.shape[0]
    table_size = 1 << 4
    while table_size < 2 * count:
        table_size *= 2
    table_keys = np.zeros(table_size, dtype=np.uint64)
    table_values = np.zeros(table_size, dtype=np.int32)
    mask = np.uint64(table_size - 1)
    for i in range(count):
        _insert(table_keys, table_values, mask, keys[i], _hash_of(keys[i], n, tabs[1]), i)
    out_key = np.zeros(n * n + 4 * n, dtype=np.uint64)
    out_hash = np.zeros(n * n + 4 * n, dtype=np.uint64)
    out_move = np.zeros(n * n + 4 * n, dtype=np.int64)
    work = np.zeros(6 * n, dtype=np.int64)
    edges = np.zeros((max(16, 4 * count), 2), dtype=np.int32)
    edge_count = 0
    distance = np.full(count, -1, dtype=np.int32)
    queue = np.zeros(count, dtype=np.int32)
    tail = 0
    for i in range(count):
        if _is_goal(keys[i], goal_masks, goal_bits):
            distance[i] = 0
            queue[tail] = i
            tail += 1
    for i in range(count):
        found = expand(keys[i], w, h, steps, fold, tabs, out_key, out_hash, out_move, work)
        for k in range(found):
            j = _lookup(table_keys, table_values, mask, out_key[k], out_hash[k])
            if j > i:
                if edge_count == edges.shape[0]:
                    edges = np.concatenate((edges, np.zeros_like(edges)))
                edges[edge_count, 0] = i
                edges[edge_count, 1] = j
                edge_count += 1
    head = 0
    while head < tail:
        i = queue[head]
        head += 1
        found = expand(keys[i], w, h, steps, fold, tabs, out_key, out_hash, out_move, work)
        for k in range(found):
            j = _lookup(table_keys, table_values, mask, out_key[k], out_hash[k])
            if j >= 0 and distance[j] < 0:
                distance[j] = distance[i] + 1
                queue[tail] = j
                tail += 1
    return edges[:edge_count], distance

"""Anytime weighted A* over pattern databases (Hansen & Zhou 2007): short 5×5 answers, then shorter.

Best-first on f = g + h·num/den with every state kept (so no state is expanded twice along the same
or a longer path, unlike weighted IDA*), and after the first answer the search goes on, pruning every
node whose admissible g + h cannot beat the best answer so far: each later answer is shorter, and an
emptied open list proves the last one optimal.
"""

from __future__ import annotations

import os

import numpy as np
from numba import njit

from tilegames.slide.solve.beam import _zobrist
from tilegames.slide.solve.common import Budget, transform_state
from tilegames.slide.solve.ida import load_tables, path_letters
from tilegames.slide.solve.kernels import EXHAUSTED, FOUND, NODE_LIMIT, TIME_LIMIT, _clock, _step
from tilegames.slide.solve.pdb_kernels import _group_value


@njit(cache=True)
def _push(heap_key, heap_node, size, key, node):
    i = size
    heap_key[i] = key
    heap_node[i] = node
    while i > 0:
        parent = (i - 1) >> 1
        if heap_key[parent] <= heap_key[i]:
            break
        heap_key[parent], heap_key[i] = heap_key[i], heap_key[parent]
        heap_node[parent], heap_node[i] = heap_node[i], heap_node[parent]
        i = parent
    return size + 1


@njit(cache=True)
def _pop(heap_key, heap_node, size):
    node = heap_node[0]
    size -= 1
    heap_key[0] = heap_key[size]
    heap_node[0] = heap_node[size]
    i = 0
    while True:
        left = 2 * i + 1
        if left >= size:
            break
        child = left
        if left + 1 < size and heap_key[left + 1] < heap_key[left]:
            child = left + 1
        if heap_key[i] <= heap_key[child]:
            break
        heap_key[child], heap_key[i] = heap_key[i], heap_key[child]
        heap_node[child], heap_node[i] = heap_node[i], heap_node[child]
        i = child
    return node, size


@njit(cache=True)
def awa_pdb(
    state0, w, h, b, group_of, glabels, gk, factors, tables, refl, zobrist,
    wnum, wden, shorter_than, max_nodes, capacity, deadline, path,
):  # fmt: skip
    """Anytime weighted A* from relabelled `state0` to the identity: (status, length, nodes).

    Only answers shorter than `shorter_than` are looked for; the best is written to `path` (blank
    directions as in `kernels._step`). Status FOUND: stopped at a limit with an answer; EXHAUSTED: the
    search is complete (an answer, if any, is optimal); NODE_LIMIT / TIME_LIMIT: no answer yet.
    At most `capacity` states are kept; then the search stops as at a node limit.
    """
    n = w * h
    ngroups = gk.shape[0]
    use_refl = refl.shape[0] > 0
    cells = np.empty(glabels.shape[1], np.int64)
    pos = np.empty(n, np.int64)
    states = np.empty((capacity, n), np.int8)
    vals = np.empty((capacity, ngroups), np.int16)
    rvals = np.zeros((capacity, ngroups), np.int16)
    gcost = np.empty(capacity, np.int32)
    parent = np.empty(capacity, np.int32)
    pdir = np.empty(capacity, np.int8)
    hashes = np.empty(capacity, np.uint64)
    slots = 1
    while slots < 2 * capacity:
        slots *= 2
    table = np.full(slots, -1, np.int32)
    mask = np.uint64(slots - 1)
    heap_key = np.empty(4 * capacity, np.int64)
    heap_node = np.empty(4 * capacity, np.int32)
    hsize = 0
    hash0 = np.uint64(0)
    for p in range(n):
        states[0, p] = state0[p]
        pos[state0[p]] = p
        hash0 ^= zobrist[state0[p], p]
    total = 0
    rtotal = 0
    for g in range(ngroups):
        vals[0, g] = _group_value(g, pos, glabels, gk, n, factors, tables, refl, False, cells)
        total += vals[0, g]
        if use_refl:
            rvals[0, g] = _group_value(g, pos, glabels, gk, n, factors, tables, refl, True, cells)
            rtotal += rvals[0, g]
    if total == 0:
        return FOUND, 0, 0
    gcost[0] = 0
    parent[0] = -1
    pdir[0] = -1
    hashes[0] = hash0
    table[hash0 & mask] = 0
    count = 1
    h0 = max(total, rtotal)
    hsize = _push(heap_key, heap_node, hsize, (h0 * wnum) << 16, 0)
    best = shorter_than
    best_node = -1
    nodes = 0
    limit_hit = 0
    while hsize > 0:
        node, hsize = _pop(heap_key, heap_node, hsize)
        g0 = gcost[node]
        total = 0
        rtotal = 0
        for gg in range(ngroups):
            total += vals[node, gg]
            rtotal += rvals[node, gg]
        if g0 + max(total, rtotal) >= best:
            continue  # cannot beat the best answer (or was reached again more cheaply)
        for p in range(n):
            pos[states[node, p]] = p
        z = pos[b]
        for d in range(4):
            if d == (pdir[node] ^ 1):
                continue
            s = _step(z, d, w, h)
            if s < 0:
                continue
            lab = states[node, s]
            pos[lab] = z
            pos[b] = s
            g = group_of[lab]
            v = _group_value(g, pos, glabels, gk, n, factors, tables, refl, False, cells)
            hval = total - vals[node, g] + v
            g2 = 0
            rv = 0
            if use_refl:
                g2 = group_of[refl[lab]]
                rv = _group_value(g2, pos, glabels, gk, n, factors, tables, refl, True, cells)
                hval = max(hval, rtotal - rvals[node, g2] + rv)
            pos[lab] = s
            pos[b] = z
            nodes += 1
            g1 = g0 + 1
            if g1 + hval >= best:
                continue
            hsh = hashes[node] ^ zobrist[lab, s] ^ zobrist[lab, z] ^ zobrist[b, z] ^ zobrist[b, s]
            slot = hsh & mask
            found = -1
            while table[slot] >= 0:
                if hashes[table[slot]] == hsh:
                    found = table[slot]
                    break
                slot = (slot + np.uint64(1)) & mask
            if found >= 0:
                if gcost[found] <= g1:
                    continue
                child = found  # a shorter way to a known state: re-open it
            else:
                if count >= capacity:
                    limit_hit = 1
                    break
                child = count
                count += 1
                table[slot] = child
                hashes[child] = hsh
                for p in range(n):
                    states[child, p] = states[node, p]
                states[child, z] = lab
                states[child, s] = b
                for gg in range(ngroups):
                    vals[child, gg] = vals[node, gg]
                    rvals[child, gg] = rvals[node, gg]
                vals[child, g] = v
                if use_refl:
                    rvals[child, g2] = rv
            gcost[child] = g1
            parent[child] = node
            pdir[child] = d
            if hval == 0:
                best = g1
                best_node = child
                continue
            if hsize >= heap_key.shape[0]:
                limit_hit = 1
                break
            key = (g1 * wden + hval * wnum) * 65536 + (65535 - g1)  # ties: deeper first
            hsize = _push(heap_key, heap_node, hsize, key, child)
        if limit_hit or nodes >= max_nodes:
            limit_hit = 1
            break
        if (nodes & 0x3FFF) < 4 and _clock() > deadline:
            limit_hit = 2
            break
    if best_node < 0:
        if limit_hit == 2:
            return TIME_LIMIT, 0, nodes
        return (NODE_LIMIT if limit_hit else EXHAUSTED), 0, nodes
    # Walk the parents (an ancestor reached again more cheaply may have made the chain shorter
    # than the g recorded at the answer), then put the moves in order.
    length = 0
    q = best_node
    while parent[q] >= 0:
        path[length] = pdir[q]
        length += 1
        q = parent[q]
    path[:length] = path[:length][::-1].copy()
    return (FOUND if limit_hit else EXHAUSTED), length, nodes


def anytime_relabelled(
    state: np.ndarray,
    width: int,
    height: int,
    blank: int,
    limits: Budget,
    *,
    weight: tuple[int, int],
    capacity: int,
    shorter_than: int,
    partition: str | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
) -> tuple[int, str, int]:
    """Anytime weighted A* on a relabelled state (goal = identity, blank label `blank`):
    (status, moves, nodes); status EXHAUSTED with moves means the moves are optimal."""
    w, h = width, height
    cell_map, pdb, limits = load_tables(w, h, blank, limits, partition, cache_dir=cache_dir)
    b = blank
    if cell_map is not None:
        state, b = transform_state(state, cell_map), 0
    path = np.zeros(max(1, shorter_than), np.int64)
    status, length, nodes = awa_pdb(
        state, w, h, b, pdb.group_of, pdb.glabels, pdb.gk, pdb.factors, pdb.tables, pdb.refl,
        _zobrist(w * h), weight[0], weight[1], shorter_than, limits.max_nodes, capacity,
        limits.deadline, path,
    )  # fmt: skip
    if length == 0 and status != FOUND:
        return int(status), "", int(nodes)
    return int(status), path_letters(state, b, path[:length], w, cell_map), int(nodes)

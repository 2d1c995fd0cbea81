"""Beam search over pattern databases: a short first answer on 5×5, found in a bounded number of nodes.

Layer by layer from the start, every child of the beam is scored by the additive databases (max with
the reflected lookup), duplicates within a layer are dropped, and the `width` best go on. With the
6-6-6-6 databases this finds 24-puzzle answers a few per cent above optimal in a few million nodes:
a far better incumbent for the weighted IDA* that follows than its own first, heavy-weight answer.
"""

from __future__ import annotations

import os

import numpy as np
from numba import njit

from tilegames.slide.solve.common import Budget, transform_state
from tilegames.slide.solve.ida import load_tables, path_letters
from tilegames.slide.solve.kernels import FOUND, NODE_LIMIT, TIME_LIMIT, _clock, _step
from tilegames.slide.solve.pdb_kernels import _group_value

EMPTY = 3  # status: every branch of the beam died out (dead ends only) before reaching the goal


@njit(cache=True)
def beam_pdb(
    state0, w, h, b, group_of, glabels, gk, factors, tables, refl, zobrist,
    width, max_nodes, deadline, path, seen,
):  # fmt: skip
    """Beam search from relabelled `state0` to the identity; returns (status, length, nodes).

    The blank moves are written to `path` (directions as in `kernels._step`); its length caps the
    depth. Ties in the heuristic are broken by the state's hash, so the search is deterministic.
    """
    n = w * h
    ngroups = gk.shape[0]
    use_refl = refl.shape[0] > 0
    max_depth = path.shape[0]
    cells = np.empty(glabels.shape[1], np.int64)
    pos = np.empty(n, np.int64)
    cur = np.empty((width, n), np.int8)
    nxt = np.empty((width, n), np.int8)
    cur_z = np.empty(width, np.int64)
    nxt_z = np.empty(width, np.int64)
    cur_v = np.zeros((width, ngroups), np.int64)
    nxt_v = np.zeros((width, ngroups), np.int64)
    cur_r = np.zeros((width, ngroups), np.int64)
    nxt_r = np.zeros((width, ngroups), np.int64)
    cur_last = np.full(width, -1, np.int64)
    nxt_last = np.full(width, -1, np.int64)
    cur_hash = np.zeros(width, np.uint64)
    nxt_hash = np.zeros(width, np.uint64)
    parents = np.empty((max_depth, width), np.int32)
    dirs = np.empty((max_depth, width), np.int8)
    ncand_max = 4 * width
    c_parent = np.empty(ncand_max, np.int64)
    c_dir = np.empty(ncand_max, np.int64)
    c_hash = np.empty(ncand_max, np.uint64)
    c_key = np.empty(ncand_max, np.int64)
    c_g = np.empty(ncand_max, np.int64)
    c_gv = np.empty(ncand_max, np.int64)
    c_g2 = np.empty(ncand_max, np.int64)
    c_rv = np.empty(ncand_max, np.int64)
    # the root
    hash0 = np.uint64(0)
    for p in range(n):
        cur[0, p] = state0[p]
        pos[state0[p]] = p
        hash0 ^= zobrist[state0[p], p]
    cur_z[0] = pos[b]
    cur_hash[0] = hash0
    total = 0
    rtotal = 0
    for g in range(ngroups):
        cur_v[0, g] = _group_value(g, pos, glabels, gk, n, factors, tables, refl, False, cells)
        total += cur_v[0, g]
        if use_refl:
            cur_r[0, g] = _group_value(g, pos, glabels, gk, n, factors, tables, refl, True, cells)
            rtotal += cur_r[0, g]
    if total == 0:
        return FOUND, 0, 0
    size = 1
    nodes = 0
    mask = np.uint64(seen.shape[0] - 1)
    room = seen.shape[0] * 3 // 4  # stop remembering past this load: probes stay short
    stored = 0
    for depth in range(max_depth):
        ncand = 0
        for i in range(size):
            for p in range(n):
                pos[cur[i, p]] = p
            z = cur_z[i]
            for d in range(4):
                if cur_last[i] >= 0 and d == (cur_last[i] ^ 1):
                    continue
                s = _step(z, d, w, h)
                if s < 0:
                    continue
                lab = cur[i, s]
                pos[lab] = z
                pos[b] = s
                g = group_of[lab]
                v = _group_value(g, pos, glabels, gk, n, factors, tables, refl, False, cells)
                hval = 0
                for gg in range(ngroups):
                    hval += v if gg == g else cur_v[i, gg]
                g2 = 0
                rv = 0
                if use_refl:
                    g2 = group_of[refl[lab]]
                    rv = _group_value(g2, pos, glabels, gk, n, factors, tables, refl, True, cells)
                    rsum = 0
                    for gg in range(ngroups):
                        rsum += rv if gg == g2 else cur_r[i, gg]
                    hval = max(hval, rsum)
                pos[lab] = s
                pos[b] = z
                nodes += 1
                hsh = cur_hash[i] ^ zobrist[lab, s] ^ zobrist[lab, z] ^ zobrist[b, z] ^ zobrist[b, s]
                if hval == 0:  # the goal: write the path back through the layers
                    path[depth] = d
                    q = i
                    for t in range(depth - 1, -1, -1):
                        path[t] = dirs[t, q]
                        q = parents[t, q]
                    return FOUND, depth + 1, nodes
                if depth + 1 + hval > max_depth:
                    continue
                c_parent[ncand] = i
                c_dir[ncand] = d
                c_hash[ncand] = hsh
                c_key[ncand] = (hval << 40) | np.int64(hsh >> np.uint64(24))
                c_g[ncand] = g
                c_gv[ncand] = v
                c_g2[ncand] = g2
                c_rv[ncand] = rv
                ncand += 1
        if ncand == 0:
            return EMPTY, 0, nodes
        if nodes >= max_nodes:
            return NODE_LIMIT, 0, nodes
        if _clock() > deadline:
            return TIME_LIMIT, 0, nodes
        order = np.argsort(c_key[:ncand])
        size = 0
        last_hash = np.uint64(0)
        for k in range(ncand):
            c = order[k]
            if k > 0 and c_hash[c] == last_hash:
                continue  # the same state reached twice in this layer
            last_hash = c_hash[c]
            key = c_hash[c] | np.uint64(1)  # 0 marks an empty slot
            slot = key & mask
            while seen[slot] != 0 and seen[slot] != key:
                slot = (slot + np.uint64(1)) & mask
            if seen[slot] == key:
                continue  # kept in an earlier layer: no shorter way through it here
            if stored < room:
                seen[slot] = key
                stored += 1
            i = c_parent[c]
            d = c_dir[c]
            for p in range(n):
                nxt[size, p] = cur[i, p]
            z = cur_z[i]
            s = _step(z, d, w, h)
            nxt[size, z] = cur[i, s]
            nxt[size, s] = b
            nxt_z[size] = s
            for gg in range(ngroups):
                nxt_v[size, gg] = cur_v[i, gg]
                nxt_r[size, gg] = cur_r[i, gg]
            nxt_v[size, c_g[c]] = c_gv[c]
            if use_refl:
                nxt_r[size, c_g2[c]] = c_rv[c]
            nxt_last[size] = d
            nxt_hash[size] = c_hash[c]
            parents[depth, size] = i
            dirs[depth, size] = d
            size += 1
            if size == width:
                break
        cur, nxt = nxt, cur
        cur_z, nxt_z = nxt_z, cur_z
        cur_v, nxt_v = nxt_v, cur_v
        cur_r, nxt_r = nxt_r, cur_r
        cur_last, nxt_last = nxt_last, cur_last
        cur_hash, nxt_hash = nxt_hash, cur_hash
    return EMPTY, 0, nodes


def _zobrist(n: int) -> np.ndarray:
    """Fixed random keys per (label, cell): the same hashes, so the same ties, on every run."""
    return np.random.default_rng(20261123).integers(0, 2**63, size=(n, n), dtype=np.uint64)


def _table_size(states: int) -> int:
    """A power of two about twice `states`, at most 2^23 slots (64 MB)."""
    return 1 << min(23, max(10, (2 * states).bit_length()))


def beam_relabelled(
    state: np.ndarray,
    width: int,
    height: int,
    blank: int,
    limits: Budget,
    *,
    beam_width: int,
    max_depth: int,
    partition: str | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
) -> tuple[int, str, int]:
    """Beam search on a relabelled state (goal = identity, blank label `blank`) with the pattern
    databases of `partition`: (status, moves, nodes); answers no longer than `max_depth`."""
    w, h = width, height
    cell_map, pdb, limits = load_tables(w, h, blank, limits, partition, cache_dir=cache_dir)
    b = blank
    if cell_map is not None:
        state, b = transform_state(state, cell_map), 0
    path = np.zeros(max_depth, np.int64)
    status, length, nodes = beam_pdb(
        state, w, h, b, pdb.group_of, pdb.glabels, pdb.gk, pdb.factors, pdb.tables, pdb.refl,
        _zobrist(w * h), beam_width, limits.max_nodes, limits.deadline, path,
        np.zeros(_table_size(beam_width * max_depth), np.uint64),
    )  # fmt: skip
    if status != FOUND:
        return int(status), "", int(nodes)
    return FOUND, path_letters(state, b, path[:length], w, cell_map), int(nodes)

"""Numba kernels for pattern databases: ranking placements, the database BFS, IDA* over the tables.

States are relabelled as in `kernels` (goal = identity, blank label `b`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tilegames.slide.solve.kernels import (
    _INF,
    EXHAUSTED,
    FOUND,
    NODE_LIMIT,
    TIME_LIMIT,
    _clock,
    _line_removals,
    _step,
)


# -- pattern databases -----------------------------------------------------------------------
@njit(cache=True)
def rank_cells(cells, k, n, factors):
    """Rank of `k` distinct cells of `n`, in order, as a k-permutation (0 .. n!/(n−k)! − 1)."""
    r = 0
    for i in range(k):
        c = cells[i]
        smaller = 0
        for j in range(i):
            if cells[j] < c:
                smaller += 1
        r += (c - smaller) * factors[i]
    return r


@njit(cache=True)
def _unrank_from(rem, k, n, factors, out, start, used):
    """Cells of tiles start..k−1 into `out`, given the cells `used` (a mask) of tiles 0..start−1
    and `rem`, the rank modulo factors[start − 1] (the whole rank when start = 0)."""
    for i in range(start, k):
        q = rem // factors[i]
        rem -= q * factors[i]
        for c in range(n):
            if not (used >> np.uint64(c)) & np.uint64(1):
                if q == 0:
                    out[i] = c
                    used |= np.uint64(1) << np.uint64(c)
                    break
                q -= 1


@njit(cache=True)
def _unrank_cells(r, k, n, factors, out):
    """Cells of all k tiles of the placement of rank `r` into `out`."""
    _unrank_from(r, k, n, factors, out, 0, np.uint64(0))


@njit(cache=True)
def _region(start, occupied, nbr, stack):
    """Bit mask of the free cells connected to `start` (the blank's reach without pattern moves)."""
    one = np.uint64(1)
    mask = one << np.uint64(start)
    stack[0] = start
    top = 1
    while top > 0:
        top -= 1
        c = stack[top]
        for d in range(4):
            q = nbr[c, d]
            if q >= 0:
                bit = one << np.uint64(q)
                if not (occupied & bit) and not (mask & bit):
                    mask |= bit
                    stack[top] = q
                    top += 1
    return mask


@njit(cache=True)
def pdb_init(table, visited, queue, labels, k, n, b, factors, nbr):
    """Seed the breadth-first search with the goal: pattern tiles home, blank on its cell."""
    cells = labels[:k].copy()
    occupied = np.uint64(0)
    for i in range(k):
        occupied |= np.uint64(1) << np.uint64(cells[i])
    stack = np.empty(n, np.int64)
    r = rank_cells(cells, k, n, factors)
    visited[r] = _region(b, occupied, nbr, stack)
    table[r] = 0
    queue[0] = (r << 14) | b


@njit(cache=True)
def pdb_expand(table, visited, queue, qstate, k, n, factors, nbr, budget):
    """Run the pattern-database BFS for up to `budget` expansions.

    A state is the pattern tiles' cells plus the region the blank can reach without moving a pattern
    tile (moving other tiles is free: 0-1 BFS collapsed to plain BFS over regions). Each step moves one
    pattern tile into the region at cost 1. `table[rank]` gets the first (least) depth a placement is
    reached at. The queue is a ring; `qstate` = [head, count, filled]. Returns 0 when done, 1 when the
    budget is spent, 2 when the ring needs to grow.
    """
    one = np.uint64(1)
    size = queue.shape[0]
    head, count, filled = qstate[0], qstate[1], qstate[2]
    cells = np.empty(k, np.int64)
    stack = np.empty(n, np.int64)
    status = 0
    done = 0
    while count > 0:
        if done >= budget:
            status = 1
            break
        if count + 4 * k >= size:
            status = 2
            break
        entry = queue[head]
        head += 1
        if head == size:
            head = 0
        count -= 1
        done += 1
        r = entry >> 14
        depth = (entry >> 7) & 127
        z = entry & 127
        _unrank_cells(r, k, n, factors, cells)
        occupied = np.uint64(0)
        for i in range(k):
            occupied |= one << np.uint64(cells[i])
        region = _region(z, occupied, nbr, stack)
        for i in range(k):
            c = cells[i]
            for d in range(4):
                q = nbr[c, d]
                if q < 0 or not (region >> np.uint64(q)) & one:
                    continue
                cells[i] = q
                r2 = rank_cells(cells, k, n, factors)
                cells[i] = c
                if (np.uint64(visited[r2]) >> np.uint64(c)) & one:
                    continue
                occ2 = (occupied & ~(one << np.uint64(c))) | (one << np.uint64(q))
                visited[r2] |= _region(c, occ2, nbr, stack)
                if table[r2] == 255:
                    table[r2] = depth + 1
                    filled += 1
                tail = head + count
                if tail >= size:
                    tail -= size
                queue[tail] = (r2 << 14) | ((depth + 1) << 7) | c
                count += 1
    qstate[0], qstate[1], qstate[2] = head, count, filled
    return status


@njit(cache=True)
def _group_value(g, pos, glabels, gk, n, factors, tables, refl, reflected, cells):
    k = gk[g]
    for i in range(k):
        lab = glabels[g, i]
        if reflected:
            cells[i] = refl[pos[refl[lab]]]
        else:
            cells[i] = pos[lab]
    return tables[g][rank_cells(cells, k, n, factors[g])]


@njit(cache=True)
def pdb_heuristic(state, w, h, b, group_of, glabels, gk, factors, tables, refl):
    """The additive PDB value of a relabelled state (max with the reflected lookup if `refl`)."""
    n = w * h
    pos = np.empty(n, np.int64)
    for p in range(n):
        pos[state[p]] = p
    cells = np.empty(glabels.shape[1], np.int64)
    total = 0
    rtotal = 0
    for g in range(gk.shape[0]):
        total += _group_value(g, pos, glabels, gk, n, factors, tables, refl, False, cells)
        if refl.shape[0] > 0:
            rtotal += _group_value(g, pos, glabels, gk, n, factors, tables, refl, True, cells)
    return max(total, rtotal)


@njit(cache=True)
def controlled_bound(tally, bound, next_bound, target):
    """The next iteration's bound under controlled re-expansion (IDA*_CR, Sarkar et al. 1991): the
    least bound that lets at least `target` of the nodes this iteration cut back in (`tally[e]`:
    the nodes cut at f = bound + e, the last entry for all beyond), and never below `next_bound`."""
    seen = 0
    for excess in range(1, tally.shape[0] - 1):
        seen += tally[excess]
        if seen >= target:
            return max(next_bound, bound + excess)
    return next_bound


@njit(cache=True, nogil=True)
def ida_pdb(
    state0, w, h, b, group_of, glabels, gk, factors, tables, refl,
    use_lc, wnum, wden, max_nodes, deadline, path, growth,
):  # fmt: skip
    """IDA* (weighted when wnum > wden) over additive disjoint pattern databases.

    `group_of[label]` is the group of a tile (−1 for the blank); with a non-empty `refl` (a cell map,
    an involution fixing `b`) the heuristic is the max of the lookup and of the reflected state's
    lookup, where the reflected group g reads the tiles refl(g); with `use_lc` also the max with
    Manhattan + linear conflict (both admissible, so their max is). Returns (status, length, nodes).

    Weighted and with `growth` > 0, the bound grows under controlled re-expansion
    (`controlled_bound`): each iteration lets back in at least `growth` times as many cut nodes as
    it searched. Weighted IDA*'s f-values are fine-grained (f = g·wden + h·wnum), so raising the
    bound to the next f-value alone re-searches the tree once per unit of f: on Korf & Felner's
    24-puzzles, 13 iterations of about 2.2× each to reach 37 M nodes at weight 4/3, where more than
    half of all nodes are re-searches. Any bound sequence keeps the answers legal; with `growth` = 0
    (and always unweighted) the bound is the next f-value, so unweighted answers stay optimal.

    Lazily: most generated nodes are cut, and the plain lookup (a lower bound on the whole heuristic)
    already shows it for most of them, so the reflected lookup and the linear conflicts are read only
    for a node the lookup does not cut, or whose full value could lower the next iteration's bound.
    The search (nodes, cuts, bounds, paths, counts) is that of computing the whole heuristic for
    every node, at 1.08× (4×4) to 1.22× (5×5, linear conflicts) its nodes per second.
    """
    n = w * h
    ngroups = gk.shape[0]
    use_refl = refl.shape[0] > 0
    maxdepth = path.shape[0]
    state = state0.copy()
    pos = np.empty(n, np.int64)
    for p in range(n):
        pos[state[p]] = p
    z = pos[b]
    cells = np.empty(glabels.shape[1], np.int64)
    val = np.zeros(ngroups, np.int64)
    rval = np.zeros(ngroups, np.int64)
    total = 0
    rtotal = 0
    for g in range(ngroups):
        val[g] = _group_value(g, pos, glabels, gk, n, factors, tables, refl, False, cells)
        total += val[g]
        if use_refl:
            rval[g] = _group_value(g, pos, glabels, gk, n, factors, tables, refl, True, cells)
            rtotal += rval[g]
    if total == 0:
        return FOUND, 0, 0
    buf = np.empty(2 * max(w, h), np.int64)
    rowlc = np.zeros(h, np.int64)
    collc = np.zeros(w, np.int64)
    md = 0
    lc = 0
    if use_lc:
        for p in range(n):
            lab = state[p]
            if lab != b:
                md += abs(p // w - lab // w) + abs(p % w - lab % w)
        for r in range(h):
            rowlc[r] = _line_removals(state, w, h, b, True, r, buf)
            lc += rowlc[r]
        for c in range(w):
            collc[c] = _line_removals(state, w, h, b, False, c, buf)
            lc += collc[c]
    nodes = 0
    g2 = 0
    bound = max(total, rtotal, md + 2 * lc) * wnum
    old_md = np.zeros(maxdepth + 1, np.int64)
    old_lc = np.zeros(maxdepth + 1, np.int64)
    old_a = np.zeros(maxdepth + 1, np.int64)
    old_b = np.zeros(maxdepth + 1, np.int64)
    nxt_dir = np.zeros(maxdepth + 1, np.int64)
    old_v = np.zeros(maxdepth + 1, np.int64)
    old_r = np.zeros(maxdepth + 1, np.int64)
    controlled = wnum > wden and growth > 0
    tally = np.zeros(256, np.int64)
    child_v = np.zeros((maxdepth + 1, 4), np.int64)
    child_index = np.zeros(4, np.int64)
    child_group = np.zeros(4, np.int64)
    while True:
        next_bound = _INF
        tally[:] = 0
        searched = nodes
        depth = 0
        nxt_dir[0] = 0
        while True:
            if nxt_dir[depth] >= 4:
                if depth == 0:
                    break
                depth -= 1
                d = path[depth]
                s = z
                z = _step(s, d ^ 1, w, h)
                lab = state[z]
                state[s] = lab
                state[z] = b
                pos[lab] = s
                pos[b] = z
                g = group_of[lab]
                total += old_v[depth] - val[g]
                val[g] = old_v[depth]
                if use_refl:
                    g = group_of[refl[lab]]
                    rtotal += old_r[depth] - rval[g]
                    rval[g] = old_r[depth]
                if use_lc:
                    md = old_md[depth]
                    lc = old_lc[depth]
                    if d < 2:
                        rowlc[z // w] = old_a[depth]
                        rowlc[s // w] = old_b[depth]
                    else:
                        collc[z % w] = old_a[depth]
                        collc[s % w] = old_b[depth]
                continue
            d = nxt_dir[depth]
            nxt_dir[depth] = d + 1
            if d == 0:
                # The plain lookups of all the node's children at once, ranks first and reads
                # after, so that the reads overlap: about 1.15× the nodes per second over the
                # 24-puzzle's 510 MB of tables (cache misses), the same over 4×4's (in the cache).
                for dd in range(4):
                    cell = _step(z, dd, w, h)
                    child_group[dd] = -1
                    if cell < 0 or (depth > 0 and dd == (path[depth - 1] ^ 1)):
                        continue
                    tile = state[cell]
                    grp = group_of[tile]
                    size = gk[grp]
                    for i in range(size):
                        other = glabels[grp, i]
                        cells[i] = z if other == tile else pos[other]
                    child_index[dd] = rank_cells(cells, size, n, factors[grp])
                    child_group[dd] = grp
                for dd in range(4):
                    if child_group[dd] >= 0:
                        child_v[depth, dd] = tables[child_group[dd]][child_index[dd]]
            if depth > 0 and d == (path[depth - 1] ^ 1):
                continue
            s = _step(z, d, w, h)
            if s < 0:
                continue
            lab = state[s]
            state[z] = lab
            state[s] = b
            pos[lab] = z
            pos[b] = s
            g = group_of[lab]
            old_v[depth] = val[g]
            v = child_v[depth, d]
            total += v - val[g]
            val[g] = v
            nodes += 1
            if total == 0:
                path[depth] = d
                return FOUND, depth + 1, nodes
            # The lookup alone: a lower bound on the full value, so on f.
            f = (depth + 1) * wden + total * wnum
            last = depth + 1 >= maxdepth
            dead = depth + 1 + total > maxdepth or last
            cut = dead or (f > bound and f >= next_bound)
            full = not cut
            if controlled and cut and not dead:
                tally[min(f - bound, 255)] += 1
            if full:
                g2 = group_of[refl[lab]] if use_refl else 0
                if use_refl:
                    old_r[depth] = rval[g2]
                    v = _group_value(g2, pos, glabels, gk, n, factors, tables, refl, True, cells)
                    rtotal += v - rval[g2]
                    rval[g2] = v
                if use_lc:
                    old_md[depth] = md
                    old_lc[depth] = lc
                    md += abs(z // w - lab // w) + abs(z % w - lab % w)
                    md -= abs(s // w - lab // w) + abs(s % w - lab % w)
                    if d < 2:
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
                hval = max(total, rtotal, md + 2 * lc)
                f = (depth + 1) * wden + hval * wnum
                dead = depth + 1 + hval > maxdepth
                cut = dead or f > bound
                if not dead and f > bound:
                    next_bound = min(next_bound, f)
                    if controlled:
                        tally[min(f - bound, 255)] += 1
            if cut:
                state[s] = lab
                state[z] = b
                pos[lab] = s
                pos[b] = z
                total += old_v[depth] - val[g]
                val[g] = old_v[depth]
                if full:
                    if use_refl:
                        rtotal += old_r[depth] - rval[g2]
                        rval[g2] = old_r[depth]
                    if use_lc:
                        md = old_md[depth]
                        lc = old_lc[depth]
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
        if controlled:
            bound = controlled_bound(tally, bound, next_bound, growth * (nodes - searched))
        else:
            bound = next_bound

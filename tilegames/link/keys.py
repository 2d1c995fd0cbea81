"""Which move may stand for all in a position of confined play (`exhaust.run`): its keys.

A key is two tiles that stay joinable whatever else goes inside `may`, that could be joined to no
other tile alive (`closure.pairable`: the pairs that some position of play inside `may` could
join), and whose fall parts no pair that could be joined above them. Then any play of other
moves can be reordered to take the key first and the key stays playable (a stubborn set of one
move, Valmari): every position with no move inside `may`, and every move out of it, is still
reached (docs/link.md, solver item 12). Where no move is a key, the moves of one kind may be
(`group`): a stubborn set of several moves.
"""

from __future__ import annotations

import numpy as np

from tilegames.link.lean import lean


@lean
def still(grid: np.ndarray, r1: int, c1: int, r2: int, c2: int) -> bool:
    """Does removing the two tiles make nothing fall (nothing above either but the other)? For a
    compact board: every column resting on the bottom."""
    return (grid[r1 - 1, c1] <= 0 or (r1 - 1 == r2 and c1 == c2)) and (
        grid[r2 - 1, c2] <= 0 or (r2 - 1 == r1 and c1 == c2)
    )


@lean
def _lasting(
    grid: np.ndarray, row_of: np.ndarray, col: np.ndarray, loose: np.ndarray, x: int, y: int,
    bottom: int, w: int,
) -> bool:  # fmt: skip
    """Do x and y (joinable now, with the ring) stay joinable while both are there, whatever
    else goes inside `may`? Two tops, two bottoms, two tiles beside the same side of the ring,
    two tiles one on the other, or two that nothing can lower while they are there (`loose`:
    the tiles of `may` under a tile that can go before it)."""
    rx, cx, ry, cy = row_of[x], col[x], row_of[y], col[y]
    if grid[rx - 1, cx] == 0 and grid[ry - 1, cy] == 0:
        return True
    if rx == bottom and ry == bottom:
        return True
    if cx == cy and (cx == 1 or cx == w - 2 or abs(rx - ry) == 1):
        return True
    return bool(loose[x] == 0 and loose[y] == 0)


@lean
def _robust(t: int, row_of: np.ndarray, col: np.ndarray, fixed: np.ndarray, bottom: int) -> bool:
    """Can no cell beside t ever empty (each neighbouring column keeps more tiles outside `may`
    than t has under it)? Then every path from t leaves up, into the ring or down, and falling
    keeps it: from t's new cell the same path goes on through its old one."""
    w = fixed.shape[0]
    c = col[t]
    for nb in (c - 1, c + 1):  # noqa: SIM110 (a plain loop compiles best)
        if 0 < nb < w - 1 and fixed[nb] <= bottom - row_of[t]:
            return False
    return True


@lean
def _beside(
    t: int, u: int, row_of: np.ndarray, col: np.ndarray, loose: np.ndarray, bottom: int
) -> bool:
    """Could t and u ever sit side by side (neighbouring columns, one height)? `loose[t]`: the
    most t can still fall."""
    if abs(col[t] - col[u]) != 1:
        return False
    height_t, height_u = bottom - row_of[t], bottom - row_of[u]
    return bool(max(height_t - loose[t], height_u - loose[u]) <= min(height_t, height_u))


@lean
def _stays(
    grid: np.ndarray, row_of: np.ndarray, col: np.ndarray, loose: np.ndarray, fixed: np.ndarray,
    x: int, y: int, bottom: int,
) -> bool:  # fmt: skip
    """Do x and y, joinable now, stay joinable whatever else goes inside `may`?"""
    w = fixed.shape[0]
    if _lasting(grid, row_of, col, loose, x, y, bottom, w):
        return True
    rx, cx, ry, cy = row_of[x], col[x], row_of[y], col[y]
    return not (rx == ry and abs(cx - cy) == 1) and (
        _robust(x, row_of, col, fixed, bottom) and _robust(y, row_of, col, fixed, bottom)
    )


@lean
def _parts_none(
    grid: np.ndarray, row_of: np.ndarray, col: np.ndarray, kind: np.ndarray, loose: np.ndarray,
    fixed: np.ndarray, at: np.ndarray, height: np.ndarray, gone: np.ndarray,
    t: int, x: int, y: int, others: int, pairable: np.ndarray, order: np.ndarray,
    base: np.ndarray, bottom: int,
) -> bool:  # fmt: skip
    """Does every pair that could ever be joined with a tile above t survive t's fall? But for
    those of x and y, or of the tiles of kind `others`: the moves that stand for all."""
    w = fixed.shape[0]
    c = col[t]
    for j in range(bottom - row_of[t] + 1, height[c]):
        z = at[c, j]
        k = kind[z]
        if z in (x, y) or k == others:
            continue
        robust = _robust(z, row_of, col, fixed, bottom)
        for p in range(base[k], base[k + 1]):
            u = order[p]
            if u == z or (gone[u >> 6] >> np.uint64(u & 63)) & np.uint64(1):
                continue
            if not pairable[z, u] or _lasting(grid, row_of, col, loose, z, u, bottom, w):
                continue
            if robust and not _beside(z, u, row_of, col, loose, bottom):
                continue
            return False
    return True


@lean
def key(
    grid: np.ndarray, row_of: np.ndarray, col: np.ndarray, kind: np.ndarray, loose: np.ndarray,
    fixed: np.ndarray, at: np.ndarray, height: np.ndarray, gone: np.ndarray,
    x: int, y: int, pairable: np.ndarray, order: np.ndarray, base: np.ndarray, bottom: int,
) -> bool:  # fmt: skip
    """May the move x, y alone stand for all the position's moves (`exhaust.run`'s docstring)?"""
    w = fixed.shape[0]
    k = kind[x]
    for p in range(base[k], base[k + 1]):  # x and y: partners only of each other
        u = order[p]
        if u in (x, y) or (gone[u >> 6] >> np.uint64(u & 63)) & np.uint64(1):
            continue
        if pairable[x, u] or pairable[y, u]:
            return False
    rx, cx, ry, cy = row_of[x], col[x], row_of[y], col[y]
    if not _lasting(grid, row_of, col, loose, x, y, bottom, w) and (  # `_stays`, written out
        (rx == ry and abs(cx - cy) == 1)
        or not _robust(x, row_of, col, fixed, bottom)
        or not _robust(y, row_of, col, fixed, bottom)
    ):
        return False
    # every pair above them that could ever be joined survives their fall: `_parts_none` of x
    # and y, written out here: calls, even without reference counts, made the whole search
    # 8 to 10 % slower (rounds 14 and 15; `_stays` above likewise)
    for t in (x, y):
        c = col[t]
        for j in range(bottom - row_of[t] + 1, height[c]):
            z = at[c, j]
            if z in (x, y):
                continue
            robust = _robust(z, row_of, col, fixed, bottom)
            k = kind[z]
            for p in range(base[k], base[k + 1]):
                u = order[p]
                if u == z or (gone[u >> 6] >> np.uint64(u & 63)) & np.uint64(1):
                    continue
                if not pairable[z, u] or _lasting(grid, row_of, col, loose, z, u, bottom, w):
                    continue
                if robust and not _beside(z, u, row_of, col, loose, bottom):
                    continue
                return False
    return True


@lean
def group(
    grid: np.ndarray, row_of: np.ndarray, col: np.ndarray, kind: np.ndarray, loose: np.ndarray,
    fixed: np.ndarray, at: np.ndarray, height: np.ndarray, gone: np.ndarray,
    pair: np.ndarray, m: int, k: int, count: int, pairable: np.ndarray, order: np.ndarray,
    base: np.ndarray, bottom: int,
) -> bool:  # fmt: skip
    """May the `count` moves of kind k among `pair[:m]` stand for all the position's moves? A
    stubborn set of one kind's moves: every pair of its tiles alive that could ever be joined is
    joinable now (so no other move can enable one), one of them stays joinable whatever else
    goes, and the fall of none parts a pair above that could be joined."""
    joins = 0
    for p in range(base[k], base[k + 1]):
        u = order[p]
        if (gone[u >> 6] >> np.uint64(u & 63)) & np.uint64(1):
            continue
        for q in range(p + 1, base[k + 1]):
            v = order[q]
            if pairable[u, v] and not (gone[v >> 6] >> np.uint64(v & 63)) & np.uint64(1):
                joins += 1
    if joins != count:
        return False
    lasting = False
    for i in range(m):
        x, y = pair[i, 0], pair[i, 1]
        if kind[x] != k:
            continue
        if not pairable[x, y]:
            return False  # a move not counted among the pairs
        if not lasting and _stays(grid, row_of, col, loose, fixed, x, y, bottom):
            lasting = True
    if not lasting:
        return False
    checked = 0  # the tiles of its moves whose fall was looked at, by their place in `order`
    for i in range(m):
        if kind[pair[i, 0]] != k:
            continue
        for t in (pair[i, 0], pair[i, 1]):
            p = 0
            while order[base[k] + p] != t:
                p += 1
            if checked >> p & 1:
                continue
            checked |= 1 << p
            if not _parts_none(
                grid, row_of, col, kind, loose, fixed, at, height, gone, t, -1, -1, k, pairable,
                order, base, bottom,
            ):  # fmt: skip
                return False
    return True


@lean
def kind_for_all(
    grid: np.ndarray, row_of: np.ndarray, col: np.ndarray, kind: np.ndarray, loose: np.ndarray,
    fixed: np.ndarray, at: np.ndarray, height: np.ndarray, gone: np.ndarray, pair: np.ndarray,
    rank: np.ndarray, m: int, moves_of: np.ndarray, pairable: np.ndarray, order: np.ndarray,
    base: np.ndarray, bottom: int,
) -> int:  # fmt: skip
    """The kind whose moves among `pair[:m]` stand for all (`group`), the one with the fewest,
    its moves put first in `pair` and `rank` and their number in `moves_of`; -1 if none.
    `moves_of` is zero before and after but for that entry."""
    for i in range(m):
        moves_of[kind[pair[i, 0]]] += 1
    chosen, fewest = -1, m
    for i in range(m):
        k = kind[pair[i, 0]]
        count = moves_of[k]
        if count < 2 or count >= fewest:
            continue  # tried, or one (it would have been a key), or more moves
        moves_of[k] = 0
        if group(
            grid, row_of, col, kind, loose, fixed, at, height, gone, pair, m, k, count, pairable,
            order, base, bottom,
        ):  # fmt: skip
            chosen, fewest = k, count
    for i in range(m):
        moves_of[kind[pair[i, 0]]] = 0
    if chosen < 0:
        return -1
    j = 0
    for i in range(m):
        if kind[pair[i, 0]] == chosen:
            for q in range(4):
                pair[j, q], pair[i, q] = pair[i, q], pair[j, q]
            rank[j], rank[i] = rank[i], rank[j]
            j += 1
    moves_of[chosen] = fewest
    return chosen

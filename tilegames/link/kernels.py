"""Compiled helpers of the solver (the path kernel itself lives in path.py)."""

from __future__ import annotations

import numpy as np
from numba import njit

from tilegames.link.dense import relax as dense_relax
from tilegames.link.path import find_pairs, joinable


@njit(cache=True)
def doomed(grid: np.ndarray) -> bool:
    """True when some tile can never be removed, whatever is played (a proof of a dead end).

    The relaxation, without gravity: a tile may go as soon as a path joins it to the cell of any
    tile of its kind that is on the board now (that tile may stay). Empties only grow, so every
    removal of the real game is also possible here, at the latest when it happens there; a tile
    this relaxation can never remove (two pairs crossing each other, or any longer cycle of
    tiles blocking each other) cannot be removed in the real game either.
    """
    return relax(grid, np.empty(0, np.int64))[0]


@njit(cache=True)
def relax(grid: np.ndarray, hint: np.ndarray) -> tuple[bool, np.ndarray]:
    """`doomed`, trying the tiles in the order of `hint` (flat cells, e.g. the order that worked
    one move earlier) before the others; returns (doomed, the order in which tiles went).
    The relaxation with no forbidden pairs and no work budget (`dense.relax`)."""
    doomed, gone, _ = dense_relax(grid, np.empty(0, np.int64), hint, 1 << 62)
    return doomed, gone


@njit(cache=True)
def _still(grid: np.ndarray, r1: int, c1: int, r2: int, c2: int) -> bool:
    """Would removing (r1, c1) and (r2, c2) under gravity leave every other tile in place?"""
    h = grid.shape[0]
    for r, c, ro, co in ((r1, c1, r2, c2), (r2, c2, r1, c1)):
        if grid[r - 1, c] > 0 and not (r - 1 == ro and c == co):
            return False  # the tile above would fall
    for c in (c1, c2):
        # after the removal, the tiles of column c must already sit on each other at the bottom
        seen_gap = False
        for r in range(h - 2, 0, -1):
            tile = grid[r, c] > 0 and not ((r == r1 and c == c1) or (r == r2 and c == c2))
            if tile and seen_gap:
                return False  # a floating tile would settle
            if not tile:
                seen_gap = True
    return True


@njit(cache=True)
def expand(grid: np.ndarray, count: np.ndarray, gravity: bool, safe: bool, order: bool):
    """One node of the solver: its moves, or a safe macro move that clears a whole kind.

    `grid` holds kinds renumbered 1..K, `count[k]` the tiles of kind k left. Returns
    (moves, forced): with forced > 0 the first `forced` rows are the safe macro (one pair, or
    two pairs clearing four tiles); else all moves, ordered when `order` (fewest tiles of the
    kind left first, with gravity moves that make nothing fall, then most neighbours).
    """
    moves = find_pairs(grid, False)
    n = moves.shape[0]
    if safe:
        for i in range(n):
            r1, c1, r2, c2 = moves[i, 0], moves[i, 1], moves[i, 2], moves[i, 3]
            kind = grid[r1, c1]
            left = count[kind]
            if left != 2 and left != 4:
                continue
            if gravity and not _still(grid, r1, c1, r2, c2):
                continue
            if left == 2:
                macro = np.empty((1, 4), np.int64)
                macro[0] = moves[i]
                return macro, 1
            grid[r1, c1] = 0
            grid[r2, c2] = 0
            rest = np.empty(4, np.int64)
            k = 0
            for r in range(grid.shape[0]):
                for c in range(grid.shape[1]):
                    if grid[r, c] == kind:
                        rest[k] = r
                        rest[k + 1] = c
                        k += 2
            ok = joinable(grid, rest[0], rest[1], rest[2], rest[3])
            if ok and gravity:
                ok = _still(grid, rest[0], rest[1], rest[2], rest[3])
            grid[r1, c1] = kind
            grid[r2, c2] = kind
            if ok:
                macro = np.empty((2, 4), np.int64)
                macro[0] = moves[i]
                macro[1] = rest
                return macro, 2
    if not order or n < 2:
        return moves, 0
    keys = np.empty(n, np.int64)
    for i in range(n):
        r1, c1, r2, c2 = moves[i, 0], moves[i, 1], moves[i, 2], moves[i, 3]
        opened = 0
        for r, c in ((r1, c1), (r2, c2)):
            opened += (grid[r - 1, c] > 0) + (grid[r + 1, c] > 0)
            opened += (grid[r, c - 1] > 0) + (grid[r, c + 1] > 0)
        falls = 1 if gravity and not _still(grid, r1, c1, r2, c2) else 0
        keys[i] = count[grid[r1, c1]] * 100 + falls * 10 + (9 - opened)
    return moves[np.argsort(keys, kind="mergesort")], 0


@njit(cache=True)
def remove_falling(grid: np.ndarray, r1: int, c1: int, r2: int, c2: int) -> np.ndarray:
    """Remove a pair under gravity: the tiles of the columns involved fall to the bottom.

    Returns the two columns as they were (rows: column c1, column c2) for the undo.
    """
    h = grid.shape[0]
    saved = np.empty((2, h), grid.dtype)
    saved[0] = grid[:, c1]
    saved[1] = grid[:, c2]
    settle(grid, r1, c1, r2, c2)
    return saved


@njit(cache=True)
def settle(grid: np.ndarray, r1: int, c1: int, r2: int, c2: int) -> None:
    """Empty the two cells and let the tiles of their columns fall to the bottom (in place)."""
    h = grid.shape[0]
    grid[r1, c1] = 0
    grid[r2, c2] = 0
    for c in (c1, c2):
        write = h - 2
        for r in range(h - 2, 0, -1):
            if grid[r, c] > 0:
                grid[write, c] = grid[r, c]
                write -= 1
        for r in range(write, 0, -1):
            grid[r, c] = 0

"""A plain-Python twin of :func:`tilegames.klotski.kernels.search` for small searches on a fresh process.

A command such as `tilegames klotski solve 横刀立马` visits some 12,000 positions: the compiled kernel takes
milliseconds for that, but a fresh process first pays about 0.3 s to import numba and as much again to load
its cached kernels. This module runs the same breadth-first search, step for step (the same codes, the same
expansion order, the same packed moves), over Python ints, so it returns exactly what the kernel returns, only
slower per position: the solver uses it for small searches while the kernels are not loaded yet.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache

from tilegames.klotski import zobrist
from tilegames.klotski.board import DIRECTIONS, SHAPES, exit_columns

STEP_NAMES = "UDLR"  # the kernels' direction order
_CLOCK_EVERY = 1023  # expansions between two looks at the clock (mask), as in the kernels


@dataclass(frozen=True)
class PlainTables:
    """Per-board-size tables as Python lists (the kernels take the same as NumPy arrays)."""

    width: int
    height: int
    piece_code: list[list[int]]
    """[kind][cell]: the code bits of a piece of that kind with its top-left cell there (0: does not fit)."""
    piece_hash: list[list[int]]
    """[kind][cell]: the XOR of its Zobrist keys; rows 5..8 hold the single-cell keys."""
    mirror_cell: list[list[int]]
    """[kind][cell]: where its left–right mirror image stands."""
    piece_mask: list[list[int]]
    """[kind][cell]: its cells as a bit mask (bit i = cell i)."""
    step_to: list[list[list[int]]]
    """[kind][cell][d]: its top-left cell after one step U, D, L, R, or -1 off the board."""
    halo: list[list[int]]
    """[kind][cell]: the cells a single step would newly cover, as a bit mask."""
    steps_from: list[list[tuple[tuple[int, int], ...]]]
    """[kind][cell]: the steps on the board as (direction, top-left cell after it), in U D L R order."""
    goal_masks: list[int]
    goal_bits: list[int]


@lru_cache(maxsize=32)
def plain_tables(width: int, height: int) -> PlainTables:
    """The code, hash and mirror tables of a board size (computed once per size)."""
    n = width * height
    piece_code = [[0] * n for _ in range(5)]
    piece_hash = [[0] * n for _ in range(9)]
    mirror_cell = [[0] * n for _ in range(5)]
    piece_mask = [[0] * n for _ in range(5)]
    step_to = [[[-1] * 4 for _ in range(n)] for _ in range(5)]
    for kind, (rows, columns) in SHAPES.items():
        for cell in range(n):
            row, column = divmod(cell, width)
            piece_hash[4 + kind][cell] = zobrist.key(row, column, kind)
            mirror_cell[kind][cell] = row * width + max(0, width - columns - column)
            if row + rows > height or column + columns > width:
                continue
            code = value = mask = 0
            for r in range(row, row + rows):
                for c in range(column, column + columns):
                    code |= kind << 3 * (n - 1 - (r * width + c))
                    value ^= zobrist.key(r, c, kind)
                    mask |= 1 << (r * width + c)
            piece_code[kind][cell] = code
            piece_hash[kind][cell] = value
            piece_mask[kind][cell] = mask
            for d, name in enumerate(STEP_NAMES):
                dr, dc = DIRECTIONS[name]
                r, c = row + dr, column + dc
                if 0 <= r <= height - rows and 0 <= c <= width - columns:
                    step_to[kind][cell][d] = r * width + c
    halo = [[0] * n for _ in range(5)]
    for kind in SHAPES:
        for cell in range(n):
            for d in range(4):
                to = step_to[kind][cell][d]
                if to >= 0:
                    halo[kind][cell] |= piece_mask[kind][to] & ~piece_mask[kind][cell]
    masks, bits = [], []
    for column in exit_columns(width):
        goal = piece_code[4][(height - 2) * width + column]
        masks.append(sum(7 << 3 * (n - 1 - c) for c in range(n) if goal >> 3 * (n - 1 - c) & 7))
        bits.append(goal)
    steps_from = [
        [tuple((d, to) for d, to in enumerate(cell) if to >= 0) for cell in k] for k in step_to
    ]
    return PlainTables(
        width,
        height,
        piece_code,
        piece_hash,
        mirror_cell,
        piece_mask,
        step_to,
        halo,
        steps_from,
        masks,
        bits,
    )


Pieces = list[tuple[int, int]]
"""The pieces of a position as (top-left cell, kind), in reading order of that cell (the kernels' order)."""


def pieces_of(code: int, t: PlainTables) -> tuple[Pieces, int, int]:
    """Decode a code: its pieces, its occupied cells (bit mask) and its mirror image's code."""
    n = t.width * t.height
    occupied = covered = mcode = 0
    pieces = []
    for i in range(n):
        kind = code >> 3 * (n - 1 - i) & 7
        if not kind:
            continue
        bit = 1 << i
        occupied |= bit
        if covered & bit:
            continue
        covered |= t.piece_mask[kind][i]
        pieces.append((i, kind))
        mcode += t.piece_code[kind][t.mirror_cell[kind][i]]
    return pieces, occupied, mcode


def expand(
    code: int, pieces: Pieces, occupied: int, mcode: int, t: PlainTables, steps: bool, fold: bool
) -> list[tuple[int, int, int, int, int]]:
    """The neighbours of `code` (given decoded) as (key, the code of its mirror image, packed move, index of
    the moved piece, its new cell), in the order and with the packing of ``kernels.expand``."""
    piece_code, mirror_cell, piece_mask, halo = t.piece_code, t.mirror_cell, t.piece_mask, t.halo
    out = []
    for p, (cell, kind) in enumerate(pieces):
        if not halo[kind][cell] & ~occupied:  # no empty cell next to it: it cannot move
            continue
        codes, mirrors, masks = piece_code[kind], mirror_cell[kind], piece_mask[kind]
        steps_from = t.steps_from[kind]
        others = occupied ^ masks[cell]
        base = code - codes[cell]
        mbase = mcode - codes[mirrors[cell]]
        paths = {cell: (0, 0)}  # cell reached -> (its step path, 2 bits a step; its length)
        queue = [cell]
        for at in queue:  # grows while it is read: a breadth-first walk of the piece
            path, length = paths[at]
            for d, to in steps_from[at]:
                if to in paths or masks[to] & others:
                    continue
                reached = (path * 4 + d, length + 1)
                paths[to] = reached
                if not steps:
                    queue.append(to)
                key = base + codes[to]
                mkey = mbase + codes[mirrors[to]]
                flipped = fold and mkey < key
                move = cell | to << 6 | flipped << 12 | reached[1] << 13 | reached[0] << 18
                if flipped:
                    out.append((mkey, key, move, p, to))
                else:
                    out.append((key, mkey, move, p, to))
    return out


def search(
    start: int, t: PlainTables, steps: bool, fold: bool, max_states: int, deadline: float
) -> tuple[list[int], list[int], list[int], int, int]:
    """Breadth-first search from `start` to the first solved key, as ``kernels.search`` with stop_at_goal.

    Returns (keys in BFS order, parent index of each, packed move from the parent, index of the first solved key
    or -1, stop: 0 none, 1 the state limit, 2 the deadline, a time.perf_counter() value).
    """
    goals = list(zip(t.goal_masks, t.goal_bits, strict=True))
    keys, parents, moves = [start], [-1], [0]
    if any(start & mask == bits for mask, bits in goals):
        return keys, parents, moves, 0, 0
    decoded: list[tuple[Pieces, int, int] | None] = [pieces_of(start, t)]
    index = {start: 0}
    timed = deadline < float("inf")
    masks, mirror_cell = t.piece_mask, t.mirror_cell
    for head, code in enumerate(keys):  # grows while it is read: the BFS queue
        if timed and not head & _CLOCK_EVERY and time.perf_counter() > deadline:
            return keys, parents, moves, -1, 2
        pieces, occupied, mcode = decoded[head]  # type: ignore[misc]  # set when the key was added
        decoded[head] = None  # expanded: free it
        for key, other, move, p, to in expand(code, pieces, occupied, mcode, t, steps, fold):
            if key in index:
                continue
            if len(keys) >= max_states:
                return keys, parents, moves, -1, 1
            index[key] = len(keys)
            keys.append(key)
            parents.append(head)
            moves.append(move)
            if any(key & mask == bits for mask, bits in goals):
                return keys, parents, moves, len(keys) - 1, 0
            cell, kind = pieces[p]
            child = pieces.copy()
            child[p] = (to, kind)
            # Decode the child once, when it is new (most neighbours are not), from the parent's pieces.
            if move >> 12 & 1:  # keyed as its mirror image: that orientation's pieces
                child = sorted((mirror_cell[k][c], k) for c, k in child)
                child_occupied = 0
                for c, k in child:
                    child_occupied |= masks[k][c]
            else:
                child.sort()
                child_occupied = occupied ^ masks[kind][cell] | masks[kind][to]
            decoded.append((child, child_occupied, other))
    return keys, parents, moves, -1, 0

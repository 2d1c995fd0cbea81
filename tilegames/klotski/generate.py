"""Random layouts, for tests and for puzzles beyond the named ones."""

from __future__ import annotations

import random

from tilegames.common import rng as make_rng
from tilegames.klotski.board import SHAPES, Board
from tilegames.klotski.space import LETTERS


def random_layout(
    width: int = 4, height: int = 5, *, empty: int = 2, seed: int | random.Random | None = None
) -> Board:
    """A random valid layout: one 2×2 piece, `empty` empty cells, the rest filled with random smaller pieces.

    Not uniform over layouts; every layout with `empty` empty cells can come out.
    """
    rng = make_rng(seed)
    n = width * height
    if not 2 <= width <= 10 or not 2 <= height <= 10 or not 0 <= empty <= n - 4:
        raise ValueError(f"cannot deal a {width}×{height} layout with {empty} empty cells")
    for _ in range(10_000):
        cells = ["."] * n
        row, column = rng.randrange(height - 1), rng.randrange(width - 1)
        letters = iter(LETTERS)
        _put(cells, width, row, column, 4, next(letters))
        holes = set(rng.sample([i for i in range(n) if cells[i] == "."], empty))
        ok = True
        for cell in range(n):
            if cells[cell] != "." or cell in holes:
                continue
            r, c = divmod(cell, width)
            kinds = [
                kind
                for kind in (1, 2, 3)
                if all(
                    rr < height
                    and cc < width
                    and cells[rr * width + cc] == "."
                    and rr * width + cc not in holes
                    for rr in range(r, r + SHAPES[kind][0])
                    for cc in range(c, c + SHAPES[kind][1])
                )
            ]
            if not kinds:
                ok = False
                break
            _put(cells, width, r, c, rng.choice(kinds), next(letters))
        if ok:
            return Board(width, height, cells)
    raise ValueError(
        f"could not deal a {width}×{height} layout with {empty} empty cells"
    )  # pragma: no cover


def _put(cells: list[str], width: int, row: int, column: int, kind: int, letter: str) -> None:
    rows, columns = SHAPES[kind]
    for r in range(row, row + rows):
        for c in range(column, column + columns):
            cells[r * width + c] = letter

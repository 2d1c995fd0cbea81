"""Probing the pairings: pairs that no solution plays, found by the relaxations, before the search.

A solution pairs the tiles of each kind in one way (a perfect matching of the kind's tiles). Fix,
for one kind, one of its pairings: forbid every other pair of that kind and run the relaxation
(`dense.relax` without gravity, `falling.doomed` with it), which respects forbidden pairs. When it
proves a dead end, no solution pairs that kind that way. A pair that every surviving pairing of
its kind leaves out is then forbidden for good; a kind with no pairing left proves the whole
position dead. Forbidden pairs make the relaxation stronger, so the probing is repeated until
nothing changes (singleton consistency, as SAT solvers probe literals).

Kinds of four have 3 pairings, kinds of six 15; kinds of more are not probed (8 copies have 105
pairings; fixing one pair at a time instead cost 8-19 million path tests on 30x16 with 60 kinds
x 8 and gravity and proved nothing on the deals tried). Every forbidden pair is one that no solution from the probed position plays, so
the search may skip it; "dead" is claimed only from the relaxation's proofs, never from a budget
that ran out (then the pairs proven so far are returned, which is still sound).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from tilegames.link import dense, falling

_NONE = np.empty(0, np.int64)

_MATCHINGS = {m: dense.matchings(m) for m in (4, 6)}
"""The pairings of the kinds probed (of four and of six tiles)."""


@dataclass(frozen=True)
class Probed:
    """What probing found: a proof that the position is dead, or pairs no solution plays."""

    dead: bool
    forbid: np.ndarray
    """Sorted pair codes `a * size + b` (a < b, flat padded cells of the probed grid)."""
    work: int
    """Path tests spent (at most the budget, plus one relaxation's overrun)."""
    complete: bool
    """False when the budget stopped the probing before it reached its fixed point."""


def probe(
    grid: np.ndarray,
    gravity: bool,
    budget: int,
    forbid: np.ndarray = _NONE,
    clock: Callable[[], None] | None = None,
) -> Probed:
    """Probe every kind's pairings on the padded `grid` (0 empty, -1 wall, > 0 kinds), with at
    most about `budget` path tests, starting from the pairs of `forbid`.

    With gravity the grid should be compact (stacks on the bottom; `falling.doomed` proves
    nothing otherwise) and the codes name the tiles by their cells in this grid. `clock` is
    called between relaxations (the search's deadline check; it may raise).
    """
    h, w = grid.shape
    size = h * w
    flat = grid.ravel()
    cells_of: dict[int, list[int]] = {}
    for cell in np.flatnonzero(flat > 0).tolist():
        cells_of.setdefault(int(flat[cell]), []).append(cell)
    codes = {int(c) for c in forbid.tolist()}
    spent = 0
    hint = _NONE

    def relax(extra: set[int]) -> bool | None:
        """The relaxation with `codes | extra` forbidden: dead? None when out of budget."""
        nonlocal spent, hint
        left = budget - spent
        if left <= 0:
            return None
        array = np.array(sorted(codes | extra), np.int64) if extra or codes else _NONE
        if gravity:
            dead, order, work = falling.doomed(grid, hint, left, array)
        else:
            dead, order, work = dense.relax(grid, array, hint, left)
        spent += work
        if clock is not None:
            clock()
        if work > left:
            return None
        if not dead and not extra:
            hint = order
        return bool(dead)

    def code(a: int, b: int) -> int:
        return int(a * size + b if a < b else b * size + a)

    def result(dead: bool, complete: bool) -> Probed:
        return Probed(dead, np.array(sorted(codes), np.int64) if codes else _NONE, spent, complete)

    first = relax(set())
    if first is None:
        return result(False, False)
    if first:
        return result(True, True)
    kinds = sorted(cells_of, key=lambda k: (len(cells_of[k]), k))
    changed = True
    while changed:
        changed = False
        for kind in kinds:
            cells = cells_of[kind]
            m = len(cells)
            if m not in _MATCHINGS:
                continue
            every = {code(cells[i], cells[j]) for i in range(m) for j in range(i + 1, m)}
            options = [
                {code(cells[row[2 * q]], cells[row[2 * q + 1]]) for q in range(m // 2)}
                for row in _MATCHINGS[m].tolist()
            ]
            kept: set[int] = set()
            for chosen in options:
                if chosen & codes:
                    continue
                extra = every - chosen - codes
                verdict = relax(extra)
                if verdict is None:
                    return result(False, False)
                if not verdict:
                    kept |= chosen
            if not kept:
                codes |= every
                return result(True, True)
            out = every - kept - codes
            if out:
                codes |= out
                changed = True
    return result(False, True)

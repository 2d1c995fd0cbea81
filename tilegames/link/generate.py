"""Deals and reshuffles: uniform shuffles, and boards that can be cleared by construction.

A random deal that the solver quickly shows to be clearable is kept as it is (most are). Any
other board is made clearable by playing it out on a copy: remove a random connectable pair
again and again; whenever the copy gets stuck, relabel the tiles that remain (shuffle their
kinds). Which cells are free depends only on which cells are occupied, never on kinds, so a
relabelling keeps every earlier removal legal; carrying the labels back to the starting cells
(tiles are tracked by identity, so this holds with gravity too) gives a board together with a
solution.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from tilegames.common import Limits, SearchLimitError
from tilegames.common import rng as make_rng
from tilegames.link.board import Board, LinkError, Pair
from tilegames.link.path import find_pairs

#: Kind characters in the order deals use them.
KINDS = (
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    "αβγδεζηθικλμνξπρστυφχψωΓΔΘΛΞΠΣΦΨΩ"
    "бгджзилпфцчшщъыэюяБГДЖЗИЛПФЦЧШЩЭЮЯ"
)

#: How many random relabellings to try before forcing a pair by a swap.
_TRIES = 200
#: The solver's node budget when checking a random deal before any relabelling.
_PROOF_NODES = 3000


class DealError(LinkError):
    """Deal parameters that cannot make a board, or tiles no arrangement can give a move."""


@dataclass(frozen=True)
class Deal:
    """A dealt board with a proof that it can be cleared."""

    board: Board
    """The board, as dealt."""
    solution: list[Pair]
    """Pairs that clear it in this order (empty for a plain random deal)."""


def _layout(width: int, height: int, kinds: int, copies: int) -> list[str]:
    """The multiset of kinds for a full board: groups of `copies` tiles, kinds taken in turn."""
    if width < 1 or height < 1:
        raise DealError(f"a board needs at least one row and column, not {width}x{height}")
    if copies < 2 or copies % 2:
        raise DealError(f"copies must be even and at least 2, not {copies}")
    if not 1 <= kinds <= len(KINDS):
        raise DealError(f"kinds must be from 1 to {len(KINDS)}, not {kinds}")
    cells = width * height
    if cells % copies:
        raise DealError(f"{width}x{height} has {cells} cells, not a multiple of copies={copies}")
    groups = cells // copies
    if kinds > groups:
        raise DealError(
            f"{kinds} kinds x {copies} copies = {kinds * copies} tiles do not fit "
            f"a {width}x{height} board of {cells} cells"
        )
    return [KINDS[g % kinds] for g in range(groups) for _ in range(copies)]


def deal(
    width: int,
    height: int,
    kinds: int,
    copies: int = 4,
    *,
    seed: int | random.Random | None = None,
    gravity: bool = False,
    solvable: bool = True,
    ring: bool = True,
) -> Board:
    """A full `width` x `height` board of `kinds` kinds, each in groups of `copies` tiles.

    When `kinds * copies` is less than the cells, kinds repeat in turn (KShisen's 30x16 uses 36
    kinds). With `solvable` the board can be cleared (by construction), else it is a plain
    uniform random arrangement.
    """
    return deal_with_solution(
        width, height, kinds, copies, seed=seed, gravity=gravity, solvable=solvable, ring=ring
    ).board


def deal_with_solution(
    width: int,
    height: int,
    kinds: int,
    copies: int = 4,
    *,
    seed: int | random.Random | None = None,
    gravity: bool = False,
    solvable: bool = True,
    ring: bool = True,
) -> Deal:
    """Like `deal`, also returning the solution the construction played."""
    rng = make_rng(seed)
    tiles = _layout(width, height, kinds, copies)
    rng.shuffle(tiles)
    rows = ["".join(tiles[r * width : (r + 1) * width]) for r in range(height)]
    board = Board(rows, gravity=gravity, ring=ring)
    if not solvable:
        return Deal(board, [])
    return _proved_or_constructed(board, rng)


def _proved_or_constructed(board: Board, rng: random.Random) -> Deal:
    """Keep `board` if the solver quickly shows a way to clear it, else relabel it until it can.

    Most random deals can be cleared (94 of 100 plain 18x8 deals), and keeping those untouched
    keeps the deal as random as it can be; the construction covers the rest. A node limit, not a
    clock, bounds the solver, so a seed gives the same deal on every machine.
    """
    from tilegames.link.solve import solve

    try:
        solution = solve(board, limits=Limits(max_nodes=_PROOF_NODES))
    except SearchLimitError:
        solution = None
    if solution is not None:
        return Deal(board, solution.moves)
    return make_clearable(board, rng)


def reshuffle(
    board: Board, seed: int | random.Random | None = None, *, solvable: bool = True
) -> Board:
    """A new board: the kinds shuffled over the occupied cells, empty cells left empty.

    The shuffle is Fisher-Yates (uniform), redrawn until the board has a move, so it is uniform
    over the arrangements that have one. With `solvable` the result is then kept if the solver
    quickly shows it can be cleared, else made clearable like a deal (`make_clearable`). The
    move stack is not kept.
    """
    rng = make_rng(seed)
    cells = [cell for cell, _ in board.cells()]
    if not cells:
        return board.copy(stack=False)
    grid = board.grid()
    kinds = [kind for _, kind in board.cells()]
    for _ in range(_TRIES):
        rng.shuffle(kinds)
        _label(grid, cells, kinds)
        if len(find_pairs(grid, True)):
            break
    else:
        _force_pair(grid, cells, rng)
    result = Board.from_grid(grid, gravity=board.gravity)
    if solvable:
        result = _proved_or_constructed(result, rng).board
    return result


def _label(grid: np.ndarray, cells: list[tuple[int, int]], kinds: list[str]) -> None:
    for (r, c), kind in zip(cells, kinds, strict=True):
        grid[r + 1, c + 1] = ord(kind)


def _force_pair(grid: np.ndarray, cells: list[tuple[int, int]], rng: random.Random) -> None:
    """Relabel (in place, a padded grid) so that some geometrically connectable pair of cells holds one kind."""
    occupied = [(r + 1, c + 1) for r, c in cells]
    marker = np.where(grid > 0, 1, grid)  # every tile one kind: any connectable pair shows
    candidates = find_pairs(marker.astype(np.int32), False)
    if len(candidates) == 0:
        raise DealError("no arrangement of these tiles has a move: no two cells can be joined")
    r1, c1, r2, c2 = candidates[rng.randrange(len(candidates))].tolist()
    kind = grid[r1, c1]
    if grid[r2, c2] != kind:
        other = next(p for p in occupied if grid[p] == kind and p != (r1, c1))
        grid[other], grid[r2, c2] = grid[r2, c2], kind


def make_clearable(board: Board, seed: int | random.Random | None = None) -> Deal:
    """Relabel the tiles of `board` (same cells, same kinds in all) so that it can be cleared.

    Plays the board out on a copy, a random removable pair at a time, and whenever the copy is
    stuck shuffles the kinds of the tiles that remain. Returns the relabelled board (a new one)
    and the play, which clears it.
    """
    rng = make_rng(seed)
    w = board.width
    start = board.grid()
    ids = np.zeros_like(start)  # tile identities: 1 + the starting cell's flat index
    kind_of: dict[int, int] = {}
    for (r, c), kind in board.cells():
        ids[r + 1, c + 1] = 1 + r * w + c
        kind_of[1 + r * w + c] = ord(kind)
    walls = start < 0
    play = start.copy()  # the grid of the play-out
    solution: list[Pair] = []

    def sync() -> None:  # play shows the current kind of each identity
        play[:] = np.where(walls, start, 0)
        mask = ids > 0
        play[mask] = [kind_of[t] for t in ids[mask].tolist()]

    sync()
    while True:
        found = find_pairs(play, False)
        if len(found) == 0:
            if not np.any(ids > 0):
                break
            _relabel(ids, kind_of, rng, play, sync)
            continue
        r1, c1, r2, c2 = found[rng.randrange(len(found))].tolist()
        solution.append(((r1 - 1, c1 - 1), (r2 - 1, c2 - 1)))
        ids[r1, c1] = ids[r2, c2] = 0
        if board.gravity:
            for c in {c1, c2}:
                column = ids[1:-1, c]
                alive = column[column > 0]
                column[:] = 0
                if len(alive):
                    column[len(column) - len(alive) :] = alive
        sync()
    for tile, code in kind_of.items():  # a kind's code point, not its character
        r, c = divmod(tile - 1, w)
        start[r + 1, c + 1] = code
    return Deal(Board.from_grid(start, gravity=board.gravity), solution)


def _relabel(
    ids: np.ndarray,
    kind_of: dict[int, int],
    rng: random.Random,
    play: np.ndarray,
    sync: Callable[[], None],
) -> None:
    """Shuffle the kinds of the remaining tiles until a pair shows (forcing one if needed)."""
    alive = ids[ids > 0].tolist()
    kinds = [kind_of[t] for t in alive]
    for _ in range(_TRIES):
        rng.shuffle(kinds)
        for tile, kind in zip(alive, kinds, strict=True):
            kind_of[tile] = kind
        sync()
        if len(find_pairs(play, True)):
            return
    cells = [(int(r) - 1, int(c) - 1) for r, c in zip(*np.nonzero(ids > 0), strict=True)]
    _force_pair(play, cells, rng)
    for r, c in cells:
        kind_of[int(ids[r + 1, c + 1])] = int(play[r + 1, c + 1])

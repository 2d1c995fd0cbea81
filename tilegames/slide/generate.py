"""Deals: exactly uniform solvable boards, random walks, and boards at an exact optimal distance."""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from tilegames.common import rng as make_rng
from tilegames.slide.board import OPPOSITE, Board, InvalidBoardError, _check_size

if TYPE_CHECKING:
    import numpy as np

# 4×4 deals at a set distance walk back along an optimal solution, so the distance cannot exceed
# the deal's own optimal length; beyond this few random deals reach it.
MAX_DISTANCE_4X4 = 60
_BFS_CELLS = 9  # boards up to 9 cells get a full distance table (9! = 362,880 states)


def random_board(
    width: int,
    height: int,
    *,
    seed: int | random.Random | None = None,
    distance: int | None = None,
    cache_dir: str | None = None,
) -> Board:
    """A solvable board drawn uniformly at random, or one whose optimal solution is `distance` moves.

    Uniform: a Fisher–Yates shuffle (j drawn from 0..i: every ordering equally likely; drawing from
    0..i−1 would be Sattolo's algorithm, which only makes cyclic permutations), then, if the deal is
    unsolvable, tiles 1 and 2 swap places. The swap flips the permutation parity and leaves the
    blank, so it maps the unsolvable boards one-to-one onto the solvable ones: each solvable board
    is hit by exactly two orderings, hence uniformly.
    """
    _check_size(width, height)
    rng = make_rng(seed)
    if distance is not None:
        return _at_distance(width, height, distance, rng, cache_dir)
    n = width * height
    tiles = [*range(1, n), 0]
    for i in range(n - 1, 0, -1):
        j = rng.randrange(i + 1)
        tiles[i], tiles[j] = tiles[j], tiles[i]
    board = Board(width, height, tiles)
    if not board.is_solvable():
        a, b = tiles.index(1), tiles.index(2)
        tiles[a], tiles[b] = 2, 1
        board = Board(width, height, tiles)
    return board


def scramble(board: Board, k: int, *, seed: int | random.Random | None = None) -> Board:
    """A new board `k` random moves away from `board`, never undoing the move just made."""
    if k < 0:
        raise ValueError(f"walk length must be at least 0, got {k}")
    rng = make_rng(seed)
    walk = board.copy(stack=False)
    last = ""
    for _ in range(k):
        options = [m for m in walk.moves() if m != OPPOSITE.get(last)]
        last = rng.choice(options)
        walk.push(last)
    return walk.copy(stack=False)


@functools.lru_cache(maxsize=4)
def distance_table(width: int, height: int) -> np.ndarray:
    """Optimal distance to the standard goal of every permutation (by Lehmer rank; −1 unsolvable)."""
    import numpy as np  # not at import time: a 3x3 solve never needs it

    from tilegames.slide.solve import kernels

    if width * height > _BFS_CELLS:
        raise InvalidBoardError(f"a full distance table needs at most {_BFS_CELLS} cells")
    goal = np.array(Board.solved(width, height).tiles, np.int64)
    table: np.ndarray = kernels.bfs_full(goal, width, height)
    table.flags.writeable = False
    return table


def _at_distance(
    width: int, height: int, distance: int, rng: random.Random, cache_dir: str | None
) -> Board:
    import numpy as np

    from tilegames.slide.solve import kernels

    if distance < 0:
        raise ValueError(f"distance must be at least 0, got {distance}")
    n = width * height
    if n <= _BFS_CELLS:
        table = distance_table(width, height)
        ranks = np.flatnonzero(table == distance)
        if ranks.size == 0:
            raise ValueError(
                f"no {width}x{height} board is {distance} moves from the goal "
                f"(the farthest is {int(table.max())})"
            )
        tiles = np.empty(n, np.int64)
        kernels.unrank_perm(int(ranks[rng.randrange(ranks.size)]), n, tiles)
        return Board(width, height, [int(t) for t in tiles])
    if (width, height) != (4, 4):
        return _walk_back(width, height, distance, rng)
    if distance > MAX_DISTANCE_4X4:
        raise ValueError(f"distance {distance} is above the 4x4 limit {MAX_DISTANCE_4X4}")
    from tilegames.slide.solve import solve

    goal = Board.solved(width, height)
    while True:
        # Any board on an optimal path, d moves before the goal, is exactly d moves away.
        start = random_board(width, height, seed=rng)
        solution = solve(start, goal, cache_dir=cache_dir)
        assert solution is not None, "a random deal is solvable"
        if solution.length >= distance:
            return _along(start, solution.moves, solution.length - distance)


def _along(start: Board, moves: Sequence[str], steps: int) -> Board:
    board = start.copy(stack=False)
    board.play(moves[:steps])
    return board.copy(stack=False)


_WALK_TRIES = 60
_WALK_NODES = 5_000_000


def _walk_back(width: int, height: int, distance: int, rng: random.Random) -> Board:
    """Other sizes: random walks solved optimally (Manhattan + linear conflict, bounded search)."""

    from tilegames.common import Limits, SearchLimitError
    from tilegames.slide.solve import solve

    goal = Board.solved(width, height)
    walk = distance + 4
    for _ in range(_WALK_TRIES):
        start = scramble(goal, walk, seed=rng)
        try:
            solution = solve(start, goal, heuristic="mdlc", limits=Limits(max_nodes=_WALK_NODES))
        except SearchLimitError:
            walk = max(distance, walk - 2)
            continue
        assert solution is not None, "a walk from the goal can always go back"
        if solution.length >= distance:
            return _along(start, solution.moves, solution.length - distance)
        walk += 2 + (distance - solution.length)
    raise ValueError(
        f"could not deal a {width}x{height} board at distance {distance}: "
        "too far for an optimal search; try a smaller distance"
    )

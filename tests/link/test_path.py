"""Paths: the fast run scan against a slow Dijkstra over (cell, direction) with (turns, length)."""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Iterator

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tilegames.link import KINDS, Board, hint
from tilegames.link.path import joinable, joinable_fallen

DIRECTIONS = ((-1, 0), (1, 0), (0, -1), (0, 1))


def slow_best(board: Board, a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int] | None:
    """(turns, length) of the best path of at most two turns, by Dijkstra; None if there is none."""
    lo_r, hi_r = (-1, board.height) if board.ring else (0, board.height - 1)
    lo_c, hi_c = (-1, board.width) if board.ring else (0, board.width - 1)

    def free(r: int, c: int) -> bool:
        if not (lo_r <= r <= hi_r and lo_c <= c <= hi_c):
            return False
        if 0 <= r < board.height and 0 <= c < board.width:
            return board[(r, c)] is None
        return True  # the ring

    heap = [(0, 0, a[0], a[1], d) for d in range(4)]
    seen: set[tuple[int, int, int]] = set()
    while heap:
        turns, length, r, c, d = heapq.heappop(heap)
        if (r, c) == b:
            return turns, length
        if (r, c, d) in seen:
            continue
        seen.add((r, c, d))
        for nd, (dr, dc) in enumerate(DIRECTIONS):
            nt = turns + (nd != d)
            if nt > 2 or (dr, dc) == tuple(-x for x in DIRECTIONS[d]):
                continue
            nr, nc = r + dr, c + dc
            if (nr, nc) == b or free(nr, nc):
                heapq.heappush(heap, (nt, length + 1, nr, nc, nd))
    return None


def slow_pairs(board: Board) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Every two tiles of a kind that the slow search joins, in reading order."""
    tiles = list(board.cells())
    return [
        (a, b)
        for i, (a, kind) in enumerate(tiles)
        for b, other in tiles[i + 1 :]
        if kind == other and slow_best(board, a, b) is not None
    ]


def check_path(board: Board, a, b, path) -> tuple[int, int]:
    """Assert `path` is a legal path from a to b; return its (turns, length)."""
    assert path[0] == list(a) and path[-1] == list(b)
    length = 0
    for (r1, c1), (r2, c2) in itertools.pairwise(path):
        assert (r1 == r2) != (c1 == c2), f"segment {(r1, c1)}-{(r2, c2)} is not straight"
        steps = abs(r2 - r1) + abs(c2 - c1)
        dr, dc = (r2 - r1) // steps, (c2 - c1) // steps
        for k in range(1, steps + 1):
            r, c = r1 + dr * k, c1 + dc * k
            if [r, c] == list(b):
                continue
            inside = 0 <= r < board.height and 0 <= c < board.width
            if inside:
                assert board[(r, c)] is None, f"path crosses tile at {(r, c)}"
            else:
                assert board.ring and -1 <= r <= board.height and -1 <= c <= board.width
        length += steps
    return len(path) - 2, length


boards = st.tuples(
    st.integers(1, 10),
    st.integers(1, 8),
    st.integers(0, 10**9),
    st.floats(0.0, 0.95),
    st.booleans(),
)


def random_board(width: int, height: int, seed: int, empty: float, ring: bool) -> Board:
    import random

    rng = random.Random(seed)
    cells = width * height
    tiles = [c for c in "ABC" * cells][: cells - cells % 2]
    pairs = [rng.choice("ABC") for _ in range(len(tiles) // 2)]
    kinds = [k for k in pairs for _ in range(2)]
    layout = kinds + ["."] * (cells - len(kinds))
    rng.shuffle(layout)
    # empty some pairs so the board is sparse
    for kind in set(kinds):
        spots = [i for i, x in enumerate(layout) if x == kind]
        while len(spots) >= 2 and rng.random() < empty:
            for i in (spots.pop(), spots.pop()):
                layout[i] = "."
    rows = ["".join(layout[r * width : (r + 1) * width]) for r in range(height)]
    return Board.parse("/".join(rows), ring=ring)


@settings(max_examples=600, deadline=None)
@given(boards)
def test_fast_path_matches_slow_search(params):
    board = random_board(*params)
    tiles = list(board.cells())
    for i, (a, kind) in enumerate(tiles):
        for b, other in tiles[i + 1 :]:
            if kind != other:
                continue
            fast, slow = board.path(a, b), slow_best(board, a, b)
            if slow is None:
                assert fast is None, (str(board), a, b, fast)
            else:
                assert fast is not None, (str(board), a, b, slow)
                assert check_path(board, a, b, fast) == slow, (str(board), a, b, fast, slow)


@settings(max_examples=300, deadline=None)
@given(boards)
def test_joinable_says_whether_any_path_exists(params):
    """`joinable`, the solvers' yes/no test, against the slow search for every two tiles of
    any kinds (it never looks at kinds), walled tiles and adjacent ones included."""
    board = random_board(*params)
    grid = board.grid()
    tiles = [a for a, _ in board.cells()]
    for i, a in enumerate(tiles):
        for b in tiles[i + 1 :]:
            expected = slow_best(board, a, b) is not None
            assert joinable(grid, a[0] + 1, a[1] + 1, b[0] + 1, b[1] + 1) == expected, (
                str(board), a, b, expected,
            )  # fmt: skip
            assert joinable(grid, b[0] + 1, b[1] + 1, a[0] + 1, a[1] + 1) == expected


@settings(max_examples=150, deadline=None)
@given(boards)
def test_pairs_are_exactly_the_connectable_pairs(params):
    board = random_board(*params)
    expected = slow_pairs(board)
    assert board.pairs() == expected
    assert board.is_stuck() == (not expected and bool(list(board.cells())))
    if expected:
        assert hint(board) == expected[0]


def fallen_board(heights: list[int], spare: int, kinds: Iterator[str]) -> Board:
    """A board with the ring whose columns rest on the bottom, as under gravity: column c holds
    heights[c] tiles (one more in the first if the count is odd, as kinds come in pairs: the
    list is changed) with `spare` empty rows over the tallest; the tiles take `kinds` in turn,
    top row first."""
    heights[0] += sum(heights) % 2
    rows = max(heights) + spare or 1
    text = "/".join(
        "".join(next(kinds) if rows - r <= h else "." for h in heights) for r in range(rows)
    )
    return Board.parse(text, ring=True)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 7), min_size=1, max_size=10), st.integers(0, 2))
def test_joinable_fallen_says_whether_any_path_exists(heights, spare):
    """The exhaustive search's test for a board under gravity with the ring, from the columns'
    heights alone, against the slow search for every two tiles of a fallen board."""
    board = fallen_board(heights, spare, itertools.repeat("A"))
    rows, text = board.height, str(board)
    height = np.array([0, *heights, 0], np.int64)
    tiles = [a for a, _ in board.cells()]
    for i, a in enumerate(tiles):
        for b in tiles[i + 1 :]:
            expected = slow_best(board, a, b) is not None
            ends = (a[0] + 1, a[1] + 1, b[0] + 1, b[1] + 1)
            assert joinable_fallen(height, rows, *ends) == expected, (text, a, b, expected)
            assert joinable_fallen(height, rows, *ends[2:], *ends[:2]) == expected


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 6), min_size=1, max_size=9), st.randoms(use_true_random=False))
def test_pairs_on_fallen_boards_are_the_connectable_pairs(heights, rng):
    """On a board whose columns rest on the bottom with the ring, as under gravity, `find_pairs`
    lists the pairs the slow search joins, in the same order."""
    kinds = [rng.choice("ABC") for _ in range((sum(heights) + 1) // 2)] * 2
    rng.shuffle(kinds)
    board = fallen_board(heights, 0, iter(kinds))
    expected = slow_pairs(board)
    assert board.pairs() == expected


# '#' is just another tile kind here: a wall of tiles the path must go round.
def test_adjacent_tiles_connect_directly():
    board = Board.parse("#AA#/#B#B")
    assert board.path((0, 1), (0, 2)) == [[0, 1], [0, 2]]
    assert Board.parse("A#/A#").path((0, 0), (1, 0)) == [[0, 0], [1, 0]]


def test_route_around_the_outside():
    board = Board.parse("A##A/####")
    assert board.path((0, 0), (0, 3)) == [[0, 0], [-1, 0], [-1, 3], [0, 3]]
    board = Board.parse("####/A##A")
    assert board.path((1, 0), (1, 3)) == [[1, 0], [2, 0], [2, 3], [1, 3]]
    assert Board.parse("A##A/####", ring=False).path((0, 0), (0, 3)) is None


def test_left_ring_column():
    board = Board.parse("AX/XX/AX")
    assert board.path((0, 0), (2, 0)) == [[0, 0], [0, -1], [2, -1], [2, 0]]


def test_three_turns_are_refused():
    # A at (0, 0) and (2, 2): the only routes around the walls need three turns.
    board = Board.parse("A.X/XX./X.A")
    assert slow_best(board, (0, 0), (2, 2)) is None
    assert board.path((0, 0), (2, 2)) is None
    # The same shape with the middle opened: two turns suffice.
    assert Board.parse("A.X/X.X/X.A").path((0, 0), (2, 2)) is not None


def test_two_pairs_blocking_each_other():
    board = Board.parse("AB/BA")
    assert board.path((0, 0), (1, 1)) is None
    assert board.path((0, 1), (1, 0)) is None
    assert board.is_stuck() and board.pairs() == [] and hint(board) is None


def test_fewest_turns_then_shortest():
    # A straight line beats any detour; an L beats a U.
    board = Board.parse("A..A/....")
    assert board.path((0, 0), (0, 3)) == [[0, 0], [0, 3]]
    board = Board.parse("A.../...A")
    assert len(board.path((0, 0), (1, 3))) == 3


def test_a_full_board_can_have_no_move():
    # Kind (7r + 3c) mod 97 on 30 x 16: all different along each edge, so no route over the ring,
    # and different between neighbours; interior tiles are walled in. Parities fixed by hand.
    width, height = 30, 16
    grid = [[(7 * r + 3 * c) % 97 for c in range(width)] for r in range(height)]
    counts: dict[int, int] = {}
    for row in grid:
        for k in row:
            counts[k] = counts.get(k, 0) + 1
    odd = sorted(k for k, n in counts.items() if n % 2)
    for a, b in zip(odd[::2], odd[1::2], strict=True):
        r, c = next(
            (r, c)
            for r in range(1, height - 1)
            for c in range(1, width - 1)
            if grid[r][c] == a
            and b not in {grid[r - 1][c], grid[r + 1][c], grid[r][c - 1], grid[r][c + 1]}
        )
        grid[r][c] = b
    board = Board.parse("/".join("".join(KINDS[k] for k in row) for row in grid))
    assert board.pairs() == [] and board.is_stuck() and hint(board) is None
    tiles = list(board.cells())
    same = [(a, b) for i, (a, k) in enumerate(tiles) for b, o in tiles[i + 1 :] if k == o]
    assert all(slow_best(board, a, b) is None for a, b in same[::7])

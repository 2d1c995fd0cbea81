"""The board model: notation, moves, solved/solvable, against a BFS reference on small boards."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tilegames.slide import (
    Board,
    IllegalMoveError,
    InvalidBoardError,
    InvalidMoveError,
    permutation_parity,
    random_board,
)
from tilegames.slide.solve import kernels


def test_parse_and_format_round_trip():
    board = Board.parse("5 1 3/4 0 2/7 8 6")
    assert (board.width, board.height) == (3, 3)
    assert board.tiles == (5, 1, 3, 4, 0, 2, 7, 8, 6)
    assert str(board) == "5 1 3/4 0 2/7 8 6"
    assert repr(board) == "Board.parse('5 1 3/4 0 2/7 8 6')"
    assert Board.parse(" 5 1 3\n4 0 2\n 7 8 6 \n") == board
    assert Board.parse(str(Board.solved(5, 3))) == Board.solved(5, 3)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1 2 3/4 5 6/7 8", "row 3 has 2 tiles, expected 3"),
        ("1 2 3/4 5 6/7 8 8", "tile 8 appears twice"),
        ("1 2 3/4 5 6/7 8 9", "tile 9 at row 3, column 3 is out of range 0..8"),
        ("1 2 a/4 5 6/7 8 0", "'a' at row 1, column 3 is not a tile number"),
        ("1 -2 3/4 5 6/7 8 0", "'-2' at row 1, column 2"),
        ("1 2 0", "board is 3x1"),
        ("", "empty"),
        ("0 1 2/3 4 5//6 7 8", "row 3 has 0 tiles"),
    ],
)
def test_bad_text_names_the_problem(text, message):
    with pytest.raises(InvalidBoardError, match=message):
        Board.parse(text)


def test_bad_sizes_and_tiles():
    with pytest.raises(InvalidBoardError, match="at least 2"):
        Board.solved(1, 5)
    with pytest.raises(InvalidBoardError, match="more than the limit"):
        Board.solved(10**6, 10**6)
    with pytest.raises(InvalidBoardError, match="has 4 tiles, got 3"):
        Board(2, 2, [0, 1, 2])
    with pytest.raises(InvalidBoardError, match="goal is 3x2"):
        Board.solved(2, 3).is_solvable(Board.solved(3, 2))


def test_moves_name_the_tile_direction():
    board = Board.parse("1 2 3/4 5 6/7 8 0")
    assert sorted(board.moves()) == ["D", "R"]
    board.push("R")  # the 8 slides right into the blank
    assert str(board) == "1 2 3/4 5 6/7 0 8"
    board.push("D")  # the 5 slides down
    assert str(board) == "1 2 3/4 0 6/7 5 8"
    assert sorted(board.moves()) == ["D", "L", "R", "U"]
    assert board.move_stack == ("R", "D") and board.peek() == "D"
    assert board.pop() == "D" and board.pop() == "R"
    assert board.is_solved()


def test_illegal_and_invalid_moves():
    board = Board.solved(3, 3)
    with pytest.raises(IllegalMoveError, match="slide left"):
        board.push("L")
    with pytest.raises(InvalidMoveError):
        board.push("X")
    before = board.copy()
    with pytest.raises(IllegalMoveError, match="move 3 of 3"):
        board.play("RRR")
    assert board == before and board.move_stack == ()


def test_equality_hash_copy():
    a = Board.parse("1 2/3 0")
    b = a.copy()
    assert a == b and a.key() == b.key() and len({a.key(), b.key()}) == 1
    with pytest.raises(TypeError):
        hash(a)  # mutable: unhashable, like python-chess's Board
    b.push("R")
    assert a != b
    assert Board.parse("1 2/3 4/5 0") != Board.parse("1 2 3/4 5 0")


def test_manhattan_any_goal():
    board = Board.parse("5 1 3/4 0 2/7 8 6")
    assert board.manhattan() == 2 + 1 + 0 + 1 + 1 + 0 + 0 + 1
    goal = Board.parse("0 1 2/3 4 5/6 7 8")
    assert board.manhattan(goal) == sum(
        abs(p // 3 - t // 3) + abs(p % 3 - t % 3) for p, t in enumerate(board.tiles) if t
    )


boards = st.builds(
    lambda w, h, seed: random_board(w, h, seed=seed),
    st.integers(2, 6),
    st.integers(2, 6),
    st.integers(0, 2**32),
)


@given(boards, st.lists(st.sampled_from("UDLR"), max_size=30))
@settings(max_examples=60, deadline=None)
def test_properties_round_trip_push_pop(board, moves):
    assert Board.parse(str(board)) == board
    before = board.copy()
    pushed = 0
    for move in moves:
        if move in board.moves():
            board.push(move)
            pushed += 1
        else:
            with pytest.raises(IllegalMoveError):
                board.push(move)
    assert board.is_solvable()
    for _ in range(pushed):
        board.pop()
    assert board == before


def test_parity_by_cycles():
    for perm in itertools.permutations(range(5)):
        inversions = sum(a > b for a, b in itertools.combinations(perm, 2))
        assert permutation_parity(perm) == inversions % 2


GOALS = {
    "blank last": lambda n: [*range(1, n), 0],
    "blank first": lambda n: list(range(n)),
    "blank middle": lambda n: [*range(1, n // 2 + 1), 0, *range(n // 2 + 1, n)],
}


@pytest.mark.parametrize(("w", "h"), [(2, 2), (2, 3), (3, 2), (2, 4), (4, 2)])
@pytest.mark.parametrize("goal_name", list(GOALS))
def test_solvable_matches_bfs_on_small_boards(w, h, goal_name, bfs):
    goal = Board(w, h, GOALS[goal_name](w * h))
    reachable = bfs(goal.tiles, w, h)
    assert len(reachable) * 2 == len(list(itertools.permutations(range(w * h))))
    for tiles in itertools.permutations(range(w * h)):
        assert Board(w, h, tiles).is_solvable(goal) == (tiles in reachable)


def test_bfs_kernel_matches_reference_bfs(bfs):
    for w, h in ((2, 3), (2, 4)):
        goal = [*range(1, w * h), 0]
        table = kernels.bfs_full(np.array(goal, np.int64), w, h)
        reference = bfs(tuple(goal), w, h)
        ranks = {kernels.rank_perm(np.array(t, np.int64)): d for t, d in reference.items()}
        assert int((table >= 0).sum()) == len(reference)
        assert all(table[r] == d for r, d in ranks.items())


@pytest.mark.parametrize("goal_name", list(GOALS))
def test_solvable_on_the_whole_3x3_space(goal_name):
    goal = Board(3, 3, GOALS[goal_name](9))
    table = kernels.bfs_full(np.array(goal.tiles, np.int64), 3, 3)
    perm = np.empty(9, np.int64)
    mismatches = 0
    for rank in range(table.shape[0]):
        kernels.unrank_perm(rank, 9, perm)
        board = Board(3, 3, perm.tolist())
        mismatches += board.is_solvable(goal) != (table[rank] >= 0)
    assert mismatches == 0
    assert int((table >= 0).sum()) == 181_440
    # the known diameters: 31 with the blank in a corner, 30 with it in the centre
    assert int(table.max()) == (30 if goal_name == "blank middle" else 31)


def test_big_boards_parse_and_check():
    board = random_board(300, 300, seed=3)
    text = str(board)
    again = Board.parse(text)
    assert again == board and again.is_solvable()
    again.push(next(iter(again.moves())))
    assert again.is_solvable()
    tiles = list(board.tiles)
    a, b = tiles.index(1), tiles.index(2)
    tiles[a], tiles[b] = 2, 1
    assert not Board(300, 300, tiles).is_solvable()

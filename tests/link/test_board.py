"""The board: notation round trips, errors that name the place, push/pop, gravity, hints."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tilegames.link import (
    Board,
    CellError,
    IllegalMoveError,
    InvalidBoardError,
    KindMismatchError,
    LinkError,
    deal,
    hint,
)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 9), st.integers(1, 6), st.integers(1, 8), st.integers(0, 10**6))
def test_notation_round_trips(width, height, kinds, seed):
    if (width * height) % 2:
        height += 1
    kinds = min(kinds, width * height // 2)
    board = deal(width, height, kinds, 2, seed=seed, solvable=False)
    text = str(board)
    assert Board.parse(text) == board
    assert str(Board.parse(text)) == text
    assert Board.parse("\n".join(board.rows()) + "\n") == board
    assert eval(repr(board), {"Board": Board}) == board


def test_cells_and_indexing():
    board = Board.parse("A.B/B.A")
    assert (board.width, board.height, board.gravity) == (3, 2, False)
    assert board[(0, 0)] == "A" and board[(0, 1)] is None and board[(1, 0)] == "B"
    assert list(board.cells()) == [((0, 0), "A"), ((0, 2), "B"), ((1, 0), "B"), ((1, 2), "A")]
    assert board.remaining == 4
    with pytest.raises(CellError, match=r"\(2, 0\) is outside"):
        board[(2, 0)]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("AB/A", "row 2 has 1 cell, expected 2 like row 1"),
        ("AAB/BBA/A..", r"kind 'B' appears 3 times \(first at cell \(0, 2\)\)"),
        ("", "empty board"),
        ("AA//BB", "row 2 is empty"),
        ("A A", r"cell \(0, 1\) holds ' '"),
    ],
)
def test_bad_notation_names_the_problem(text, message):
    with pytest.raises(InvalidBoardError, match=message):
        Board.parse(text)
    assert issubclass(InvalidBoardError, ValueError)


def test_path_errors():
    board = Board.parse("AB./BA.")
    with pytest.raises(KindMismatchError, match=r"\(0, 0\) holds 'A' but cell \(0, 1\) holds 'B'"):
        board.path((0, 0), (0, 1))
    with pytest.raises(CellError, match="outside"):
        board.path((0, 0), (0, 3))
    with pytest.raises(CellError, match="empty"):
        board.path((0, 0), (0, 2))
    with pytest.raises(CellError, match="itself"):
        board.path((0, 0), (0, 0))
    for error in (CellError, KindMismatchError, IllegalMoveError):
        assert issubclass(error, LinkError) and issubclass(error, ValueError)


def test_push_rejects_what_cannot_be_removed():
    board = Board.parse("AB/BA")
    for pair in [((0, 0), (1, 1)), ((0, 0), (0, 1)), ((0, 0), (5, 5)), ((0, 0),), "xy"]:
        with pytest.raises(IllegalMoveError):
            board.push(pair)
    assert str(board) == "AB/BA" and board.move_stack == ()
    with pytest.raises(IndexError, match="no moves"):
        board.pop()


def test_push_and_pop_without_gravity():
    board = Board.parse("AB/AB")
    board.push([[0, 0], [1, 0]])
    assert str(board) == ".B/.B" and board.move_stack == (((0, 0), (1, 0)),)
    board.push(((0, 1), (1, 1)))
    assert board.is_solved() and not board.is_stuck()
    assert board.pop() == ((0, 1), (1, 1))
    assert board.pop() == ((0, 0), (1, 0))
    assert str(board) == "AB/AB" and board.move_stack == ()


def test_gravity_falls_and_undo_restores_them():
    board = Board.parse("CE/AA/DB/CD/BE", gravity=True)
    board.push(((1, 0), (1, 1)))  # the two A tiles: C and E above them fall one row
    assert board.rows() == ["..", "CE", "DB", "CD", "BE"]
    board.pop()
    assert board.rows() == ["CE", "AA", "DB", "CD", "BE"]


def test_gravity_in_one_column():
    board = Board.parse("B/A/A/B", gravity=True)
    board.push(((1, 0), (2, 0)))
    assert board.rows() == [".", ".", "B", "B"]
    board.push(((2, 0), (3, 0)))
    assert board.is_solved()
    board.pop()
    board.pop()
    assert str(board) == "B/A/A/B"


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.booleans())
def test_random_play_then_undo_is_the_identity(seed, gravity):
    rng = random.Random(seed)
    board = deal(6, 4, 4, 2, seed=seed, gravity=gravity, solvable=False)
    start, history = str(board), []
    while pairs := board.pairs():
        history.append(str(board))
        board.push(rng.choice(pairs))
        assert board.remaining == 24 - 2 * len(history)
    for before in reversed(history):
        board.pop()
        assert str(board) == before
    assert str(board) == start


def test_copy_is_independent_and_keeps_the_rules():
    board = Board.parse("AB/AB", gravity=True, ring=False)
    twin = board.copy()
    twin.push(((0, 0), (1, 0)))
    assert str(board) == "AB/AB" and str(twin) == ".B/.B"
    assert twin.gravity and not twin.ring
    twin.pop()
    assert twin == board


def test_hint_is_a_module_function_without_side_effects():
    board = Board.parse("AA")
    assert hint(board) == ((0, 0), (0, 1)) == board.first_pair()
    assert hint(board, clearable=True) == ((0, 0), (0, 1))
    assert board == Board.parse("AA") and board.move_stack == ()


def test_the_constructor_refuses_ragged_rows():
    with pytest.raises(InvalidBoardError, match="row 2 has 1 cell, expected 3"):
        Board(["ABC", "A"])
    with pytest.raises(InvalidBoardError, match="appears once"):
        Board(["ABC"])


def test_from_grid_builds_a_relabelled_board():
    board = Board.parse("AB/BA", ring=False)
    grid = board.grid()
    grid[1, 2], grid[2, 2] = grid[2, 2], grid[1, 2]  # swap (0, 1) and (1, 1)
    made = Board.from_grid(grid)
    assert str(made) == "AA/BB" and not made.ring and made.move_stack == ()


def test_ring_off_changes_what_connects():
    assert Board.parse("ABBA/CDDC").pairs() == [
        ((0, 0), (0, 3)),
        ((0, 1), (0, 2)),
        ((1, 0), (1, 3)),
        ((1, 1), (1, 2)),
    ]
    assert Board.parse("ABBA/CDDC", ring=False).pairs() == [((0, 1), (0, 2)), ((1, 1), (1, 2))]

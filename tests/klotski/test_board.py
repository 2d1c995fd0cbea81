import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tilegames.klotski import (
    LAYOUTS,
    NAMED_LAYOUTS,
    Board,
    IllegalMoveError,
    InvalidMoveError,
    LayoutError,
)
from tilegames.klotski.generate import random_layout

HENG = "ABBC/ABBC/DEEF/DGHF/I..J"


def test_parse_and_format_round_trip_every_named_layout():
    for entry in NAMED_LAYOUTS:
        board = Board.parse(entry.layout)
        assert str(board) == entry.layout
        assert Board.parse(str(board)) == board
        assert (
            repr(board) == f"Board.parse({entry.layout!r})"
            and eval(repr(board), {"Board": Board}) == board
        )
        assert (board.width, board.height) == (4, 5)


def test_parse_accepts_newlines_and_surrounding_space():
    assert str(Board.parse("  ABBC\nABBC\n DEEF/DGHF\nI..J \n")) == HENG


def test_moves_in_both_metrics():
    board = Board.parse(HENG)
    assert list(board.moves("steps")) == ["G:D", "H:D", "I:R", "J:L"]
    assert sorted(board.moves()) == ["G:D", "G:DR", "H:D", "H:DL", "I:R", "I:RR", "J:L", "J:LL"]
    with pytest.raises(ValueError, match="metric"):
        list(board.moves("jumps"))


def test_push_pop_and_stack():
    board = Board.parse(HENG)
    board.push("G:DR")
    assert str(board) == "ABBC/ABBC/DEEF/D.HF/I.GJ"
    assert board.move_stack == ("G:DR",)
    assert board.pop() == "G:DR"
    assert str(board) == HENG
    with pytest.raises(IndexError):
        board.pop()


@pytest.mark.parametrize(
    ("move", "error", "words"),
    [
        ("G", InvalidMoveError, "not a move"),
        ("G:X", InvalidMoveError, "not a move"),
        ("G:", InvalidMoveError, "not a move"),
        ("Z:D", IllegalMoveError, "no piece Z"),
        ("B:D", IllegalMoveError, "piece B cannot move down: row 3, column 2 is taken by E"),
        ("I:L", IllegalMoveError, "off the board"),
        ("I:RL", IllegalMoveError, "ends where it started"),
        ("G:DRR", IllegalMoveError, "taken by J"),
    ],
)
def test_bad_moves_raise_and_leave_the_board_alone(move, error, words):
    board = Board.parse(HENG)
    with pytest.raises(error, match=words):
        board.push(move)
    assert str(board) == HENG and board.move_stack == ()
    assert not board.is_legal(move)


def test_is_solved():
    assert not Board.parse(HENG).is_solved()
    assert Board.parse("ABCD/EFGH/IJKL/.MM./.MM.").is_solved()
    assert not Board.parse("ABCD/EFGH/IJKL/MM../MM..").is_solved()
    assert Board.parse("A../.BB/.BB").is_solved()  # odd width: either middle column
    assert Board.parse("A../BB./BB.").is_solved()


def test_equality_identifies_same_shaped_pieces_but_not_mirrors():
    board = Board.parse(HENG)
    assert board == Board.parse("ABBC/ABBC/DEEF/DHGF/J..I")  # 1×1 letters swapped
    assert board == Board.parse("FBBD/FBBD/CEEA/CGHA/I..J")  # 2×1 letters swapped
    assert board != Board.parse("ABBC/ABBC/DEEF/DGHF/.I.J")
    lopsided = Board.parse("ABBC/ABBC/DEEF/DGHF/IJ..")
    assert lopsided.mirror() != lopsided
    assert str(lopsided.mirror()) == "CBBA/CBBA/FEED/FHGD/..JI"
    assert lopsided.mirror().mirror() == lopsided
    assert board != object() and (board == object()) is False


def test_key_matches_equality():
    board = Board.parse(HENG)
    assert board.key() == Board.parse("ABBC/ABBC/DEEF/DHGF/J..I").key()
    assert board.key() == board.mirror_key()  # 横刀立马 is symmetric
    lopsided = Board.parse("ABBC/ABBC/DEEF/DGHF/IJ..")
    assert lopsided.mirror_key() == lopsided.mirror().key()
    assert lopsided.canonical_key() == min(lopsided.key(), lopsided.mirror_key())


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("AABB/AABB/..../CCDD/....", "2 2×2 pieces"),
        ("ABBC/ABBC/DEEF/DEHF/I..J", "piece E is not a rectangle"),
        ("ABBC/ABBC/DEEF/DGHF/I..A", "letter A is used in two separate places"),
        ("ABBC/ABBC/DEEF/DGHF/I..", "row 5 has 3 cells, expected 4"),
        ("ABBC/ABBC/DEEE/DGHF/I..J", "1×3"),
        ("ABCD/ABCD/..../....", "no 2×2 piece"),
        ("ABBC/ABBC//DGHF/I..J", "row 3 is empty"),
        ("A BC/ABBC/DEEF/DGHF/I..J", "not a piece letter"),
        ("", "empty layout"),
        ("A", "width 1"),
    ],
)
def test_bad_layouts_say_what_is_wrong(text, words):
    with pytest.raises(LayoutError, match=words):
        Board.parse(text)


def test_zobrist_is_incremental_and_mirror_hash_meets_the_mirror():
    rng = random.Random(5)
    board = LAYOUTS["峰回路转"]
    for _ in range(200):
        board.push(rng.choice(list(board.moves())))
        fresh = Board.parse(str(board))
        assert board.zobrist_hash() == fresh.zobrist_hash()
        assert board.mirror_hash() == board.mirror().zobrist_hash()
    while board.move_stack:
        board.pop()
    assert str(board) == "ABCD/EEFD/EEFG/.HHG/.IJJ"
    assert board.zobrist_hash() == Board.parse(str(board)).zobrist_hash()


def test_copy_is_independent():
    board = Board.parse(HENG)
    board.push("I:R")
    twin = board.copy()
    twin.push("J:LL") if twin.is_legal("J:LL") else twin.push("J:L")
    assert board.move_stack == ("I:R",) and len(twin.move_stack) == 2
    assert board.copy(stack=False).move_stack == ()


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from([(3, 4), (4, 4), (4, 5), (5, 4)]), st.integers(0, 40))
def test_random_walks_pop_back_to_the_start(seed, size, walk):
    board = random_layout(*size, seed=seed)
    start, start_hash = str(board), board.zobrist_hash()
    rng = random.Random(seed)
    for _ in range(walk):
        moves = list(board.moves(rng.choice(["moves", "steps"])))
        if not moves:
            break
        move = rng.choice(moves)
        before = board.copy()
        board.push(move)
        assert str(board) != str(before)
        assert Board.parse(str(board)) == board
    while board.move_stack:
        board.pop()
    assert str(board) == start and board.zobrist_hash() == start_hash


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6))
def test_every_listed_move_is_legal_and_every_step_move_is_a_single_step(seed):
    board = random_layout(4, 5, seed=seed)
    for move in board.moves("steps"):
        assert len(move) == 3 and board.is_legal(move)
    moves = list(board.moves())
    assert len(set(moves)) == len(moves)
    targets = set()
    for move in moves:
        board.push(move)
        targets.add(str(board))
        board.pop()
    assert len(targets) == len(moves)  # one move per destination


def test_the_colon_of_the_move_notation_is_refused_as_a_letter():
    with pytest.raises(LayoutError, match="':' cannot be a piece letter"):
        Board.parse("A::B/A::B/C..D")
    with pytest.raises(LayoutError, match="cannot be a piece letter"):
        Board(4, 3, list("A::BA::BC..D"))  # the constructor checks too


def test_direction_letters_are_piece_letters_read_by_position():
    board = Board.parse("AUUB/AUUB/C..D")
    assert "U:D" in board.legal_moves()
    board.push("U:D")
    assert str(board) == "A..B/AUUB/CUUD" and board.is_solved()
    assert board.count("moves") == 1 and board.count("steps") == 1
    assert board.peek() == "U:D" and board.pop() == "U:D"


def test_random_layouts_fill_even_the_largest_board():
    for seed in range(5):
        board = random_layout(
            10, 10, empty=0, seed=seed
        )  # up to 97 pieces: more than 62 ASCII letters
        assert Board.parse(str(board)) == board and "." not in str(board)
    with pytest.raises(ValueError, match="cannot deal"):
        random_layout(11, 10)

"""The one game contract (docs/design.md, "The contract"): the same tests over the three games."""

from __future__ import annotations

import random
from dataclasses import FrozenInstanceError, dataclass
from typing import Any

import pytest

from tilegames import klotski, link, slide
from tilegames.common import Limits, SearchLimitError, SeedError, rng


@dataclass(frozen=True)
class Case:
    """One game seen through the contract, with a few boards of its own."""

    name: str
    module: Any
    error: type[ValueError]
    start: str
    """A solvable board, not solved."""
    solved: str
    unsolvable: str
    hard: str
    """A board whose search runs past a tiny node limit."""


CASES = [
    Case(
        "slide",
        slide,
        slide.SlideError,
        "5 1 3/4 0 2/7 8 6",
        "1 2 3/4 5 6/7 8 0",
        "2 1 3/4 5 6/7 8 0",
        str(slide.random_board(6, 6, seed=1)),  # no pattern databases on 6x6: nothing to build
    ),
    Case(
        "klotski",
        klotski,
        klotski.KlotskiError,
        "ABBC/ABBC/DEEF/DGHF/I..J",
        "ABCD/EFGH/IJKL/.MM./.MM.",
        "AAB/AAC/DEF",
        "ABBC/ABBC/DEEF/DGHF/I..J",
    ),
    Case("link", link, link.LinkError, "ABAB/CDCD", "..../....", "AB/BA", "ABAB/CDCD/ABAB/CDCD"),
]


@pytest.fixture(params=CASES, ids=lambda case: case.name)
def case(request: pytest.FixtureRequest) -> Case:
    return request.param


def parse(case: Case, text: str) -> Any:
    return case.module.Board.parse(text)


def test_parse_str_round_trip_and_repr_evaluates(case: Case) -> None:
    board = parse(case, case.start)
    assert str(board) == case.start and parse(case, str(board)) == board
    assert repr(board).startswith("Board.parse(")
    assert eval(repr(board), {"Board": case.module.Board}) == board


def test_errors_are_value_errors_under_one_base(case: Case) -> None:
    for name in ("ParseError", "IllegalMoveError"):
        error = getattr(case.module, name)
        assert issubclass(error, case.error) and issubclass(case.error, ValueError)
    with pytest.raises(case.module.ParseError):
        parse(case, "")
    assert case.module.SearchLimitError is SearchLimitError and issubclass(
        SearchLimitError, ValueError
    )


def test_push_pop_peek_restore_and_move_stack_is_read_only(case: Case) -> None:
    board = parse(case, case.start)
    before = board.copy()
    move = board.legal_moves()[0]
    board.push(move)
    assert board != before and board.peek() == move and board.move_stack == (move,)
    assert isinstance(board.move_stack, tuple)
    copy = board.copy()
    assert copy == board and copy.move_stack == board.move_stack
    assert board.pop() == move and board == before and board.move_stack == ()
    with pytest.raises(IndexError):
        board.pop()
    with pytest.raises(IndexError):
        board.peek()
    with pytest.raises(AttributeError):
        board.move_stack = ()  # type: ignore[misc]


def test_illegal_moves_raise_and_change_nothing(case: Case) -> None:
    board = parse(case, case.solved if case.name != "link" else "AB/BA")
    illegal = {"slide": "L", "klotski": "M:U", "link": ((0, 0), (1, 1))}[case.name]
    with pytest.raises(case.module.IllegalMoveError):
        board.push(illegal)
    assert board == parse(case, str(board)) and board.move_stack == ()


def test_boards_are_unhashable_with_an_immutable_key(case: Case) -> None:
    board = parse(case, case.start)
    with pytest.raises(TypeError):
        hash(board)
    key = board.key()
    assert hash(key) == hash(parse(case, case.start).key())
    board.push(board.legal_moves()[0])
    assert board.key() != key


def test_solve_replays_and_says_how(case: Case) -> None:
    board = parse(case, case.start)
    solution = case.module.solve(board)
    assert solution.length == len(solution.moves) or case.name == "klotski"
    assert isinstance(solution.moves, list) and solution.nodes >= 0
    with pytest.raises(FrozenInstanceError):
        solution.length = 0
    play = board.copy()
    for move in solution.moves:
        play.push(move)
    assert play.is_solved()
    assert case.module.hint(board) == solution.moves[0] or case.name == "link"
    assert case.module.hint(board) in board.legal_moves()


def test_no_solution_is_none_and_a_solved_board_needs_no_move(case: Case) -> None:
    assert case.module.solve(parse(case, case.unsolvable)) is None
    assert case.module.hint(parse(case, case.unsolvable)) is None
    solved = parse(case, case.solved)
    assert solved.is_solved() and case.module.hint(solved) is None
    assert case.module.solve(solved).moves == []


def test_a_limit_is_search_limit_error_saying_which_and_how_far(case: Case) -> None:
    board = parse(case, case.hard)
    with pytest.raises(SearchLimitError) as caught:
        case.module.solve(board, limits=Limits(max_nodes=2))
    assert caught.value.limit == "max_nodes" and caught.value.nodes >= 2
    assert "node limit" in str(caught.value)
    with pytest.raises(SearchLimitError) as caught:
        case.module.solve(board, limits=Limits(timeout=1e-9))
    assert caught.value.limit == "timeout" and "time limit" in str(caught.value)


def test_limits_are_checked() -> None:
    for bad in ({"max_nodes": 0}, {"max_nodes": 1.5}, {"timeout": 0}, {"timeout": float("nan")}):
        with pytest.raises(ValueError):
            Limits(**bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        slide.solve(slide.Board.parse("1 2/3 0"), limits=5)  # type: ignore[arg-type]


def test_seeds_are_ints_from_zero_or_generators() -> None:
    assert rng(7).random() == random.Random(7).random()
    generator = random.Random(1)
    assert rng(generator) is generator
    for bad in (-1, 1.5, True, "3"):
        with pytest.raises(SeedError):
            rng(bad)  # type: ignore[arg-type]
    with pytest.raises(SeedError, match="0 or more"):
        slide.random_board(3, 3, seed=-1)
    with pytest.raises(SeedError, match="0 or more"):
        link.deal(4, 4, 2, seed=-1)
    assert str(slide.random_board(3, 3, seed=5)) == str(slide.random_board(3, 3, seed=5))


def test_klotski_counts_both_metrics_from_the_move_stack() -> None:
    for metric, moves, steps in (("moves", 81, 118), ("steps", 99, 116)):
        board = klotski.layout("横刀立马")
        solution = klotski.solve(board, metric)
        assert (solution.move_count, solution.step_count) == (moves, steps)
        for move in solution.moves:
            board.push(move)
        assert board.is_solved() and (board.count("moves"), board.count("steps")) == (moves, steps)
    assert klotski.move_count(["G:R", "G:D", "H:L"]) == 2
    assert klotski.move_count(["G:R", "G:D", "H:L"], "steps") == 3

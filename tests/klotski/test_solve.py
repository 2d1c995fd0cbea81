import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tilegames.klotski import LAYOUTS, NAMED_LAYOUTS, Board, Limits, SearchLimitError, hint, solve
from tilegames.klotski.generate import random_layout
from tilegames.klotski.solve import reference_search


def replay(board: Board, solution) -> Board:
    """Push every move of a solution on a copy; check it ends solved and that the length is right."""
    work = board.copy(stack=False)
    for move in solution.moves:
        work.push(move)
    assert work.is_solved()
    steps = sum(len(move) - 2 for move in solution.moves)
    assert solution.length == (len(solution.moves) if solution.metric == "moves" else steps)
    if solution.metric == "steps":
        assert all(len(move) == 3 for move in solution.moves)
    return work


def test_heng_dao_li_ma_takes_81_moves_and_116_steps():
    board = LAYOUTS["横刀立马"]
    moves = solve(board)
    assert (moves.length, moves.metric) == (81, "moves")
    replay(board, moves)
    steps = solve(board, "steps")
    assert (steps.length, steps.metric) == (116, "steps")
    replay(board, steps)
    assert str(board) == "ABBC/ABBC/DEEF/DGHF/I..J"  # solve leaves the board alone


def test_every_named_layout_solution_replays():
    for entry in NAMED_LAYOUTS:
        board = entry.board
        solution = solve(board)
        if entry.name == "走投无路":
            assert solution is None
            continue
        assert solution is not None, entry.name
        replay(board, solution)
        assert {move.split(":")[0] for move in solution.moves} <= {p.letter for p in board.pieces}


def test_feng_hui_lu_zhuan_both_metrics_agree_with_the_reference():
    board = LAYOUTS["峰回路转"]
    for metric in ("moves", "steps"):
        solution = solve(board, metric)
        replay(board, solution)
        assert solution.length == len(reference_search(board, metric)) - 1
    assert solve(board).length == 138


def test_zou_tou_wu_lu_is_unsolvable_after_a_full_search():
    board = LAYOUTS["走投无路"]
    assert solve(board) is None and solve(board, "steps") is None
    assert hint(board) is None
    assert reference_search(board) is None


@pytest.mark.parametrize("name", ["横刀立马", "捷足先登", "兵分三路", "井底之蛙", "将拥曹营"])
def test_fast_search_matches_the_plain_python_reference(name):
    board = LAYOUTS[name]
    for metric in ("moves", "steps"):
        path = reference_search(board, metric)
        assert solve(board, metric).length == len(path) - 1


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 10**6),
    st.sampled_from(
        [(3, 4), (4, 3), (4, 4), (3, 5), (5, 3), (7, 3)]
    ),  # 3x7 is too slow for the reference
    st.integers(1, 3),
)
def test_random_small_boards_match_the_reference(seed, size, empty):
    board = random_layout(*size, empty=empty, seed=seed)
    for metric in ("moves", "steps"):
        path = reference_search(board, metric)
        solution = solve(board, metric)
        if path is None:
            assert solution is None
        else:
            assert solution.length == len(path) - 1
            replay(board, solution)


def test_hint_is_a_first_move_that_brings_the_exit_one_closer():
    board = LAYOUTS["横刀立马"]
    move = hint(board)
    assert move in set(board.moves())
    board.push(move)
    assert solve(board).length == 80
    assert hint(Board.parse("ABCD/EFGH/IJKL/.MM./.MM.")) is None
    assert solve(Board.parse("ABCD/EFGH/IJKL/.MM./.MM.")).moves == []


def test_solving_keeps_letters_of_a_mirrored_start():
    board = Board.parse("ABBC/ABBC/DEEF/DGHF/IJ..")
    assert board.key() > board.mirror_key()  # lopsided: the search keys it as its mirror image
    for metric, length in (("moves", 81), ("steps", 116)):
        solution = solve(board, metric)
        replay(board, solution)  # the moves read on the board as given, not on its mirror
        assert solution.length == solve(board.mirror(), metric).length == length


def test_search_limit_is_reported():
    with pytest.raises(SearchLimitError, match="max_nodes=100") as caught:
        solve(LAYOUTS["横刀立马"], limits=Limits(max_nodes=100))
    assert caught.value.limit == "max_nodes" and caught.value.nodes >= 100
    assert solve(LAYOUTS["捷足先登"], limits=Limits(max_nodes=5000)).length == 32
    with pytest.raises(SearchLimitError, match="time limit") as caught:  # the compiled search
        solve(LAYOUTS["横刀立马"], limits=Limits(timeout=1e-9))
    assert caught.value.limit == "timeout"


def test_boards_too_big_for_the_kernel_fall_back_to_python():
    board = Board.parse("AAB/AAB/CDE/CDE/FGH/FGH/I.J/K.L")  # 24 cells
    solution = solve(board)
    replay(board, solution)
    assert solution.length == len(reference_search(board)) - 1


def test_unknown_metric():
    with pytest.raises(ValueError, match="unknown metric"):
        solve(LAYOUTS["横刀立马"], "jumps")


def test_the_python_fallback_has_a_default_limit():
    from tilegames.klotski.solve import DEFAULT_MAX_STATES_PYTHON

    assert (
        DEFAULT_MAX_STATES_PYTHON <= 1_000_000
    )  # a plain Python BFS of 50 million states would not end
    big = Board.parse("AAb.cd/AAe.fg/.hi.jk/.lm.no/....../......")
    with pytest.raises(SearchLimitError, match="max_nodes=50"):
        solve(big, limits=Limits(max_nodes=50))
    with pytest.raises(SearchLimitError, match="time limit"):  # the Python search
        solve(big, limits=Limits(timeout=0.05))
    with pytest.raises(ValueError, match="at least 1"):
        solve(LAYOUTS["横刀立马"], limits=Limits(max_nodes=0))

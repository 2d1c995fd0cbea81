"""The solver against a plain exhaustive search, its solutions replayed, its limits."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tilegames.link import Board, Limits, SearchLimitError, Solution, deal, hint, solve
from tilegames.link.kernels import doomed
from tilegames.link.solve import greedy


def verdict(board: Board, **kwargs: object) -> bool | None:
    """Cleared (True), proved impossible (False) or a limit hit (None), from the contract's solve."""
    try:
        return solve(board, **kwargs) is not None  # type: ignore[arg-type]
    except SearchLimitError:
        return None


def exhaustive(board: Board, memo: dict[str, bool] | None = None) -> bool:
    """Obviously right: try every removable pair, every order (positions memoised)."""
    memo = {} if memo is None else memo
    if board.is_solved():
        return True
    key = str(board)
    if key not in memo:
        memo[key] = False
        for pair in board.pairs():
            board.push(pair)
            found = exhaustive(board, memo)
            board.pop()
            if found:
                memo[key] = True
                break
    return memo[key]


def small_board(seed: int, gravity: bool, ring: bool) -> Board:
    """A small random board with kinds of 2, 4 and 6 tiles and some cells already empty."""
    rng = random.Random(seed)
    width, height = rng.randint(2, 5), rng.randint(2, 4)
    cells = width * height
    tiles: list[str] = []
    kind = 0
    while len(tiles) + 2 <= cells * rng.uniform(0.85, 1.0):
        copies = rng.choice([2, 2, 2, 4, 4, 6])
        if len(tiles) + copies > cells:
            copies = 2
        tiles += ["ABCDEFGHIJ"[kind % 10]] * copies
        kind += 1
    layout = tiles + ["."] * (cells - len(tiles))
    rng.shuffle(layout)
    rows = ["".join(layout[r * width : (r + 1) * width]) for r in range(height)]
    return Board.parse("/".join(rows), gravity=gravity, ring=ring)


def replay_clears(board: Board, pairs) -> bool:
    play = board.copy()
    for pair in pairs:
        play.push(pair)
    return play.is_solved()


@pytest.mark.parametrize("gravity", [False, True])
@pytest.mark.parametrize("ring", [True, False])
def test_verdicts_match_exhaustive_search(gravity, ring):
    verdicts = []
    for seed in range(400):
        board = small_board(seed, gravity, ring)
        result = solve(board)
        expected = exhaustive(board.copy())
        assert (result is not None) is expected, (str(board), gravity, ring)
        if result is not None:
            assert replay_clears(board, result.moves), str(board)
            assert result.length == len(result.moves) == board.remaining // 2
        verdicts.append(expected)
    assert 0 < sum(verdicts) < len(verdicts)  # both verdicts are exercised


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**9), st.booleans(), st.booleans())
def test_safe_rule_and_memo_agree_with_plain_search(seed, gravity, ring):
    board = small_board(seed, gravity, ring)
    assert verdict(board) is verdict(board, safe=False, memo=False) is exhaustive(board.copy())


def test_safe_rule_clears_a_kind_in_the_right_pairing():
    # Four A tiles: pairing the two adjacent ones first strands the others behind B and C,
    # so only the pairing the rule checks (the remaining two still connect) is safe.
    board = Board.parse("AABA/BCAC")
    assert exhaustive(board.copy()) is True
    result = solve(board)
    assert result is not None and replay_clears(board, result.moves)


def test_classic_deadlock_is_proven():
    assert solve(Board.parse("AB/BA")) is None
    assert solve(Board.parse("..../.AB./.BA./....")) is None


def test_cleared_board_is_solved_by_nothing():
    assert solve(Board.parse("../..")) == Solution([], 0, True, 1)


def test_limits_give_undecided():
    board = deal(18, 8, 36, seed=3, solvable=False)
    with pytest.raises(SearchLimitError) as by_nodes:
        solve(board, limits=Limits(max_nodes=5))
    assert by_nodes.value.limit == "max_nodes" and 0 < by_nodes.value.nodes <= 5
    with pytest.raises(SearchLimitError) as by_time:
        solve(board, limits=Limits(timeout=1e-9))
    assert by_time.value.limit == "timeout"


def test_full_size_deals_are_solved_and_replay():
    for seed in range(3):
        for gravity in (False, True):
            board = deal(18, 8, 36, seed=seed, gravity=gravity)
            result = solve(board, limits=Limits(max_nodes=100_000))
            assert result is not None and replay_clears(board, result.moves)


def test_greedy_baseline_plays_legal_moves():
    cleared, moves = greedy(Board.parse("AB/BA"))
    assert (cleared, moves) == (False, 0)
    cleared, moves = greedy(Board.parse("AABB"))
    assert (cleared, moves) == (True, 2)


@pytest.mark.parametrize(
    ("shape", "ring", "gravity"),
    [
        ((4, 4, 4, 4), False, False),
        ((6, 4, 6, 4), False, False),
        ((6, 4, 6, 4), False, True),
        ((5, 4, 5, 4), False, False),
        ((4, 4, 8, 2), True, False),
        ((4, 4, 8, 2), True, True),
        ((6, 4, 12, 2), True, False),
        ((6, 4, 12, 2), True, True),
    ],
)
def test_full_deals_match_exhaustive_search(shape, ring, gravity):
    verdicts = []
    for seed in range(100):
        board = deal(*shape, seed=seed, solvable=False, ring=ring, gravity=gravity)
        found = verdict(board)
        assert found is exhaustive(board.copy()), str(board)
        verdicts.append(found)
    assert True in verdicts


def test_dead_end_proof_is_sound_and_catches_crossings():
    proved = 0
    for seed in range(400):
        board = small_board(seed, False, seed % 2 == 0)
        if doomed(board.grid()):
            proved += 1
            assert exhaustive(board.copy()) is False, str(board)
    assert proved > 0
    # a crossing of two last pairs inside a bigger, otherwise clearable board
    board = Board.parse("CCDD/.AB./.BA./EEFF")
    assert doomed(board.grid()) and solve(board) is None
    assert not doomed(Board.parse("CCDD/.AB./.AB./EEFF").grid())


def test_clearable_hint_avoids_a_dead_end():
    board = Board.parse("BBBAE/CEDED/ACABD/AECDC", ring=False)
    plain = hint(board)
    after = board.copy()
    after.push(plain)
    assert verdict(board) and verdict(after) is False  # the plain hint strands
    good = hint(board, clearable=True)
    after = board.copy()
    after.push(good)
    assert verdict(after) is True and board.move_stack == ()  # a hint changes nothing
    assert hint(Board.parse("AB/BA"), clearable=True) is None
    # A node limit, not a clock: with too small a budget the hint falls back to the plain one.
    assert hint(board, clearable=True, limits=Limits(max_nodes=1)) == plain


def test_deep_boards_do_not_hit_the_recursion_limit():
    kinds = [chr(0x4E00 + i) for i in range(1050)]  # CJK characters are kinds too
    rows = ["".join(k * 2 for k in kinds[r * 35 : (r + 1) * 35]) for r in range(30)]
    board = Board.parse("/".join(rows))  # 2100 tiles in adjacent pairs: 1050 moves deep
    result = solve(board)
    assert result is not None and len(result.moves) == 1050
    assert replay_clears(board, result.moves)

"""Deals and reshuffles: clearable by construction, uniform shuffles (and a biased one that fails)."""

from __future__ import annotations

import random
from collections import Counter
from functools import cmp_to_key
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tilegames.link import (
    Board,
    DealError,
    Limits,
    SearchLimitError,
    deal,
    deal_with_solution,
    make_clearable,
    reshuffle,
    solve,
)


def replay_clears(board: Board, pairs) -> bool:
    play = board.copy()
    for pair in pairs:
        play.push(pair)  # raises if a move is illegal
    return play.is_solved()


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from([(4, 3, 3), (6, 4, 6), (8, 6, 12), (14, 6, 21), (18, 8, 36)]),
    st.integers(0, 10**6),
    st.booleans(),
    st.booleans(),
)
def test_solvable_deal_comes_with_a_solution(shape, seed, gravity, ring):
    width, height, kinds = shape
    dealt = deal_with_solution(width, height, kinds, seed=seed, gravity=gravity, ring=ring)
    board = dealt.board
    assert (board.width, board.height, board.gravity, board.ring) == (width, height, gravity, ring)
    assert sorted(Counter(k for _, k in board.cells()).values()) == [4] * kinds
    assert len(dealt.solution) == width * height // 2
    assert replay_clears(board, dealt.solution)
    assert deal(width, height, kinds, seed=seed, gravity=gravity, ring=ring) == board


@pytest.mark.parametrize("gravity", [False, True])
def test_make_clearable_relabels_any_board(gravity):
    relabelled = 0
    for seed in range(40):
        board = deal(4, 4, 8, 2, seed=seed, solvable=False, gravity=gravity, ring=False)
        made = make_clearable(board, seed=seed)
        assert [c for c, _ in made.board.cells()] == [c for c, _ in board.cells()]
        assert sorted(k for _, k in made.board.cells()) == sorted(k for _, k in board.cells())
        assert replay_clears(made.board, made.solution)
        if solve(board) is None:
            relabelled += 1
            assert made.board != board
    assert relabelled > 0  # the construction was needed, and it worked


def test_solvable_deal_keeps_a_clearable_random_deal_untouched():
    kept = 0
    for seed in range(20):
        plain = deal(18, 8, 36, seed=seed, solvable=False)
        try:
            proved = solve(plain, limits=Limits(max_nodes=3000)) is not None
        except SearchLimitError:
            proved = False
        if proved:
            assert deal(18, 8, 36, seed=seed) == plain
            kept += 1
    assert kept > 10


def test_deals_are_reproducible_and_seed_dependent():
    assert deal(18, 8, 36, seed=5) == deal(18, 8, 36, seed=5)
    assert deal(18, 8, 36, seed=5) != deal(18, 8, 36, seed=6)
    assert deal(18, 8, 36, seed=5, solvable=False) == deal(18, 8, 36, seed=5, solvable=False)


def test_large_boards_repeat_kinds_in_groups():
    board = deal(30, 16, 36, seed=1)
    counts = Counter(k for _, k in board.cells())
    assert len(counts) == 36 and sum(counts.values()) == 480
    assert all(c % 4 == 0 for c in counts.values())


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((14, 6, 36), "do not fit"),
        ((3, 3, 2), "not a multiple of copies"),
        ((4, 4, 2, 3), "copies must be even"),
        ((4, 4, 0), "kinds must be"),
        ((0, 4, 1), "at least one row"),
    ],
)
def test_bad_deals_are_refused(args, message):
    with pytest.raises(DealError, match=message):
        deal(*args)


def test_plain_deals_can_be_unsolvable_and_solvable_ones_never_are():
    verdicts = {solve(deal(4, 4, 8, 2, seed=s, solvable=False)) is not None for s in range(60)}
    assert verdicts == {True, False}
    assert all(solve(deal(4, 4, 8, 2, seed=s)) is not None for s in range(60))
    assert all(solve(deal(6, 4, 12, 2, seed=s, gravity=True)) is not None for s in range(30))


def test_reshuffle_keeps_cells_and_kinds_and_leaves_a_move():
    board = Board.parse("AB.C/..CA/B.DD")
    for seed in range(50):
        shuffled = reshuffle(board, seed=seed, solvable=False)
        assert [c for c, _ in shuffled.cells()] == [c for c, _ in board.cells()]
        assert Counter(k for _, k in shuffled.cells()) == Counter(k for _, k in board.cells())
        assert shuffled.pairs()
    assert str(board) == "AB.C/..CA/B.DD"  # a new board; the old one is unchanged


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.booleans())
def test_solvable_reshuffle_can_be_cleared(seed, gravity):
    board = deal(8, 6, 12, seed=seed, gravity=gravity, solvable=False)
    rng = random.Random(seed)
    for _ in range(10):  # play a little, then reshuffle what is left
        pairs = board.pairs()
        if not pairs:
            break
        board.push(rng.choice(pairs))
    shuffled = reshuffle(board, seed=seed)
    assert shuffled.gravity == gravity
    result = solve(shuffled, limits=Limits(max_nodes=200_000))
    assert result is not None and replay_clears(shuffled, result.moves)


def test_reshuffle_forces_a_move_when_few_arrangements_have_one():
    # 2 x 2 with two kinds: 'AB/BA' and 'BA/AB' are stuck, the other four have a move.
    board = Board.parse("AB/BA")
    for seed in range(30):
        assert reshuffle(board, seed=seed, solvable=False).pairs()


# -- uniformity ---------------------------------------------------------------------------------

CELLS = "AABBCC"  # one row: every arrangement has a move (the ring is open above and below)
ARRANGEMENTS = sorted(set(permutations(CELLS)))  # 90
SAMPLES = 9000
CRITICAL = 135.8  # chi-square, 89 degrees of freedom, p = 0.001


def chi_square(counts: Counter) -> float:
    expected = SAMPLES / len(ARRANGEMENTS)
    return sum((counts[a] - expected) ** 2 / expected for a in ARRANGEMENTS)


def test_reshuffle_is_uniform():
    board = Board.parse(CELLS)
    counts = Counter(tuple(str(reshuffle(board, seed=s, solvable=False))) for s in range(SAMPLES))
    assert set(counts) == set(ARRANGEMENTS)
    assert chi_square(counts) < CRITICAL


def test_comparator_shuffle_of_the_tutorial_fails():
    """`tiles.sort(() => Math.random() > .5 ? 1 : 0)` emulated: TimSort (V8 and CPython) only moves
    an element when the comparator says "less", which it never does, so nothing moves."""
    rng = random.Random(1)
    counts = Counter(
        tuple(sorted(CELLS, key=cmp_to_key(lambda a, b: 1 if rng.random() > 0.5 else 0)))
        for _ in range(SAMPLES)
    )
    assert chi_square(counts) > CRITICAL
    assert counts == Counter({tuple(CELLS): SAMPLES})


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 30), st.booleans(), st.booleans())
def test_reshuffle_properties(seed, moves, gravity, solvable):
    board = deal(8, 6, 12, seed=seed, gravity=gravity, solvable=False)
    rng = random.Random(seed)
    for _ in range(moves):
        pairs = board.pairs()
        if not pairs:
            break
        board.push(rng.choice(pairs))
    if board.is_solved():
        return
    shuffled = reshuffle(board, seed=seed, solvable=solvable)
    assert [c for c, _ in shuffled.cells()] == [c for c, _ in board.cells()]
    assert sorted(k for _, k in shuffled.cells()) == sorted(k for _, k in board.cells())
    assert shuffled.pairs() and shuffled.move_stack == () and shuffled.gravity == gravity
    assert shuffled == reshuffle(board, seed=seed, solvable=solvable)  # reproducible


def test_reshuffle_is_uniform_over_the_arrangements_that_have_a_move():
    # 'AB/BA' and 'BA/AB' are stuck; the redraw must leave the other four equally likely.
    board = Board.parse("AB/BA")
    samples = 4000
    counts = Counter(str(reshuffle(board, seed=s, solvable=False)) for s in range(samples))
    assert set(counts) == {"AA/BB", "BB/AA", "AB/AB", "BA/BA"}
    expected = samples / 4
    chi2 = sum((n - expected) ** 2 / expected for n in counts.values())
    assert chi2 < 16.27  # 3 degrees of freedom, p = 0.001

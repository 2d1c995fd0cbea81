"""The exhaustive search under gravity (`exhaust.Exhaust`): its verdicts are the plain search's,
its lines clear the board, pausing changes nothing, and a full table claims nothing."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.link.test_solve import exhaustive, replay_clears, small_board
from tilegames.link import Board, Limits, deal, solve
from tilegames.link.exhaust import DEAD, FOUND, GROW, PAUSE, SOLVED, Exhaust
from tilegames.link.falling import compact
from tilegames.link.search import _Limit, _Moves


def settled(board: Board) -> Board:
    """The board with its tiles resting on the bottom, as gravity leaves them after a move."""
    rows = str(board).split("/")
    columns = ["".join(row[c] for row in rows if row[c] != ".") for c in range(len(rows[0]))]
    height = len(rows)
    stacked = [
        "".join(
            column[len(column) - (height - r)] if height - r <= len(column) else "."
            for column in columns
        )
        for r in range(height)
    ]
    return Board.parse("/".join(stacked), gravity=True, ring=board.ring)


def finish(board: Board, per_call: int = 1 << 30) -> tuple[int, Exhaust]:
    every = Exhaust(board.grid(), 1 << 26, rows=16)
    while True:
        status = every.step(per_call)
        if status != PAUSE:
            return status, every


def cells(moves) -> list:
    return [((r1 - 1, c1 - 1), (r2 - 1, c2 - 1)) for r1, c1, r2, c2 in moves]


@pytest.mark.parametrize("ring", [True, False])
def test_verdicts_match_the_plain_search_and_lines_clear(ring):
    verdicts = []
    for seed in range(300):
        board = settled(small_board(seed, True, ring))
        assert compact(board.grid())
        status, every = finish(board)
        expected = exhaustive(board.copy())
        assert status == (SOLVED if expected else DEAD), (str(board), ring)
        if status == SOLVED:
            assert replay_clears(board, cells(every.moves())), str(board)
        verdicts.append(expected)
    assert 0 < sum(verdicts) < len(verdicts)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9), st.booleans())
def test_pausing_every_position_changes_nothing(seed, ring):
    board = settled(small_board(seed, True, ring))
    whole_status, whole = finish(board)
    step_status, stepped = finish(board, 1)
    assert whole_status == step_status
    assert whole.nodes == stepped.nodes
    if whole_status == SOLVED:
        assert whole.moves() == stepped.moves()


def test_a_full_size_deal_is_cleared_and_its_line_replays():
    board = deal(12, 8, 24, seed=3, gravity=True)
    status, every = finish(board)
    assert status == SOLVED
    assert replay_clears(board, cells(every.moves()))


def test_a_full_table_claims_nothing():
    board = deal(24, 12, 72, 4, seed=5, gravity=True, solvable=False)  # 0.5 M positions
    every = Exhaust(board.grid(), 1 << 20, rows=16)
    status = PAUSE
    while status == PAUSE:
        status = every.step(1 << 30)
    assert status == GROW and every.full
    assert every.nodes > 0
    assert len(every.hashes) * every.row_bytes <= 1 << 20


def test_macro_steps_replay_in_a_playable_order():
    # Two kinds whose four tiles all sit on top: each kind goes as one step of four tiles.
    board = Board.parse("ABAB/ABAB/CDCD/CDCD", gravity=True)
    status, every = finish(board)
    assert status == SOLVED
    moves = cells(every.moves())
    assert replay_clears(board, moves)
    assert len(moves) == 8
    steps, row = 0, int(every.meta[FOUND])
    while row > 0:
        steps, row = steps + 1, int(every.parent[row])
    assert steps == 4  # a kind of four per step


def test_the_move_search_runs_it_within_its_limits():
    dead = (settled(small_board(seed, True, True)) for seed in range(1000))
    board = next(b for b in dead if exhaustive(b.copy()) is False)  # every position expanded
    core = _Moves(board.grid(), True, True, True, 1000)
    every = Exhaust(core.grid, 1 << 26)
    assert core.exhaustive(every, 60.0, []) is False
    assert core.nodes == every.nodes > 0
    limited = _Moves(board.grid(), True, True, True, 1000)
    limited.max_nodes = 1
    with pytest.raises(_Limit):
        limited.exhaustive(Exhaust(board.grid(), 1 << 26), 60.0, [])
    assert limited.nodes <= 1


def test_random_deals_only_it_decides_are_decided():
    # 24x12 with 72 kinds x 4, uniformly random: the relaxations and the restarts leave both
    # undecided after a minute; seeing every position (about 0.1 M for the first) decides them.
    impossible = deal(24, 12, 72, 4, seed=91, gravity=True, solvable=False)
    assert solve(impossible, limits=Limits(timeout=300)) is None
    clearable = deal(24, 12, 72, 4, seed=77, gravity=True, solvable=False)
    solution = solve(clearable, limits=Limits(timeout=300))
    assert solution is not None and replay_clears(clearable, solution.moves)

"""`tilegames link ...`: JSON shapes and exit codes."""

from __future__ import annotations

import json
from argparse import Namespace

import pytest

from tilegames.cli import main
from tilegames.cli.common import limits
from tilegames.cli.link import SOLVE_MAX_NODES
from tilegames.common import Limits
from tilegames.link import Board, deal


def run(capsys, *argv: str) -> tuple[int, dict | None, str]:
    status = main(["link", *argv])
    out, err = capsys.readouterr()
    return status, (json.loads(out) if out.strip().startswith("{") else None), err


def test_new_deals_a_clearable_board(capsys):
    status, payload, _ = run(capsys, "new", "18x8", "--kinds", "36", "--seed", "1", "--json")
    assert status == 0 and set(payload) == {"boards"}
    board = Board.parse(payload["boards"][0])
    assert (board.width, board.height, board.remaining) == (18, 8, 144)
    status, again, _ = run(capsys, "new", "18x8", "--kinds", "36", "--seed", "1", "--json")
    assert again == payload
    status, solved, _ = run(capsys, "solve", payload["boards"][0], "--json")
    assert status == 0 and solved["solvable"] is True and len(solved["moves"]) == 72
    for pair in solved["moves"]:
        board.push(pair)  # the printed pairs clear the board, in order
    assert board.is_solved()


def test_hint_gives_pair_and_path(capsys):
    status, payload, _ = run(capsys, "hint", "A.B/B.A", "--json")
    assert status == 0
    assert payload == {"move": [[0, 0], [1, 2]], "path": [[0, 0], [0, 1], [1, 1], [1, 2]]}


def test_clearable_hint(capsys):
    board = "BBBAE/CEDED/ACABD/AECDC"
    _, plain, _ = run(capsys, "hint", board, "--no-ring", "--json")
    status, good, _ = run(capsys, "hint", board, "--no-ring", "--clearable", "--json")
    assert status == 0 and plain["move"] == [[0, 0], [0, 1]] and good["move"] != plain["move"]


def test_hint_on_a_stuck_board_exits_1(capsys):
    status, payload, _ = run(capsys, "hint", "AB/BA", "--json")
    assert status == 1 and payload == {"move": None, "solvable": False}
    status, payload, _ = run(capsys, "hint", "../..", "--json")
    assert status == 1 and payload == {"move": None, "solved": True}


def test_solve_verdicts(capsys):
    status, payload, _ = run(capsys, "solve", "AB/BA", "--json")
    assert status == 1 and payload == {"solvable": False}
    status, payload, _ = run(capsys, "solve", "AB/AB", "--gravity", "--json")
    assert status == 0 and payload["moves"] == [[[0, 0], [1, 0]], [[0, 1], [1, 1]]]
    assert payload["solvable"] is True and payload["length"] == 2 and payload["optimal"] is True
    board = str(deal(18, 8, 36, seed=3, solvable=False))
    status, payload, _ = run(capsys, "solve", board, "--max-nodes", "3", "--json")
    assert status == 1 and payload["solvable"] is None and payload["limit"] == "max_nodes"
    assert 0 < payload["nodes"] <= 3  # a node limit is never passed


def test_reshuffle_and_path(capsys):
    status, payload, _ = run(capsys, "reshuffle", "AB/BA", "--seed", "3", "--json")
    assert status == 0 and sorted(payload["board"]) == sorted("AB/BA")
    assert Board.parse(payload["board"]).pairs()
    status, payload, _ = run(capsys, "path", "A..A", "0,0", "0,3", "--json")
    assert status == 0 and payload == {"path": [[0, 0], [0, 3]]}
    status, payload, _ = run(capsys, "path", "AB/BA", "0,0", "1,1", "--json")
    assert status == 1 and payload == {"path": None}


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["hint", "AB/A"], "row 2 has 1 cell"),
        (["hint", "AAA"], "kind 'A' appears 3 times"),
        (["path", "AB/BA", "0,0", "0,1"], "holds 'A' but cell (0, 1) holds 'B'"),
        (["path", "AB/BA", "0,0", "7,7"], "outside"),
        (["path", "AB/BA", "0,0", "x"], "ROW,COL"),
        (["new", "14x6", "--kinds", "36"], "do not fit"),
        (["new", "4x4", "--kinds", "2", "--copies", "3"], "even"),
    ],
)
def test_bad_input_is_one_line_exit_2(capsys, argv, needle):
    status, _, err = run(capsys, *argv, "--json")
    assert status == 2 and needle in err and err.count("\n") == 1


def test_the_command_line_never_runs_unbounded(capsys):
    status, _, err = run(capsys, "new", "100x100", "--kinds", "36")
    assert status == 2 and "out of range 2..40" in err and err.count("\n") == 1
    big = "/".join(["AB" * 25] * 50)
    status, _, err = run(capsys, "reshuffle", big)
    assert status == 2 and "too big to reshuffle" in err and err.count("\n") == 1
    board = str(deal(18, 8, 36, seed=3, solvable=False))
    status, payload, _ = run(capsys, "solve", board, "--timeout", "1e-9", "--json")
    assert status == 1 and payload["solvable"] is None and payload["limit"] == "timeout"
    status, _, err = run(capsys, "new", "40x40", "--kinds", "36", "--count", "10000")
    assert status == 2 and "more than one run prints" in err


def test_a_timeout_alone_lifts_the_default_node_limit():
    def given(max_nodes, timeout):
        return limits(Namespace(max_nodes=max_nodes, timeout=timeout), SOLVE_MAX_NODES, 60.0)

    assert given(None, None) == Limits(SOLVE_MAX_NODES, 60.0)  # the same answer everywhere
    assert given(None, 10.0) == Limits(None, 10.0)  # seconds alone: both cores may work
    assert given(5, None) == Limits(5, 60.0)
    assert given(5, 10.0) == Limits(5, 10.0)


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["new", "18x8", "--kinds", "36", "--seed", "-1"], "seed must be 0 or more"),
        (["solve", "AB/BA", "--timeout", "-1"], "timeout must be a positive number"),
        (["solve", "AB/BA", "--timeout", "nan"], "timeout must be a positive number"),
        (["solve", "AB/BA", "--max-nodes", "0"], "max_nodes must be at least 1"),
        (["hint", "AB/BA", "--max-nodes", "-1"], "max_nodes must be at least 1"),
        (["reshuffle", "AB/BA", "--seed", "-3"], "seed must be 0 or more"),
    ],
)
def test_bad_limits_and_seeds_exit_2(capsys, argv, needle):
    status, _, err = run(capsys, *argv)
    assert status == 2 and needle in err and err.count("\n") == 1

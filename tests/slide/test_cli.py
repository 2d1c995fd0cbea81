"""`tilegames slide new|solve|check|hint`: JSON shapes and exit codes."""

from __future__ import annotations

import json

import pytest

from tilegames.cli import main
from tilegames.slide import Board


def run(capsys, *argv: str) -> tuple[int, dict | None, str]:
    status = main(["slide", *argv])
    out, err = capsys.readouterr()
    payload = json.loads(out) if "--json" in argv and out.strip() else None
    return status, payload, err


def test_new_prints_n_seeded_solvable_boards(capsys):
    status, payload, _ = run(capsys, "new", "4x4", "--seed", "7", "--count", "3", "--json")
    assert status == 0 and len(payload["boards"]) == 3
    boards = [Board.parse(text) for text in payload["boards"]]
    assert all(b.is_solvable() and b.size == "4x4" for b in boards)
    assert run(capsys, "new", "4x4", "--seed", "7", "--count", "3", "--json")[1] == payload


def test_new_walk_and_distance(capsys):
    _, payload, _ = run(capsys, "new", "3x3", "--walk", "1", "--json")
    assert Board.parse(payload["boards"][0]).manhattan() == 1
    _, payload, _ = run(capsys, "new", "3x3", "--distance", "20", "--seed", "1", "--json")
    board = Board.parse(payload["boards"][0])
    status, solved, _ = run(capsys, "solve", str(board), "--json")
    assert status == 0 and solved["length"] == 20 and solved["optimal"] is True


def test_solve_json_and_replay(capsys):
    status, payload, _ = run(capsys, "solve", "5 1 3/4 0 2/7 8 6", "--json")
    assert status == 0
    assert set(payload) >= {"moves", "length", "optimal", "nodes"}
    board = Board.parse("5 1 3/4 0 2/7 8 6")
    board.play(payload["moves"])
    assert board.is_solved() and payload["length"] == len(payload["moves"])


def test_solve_to_another_goal(capsys):
    goal = "0 1 2/3 4 5/6 7 8"
    status, payload, _ = run(capsys, "solve", "1 0 2/3 4 5/6 7 8", "--goal", goal, "--json")
    assert status == 0 and payload["moves"] == "R"


def test_unsolvable_exits_1(capsys):
    status, payload, _ = run(capsys, "solve", "2 1 3/4 5 6/7 8 0", "--json")
    assert status == 1 and payload == {"solvable": False}
    status, payload, _ = run(capsys, "check", "2 1 3/4 5 6/7 8 0", "--json")
    assert status == 0 and payload == {"solvable": False}
    status, payload, _ = run(capsys, "check", "1 2 3/4 5 6/7 0 8", "--json")
    assert status == 0 and payload == {"solvable": True}


def test_limit_reached_exits_1(capsys):
    board = "0 12 9 13/15 11 10 14/3 7 2 5/4 8 6 1"
    status, payload, _ = run(capsys, "solve", board, "--max-nodes", "100", "--json")
    assert status == 1 and payload["solved"] is False and "node limit" in payload["limit"]


def test_hint(capsys):
    status, payload, _ = run(capsys, "hint", "1 2 3/4 5 6/7 0 8", "--json")
    assert status == 0 and payload == {"move": "L"}
    status, payload, _ = run(capsys, "hint", "1 2 3/4 5 6/7 8 0", "--json")
    assert payload == {"move": None}


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["check", "1 2 3/4 5 6/7 8"], "row 3 has 2 tiles"),
        (["check", "1 2 3/4 5 6/7 8 8"], "appears twice"),
        (["check", "1 2 3"], "at least 2"),
        (["check", "a b/c 0"], "not a tile number"),
        (["new", "1000000x1000000"], "out of range"),
        (["new", "4by4"], "not of the form"),
        (["solve", "1 2/3 0", "--goal", "1 2 3/4 5 0"], "goal is 3x2"),
    ],
)
def test_bad_input_is_one_line_exit_2(capsys, argv, needle):
    status = main(["slide", *argv])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1 and needle in err

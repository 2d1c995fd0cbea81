"""`tilegames slide new|solve|check|hint`: JSON shapes and exit codes."""

from __future__ import annotations

import json

import pytest

from tilegames.cli import main
from tilegames.slide import Board, random_board


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


def test_solve_text_is_the_length_then_the_letters_on_one_line(capsys):
    assert main(["slide", "solve", "5 1 3/4 0 2/7 8 6"]) == 0
    head, letters = capsys.readouterr().out.strip().split("\n")
    board = Board.parse("5 1 3/4 0 2/7 8 6")
    board.play(letters)
    assert board.is_solved() and head == f"{len(letters)} moves (optimal)"


def test_solve_to_another_goal(capsys):
    goal = "0 1 2/3 4 5/6 7 8"
    status, payload, _ = run(capsys, "solve", "1 0 2/3 4 5/6 7 8", "--goal", goal, "--json")
    assert status == 0 and payload["moves"] == ["R"]


def test_unsolvable_exits_1(capsys):
    status, payload, _ = run(capsys, "solve", "2 1 3/4 5 6/7 8 0", "--json")
    assert status == 1 and payload == {"solvable": False}
    status, payload, _ = run(capsys, "check", "2 1 3/4 5 6/7 8 0", "--json")
    assert status == 1 and payload == {"solvable": False}
    status, payload, _ = run(capsys, "check", "1 2 3/4 5 6/7 0 8", "--json")
    assert status == 0 and payload == {"solvable": True}


def test_limit_reached_exits_1(capsys):
    board = str(random_board(6, 6, seed=1))  # no pattern databases on 6x6: nothing to build
    status, payload, _ = run(capsys, "solve", board, "--max-nodes", "100", "--json")
    assert status == 1 and payload["solvable"] is None and payload["limit"] == "max_nodes"
    assert payload["nodes"] == 100 and "node limit" in payload["message"]


def test_hint(capsys):
    status, payload, _ = run(capsys, "hint", "1 2 3/4 5 6/7 0 8", "--json")
    assert status == 0 and payload == {"move": "L"}
    status, payload, _ = run(capsys, "hint", "1 2 3/4 5 6/7 8 0", "--json")
    assert status == 1 and payload == {"move": None, "solved": True}
    status, payload, _ = run(capsys, "hint", "2 1 3/4 5 6/7 8 0", "--json")
    assert status == 1 and payload == {"move": None, "solvable": False}


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
        (["solve", "1 2/3 0", "--goal", ""], "empty board text"),
        (["hint", ""], "empty board text"),
        (["solve", "\uff11 \uff12/\uff13 0"], "not a tile number"),  # full-width digits
        (["solve", "1 2/3 \u00b3"], "not a tile number"),
        (["check", "1 2 3/4 5 6/7 8 9"], "tile 9 at row 3, column 3 is out of range"),  # no blank
        (["solve", "5 1 3/4 0 2/7 8 6", "--max-nodes", "0"], "max_nodes must be at least 1"),
        (["solve", "5 1 3/4 0 2/7 8 6", "--timeout", "nan"], "timeout must be a positive number"),
        (["solve", "5 1 3/4 0 2/7 8 6", "--partition", "big"], "unknown partition"),
        (["new", "3x3", "--distance", "32"], "farthest is 31"),
        (["new", "3x3", "--walk", "-1"], "walk -1"),
    ],
)
@pytest.mark.parametrize("as_json", [False, True])
def test_bad_input_is_one_line_exit_2(capsys, argv, needle, as_json):
    status = main(["slide", *argv, *(["--json"] if as_json else [])])
    out, err = capsys.readouterr()
    assert status == 2 and out == "" and err.count("\n") == 1 and needle in err

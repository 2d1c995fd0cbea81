import json
import time

import networkx as nx
import pytest

from tilegames.cli import main
from tilegames.klotski import Board, solve


def run(capsys, *args):
    status = main(["klotski", *args])
    out, err = capsys.readouterr()
    return status, out, err


def test_solve_json(capsys):
    status, out, _ = run(capsys, "solve", "横刀立马", "--json")
    payload = json.loads(out)
    assert status == 0 and payload["length"] == 81 and payload["metric"] == "moves"
    assert len(payload["moves"]) == 81
    board = Board.parse("ABBC/ABBC/DEEF/DGHF/I..J")
    for move in payload["moves"]:
        board.push(move)  # the printed moves replay on the layout as given
    assert board.is_solved()


def test_solve_by_alias_in_steps(capsys):
    status, out, _ = run(capsys, "solve", "heng-dao-li-ma", "--metric", "steps", "--json")
    assert status == 0 and json.loads(out)["length"] == 116


def test_unsolvable_exits_1(capsys):
    status, out, _ = run(capsys, "solve", "zou-tou-wu-lu", "--json")
    assert status == 1 and json.loads(out) == {"solvable": False}


def test_hint(capsys):
    status, out, _ = run(capsys, "hint", "ABBC/ABBC/DEEF/DGHF/I..J", "--json")
    move = json.loads(out)["move"]
    board = Board.parse("ABBC/ABBC/DEEF/DGHF/I..J")
    board.push(move)  # a legal move of the layout as given ...
    assert (
        status == 0 and solve(board).length == 80
    )  # ... on an optimal path (81 moves from the start)
    status, out, _ = run(capsys, "hint", "ABCD/EFGH/IJKL/.MM./.MM.", "--json")
    assert status == 1 and json.loads(out)["move"] is None


def test_list(capsys):
    status, out, _ = run(capsys, "list", "--json")
    rows = json.loads(out)["layouts"]
    assert status == 0 and len(rows) == 43 and rows[0]["alias"] == "heng-dao-li-ma"
    assert all(row["english"] for row in rows) and len({row["english"] for row in rows}) == 43
    status, out, _ = run(capsys, "list")
    assert "横刀立马\theng-dao-li-ma\tABBC/ABBC/DEEF/DGHF/I..J" in out


def test_analyse_with_graph(capsys, tmp_path):
    path = tmp_path / "g.json"
    status, out, _ = run(capsys, "analyse", "横刀立马", "--json", "--graph", str(path))
    payload = json.loads(out)
    assert (
        status == 0
        and payload["positions"] == 25955
        and payload["positions_mirror_folded"] == 13011
    )
    assert payload["distance"] == 81
    assert nx.node_link_graph(json.loads(path.read_text())).number_of_nodes() == 25955


@pytest.mark.parametrize(
    ("layout", "words"),
    [
        ("AABB/AABB/..../CCDD/....", "2×2 pieces"),
        ("ABBC/ABBC/DEEF/DEHF/I..J", "not a rectangle"),
        ("ABBC/ABBC/DEEF/DGHF/I..A", "two separate places"),
        ("ABBC/ABBC/DEEF/DGHF/I..", "row 5 has 3 cells"),
        ("no-such-layout", "unknown layout name"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, layout, words):
    for verb in ("solve", "hint", "analyse"):
        status, out, err = run(capsys, verb, layout, "--json")
        assert status == 2 and out == "" and err.count("\n") == 1 and words in err


def test_bad_metric_exit_2(capsys):
    status, _, err = run(capsys, "solve", "横刀立马", "--metric", "jumps")
    assert status == 2 and "jumps" in err


def test_a_search_limit_is_reported_not_a_hang(capsys):
    status, out, err = run(capsys, "solve", "横刀立马", "--max-nodes", "100", "--json")
    payload = json.loads(out)
    assert status == 1 and payload["solvable"] is None and payload["limit"] == "max_nodes"
    assert "max_nodes=100" in payload["message"] and err == ""
    status, out, _ = run(capsys, "hint", "横刀立马", "--max-nodes", "100")
    assert status == 1 and out.startswith("undecided")
    status, out, _ = run(capsys, "analyse", "横刀立马", "--max-nodes", "100", "--json")
    assert status == 1 and json.loads(out)["solvable"] is None
    status, _, err = run(capsys, "solve", "横刀立马", "--max-nodes", "0")
    assert status == 2 and "max_nodes must be at least 1" in err and err.count("\n") == 1


def test_a_timeout_stops_the_search_within_a_second(capsys):
    # 30 cells: the plain Python search, which used to run two minutes before giving up.
    started = time.perf_counter()
    status, out, _ = run(
        capsys, "solve", "AAbcde/AAfghi/jklmno/pq..../......", "--timeout", "0.5", "--json"
    )
    payload = json.loads(out)
    assert status == 1 and payload["solvable"] is None and payload["limit"] == "timeout"
    assert (
        time.perf_counter() - started < 30
    )  # generous: the limit is honoured, not a wall-clock test


def test_big_boards_search_in_python_under_a_default_limit(capsys):
    # 36 cells: too big for the kernel; a huge reachable set stops at the Python default instead of hanging.
    status, out, _ = run(
        capsys,
        "solve",
        "AAb.cd/AAe.fg/.hi.jk/.lm.no/....../......",
        "--max-nodes",
        "2000",
        "--json",
    )
    payload = json.loads(out)
    assert (
        status == 1 and payload["limit"] == "max_nodes" and "max_nodes=2000" in payload["message"]
    )


def test_text_output_of_a_solved_layout(capsys):
    status, out, _ = run(capsys, "solve", "ABCD/EFGH/IJKL/.MM./.MM.")
    assert status == 0 and out == "already solved: 0 moves\n"


def test_unwritable_paths_are_one_line_not_a_traceback(capsys, tmp_path):
    status, out, err = run(capsys, "analyse", "横刀立马", "--graph", str(tmp_path))
    assert status == 2 and out == "" and "cannot write the graph" in err and err.count("\n") == 1
    blocker = tmp_path / "file"
    blocker.write_text("")
    status, _, err = run(capsys, "universe", "--size", "3x4", "--cache", str(blocker / "sub"))
    assert status == 2 and "cannot use the cache" in err and err.count("\n") == 1

import json
import subprocess
import sys

import pytest

from tilegames.cli import main


def test_unknown_game_is_one_line_exit_2(capsys):
    assert main(["chess"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "chess" in err


def test_module_entry_point_runs():
    done = subprocess.run(
        [sys.executable, "-m", "tilegames", "--help"], capture_output=True, text=True
    )
    assert done.returncode == 0 and "slide" in done.stdout


GAMES = {
    # game: (a solved board, a board whose search passes 2 nodes, the flags `new` needs)
    "slide": ("1 2 3/4 5 6/7 8 0", "8 6 7/2 5 4/3 0 1", ["3x3"]),
    "klotski": ("ABCD/EFGH/IJKL/.MM./.MM.", "横刀立马", ["4x5"]),
    "link": ("../..", "ABAB/CDCD/ABAB/CDCD", ["4x4", "--kinds", "2"]),
}


def run_json(capsys, *argv: str) -> tuple[int, dict, str]:
    status = main([*argv, "--json"])
    out, err = capsys.readouterr()
    return status, (json.loads(out) if out.strip() else {}), err


@pytest.mark.parametrize("game", GAMES)
def test_the_shared_verbs_mean_the_same_in_every_game(capsys, game):
    solved, hard, new = GAMES[game]
    status, payload, _ = run_json(capsys, game, "hint", solved)
    assert status == 1 and payload == {"move": None, "solved": True}
    status, payload, _ = run_json(capsys, game, "solve", solved)
    assert status == 0 and payload["solvable"] is True and payload["moves"] == []
    for verb in ("solve", "check"):
        status, payload, _ = run_json(capsys, game, verb, hard, "--max-nodes", "2")
        assert status == 1 and payload["solvable"] is None and payload["limit"] == "max_nodes"
        assert payload["nodes"] >= 2 and "node limit" in payload["message"]
    # A hint past its limit falls back to a weaker move where the game has one (slide: the fast
    # solver; link: the plain pair); it reports the limit only when it has no move to give (klotski).
    status, payload, _ = run_json(capsys, game, "hint", hard, "--max-nodes", "2")
    if status == 1:
        assert game == "klotski" and payload["limit"] == "max_nodes" and payload["solvable"] is None
    else:
        assert status == 0 and payload["move"] is not None
    status, payload, _ = run_json(capsys, game, "new", *new, "--seed", "3", "--count", "2")
    assert status == 0 and len(payload["boards"]) == 2
    assert run_json(capsys, game, "new", *new, "--seed", "3", "--count", "2")[1] == payload
    status, _, err = run_json(capsys, game, "new", *new, "--seed", "-1")
    assert status == 2 and "seed must be 0 or more" in err and err.count("\n") == 1
    status, _, err = run_json(capsys, game, "solve", hard, "--timeout", "0")
    assert status == 2 and "timeout must be a positive number" in err


def test_echoed_input_has_its_control_characters_escaped(capsys):
    status = main(["slide", "check", "1 2/3 \x1b[31m"])
    err = capsys.readouterr().err
    assert status == 2 and "\x1b" not in err and "\\x1b" in err and err.count("\n") == 1
    status = main(["klotski", "solve", "AA\ud800/AA./..."])
    err = capsys.readouterr().err
    assert status == 2 and "\\ud800" in err and err.count("\n") == 1


def test_output_sizes_are_bounded(capsys):
    status = main(["slide", "new", "999x1000", "--count", "10000"])
    err = capsys.readouterr().err
    assert status == 2 and "more than one run prints" in err
    status = main(["slide", "new", "4x4", "--walk", "100000000"])
    err = capsys.readouterr().err
    assert status == 2 and "walk 100000000 is out of range" in err

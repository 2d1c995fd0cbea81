import subprocess
import sys

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

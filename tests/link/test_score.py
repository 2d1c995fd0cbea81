"""The score: KShisen's documented formula, applied in floating point."""

from __future__ import annotations

import math

import pytest

from tilegames.link import ScoreError, score


def test_matches_the_documented_formula_on_a_cleared_board():
    n, t = 144, 300
    expected = (n / t) * math.sqrt(n / 84) / 0.0014
    assert score(n, t, gravity=False, board_cells=n) == round(expected) == 449
    assert score(n, t, gravity=True, board_cells=n) == round(2 * expected)


def test_rewards_speed_and_size():
    assert score(84, 60, gravity=False, board_cells=84) > score(
        84, 120, gravity=False, board_cells=84
    )
    # the same pace (tiles per second) on a bigger board scores more
    assert score(480, 480, gravity=False, board_cells=480) > score(
        84, 84, gravity=False, board_cells=84
    )
    assert score(84, 84, gravity=False, board_cells=84) == round(1 / 0.0014)


def test_partial_games_and_tiny_times():
    assert score(0, 10, gravity=True, board_cells=144) == 0
    assert score(10, 0, gravity=False, board_cells=84) == score(
        10, 1, gravity=False, board_cells=84
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [((10, 5, 0), "board_cells"), ((90, 5, 84), "tiles_removed"), ((10, -1, 84), "seconds")],
)
def test_bad_arguments(args, message):
    n, t, cells = args
    with pytest.raises(ScoreError, match=message):
        score(n, t, gravity=False, board_cells=cells)
    with pytest.raises(ValueError):
        score(n, t, gravity=False, board_cells=cells)

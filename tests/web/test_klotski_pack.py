"""The generated Klotski pack and the named layouts' optimal lengths, checked against the solver on a sample."""

from __future__ import annotations

import random

from tilegames import klotski
from tilegames.klotski.layouts import named_optimal, pack


def test_the_pack_is_graded_from_about_10_to_the_hardest():
    levels = pack()
    assert len(levels) >= 100
    lengths = [level.optimal for level in levels]
    assert lengths == sorted(lengths) and lengths[0] <= 12 and lengths[-1] == 138
    assert [level.name for level in levels] == [f"Level {i + 1}" for i in range(len(levels))]
    assert len({level.layout for level in levels}) == len(levels)


def test_a_sample_of_the_pack_has_the_optimum_it_claims():
    levels = pack()
    for level in random.Random(9).sample(
        levels[:30], 2
    ):  # small: a solve of a long level takes seconds
        solution = klotski.solve(klotski.Board.parse(level.layout), "moves")
        assert solution is not None and solution.optimal
        assert solution.length == level.optimal, level


def test_named_optimal_lengths_cover_every_named_layout_and_match_a_solve():
    lengths = named_optimal()
    assert set(lengths) == {n.alias for n in klotski.NAMED_LAYOUTS}
    easiest = min(
        (n for n in klotski.NAMED_LAYOUTS if lengths[n.alias]), key=lambda n: lengths[n.alias]
    )
    solution = klotski.solve(easiest.board, "moves")
    assert solution is not None and solution.length == lengths[easiest.alias]

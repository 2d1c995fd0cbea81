"""The 24-puzzle bench data (Korf & Felner's 50 instances) and the fast solver's 6-6-6-6 lower bound."""

from __future__ import annotations

from pathlib import Path

from tilegames.slide import Board
from tilegames.slide.solve import fast
from tilegames.slide.solve.common import relabel
from tilegames.slide.solve.fast import bound_partitions, lower_bound
from tilegames.slide.solve.ida import pattern_heuristic
from tilegames.slide.solve.pdb import partition_for, tables_cached

GOAL = Board(5, 5, list(range(25)))
DATA = Path(__file__).parents[2] / "bench" / "data" / "korf_felner_24.txt"


def korf_felner_24() -> list[tuple[int, int, int, list[int]]]:
    """(number, optimal length, nodes, tiles) per line, as bench/slide_24.py reads them."""
    rows = []
    for line in DATA.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            number, optimal, nodes, *tiles = (int(v) for v in line.split())
            rows.append((number, optimal, nodes, tiles))
    return rows


# Clausecker's optimal solution of instance 40 (github.com/clausecker/24puzzle,
# doc/korf-improved-results.txt): the blank's successive cells.
INSTANCE_40_BLANK_CELLS = (
    "3,2,7,12,13,14,19,18,17,22,23,18,17,22,21,20,15,16,11,10,5,6,1,2,7,12,17,16,11,6,7,12,13,18,17,"
    "12,13,8,9,4,3,2,1,6,7,8,9,14,19,18,23,24,19,18,17,22,21,16,11,10,5,6,1,0,5,6,7,12,11,6,7,12,"
    "17,16,11,12,7,8,3,2,1,0"
)


def test_the_fifty_instances_are_solvable_and_their_lengths_possible():
    rows = korf_felner_24()
    assert [number for number, *_ in rows] == list(range(1, 51))
    for _, optimal, _, tiles in rows:
        assert sorted(tiles) == list(range(25))
        board = Board(5, 5, tiles)
        assert board.is_solvable(GOAL)
        state, blank = relabel(board, GOAL)
        assert optimal >= lower_bound(state, 5, 5, blank)
        # every solution has the parity of the blank's distance to its goal cell
        z = tiles.index(0)
        assert (optimal - (z // 5 + z % 5)) % 2 == 0


def test_the_first_ten_are_korf_and_taylors():
    """Korf & Taylor's ten (1996), in Korf & Felner's order, with their lengths."""
    rows = korf_felner_24()[:10]
    assert [opt for _, opt, _, _ in rows] == [95, 96, 97, 98, 100, 101, 104, 108, 113, 114]
    assert rows[4][3][:6] == [17, 1, 20, 9, 16, 2]  # Korf & Taylor's first instance


def test_a_published_optimal_solution_replays_in_its_length():
    """The tile convention: Clausecker's 82-move answer to instance 40 solves it, in 82 moves."""
    number, optimal, _, tiles = korf_felner_24()[39]
    assert (number, optimal) == (40, 82)
    board = Board(5, 5, tiles)
    z = tiles.index(0)
    letters = []
    for cell in map(int, INSTANCE_40_BLANK_CELLS.split(",")):
        letters.append({5: "U", -5: "D", 1: "L", -1: "R"}[cell - z])
        z = cell
    board.play(letters)
    assert board.is_solved(GOAL) and len(letters) == optimal


def test_the_strong_bound_only_when_cached(monkeypatch, pdb_cache):
    """The fast solver bounds with the stronger tables when they are on disk, and never builds them."""
    cheap = "4-4-4-4-4-4"  # stands in for 6-6-6-6: built in a moment
    monkeypatch.setattr(fast, "STRONG_5X5", cheap)
    before = sorted(p.name for p in pdb_cache.iterdir())
    if not tables_cached(5, 5, cheap, cache_dir=pdb_cache):
        assert bound_partitions(5, 5, None, pdb_cache) == [None]
        assert sorted(p.name for p in pdb_cache.iterdir()) == before  # nothing built
    pdb = pattern_heuristic(5, 5, 0, cheap, cache_dir=pdb_cache)  # build them, as a user would
    assert tables_cached(5, 5, cheap, cache_dir=pdb_cache)
    assert bound_partitions(5, 5, None, pdb_cache) == [None, cheap]
    assert bound_partitions(5, 5, "5-5-5-5-4", pdb_cache) == ["5-5-5-5-4"]
    assert bound_partitions(4, 4, None, pdb_cache) == [None]
    # the bound it adds is admissible: never above a published optimal length
    for _, optimal, _, tiles in korf_felner_24()[:10]:
        state, _ = relabel(Board(5, 5, tiles), GOAL)
        assert pdb(state) <= optimal
    assert len(partition_for(5, 5, 0, cheap)) == 6

"""The fast solver's two searches side by side (the board and its mirror image) and its choice of tables."""

from __future__ import annotations

import threading

import pytest

from tilegames.slide import Board, scramble
from tilegames.slide.solve import fast, kernels, pdb_aot
from tilegames.slide.solve.common import Budget, diagonal_mirror, relabel, transform_state
from tilegames.slide.solve.ida import ida_relabelled, pattern_heuristic
from tilegames.slide.solve.pdb import tables_cached

CHEAP_5X5 = "4-4-4-4-4-4"  # built in a moment; stands in for 5-5-5-5-4 and 6-6-6-6


@pytest.mark.parametrize("seed", [3, 5, 15])  # a tie, the board shorter, the mirror shorter
def test_side_by_side_is_the_shorter_of_the_two_views_alone(seed, pdb_cache):
    """The portfolio's answer is the shorter of the two views' answers (the board's own on a tie),
    each searched alone with half the node limit, and it solves the board: nothing depends on which
    thread ends first."""
    goal = Board.solved(5, 5)
    board = scramble(goal, 70, seed=seed)
    state, blank = relabel(board, goal)
    limits = Budget.of(2_000_000, None)
    budget = 300_000
    status, moves, nodes, _ = fast._answer_small(
        state, 5, 5, blank, limits, pdb_cache, CHEAP_5X5, budget, True
    )
    half = Budget(limits.max_nodes // 2, limits.deadline, None)
    alone = [
        fast._answer_view(
            view, 5, 5, blank, half, pdb_cache, CHEAP_5X5, budget, fast.LIGHT_WEIGHTS[i]
        )
        for i, view in enumerate((state, transform_state(state, diagonal_mirror(5, 5, blank))))
    ]
    assert status == kernels.FOUND and all(answer[0] == kernels.FOUND for answer in alone)
    assert nodes == alone[0][2] + alone[1][2]
    expected = min(
        (len(alone[0][1]), 0, alone[0][1]),
        (len(alone[1][1]), 1, alone[1][1].translate(fast.TRANSPOSED)),
    )[2]
    assert moves == expected
    replay = board.copy()
    replay.play(list(moves))
    assert replay.is_solved(goal)


def test_the_search_reads_the_strong_tables_only_when_they_are_on_disk(monkeypatch, pdb_cache):
    """By default the 5×5 search takes the stronger databases when they are cached and the goal
    blank is in a corner (their tables are for a corner goal); checking never builds them."""
    monkeypatch.setattr(fast, "STRONG_5X5", CHEAP_5X5)
    if not tables_cached(5, 5, CHEAP_5X5, cache_dir=pdb_cache):
        before = sorted(p.name for p in pdb_cache.iterdir())
        assert fast.search_partition(5, 5, 0, None, pdb_cache) is None
        assert sorted(p.name for p in pdb_cache.iterdir()) == before  # nothing built
    pattern_heuristic(5, 5, 0, CHEAP_5X5, cache_dir=pdb_cache)
    assert fast.search_partition(5, 5, 0, None, pdb_cache) == CHEAP_5X5
    assert fast.search_partition(5, 5, 24, None, pdb_cache) == CHEAP_5X5
    assert fast.search_partition(5, 5, 12, None, pdb_cache) is None  # the centre: not a corner
    assert fast.search_partition(5, 5, 0, "5-5-5-5-4", pdb_cache) == "5-5-5-5-4"
    assert fast.search_partition(4, 4, 0, None, pdb_cache) is None


def test_off_the_main_thread_the_kernel_is_the_jit_one_with_the_same_answer(monkeypatch):
    """The compiled extension holds the GIL for a whole search, so a search in another thread runs
    the JIT kernel (which releases it); both give the same path and node count."""
    callers: list[str] = []
    real_load = pdb_aot.load

    def load(*args: object) -> object:
        callers.append(threading.current_thread().name)
        return real_load(*args)

    monkeypatch.setattr(pdb_aot, "load", load)
    board = scramble(Board.solved(4, 4), 40, seed=5)
    state, blank = relabel(board, Board.solved(4, 4))

    def run() -> tuple[int, str, int]:
        return ida_relabelled(state, 4, 4, blank, Budget.of(None, None), heuristic="pdb")

    on_main = run()
    result: list[tuple[int, str, int]] = []
    worker = threading.Thread(target=lambda: result.append(run()), name="worker")
    worker.start()
    worker.join()
    assert result == [on_main] and on_main[0] == kernels.FOUND
    assert "worker" not in callers

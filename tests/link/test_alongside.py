"""The exhaustive search in a thread of its own, beside the restarts (`tilegames.link.alongside`)."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

import tilegames.link.search as search
from tilegames.link import Limits, SearchLimitError, bounds, deal, seal, solve
from tilegames.link.alongside import Alongside, Rival
from tilegames.link.bounds import Bounds
from tilegames.link.exhaust import DEAD, SOLVED, Exhaust, tiles

from .test_exhaust import finish, ringed_boards


def replay_clears(board, moves) -> bool:
    board = board.copy()
    for move in moves:
        board.push(move)
    return board.is_solved()


def cells(moves) -> list:
    return [((r1 - 1, c1 - 1), (r2 - 1, c2 - 1)) for r1, c1, r2, c2 in moves]


def wait(beside: Alongside, seconds: float = 120.0) -> None:
    until = time.perf_counter() + seconds
    while beside.running and time.perf_counter() < until:
        time.sleep(0.005)


def test_in_a_thread_it_gives_the_verdicts_it_gives_in_turns():
    boards = ringed_boards(60)
    for board in boards:
        status, _ = finish(board)
        beside = Alongside(Exhaust(board.grid(), 1 << 26, rows=16), None)
        wait(beside)
        beside.stop()
        assert beside.status == status, str(board)
        if status == SOLVED:
            assert replay_clears(board, cells(beside.every.moves())), str(board)
    assert {finish(board)[0] for board in boards} == {SOLVED, DEAD}


def test_a_stop_or_the_deadline_ends_the_thread_with_no_verdict():
    board = deal(24, 12, 72, 4, seed=16, gravity=True, solvable=False)  # millions of positions
    beside = Alongside(Exhaust(board.grid(), 1 << 28), None)
    time.sleep(0.3)
    beside.stop()
    assert not beside.running and beside.status is None and beside.every.nodes > 0
    late = Alongside(Exhaust(board.grid(), 1 << 28), time.perf_counter() + 0.3)
    wait(late, 30.0)
    assert not late.running and late.status is None and late.every.nodes > 0
    late.stop()


def test_an_error_in_the_thread_reaches_the_caller():
    class Broken:
        nodes = 0
        bounds = Bounds(np.zeros((3, 3), np.int32), *tiles(np.zeros((3, 3), np.int32)), True, 0)

        def step(self, budget: int) -> int:
            raise ValueError("broken table")

    beside = Alongside(Broken(), None)  # type: ignore[arg-type]
    wait(beside)
    with pytest.raises(ValueError, match="broken table"):
        beside.stop()


@pytest.mark.parametrize("cores", [1, 2])
def test_solve_decides_the_same_with_one_core_or_two(monkeypatch, cores):
    # seed 91: only the exhaustive search proves it; 77: it clears it first
    monkeypatch.setattr(search, "cores", lambda: cores)
    before = threading.active_count()
    for seed, clearable in ((91, False), (77, True)):
        board = deal(24, 12, 72, 4, seed=seed, gravity=True, solvable=False)
        solution = solve(board, limits=Limits(timeout=300))
        assert (solution is not None) == clearable
        if solution is not None:
            assert replay_clears(board, solution.moves)
        assert threading.active_count() == before  # no thread left behind


def test_a_time_limit_stops_the_thread_too(monkeypatch):
    monkeypatch.setattr(search, "cores", lambda: 2)
    before = threading.active_count()
    board = deal(24, 12, 72, 4, seed=16, gravity=True, solvable=False)
    with pytest.raises(SearchLimitError) as stopped:
        solve(board, limits=Limits(timeout=1.0))
    assert stopped.value.limit == "timeout"
    assert threading.active_count() == before


def test_only_a_search_with_no_node_limit_runs_it_alongside(monkeypatch):
    # a node limit promises one answer on every machine: the two searches take turns
    monkeypatch.setattr(search, "cores", lambda: 2)
    started = []

    def spy(*args):
        started.append(args)
        return Alongside(*args)

    monkeypatch.setattr(search, "Alongside", spy)
    board = deal(24, 12, 72, 4, seed=91, gravity=True, solvable=False)
    nodes = []
    for _ in range(2):
        with pytest.raises(SearchLimitError) as stopped:
            solve(board, limits=Limits(max_nodes=30_000))
        nodes.append(stopped.value.nodes)
    assert nodes[0] == nodes[1] and started == []
    assert solve(board, limits=Limits(timeout=300)) is None
    assert len(started) == 1


def test_under_a_node_limit_the_turns_are_shares_of_nodes_not_of_time(monkeypatch):
    # a clock that ticks once a call stands for a machine where the two searches run at other
    # speeds; shares of time then gave 18x8 seed 8 a clearing instead of the limit
    def outcomes() -> list[tuple[object, ...]]:
        found: list[tuple[object, ...]] = []
        for seed in range(16):
            board = deal(18, 8, 36, 4, seed=seed, gravity=True, solvable=False)
            try:
                solution = solve(board, limits=Limits(max_nodes=30_000))
            except SearchLimitError as stopped:
                found.append(("limit", stopped.nodes))
                continue
            found.append(("impossible",) if solution is None else (solution.nodes, solution.moves))
        return found

    turns: list[tuple[float | None, int | None]] = []
    exhaustive = search._Moves.exhaustive

    def spy(self, every, line, *, seconds=None, nodes=None):  # type: ignore[no-untyped-def]
        turns.append((seconds, nodes))
        return exhaustive(self, every, line, seconds=seconds, nodes=nodes)

    monkeypatch.setattr(search._Moves, "exhaustive", spy)
    real = outcomes()
    assert turns and all(seconds is None and nodes for seconds, nodes in turns)
    ticks = iter(range(1 << 40))
    ticking = type("Clock", (), {"perf_counter": staticmethod(lambda: next(ticks) / 1000)})
    monkeypatch.setattr(search, "time", ticking)
    assert outcomes() == real


def test_a_rival_hands_back_its_result_and_its_errors():
    done = Rival(lambda stopping: True)
    done.stop()
    assert done.result is True

    def waits(stopping: threading.Event) -> bool | None:
        stopping.wait()
        return None

    waiting = Rival(waits)
    waiting.stop()  # returns: the work heard the stop
    assert waiting.result is None

    def breaks(stopping: threading.Event) -> bool | None:
        raise ValueError("broken rival")

    broken = Rival(breaks)
    with pytest.raises(ValueError, match="broken rival"):
        broken.stop()


def test_stopping_a_rival_halts_what_does_not_hear_the_stop():
    halted = threading.Event()
    deaf = Rival(lambda stopping: halted.wait(60), halted.set)  # a proof of `seal`, say
    deaf.stop()
    assert deaf.result is True
    board = deal(12, 6, 18, 4, seed=3, gravity=True, solvable=False)
    grid = np.array(board.grid(), np.int32)
    core = search._Moves(grid, True, True, True, search.MEMO_CAP)
    core.halt()  # nothing to halt yet
    core.turns = Exhaust(grid, 1 << 26, rows=16)
    assert not core.turns.bounds.halted
    core.halt()
    assert core.turns.bounds.halted


def test_the_restarts_race_on_big_boards_and_every_line_clears(monkeypatch):
    # 30x16 with 60 kinds x 8: once a line has played half the board the exhaustive search
    # gives way, and the second core runs the restarts again with other random choices
    monkeypatch.setattr(search, "cores", lambda: 2)
    raced = []

    def spy(work, halt):
        raced.append(work)
        return Rival(work, halt)

    monkeypatch.setattr(search, "Rival", spy)
    before = threading.active_count()
    for seed in (9, 13, 17):
        board = deal(30, 16, 60, 8, seed=seed, gravity=True, solvable=False)
        solution = solve(board, limits=Limits(timeout=300))
        assert solution is not None and replay_clears(board, solution.moves)
        assert threading.active_count() == before
    assert len(raced) == 3


def test_a_rival_alone_clears_the_board():
    board = deal(30, 16, 60, 8, seed=13, gravity=True, solvable=False)
    grid = np.array(board.grid(), np.int32)
    kinds = np.unique(grid[grid > 0])
    grid[grid > 0] = np.searchsorted(kinds, grid[grid > 0]) + 1
    core = search._Moves(grid, True, True, True, search.MEMO_CAP)
    core.race(grid, 7)
    wait_for = time.perf_counter() + 120
    while core.rival is not None and core.rival.result is None and time.perf_counter() < wait_for:
        time.sleep(0.01)
    assert core.rival is not None and core.rival.result is True
    core.rival.stop()
    assert replay_clears(board, cells(core.rival_line))


def test_under_a_node_limit_the_proofs_of_seal_count_as_nodes(monkeypatch):
    # a 24x12 deal proved impossible by a chain of proofs; they ran for free before, so that a
    # node limit bounded neither the time nor, on a slow machine, the answer
    grid = np.array(deal(24, 12, 72, 4, seed=27, gravity=True, solvable=False).grid(), np.int32)
    works: list[float] = []
    tables: list[object] = []
    proof, exhaustive = seal.Proof.sealed, search._Moves.exhaustive

    def spy_proof(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        answer = proof(self, *args, **kwargs)
        works.append(self.work)
        return answer

    def spy_turn(self, every, line, **turn):  # type: ignore[no-untyped-def]
        tables.append(every)
        return exhaustive(self, every, line, **turn)

    monkeypatch.setattr(seal.Proof, "sealed", spy_proof)
    monkeypatch.setattr(search._Moves, "exhaustive", spy_turn)

    def run(max_nodes: int) -> tuple[object, int, int]:
        works.clear()
        tables.clear()
        outcome = search.search(grid, True, max_nodes=max_nodes)
        cost = sum(bounds._SEAL_MODEL + round(work * bounds._SEAL_NODES) for work in works)
        positions = tables[-1].nodes  # type: ignore[attr-defined]
        assert outcome.nodes <= max_nodes
        assert outcome.nodes >= positions + min(cost, max_nodes - positions)
        return outcome.solved, outcome.nodes, len(works)

    solved, nodes, proofs = run(2_000_000)
    assert solved is False and proofs >= 2
    cut = run(nodes - bounds._SEAL_MODEL)
    assert cut[0] is None and cut == run(nodes - bounds._SEAL_MODEL)


def test_under_a_node_limit_a_proof_that_cannot_pay_leaves_the_restarts_their_half():
    # a clearable deal whose first proof of `seal` would take 4.4 units of CP-SAT's work, more
    # than the 2,000,000 nodes of the command line's default: it took them all, and the
    # restarts that clear the deal in 600,000 nodes never had their turn
    board = deal(16, 9, 36, 4, seed=78, gravity=True, solvable=False)
    solution = solve(board, limits=Limits(max_nodes=2_000_000))
    assert solution is not None and solution.nodes <= 2_000_000
    assert replay_clears(board, solution.moves)

"""The proof that confined play never leaves `may` (`seal`): never claimed when some play does,
and the exhaustive search that ends by it gives the brute force's verdict and tiles."""

from __future__ import annotations

import gc
import inspect
import itertools
import random
import threading
import time
import weakref
from collections.abc import Callable

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from ortools.sat.python import cp_model

from tests.link.test_exhaust import (
    finish,
    joinable_at,
    random_board,
    reachable,
    ringed_boards,
    tall_board,
)
from tests.link.test_exhaust import settled as settle
from tilegames.link import bounds, seal
from tilegames.link.alongside import Alongside
from tilegames.link.board import Board
from tilegames.link.closure import reckon
from tilegames.link.exhaust import DEAD, GROW, SOLVED, USED, Exhaust, tiles
from tilegames.link.halves import Halves
from tilegames.link.seal import Proof, joined, onward, replay, sealed


def joined_in_confined_play(grid: np.ndarray, may: np.ndarray) -> set[tuple[int, int]]:
    """Obviously right: every pair joinable in some position that moves inside `may` reach."""
    pairs = joinable_at(grid)
    seen, todo, joined = {0}, [0], set()
    while todo:
        gone = todo.pop()
        for x, y in pairs(gone):
            joined.add((x, y))
            if may[x] and may[y]:
                child = gone | 1 << x | 1 << y
                if child not in seen:
                    seen.add(child)
                    todo.append(child)
    return joined


def wide_board(seed: int) -> Board:
    """A random board of 7-10 columns of 2-3 tiles: pairs far apart, joined along a row and up
    or down a column beside them, or one farther out."""
    return random_board(seed, (7, 10), (2, 3))


def verdicts(
    board_seed: int,
    may_seed: int,
    ordered: bool = False,
    board: Callable[[int], Board] = tall_board,
    one_a_step: bool = False,
) -> list[tuple[bool | None, bool, bool]]:
    """For a settled `board` (tall by default) and a random `may`: (sealed?, joined in confined
    play?, joined at the end of the schedule found, replayed?) for every pair of a kind, each
    asked alone. `ordered`: `may` is the top of each column (as in play) and the proof is told
    the order `closure.reckon` finds (which a scattered `may` seldom has). `one_a_step`: the
    proof's schedules take one pair a step."""
    grid = settle(board(board_seed)).grid()
    col, kind, first = tiles(grid)
    rng = random.Random(may_seed)
    may = column_tops(first, rng) if ordered else np.array([rng.random() < 0.7 for _ in col])
    confined = joined_in_confined_play(grid, may)
    before = reckon(grid, col, kind, first, may)[2] if ordered else None
    answers = []
    for x, y in itertools.combinations(range(len(col)), 2):
        if kind[x] == kind[y]:
            proof = Proof()
            width = grid.shape[1]
            proved = proof.sealed(
                col, kind, first, width, may, [(x, y)], 20, before=before, one_a_step=one_a_step
            )
            played = None
            if proved is False:  # the schedule found, played, joins the pair at its end or not
                gone = replay(grid, col, kind, first, proof.schedule)
                played = gone is not None and (x, y) in joined(grid, col, kind, first, gone)
                assert all(may[t] for step in proof.schedule for pair in step for t in pair)
                assert not one_a_step or all(len(step) == 1 for step in proof.schedule)
            answers.append((proved, (x, y) in confined, bool(played)))
    return answers


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 10_000), st.booleans())
def test_a_pair_joined_in_confined_play_is_never_sealed(board_seed, may_seed, ordered):
    for proved, in_play, played in verdicts(board_seed, may_seed, ordered):
        assert proved is not None
        assert not (proved and in_play)
        assert not (played and not in_play)  # a replay is a real play


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 10_000), st.booleans())
def test_on_wide_boards_a_pair_is_sealed_exactly_when_no_confined_play_joins_it(
    board_seed, may_seed, ordered
):
    # The model joins two tiles around the nearest column outside them only: any column farther
    # out asks for that one low too (a pair joined only farther out would be sealed here).
    for proved, in_play, played in verdicts(board_seed, may_seed, ordered, wide_board):
        assert proved is not None
        assert proved != in_play
        assert not (played and not in_play)


def column_tops(first: np.ndarray, rng: random.Random) -> np.ndarray:
    """A `may` as play makes them: some tiles from the top of each column."""
    may = np.zeros(first[-1], bool)
    for c in range(len(first) - 1):
        may[first[c + 1] - rng.randint(0, first[c + 1] - first[c]) : first[c + 1]] = True
    return may


def test_the_order_told_to_the_proof_holds_in_every_confined_play():
    told = 0
    for seed in range(60):
        grid = settle(tall_board(seed)).grid()
        col, kind, first = tiles(grid)
        may = column_tops(first, random.Random(seed))
        before = reckon(grid, col, kind, first, may)[2]
        told += int(before.sum())
        pairs = joinable_at(grid)
        seen, todo = {0}, [0]
        while todo:  # every move of every play inside `may`: b goes only once a has gone
            gone = todo.pop()
            for x, y in pairs(gone):
                if not (may[x] and may[y]):
                    continue
                for b in (x, y):
                    for a in np.flatnonzero(before[:, b]):
                        assert gone >> a & 1 or (a in (x, y) and kind[a] == kind[b]), seed
                child = gone | 1 << x | 1 << y
                if child not in seen:
                    seen.add(child)
                    todo.append(child)
    assert told > 100


def test_both_verdicts_come_and_the_schedules_found_are_mostly_real():
    answers = [answer for seed in range(25) for answer in verdicts(seed, seed)]
    proofs = sum(bool(proved) for proved, _, _ in answers)
    assert proofs > 60 and len(answers) - proofs > 60
    assert all(proved or in_play for proved, in_play, _ in answers)  # exact on these boards
    replayed = sum(played for _, _, played in answers)
    assert replayed > 0.8 * (len(answers) - proofs)  # steps shared by pairs spoil a few


def test_with_one_pair_a_step_every_schedule_found_is_a_real_play():
    answers = [answer for seed in range(25) for answer in verdicts(seed, seed, one_a_step=True)]
    assert all(proved != in_play for proved, in_play, _ in answers)  # the same verdicts
    assert all(played for proved, _, played in answers if not proved)


def test_a_schedule_no_real_play_takes_is_asked_for_again_one_pair_a_step(monkeypatch):
    asked: list[tuple[bool, bool | None]] = []  # (one pair a step?, the answer) of each proof
    real_sealed, real_replay = Proof.sealed, replay

    def recorded(self, *args, **named):
        proved = real_sealed(self, *args, **named)
        call = inspect.signature(real_sealed).bind(self, *args, **named)
        asked.append((call.arguments.get("one_a_step", False), proved))
        return proved

    def first_spoilt(grid, col, kind, first, schedule):
        """The first schedule of a board is taken for one whose shared steps no play takes."""
        if len(asked) == 1:
            return None
        return real_replay(grid, col, kind, first, schedule)

    monkeypatch.setattr(Proof, "sealed", recorded)
    monkeypatch.setattr("tilegames.link.seal.replay", first_spoilt)
    again = 0
    for board in ringed_boards(60):
        every = Exhaust(board.grid(), 1 << 26, rows=16, scout=0)
        every.bounds.seal_after = 1 << 40
        every.step(1)
        asked.clear()
        tried = every.bounds.may
        every.bounds.seal(1 << 42)  # the rule allows this proof
        if asked and asked[0][1] is False:  # a schedule, "spoilt": asked for again at once
            assert [one for one, _ in asked] == [False, True], str(board)
            grown = every.bounds.may is not tried
            assert grown or asked[1][1] is not False or every.bounds.may.all(), str(board)
            again += 1
        else:
            assert len(asked) <= 1
    assert again > 3


def test_plays_onward_take_only_tiles_some_play_takes_and_every_way_out_joinable():
    grown = 0
    for seed, board in enumerate(ringed_boards(60)):
        grid = board.grid()
        taken, _, _, positions = reachable(grid)
        col, kind, first = tiles(grid)
        rng = random.Random(seed)
        may = np.array([rng.random() < 0.5 for _ in col])
        for mask in rng.sample(sorted(positions), min(5, len(positions))):
            gone = np.array([bool(mask >> t & 1) for t in range(len(col))])
            here = joined(grid, col, kind, first, gone)
            assert set(here) == joinable_at(grid)(mask)
            new = set(np.flatnonzero(onward(grid, col, kind, first, gone, may, seed=seed)))
            ways_there = {t for x, y in here for t in (x, y) if not may[t]}
            assert new <= taken - set(np.flatnonzero(may)), str(board)
            assert ways_there <= new, str(board)
            grown += len(new) > len(ways_there)
    assert grown > 10  # the random plays take more than the pairs joinable at once


def test_several_ways_are_sealed_only_when_each_is():
    grid = settle(tall_board(7)).grid()
    col, kind, first = tiles(grid)
    may = np.zeros(len(col), bool)
    may[::2] = True
    confined = joined_in_confined_play(grid, may)
    ways = [
        (x, y)
        for x, y in itertools.combinations(range(len(col)), 2)
        if kind[x] == kind[y] and not (may[x] and may[y])
    ]
    width = grid.shape[1]
    each = [sealed(col, kind, first, width, may, [way], 20) for way in ways]
    assert sealed(col, kind, first, width, may, ways, 20) == all(each)
    assert all(each) == (not any(way in confined for way in ways))
    assert sealed(col, kind, first, width, may, [], 20) is True  # no way out at all


def test_a_stopped_or_stale_proof_gives_up(monkeypatch):
    grid = settle(tall_board(3)).grid()
    col, kind, first = tiles(grid)
    may = np.ones(len(col), bool)
    may[0] = False
    partner = next(t for t in range(1, len(col)) if kind[t] == kind[0])
    width, ways = grid.shape[1], [(0, partner)]
    assert Proof().sealed(col, kind, first, width, may, ways, 20) is not None
    assert Proof().sealed(col, kind, first, width, may, ways, 20, stale=lambda: True) is None
    solved = []
    monkeypatch.setattr(cp_model.CpSolver, "solve", lambda solver, model: solved.append(model))
    assert Proof().sealed(col, kind, first, width, may, ways, 1e-9) is None
    assert solved == []  # the time was spent making the model: no solver ran
    proof = Proof()
    proof.stop()
    assert proof.sealed(col, kind, first, width, may, ways, 20) is None


def test_the_search_ended_by_a_seal_has_the_brute_forces_verdict_and_tiles():
    ended_by_a_seal = 0
    for board in ringed_boards(100):
        taken, clearable, _, _ = reachable(board.grid())
        every = Exhaust(board.grid(), 1 << 26, rows=16, scout=0)
        every.bounds.seal_after = 0  # tried at every pause, once per `may`
        status = finish_in_steps(every)
        assert status == (SOLVED if clearable else DEAD), str(board)
        if status == DEAD:
            assert set(np.flatnonzero(every.may)) == taken, str(board)
        ended_by_a_seal += every.bounds.sealed
    assert ended_by_a_seal > 8


def finish_in_steps(every: Exhaust) -> int:
    """`every` stepped a few positions at a time (a seal is tried at a pause) to its end."""
    while (status := every.step(3)) not in (SOLVED, DEAD):
        pass
    return status


def test_without_the_ring_nothing_is_sealed():
    for seed in range(20):
        board = settle(tall_board(seed))
        board = type(board).parse(str(board), gravity=True, ring=False)
        every = Exhaust(board.grid(), 1 << 26, rows=16, scout=0)
        every.bounds.seal_after = 0
        status, plain = finish_in_steps(every), finish(board)[0]
        assert status == plain and not every.bounds.sealed


def test_proofs_in_a_thread_of_their_own_keep_the_verdicts_and_end_with_the_search():
    sealed_in_a_thread = 0
    for board in ringed_boards(40):
        taken, clearable, _, _ = reachable(board.grid())
        tables = Exhaust(board.grid(), 1 << 26, rows=16, scout=0)
        bounds = tables.bounds
        bounds.seal_after, bounds.background = 0, True
        while (status := tables.step(3)) not in (SOLVED, DEAD):
            for thread in threading.enumerate():  # let a proof end before the search does
                if thread.name == "tilegames-seal":
                    thread.join()
        bounds.stop()
        assert not any(t.name == "tilegames-seal" for t in threading.enumerate())
        assert status == (SOLVED if clearable else DEAD), str(board)
        if status == DEAD:
            assert set(np.flatnonzero(tables.may)) == taken, str(board)
        sealed_in_a_thread += bounds.sealed
    assert sealed_in_a_thread > 0


def test_a_schedule_that_grows_may_has_the_next_proof_tried_at_once(monkeypatch):
    asked: list[int] = []
    real = Proof.sealed

    def counted(self, col, kind, first, width, may, *rest, **named):
        asked.append(int(may.sum()))
        return real(self, col, kind, first, width, may, *rest, **named)

    monkeypatch.setattr(Proof, "sealed", counted)
    chained = 0
    for board in ringed_boards(60):
        every = Exhaust(board.grid(), 1 << 26, rows=16, scout=0)
        bounds = every.bounds
        bounds.seal_after = 1 << 40  # by the rule, no proof before that many positions
        every.step(1)
        asked.clear()
        before = int(bounds.may.sum())
        late = 1 << 42
        bounds.seal(late)  # the rule allows this one
        if not asked:
            continue  # nothing to prove: every tile may go
        grown = int(bounds.may.sum()) > before
        again = grown and not bounds.sealed and not bounds.may.all()  # else nothing to prove
        bounds.seal(late + 1)  # `may` grew just now: only a schedule's growth allows this one
        assert len(asked) == (2 if again else 1), str(board)
        chained += again
    assert chained > 3


def test_a_hint_from_an_earlier_schedule_or_a_line_of_play_changes_no_verdict():
    compared = hinted = 0
    for board_seed in range(12):
        grid = settle(tall_board(board_seed)).grid()
        col, kind, first = tiles(grid)
        width, rng = grid.shape[1], random.Random(board_seed)
        may = np.array([rng.random() < 0.7 for _ in col])
        earlier = may & np.array([rng.random() < 0.8 for _ in col])
        pairs = [
            (a, b) for a, b in itertools.combinations(range(len(col)), 2) if kind[a] == kind[b]
        ]
        ways = [(a, b) for a, b in pairs if not earlier[[a, b]].all()]
        every = Exhaust(grid, 1 << 26, rows=16, scout=0)
        every.step(30)
        line = every.bounds.deepest()
        for x, y in pairs:
            if may[x] and may[y]:
                continue
            proof = Proof()  # a schedule found for a smaller `may` hints at the next one
            hinted += proof.sealed(col, kind, first, width, earlier, ways, 20) is False
            plain = Proof().sealed(col, kind, first, width, may, [(x, y)], 20)
            assert proof.sealed(col, kind, first, width, may, [(x, y)], 20) == plain
            proof.start_from(line)  # a line of play, as the search gives it
            assert proof.sealed(col, kind, first, width, may, [(x, y)], 20) == plain
            compared += 1
    assert compared > 100 and hinted > 20


def as_int(mask: np.ndarray) -> int:
    return int.from_bytes(mask.tobytes(), "little")


def test_the_deepest_line_is_a_play_from_the_start_to_a_position_with_the_most_tiles_gone():
    lines = 0
    for board in ringed_boards(40):
        every = Exhaust(board.grid(), 1 << 26, rows=16, scout=0)
        every.step(40)
        line = every.bounds.deepest()
        rows = [as_int(row) for row in every.rows[: every.meta[USED]]]
        most = max(row.bit_count() for row in rows)
        if most == 0:
            assert line == []
            continue
        pairs, gone = joinable_at(every.grid), 0
        assert as_int(line[-1]).bit_count() == most and all(as_int(m) in rows for m in line)
        for mask in map(as_int, line):
            new = [t for t in range(len(every.col)) if (mask & ~gone) >> t & 1]
            playable = [(a, b) for a, b in itertools.combinations(new, 2) if (a, b) in pairs(gone)]
            if len(new) == 2:
                assert playable == [tuple(new)], str(board)
            else:  # the safe macro: two pairs of one kind, one joinable now and then the other
                assert len(new) == 4 and playable, str(board)
            gone = mask
        lines += 1
    assert lines > 50


def test_proofs_alone_go_on_once_the_table_is_full():
    sealed_alone = 0
    for board in ringed_boards(60):
        taken, clearable, _, _ = reachable(board.grid())
        every = Exhaust(board.grid(), 1, rows=2, scout=0)  # full after the first positions
        every.bounds.seal_after = 1 << 40  # no proof while the search runs
        alongside = Alongside(every, None)
        while alongside.running:
            time.sleep(0.001)
        alongside.stop()
        if alongside.status == GROW:
            assert not every.bounds.sealed
            continue
        assert alongside.status == (SOLVED if clearable else DEAD), str(board)
        if alongside.status == DEAD and every.full:
            assert every.bounds.sealed and set(np.flatnonzero(every.may)) == taken, str(board)
            sealed_alone += 1
    assert sealed_alone > 5


def test_a_search_is_freed_when_dropped_though_its_bounds_can_read_its_line():
    """`Bounds.deepest` holds the tables weakly: a table of hundreds of MB must not wait for the
    cycle collector."""
    grid = settle(tall_board(1)).grid()
    for make in (lambda: Exhaust(grid, 1 << 26, rows=16, scout=0), lambda: Halves(grid, 1 << 26)):
        search = make()
        search.step(20)
        assert search.bounds.deepest() != []
        tables = search.tables if isinstance(search, Halves) else (search,)
        held = [weakref.ref(table) for table in tables]
        gc.disable()
        try:
            del search, tables
            assert all(table() is None for table in held)
        finally:
            gc.enable()


def test_under_a_node_limit_a_proof_takes_half_the_nodes_left_at_most_and_is_counted(monkeypatch):
    works: list[tuple[float, float, int | None]] = []  # the work given, taken, the nodes left
    real = Proof.sealed
    searching: list[Exhaust] = []

    def spy(self, *args):  # type: ignore[no-untyped-def]
        left = searching[-1].bounds.spare
        answer = real(self, *args)  # called as `Bounds` does: the work given eighth
        works.append((args[7], self.work, left))
        return answer

    monkeypatch.setattr(Proof, "sealed", spy)
    for spare in (None, 0, 100_000):
        proofs = 0
        for board in ringed_boards(40):
            taken, clearable, _, _ = reachable(board.grid())
            every = Exhaust(board.grid(), 1 << 26, rows=16, scout=0)
            every.bounds.seal_after = 0
            every.bounds.spare = spare
            searching.append(every)
            works.clear()
            status = finish_in_steps(every)
            assert status == (SOLVED if clearable else DEAD), str(board)  # fewer proofs or none
            if status == DEAD:
                assert set(np.flatnonzero(every.may)) == taken, str(board)
            cost = sum(
                bounds._SEAL_MODEL + round(took * bounds._SEAL_NODES) for _, took, _ in works
            )
            if spare is None:
                assert every.bounds.charged == cost
            else:
                assert every.bounds.charged == min(cost, spare)
                assert every.bounds.spare == spare - every.bounds.charged
                for given, _, left in works:
                    assert left is not None
                    assert bounds._SEAL_MODEL + given * bounds._SEAL_NODES <= left / 2
            proofs += len(works)
        assert (proofs == 0) == (spare == 0), spare


def test_a_proof_the_search_waits_for_takes_half_the_time_left_at_most(monkeypatch):
    # on one core the search runs its proofs in its own thread: one that took all the time left
    # starved the restarts (16x9 with 36 kinds seed 78, clearable, undecided at 30 s)
    given: list[tuple[float, float | None]] = []  # each proof's seconds, and the time left then
    real = Proof.sealed
    searching: list[Exhaust] = []

    def spy(self, *args):  # type: ignore[no-untyped-def]
        until = searching[-1].bounds.until
        given.append((args[6], None if until is None else until - time.perf_counter()))
        return real(self, *args)

    monkeypatch.setattr(Proof, "sealed", spy)
    for seconds in (None, 600.0):
        given.clear()
        for board in ringed_boards(20):
            every = Exhaust(board.grid(), 1 << 26, rows=16, scout=0)
            every.bounds.seal_after = 0
            every.bounds.until = None if seconds is None else time.perf_counter() + seconds
            searching.append(every)
            finish_in_steps(every)
        assert len(given) > 20
        for proof, left in given:  # (the time left read a moment after the proof's)
            assert proof == 4 * bounds._SEAL_WORK if left is None else left / 2 < proof + 0.01
            assert left is None or proof <= left / 2 + 0.01


def test_past_the_deadline_may_widens_but_is_not_reckoned_again():
    # a reckoning takes up to 60 ms on 24x12, and the search's stop waited for it
    for board in ringed_boards(0)[:10]:
        known = Exhaust(board.grid(), 1 << 20, scout=0).bounds
        every = np.arange(len(known.may))
        half = every[: len(every) // 2]
        known.until = time.perf_counter() - 1
        known.widen(half, 1 << 40)
        assert known.may[half].all() and known.version == 0 and not known.current
        known.until = None
        known.widen(every, 1 << 40)
        assert known.may.all() and known.version == 1 and known.current
        pairable = reckon(known.grid, known.col, known.kind, known.first, known.may)[0]
        assert np.array_equal(known.pairable, pairable)


def test_a_proof_with_less_time_than_cp_sat_takes_to_stop_gives_up_at_once():
    # CP-SAT runs up to 60 ms past its time limit: it is told to stop that much sooner
    answered = 0
    for seed in range(20):
        grid = settle(tall_board(seed)).grid()
        col, kind, first = tiles(grid)
        may = np.ones(len(col), bool)
        may[-1] = False  # a tile outside `may`: its pairs are the ways out
        ways = [(t, len(col) - 1) for t in range(len(col) - 1) if kind[t] == kind[-1]]
        for seconds in (seal._WIND_DOWN / 2, 20):
            proof = Proof()
            proved = proof.sealed(col, kind, first, grid.shape[1], may, ways, seconds)
            if seconds < seal._WIND_DOWN:
                assert proved is None and proof.work == 0  # CP-SAT never ran
            else:
                assert proved is not None
                answered += 1
    assert answered == 20

"""No way out of `may`: a proof, by constraint programming, that confined play never leaves it.

The exhaustive search under gravity (`exhaust.Exhaust`) confines play to `may`, the tiles seen to
go, and widens it when a position offers a move with a tile outside it. On the deals that die
young `may` stops growing early (24x12 with 72 kinds x 4, seed 79: after 0.7 of 7.7 million
positions), and the rest of the search only shows that the few pairs `closure.pairable` could
not rule out, the ways out, are never joinable. This module asks that question directly.

Under gravity a position is the set of tiles gone, and whether two tiles are joinable depends
only on how many tiles each column holds and how many lie under the two: a path of at most two
turns goes over both tops (the ring above), under both (the ring below, both on the bottom row),
straight along one row, up and over from a top, or along a row to some column, along it, and
along a row again, and a row of a column is empty exactly when the column is lower. So a play
inside `may` is a schedule: each tile of `may` goes at some step or stays, the tiles of a kind
go in pairs at one step, every pair is joinable when it goes (counting as there every tile that
goes at that step or later), and at the end some way out is joinable. CP-SAT looks for one. If
there is none (INFEASIBLE), no play inside `may` ever offers a way out, so no play takes a tile
outside it, and with a tile outside it no play clears the board. Steps may be shared by several
pairs, which only admits more schedules: the proof stays sound (and a schedule whose shared
steps no real play takes can be asked for again with one pair a step). A schedule found proves
nothing (`False`), and neither does running out of time (`None`).
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING

import numpy as np

from tilegames.link.closure import stack_column
from tilegames.link.path import find_pairs, joinable

if TYPE_CHECKING:
    from ortools.sat.python.cp_model import BoundedLinearExpression, IntVar, LinearExprT

    Condition = BoundedLinearExpression | bool | np.bool_


class _Stopped(Exception):
    """The proof was stopped while its model was built."""


class _Schedule:
    """The model: a step for each tile of `may`, whether it goes, and which pairs go."""

    def __init__(
        self, col: np.ndarray, kind: np.ndarray, first: np.ndarray, width: int, may: np.ndarray,
        stopped: Callable[[], bool] = lambda: False,
    ) -> None:  # fmt: skip
        from ortools.sat.python import cp_model  # heavy (0.3 s): only when a proof is tried

        self.model = model = cp_model.CpModel()
        self.col = [int(c) for c in col]
        self.first = [int(f) for f in first]
        self.may = [bool(m) for m in may]
        self.width = width
        tiles = [t for t, m in enumerate(self.may) if m]
        self.kept = [0] * width  # the tiles outside `may` in each column: they never go
        for t, m in enumerate(self.may):
            self.kept[self.col[t]] += not m
        self.step = {t: model.new_int_var(0, len(tiles), f"step{t}") for t in tiles}
        self.gone = {t: model.new_bool_var(f"gone{t}") for t in tiles}
        self.pairs: list[tuple[int, int, IntVar]] = []  # each pair of a kind, and if it goes
        self._before: dict[tuple[int, int], IntVar] = {}
        self._heights: dict[tuple[int, int | None], LinearExprT] = {}  # the same sums, built once
        of_kind: dict[int, list[int]] = {}
        for t in tiles:
            of_kind.setdefault(int(kind[t]), []).append(t)
        for same in of_kind.values():
            if stopped():
                raise _Stopped  # a second or so of building: heard within a kind
            goes_with: dict[int, list[IntVar]] = {t: [] for t in same}
            for i, x in enumerate(same):
                for y in same[i + 1 :]:
                    pair = model.new_bool_var(f"pair{x},{y}")
                    self.pairs.append((x, y, pair))
                    goes_with[x].append(pair)
                    goes_with[y].append(pair)
                    model.add(self.step[x] == self.step[y]).only_enforce_if(pair)
                    self.joinable(x, y, x, pair)
            for t in same:
                model.add(sum(goes_with[t]) == self.gone[t])

    def one_pair_a_step(self) -> None:
        """No two pairs go at one step (as in real play): then every schedule can be replayed.
        A pair that stays takes a step of its own past the last."""
        from ortools.sat.python import cp_model

        last, moves = len(self.step), []
        for i, (x, _, pair) in enumerate(self.pairs):
            past = last + 1 + i
            steps = cp_model.Domain.from_intervals([[0, last], [past, past]])
            move = self.model.new_int_var_from_domain(steps, f"move{i}")
            self.model.add(move == self.step[x]).only_enforce_if(pair)
            self.model.add(move == past).only_enforce_if(~pair)
            moves.append(move)
        self.model.add_all_different(moves)

    def keep_order(self, before: np.ndarray, kind: np.ndarray) -> None:
        """Tile b goes only after a, for each `before[a, b]` of `may` (a fact of real play: by
        an earlier move, or by the same one when the two are of a kind)."""
        for a, b in np.argwhere(before):
            a, b = int(a), int(b)
            if a in self.gone and b in self.gone:
                self.model.add_implication(self.gone[b], self.gone[a])
                later = (
                    self.step[a] <= self.step[b]
                    if kind[a] == kind[b]
                    else self.step[a] < self.step[b]
                )
                self.model.add(later).only_enforce_if(self.gone[b])

    def before(self, v: int, a: int) -> IntVar:
        """Tile v of `may` goes at a step before a's (a literal)."""
        if (v, a) not in self._before:
            model, literal = self.model, self.model.new_bool_var(f"before{v},{a}")
            model.add_implication(literal, self.gone[v])
            model.add(self.step[v] < self.step[a]).only_enforce_if(literal)
            model.add(self.step[v] >= self.step[a]).only_enforce_if([self.gone[v], ~literal])
            self._before[v, a] = literal
        return self._before[v, a]

    def there(self, v: int, when: int | None) -> LinearExprT:
        """1 if tile v is there when tile `when` goes (None: at the end), as an expression."""
        if not self.may[v] or v == when:
            return 1
        return 1 - (self.gone[v] if when is None else self.before(v, when))

    def height(self, c: int, when: int | None) -> LinearExprT:
        """How many tiles column c holds then (the ring's columns: none)."""
        if c == 0 or c == self.width - 1:
            return 0
        if (c, when) not in self._heights:
            tiles = range(self.first[c], self.first[c + 1])
            self._heights[c, when] = sum(self.there(v, when) for v in tiles)
        return self._heights[c, when]

    def most(self, t: int) -> int:
        """The most tiles that can lie under t (its row when all are there)."""
        return t - self.first[self.col[t]]

    def level(self, t: int, when: int | None) -> LinearExprT:
        """How many tiles lie under t then (its row, from the bottom)."""
        return sum(self.there(v, when) for v in range(self.first[self.col[t]], t))

    def joinable(self, x: int, y: int, when: int | None, enforce: IntVar) -> None:
        """`enforce` implies that x and y are joinable then, by a path of at most two turns."""
        model, col, may = self.model, self.col, self.may
        cx, cy = col[x], col[y]
        lx, ly = self.level(x, when), self.level(y, when)
        above_x = range(x + 1, self.first[cx + 1])
        above_y = range(y + 1, self.first[cy + 1])
        can_top_x = all(may[v] for v in above_x)
        can_top_y = all(may[v] for v in above_y)
        ways: list[IntVar] = []

        def way(*conditions: Condition) -> None:
            literal = model.new_bool_var("")
            for condition in conditions:
                model.add(condition).only_enforce_if(literal)
            ways.append(literal)

        def gone(tiles: range) -> list[Condition]:
            return [self.there(v, when) == 0 for v in tiles]

        clear: dict[tuple[int, int], IntVar | None] = {}

        def row_clear(t: int, level: LinearExprT, k: int) -> IntVar | None:
            """A literal that implies t's row is empty in every column past t's up to k, or
            None when a column on the way never gets low enough: a chain on each side of t,
            which every path along t's row shares."""
            if (t, k) not in clear:
                toward = 1 if k > col[t] else -1
                nearest = k - toward == col[t]
                inner = None if nearest else row_clear(t, level, k - toward)
                literal = None
                if self.kept[k] <= self.most(t) and (nearest or inner is not None):
                    literal = model.new_bool_var("")
                    model.add(self.height(k, when) <= level).only_enforce_if(literal)
                    if inner is not None:
                        model.add_implication(literal, inner)
                clear[t, k] = literal
            return clear[t, k]

        if cx != cy and can_top_x and can_top_y:
            way(*gone(above_x), *gone(above_y))  # over both tops
        if all(may[v] for v in range(self.first[cx], x)) and all(
            may[v] for v in range(self.first[cy], y)
        ):
            way(lx == 0, ly == 0)  # under both
        if cx == cy:
            low, high = min(x, y), max(x, y)
            if all(may[v] for v in range(low + 1, high)):
                way(*gone(range(low + 1, high)))  # nothing left between
        elif abs(cx - cy) == 1:
            way(lx == ly)  # side by side
        else:
            along = row_clear(x, lx, cy - (1 if cy > cx else -1))
            if along is not None:
                way(lx == ly, along == 1)  # one row
        # Along x's row to column k, along it, along y's row. A column k left of both needs
        # every column the next one in needs low enough, and more: the column just left of both
        # stands for all of them (so does the one just right), and the model is far smaller.
        for k in range(min(cx, cy) - 1, max(cx, cy) + 2):
            if k == cx == cy:
                continue
            legs: list[Condition] = []
            for t, c, level, other, can_top, above in (
                (x, cx, lx, ly, can_top_x, above_x),
                (y, cy, ly, lx, can_top_y, above_y),
            ):
                if k == c:  # up from t's top to the other's row
                    if not can_top:
                        break
                    legs += [*gone(above), other > level]
                else:
                    leg = row_clear(t, level, k)
                    if leg is None:
                        break  # a column that never gets low enough
                    legs.append(leg == 1)
            else:
                way(*legs)
        model.add_bool_or(ways).only_enforce_if(enforce)


TUNED: Mapping[str, int | bool] = MappingProxyType(
    {
        # No linear relaxation, no probing in presolve: neither pays on these models of many
        # small disjunctions (with the order, seeds 37, 68, 27, 29 and 79 a quarter faster).
        "linearization_level": 0,
        "cp_model_probing_level": 0,
        # No clause simplification between restarts, no phase saving: each decision keeps to
        # the hint, a play close to the schedule sought (round 28: seeds 37 and 94's chains of
        # proofs in about half the time, `bench.link_proofs`).
        "use_sat_inprocessing": False,
        "use_phase_saving": False,
    }
)
"""CP-SAT's parameters for a proof, beside one worker and the limits."""

_WIND_DOWN = 0.05
"""Seconds CP-SAT runs on past its time limit or a stop (2 to 60 ms measured on 24x12): it is
told to stop that much before a proof's `seconds` are up, so that a search's answer keeps to
its time limit (round 39: 16 and 20 under 10 s answered after up to 10.066 s)."""


class Proof:
    """`sealed`, which another thread may `stop` (it gives up at once, and so does every later
    proof) or `cancel` (the proof running now gives up). `parameters` are CP-SAT's (`TUNED`;
    a benchmark may compare others)."""

    def __init__(self, parameters: Mapping[str, int | bool] = TUNED) -> None:
        self.parameters = parameters
        self._solver: object = None
        self.schedule: list[list[tuple[int, int]]] = []
        """After a schedule was found (`sealed` False): its pairs, step by step."""
        self._hint: dict[int, tuple[bool, int]] = {}  # the next proof's start: tile -> gone, step
        self.work = 0.0
        """CP-SAT's deterministic time in the last `sealed` (0 when it did not get to solve)."""
        self._stopped = False
        self._lock = threading.RLock()

    def stop(self) -> None:
        with self._lock:
            self._stopped = True
            self.cancel()

    def start_from(self, line: Sequence[np.ndarray]) -> None:
        """Hint the next proof with a play: `line` holds the tiles gone after each of its steps,
        as bit masks (`exhaust.deepest_line`). Without one, a proof starts from the last schedule
        found. Either way every tile of `may` the hint does not take is hinted to stay: a whole
        play. A hint changes no verdict, but a deep play finds a schedule several times sooner."""
        if not line:
            return
        self._hint = {}
        for step, mask in enumerate(line):
            for t in np.flatnonzero(np.unpackbits(mask.view(np.uint8), bitorder="little")):
                self._hint.setdefault(int(t), (True, step))

    @property
    def stopped(self) -> bool:
        """Was `stop` called (every later proof gives up at once)?"""
        return self._stopped

    def cancel(self) -> None:
        """Stop the solver running now, if any (the proof's `stale` says why). A solver about to
        start may miss it: call again until the proof has returned."""
        with self._lock:
            if self._solver is not None:
                self._solver.stop_search()  # type: ignore[attr-defined]

    def sealed(
        self, col: np.ndarray, kind: np.ndarray, first: np.ndarray, width: int,
        may: np.ndarray, ways: Sequence[tuple[int, int]], seconds: float, work: float = 20.0,
        stale: Callable[[], bool] = lambda: False, before: np.ndarray | None = None,
        one_a_step: bool = False,
    ) -> bool | None:  # fmt: skip
        """True if no play inside `may` ever makes one of `ways` joinable (pairs with a tile
        outside `may`, of the tiles of `exhaust.tiles` in a padded grid `width` wide, with the
        ring), False if CP-SAT finds a schedule that does, None if `seconds` or `work` (CP-SAT's
        deterministic time, the same on every machine) ran out first, or the proof was
        stopped, or cancelled once `stale()` (then `cancel` must follow whatever makes it so).
        `before[a, b]` (`closure.reckon` of `may`): tile b goes only after a in every play
        inside `may`, told to CP-SAT too (it then proves or finds a schedule about a quarter
        sooner; a schedule it cuts off is no real play). `one_a_step`: no two pairs share a
        step (`_Schedule.one_pair_a_step`), for when a schedule found was no real play."""
        from ortools.sat.python import cp_model

        self.work = 0.0
        if not ways:
            return True
        deadline = time.perf_counter() + seconds  # the model's making counts too

        def stopped() -> bool:
            return self._stopped or stale() or time.perf_counter() >= deadline

        try:
            schedule = _Schedule(col, kind, first, width, may, stopped)
        except _Stopped:
            return None
        model, ends = schedule.model, []
        if before is not None:
            schedule.keep_order(before, kind)
        if one_a_step:
            schedule.one_pair_a_step()
        for x, y in ways:
            end = model.new_bool_var(f"end{x},{y}")
            for t in (int(x), int(y)):
                if schedule.may[t]:
                    model.add(schedule.gone[t] == 0).only_enforce_if(end)
            schedule.joinable(int(x), int(y), None, end)
            ends.append(end)
        model.add_bool_or(ends)
        if self._hint:  # a whole play: each tile of `may` the hint does not take stays
            for t, goes in schedule.gone.items():
                gone, step = self._hint.get(t, (False, None))
                model.add_hint(goes, gone)
                if step is not None:
                    model.add_hint(schedule.step[t], step)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1  # one worker: the same answer on every machine
        left = deadline - time.perf_counter() - _WIND_DOWN
        if left <= 0:
            return None
        solver.parameters.max_time_in_seconds = left
        solver.parameters.max_deterministic_time = work
        for name, value in self.parameters.items():
            setattr(solver.parameters, name, value)
        with self._lock:
            if stopped():
                return None
            self._solver = solver
        try:
            status = solver.solve(model)
        finally:
            with self._lock:
                self._solver = None
        self.work = solver.deterministic_time
        if status == cp_model.INFEASIBLE:
            return True
        if status in (cp_model.FEASIBLE, cp_model.OPTIMAL):
            steps: dict[int, list[tuple[int, int]]] = {}
            for x, y, pair in schedule.pairs:
                if solver.boolean_value(pair):
                    steps.setdefault(solver.value(schedule.step[x]), []).append((x, y))
            self.schedule = [steps[step] for step in sorted(steps)]
            self._hint = {
                t: (solver.boolean_value(schedule.gone[t]), solver.value(schedule.step[t]))
                for t in schedule.gone
            }
            return False
        return None


def sealed(
    col: np.ndarray, kind: np.ndarray, first: np.ndarray, width: int, may: np.ndarray,
    ways: Sequence[tuple[int, int]], seconds: float, work: float = 20.0,
    before: np.ndarray | None = None,
) -> bool | None:  # fmt: skip
    """`Proof.sealed` once, with no other thread to stop it."""
    return Proof().sealed(col, kind, first, width, may, ways, seconds, work, before=before)


def position(
    grid: np.ndarray, col: np.ndarray, kind: np.ndarray, first: np.ndarray, gone: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The padded, compact `grid` with the tiles `gone` gone, settled, and each tile's row."""
    board, row = grid.copy(), np.zeros(len(col), np.int64)
    for c in range(1, grid.shape[1] - 1):
        stack_column(board, c, first, kind, ~gone, grid.shape[0] - 2, row)
    return board, row


def joined(
    grid: np.ndarray, col: np.ndarray, kind: np.ndarray, first: np.ndarray, gone: np.ndarray
) -> list[tuple[int, int]]:
    """The pairs x < y of tiles joinable once the tiles `gone` are gone (under gravity)."""
    board, row = position(grid, col, kind, first, gone)
    tile = np.full(board.shape, -1, np.int64)
    there = np.flatnonzero(~gone)
    tile[row[there], col[there]] = there
    pairs = []
    for r1, c1, r2, c2 in find_pairs(board, False):
        a, b = int(tile[r1, c1]), int(tile[r2, c2])
        pairs.append((min(a, b), max(a, b)))
    return sorted(pairs)


def replay(
    grid: np.ndarray, col: np.ndarray, kind: np.ndarray, first: np.ndarray,
    schedule: Sequence[Sequence[tuple[int, int]]],
) -> np.ndarray | None:  # fmt: skip
    """Play a schedule found by `Proof.sealed` (its pairs step by step, a step's pairs in any
    order that works) on the padded, compact `grid` under gravity: the tiles gone at its end (a
    real play took them), or None when a pair is not joinable on its turn (steps shared by pairs
    can ask for that, when no order of a step's pairs works within 1,000 positions)."""
    gone = np.zeros(len(col), bool)
    tries = [1000]  # positions looked at, at most: a step of many pairs has many orders

    def play(left: list[tuple[int, int]]) -> bool:
        """Play all of `left` in some order (depth first over the orders), True if one works;
        the tiles go either way, since later steps depend only on which tiles are gone."""
        if not left:
            return True
        tries[0] -= 1
        if tries[0] < 0:
            return False
        board, row = position(grid, col, kind, first, gone)
        for i, (x, y) in enumerate(left):
            if joinable(board, row[x], col[x], row[y], col[y]):
                gone[x] = gone[y] = True
                if play(left[:i] + left[i + 1 :]):
                    return True
                gone[x] = gone[y] = False
        return False

    for step in schedule:
        if not play(list(step)):
            return None
    return gone


def onward(
    grid: np.ndarray, col: np.ndarray, kind: np.ndarray, first: np.ndarray, gone: np.ndarray,
    may: np.ndarray, plays: int = 20, moves: int = 30, seed: int = 0,
) -> np.ndarray:  # fmt: skip
    """The tiles outside `may` that real plays from the position `gone` take (`may` may grow by
    them): those of the pairs joinable there, and those of `plays` random plays of up to `moves`
    moves from it, which take a pair with a tile new to them whenever there is one."""
    rng = random.Random(seed)
    new = np.zeros(len(col), bool)
    for x, y in joined(grid, col, kind, first, gone):
        new[[x, y]] |= not (may[x] and may[y])
    for _ in range(plays):
        left = gone.copy()
        for _ in range(moves):
            pairs = joined(grid, col, kind, first, left)
            if not pairs:
                break
            known = may | new
            fresh = [(x, y) for x, y in pairs if not (known[x] and known[y])]
            x, y = rng.choice(fresh or pairs)
            new[[x, y]] |= not (may[x] and may[y])
            left[[x, y]] = True
    taken: np.ndarray = new & ~may
    return taken

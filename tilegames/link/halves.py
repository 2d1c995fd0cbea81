"""The exhaustive search on two cores: one search in two tables, run by whichever thread is free.

A position belongs to the table named by its hash's bit 62 (`exhaust.Exhaust` with an `owner`).
A table expanding a position keeps its own children and hands the others over, in batches, to
the other table, which takes the new ones (`Exhaust.take`). Each table is run by one thread at
a time, but any thread may run either: the exhaustive search's own thread (`alongside`) and the
caller's, in the turns it gives the search (`search._Moves.exhaustive`). With one thread the two
tables simply take turns.

Both tables share one `bounds.Bounds`. The search has ended when no table is running, none has a
position on its stack and none is handed over: then the keys of older versions are checked in
both (`Exhaust.revisit`), and if none needs a look, no play ever leaves `may` (DEAD).
"""

from __future__ import annotations

import threading
import time
import weakref

import numpy as np

from tilegames.link.bounds import past
from tilegames.link.exhaust import (
    BOX,
    DEAD,
    ESCAPE,
    GROW,
    OUT,
    PAUSE,
    SOLVED,
    TOP,
    Exhaust,
    deepest_line,
    recheck,
)

_HOP = 1024
"""Positions between two hand-overs: a line that goes from table to table waits no longer (a
deep line clears the deals that can be cleared; the hand-over costs tens of microseconds)."""


_WAITING = 1 << 18
"""Positions a table's inbox may hold (15 MB on 24x12) before a thread runs that table next:
with one thread on both, the table with more on its stack was picked again and again, and the
other's inbox grew to 1.7 million positions (100 MB beside a table of 384 MB)."""


_ALONE = 400_000
"""Positions the first table sees alone before the split (about 2 s): in one table the search is
depth first, best move first, and clears a clearable deal sooner (24x12 seed 77 after 119,000
positions, split from the start after 0.5 to 6 million; 16x9 36 x 4 seed 13 after 300,000, in
1 s, but in 7 s if split at 200,000). A search made with `shared=False` stays in one table
until `share` is called: the solver calls it when the restarts show lines that die young, as on
the deals only this search decides."""


class Halves:
    """`Exhaust`'s `step`, `nodes`, `full`, `may` and `moves` over two tables, safe to call from
    two threads at once. `step` answers PAUSE at once when both tables are being run."""

    def __init__(self, grid: np.ndarray, max_bytes: int, shared: bool = True) -> None:
        first = Exhaust(grid, max_bytes // 2, owner=0)
        self.tables = (first, Exhaust(grid, max_bytes // 2, owner=1, bounds=first.bounds))
        self.bounds = first.bounds
        held = [weakref.ref(table) for table in self.tables]
        self.bounds.deepest = lambda: deepest_line(held)
        self.grid = first.grid
        self.inbox: tuple[list[np.ndarray], list[np.ndarray]] = ([], [])
        self.busy = [False, False]
        self.status: int | None = None  # the search's verdict, once a thread has reached one
        self.found = first  # the table of the cleared board
        self.shared = shared  # split once the first table has seen `_ALONE` (else: one table)
        self._lock = threading.Lock()

    @property
    def nodes(self) -> int:
        return sum(table.nodes for table in self.tables)

    @property
    def full(self) -> bool:
        return any(table.full for table in self.tables)

    @property
    def may(self) -> np.ndarray:
        return self.bounds.may

    @property
    def waiting(self) -> list[int]:
        """The positions in each table's inbox."""
        return [sum(len(batch) for batch in inbox) for inbox in self.inbox]

    def share(self) -> None:
        """Let a second thread help from now on: the split comes once the first table has seen
        `_ALONE` positions."""
        self.shared = True

    @property
    def split(self) -> bool:
        """Are the positions in two tables yet (can a second thread help)?"""
        return self.bounds.split

    def moves(self) -> list[tuple[int, int, int, int]]:
        """The pairs that clear the board (after SOLVED)."""
        return self.found.moves(self.tables)

    def step(self, budget: int, until: float | None = None) -> int:
        """Run a free table with work for up to `budget` positions: SOLVED, DEAD, GROW (a table
        full: nothing is claimed) or PAUSE (also once past `until` after widening `may`)."""
        with self._lock:
            if self.status is not None:
                return self.status
            owner = self._pick()
            if owner is None and not any(self.busy):
                if self._settle():
                    return DEAD
                owner = self._pick()
            if owner is not None:
                self.busy[owner] = True
        if owner is None:
            time.sleep(0.001)  # the other thread runs both tables' work
            return PAUSE
        table = self.tables[owner]
        status = PAUSE
        try:
            status = self._run(table, budget, until)
        finally:
            with self._lock:
                self._hand(table)
                self.busy[owner] = False
                if status in (SOLVED, GROW) and self.status is None:
                    self.status, self.found = status, table
        if status == PAUSE and self.bounds.seal(self.nodes):
            with self._lock:  # no play leaves `may` (`seal`)
                if self.status is None:
                    self.status = DEAD
                return self.status
        return PAUSE if status == DEAD else status

    def _pick(self) -> int | None:
        """A table no thread runs with positions to expand or take: one whose inbox is over
        `_WAITING`, else the one with more on its stack; only the first until the split."""
        free = [
            owner
            for owner in (0, 1)
            if not self.busy[owner]
            and (self.tables[owner].meta[TOP] > 0 or self.inbox[owner])
            and (owner == 0 or self.bounds.split)
        ]
        waiting = self.waiting
        return max(
            free,
            key=lambda owner: (waiting[owner] > _WAITING, self.tables[owner].meta[TOP]),
            default=None,
        )

    def _settle(self) -> bool:
        """Nothing left to run: check the old keys in both tables. True if none needs a look
        (the search is over: DEAD), False if some were put back on the stacks."""
        bounds = self.bounds
        if not bounds.confined or bounds.scouting:  # every position seen with every move
            if bounds.scouting:
                bounds.may = self.tables[0].taken()  # the scouting's one table
            self.status = DEAD
            return True
        if recheck(self.tables):
            return False
        self.status = DEAD
        return True

    def _run(self, table: Exhaust, budget: int, until: float | None) -> int:
        """`table` on for `budget` positions, taking the other table's positions in and handing
        its own over every `_HOP` positions."""
        goal = table.nodes + budget
        while True:
            bounds = self.bounds
            if self.shared and not bounds.split and not bounds.scouting and table.nodes >= _ALONE:
                table.split()  # the first table, alone until now
                bounds.split = True
            with self._lock:
                inbox = self.inbox[table.owner][:]
                self.inbox[table.owner].clear()
            for i, batch in enumerate(inbox):
                if bounds.halted:  # the deadline: the rest wait (up to `_WAITING` positions)
                    with self._lock:
                        self.inbox[table.owner][:0] = inbox[i:]
                    return PAUSE
                status = table.take(batch)
                if status != PAUSE:
                    return status
            status = table.chunk(min(goal, table.nodes + _HOP))
            if status in (BOX, PAUSE, DEAD):
                with self._lock:
                    self._hand(table)
                    other = 1 - table.owner
                    if self.waiting[other] > _WAITING and not self.busy[other]:
                        return PAUSE  # no thread takes them in: this one, next (`_pick`)
            if status == BOX:
                continue
            if status == ESCAPE:
                self.bounds.widen(table.escapes[: table.meta[OUT]].ravel(), self.nodes)
                if self.bounds.halted or past(until):
                    return PAUSE
                continue
            if status == GROW:
                if table.grow():
                    continue
                table.full = True
                return GROW
            if status == PAUSE and table.nodes < goal:
                continue
            if status == DEAD and self.inbox[table.owner]:
                continue
            return status

    def _hand(self, table: Exhaust) -> None:
        """`table`'s outbox to the other table's inbox (the lock held)."""
        out = table.handed()
        if len(out):
            self.inbox[1 - table.owner].append(out)

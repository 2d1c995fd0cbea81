"""What confined play knows (`exhaust.Exhaust`): the tiles that may go, the pairs that could be
joined, the versions of those by which keys were chosen, and whether play is proved never to
leave `may` (`seal`). One `Bounds` serves every table of
a search (`halves.Halves`): `may` is replaced, never changed in place, so a kernel running on
the old array sees one `may` from start to end."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import numpy as np

from tilegames.link import closure, seal

_RECKON = 5_000
"""Positions per computation of `pairable`, on average, at the most (10 to 150 ms each on a 24x12
board): when `may` grows it is computed at once unless that would make them more frequent. While
it is stale no move is pruned by it, and the keys chosen by it are checked again (`revisit`)."""

_SEAL_AFTER = 200_000
"""Positions with `may` unchanged, at the least, before the ways out of it are tried by
`seal.sealed` (about a second on 24x12): the deals that die young have their final `may` long
before the end (seed 79 after 0.7 of 7.7 million positions)."""

_SEAL_WORK = 30.0
"""CP-SAT's deterministic time for one proof (about seconds): the ways out of 24x12 deals with
72 kinds x 4 take 0.3 to 2.7, seed 37's 21 about 8. Without a deadline the wall clock allows
four times as much, so that the answer is the same on every machine."""


_SEAL_NODES = 1_000_000
"""Nodes a proof of `seal` costs per unit of CP-SAT's deterministic time: the positions the search
would have seen in the proof's time (2.2 to 3 s a unit; 360,000 positions a second, the median
of 24x12 deals under a node limit). Counted so, a node limit bounds the proofs too, and still
gives the same answer on every machine."""

_SEAL_MODEL = 25_000
"""Nodes a proof of `seal` costs for its model, made before CP-SAT starts (about 0.07 s)."""


def ways_out(may: np.ndarray, pairable: np.ndarray) -> np.ndarray:
    """The pairs `pairable` allows with a tile outside `may`, each once (rows x, y with x < y)."""
    return np.argwhere(np.triu(pairable, 1) & ~np.outer(may, may))


def past(until: float | None) -> bool:
    """Has `until` (a `time.perf_counter` time; None: never) passed?"""
    return until is not None and time.perf_counter() >= until


class Bounds:
    """`may`, `pairable` and `pinned` (`closure.reckon` of `may`, when `current`) for the tiles
    of a grid (`exhaust.tiles`), and the versions of them that keys were chosen by."""

    def __init__(
        self, grid: np.ndarray, col: np.ndarray, kind: np.ndarray, first: np.ndarray,
        confined: bool, scout: int,
    ) -> None:  # fmt: skip
        n = len(col)
        self.grid, self.col, self.kind, self.first = grid, col, kind, first
        self.confined = confined
        self.scout = scout
        self.scouting = confined  # the first positions: every move, `may` from what went
        self.split = False  # the positions are in two tables (`halves.Halves`)
        self.may = np.full(n, not confined, np.bool_)
        self.pairable = np.zeros((n, n), np.bool_)
        self.pinned = np.zeros((n, n), np.bool_)
        self.before = np.zeros((n, n), np.bool_)  # of `pairable`'s version: for `seal`
        self.version = 0  # of `pairable`: it was computed for `versions[version]`, `may` then
        self.versions: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        self.current = False  # `pairable` is of `may` as it is now
        self._lock = threading.RLock()  # `now` reads the four above as one
        self.grew_at = 0  # positions seen when `may` last grew
        self.sealed = False  # no play leaves `may` (`seal`)
        self.seal_after = _SEAL_AFTER
        self.until: float | None = None  # when a proof must give up (`time.perf_counter`)
        self.charged = 0  # nodes the proofs cost (`_SEAL_NODES`, `_SEAL_MODEL`)
        self.spare: int | None = None  # nodes left under a node limit (None: no node limit)
        self.background = False  # `seal`'s proof in a thread of its own
        self._proof = seal.Proof()
        self._proving = False
        self._thread: threading.Thread | None = None
        self._tried: np.ndarray | None = None  # the `may` last tried by `seal`
        self._asked_at = 0  # positions seen when the last proof was asked for
        self._onward = False  # the last proof's schedule grew `may`: the next is tried at once
        self.deepest: Callable[[], list[np.ndarray]] = list
        """A line to a position with the most tiles gone (`exhaust.deepest_line`): each proof
        starts from it."""

    def now(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool, int]:
        """`may`, `pairable`, `pinned`, `current` and `version`, all of one moment."""
        with self._lock:
            return self.may, self.pairable, self.pinned, self.current, self.version

    def widen(self, tiles: np.ndarray, nodes: int) -> None:
        """`may` with `tiles` too; `pairable` again unless it was computed lately (`_RECKON`)
        or the search is over (`halted`: a reckoning takes up to 60 ms on 24x12)."""
        with self._lock:
            if self.may[tiles].all():
                return  # widened by the other table already
            may = self.may.copy()
            may[tiles] = True
            self.may = may
            self.grew_at = nodes
            self._proof.cancel()  # of the older `may`: it can only fail now
            self.current = False
            if self.version * _RECKON <= nodes and not self.halted:
                self.reckon()

    def reckon(self) -> None:
        """The pairs that could be joined while play keeps to `may` as it is now, and the tiles
        pinned under others (`closure.reckon`): a new version."""
        with self._lock:
            self.pairable, self.pinned, self.before = closure.reckon(
                self.grid, self.col, self.kind, self.first, self.may
            )
            self.current = True
            self.version += 1
            self.versions[self.version] = (self.may, self.pairable, self.pinned)

    def forget(self) -> None:
        """Drop the older versions (once every table's keys were checked against this one)."""
        for version in [v for v in self.versions if v < self.version]:
            del self.versions[version]

    def spoilt(self, may: np.ndarray, pairable: np.ndarray, pinned: np.ndarray) -> np.ndarray:
        """The columns where a key chosen by an older `may`, `pairable` and `pinned` might be no
        key now.

        A key x, y reads the pairable rows of x, y and the tiles above them (their columns),
        how many tiles outside `may` the columns beside keep, the tiles of `may` under x, y that
        are not pinned under them, and under each partner of the tiles above (`keys.key`). None
        of that changed for a column with no pairable row changed, no tile new to `may` or with
        other tiles pinned under it in it or beside it, and none in the column of a tile
        pairable with one of its tiles."""
        width = self.grid.shape[1]
        new = np.zeros(width, bool)
        new[self.col[self.may & ~may]] = True
        new[self.col[(self.pinned != pinned).any(axis=1)]] = True
        changed = np.zeros(width, bool)
        changed[self.col[(self.pairable != pairable).any(axis=1)]] = True
        partners = np.zeros((width, width), bool)
        x, y = np.nonzero(self.pairable)
        partners[self.col[x], self.col[y]] = True
        beside = new.copy()
        beside[1:] |= new[:-1]
        beside[:-1] |= new[1:]
        return changed | beside | (partners & new[None, :]).any(axis=1)

    def seal(self, nodes: int) -> bool:
        """True once it is proved that no play inside `may` makes a way out joinable
        (`seal.sealed`) and some tile is outside it: then no play clears the board.

        The proof is tried once per `may`, when `may` has not grown for `seal_after` positions
        nor for a quarter as many as it took to reach it (a `may` still growing costs a proof
        that fails, about a second on 24x12, unless `may` grows meanwhile: that cancels it), or
        at once when the last proof's schedule grew it (`_prove`): proofs then lead the growth.
        It runs in this thread, or with `background` in a thread of its own, which the search
        never waits for (not the same answer on every machine)."""
        with self._lock:
            if not self._onward and nodes - self.grew_at < max(self.seal_after, self.grew_at // 4):
                return self.sealed
            asked = self._ask(nodes)
        if asked is None:
            return self.sealed
        if not self.background:
            return self._prove(*asked)
        self._thread = threading.Thread(
            target=self._prove, args=asked, name="tilegames-seal", daemon=True
        )
        self._thread.start()
        return False

    def _ask(self, nodes: int) -> tuple[np.ndarray, list[tuple[int, int]], np.ndarray] | None:
        """`may`, its ways out and `before` of it, marked as tried by a proof about to run; None
        when no proof is due: one runs, one sealed `may` already or was tried on it, or play is
        not confined."""
        with self._lock:
            if (
                self.sealed
                or self._proving
                or not self.confined
                or self.scouting
                or self._tried is self.may
                or self.may.all()
            ):
                return None
            self._tried = may = self.may
            self._proving = True
            self._onward = False
            self._asked_at = nodes
            if not self.current:
                self.reckon()
            ways = [(int(x), int(y)) for x, y in ways_out(may, self.pairable)]
            return may, ways, self.before

    def lead(self, stopping: threading.Event, nodes: int) -> bool:
        """Proofs alone, once the search has stopped with `may` unsettled (its table full):
        each at once on the `may` the last one's schedule grew, in this thread, until one seals
        it (True), none finds a tile new to `may`, the deadline (`until`) or `stopping`. They
        need no table: `may` holds only tiles some play takes, whatever the search saw."""
        while not (stopping.is_set() or self._proof.stopped or self.sealed):
            thread = self._thread
            if thread is not None and thread.is_alive():
                thread.join(0.01)  # the proof running in the background first
                continue
            if self.until is not None and time.perf_counter() >= self.until:
                break
            asked = self._ask(nodes)
            if asked is None:
                break
            self._prove(*asked)
        return self.sealed

    @property
    def proving(self) -> bool:
        """Is a proof of `seal` running now?"""
        return self._proving

    def _prove(self, may: np.ndarray, ways: list[tuple[int, int]], before: np.ndarray) -> bool:
        """`seal`'s proof for `may` and its `ways` out (with the order `before` that confined
        play keeps, `closure.reckon`): `sealed` if it holds. When CP-SAT finds a schedule
        instead, it is played (`seal.replay`), and `may` grows at once by the tiles outside it
        that plays from its end take (`seal.onward`): a way out, and often more. A schedule
        whose pairs sharing a step no real play can take in turn is asked for again with one
        pair a step (slower, so only then): else the chain of proofs would stop there. Under a
        node limit a proof costs nodes (`_SEAL_NODES`) and takes at most half of those left
        (`spare`), and one the search waits for (not in the `background`) at most half the
        time left: one that cannot pay, on a deal that play clears, leaves the restarts the
        other half (16x9 with 36 kinds seed 78: its first proof took 4.4 units of 2,000,000
        nodes' 2, or on one core 8.6 of 10 s; with half, the restarts clear it)."""
        grid, col, kind, first = self.grid, self.col, self.kind, self.first
        width = grid.shape[1]
        self._proof.start_from(self.deepest())  # else from the last schedule found
        try:
            for one_a_step in (False, True):
                seconds = 4 * _SEAL_WORK if self.until is None else self.until - time.perf_counter()
                if self.until is not None and not self.background:  # the search waits for it
                    seconds /= 2
                work = _SEAL_WORK
                if self.spare is not None:  # a node limit: half the nodes left, at most
                    work = min(work, (self.spare // 2 - _SEAL_MODEL) / _SEAL_NODES)
                    if work <= 0:
                        return self.sealed
                proved = self._proof.sealed(
                    col, kind, first, width, may, ways, seconds, work,
                    lambda: self.may is not may, before, one_a_step,
                )  # fmt: skip
                self._charge(_SEAL_MODEL + round(self._proof.work * _SEAL_NODES))
                if proved is True:
                    with self._lock:
                        self.sealed = self.sealed or self.may is may
                if proved is not False:
                    return self.sealed
                if self.halted:
                    return False  # the search is over: no use for the schedule
                gone = seal.replay(grid, col, kind, first, self._proof.schedule)
                if gone is not None:  # a real play: `may` grows by what plays on from there take
                    new = seal.onward(grid, col, kind, first, gone, may)
                    if new.any():
                        self.widen(np.flatnonzero(new), self._asked_at)
                        self._onward = True
                    return False
            return False
        finally:
            with self._lock:
                self._proving = False

    def _charge(self, nodes: int) -> None:
        """Count a proof's cost in nodes (no more than `spare`, which it kept to)."""
        if self.spare is not None:
            nodes = min(nodes, self.spare)
            self.spare -= nodes
        self.charged += nodes

    @property
    def halted(self) -> bool:
        """Was `stop` called, or has `until` passed? The searches' loops then end at once: a
        `may` that keeps growing could keep them widening it (and reckoning) for a while."""
        return self._proof.stopped or past(self.until)

    def stop(self) -> None:
        """Give up a proof running in another thread (`seal`), and every later one, and wait
        for its thread to end (CP-SAT stops within milliseconds)."""
        self._proof.stop()
        while self._thread is not None and self._thread.is_alive():
            self._proof.cancel()  # again: the solver may have been about to start
            self._thread.join(0.01)

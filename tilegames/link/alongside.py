"""The second core: the exhaustive search beside the restarts, or the restarts run twice.

Under gravity the solver's two searches are independent: the restarts and dives of the move
search (`search._Moves`), which clear the deals that can be cleared, and the exhaustive search
(`exhaust.Exhaust`), which proves most of the others. On one core they take turns, three seconds
of the second to one of the first. Their kernels release the GIL (numba's `nogil`), so with two
cores the exhaustive search runs here, in a thread, for the whole time limit while the restarts
go on in the caller's thread. Nothing is shared but the verdict, and the exhaustive search
itself (`halves.Halves`), to which the caller's thread gives most of its time once no line of
the restarts has played half the board. On a big board, where the
exhaustive search gives way to the restarts once a line has played half the board, its core
runs the restarts a second time with other random choices (`Rival`): the first to clear wins.

Only searches without a node limit do this: a node limit promises the same answer on every
machine, and two threads racing to a verdict would not keep that promise.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable

from tilegames.link.exhaust import DEAD, GROW, PAUSE, Exhaust
from tilegames.link.halves import Halves

_CHUNK = 4096
"""Most positions per call of the kernel (tens of ms on 24x12): how soon a stop is heard. The
first calls take fewer (from 64, doubling), so that a board the restarts decide at once is not
kept waiting for the thread."""


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class Rival:
    """`work(stopping)` in a thread: `result` is what it returned (None until then, or if it
    stopped without an answer); it should end soon after `stopping` is set, and `halt`, if
    given, is called then too (to stop what does not watch `stopping`). An error in the
    thread is raised again by `stop`."""

    def __init__(
        self,
        work: Callable[[threading.Event], bool | None],
        halt: Callable[[], None] | None = None,
    ) -> None:
        self.result: bool | None = None
        self._error: BaseException | None = None
        self._halt = halt
        self._stopping = threading.Event()
        self._thread = threading.Thread(
            target=self._work, args=(work,), name="tilegames-search", daemon=True
        )
        self._thread.start()

    @property
    def running(self) -> bool:
        return self._thread.is_alive()

    def _work(self, work: Callable[[threading.Event], bool | None]) -> None:
        try:
            self.result = work(self._stopping)
        except BaseException as error:  # handed to the caller's thread by `stop`
            self._error = error

    def stop(self) -> None:
        """Ask the work to end and wait for it."""
        self._stopping.set()
        if self._halt is not None:
            self._halt()
        self._thread.join()
        if self._error is not None:
            raise self._error


class Alongside:
    """`every.step` in a thread (a `Rival`'s) until a verdict, the deadline or `stop()`.

    `status` is None while it runs or after a stop, else what `step` ended with: SOLVED, DEAD,
    or GROW (the table full, or unable to grow before the deadline: nothing claimed, and the
    proofs of `seal` go on alone, `Bounds.lead`). An error in the thread is raised again by
    `stop`.
    """

    def __init__(self, every: Exhaust | Halves, deadline: float | None) -> None:
        self.every = every
        self.status: int | None = None
        self._thread = Rival(lambda stopping: self._work(stopping, deadline))

    @property
    def decided(self) -> bool:
        """Has the search ended with a cleared board or a proof (not a full table)?"""
        return self.status is not None and self.status != GROW

    @property
    def running(self) -> bool:
        return self._thread.running

    def _work(self, stopping: threading.Event, deadline: float | None) -> None:
        chunk = 64
        while not stopping.is_set():
            if deadline is not None and time.perf_counter() >= deadline:
                return
            status = self.every.step(chunk)
            chunk = min(2 * chunk, _CHUNK)
            if status == GROW and self.every.bounds.lead(stopping, self.every.nodes):
                status = DEAD  # the table full, but proofs alone sealed `may`
            if status != PAUSE:
                self.status = status
                return

    def stop(self) -> None:
        """End the thread (within one chunk) and the proofs of `seal` it started, and wait."""
        try:
            self.every.bounds.stop()  # first: the thread may be running a proof (`Bounds.lead`)
        finally:
            self._thread.stop()

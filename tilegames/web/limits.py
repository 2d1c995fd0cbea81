"""Bounds on what the network may ask of the server: sizes, text lengths, body sizes, rates of heavy requests."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field


@dataclass(frozen=True)
class ServerLimits:
    """Every bound in one place, so a test or a deployment can tighten or loosen them."""

    max_body: int = 16 * 1024
    """Largest request body accepted, in bytes (a 30×16 board is under 600)."""
    slide_sides: tuple[int, int] = (2, 10)
    """Smallest and largest width or height of a sliding puzzle."""
    klotski_sides: tuple[int, int] = (3, 6)
    klotski_cells: int = 30
    """Largest custom Klotski board (its reachable set, and so the solver's work, grows fast with the area)."""
    layout_chars: int = 200
    link_width: tuple[int, int] = (2, 30)
    link_height: tuple[int, int] = (2, 16)
    link_kinds: tuple[int, int] = (1, 72)
    heavy_burst: int = 30
    """Heavy requests (new game, hint, solve) a client may make at once ..."""
    heavy_per_second: float = 3.0
    """... and how fast its allowance refills."""
    heavy_queue: int = 64
    """Heavy jobs waiting for the worker pool at most; past that the server answers 503 at once."""
    solve_seconds: float = 10.0
    """Time limit of one solve or hint in the worker pool."""
    optimal_seconds: float = 60.0
    """Time limit of finding a 4×4 deal's optimal length in the background (it also builds the pattern
    databases on a machine's first 4×4 game)."""
    deal_seconds: float = 20.0
    """Time limit of dealing a new game (deals by exact distance can take a few seconds on 4×4)."""
    workers: int = 2
    """Worker processes for solves, hints and deals."""
    move_burst: int = 40
    """Moves and undos one game accepts at once ...  (a token bucket per game, and one per client:)"""
    move_per_second: float = 20.0
    """... and how fast its allowance refills (a speed-solver's 10 moves a second and the Solve playback's
    3 fit well inside; a no-op storm of 164 requests a second does not)."""
    client_move_burst: int = 80
    client_move_per_second: float = 40.0
    """Moves and undos one client (over all its games) makes at once, and their refill rate."""
    max_plies: int = 100_000
    """Moves one game keeps at most (its history): past it, a move is refused with 409 ``too_many_moves``."""
    body_seconds: float = 10.0
    """Time a client has to send a request's body (a slow-body client must not hold a connection)."""


KLOTSKI_KERNEL_STATES = 3_000_000
"""Positions a Klotski search may visit on a board of up to 21 cells (the compiled search; the classic
4×5 layouts need at most ~100,000)."""
KLOTSKI_PYTHON_STATES = 50_000
"""Positions the plain-Python Klotski search (boards over 21 cells) may visit: ~4 s on a loaded 2-core machine
(200,000 took 30 s), inside the 10 s solve limit, so the engine stops on its own before the pool kills it."""


def klotski_max_states(width: int, height: int) -> int:
    """The node limit of a Klotski search on a board this size: the compiled search or the plain-Python one."""
    from tilegames.klotski.solve import MAX_KERNEL_CELLS

    return KLOTSKI_KERNEL_STATES if width * height <= MAX_KERNEL_CELLS else KLOTSKI_PYTHON_STATES


@dataclass
class RateLimiter:
    """A token bucket per client: ``allow(client)`` spends one token, refilled at ``rate`` per second.

    The table is pruned of full buckets now and then, so a stream of one-off clients cannot grow it forever.
    """

    burst: int
    rate: float
    _buckets: dict[str, tuple[float, float]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def allow(self, client: str, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        with self._lock:
            tokens, last = self._buckets.get(client, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - last) * self.rate)
            allowed = tokens >= 1.0
            self._buckets[client] = (tokens - 1.0 if allowed else tokens, now)
            if len(self._buckets) > 10_000:
                self._prune(now)
            return allowed

    def _prune(self, now: float) -> None:
        full = [
            key
            for key, (tokens, last) in self._buckets.items()
            if tokens + (now - last) * self.rate >= self.burst
        ]
        for key in full:
            del self._buckets[key]

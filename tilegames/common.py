"""What the three games share: search limits and their error, seeded randomness, the cache, a progress bar.

One home for each, so a reader who learns one game knows the others (docs/design.md, "The contract").
Nothing heavy is imported here: `import tilegames.common` costs no NumPy and no numba.
"""

from __future__ import annotations

import math
import os
import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol

LimitName = Literal["max_nodes", "timeout"]


class SearchLimitError(ValueError):
    """A search stopped at its node or time limit before it had an answer (not a proof of anything)."""

    def __init__(self, message: str, *, limit: LimitName = "max_nodes", nodes: int = 0) -> None:
        super().__init__(message)
        self.limit: LimitName = limit
        """Which limit stopped the search: ``"max_nodes"`` or ``"timeout"``."""
        self.nodes = nodes
        """How far it got: search nodes generated before it stopped."""


class SeedError(ValueError):
    """A seed that is not an int >= 0 or a random.Random (``Random(-n)`` repeats ``Random(n)``)."""


@dataclass(frozen=True)
class Limits:
    """How much a search may do: at most `max_nodes` nodes and `timeout` seconds (None: no such limit).

    Answers depend on node limits only, so they are the same on every machine; a timeout may stop a
    search, and then says so with SearchLimitError(limit="timeout").
    """

    max_nodes: int | None = None
    """Search nodes (positions generated or expanded, as each game counts them)."""
    timeout: float | None = None
    """Seconds of search."""

    def __post_init__(self) -> None:
        if self.max_nodes is not None and (
            isinstance(self.max_nodes, bool) or not isinstance(self.max_nodes, int)
        ):
            raise ValueError(f"max_nodes must be an int, not {self.max_nodes!r}")
        if self.max_nodes is not None and self.max_nodes < 1:
            raise ValueError(f"max_nodes must be at least 1, not {self.max_nodes}")
        if self.timeout is not None and not (
            isinstance(self.timeout, int | float)
            and self.timeout > 0
            and math.isfinite(self.timeout)
        ):
            raise ValueError(f"timeout must be a positive number of seconds, not {self.timeout!r}")

    def clock(self) -> Clock:
        """Start counting: a Clock whose deadline is `timeout` seconds from now."""
        return Clock(self)


def limits_of(limits: Limits | None) -> Limits:
    """`limits`, or no limits at all for None; TypeError for anything else."""
    if limits is None:
        return Limits()
    if not isinstance(limits, Limits):
        raise TypeError(f"limits must be a tilegames.common.Limits, not {type(limits).__name__}")
    return limits


class Clock:
    """A running search's budget: `check(nodes)` raises SearchLimitError once a limit is passed."""

    __slots__ = ("deadline", "limits", "max_nodes")

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.max_nodes = limits.max_nodes if limits.max_nodes is not None else 1 << 62
        self.deadline = time.perf_counter() + limits.timeout if limits.timeout else math.inf

    def check(self, nodes: int) -> None:
        """Raise when `nodes` is past the node limit or the deadline has passed."""
        if nodes > self.max_nodes:
            raise self.error("max_nodes", nodes)
        if time.perf_counter() > self.deadline:
            raise self.error("timeout", nodes)

    def error(self, limit: LimitName, nodes: int) -> SearchLimitError:
        """The error for `limit`, saying how far the search got."""
        if limit == "max_nodes":
            return SearchLimitError(
                f"node limit reached: {nodes} nodes searched (max_nodes={self.max_nodes})",
                limit="max_nodes",
                nodes=nodes,
            )
        return SearchLimitError(
            f"time limit reached: {self.limits.timeout} s passed after {nodes} nodes",
            limit="timeout",
            nodes=nodes,
        )


def rng(seed: int | random.Random | None) -> random.Random:
    """A random.Random from a seed (an int >= 0), the generator itself, or fresh entropy for None.

    Never the global generator. Negative seeds are refused: ``Random(-n)`` is ``Random(n)``, so they
    would silently repeat another seed's deal.
    """
    if isinstance(seed, random.Random):
        return seed
    if seed is None:
        return random.Random()
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SeedError(f"seed must be an int >= 0 or a random.Random, not {seed!r}")
    if seed < 0:
        raise SeedError(f"seed must be 0 or more, not {seed}")
    return random.Random(seed)


def cache_directory(explicit: str | os.PathLike[str] | None = None) -> Path:
    """Where big built-once tables live: `explicit`, else $TILEGAMES_CACHE, else the user cache dir."""
    if explicit is not None:
        return Path(explicit)
    env = os.environ.get("TILEGAMES_CACHE")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_cache_dir("tilegames"))


class Progress:
    """A rich progress bar on stderr (gone when closed) while something big is built once."""

    def __init__(self, total: int, label: str) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn
        from rich.progress import Progress as RichProgress

        self._progress = RichProgress(
            TextColumn("{task.description}"),
            BarColumn(),
            TextColumn("{task.percentage:>5.1f}%"),
            TimeElapsedColumn(),
            TextColumn("left"),
            TimeRemainingColumn(),
            console=Console(stderr=True),
            transient=True,
        )
        self._progress.start()
        self._task = self._progress.add_task(label, total=total)

    def update(self, completed: int) -> None:
        self._progress.update(self._task, completed=completed)

    def close(self) -> None:
        self._progress.stop()

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Solution(Protocol):
    """What every game's Solution has (each game's frozen dataclass adds its own extras)."""

    @property
    def moves(self) -> list[Any]: ...
    @property
    def length(self) -> int: ...
    @property
    def optimal(self) -> bool: ...
    @property
    def nodes(self) -> int: ...

"""Per-game web adapters behind one small protocol, found through a registry.

The endpoints (:mod:`tilegames.web.arcade`) never ask which game they serve: they look up the game's
:class:`Adapter` with :func:`adapter` and call it. Each adapter (``slide.py``, ``klotski.py``, ``link.py``) is the
only place where the web layer calls its engine, so a change of an engine's API is a change of one file.

Quick work (parse a board, check one move) runs in Starlette's thread pool; slow work (deals, hints, solves,
reshuffles) in the worker processes through :class:`Services`. Neither runs on the store's writer thread.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from tilegames.store import GameRow, Store
from tilegames.web.limits import ServerLimits


class BadRequest(ValueError):
    """The request is well-formed JSON but asks for something out of bounds or against the rules (HTTP 422)."""

    def __init__(self, message: str, code: str = "bad_request") -> None:
        super().__init__(message)
        self.code = code


class IllegalMove(BadRequest):
    """The move is not legal in the game's current position (HTTP 422, nothing changed)."""

    def __init__(self, message: str, code: str = "illegal_move") -> None:
        super().__init__(message, code)


@dataclass(frozen=True)
class Outcome:
    """A move accepted by the rules: the board after it, the new counts, and whether it wins."""

    board: str
    moves: int
    text: str
    """The move as stored on the history."""
    won: bool = False
    score: int | None = None
    now: float | None = None
    """When the move was checked, if the score was reckoned from the clock then: the store stops the clock at
    the same moment, so the game's time and the score recorded with it agree."""
    steps: int | None = None
    """The game's second count after the move (Klotski's unit steps), None when it has none."""
    options: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    """Told to the client once with this answer (a path to draw, a reshuffle notice)."""


@dataclass(frozen=True)
class Deal:
    """A new game as the adapter describes it: where to start and how its records are grouped."""

    board: str
    variant: str
    """The key its records are kept under: each kind of deal its own."""
    label: str
    """The variant in words ("4×4, 30 moves from solved")."""
    options: dict[str, Any]


class Services(Protocol):
    """What an adapter may use of the server: the worker pool and the store (the arcade provides both)."""

    store: Store
    limits: ServerLimits

    async def work(
        self, fn: Callable[..., dict[str, Any]], *args: Any, timeout: float
    ) -> dict[str, Any]: ...

    async def db(self, fn: Callable[..., Any], *args: Any) -> Any: ...

    def in_background(self, job: Any) -> None: ...


class Adapter(Protocol):
    """One game as the web sees it."""

    name: str
    records: tuple[str, ...]
    """What a win can set a record in: ``moves``, ``seconds``, ``score``."""

    def catalog(self, limits: ServerLimits) -> dict[str, Any]: ...

    def params(self, body: dict[str, Any], limits: ServerLimits) -> dict[str, Any]:
        """Check a new game's parameters (quick; 422 on anything out of bounds)."""
        ...

    async def new(self, services: Services, params: dict[str, Any], seed: int) -> Deal:
        """Deal a game (in the worker pool)."""
        ...

    async def created(self, services: Services, row: GameRow) -> None:
        """Called after the game is stored (e.g. learn its optimal length in the background)."""
        ...

    def view(self, row: GameRow) -> dict[str, Any]:
        """The game's own part of the JSON state."""
        ...

    def state(self, row: GameRow) -> dict[str, Any]:
        """Fields the game adds to the common state (Klotski: ``steps``)."""
        ...

    def move(self, row: GameRow, move: Any) -> Outcome:
        """Check one player action with the engine (quick; IllegalMove or BadRequest when refused)."""
        ...

    async def settle(self, services: Services, row: GameRow, outcome: Outcome) -> Outcome:
        """Finish a move that needs slow work before it is stored (Lianliankan: reshuffle a stuck board)."""
        ...

    async def hint(self, services: Services, row: GameRow) -> dict[str, Any]: ...

    async def solve(self, services: Services, row: GameRow) -> dict[str, Any]: ...

    async def analyse(self, services: Services, row: GameRow) -> dict[str, Any]:
        """The Analysis mode's answer for the position (tilegames.web.analysis), from the worker pool."""
        ...

    def from_deal(self, text: str, rest: str) -> dict[str, Any]:
        """The new-game body of deal id ``text`` (``rest``: after ``<game>-``); BadRequest ``bad_deal``."""
        ...

    def deal_id(self, row: GameRow) -> str | None:
        """The deal id of a stored game (:mod:`tilegames.web.games.deals`), None when it cannot be named."""
        ...


def int_param(
    params: dict[str, Any], key: str, low: int, high: int, default: int | None = None
) -> int:
    value = params.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadRequest(f"{key} must be a whole number from {low} to {high}", "bad_parameter")
    if not low <= value <= high:
        raise BadRequest(f"{key} {value} is out of range {low}..{high}", "out_of_range")
    return value


def size_param(
    params: dict[str, Any], sides: tuple[int, int], heights: tuple[int, int] | None = None
) -> tuple[int, int]:
    heights = heights or sides
    return int_param(params, "width", *sides), int_param(params, "height", *heights)


def seed_param(params: dict[str, Any]) -> int | None:
    if params.get("seed") is None:
        return None
    return int_param(params, "seed", 0, 2**63 - 1)


class Base:
    """Defaults shared by the adapters (no extra state fields, nothing after creation, no settling)."""

    name: str
    records: tuple[str, ...]

    def state(self, row: GameRow) -> dict[str, Any]:
        return {}

    async def created(self, services: Services, row: GameRow) -> None:
        return None

    async def settle(self, services: Services, row: GameRow, outcome: Outcome) -> Outcome:
        return outcome


def _registry() -> dict[str, Adapter]:
    from tilegames.web.games.klotski import Klotski
    from tilegames.web.games.link import Link
    from tilegames.web.games.slide import Slide

    adapters: tuple[Adapter, ...] = (Slide(), Klotski(), Link())
    return {a.name: a for a in adapters}


REGISTRY: dict[str, Adapter] = _registry()
"""Every game the arcade serves, by name."""

NAMES: tuple[str, ...] = tuple(REGISTRY)


def adapter(name: Any) -> Adapter:
    """The adapter of the game called ``name`` (422 ``unknown_game`` otherwise)."""
    found = REGISTRY.get(name) if isinstance(name, str) else None
    if found is None:
        raise BadRequest(f"game must be one of {', '.join(NAMES)}, not {name!r}", "unknown_game")
    return found


def warm() -> None:
    """Exercise each engine's move path once (imports, compiled kernels loaded from numba's cache), so the
    first real move after a start does not stall a request for a fraction of a second."""
    import contextlib

    for game in REGISTRY.values():
        with contextlib.suppress(Exception):
            game.warm()  # type: ignore[attr-defined]

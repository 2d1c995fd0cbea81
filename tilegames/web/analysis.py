"""Analysis mode: how far a game's position is from solved, and each legal move judged better / same / worse.

``GET /api/games/{id}/analysis`` answers, for the position the game is in now, the engine's exact distance to
solved and a verdict for every legal move, like a chess tablebase view (see :mod:`tilegames.web.analysis_tasks`
for how each game measures it). The work runs in the worker pool with node and time limits, never on the
store's writer thread; a search past its limit answers ``"unknown"``. Asking marks the game analysed
(:meth:`tilegames.store.Store.count_help` with ``analysis=True``), so it still counts as played but sets no
record. Answers are cached per position (a few hundred, least recently used first out): the page asks again
after an undo or a reload, and those cost nothing.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from tilegames.store import GameRow
from tilegames.web import games
from tilegames.web.arcade import Arcade, game_over

#: Sliding-puzzle boards up to this many cells are analysed (3×3, 4×4 and the small rectangles).
SLIDE_CELLS = 16
#: Node limit of each optimal sliding-puzzle solve (past it, that move is "unknown").
SLIDE_NODES = 3_000_000
#: Node limit of each Lianliankan clearability check, and how many pairs are checked.
LINK_NODES = 20_000
LINK_PAIRS = 40
#: Answers kept per server.
CACHE_SIZE = 512


class Analyst:
    """The endpoint and its cache (one per app, nothing global)."""

    def __init__(self, arcade: Arcade) -> None:
        self.arcade = arcade
        self.cache: OrderedDict[tuple[str, str, bool], dict[str, Any]] = OrderedDict()

    async def endpoint(self, request: Request) -> Response:
        arcade = self.arcade
        row = await arcade.row(request.path_params["game_id"])
        if row.status != "playing":
            raise game_over()
        key = (row.game, row.board, bool(row.options.get("gravity")))
        answer = self.cache.get(key)
        if answer is None:
            arcade.throttle(request)
            answer = await self.compute(row)
            self.cache[key] = answer
            while len(self.cache) > CACHE_SIZE:
                self.cache.popitem(last=False)
        else:
            self.cache.move_to_end(key)
        if not row.autoplay & 2:
            await arcade.db(lambda: arcade.store.count_help(row.id, analysis=True))
        return JSONResponse({"id": row.id, "board": row.board, "plies": row.plies, **answer})

    async def compute(self, row: GameRow) -> dict[str, Any]:
        """The answer of the game's own adapter (each knows its engine's exact measure)."""
        return await games.adapter(row.game).analyse(self.arcade, row)


def route(arcade: Arcade) -> Route:
    """``GET /api/games/{game_id}/analysis``, served by a new :class:`Analyst` of ``arcade``."""
    return Route("/api/games/{game_id}/analysis", Analyst(arcade).endpoint, methods=["GET"])

"""The arcade's endpoints and their state: a JSON API over the three engines.

The server is authoritative: the page sends moves, the server checks them with the engine, stores them
(committed to disk before the answer) and answers the new state; a move the rules forbid gets a 4xx JSON error
and changes nothing. Database work runs on the store's writer thread (group commit, see tilegames.store); slow
work (deals, hints, solves) in worker processes with a time limit (tilegames.web.workers).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections.abc import Callable, Coroutine
from dataclasses import asdict, dataclass
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from tilegames.store import GameRow, Store, StoreError
from tilegames.web import games, tasks
from tilegames.web.games import Outcome
from tilegames.web.limits import Limits, RateLimiter
from tilegames.web.workers import WorkerError, Workers

GAMES = ("slide", "klotski", "link")


class ApiError(Exception):
    """An error answered as ``{"error": {"code": ..., "message": ...}}`` with an HTTP status."""

    def __init__(self, status: int, code: str, message: str, headers: dict[str, str] | None = None):
        super().__init__(message)
        self.status, self.code, self.message, self.headers = status, code, message, headers


def error_response(
    status: int, code: str, message: str, headers: dict[str, str] | None = None
) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status, headers=headers)


@dataclass(frozen=True)
class Pending:
    """A move accepted by the rules but not recorded yet: the board it leaves must be reshuffled first."""

    row: GameRow
    text: str
    outcome: Outcome


class Arcade:
    """The app's state: the store, the worker pool, the limits. One per app, nothing global."""

    def __init__(self, store: Store, limits: Limits, workers: Workers) -> None:
        self.store = store
        self.limits = limits
        self.workers = workers
        self.heavy = RateLimiter(limits.heavy_burst, limits.heavy_per_second)
        self.background: set[asyncio.Task[Any]] = set()

    # Helpers.

    def in_background(self, job: Coroutine[Any, Any, Any]) -> None:
        """Run a job after the answer is sent; its failure only costs what it would have learnt."""

        async def quietly() -> None:
            with contextlib.suppress(ApiError, WorkerError, StoreError):
                await job

        task = asyncio.create_task(quietly())
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    async def body(self, request: Request) -> dict[str, Any]:
        """The request's JSON object, refusing bodies over the limit (413) and anything not a JSON object (400)."""
        limit = self.limits.max_body
        declared = request.headers.get("content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            raise ApiError(413, "body_too_large", f"request body over {limit} bytes")
        chunks, size = [], 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise ApiError(413, "body_too_large", f"request body over {limit} bytes")
            chunks.append(chunk)
        raw = b"".join(chunks)
        if not raw.strip():
            return {}
        try:
            data = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            raise ApiError(400, "bad_json", f"the body is not valid JSON: {error}") from None
        if not isinstance(data, dict):
            raise ApiError(400, "bad_json", "the body must be a JSON object")
        return data

    def throttle(self, request: Request) -> None:
        client = request.client.host if request.client else "?"
        if not self.heavy.allow(client):
            raise ApiError(
                429,
                "rate_limited",
                "too many new games, hints or solves at once; wait a moment",
                {"Retry-After": str(max(1, round(1 / self.limits.heavy_per_second)))},
            )

    async def db(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run ``fn(*args)`` on the store's writer thread (atomically) and await its committed result."""
        return await asyncio.wrap_future(self.store.submit(fn, *args))

    def row(self, game_id: str) -> GameRow:
        row = self.store.game(game_id) if len(game_id) <= 64 else None
        if row is None:
            raise ApiError(404, "no_such_game", f"no game with id {game_id!r}")
        return row

    async def work(
        self, fn: Callable[..., dict[str, Any]], *args: Any, timeout: float
    ) -> dict[str, Any]:
        try:
            answer = await self.workers.run(fn, *args, timeout=timeout + 2.0)
        except WorkerError as error:
            status = 503 if error.reason == "busy" else 504 if error.reason == "timeout" else 500
            raise ApiError(status, error.reason, str(error)) from None
        if "error" in answer:
            kind = answer.get("kind", "")
            if "Limit" in kind or "Timeout" in kind:
                raise ApiError(504, "timeout", answer["error"])
            if "Unsolvable" in kind:
                raise ApiError(422, "unsolvable", answer["error"])
            if kind == "EngineError":
                raise ApiError(500, "engine_error", answer["error"])
            raise ApiError(422, "bad_request", answer["error"])
        return answer

    def state(self, row: GameRow, extra: dict[str, Any] | None = None) -> dict[str, Any]:
        """The JSON state of a game: common fields and the game's own ``view``."""
        view = {"slide": games.slide_view, "klotski": games.klotski_view, "link": games.link_view}[
            row.game
        ](row)
        best = next(
            (asdict(b) for b in self.store.best(row.game) if b.variant == row.variant), None
        )
        state = {
            "id": row.id,
            "game": row.game,
            "variant": row.variant,
            "status": row.status,
            "board": row.board,
            "start": row.start,
            "moves": row.moves,
            "seconds": round(row.clock(time.time()), 3),
            "running": row.status == "playing" and row.last_action is not None,
            "optimal": row.options.get("optimal"),
            "hints": row.hints,
            "undos": row.undos,
            "autoplay": bool(row.autoplay),
            "plies": row.plies,
            "can_undo": row.plies > 0 and row.status == "playing",
            "best": best,
            "view": view,
        }
        if (
            row.game == "klotski"
        ):  # the unit-step metric beside the classic one: each cell a piece moved
            state["steps"] = sum(len(move.partition(":")[2]) for move in self.store.history(row.id))
        if extra:
            state.update(extra)
        return state

    # Endpoints.

    async def catalog(self, request: Request) -> Response:
        from tilegames import klotski

        limits = self.limits
        return JSONResponse(
            {
                "slide": {
                    "sizes": [f"{n}x{n}" for n in range(3, 9)]
                    + ["3x4", "4x3", "4x5", "5x4", "3x5"],
                    "sides": list(limits.slide_sides),
                    "distance": {f"{w}x{h}": top for (w, h), top in games.SLIDE_DISTANCE.items()},
                },
                "klotski": {
                    "layouts": [
                        {"name": n.name, "alias": n.alias, "layout": str(n.board)}
                        for n in klotski.NAMED_LAYOUTS
                    ],
                    "sides": list(limits.klotski_sides),
                    "max_cells": limits.klotski_cells,
                },
                "link": {
                    "sizes": [f"{w}x{h}" for w, h in games.LINK_SIZES],
                    "width": list(limits.link_width),
                    "height": list(limits.link_height),
                    "kinds": list(limits.link_kinds),
                },
            }
        )

    async def create(self, request: Request) -> Response:
        params = await self.body(request)
        game = params.get("game")
        if game not in GAMES:
            raise ApiError(
                422, "unknown_game", f"game must be one of {', '.join(GAMES)}, not {game!r}"
            )
        self.throttle(request)
        seed = random.SystemRandom().randrange(2**32)
        deal_time = self.limits.deal_seconds
        options: dict[str, Any]
        if game == "slide":
            p = await run_in_threadpool(games.slide_params, params, self.limits)
            seed = p["seed"] if p["seed"] is not None else seed
            dealt = await self.work(
                tasks.slide_new, p["width"], p["height"], seed, p["distance"], timeout=deal_time
            )
            variant = f"{p['width']}x{p['height']}"
            options = {"seed": seed, "distance": p["distance"], "optimal": dealt["optimal"]}
        elif game == "klotski":
            p = await run_in_threadpool(games.klotski_params, params, self.limits)
            dealt = await self.work(
                tasks.klotski_new, p["layout"], "moves", timeout=self.limits.solve_seconds
            )
            variant = p["variant"]
            options = {"optimal": dealt["optimal"], "metric": "moves"}
        else:
            p = await run_in_threadpool(games.link_params, params, self.limits)
            seed = p["seed"] if p["seed"] is not None else seed
            dealt = await self.work(
                tasks.link_new,
                p["width"],
                p["height"],
                p["kinds"],
                p["copies"],
                p["gravity"],
                seed,
                timeout=deal_time,
            )
            variant = games.link_variant(p)
            chars = sorted({ch for ch in dealt["board"] if ch not in "./\n "})
            options = {
                "seed": seed,
                "gravity": p["gravity"],
                "kinds": p["kinds"],
                "cells": p["width"] * p["height"],
                "kinds_chars": chars,
                "reshuffles": 0,
            }
        row = await self.db(self.store.create_game, game, variant, dealt["board"], options)
        if (
            game == "slide"
            and options["optimal"] is None
            and p["width"] * p["height"] <= tasks.SLIDE_OPTIMAL_CELLS
        ):
            self.in_background(self._learn_optimal(row))
        return JSONResponse(await self.db(self.state, row), 201)

    async def klotski_check(self, request: Request) -> Response:
        """Check a layout as the editor's user types it: the engine's verdict, without solving."""
        data = await self.body(request)
        checked = await run_in_threadpool(games.klotski_params, data, self.limits)
        return JSONResponse({"ok": True, **checked})

    async def _learn_optimal(self, row: GameRow) -> None:
        """Find a 4×4 deal's optimal length after answering (it can take a while), for the win screen."""
        answer = await self.work(
            tasks.slide_optimal,
            row.start,
            self.limits.optimal_seconds,
            timeout=self.limits.optimal_seconds,
        )
        if answer.get("optimal"):

            def save() -> None:
                current = self.store.game(row.id)
                if current is not None:
                    self.store.update_options(
                        row.id, {**current.options, "optimal": answer["length"]}
                    )

            await self.db(save)

    async def show(self, request: Request) -> Response:
        game_id = request.path_params["game_id"]
        return JSONResponse(await self.db(lambda: self.state(self.row(game_id))))

    async def delete(self, request: Request) -> Response:
        game_id = request.path_params["game_id"]
        await self.db(lambda: self.row(game_id) and self.store.delete_game(game_id))
        return Response(status_code=204)

    async def move(self, request: Request) -> Response:
        data = await self.body(request)
        if "move" not in data:
            raise ApiError(422, "bad_move", 'the body must be {"move": ...}')
        game_id = request.path_params["game_id"]
        answer = await self.db(self._move, game_id, data["move"])
        if isinstance(answer, Pending):
            dealt = await self.work(
                tasks.link_reshuffle,
                answer.outcome.board,
                bool(answer.row.options.get("gravity")),
                games.link_reshuffle_seed(answer.row),
                timeout=self.limits.solve_seconds,
            )
            answer = await self.db(self._record_reshuffled, answer, dealt["board"])
        return JSONResponse(answer)

    def _record_reshuffled(self, pending: Pending, board: str) -> dict[str, Any]:
        """Record a move that left the board stuck, with the board reshuffled, if no other move came first."""
        row = self.row(pending.row.id)
        if row.board != pending.row.board or row.plies != pending.row.plies:
            raise ApiError(
                409, "conflict", "the game changed while it was being reshuffled; reload it"
            )
        options = dict(pending.outcome.options or row.options)
        options["reshuffles"] = options.get("reshuffles", 0) + 1
        new = self.store.record_move(
            row, pending.text, board, pending.outcome.moves, options=options
        )
        return self.state(new, {"last": {**pending.outcome.extra, "reshuffled": True}})

    def _move(self, game_id: str, move: Any) -> dict[str, Any] | Pending:
        row = self.row(game_id)
        if row.status != "playing":
            raise ApiError(409, "game_over", "this game is finished; start a new one")
        mover = {
            "slide": games.slide_move,
            "klotski": games.klotski_move,
            "link": games.link_move,
        }[row.game]
        outcome: Outcome = mover(row, move, self.store.last_move(row.id))
        text = games.encode_link_move(move) if row.game == "link" else move
        if outcome.reshuffle:
            return Pending(row, text, outcome)
        new = self.store.record_move(
            row,
            text,
            outcome.board,
            outcome.moves,
            won=outcome.won,
            score=outcome.score,
            options=outcome.options,
        )
        return self.state(new, {"last": outcome.extra} if outcome.extra else None)

    async def undo(self, request: Request) -> Response:
        return JSONResponse(await self.db(self._undo, request.path_params["game_id"]))

    def _undo(self, game_id: str) -> dict[str, Any]:
        row = self.row(game_id)
        if row.status != "playing":
            raise ApiError(409, "game_over", "this game is finished; start a new one")
        new = self.store.undo(row)
        if new is None:
            raise ApiError(409, "nothing_to_undo", "no move to take back")
        return self.state(new)

    async def hint(self, request: Request) -> Response:
        row = await self.db(self.row, request.path_params["game_id"])
        if row.status != "playing":
            raise ApiError(409, "game_over", "this game is finished; start a new one")
        self.throttle(request)
        limit = self.limits.solve_seconds
        hint: dict[str, Any]
        if row.game == "slide":
            move = await self._slide_hint(row)
            hint = {"move": move, "cells": games.slide_cells(row, move) if move else []}
        elif row.game == "klotski":
            answer = await self.work(tasks.klotski_hint, row.board, "moves", timeout=limit)
            move = answer["move"]
            piece = move.split(":")[0] if move else None
            cells = [
                [p["row"], p["col"], p["width"], p["height"]]
                for p in games.klotski_pieces(row.board)
                if p["id"] == piece
            ]
            hint = {"move": move, "piece": piece, "cells": cells}
        else:
            board = games._link_board(row)
            pair = board.first_pair()
            if pair is None:
                hint = {"move": None, "cells": [], "path": None}
            else:
                a, b = (tuple(x) for x in pair)
                hint = {
                    "move": [list(a), list(b)],
                    "cells": [list(a), list(b)],
                    "path": [list(p) for p in board.path(a, b)],
                }
        if hint["move"] is not None:
            await self.db(lambda: self.store.count_help(row.id, hint=True))
        return JSONResponse({"id": row.id, "board": row.board, "hint": hint})

    async def _slide_hint(self, row: GameRow) -> str | None:
        """The next move of the game's plan (a solution found for an earlier hint) if the player is on it.

        Small boards just ask the engine's hint; larger ones (where a solve takes seconds) keep the whole
        solution as the game's plan, so following hints costs one solve, not one per hint.
        """
        limit = self.limits.solve_seconds
        plan = row.options.get("plan")
        if plan is not None:
            move = await run_in_threadpool(games.slide_plan_next, plan, row.board)
            if move is not None:
                return move
        if games.slide_cells_count(row) <= 9:
            return (await self.work(tasks.slide_hint, row.board, limit, timeout=limit))["move"]
        answer = await self.work(tasks.slide_solve, row.board, limit, timeout=limit)
        await self.db(self._save_plan, row.id, row.board, answer["moves"])
        return answer["moves"][0] if answer["moves"] else None

    def _save_plan(self, game_id: str, board: str, moves: list[str]) -> None:
        current = self.store.game(game_id)
        if current is not None:
            plan = {"board": board, "moves": "".join(moves)}
            self.store.update_options(game_id, {**current.options, "plan": plan})

    async def solve(self, request: Request) -> Response:
        row = await self.db(self.row, request.path_params["game_id"])
        if row.status != "playing":
            raise ApiError(409, "game_over", "this game is finished; start a new one")
        self.throttle(request)
        limit = self.limits.solve_seconds
        if row.game == "slide":
            answer = await self.work(tasks.slide_solve, row.board, limit, timeout=limit)
            await self.db(self._save_plan, row.id, row.board, answer["moves"])
        elif row.game == "klotski":
            answer = await self.work(tasks.klotski_solve, row.board, "moves", timeout=limit)
        else:
            answer = await self.work(
                tasks.link_solve, row.board, bool(row.options.get("gravity")), limit, timeout=limit
            )
        await self.db(lambda: self.store.count_help(row.id, autoplay=True))
        return JSONResponse({"id": row.id, "board": row.board, **answer})

    async def best(self, request: Request) -> Response:
        game = request.query_params.get("game")
        if game is not None and game not in GAMES:
            raise ApiError(
                422, "unknown_game", f"game must be one of {', '.join(GAMES)}, not {game!r}"
            )
        best = await self.db(self.store.best, game)
        return JSONResponse({"best": [asdict(b) for b in best]})

    async def health(self, request: Request) -> Response:
        return JSONResponse({"ok": True, "schema": await self.db(lambda: self.store.version)})

"""The arcade's endpoints and their state: a JSON API over the three engines, one adapter per game.

The server is authoritative: the page sends moves, the server checks them with the engine (in the thread pool,
through the game's adapter, :mod:`tilegames.web.games`), then commits them on the store's writer thread with a
ply check in the same transaction (:meth:`tilegames.store.Store.record_move`), and answers the new state once it
is on disk. A move the rules forbid gets a 4xx JSON error and changes nothing. Slow work (deals, hints, solves,
reshuffles) runs in worker processes with a time limit (:mod:`tilegames.web.workers`).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import random
import re
import time
from collections.abc import Callable, Coroutine
from dataclasses import asdict
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from tilegames.store import Best, Conflict, GameRow, Store, StoreError
from tilegames.web import games
from tilegames.web.games import deals
from tilegames.web.limits import RateLimiter, ServerLimits
from tilegames.web.workers import BACKGROUND, WorkerError, Workers

#: A move checked against a game that moved on meanwhile is checked again this many times at most (only when
#: the client did not say which ply it saw: then it wants the move on whatever the game is now).
RECHECKS = 3

#: A player id: no accounts, just a random id the page keeps in localStorage and sends as ``X-Player``.
PLAYER = re.compile(r"[A-Za-z0-9_-]{16,64}")


class ApiError(Exception):
    """An error answered as ``{"error": {"code": ..., "message": ...}}`` with an HTTP status."""

    def __init__(self, status: int, code: str, message: str, headers: dict[str, str] | None = None):
        super().__init__(message)
        self.status, self.code, self.message, self.headers = status, code, message, headers


def error_response(
    status: int, code: str, message: str, headers: dict[str, str] | None = None
) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status, headers=headers)


def storage_error(error: StoreError) -> ApiError:
    """A store failure as a player would want to read it: 507 when the disk is full, else 503."""
    if "full" in str(error):
        return ApiError(
            507,
            "storage_full",
            "the server's disk is full, so your move could not be saved; try again in a while",
        )
    return ApiError(
        503, "storage_unavailable", "the server cannot save games right now; try again in a while"
    )


def game_over() -> ApiError:
    return ApiError(409, "game_over", "this game is finished; start a new one")


def paused() -> ApiError:
    """A move, undo, hint or solve on a paused game: refused, so the pause stays what the player chose."""
    return ApiError(409, "paused", "the game is paused; resume it to play")


class Arcade:
    """The app's state: the store, the worker pool, the limits. One per app, nothing global."""

    def __init__(self, store: Store, limits: ServerLimits, workers: Workers) -> None:
        self.store = store
        self.limits = limits
        self.workers = workers
        self.heavy = RateLimiter(limits.heavy_burst, limits.heavy_per_second)
        self.game_moves = RateLimiter(limits.move_burst, limits.move_per_second)
        self.client_moves = RateLimiter(limits.client_move_burst, limits.client_move_per_second)
        self.background: set[asyncio.Task[Any]] = set()

    # Services for the adapters (tilegames.web.games.Services).

    def in_background(self, job: Coroutine[Any, Any, Any]) -> None:
        """Run a job after the answer is sent; its failure only costs what it would have learnt."""

        async def quietly() -> None:
            BACKGROUND.set(True)  # its jobs leave a worker to the players (`Workers.run`)
            with contextlib.suppress(ApiError, WorkerError, StoreError):
                await job

        task = asyncio.create_task(quietly())
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    async def db(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run ``fn(*args)`` on the store's writer thread (atomically) and await its committed result."""
        try:
            return await asyncio.wrap_future(self.store.submit(fn, *args))
        except StoreError as error:
            raise storage_error(error) from None

    async def work(
        self, fn: Callable[..., dict[str, Any]], *args: Any, timeout: float
    ) -> dict[str, Any]:
        try:
            answer = await self.workers.run(fn, *args, timeout=timeout + 2.0)
        except WorkerError as error:
            raise ApiError(error.status, error.reason, str(error), error.headers) from None
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

    # Helpers.

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

    @staticmethod
    def client(request: Request) -> str:
        return request.client.host if request.client else "?"

    def throttle(self, request: Request) -> None:
        if not self.heavy.allow(self.client(request)):
            raise ApiError(
                429,
                "rate_limited",
                "too many new games, hints or solves at once; wait a moment",
                {"Retry-After": str(max(1, round(1 / self.limits.heavy_per_second)))},
            )

    def throttle_moves(self, request: Request, game_id: str) -> None:
        """Moves and undos: a token bucket per game and one per client."""
        if not (self.game_moves.allow(game_id) and self.client_moves.allow(self.client(request))):
            raise ApiError(
                429,
                "rate_limited",
                "moves are coming faster than anyone can play; wait a moment",
                {"Retry-After": "1"},
            )

    def _row(self, game_id: str) -> GameRow:
        """On the writer thread: the game, or 404."""
        row = self.store.game(game_id) if len(game_id) <= 64 else None
        if row is None:
            raise ApiError(404, "no_such_game", f"no game with id {game_id!r}")
        return row

    async def row(self, game_id: str) -> GameRow:
        """The game as last committed, read beside the writer (a stale read is harmless: every write
        checks the ply it was based on)."""
        return (await self.read_game(game_id))[0]

    async def read_game(self, game_id: str) -> tuple[GameRow, list[Best]]:
        """The game and its bests from a reader connection in the thread pool, or 404."""
        if len(game_id) > 64:
            raise ApiError(404, "no_such_game", f"no game with id {game_id!r}")
        try:
            row, best = await run_in_threadpool(self.store.game_and_best, game_id)
        except StoreError as error:
            raise storage_error(error) from None
        if row is None:
            raise ApiError(404, "no_such_game", f"no game with id {game_id!r}")
        return row, best

    def ply_of(self, data: dict[str, Any]) -> int | None:
        """The ``ply`` a move or an undo was made at, if the client sent one."""
        ply = data.get("ply")
        if ply is None:
            return None
        if isinstance(ply, bool) or not isinstance(ply, int) or ply < 0:
            raise ApiError(422, "bad_parameter", "ply must be a whole number (the game's ply)")
        return ply

    @staticmethod
    def check_ply(row: GameRow, ply: int | None) -> None:
        if ply is not None and row.plies != ply:
            raise ApiError(
                409,
                "conflict",
                f"the game is at move {row.plies}, not {ply} (changed in another tab?); reload it",
            )

    # Endpoints.

    async def catalog(self, request: Request) -> Response:
        return JSONResponse(
            {name: game.catalog(self.limits) for name, game in games.REGISTRY.items()}
        )

    @staticmethod
    def player(request: Request) -> str | None:
        """The player id the page sends in ``X-Player`` (16–64 URL-safe characters), None when absent."""
        player = request.headers.get("x-player")
        if player is None or player == "":
            return None
        if not PLAYER.fullmatch(player):
            raise ApiError(
                422,
                "bad_player",
                "X-Player must be 16 to 64 letters, digits, '-' or '_' (a random id the page makes)",
            )
        return player

    async def progress(self, request: Request) -> Response:
        """The player's progress (``X-Player``), per game and variant; ``?game=`` narrows it."""
        player = self.player(request)
        game = request.query_params.get("game")
        if game is not None:
            games.adapter(game)
        if player is None:
            return JSONResponse({"player": None, "progress": []})
        try:
            rows = await run_in_threadpool(self.store.progress, player, game)
        except StoreError as error:
            raise storage_error(error) from None
        return JSONResponse({"player": player, "progress": rows})

    async def create(self, request: Request) -> Response:
        player = self.player(request)
        params = await self.body(request)
        if params.get("deal") is not None:  # a shared or restarted deal: exactly the same start
            params = await run_in_threadpool(deals.request_of, params["deal"])
        game = games.adapter(params.get("game"))
        self.throttle(request)
        checked = await run_in_threadpool(game.params, params, self.limits)
        seed = checked.get("seed")
        if seed is None:
            seed = random.SystemRandom().randrange(2**32)
        deal = await game.new(self, checked, seed)
        if player is not None:  # whose progress a win counts in
            deal = dataclasses.replace(deal, options={**deal.options, "player": player})
        row = await self.db(
            lambda: self.store.create_game(
                game.name, deal.variant, deal.board, deal.options, label=deal.label
            )
        )
        await game.created(self, row)
        return JSONResponse(await self.show_state(row), 201)

    async def show_state(self, row: GameRow, extra: dict[str, Any] | None = None) -> dict[str, Any]:
        """The state, drawn in the thread pool (the engine parses the board) with the bests read from the store."""
        best = await self.db(lambda: self.store.best(row.game, row.variant))
        return await run_in_threadpool(self._state_with, row, best, extra)

    def _state_with(
        self, row: GameRow, best: list[Best], extra: dict[str, Any] | None
    ) -> dict[str, Any]:
        """The JSON state of a game: common fields and the game's own ``view``. O(1) in its history."""
        game = games.adapter(row.game)
        state = {
            "id": row.id,
            "game": row.game,
            "variant": row.variant,
            "label": row.label or row.variant,
            "status": row.status,
            "board": row.board,
            "start": row.start,
            "moves": row.moves,
            "moves_counted": row.moves_counted,
            "seconds": round(row.clock(time.time()), 3),
            "running": row.running,
            "paused": row.paused is not None,
            "optimal": row.options.get("optimal"),
            "hints": row.hints,
            "undos": row.undos,
            "autoplay": bool(row.autoplay & 1),
            "analysed": bool(
                row.autoplay & 2
            ),  # Analysis was on (tilegames.web.analysis): no record
            "assisted": row.assisted,
            "plies": row.plies,
            "can_undo": row.plies > 0 and row.status == "playing",
            "best": asdict(best[0]) if best else None,
            "view": game.view(row),
            "deal": game.deal_id(row),
            **game.state(row),
        }
        if row.record is not None:
            state["record"] = row.record.as_json()
        if extra:
            state.update(extra)
        return state

    async def klotski_check(self, request: Request) -> Response:
        """Check a layout as the editor's user types it: the engine's verdict, without solving."""
        data = await self.body(request)
        checked = await run_in_threadpool(games.adapter("klotski").params, data, self.limits)
        return JSONResponse({"ok": True, **checked})

    async def show(self, request: Request) -> Response:
        row, best = await self.read_game(request.path_params["game_id"])
        return JSONResponse(await run_in_threadpool(self._state_with, row, best, None))

    async def delete(self, request: Request) -> Response:
        game_id = request.path_params["game_id"]
        await self.db(lambda: self._row(game_id) and self.store.delete_game(game_id))
        return Response(status_code=204)

    async def move(self, request: Request) -> Response:
        data = await self.body(request)
        if "move" not in data:
            raise ApiError(422, "bad_move", 'the body must be {"move": ...}')
        ply = self.ply_of(data)
        game_id = request.path_params["game_id"]
        row = await self.row(game_id)
        self.throttle_moves(request, row.id)
        for attempt in range(RECHECKS + 1):
            if row.status != "playing":
                raise game_over()
            if row.paused is not None:
                raise paused()
            self.check_ply(row, ply)
            if row.plies >= self.limits.max_plies:
                raise ApiError(
                    409,
                    "too_many_moves",
                    f"this game has reached {self.limits.max_plies} moves; start a new one",
                )
            game = games.adapter(row.game)
            outcome = await run_in_threadpool(game.move, row, data["move"])
            outcome = await game.settle(self, row, outcome)
            try:
                new, best = await self.db(self._commit_move, row, outcome, game.records)
            except Conflict:
                row = await self.row(game_id)
                self.check_ply(row, ply)
                if attempt == RECHECKS:
                    raise ApiError(
                        409,
                        "conflict",
                        "the game kept changing while this move was checked; reload it",
                    ) from None
                continue
            extra = {"last": outcome.extra} if outcome.extra else None
            return JSONResponse(await run_in_threadpool(self._state_with, new, best, extra))
        raise AssertionError("unreachable")  # pragma: no cover

    def _commit_move(
        self, row: GameRow, outcome: games.Outcome, records: tuple[str, ...]
    ) -> tuple[GameRow, list[Best]]:
        """On the writer thread: store a checked move (ply check inside) and read the bests it may have changed."""
        new = self.store.record_move(
            row,
            outcome.text,
            outcome.board,
            outcome.moves,
            won=outcome.won,
            score=outcome.score,
            now=outcome.now,
            options=outcome.options,
            steps=outcome.steps,
            records=records,
        )
        if new.status == "won" and new.options.get("player"):
            self.store.record_progress(new, new.options["player"], score=outcome.score)
        return new, self.store.best(new.game, new.variant)

    async def undo(self, request: Request) -> Response:
        data = await self.body(request)
        ply = self.ply_of(data)
        game_id = request.path_params["game_id"]
        row = await self.row(game_id)
        self.throttle_moves(request, row.id)

        def take_back() -> GameRow:
            current = self._row(game_id)
            if current.status != "playing":
                raise game_over()
            if current.paused is not None:
                raise paused()
            self.check_ply(current, ply)
            new = self.store.undo(current)
            if new is None:
                raise ApiError(409, "nothing_to_undo", "no move to take back")
            return new

        new, best = await self.db(
            lambda: (new := take_back(), self.store.best(new.game, new.variant))
        )
        return JSONResponse(await run_in_threadpool(self._state_with, new, best, None))

    async def pause(self, request: Request) -> Response:
        """Pause: the clock (and the Lianliankan score) stands still; moves are refused until resumed."""
        return await self._set_paused(request, True)

    async def resume(self, request: Request) -> Response:
        """Resume a paused game: the clock runs again from now."""
        return await self._set_paused(request, False)

    async def _set_paused(self, request: Request, pause: bool) -> Response:
        """Both are idempotent (pausing a paused game changes nothing), rate-limited like moves."""
        game_id = request.path_params["game_id"]
        row = await self.row(game_id)
        if row.status != "playing":
            raise game_over()
        self.throttle_moves(request, row.id)

        def write() -> tuple[GameRow, list[Best]]:
            change = self.store.pause if pause else self.store.resume
            new = change(game_id)
            if new is None:
                raise ApiError(404, "no_such_game", f"no game with id {game_id!r}")
            if new.status != "playing":
                raise game_over()
            return new, self.store.best(new.game, new.variant)

        new, best = await self.db(write)
        return JSONResponse(await run_in_threadpool(self._state_with, new, best, None))

    async def hint(self, request: Request) -> Response:
        row = await self.row(request.path_params["game_id"])
        if row.status != "playing":
            raise game_over()
        if row.paused is not None:
            raise paused()
        self.throttle(request)
        hint = await games.adapter(row.game).hint(self, row)
        if hint["move"] is not None:
            await self.db(lambda: self.store.count_help(row.id, hint=True))
        return JSONResponse({"id": row.id, "board": row.board, "hint": hint})

    async def solve(self, request: Request) -> Response:
        row = await self.row(request.path_params["game_id"])
        if row.status != "playing":
            raise game_over()
        if row.paused is not None:
            raise paused()
        self.throttle(request)
        answer = await games.adapter(row.game).solve(self, row)
        await self.db(lambda: self.store.count_help(row.id, autoplay=True))
        return JSONResponse({"id": row.id, "board": row.board, **answer})

    async def best(self, request: Request) -> Response:
        name = request.query_params.get("game")
        if name is not None:
            games.adapter(name)
        best = await self.db(self.store.best, name)
        return JSONResponse({"best": [asdict(b) for b in best]})

    async def health(self, request: Request) -> Response:
        """Ok only when the store can write (a row committed with its fsync), so a full disk reads not-ok."""
        try:
            await asyncio.wrap_future(self.store.submit(self.store.check_writable))
            version = await asyncio.wrap_future(self.store.submit(lambda: self.store.version))
        except StoreError as error:
            problem = storage_error(error)
            return JSONResponse(
                {"ok": False, "store": problem.code, "message": problem.message}, 503
            )
        return JSONResponse({"ok": True, "schema": version, "store": "ok"})

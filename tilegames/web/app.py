"""The arcade's ASGI app: the JSON API of :mod:`tilegames.web.arcade`, the static page, the OpenAPI document."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tilegames.store import Store
from tilegames.web import analysis, games, tasks
from tilegames.web.arcade import ApiError, Arcade
from tilegames.web.assets import VersionedStatic, index_page
from tilegames.web.errors import CatchAll, json_error
from tilegames.web.games import BadRequest, IllegalMove
from tilegames.web.limits import ServerLimits
from tilegames.web.openapi import OPENAPI
from tilegames.web.security import SameOriginWrites, SecurityHeaders, TrustedHosts
from tilegames.web.workers import Workers

STATIC = Path(str(resources.files("tilegames.web") / "static"))


class ServerTiming:
    """Adds ``Server-Timing: app;dur=<ms>`` to every answer: the time spent inside the server (the load
    benchmark reports it beside the latency seen by the client, to tell queueing in the server from the rest).
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        began = time.perf_counter()

        async def timed(message: Message) -> None:
            if message["type"] == "http.response.start":
                duration = (time.perf_counter() - began) * 1000
                headers = list(message.get("headers", []))
                headers.append((b"server-timing", f"app;dur={duration:.2f}".encode()))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, timed)


async def _api_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, ApiError)
    return json_error(error.status, error.code, error.message, error.headers)


async def _bad_request(request: Request, error: Exception) -> Response:
    code = getattr(error, "code", "bad_request")
    return json_error(422, code, str(error))


async def _http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    return json_error(error.status_code, "http_error", str(error.detail), error.headers)


def create_app(
    db: str | Path | None = None,
    *,
    limits: ServerLimits | None = None,
    store: Store | None = None,
    workers: Workers | None = None,
    warm: bool = True,
    allowed_hosts: Iterable[str] | None = None,
) -> Starlette:
    """Build the arcade: ``db`` is the SQLite file (default in the user data directory).

    ``warm`` starts the worker processes and runs each engine once before serving, so the first deal is quick.
    ``allowed_hosts`` are the ``Host`` names answered (``tilegames serve`` passes the local names and the bound
    address); None answers any (a test client, an app mounted elsewhere behind its own check).
    """
    limits = limits or ServerLimits()
    owned = store is None  # a store the app opens, the app closes when it stops
    store = store or Store(db)
    workers = workers or Workers(limits.workers, queue=limits.heavy_queue, warmup=tasks.warm)
    arcade = Arcade(store, limits, workers)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if warm:
            # Compile (or load) the engines' kernels before serving: on a fresh install that takes
            # seconds, which must not be charged to the first player's time limit.
            await run_in_threadpool(games.warm)
            warming = [arcade.work(tasks.warm, timeout=180.0) for _ in range(workers.processes)]
            await asyncio.gather(*warming, return_exceptions=True)
            arcade.in_background(arcade.work(tasks.slide_prepare, 180.0, timeout=180.0))
        yield
        for task in list(arcade.background):
            task.cancel()
        await run_in_threadpool(workers.close)
        if owned:
            await run_in_threadpool(store.close)

    static = VersionedStatic(directory=STATIC)

    async def index(request: Request) -> Response:
        return index_page(static, "index.html")

    async def docs(request: Request) -> Response:
        return index_page(static, "docs.html")

    async def favicon(request: Request) -> Response:
        return FileResponse(STATIC / "icon.svg", media_type="image/svg+xml")

    async def openapi(request: Request) -> Response:
        return JSONResponse(OPENAPI)

    routes = [
        Route("/", index),
        Route("/docs", docs),
        Route("/openapi.json", openapi),
        Route("/favicon.ico", favicon),
        Route("/api/health", arcade.health),
        Route("/api/catalog", arcade.catalog),
        Route("/api/best", arcade.best),
        Route("/api/progress", arcade.progress),
        Route("/api/games", arcade.create, methods=["POST"]),
        Route("/api/klotski/check", arcade.klotski_check, methods=["POST"]),
        Route("/api/games/{game_id}", arcade.show, methods=["GET"]),
        Route("/api/games/{game_id}", arcade.delete, methods=["DELETE"]),
        Route("/api/games/{game_id}/moves", arcade.move, methods=["POST"]),
        Route("/api/games/{game_id}/undo", arcade.undo, methods=["POST"]),
        Route("/api/games/{game_id}/hint", arcade.hint, methods=["POST"]),
        Route("/api/games/{game_id}/solve", arcade.solve, methods=["POST"]),
        Route("/api/games/{game_id}/pause", arcade.pause, methods=["POST"]),
        Route("/api/games/{game_id}/resume", arcade.resume, methods=["POST"]),
        analysis.route(arcade),
        Mount("/static", static, name="static"),
    ]
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[
            Middleware(SecurityHeaders),
            Middleware(CatchAll),
            *([] if allowed_hosts is None else [Middleware(TrustedHosts, allowed=allowed_hosts)]),
            Middleware(
                SameOriginWrites, max_body=limits.max_body, body_seconds=limits.body_seconds
            ),
            Middleware(ServerTiming),
        ],
        exception_handlers={
            ApiError: _api_error,
            BadRequest: _bad_request,
            HTTPException: _http_error,
        },
    )
    app.state.arcade = arcade
    return app


__all__ = ["ApiError", "Arcade", "IllegalMove", "create_app"]

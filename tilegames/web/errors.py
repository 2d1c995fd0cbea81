"""Every error the server answers is ``{"error": {"code": ..., "message": ...}}`` JSON, whatever failed.

Three pieces: :func:`json_error` renders an error safely (ASCII-escaped, so a lone surrogate echoed from the
request cannot break the rendering); :class:`CatchAll` turns any exception that escapes the app into a 500 of
that shape, logged once; :class:`OncePerMinute` keeps a repeated log line (an error a flood of clients trigger)
to one line a minute with a count of the ones left out.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Mapping
from typing import Any

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

LOG = logging.getLogger("tilegames.web")


class SafeJSONResponse(JSONResponse):
    """JSON with every non-ASCII character escaped: any Python string renders, lone surrogates included."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=True, allow_nan=False).encode("ascii")


def json_error(
    status: int, code: str, message: str, headers: Mapping[str, str] | None = None
) -> SafeJSONResponse:
    """The one shape of an error answer."""
    return SafeJSONResponse({"error": {"code": code, "message": message}}, status, headers=headers)


class CatchAll:
    """ASGI middleware: an exception no handler took becomes a JSON 500 (if nothing was sent yet), logged once
    here and not re-raised (so the server does not log it a second time)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def watched(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, watched)
        except Exception as error:
            LOG.error(
                "%s on %s %s",
                type(error).__name__,
                scope.get("method"),
                scope.get("path"),
                exc_info=error,
            )
            if not started:
                answer = json_error(
                    500, "internal_error", "the server failed on this request (it is logged)"
                )
                await answer(scope, receive, send)


class OncePerMinute(logging.Filter):
    """Lets one record per kind (logger, message template, exception type) through per ``period`` seconds; the
    next one let through says how many were left out. A flood of failing connections then costs a line a
    minute, not megabytes."""

    def __init__(self, period: float = 60.0, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.period = period
        self.clock = clock
        self._last: dict[tuple[str, str, str], tuple[float, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        kind = record.exc_info[0].__name__ if record.exc_info and record.exc_info[0] else ""
        key = (record.name, str(record.msg), kind)
        now = self.clock()
        last, dropped = self._last.get(key, (None, 0))
        if last is not None and now - last < self.period:
            self._last[key] = (last, dropped + 1)
            return False
        if len(self._last) > 1000:
            self._last.clear()
        self._last[key] = (now, 0)
        if dropped:
            record.msg = (
                f"{record.msg} [{dropped} more like this in the last {self.period:g} s left out]"
            )
        return True


def quiet_repeats(
    names: tuple[str, ...] = ("uvicorn.error", "asyncio", "tilegames.web"),
) -> OncePerMinute:
    """Install one :class:`OncePerMinute` on the server's loggers (called once by ``tilegames serve``)."""
    repeats = OncePerMinute()
    for name in names:
        logging.getLogger(name).addFilter(repeats)
    return repeats

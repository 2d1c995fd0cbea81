"""uvicorn's h11 protocol with a deadline on each request's head and JSON refusals, and the connection cap.

uvicorn times out an idle kept-alive connection but not a client that sends its request line and headers a
byte at a time: thousands of those hold descriptors for as long as they like. Here a request's head must be
complete within ``header_seconds`` of the connection (or of its first byte after a kept-alive answer), or the
connection is closed. The body has its own deadline in the app (tilegames.web.security). The two answers
uvicorn itself gives, 400 to a request it cannot parse and 503 past the connection cap, are JSON here too.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import resource
from typing import Any

import h11
from starlette.types import Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

from tilegames.web.errors import json_error

LOG = logging.getLogger("tilegames.web")


class HeadDeadline(H11Protocol):
    """H11Protocol closing a connection whose request head is not complete within :attr:`header_seconds`."""

    header_seconds: float = 10.0
    _head_timer: asyncio.TimerHandle | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The cap is checked here rather than by uvicorn, to answer it in JSON.
        cap, self.limit_concurrency = self.limit_concurrency, None
        if cap is not None:
            inner, connections, tasks = self.app, self.connections, self.tasks

            async def capped(scope: Scope, receive: Receive, send: Send) -> None:
                if scope["type"] == "http" and (len(connections) >= cap or len(tasks) > cap):
                    LOG.warning("over the cap of %d connections: answered 503", cap)
                    message = "the server has too many connections; try again in a moment"
                    busy = json_error(
                        503, "busy", message, {"Retry-After": "1", "Connection": "close"}
                    )
                    await busy(scope, receive, send)
                    return
                await inner(scope, receive, send)

            self.app = capped

    def send_400_response(self, msg: str) -> None:
        body = json.dumps({"error": {"code": "bad_http", "message": msg}}).encode()
        headers = [(b"content-type", b"application/json"), (b"connection", b"close")]
        for event in (
            h11.Response(status_code=400, headers=headers, reason=b"Bad Request"),
            h11.Data(data=body),
            h11.EndOfMessage(),
        ):
            self.transport.write(self.conn.send(event))
        self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self._head_timer is None and self.conn.their_state is h11.IDLE:
            self._arm()  # the first byte of the next request on a kept-alive connection
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:
            self._disarm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _arm(self) -> None:
        self._disarm()
        self._head_timer = self.loop.call_later(self.header_seconds, self._head_timeout)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_timeout(self) -> None:
        self._head_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()


def head_deadline(seconds: float) -> type[HeadDeadline]:
    """The protocol class to pass as uvicorn's ``http=``, with this deadline."""
    return type("HeadDeadline", (HeadDeadline,), {"header_seconds": seconds})


def connection_cap(requested: int | None) -> int:
    """The most connections to serve at once: below the descriptor limit (raised to its hard limit first), so
    a flood is answered 503 by uvicorn rather than failing ``accept()`` in a loop.

    ``requested`` None is half the descriptors, at most 1024; a request above the limit is lowered to it.
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        target = 65536 if hard == resource.RLIM_INFINITY else min(hard, 65536)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, target), hard))
            soft = max(soft, target)
    room = max(8, soft - 128)  # the database, its log, the worker pipes, the log file...
    return min(room, requested if requested is not None else min(1024, soft // 2))


def uvicorn_options(
    *, trusted_proxies: list[str], max_connections: int | None, read_seconds: float
) -> dict[str, Any]:
    """The server's edge settings for ``uvicorn.run``: proxy headers only from ``trusted_proxies`` (none by
    default: uvicorn would trust 127.0.0.1), the connection cap, the head and keep-alive timeouts."""
    return {
        "proxy_headers": bool(trusted_proxies),
        "forwarded_allow_ips": trusted_proxies or None,
        "limit_concurrency": connection_cap(max_connections),
        "timeout_keep_alive": 5,
        "h11_max_incomplete_event_size": 16 * 1024,
        "http": head_deadline(read_seconds),
        "server_header": False,
    }

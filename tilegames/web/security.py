"""What the server trusts from the network: the Host it is called by, where writes come from, request bodies.

ASGI middlewares, outermost first in the app:

- :class:`SecurityHeaders` puts a strict CSP and the usual hardening headers on every answer, and marks which
  client is waiting (for the worker pool's one-job-per-client rule).
- :class:`TrustedHosts` answers 400 to a ``Host`` not on the allow-list (DNS rebinding reaches a local server
  under a foreign name).
- :class:`SameOriginWrites` refuses cross-site writes (403), writes not typed JSON (415), and reads a write's body
  under a size limit (413) and a deadline (408), checking it parses (400) before the app sees it.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tilegames.web.errors import json_error
from tilegames.web.workers import REQUESTER, Requester

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)
HEADERS = (
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
)
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


class SecurityHeaders:
    """Adds :data:`HEADERS` to every answer; sets :data:`REQUESTER` to the client for the request's length."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def hardened(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(name, value) for name, value in HEADERS if name not in present]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        client = scope.get("client")
        requester = Requester(client[0] if client else "?")
        token = REQUESTER.set(requester)
        try:
            await self.app(scope, receive, hardened)
        finally:
            requester.active = False
            REQUESTER.reset(token)


def split_host(value: str) -> tuple[str, int | None]:
    """``"[::1]:8000"`` → ``("::1", 8000)``, ``"Example.org"`` → ``("example.org", None)``."""
    value = value.strip().lower()
    if value.startswith("["):
        host, _, rest = value[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else ""
    elif value.count(":") == 1:
        host, _, port = value.partition(":")
    else:
        host, port = value, ""
    return host.rstrip("."), int(port) if port.isdigit() and len(port) <= 5 else None


class TrustedHosts:
    """Answers only to the host names in ``allowed`` (any port); ``"*"`` in the list allows every name."""

    def __init__(self, app: ASGIApp, allowed: Iterable[str]) -> None:
        self.app = app
        self.allowed = frozenset(split_host(name)[0] for name in allowed)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or "*" in self.allowed:
            await self.app(scope, receive, send)
            return
        host = Headers(scope=scope).get("host", "")
        if split_host(host)[0] not in self.allowed:
            shown = host[:80].encode("unicode_escape").decode("ascii")
            answer = json_error(
                400,
                "bad_host",
                f"this server does not answer to the host {shown!r};"
                " start it with --allowed-host NAME to allow a name",
            )
            await answer(scope, receive, send)
            return
        await self.app(scope, receive, send)


def same_origin(origin: str, host: str, scheme: str) -> bool:
    """Whether a browser's ``Origin`` is the server itself as the request's ``Host`` names it."""
    try:
        parts = urlsplit(origin)
        origin_port = parts.port or DEFAULT_PORTS.get(parts.scheme)
    except ValueError:
        return False
    name, port = split_host(host)
    return (parts.hostname or "") == name and origin_port == (port or DEFAULT_PORTS.get(scheme))


class SameOriginWrites:
    """Guards every write (POST, PUT, PATCH, DELETE): same origin only, JSON only, the body bounded in size and
    time and parsed once here, so the app never meets a body that cannot be read or decoded."""

    def __init__(self, app: ASGIApp, max_body: int, body_seconds: float) -> None:
        self.app = app
        self.max_body = max_body
        self.body_seconds = body_seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in WRITES:
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        refusal = self._refusal(headers, scope)
        if refusal is not None:
            await json_error(*refusal)(scope, receive, send)
            return
        try:
            body = await self._read(headers, receive)
        except _Refused as refused:
            await json_error(*refused.args)(scope, receive, send)
            return
        if body is None:  # the client went away
            return
        refusal = self._check_body(headers, body)
        if refusal is not None:
            await json_error(*refusal)(scope, receive, send)
            return
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    def _refusal(self, headers: Headers, scope: Scope) -> tuple[int, str, str] | None:
        site = headers.get("sec-fetch-site")
        if site is not None and site.lower() not in ("same-origin", "none"):
            return 403, "cross_site", f"a write from another site ({site}) is refused"
        origin = headers.get("origin")
        if origin is not None and not same_origin(
            origin, headers.get("host", ""), scope.get("scheme", "http")
        ):
            return 403, "cross_site", "a write from another origin is refused"
        # Every write says it is JSON, with or without a body (undo, hint, solve, delete): a browser sends
        # that type cross-site only after a CORS preflight, which this server never grants.
        kind = headers.get("content-type")
        if kind is None or kind.split(";")[0].strip().lower() != "application/json":
            return 415, "not_json", "a write must be sent as JSON (Content-Type: application/json)"
        declared = headers.get("content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_body):
            return 413, "body_too_large", f"request body over {self.max_body} bytes"
        return None

    async def _read(self, headers: Headers, receive: Receive) -> bytes | None:
        chunks: list[bytes] = []
        size = 0
        try:
            async with asyncio.timeout(self.body_seconds):
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return None
                    chunk = message.get("body", b"")
                    size += len(chunk)
                    if size > self.max_body:
                        raise _Refused(
                            413, "body_too_large", f"request body over {self.max_body} bytes"
                        )
                    chunks.append(chunk)
                    if not message.get("more_body", False):
                        return b"".join(chunks)
        except TimeoutError:
            raise _Refused(
                408,
                "body_timeout",
                f"the request body did not arrive within {self.body_seconds:g} s",
            ) from None

    def _check_body(self, headers: Headers, body: bytes) -> tuple[int, str, str] | None:
        if not body.strip():
            return None
        try:
            json.loads(body)
        except RecursionError:
            return 400, "bad_json", "the body is not valid JSON: nested too deeply"
        except json.JSONDecodeError:
            return None  # the app says where (see Arcade.body)
        except UnicodeDecodeError:
            return None
        except ValueError:  # e.g. an integer of thousands of digits
            return 400, "bad_json", "the body is not valid JSON: a number in it is too long"
        return None


class _Refused(Exception):
    """(status, code, message) of a refusal found while reading the body."""

"""The server's edge as uvicorn runs it (a real `tilegames serve`): proxy headers, slow clients, the connection
cap, headers on the wire."""

from __future__ import annotations

import json
import re
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Iterator

import pytest

from tilegames.web.launch import ServerProcess
from tilegames.web.security import CSP

READ_TIMEOUT = 1.0
MAX_CONNECTIONS = 6


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[ServerProcess]:
    options = ("--read-timeout", str(READ_TIMEOUT), "--max-connections", str(MAX_CONNECTIONS))
    server = ServerProcess(tmp_path_factory.mktemp("edge") / "edge.sqlite3", options=options)
    server.start()
    yield server
    server.kill()


def call(
    server: ServerProcess, path: str, body: dict | None = None, headers: dict | None = None
) -> tuple[int, dict, dict]:
    """(status, JSON answer, headers) of one request."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{server.url}{path}", data=data, headers=headers or {})
    if data is not None:
        request.add_header("content-type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.load(answer), lower(answer.headers)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error), lower(error.headers)


def lower(headers) -> dict[str, str]:
    return {name.lower(): value for name, value in headers.items()}


def test_forwarded_headers_are_not_believed_by_default(server):
    """Forty heavy requests in a row, each with a forged X-Forwarded-For. A new game takes a token from the
    client's bucket (a burst of 30) before its body is checked, so an out-of-range width costs a token and no
    worker: believed, the forgeries would be forty clients with a full bucket each (forty 422s); not believed,
    they are one client, and the bucket runs dry (429s). Sequential and cheap, so a loaded machine cannot blur it
    (a concurrent version met the connection cap's 503s instead)."""
    statuses, codes = [], []
    for n in range(40):
        forged = {"x-forwarded-for": f"203.0.113.{n}", "forwarded": f"for=203.0.113.{n}"}
        status, answer, _ = call(server, "/api/games", {"game": "slide", "width": 99}, forged)
        statuses.append(status)
        codes.append(answer["error"]["code"])
    assert codes[0] == "out_of_range", (statuses, codes)
    assert 429 in statuses and "rate_limited" in codes, (statuses, codes)


def test_headers_on_the_wire_and_foreign_hosts_refused(server):
    status, _, headers = call(server, "/api/health")
    assert status == 200 and headers["content-security-policy"] == CSP
    assert headers["x-frame-options"] == "DENY" and "server" not in headers
    status, answer, headers = call(server, "/api/health", headers={"host": "rebound.example"})
    assert status == 400 and answer["error"]["code"] == "bad_host"
    assert headers["x-content-type-options"] == "nosniff"


def test_a_slow_header_client_is_cut_off(server):
    with socket.create_connection(("127.0.0.1", server.port)) as slow:
        slow.sendall(b"GET /api/health HTTP/1.1\r\nHost: local")
        slow.settimeout(READ_TIMEOUT + 10)
        began = time.monotonic()
        assert slow.recv(100) == b""  # closed by the server
        assert time.monotonic() - began < READ_TIMEOUT + 5


def test_a_slow_body_gets_a_408(server):
    with socket.create_connection(("127.0.0.1", server.port)) as slow:
        slow.sendall(
            b"POST /api/games HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
            b'Content-Length: 40\r\n\r\n{"game":'
        )
        slow.settimeout(READ_TIMEOUT + 10)
        answer = b""
        while b"\r\n\r\n" not in answer or not answer.endswith(b"}}"):
            chunk = slow.recv(4096)
            if not chunk:
                break
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408")
    assert json.loads(body)["error"]["code"] == "body_timeout"


def test_connections_past_the_cap_get_a_json_503_and_the_server_recovers(server):
    held = []
    try:
        for _ in range(MAX_CONNECTIONS):
            held.append(socket.create_connection(("127.0.0.1", server.port)))
            held[-1].sendall(b"GET / HTTP/1.1\r\n")
        time.sleep(0.2)
        head, body = raw(server, b"GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 503") and b"retry-after: 1" in head.lower()
        assert json.loads(body)["error"]["code"] == "busy"
    finally:
        for connection in held:
            connection.close()
    time.sleep(READ_TIMEOUT)
    assert call(server, "/api/health")[0] == 200


def test_a_request_uvicorn_cannot_parse_gets_a_json_400(server):
    head, body = raw(server, b"GET /api/health HTTP/1.1\r\nHost: localhost\r\nBad Header\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400")
    assert json.loads(body)["error"]["code"] == "bad_http"


def raw(server: ServerProcess, request: bytes) -> tuple[bytes, bytes]:
    """(head, body) of the answer to a request sent as raw bytes, read until the server closes."""
    with socket.create_connection(("127.0.0.1", server.port)) as connection:
        connection.sendall(request)
        connection.settimeout(10)
        answer = b""
        while chunk := connection.recv(4096):
            answer += chunk
            if b"\r\n\r\n" in answer and answer.rstrip().endswith(b"}"):
                break
    head, _, body = answer.partition(b"\r\n\r\n")
    return head, body


def test_the_access_log_has_a_timed_line_per_answer_and_is_off_by_default(server, tmp_path):
    call(server, "/api/health")
    assert "GET /api/health" not in server.log.read_text()
    with ServerProcess(tmp_path / "logged.sqlite3", options=("--access-log",)) as logged:
        assert call(logged, "/api/health")[0] == 200
        assert call(logged, "/api/nothing-here")[0] == 404
        deadline = time.monotonic() + 10
        while "nothing-here" not in logged.log.read_text() and time.monotonic() < deadline:
            time.sleep(0.05)
    lines = logged.log.read_text().splitlines()
    answered = [line for line in lines if '"GET /api/' in line]
    assert len(answered) >= 2
    assert all(re.match(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} ", line) for line in answered)
    assert any('"GET /api/health HTTP/1.1" 200' in line for line in answered)
    assert any('"GET /api/nothing-here HTTP/1.1" 404' in line for line in answered)

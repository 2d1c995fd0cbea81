"""What the app trusts (Host, Origin, content types), its headers and caching, and that every error is JSON.

In-process (TestClient) where the behaviour is the app's; tests/web/test_edge.py has what lives in uvicorn.
"""

from __future__ import annotations

import logging
import re
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from tilegames.web import create_app
from tilegames.web.assets import IMMUTABLE
from tilegames.web.errors import OncePerMinute
from tilegames.web.security import CSP, same_origin, split_host

from .conftest import GENEROUS

JSON = {"content-type": "application/json"}


@pytest.fixture(scope="module")
def guarded(tmp_path_factory):
    """A client of an app that answers only to localhost names (as `tilegames serve` builds it)."""
    db = tmp_path_factory.mktemp("security") / "arcade.sqlite3"
    app = create_app(db, limits=GENEROUS, warm=False, allowed_hosts=["localhost", "127.0.0.1"])
    with TestClient(app, base_url="http://localhost:8000", raise_server_exceptions=False) as client:
        yield client


def error_code(answer) -> str:
    assert answer.headers["content-type"].startswith("application/json"), answer.text
    return answer.json()["error"]["code"]


def new_game(client) -> str:
    answer = client.post("/api/games", json={"game": "klotski", "layout": "横刀立马"})
    assert answer.status_code == 201, answer.text
    return answer.json()["id"]


def test_security_headers_on_pages_api_answers_and_errors(guarded):
    for answer in (
        guarded.get("/"),
        guarded.get("/api/catalog"),
        guarded.get("/api/games/nope"),
        guarded.post("/api/games", content=b"x", headers={"content-type": "text/plain"}),
    ):
        assert answer.headers["content-security-policy"] == CSP
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["x-frame-options"] == "DENY"
        assert answer.headers["referrer-policy"] == "same-origin"
    assert "frame-ancestors 'none'" in CSP and "script-src 'self';" in CSP


def test_unknown_host_is_refused_and_local_names_are_answered(guarded):
    for host in ("evil.example", "localhost.evil.example", "127.0.0.2", ""):
        answer = guarded.get("/api/health", headers={"host": host})
        assert answer.status_code == 400 and error_code(answer) == "bad_host", host
    for host in ("localhost", "localhost:8000", "LOCALHOST.", "127.0.0.1:9"):
        assert guarded.get("/api/health", headers={"host": host}).status_code == 200, host


def test_cross_site_writes_are_refused(guarded):
    game = new_game(guarded)
    for headers in (
        {"origin": "http://evil.example"},
        {"origin": "http://localhost:9999"},  # another port is another origin
        {"origin": "https://localhost"},
        {"origin": "null"},
        {"sec-fetch-site": "cross-site"},
        {"sec-fetch-site": "same-site"},
    ):
        answer = guarded.post(f"/api/games/{game}/moves", json={"move": "G:D"}, headers=headers)
        assert answer.status_code == 403 and error_code(answer) == "cross_site", headers
        answer = guarded.delete(f"/api/games/{game}", headers=headers)
        assert answer.status_code == 403, headers
    assert guarded.get(f"/api/games/{game}").json()["plies"] == 0
    same = {"origin": "http://localhost:8000", "sec-fetch-site": "same-origin"}
    answer = guarded.post(f"/api/games/{game}/moves", json={"move": "G:D"}, headers=same)
    assert answer.status_code == 200 and answer.json()["plies"] == 1


def test_writes_must_be_json(guarded):
    game = new_game(guarded)
    for kind, body in (
        ("text/plain", b'{"move": "G:D"}'),
        ("application/x-www-form-urlencoded", b"move=G%3AD"),
        ("multipart/form-data; boundary=x", b"--x--"),
    ):
        answer = guarded.post(
            f"/api/games/{game}/moves", content=body, headers={"content-type": kind}
        )
        assert answer.status_code == 415 and error_code(answer) == "not_json", kind
    answer = guarded.post(f"/api/games/{game}/moves", content=b'{"move": "G:D"}')
    assert answer.status_code == 415  # a body with no content type at all
    assert guarded.get(f"/api/games/{game}").json()["plies"] == 0
    answer = guarded.post(
        f"/api/games/{game}/moves",
        content=b'{"move": "G:D"}',
        headers={"content-type": "application/json; charset=utf-8"},
    )
    assert answer.status_code == 200
    # A write without a body still says it is JSON: undo, hint, solve, delete (issue 12 §3).
    for method, path in (
        ("POST", f"/api/games/{game}/undo"),
        ("POST", f"/api/games/{game}/hint"),
        ("POST", f"/api/games/{game}/solve"),
        ("DELETE", f"/api/games/{game}"),
    ):
        answer = guarded.request(method, path)
        assert answer.status_code == 415 and error_code(answer) == "not_json", path
        typed = guarded.request(method, path, content=b"", headers={"content-type": "text/plain"})
        assert typed.status_code == 415, path
    assert guarded.get(f"/api/games/{game}").json()["plies"] == 1  # nothing was undone
    assert guarded.post(f"/api/games/{game}/undo", headers=JSON).status_code == 200
    assert guarded.post(f"/api/games/{game}/hint", json={}).status_code == 200


def test_hostile_bodies_get_json_errors_not_500s(guarded):
    game = new_game(guarded)
    moves = f"/api/games/{game}/moves"
    deep = guarded.post(moves, content=b"[" * 5000, headers=JSON)
    assert deep.status_code == 400 and error_code(deep) == "bad_json"
    huge = guarded.post(moves, content=b'{"move": ' + b"7" * 5000 + b"}", headers=JSON)
    assert huge.status_code == 400 and error_code(huge) == "bad_json"
    big = b"7" * 4300  # parses, but echoing it in a message takes care
    for body in (
        b'{"move": ' + big + b"}",
        b'{"game": "slide", "width": ' + big + b', "height": 3}',
        b'{"game": "slide", "width": 3, "height": 3, "seed": -' + big + b"}",
        b'{"game": "link", "width": 6, "height": 4, "kinds": ' + big + b"}",
    ):
        path = moves if b"move" in body else "/api/games"
        answer = guarded.post(path, content=body, headers=JSON)
        assert 400 <= answer.status_code < 500 and error_code(answer), body[:40]
    lone = guarded.post(moves, content=b'{"move": "B:\\ud800"}', headers=JSON)
    assert 400 <= lone.status_code < 500 and lone.json()["error"]["message"]
    assert "\\ud800" in lone.text  # echoed, escaped
    created = guarded.post("/api/games", content=b'{"game": "\\udfff"}', headers=JSON)
    assert created.status_code == 422 and error_code(created) == "unknown_game"
    assert guarded.get(f"/api/games/{game}").json()["plies"] == 0


def test_unknown_failures_are_a_json_500_logged_once(tmp_path, caplog):
    app = create_app(tmp_path / "a.sqlite3", limits=GENEROUS, warm=False)

    def broken(*args: object) -> None:
        raise RuntimeError("the disk caught fire")

    with TestClient(app, raise_server_exceptions=False) as client:
        app.state.arcade.store.submit = broken  # the store failing in a way nobody foresaw
        with caplog.at_level(logging.ERROR):
            answer = client.get("/api/best")
    assert answer.status_code == 500 and error_code(answer) == "internal_error"
    assert "fire" not in answer.text  # the details go to the log, not to the client
    logged = [r for r in caplog.records if r.exc_info and "fire" in str(r.exc_info[1])]
    assert len(logged) == 1


def test_assets_are_versioned_and_cached_for_a_year_the_page_never(guarded):
    page = guarded.get("/")
    assert page.headers["cache-control"] == "no-cache"
    assets = re.findall(r'(?:src|href)="(/static/[^"]+)"', page.text)
    assert assets and all(re.search(r"\?v=[0-9a-f]{12}$", a) for a in assets), assets
    for asset in assets:
        answer = guarded.get(asset)
        assert answer.status_code == 200 and answer.headers["cache-control"] == IMMUTABLE
        stale = guarded.get(asset.split("?")[0] + "?v=000000000000")
        assert stale.headers["cache-control"] == "no-cache"
        plain = guarded.get(asset.split("?")[0])
        assert plain.headers["cache-control"] == "no-cache"
        again = guarded.get(asset.split("?")[0], headers={"if-none-match": plain.headers["etag"]})
        assert again.status_code == 304


def test_split_host_and_same_origin():
    assert split_host("[::1]:8000") == ("::1", 8000)
    assert split_host("Example.ORG.") == ("example.org", None)
    assert split_host("::1") == ("::1", None)
    assert same_origin("http://localhost:8000", "localhost:8000", "http")
    assert same_origin("http://example.org", "example.org", "http")
    assert not same_origin("http://example.org", "example.org", "https")
    assert not same_origin("http://[::1", "localhost", "http")


def test_a_repeated_log_line_is_let_through_once_a_minute():
    now = [0.0]
    repeats = OncePerMinute(clock=lambda: now[0])
    logger = logging.getLogger("tests.repeats")
    seen: list[str] = []

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(record.getMessage())

    handler = Collect()
    logger.addHandler(handler)
    logger.addFilter(repeats)
    logger.propagate = False
    try:
        for _ in range(1000):
            logger.error("accept failed: %s", "too many open files")
        logger.error("another kind")
        now[0] = 61.0
        logger.error("accept failed: %s", "too many open files")
    finally:
        logger.removeHandler(handler)
        logger.removeFilter(repeats)
    assert seen[0] == "accept failed: too many open files"
    assert seen[1] == "another kind"
    assert len(seen) == 3 and "999 more like this" in seen[2]

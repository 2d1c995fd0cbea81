"""A test client over a fresh database, on each backend (SQLite, and PostgreSQL in a throwaway cluster); the
worker pool is real (processes), started once per module."""

from __future__ import annotations

import warnings
from collections.abc import Callable

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from tilegames.store import Store, open_store
from tilegames.web import create_app
from tilegames.web.limits import ServerLimits

# Cold numba caches (a fresh CI machine) make the first solve of each engine compile for seconds.
GENEROUS = ServerLimits(
    heavy_burst=10_000,
    move_burst=10_000,
    client_move_burst=100_000,
    workers=1,
    solve_seconds=120.0,
    deal_seconds=120.0,
)


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def backend(request) -> str:
    """Which database the store and API suites run on: each test runs on both."""
    return request.param


@pytest.fixture(scope="module")
def fresh_db(backend, tmp_path_factory, request) -> Callable[[], str]:
    """``fresh_db()``: a ``--db`` value naming an empty database of the backend (a new file, or the cluster's
    database dropped and made again)."""
    if backend == "sqlite":
        return lambda: str(tmp_path_factory.mktemp("db") / "arcade.sqlite3")
    pg = request.getfixturevalue("cluster")

    def make() -> str:
        pg.reset()
        return pg.url

    return make


@pytest.fixture(scope="module")
def arcade(fresh_db):
    """(client, store) of an app with generous rate limits."""
    store: Store = open_store(fresh_db())
    app = create_app(store=store, limits=GENEROUS, warm=False)
    with TestClient(app) as client:
        yield client, store
    store.close()


@pytest.fixture
def client(arcade):
    return arcade[0]


@pytest.fixture
def store(arcade):
    return arcade[1]

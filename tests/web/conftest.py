"""A test client over a fresh database; the worker pool is real (processes), started once per module."""

from __future__ import annotations

import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from tilegames.store import Store
from tilegames.web import create_app
from tilegames.web.limits import Limits

# Cold numba caches (a fresh CI machine) make the first solve of each engine compile for seconds.
GENEROUS = Limits(
    heavy_burst=10_000,
    move_burst=10_000,
    client_move_burst=100_000,
    workers=1,
    solve_seconds=120.0,
    deal_seconds=120.0,
)


@pytest.fixture(scope="module")
def arcade(tmp_path_factory):
    """(client, store) of an app with generous rate limits."""
    store = Store(tmp_path_factory.mktemp("web") / "arcade.sqlite3")
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

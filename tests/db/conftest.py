"""A throwaway PostgreSQL cluster per test module (tests/pgcluster.py), and a helper for old store files."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tilegames.store import Store


def _load_pgcluster():  # tests/ is not a package; load the shared fixture module by path
    name = "tilegames_tests_pgcluster"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            name, Path(__file__).parents[1] / "pgcluster.py"
        )
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


pgcluster = _load_pgcluster()


@pytest.fixture(scope="module")
def cluster() -> Iterator[object]:
    """A running cluster; skipped (loudly) only when PostgreSQL cannot be run here at all."""
    try:
        with pgcluster.PostgresCluster() as pg:
            yield pg
    except pgcluster.ClusterUnavailable as error:
        pytest.skip(f"NO POSTGRESQL TESTS: {error}")


@pytest.fixture
def pg(cluster):
    """The cluster with an empty ``tilegames`` database."""
    cluster.reset()
    return cluster


@pytest.fixture
def old_store():
    """``old_store(path, version=2)``: see :func:`old_store_file`."""
    return old_store_file


def old_store_file(path: Path, *, version: int = 2, games: int = 3) -> Path:
    """A database made by today's tilegames.store.Store at schema ``version``: games with moves (and, at
    version 2, a won game with its result and a hint)."""
    store = Store(path, upto=version)
    try:
        for number in range(games):
            row = store.create_game("slide", "3x3", "1 2 3/4 5 6/7 0 8", {"seed": number})
            row = store.record_move(row, "R", "1 2 3/4 5 6/0 7 8", 1, now=1000.0 + number)
            row = store.record_move(row, "L", "1 2 3/4 5 6/7 0 8", 2, now=1001.0 + number)
            if version >= 2 and number == 0:
                store.count_help(row.id, hint=True)
                row = store.game(row.id)
                store.record_move(row, "L", "1 2 3/4 5 6/7 8 0", 3, won=True, score=90, now=1003.0)
    finally:
        store.close()
    return path

"""Fixtures more than one test folder uses: a throwaway PostgreSQL cluster (tests/pgcluster.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.pgcluster import ClusterUnavailable, PostgresCluster


@pytest.fixture(scope="module")
def cluster() -> Iterator[PostgresCluster]:
    """A running cluster for the module; skipped (loudly) only where PostgreSQL cannot run at all."""
    try:
        with PostgresCluster() as pg:
            yield pg
    except ClusterUnavailable as error:
        pytest.skip(f"NO POSTGRESQL TESTS: {error}")

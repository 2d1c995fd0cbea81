"""Rate limits on heavy requests, the worker pool's time limit, and the token bucket itself."""

from __future__ import annotations

import asyncio
import math
import time
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from tilegames.web import create_app
from tilegames.web.limits import Limits, RateLimiter
from tilegames.web.workers import WorkerError, Workers


def test_token_bucket_refills():
    bucket = RateLimiter(burst=2, rate=1.0)
    assert bucket.allow("a", now=0.0) and bucket.allow("a", now=0.0)
    assert not bucket.allow("a", now=0.0)
    assert bucket.allow("b", now=0.0)
    assert bucket.allow("a", now=1.0)


def test_heavy_requests_are_rate_limited_per_client(tmp_path):
    limits = Limits(heavy_burst=2, heavy_per_second=0.01, workers=1)
    app = create_app(tmp_path / "a.sqlite3", limits=limits, warm=False)
    with TestClient(app) as client:
        for _ in range(2):
            assert (
                client.post(
                    "/api/games", json={"game": "slide", "width": 3, "height": 3}
                ).status_code
                == 201
            )
        refused = client.post("/api/games", json={"game": "slide", "width": 3, "height": 3})
        assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate_limited"
        assert int(refused.headers["retry-after"]) >= 1
        assert client.get("/api/catalog").status_code == 200  # light requests are not limited


def test_a_job_past_its_time_limit_is_killed_and_the_pool_recovers():
    async def scenario():
        workers = Workers(1)
        try:
            with pytest.raises(WorkerError) as stopped:
                await workers.run(time.sleep, 30, timeout=1.0)
            assert stopped.value.reason == "timeout" and workers.restarts == 1
            assert await workers.run(math.sqrt, 16.0, timeout=30.0) == 4.0
        finally:
            workers.close()

    asyncio.run(scenario())


def test_a_full_queue_answers_busy_at_once():
    async def scenario():
        workers = Workers(1, queue=1)
        try:
            slow = asyncio.ensure_future(workers.run(time.sleep, 0.5, timeout=30.0))
            await asyncio.sleep(0)
            with pytest.raises(WorkerError) as busy:
                await workers.run(math.sqrt, 4.0, timeout=30.0)
            assert busy.value.reason == "busy"
            await slow
        finally:
            workers.close()

    asyncio.run(scenario())

"""Rate limits on heavy requests and the token bucket itself (the worker pool: test_pool.py)."""

from __future__ import annotations

import warnings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from tilegames.web import create_app
from tilegames.web.limits import RateLimiter, ServerLimits


def test_token_bucket_refills():
    bucket = RateLimiter(burst=2, rate=1.0)
    assert bucket.allow("a", now=0.0) and bucket.allow("a", now=0.0)
    assert not bucket.allow("a", now=0.0)
    assert bucket.allow("b", now=0.0)
    assert bucket.allow("a", now=1.0)


def test_heavy_requests_are_rate_limited_per_client(tmp_path):
    limits = ServerLimits(heavy_burst=2, heavy_per_second=0.01, workers=1)
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

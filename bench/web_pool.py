"""The worker pool under the issue's two overloads, this tree against a baseline, interleaved in one run.

- **overrun**: two clients each create a 30-cell custom Klotski layout (the plain-Python search) while four
  other clients keep dealing 3×3 slides until both Klotski answers are in. The players' deals should all be
  201; the Klotski requests fail (504) alone.
- **crowd**: twelve clients each with an 8×8 slide press Solve at the same moment. Honest players should get
  solutions, or a 503 with ``Retry-After`` at once, not a 504 after waiting.

Each client is told apart by ``X-Forwarded-For`` (this tree is started with ``--forwarded-allow-ips
127.0.0.1``; the baseline believes 127.0.0.1 by default). The baseline is ``git archive REF`` run with
``PYTHONPATH`` (its numba kernels compile cold on the first start). Both servers run at once, the rounds
alternate, so the machine's load falls on both alike.

Run: .venv/bin/python -m bench.web_pool [--baseline main] [--rounds 2]
"""

from __future__ import annotations

import argparse
import collections
import json
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tilegames.web.launch import ServerProcess

KLOTSKI_30 = "AAbcde/AAfghi/jklmno/pq..../......"


def call(server: ServerProcess, path: str, body: dict, client: str) -> tuple[int, dict, float]:
    """(status, answer, seconds) of one POST from `client`."""
    request = urllib.request.Request(
        f"{server.url}{path}",
        data=json.dumps(body).encode(),
        headers={"content-type": "application/json", "x-forwarded-for": client},
    )
    began = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=120) as answer:
            return answer.status, json.load(answer), time.perf_counter() - began
    except urllib.error.HTTPError as error:
        try:
            data = json.load(error)
        except ValueError:
            data = {}
        return error.code, data, time.perf_counter() - began


def overrun(server: ServerProcess) -> dict[str, object]:
    with ThreadPoolExecutor(8) as pool:
        attacks = [
            pool.submit(
                call, server, "/api/games", {"game": "klotski", "layout": KLOTSKI_30}, f"10.9.0.{i}"
            )
            for i in (1, 2)
        ]

        def player(n: int) -> list[int]:
            statuses = []
            while not all(a.done() for a in attacks):
                deal = {"game": "slide", "width": 3, "height": 3}
                statuses.append(call(server, "/api/games", deal, f"10.8.0.{n}")[0])
                time.sleep(0.5)  # a player's pace, under the 3 heavy requests a second allowed
            return statuses

        players = [pool.submit(player, n) for n in range(4)]
        deals = collections.Counter(s for p in players for s in p.result())
        klotski = collections.Counter(a.result()[0] for a in attacks)
    return {"deals": dict(deals), "klotski": dict(klotski)}


def crowd(server: ServerProcess) -> dict[str, object]:
    games = [
        call(server, "/api/games", {"game": "slide", "width": 8, "height": 8}, f"10.7.0.{n}")[1][
            "id"
        ]
        for n in range(12)
    ]
    with ThreadPoolExecutor(12) as pool:
        answers = list(
            pool.map(
                lambda n: call(server, f"/api/games/{games[n]}/solve", {}, f"10.7.0.{n}"), range(12)
            )
        )
    by_status = collections.Counter(status for status, _, _ in answers)
    slowest = {
        status: round(max(s for st, _, s in answers if st == status), 1) for status in by_status
    }
    return {"solve": dict(by_status), "slowest_s": slowest}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default="main", help="git ref to compare with (default main)")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base"
        base.mkdir()
        archive = subprocess.run(["git", "archive", args.baseline], capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", str(base)], input=archive.stdout, check=True)
        servers = {
            # env -C: `python -m` puts the working directory first on sys.path, ahead of PYTHONPATH.
            "baseline": ServerProcess(
                Path(tmp) / "base.sqlite3", prefix=("env", "-C", str(base), f"PYTHONPATH={base}")
            ),
            "this tree": ServerProcess(
                Path(tmp) / "new.sqlite3", options=("--forwarded-allow-ips", "127.0.0.1")
            ),
        }
        try:
            for server in servers.values():
                server.start(timeout=600)
            for round_ in range(args.rounds):
                for scenario in (overrun, crowd):
                    for name, server in servers.items():
                        print(
                            f"round {round_ + 1} {scenario.__name__:8} {name:10} {scenario(server)}",
                            flush=True,
                        )
        finally:
            for server in servers.values():
                server.kill()


if __name__ == "__main__":
    main()

"""GET and move latency of one game as its history and the results table grow: flat from 0 to 100k plies.

Issue 12 §2: Klotski's state used to reread the whole history on each request and every state recomputed the
best-results table. This bench seeds databases with a Klotski 横刀立马 game of 0, 1k, 10k and 100k plies (a piece
moved back and forth, written straight into SQLite) beside 0 or 100k finished results of the same variant, then
times GET /api/games/{id} and POST /moves (with its ply check, synchronous=FULL) through the real ASGI app
in-process (httpx over ASGI, no network). The baseline column times, on the same files, the reads the old
arcade made for each GET (count the plies, reread the history, group the results table). Rounds are
interleaved over the databases (each round starting at the next one) so machine load hits them
all alike; medians and p90 in milliseconds.

Run: .venv/bin/python -m bench.web_flat [--rounds 200] [--sizes 0 1000 10000 100000] [--results 100000]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import sqlite3
import statistics
import tempfile
import time
import uuid
import warnings
from pathlib import Path

import httpx

from tilegames.store import Store
from tilegames.web import create_app
from tilegames.web.limits import ServerLimits

START = "ABBC/ABBC/DEEF/DGHF/I..J"
AFTER = "ABBC/ABBC/DEEF/DGHF/.I.J"
LIMITS = ServerLimits(
    move_burst=10**9,
    client_move_burst=10**9,
    max_plies=10**7,
    workers=1,
)


def seed(path: Path, plies: int, results: int) -> str:
    """A database with one game of ``plies`` plies and ``results`` finished games of its variant."""
    Store(path).close()  # the schema
    db = sqlite3.connect(path)
    game_id = uuid.uuid4().hex
    now = time.time()
    board = START if plies % 2 == 0 else AFTER
    last = None if plies == 0 else ("I:R" if plies % 2 else "I:L")
    db.execute(
        "INSERT INTO games (id, game, variant, label, start, board, options, created, updated, plies,"
        " moves, steps, last_move) VALUES (?, 'klotski', '横刀立马', '横刀立马', ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (game_id, START, board, json.dumps({"optimal": 81}), now, now, plies, plies, plies, last),
    )
    db.executemany(
        "INSERT INTO plies (game_id, ply, move, before, moves_before, steps_before)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (
            (game_id, n, "I:R" if n % 2 else "I:L", START if n % 2 else AFTER, n - 1, n - 1)
            for n in range(1, plies + 1)
        ),
    )
    db.executemany(
        "INSERT INTO results (game_id, game, variant, moves, seconds, score, finished, assisted)"
        " VALUES (?, 'klotski', '横刀立马', ?, ?, NULL, ?, 0)",
        ((uuid.uuid4().hex, 81 + n % 50, 60.0 + n % 300, now) for n in range(results)),
    )
    if results:
        db.execute(
            "INSERT INTO bests (game, variant, label, played, unassisted, fewest_moves,"
            " fastest_seconds, top_score, updated) VALUES ('klotski', '横刀立马', '横刀立马', ?, ?, 81,"
            " 60.0, NULL, ?)",
            (results, results, now),
        )
    db.commit()
    db.close()
    return game_id


def old_reads(db: sqlite3.Connection, game_id: str) -> None:
    """The baseline: the reads the version-2 arcade made for every GET of a Klotski game (count the plies,
    reread the history for the steps, group the whole results table for the bests)."""
    db.execute("SELECT COUNT(*) FROM plies WHERE game_id = ?", (game_id,)).fetchone()
    moves = db.execute(
        "SELECT move FROM plies WHERE game_id = ? ORDER BY ply", (game_id,)
    ).fetchall()
    sum(len(m[0].partition(":")[2]) for m in moves)
    db.execute(
        "SELECT game, variant, COUNT(*), MIN(moves), MIN(seconds), MAX(score), SUM(assisted = 0)"
        " FROM results WHERE game = 'klotski' GROUP BY game, variant"
    ).fetchall()


async def measure(
    args: argparse.Namespace, tmp: Path
) -> dict[tuple[int, int], dict[str, list[float]]]:
    cases = [(p, r) for r in sorted({0, args.results}) for p in args.sizes]
    apps, clients, games = {}, {}, {}
    for case in cases:
        path = tmp / f"flat-{case[0]}-{case[1]}.sqlite3"
        games[case] = seed(path, *case)
        store = Store(path)
        apps[case] = (store, create_app(store=store, limits=LIMITS, warm=False))
        clients[case] = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=apps[case][1]), base_url="http://bench"
        )
    times: dict[tuple[int, int], dict[str, list[float]]] = {
        c: {"get": [], "move": [], "old": []} for c in cases
    }
    readers = {c: sqlite3.connect(tmp / f"flat-{c[0]}-{c[1]}.sqlite3") for c in cases}
    for round_ in range(args.rounds):
        # Interleaved, and each round starting at the next case: every case sees the same machine load
        # and takes its turn right after the untimed baseline work.
        shift = round_ % len(cases)
        for case in cases[shift:] + cases[:shift]:
            client, gid = clients[case], games[case]
            began = time.perf_counter()
            state = (await client.get(f"/api/games/{gid}")).json()
            times[case]["get"].append((time.perf_counter() - began) * 1000)
            move = "I:R" if state["board"] == START else "I:L"
            began = time.perf_counter()
            answer = await client.post(
                f"/api/games/{gid}/moves", json={"move": move, "ply": state["plies"]}
            )
            times[case]["move"].append((time.perf_counter() - began) * 1000)
            assert answer.status_code == 200, answer.text
        for case in cases:  # after the app's requests: its garbage must not land on them
            began = time.perf_counter()
            old_reads(readers[case], games[case])
            times[case]["old"].append((time.perf_counter() - began) * 1000)
        gc.collect()  # untimed, so no request pays for an earlier one's garbage
    for case in cases:
        readers[case].close()
        await clients[case].aclose()
        apps[case][0].close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--sizes", type=int, nargs="+", default=[0, 1_000, 10_000, 100_000])
    parser.add_argument("--results", type=int, default=100_000)
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    with tempfile.TemporaryDirectory() as tmp:
        times = asyncio.run(measure(args, Path(tmp)))
    print(
        f"{'plies':>8} {'results':>8} | {'GET p50':>8} {'GET p90':>8} | {'move p50':>8}"
        f" {'move p90':>8} | {'old reads p50':>13}  (ms)"
    )
    for (plies, results), t in times.items():
        get, move = sorted(t["get"]), sorted(t["move"])
        p90 = lambda xs: xs[int(0.9 * (len(xs) - 1))]  # noqa: E731
        print(
            f"{plies:>8} {results:>8} | {statistics.median(get):8.2f} {p90(get):8.2f} |"
            f" {statistics.median(move):8.2f} {p90(move):8.2f} | {statistics.median(t['old']):13.2f}"
        )


if __name__ == "__main__":
    main()

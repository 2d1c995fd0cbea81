"""Load on the arcade: concurrent simulated players making moves over loopback against a real server.

The server is `tilegames serve` in a subprocess (uvicorn, a fresh temporary database, synchronous=FULL), the
players are asyncio tasks in this process, each with its own keep-alive HTTP/1.1 connection (as a browser tab
has); the client is a minimal one on asyncio streams, since a heavier client (httpx) on these 2 shared cores
inflates the measured latency with its own CPU time. Each player starts a game (a mix of 3×3 and
4×4 slides, Klotski 横刀立马 and Lianliankan 14×6), then makes legal moves with a think time between them; slide
and Klotski players take the legal moves from the state the server answered, Lianliankan players the pair the
engine's hint finds on that state. Every answer is checked (200 and the move count grew). The move latencies
are reported as p50/p90/p99/max, and the errors counted.

Run: .venv/bin/python -m bench.load_web [--players 50] [--moves 100] [--think 0.1 0.3] [--seed 1]
     add --stress for closed-loop players with no think time (a saturation test, not a player's experience).
     --db postgresql://... [--workers N]: the server on that PostgreSQL, with N processes.
     --compare: side by side in one run, for 50 and 200 players (or --players-list), each on a fresh
     database: 1 process on SQLite, 1 and 2 processes on PostgreSQL (a throwaway cluster, tests/pgcluster.py).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from tilegames import link
from tilegames.web.launch import ServerProcess

GAMES = (
    {"game": "slide", "width": 3, "height": 3},
    {"game": "slide", "width": 4, "height": 4},
    {"game": "klotski", "layout": "横刀立马"},
    {"game": "link", "width": 14, "height": 6, "kinds": 21},
)
DELTA = {"U": (1, 0), "D": (-1, 0), "L": (0, 1), "R": (0, -1)}


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    server: list[float] = field(default_factory=list)
    """Time inside the server (its Server-Timing header), in ms."""
    errors: list[str] = field(default_factory=list)
    created: int = 0
    reconnects: int = 0
    retries: int = 0


def slide_moves(view: dict) -> list[str]:
    w, h, tiles = view["width"], view["height"], view["tiles"]
    r, c = divmod(tiles.index(0), w)
    return [m for m, (dr, dc) in DELTA.items() if 0 <= r + dr < h and 0 <= c + dc < w]


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> dict:
        return json.loads(self.body)


class Connection:
    """One keep-alive HTTP/1.1 connection: POST a JSON body, read the answer (Content-Length framed)."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.reconnects = 0

    async def post(self, path: str, payload: dict) -> Response:
        """Send and read; a kept-alive connection the server closed meanwhile (idle timeout) is reopened
        once, as browsers do: the request never reached the server then."""
        fresh = self.writer is None
        try:
            return await self._post(path, payload)
        except (asyncio.IncompleteReadError, ConnectionError) as error:
            partial = getattr(error, "partial", b"")
            if fresh or partial:
                raise
            self.reconnects += 1
            self.writer = None
            return await self._post(path, payload)

    async def _post(self, path: str, payload: dict) -> Response:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        body = json.dumps(payload).encode()
        self.writer.write(
            f"POST {path} HTTP/1.1\r\nHost: {self.host}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n".encode()
            + body
        )
        head = await self.reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        pairs = (line.partition(":") for line in lines[1:] if line)
        headers = {key.strip().lower(): value.strip() for key, _, value in pairs}
        data = await self.reader.readexactly(int(headers.get("content-length", "0")))
        return Response(int(lines[0].split()[1]), headers, data)

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            await self.writer.wait_closed()


async def create(client: Connection, params: dict, tally: Tally) -> dict:
    """Start a game, waiting out the per-client limit on heavy requests (all players share one address)."""
    while True:
        response = await client.post("/api/games", params)
        if response.status in (429, 503):
            tally.retries += 1
            await asyncio.sleep(
                float(response.headers.get("retry-after", "1")) * random.random() + 0.2
            )
            continue
        if response.status != 201:
            raise RuntimeError(f"new game: {response.status} {response.body[:200]!r}")
        tally.created += 1
        return response.json()


async def player(
    index: int,
    client: Connection,
    args: argparse.Namespace,
    tally: Tally,
    start: asyncio.Event,
) -> None:
    rng = random.Random(args.seed * 1000 + index)
    params = dict(GAMES[index % len(GAMES)])
    if params["game"] != "klotski":
        params["seed"] = rng.randrange(2**31)
    state = await create(client, params, tally)
    await start.wait()
    previous = None
    for _ in range(args.moves):
        if args.think[1] > 0:
            await asyncio.sleep(rng.uniform(*args.think))
        if state["status"] != "playing":
            state = await create(client, params, tally)
        if params["game"] == "slide":
            choices = slide_moves(state["view"])
            back = {"U": "D", "D": "U", "L": "R", "R": "L"}.get(previous or "")
            move = rng.choice([m for m in choices if m != back] or choices)
        elif params["game"] == "klotski":
            move = rng.choice(state["view"]["legal"])
        else:  # a removable pair, as the engine's hint finds it (well under a millisecond)
            a, b = link.Board.parse(state["board"]).first_pair()
            move = [list(a), list(b)]
        began = time.perf_counter()
        try:
            response = await client.post(f"/api/games/{state['id']}/moves", {"move": move})
        except (OSError, asyncio.IncompleteReadError) as error:
            tally.errors.append(f"{type(error).__name__}: {error}")
            client = Connection(client.host, client.port)
            continue
        tally.latencies.append(time.perf_counter() - began)
        timing = response.headers.get("server-timing", "")
        if "dur=" in timing:
            tally.server.append(float(timing.split("dur=")[1]))
        if response.status != 200:
            tally.errors.append(f"{response.status} {response.body[:120]!r}")
            continue
        new = response.json()
        if new["plies"] != state["plies"] + 1 and new["status"] == "playing":
            tally.errors.append(f"plies {state['plies']} -> {new['plies']}")
        state, previous = new, move
    tally.reconnects += client.reconnects
    await client.close()


def cpu_seconds(pid: int) -> float:
    """User + system CPU time so far of the server's session (Linux /proc): the server, its uvicorn workers
    and its engine pool (ServerProcess starts it in a session of its own); 0 where unknown."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == pid:
            total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def run(args: argparse.Namespace, url: str) -> Tally:
    tally = Tally()
    host, port = url.removeprefix("http://").rstrip("/").split(":")
    start = asyncio.Event()
    tasks = [
        asyncio.create_task(player(i, Connection(host, int(port)), args, tally, start))
        for i in range(args.players)
    ]
    while tally.created < args.players:
        failed = [t for t in tasks if t.done() and t.exception() is not None]
        if failed:
            raise RuntimeError(f"a player failed to start: {failed[0].exception()!r}")
        await asyncio.sleep(0.05)
    began = time.perf_counter()
    start.set()
    await asyncio.gather(*tasks)
    tally.wall = time.perf_counter() - began  # type: ignore[attr-defined]
    return tally


def measure(
    args: argparse.Namespace, tmp: str, db: str | None, workers: int
) -> tuple[Tally, float]:
    """One run against a server started for it (or ``args.url``): the tally and the server's CPU seconds."""
    process = None
    url = args.url
    server = None
    if url is None:
        nice = ("nice", "-n", str(args.server_nice)) if args.server_nice else ()
        options = ["--sync", args.sync, "--client-move-rate", "1000000"]
        if workers > 1:
            options += ["--workers", str(workers)]
        server = ServerProcess(
            db or Path(tmp) / f"load{time.monotonic_ns()}.sqlite3",
            prefix=nice,
            options=tuple(options),
            log_file=Path(tmp) / f"server{time.monotonic_ns()}.log",
        )
        server.start()
        url, process = server.url, server.process
    cpu_before = cpu_seconds(process.pid) if process is not None else 0.0
    try:
        tally = asyncio.run(run(args, url))
        cpu = (cpu_seconds(process.pid) - cpu_before) if process is not None else 0.0
    finally:
        if server is not None:
            server.stop()
    return tally, cpu


def summary(tally: Tally) -> str:
    ms = [x * 1000 for x in tally.latencies]
    return (
        f"moves {len(ms)} in {tally.wall:.1f} s ({len(ms) / tally.wall:.0f}/s), p50 {percentile(ms, 0.5):.1f}"
        f" ms, p99 {percentile(ms, 0.99):.1f} ms, max {max(ms):.1f} ms, errors {len(tally.errors)}"
    )


def compare(args: argparse.Namespace) -> None:
    """SQLite 1 process, PostgreSQL 1 and 2 processes, for each player count, in one run."""
    from tests.pgcluster import PostgresCluster

    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()};"
        f" {args.moves} moves per player, think {args.think[0]:g}-{args.think[1]:g} s, --sync {args.sync}"
    )
    with tempfile.TemporaryDirectory() as tmp, PostgresCluster() as pg:
        for players in args.players_list:
            args.players = players
            for label, db, workers in (
                ("SQLite, 1 process", None, 1),
                ("PostgreSQL, 1 process", pg.url, 1),
                ("PostgreSQL, 2 processes", pg.url, 2),
            ):
                if db is not None:
                    pg.reset()
                load = os.getloadavg()[0]
                tally, cpu = measure(args, tmp, db, workers)
                print(
                    f"{players:4d} players | {label:24s} | {summary(tally)} | server CPU"
                    f" {cpu / max(len(tally.latencies), 1) * 1000:.2f} ms/move | load {load:.1f}",
                    flush=True,
                )
                for error in tally.errors[:3]:
                    print("  error:", error)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--moves", type=int, default=100, help="moves per player")
    parser.add_argument("--think", type=float, nargs=2, default=(0.1, 0.3), metavar=("MIN", "MAX"))
    parser.add_argument("--stress", action="store_true", help="no think time (closed loop)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--sync", choices=("full", "normal"), default="full", help="the server's --sync"
    )
    parser.add_argument("--url", help="an already running server (default: start one)")
    parser.add_argument("--db", help="the started server's --db (default: a fresh SQLite file)")
    parser.add_argument("--workers", type=int, default=1, help="the started server's --workers")
    parser.add_argument("--compare", action="store_true", help="SQLite and PostgreSQL side by side")
    parser.add_argument("--players-list", type=int, nargs="+", default=[50, 200], metavar="N")
    parser.add_argument(
        "--server-nice",
        type=int,
        default=0,
        help="niceness of the started server (negative needs root): shields it from other jobs on a shared machine",
    )
    args = parser.parse_args()
    if args.stress:
        args.think = (0.0, 0.0)

    if args.compare:
        compare(args)
        return
    with tempfile.TemporaryDirectory() as tmp:
        tally, cpu = measure(args, tmp, args.db, args.workers)

    ms = [x * 1000 for x in tally.latencies]
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    )
    think = "none (closed loop)" if args.stress else f"{args.think[0]:g}-{args.think[1]:g} s"
    print(
        f"players {args.players}, moves per player {args.moves}, think time {think},"
        f" server niceness {args.server_nice}, --sync {args.sync}"
    )
    print(
        f"moves {len(ms)} in {tally.wall:.1f} s ({len(ms) / tally.wall:.0f}/s), errors {len(tally.errors)},"
        f" games started {tally.created} (429 retries while dealing: {tally.retries}),"
        f" idle connections reopened {tally.reconnects}"
    )
    for label, values in (("move latency (client)", ms), ("time in server", tally.server)):
        print(
            f"{label} ms: p50 {percentile(values, 0.5):.1f}  p90 {percentile(values, 0.9):.1f}"
            f"  p99 {percentile(values, 0.99):.1f}  max {max(values):.1f}"
        )
    if cpu:
        print(
            f"server process CPU: {cpu:.1f} s for {len(ms)} moves and {tally.created} deals"
            f" = {cpu / max(len(ms), 1) * 1000:.2f} ms per request"
        )
    print(
        f"load average during the run: {os.getloadavg()[0]:.1f} (other work on the machine counts)"
    )
    for error in tally.errors[:5]:
        print("  error:", error)


if __name__ == "__main__":
    main()

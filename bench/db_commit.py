"""Durable commits per second: SQLite (WAL, synchronous=FULL) per-commit and group-commit vs PostgreSQL.

Every variant commits one operation at a time that inserts one game row, and each commit is durable when it
returns: SQLite with ``synchronous=FULL`` (an fsync per commit, or per batch with the store's group commit),
PostgreSQL with ``synchronous_commit=on`` and ``fsync=on`` (a throwaway cluster from tests/pgcluster.py on the
same disk, which groups concurrent WAL flushes itself). 1 and 8 threads; the variants run interleaved, in
alternating order, for ``--seconds`` each per round, and the best round is reported (the machine is shared).

Then a micro-bench: the cost per statement of SQLAlchemy Core over raw sqlite3 (INSERT and SELECT by key, in
one transaction without fsync, so only the statement path is measured).

Run: .venv/bin/python -m bench.db_commit [--seconds 3] [--rounds 2] [--json]
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from tests.pgcluster import PostgresCluster
from tilegames.db import migrate, parse_target
from tilegames.db.migrate import engine_for
from tilegames.db.postgres import Pool
from tilegames.store import Store

INSERT = (
    "INSERT INTO games (id, game, variant, start, board, options, created, updated)"
    " VALUES (?, 'slide', '4x4', 'start', 'board', '{}', 1.0, 1.0)"
)


def _per_second(
    threads: int, seconds: float, make_worker: Callable[[], Callable[[], None]]
) -> float:
    """Commits per second of ``threads`` threads, each calling its own worker in a loop."""
    workers = [make_worker() for _ in range(threads)]
    counts = [0] * threads
    stop = threading.Event()
    barrier = threading.Barrier(threads + 1)

    def loop(index: int) -> None:
        barrier.wait()
        work = workers[index]
        while not stop.is_set():
            work()
            counts[index] += 1

    pool = [threading.Thread(target=loop, args=(i,)) for i in range(threads)]
    for thread in pool:
        thread.start()
    barrier.wait()
    started = time.perf_counter()
    time.sleep(seconds)
    stop.set()
    for thread in pool:
        thread.join()
    return sum(counts) / (time.perf_counter() - started)


class SqlitePerCommit:
    """One connection per thread; BEGIN IMMEDIATE, INSERT, COMMIT (one fsync) per operation."""

    def __init__(self, path: Path) -> None:
        self.path = path
        migrate(parse_target(str(path)))

    def worker(self) -> Callable[[], None]:
        db = sqlite3.connect(self.path, isolation_level=None, timeout=60, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")

        def work() -> None:
            db.execute("BEGIN IMMEDIATE")
            db.execute(INSERT, (uuid.uuid4().hex,))
            db.execute("COMMIT")

        return work


class SqliteGroupCommit:
    """tilegames.store.Store: one writer thread, operations batched into one fsync."""

    def __init__(self, path: Path) -> None:
        self.store = Store(path, synchronous="FULL")

    def worker(self) -> Callable[[], None]:
        db = self.store._db  # the store's own connection, used on its writer thread only

        def work() -> None:
            self.store.run(db.execute, INSERT, (uuid.uuid4().hex,))

        return work


class Postgres:
    """tilegames.db.postgres.Pool (8 connections); one transaction per operation."""

    def __init__(self, url: str) -> None:
        target = parse_target(url)
        migrate(target)
        self.pool = Pool(target, size=8)
        self.sql = INSERT.replace("?", "%s")

    def worker(self) -> Callable[[], None]:
        def work() -> None:
            self.pool.run(lambda c: c.execute(self.sql, (uuid.uuid4().hex,)))

        return work


def statement_costs(directory: Path, count: int, rounds: int) -> dict[str, float]:
    """Microseconds per INSERT and per SELECT-by-key: raw sqlite3 vs SQLAlchemy Core, interleaved."""
    results: dict[str, list[float]] = {}
    for round_ in range(rounds):
        kinds = ("sqlite3", "sqlalchemy core", "sqlalchemy driver sql")
        for kind in kinds if round_ % 2 == 0 else kinds[::-1]:
            path = directory / f"micro-{kind.replace(' ', '-')}-{round_}.sqlite3"
            target = parse_target(str(path))
            migrate(target)
            ids = [uuid.uuid4().hex for _ in range(count)]
            if kind == "sqlite3":
                db = sqlite3.connect(path, isolation_level=None)
                db.execute("PRAGMA synchronous=OFF")
                db.execute("BEGIN")
                t0 = time.perf_counter()
                for game_id in ids:
                    db.execute(INSERT, (game_id,))
                t1 = time.perf_counter()
                for game_id in ids:
                    db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
                t2 = time.perf_counter()
                db.execute("COMMIT")
                db.close()
            else:
                engine = engine_for(target)
                sa.event.listen(
                    engine, "connect", lambda dbapi, _: dbapi.execute("PRAGMA synchronous=OFF")
                )
                games = sa.Table("games", sa.MetaData(), autoload_with=engine)
                insert = games.insert().values(
                    game="slide", variant="4x4", start="start", board="board", options="{}",
                    created=1.0, updated=1.0,
                )  # fmt: skip
                select = sa.select(games).where(games.c.id == sa.bindparam("id"))
                core = kind == "sqlalchemy core"
                with engine.begin() as connection:
                    run = connection.exec_driver_sql
                    t0 = time.perf_counter()
                    for game_id in ids:
                        if core:
                            connection.execute(insert, {"id": game_id})
                        else:
                            run(INSERT, (game_id,))
                    t1 = time.perf_counter()
                    for game_id in ids:
                        if core:
                            connection.execute(select, {"id": game_id}).one()
                        else:
                            run("SELECT * FROM games WHERE id = ?", (game_id,)).one()
                    t2 = time.perf_counter()
                engine.dispose()
            results.setdefault(f"{kind} insert", []).append((t1 - t0) / count * 1e6)
            results.setdefault(f"{kind} select", []).append((t2 - t1) / count * 1e6)
    return {name: min(values) for name, values in results.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--statements", type=int, default=5000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    best: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as name, PostgresCluster() as pg:
        directory = Path(name)
        variants: dict[str, Any] = {
            "SQLite, fsync per commit": SqlitePerCommit(directory / "per-commit.sqlite3"),
            "SQLite, group commit (Store)": SqliteGroupCommit(directory / "group.sqlite3"),
            "PostgreSQL, synchronous_commit=on": Postgres(pg.url),
        }
        try:
            for round_ in range(args.rounds):
                order = list(variants.items())
                if round_ % 2:
                    order.reverse()
                for label, variant in order:
                    for threads in (1, 8):
                        rate = _per_second(threads, args.seconds, variant.worker)
                        key = f"{label}, {threads} thread{'s' if threads > 1 else ''}"
                        best[key] = max(best.get(key, 0.0), rate)
        finally:
            variants["SQLite, group commit (Store)"].store.close()
            variants["PostgreSQL, synchronous_commit=on"].pool.close()
        micro = statement_costs(directory, args.statements, max(args.rounds, 3))
    if args.json:
        print(json.dumps({"commits_per_second": best, "microseconds_per_statement": micro}))
        return
    print(f"{'durable commits per second (best of ' + str(args.rounds) + ' rounds)':<52}")
    for key, rate in best.items():
        print(f"  {key:<50} {rate:8.0f}")
    print("microseconds per statement (SQLite, in one transaction, best of rounds)")
    for key, value in micro.items():
        print(f"  {key:<50} {value:8.1f}")


if __name__ == "__main__":
    main()

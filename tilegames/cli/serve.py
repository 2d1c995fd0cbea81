"""`tilegames serve`: the arcade in the browser."""

from __future__ import annotations

import argparse
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any

from tilegames.cli.common import CommandError, Parser


def add_parser(games: argparse._SubParsersAction[Any]) -> None:
    parser: Parser = games.add_parser("serve", help="play all three games in the browser")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--db", default=None, help="SQLite file (default: the user data directory)")
    parser.add_argument(
        "--sync",
        choices=("full", "normal"),
        default="full",
        help="full (default): an answered move is fsync'ed, safe from kill -9 and power cuts;"
        " normal: safe from kill -9 only, no fsync per commit",
    )
    parser.add_argument(
        "--client-move-rate",
        type=float,
        default=None,
        metavar="N",
        help="moves and undos a second one client address may make over all its games (default 40;"
        " raise it behind a NAT that many players share, or for a load test over loopback)",
    )
    parser.add_argument(
        "--retention-days",
        type=float,
        default=30.0,
        metavar="DAYS",
        help="unfinished games untouched this long are deleted (default 30; results are kept)",
    )
    parser.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="also answer to this Host name (repeatable; localhost and the bound address always)",
    )
    parser.add_argument(
        "--forwarded-allow-ips",
        default="",
        metavar="IPS",
        help="comma-separated proxy addresses (or networks) whose X-Forwarded-For/-Proto are believed"
        " (default: none)",
    )
    parser.add_argument(
        "--max-connections",
        type=int,
        default=None,
        metavar="N",
        help="connections served at once, more get 503 (default: half the descriptor limit, ≤ 1024)",
    )
    parser.add_argument(
        "--read-timeout",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="time a client has to send a request's headers, and again its body (default 10)",
    )
    parser.set_defaults(run=run)


def open_store(db: str | None, synchronous: str, retention: float | None = None) -> Any:
    # -> Store (imported lazily: the CLI starts fast)
    """The arcade's store, or a CommandError in one line: a URL, a path that cannot hold a file, a read-only
    place."""
    from tilegames.store import Store, StoreError, default_path

    if db is not None and "://" in db:
        scheme = db.partition("://")[0].lower()
        if scheme.startswith("postgres"):
            raise CommandError("--db: PostgreSQL is not supported yet; give a SQLite file path")
        raise CommandError(f"--db takes a SQLite file path, not a {scheme}:// URL")
    path = Path(db) if db is not None else default_path()
    try:
        if retention is None:
            return Store(path, synchronous=synchronous)
        return Store(path, synchronous=synchronous, retention=retention)
    except (StoreError, OSError, sqlite3.Error) as error:
        cause = error.__cause__ if isinstance(error, StoreError) else error
        if isinstance(cause, NotADirectoryError | FileExistsError):
            raise CommandError(
                f"cannot create the database {path}: a parent of it is a file, not a folder"
            ) from None
        if isinstance(error, StoreError) and cause is None:
            raise CommandError(str(error)) from None
        reason = getattr(cause, "strerror", None) or str(cause)
        raise CommandError(f"cannot open the database {path}: {reason}") from None


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from tilegames.web import create_app
    from tilegames.web.errors import quiet_repeats
    from tilegames.web.limits import Limits
    from tilegames.web.protocol import uvicorn_options
    from tilegames.web.security import LOCAL_HOSTS

    if not 0 <= args.port <= 65535:
        raise CommandError(f"port {args.port} is out of range 0..65535")
    if args.max_connections is not None and args.max_connections < 1:
        raise CommandError(f"--max-connections must be at least 1, not {args.max_connections}")
    if not 0 < args.read_timeout <= 3600:
        raise CommandError(
            f"--read-timeout must be in (0, 3600] seconds, not {args.read_timeout:g}"
        )
    limits = Limits(body_seconds=args.read_timeout)
    if args.client_move_rate is not None:
        if not args.client_move_rate > 0:
            raise CommandError(f"--client-move-rate must be positive, not {args.client_move_rate}")
        rate = args.client_move_rate
        limits = replace(
            limits, client_move_per_second=rate, client_move_burst=max(1, int(2 * rate))
        )
    if not args.retention_days > 0:
        raise CommandError(f"--retention-days must be positive, not {args.retention_days}")
    store = open_store(args.db, args.sync.upper(), retention=args.retention_days * 24 * 3600)
    hosts = [*LOCAL_HOSTS, args.host, *args.allowed_host]
    app = create_app(store=store, limits=limits, allowed_hosts=hosts)
    proxies = [ip.strip() for ip in args.forwarded_allow_ips.split(",") if ip.strip()]
    options = uvicorn_options(
        trusted_proxies=proxies,
        max_connections=args.max_connections,
        read_seconds=args.read_timeout,
    )
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(f"tilegames arcade on http://{host}:{args.port}/  (database {store.path})", flush=True)
    quiet_repeats()
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", **options)
    return 0

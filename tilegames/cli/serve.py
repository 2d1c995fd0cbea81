"""`tilegames serve`: the arcade in the browser."""

from __future__ import annotations

import argparse
import copy
import json
import os
import re
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any

from tilegames.cli.common import CommandError, Parser


def add_parser(games: argparse._SubParsersAction[Any]) -> None:
    parser: Parser = games.add_parser("serve", help="play all three games in the browser")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument(
        "--db",
        default=None,
        help="a SQLite file (default: in the user data directory) or a PostgreSQL URL,"
        " postgresql://USER:PASSWORD@HOST:PORT/DBNAME (any libpq URL, ?host=/socket/dir too)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="server processes on the one port (default 1; more than 1 needs a PostgreSQL --db)",
    )
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
    parser.add_argument(
        "--access-log",
        action="store_true",
        help="print a line per request answered (time, client, request, status) to stdout",
    )
    parser.set_defaults(run=run)


def logging_options(access_log: bool) -> dict[str, Any]:
    """uvicorn's logging: warnings only, or with `access_log` a line per answered request with its time
    (uvicorn's own access line has none, and a time tells a slow answer from a late request)."""
    if not access_log:
        return {"log_level": "warning"}
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config["formatters"]["access"]["fmt"] = "%(asctime)s " + config["formatters"]["access"]["fmt"]
    return {"log_level": "info", "access_log": True, "log_config": config}


def open_store(db: str | None, synchronous: str, retention: float | None = None) -> Any:
    # -> Store (imported lazily: the CLI starts fast)
    """The arcade's store, or a CommandError in one line: an unknown URL, a path that cannot hold a file, a
    read-only place, an unreachable or foreign PostgreSQL."""
    from tilegames.db import TargetError
    from tilegames.store import RETENTION_SECONDS, StoreError, default_path
    from tilegames.store import open_store as open_any

    postgres = db is not None and re.match(r"postgres(ql)?://", db, re.IGNORECASE) is not None
    path = db if postgres else Path(db) if db is not None else default_path()
    try:
        return open_any(
            db if db is not None else default_path(),
            synchronous=synchronous,
            retention=RETENTION_SECONDS if retention is None else retention,
        )
    except TargetError as error:
        raise CommandError(f"--db: {error}") from None
    except (StoreError, OSError, sqlite3.Error) as error:
        cause = error.__cause__ if isinstance(error, StoreError) else error
        if isinstance(cause, NotADirectoryError | FileExistsError):
            raise CommandError(
                f"cannot create the database {path}: a parent of it is a file, not a folder"
            ) from None
        if (isinstance(error, StoreError) and cause is None) or postgres:
            raise CommandError(str(error).strip().splitlines()[0]) from None
        reason = getattr(cause, "strerror", None) or str(cause)
        raise CommandError(f"cannot open the database {path}: {reason}") from None


#: The environment variable ``serve --workers N`` passes its settings in to each worker process.
SETTINGS_VARIABLE = "TILEGAMES_SERVE_SETTINGS"


def build_app(settings: dict[str, Any], store: Any = None) -> Any:
    """The arcade app for ``settings`` (what ``serve`` parsed, as JSON-able values), on ``store`` or one opened
    from ``settings["db"]``."""
    from tilegames.web import create_app
    from tilegames.web.limits import ServerLimits

    limits = ServerLimits(body_seconds=settings["read_timeout"])
    rate = settings["client_move_rate"]
    if rate is not None:
        limits = replace(
            limits, client_move_per_second=rate, client_move_burst=max(1, int(2 * rate))
        )
    if store is None:
        store = open_store(settings["db"], settings["sync"], retention=settings["retention"])
    return create_app(store=store, limits=limits, allowed_hosts=settings["hosts"])


def app_from_environment() -> Any:
    """uvicorn's app factory for ``serve --workers N``: each worker process opens its own store and pool."""
    return build_app(json.loads(os.environ[SETTINGS_VARIABLE]))


def __getattr__(name: str) -> Any:
    """``WorkerHeadDeadline``: the head-deadline protocol class, by import string for the worker processes
    (uvicorn pickles its settings for them, and a class made at run time cannot be pickled)."""
    if name == "WorkerHeadDeadline":
        from tilegames.web.protocol import head_deadline

        return head_deadline(json.loads(os.environ[SETTINGS_VARIABLE])["read_timeout"])
    raise AttributeError(name)


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from tilegames.web.errors import quiet_repeats
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
    if args.client_move_rate is not None and not args.client_move_rate > 0:
        raise CommandError(f"--client-move-rate must be positive, not {args.client_move_rate}")
    if not args.retention_days > 0:
        raise CommandError(f"--retention-days must be positive, not {args.retention_days}")
    if args.workers < 1:
        raise CommandError(f"--workers must be at least 1, not {args.workers}")
    settings = {
        "db": args.db,
        "sync": args.sync.upper(),
        "retention": args.retention_days * 24 * 3600,
        "client_move_rate": args.client_move_rate,
        "read_timeout": args.read_timeout,
        "hosts": [*LOCAL_HOSTS, args.host, *args.allowed_host],
    }
    if args.workers > 1 and not re.match(r"postgres(ql)?://", args.db or "", re.IGNORECASE):
        raise CommandError(
            "--workers needs a PostgreSQL --db: a SQLite file is written by one process's group commit"
        )
    # Opened here in every case: a bad --db fails now, in one line, and the schema is migrated once.
    store = open_store(args.db, settings["sync"], retention=settings["retention"])
    proxies = [ip.strip() for ip in args.forwarded_allow_ips.split(",") if ip.strip()]
    options = uvicorn_options(
        trusted_proxies=proxies,
        max_connections=args.max_connections,
        read_seconds=args.read_timeout,
    )
    host = f"[{args.host}]" if ":" in args.host else args.host
    processes = f", {args.workers} processes" if args.workers > 1 else ""
    print(
        f"tilegames arcade on http://{host}:{args.port}/  (database {store.path}{processes})",
        flush=True,
    )
    quiet_repeats()
    if args.workers > 1:
        store.close()
        os.environ[SETTINGS_VARIABLE] = json.dumps(settings)
        options["http"] = f"{__name__}:WorkerHeadDeadline"
        uvicorn.run(
            f"{__name__}:app_from_environment",
            factory=True,
            workers=args.workers,
            host=args.host,
            port=args.port,
            **logging_options(args.access_log),
            **options,
        )
        return 0
    app = build_app(settings, store)
    uvicorn.run(app, host=args.host, port=args.port, **logging_options(args.access_log), **options)
    return 0

"""`tilegames serve`: the arcade in the browser."""

from __future__ import annotations

import argparse
from dataclasses import replace

from tilegames.cli.common import CommandError, Parser


def add_parser(games: argparse._SubParsersAction) -> None:
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
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from tilegames.store import Store, default_path
    from tilegames.web import create_app
    from tilegames.web.limits import Limits

    if not 0 <= args.port <= 65535:
        raise CommandError(f"port {args.port} is out of range 0..65535")
    limits = Limits()
    if args.client_move_rate is not None:
        if not args.client_move_rate > 0:
            raise CommandError(f"--client-move-rate must be positive, not {args.client_move_rate}")
        rate = args.client_move_rate
        limits = replace(
            limits, client_move_per_second=rate, client_move_burst=max(1, int(2 * rate))
        )
    if not args.retention_days > 0:
        raise CommandError(f"--retention-days must be positive, not {args.retention_days}")
    store = Store(
        args.db if args.db is not None else default_path(),
        synchronous=args.sync.upper(),
        retention=args.retention_days * 24 * 3600,
    )
    app = create_app(store=store, limits=limits)
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(f"tilegames arcade on http://{host}:{args.port}/  (database {store.path})", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0

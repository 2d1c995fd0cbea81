"""`tilegames serve`: the arcade in the browser."""

from __future__ import annotations

import argparse
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
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from tilegames.store import Store, default_path
    from tilegames.web import create_app

    if not 0 <= args.port <= 65535:
        raise CommandError(f"port {args.port} is out of range 0..65535")
    store = Store(args.db if args.db is not None else default_path(), synchronous=args.sync.upper())
    app = create_app(store=store)
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(f"tilegames arcade on http://{host}:{args.port}/  (database {store.path})", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0

"""`tilegames serve`: the arcade in the browser (filled in by the arcade's issue)."""

from __future__ import annotations

import argparse

from tilegames.cli.common import Parser


def add_parser(games: argparse._SubParsersAction) -> None:
    parser: Parser = games.add_parser("serve", help="play all three games in the browser")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--db", default=None, help="SQLite file (default: the user data directory)")
    parser.set_defaults(run=lambda args: 0)

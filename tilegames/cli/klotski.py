"""`tilegames klotski ...` (filled in by the klotski engine's issue)."""

from __future__ import annotations

import argparse

from tilegames.cli.common import Parser


def add_parser(games: argparse._SubParsersAction) -> None:
    parser: Parser = games.add_parser("klotski", help="klotski")
    parser.add_subparsers(dest="verb", required=True, metavar="VERB")

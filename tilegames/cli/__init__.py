"""The `tilegames` command: `tilegames GAME VERB ...` and `tilegames serve`.

Exit status: 0 done, 1 no such thing exists (unsolvable, no move left), 2 bad input (one line on stderr).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from tilegames import __version__
from tilegames.cli import db, klotski, link, serve, slide
from tilegames.cli.common import CommandError, Parser, fail
from tilegames.cli.games import Game, add_game

GAMES: tuple[Game, ...] = (slide.GAME, klotski.GAME, link.GAME)
"""The registry: each game's adapter for the shared verbs (tilegames.cli.games)."""


def build_parser() -> Parser:
    parser = Parser(prog="tilegames", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"tilegames {__version__}")
    games = parser.add_subparsers(dest="game", required=True, metavar="GAME")
    for game in GAMES:
        add_game(games, game)
    serve.add_parser(games)
    db.add_parser(games)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        return int(args.run(args) or 0)
    except CommandError as error:
        return fail(str(error), error.status)
    except ValueError as error:
        return fail(str(error), 2)
    except KeyboardInterrupt:
        return fail("interrupted", 130)
    except BrokenPipeError:
        # The reader (`| head`) went away: stop quietly, as Unix tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())

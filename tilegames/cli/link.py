"""`tilegames link ...`: the shared verbs (new, solve, hint, check) and path, reshuffle."""

from __future__ import annotations

import argparse
import random
from typing import Any

from tilegames.cli.common import NOT_FOUND, CommandError, add_json, emit, seed, size
from tilegames.cli.games import Game

MAX_SIDE = 40
"""Largest side `new` and `reshuffle` take: the clearable construction grows fast with the board (KShisen's
largest is 30x16; a 40x40 deal takes about 2 s, a 64x64 one half a minute)."""
SOLVE_TIMEOUT = 60.0
"""Seconds a search runs unless --timeout says otherwise (the library's solve has no default limit)."""
SOLVE_MAX_NODES = 2_000_000
"""Nodes a search takes unless --max-nodes or --timeout is given (positions, and proofs by their work):
with neither, the answer is the same on every machine; a --timeout alone lets the search run on both
cores (docs/link.md, solver item 13)."""

Pair = tuple[tuple[int, int], tuple[int, int]]


def _rules(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--gravity", action="store_true", help="tiles fall into gaps (KShisen)")
    parser.add_argument(
        "--no-ring", action="store_true", help="paths may not run along the outside ring"
    )


def _options(verb: str, parser: argparse.ArgumentParser) -> None:
    _rules(parser)
    if verb == "new":
        parser.add_argument("size", help="WxH, e.g. 18x8")
        parser.add_argument("--kinds", type=int, required=True, help="number of tile kinds")
        parser.add_argument("--copies", type=int, default=4, help="tiles per kind and round (even)")
        parser.add_argument(
            "--plain", action="store_true", help="a plain random deal, maybe unsolvable"
        )
    if verb == "hint":
        parser.add_argument(
            "--clearable",
            action="store_true",
            help="a pair that keeps the board clearable if the solver finds one within the limits",
        )


def _board(args: argparse.Namespace) -> Any:
    from tilegames.link import Board

    return Board.parse(args.board, gravity=args.gravity, ring=not args.no_ring)


def _solve(board: Any, args: argparse.Namespace, limits: Any) -> Any:
    from tilegames.link import solve

    return solve(board, limits=limits)


def _hint(board: Any, args: argparse.Namespace, limits: Any) -> Pair | None:
    from tilegames.link import hint

    return hint(board, clearable=args.clearable, limits=limits)


def _cells(args: argparse.Namespace) -> int:
    width, height = size(args.size, limit=MAX_SIDE)
    return width * height


def _deal(args: argparse.Namespace, rng: random.Random) -> list[Any]:
    from tilegames.link import deal

    width, height = size(args.size, limit=MAX_SIDE)
    return [
        deal(
            width,
            height,
            args.kinds,
            args.copies,
            seed=rng,
            gravity=args.gravity,
            solvable=not args.plain,
            ring=not args.no_ring,
        )
        for _ in range(args.count)
    ]


def _pair_json(pair: Pair) -> list[list[int]]:
    return [list(pair[0]), list(pair[1])]


def _pair_text(pair: Pair) -> str:
    return f"{pair[0]} {pair[1]}"


def _cell(text: str) -> tuple[int, int]:
    parts = text.replace("(", "").replace(")", "").split(",")
    if len(parts) != 2 or not all(p.strip().lstrip("-").isdigit() for p in parts):
        raise CommandError(f"cell {text!r} is not of the form ROW,COL, e.g. 0,3")
    return int(parts[0]), int(parts[1])


def _path(args: argparse.Namespace) -> int:
    board = _board(args)
    path = board.path(_cell(args.a), _cell(args.b))
    emit({"path": path}, args.json, "no path" if path is None else str(path))
    return 0 if path is not None else NOT_FOUND


def _reshuffle(args: argparse.Namespace) -> int:
    from tilegames.link import reshuffle

    board = _board(args)
    if max(board.width, board.height) > MAX_SIDE:
        raise CommandError(
            f"a {board.width}x{board.height} board is too big to reshuffle (sides up to {MAX_SIDE})"
        )
    board = reshuffle(board, seed=args.seed, solvable=not args.plain)
    emit({"board": str(board)}, args.json, "\n".join(board.rows()))
    return 0


def _more_verbs(verbs: argparse._SubParsersAction[Any]) -> None:
    path = verbs.add_parser("path", help="the fewest-turn path joining two tiles (exit 1: none)")
    path.add_argument("board")
    path.add_argument("a", help="ROW,COL")
    path.add_argument("b", help="ROW,COL")
    _rules(path)
    add_json(path)
    path.set_defaults(run=_path)

    shuffle = verbs.add_parser("reshuffle", help="shuffle the remaining tiles, leaving a move")
    shuffle.add_argument("board")
    shuffle.add_argument("--seed", type=seed, default=None, help="seed (0 or more)")
    shuffle.add_argument("--plain", action="store_true", help="only guarantee one move")
    _rules(shuffle)
    add_json(shuffle)
    shuffle.set_defaults(run=_reshuffle)


GAME = Game(
    name="link",
    help="Lianliankan (连连看, Onet, Shisen-Sho)",
    board_help="rows joined by '/', '.' empty",
    board=_board,
    solve=_solve,
    hint=_hint,
    deal=_deal,
    cells=_cells,
    options=_options,
    move_json=_pair_json,
    move_text=_pair_text,
    board_text=lambda board: "\n".join(board.rows()),
    hint_extras=lambda board, pair: {"path": board.path(*pair)},
    more_verbs=_more_verbs,
    default_nodes=SOLVE_MAX_NODES,
    default_timeout=SOLVE_TIMEOUT,
    node_name=f"positions (default {SOLVE_MAX_NODES:,} unless --timeout is given)",
)

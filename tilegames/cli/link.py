"""`tilegames link ...`: deal, hint, path, solve and reshuffle Lianliankan boards."""

from __future__ import annotations

import argparse

from tilegames.cli.common import NOT_FOUND, CommandError, Parser, add_json, emit, size
from tilegames.link import Board, deal, solve

MAX_SIDE = 40
"""Largest side `new` and `reshuffle` take: the clearable construction grows fast with the board (KShisen's
largest is 30x16; a 40x40 deal takes about 2 s, a 64x64 one half a minute)."""
SOLVE_TIMEOUT = 60.0
"""Seconds `solve` searches unless --timeout says otherwise (the library's solve has no default limit)."""


def _seed(text: str) -> int:
    value = int(text)
    if value < 0:  # random.Random(-n) is random.Random(n): refuse rather than repeat a deal
        raise argparse.ArgumentTypeError(f"seed must be 0 or more, not {value}")
    return value


def _rules(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--gravity", action="store_true", help="tiles fall into gaps (KShisen)")
    parser.add_argument(
        "--no-ring", action="store_true", help="paths may not run along the outside ring"
    )
    add_json(parser)


def _board(args: argparse.Namespace) -> Board:
    return Board.parse(args.board, gravity=args.gravity, ring=not args.no_ring)


def _cell(text: str) -> tuple[int, int]:
    parts = text.replace("(", "").replace(")", "").split(",")
    if len(parts) != 2 or not all(p.strip().lstrip("-").isdigit() for p in parts):
        raise CommandError(f"cell {text!r} is not of the form ROW,COL, e.g. 0,3")
    return int(parts[0]), int(parts[1])


def _pair_json(pair: tuple[tuple[int, int], tuple[int, int]]) -> list[list[int]]:
    return [list(pair[0]), list(pair[1])]


def _new(args: argparse.Namespace) -> int:
    width, height = size(args.size, limit=MAX_SIDE)
    board = deal(
        width,
        height,
        args.kinds,
        args.copies,
        seed=args.seed,
        gravity=args.gravity,
        solvable=not args.plain,
        ring=not args.no_ring,
    )
    emit({"board": str(board)}, args.json, "\n".join(board.rows()))
    return 0


def _hint(args: argparse.Namespace) -> int:
    board = _board(args)
    pair = board.hint(clearable=args.clearable)
    if pair is None:
        why = "the board is cleared" if board.is_cleared() else "no pair can be removed"
        emit({"pair": None, "path": None}, args.json, f"no move: {why}")
        return NOT_FOUND
    path = board.path(*pair)
    emit({"pair": _pair_json(pair), "path": path}, args.json, f"{pair[0]} {pair[1]} via {path}")
    return 0


def _path(args: argparse.Namespace) -> int:
    board = _board(args)
    path = board.path(_cell(args.a), _cell(args.b))
    emit({"path": path}, args.json, "no path" if path is None else str(path))
    return 0 if path is not None else NOT_FOUND


def _solve(args: argparse.Namespace) -> int:
    board = _board(args)
    timeout = SOLVE_TIMEOUT if args.timeout is None else args.timeout
    result = solve(board, max_nodes=args.max_nodes, timeout=timeout)
    if result.solvable:
        pairs = [_pair_json(pair) for pair in result.pairs]
        text = "\n".join(f"{a} {b}" for a, b in result.pairs) or "already cleared"
        emit({"solvable": True, "pairs": pairs}, args.json, text)
        return 0
    if result.solvable is False:
        emit({"solvable": False}, args.json, f"cannot be cleared ({result.nodes} nodes searched)")
    else:
        emit(
            {"solvable": None, "limit": result.limit},
            args.json,
            f"undecided: the {result.limit} limit was hit after {result.nodes} nodes",
        )
    return NOT_FOUND


def _reshuffle(args: argparse.Namespace) -> int:
    board = _board(args)
    if max(board.width, board.height) > MAX_SIDE:
        raise CommandError(
            f"a {board.width}x{board.height} board is too big to reshuffle (sides up to {MAX_SIDE})"
        )
    board = board.reshuffle(seed=args.seed, solvable=not args.plain)
    emit({"board": str(board)}, args.json, "\n".join(board.rows()))
    return 0


def add_parser(games: argparse._SubParsersAction) -> None:
    parser: Parser = games.add_parser("link", help="Lianliankan (连连看, Onet, Shisen-Sho)")
    verbs = parser.add_subparsers(dest="verb", required=True, metavar="VERB")

    new = verbs.add_parser("new", help="deal a full board (clearable unless --plain)")
    new.add_argument("size", help="WxH, e.g. 18x8")
    new.add_argument("--kinds", type=int, required=True, help="number of tile kinds")
    new.add_argument("--copies", type=int, default=4, help="tiles per kind and round (even)")
    new.add_argument("--seed", type=_seed, default=None)
    new.add_argument("--plain", action="store_true", help="a plain random deal, maybe unsolvable")
    _rules(new)
    new.set_defaults(run=_new)

    hint = verbs.add_parser("hint", help="a removable pair and its path (exit 1 when stuck)")
    hint.add_argument("board", help="rows joined by '/', '.' empty")
    hint.add_argument(
        "--clearable", action="store_true", help="a pair that keeps the board clearable if possible"
    )
    _rules(hint)
    hint.set_defaults(run=_hint)

    path = verbs.add_parser("path", help="the fewest-turn path joining two tiles (exit 1: none)")
    path.add_argument("board")
    path.add_argument("a", help="ROW,COL")
    path.add_argument("b", help="ROW,COL")
    _rules(path)
    path.set_defaults(run=_path)

    solver = verbs.add_parser("solve", help="clear the board, or prove it cannot be (exit 1)")
    solver.add_argument("board")
    solver.add_argument("--max-nodes", type=int, default=None, help="stop after N positions")
    solver.add_argument(
        "--timeout",
        type=float,
        default=None,
        help=f"stop after S seconds (default {SOLVE_TIMEOUT:g})",
    )
    _rules(solver)
    solver.set_defaults(run=_solve)

    shuffle = verbs.add_parser("reshuffle", help="shuffle the remaining tiles, leaving a move")
    shuffle.add_argument("board")
    shuffle.add_argument("--seed", type=_seed, default=None)
    shuffle.add_argument("--plain", action="store_true", help="only guarantee one move")
    _rules(shuffle)
    shuffle.set_defaults(run=_reshuffle)

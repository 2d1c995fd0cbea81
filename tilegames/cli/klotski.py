"""`tilegames klotski ...`: solve, hint, list, analyse, universe."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from tilegames.cli.common import DONE, NOT_FOUND, CommandError, Parser, add_json, emit
from tilegames.klotski import NAMED_LAYOUTS, SearchLimitError, layout, solve
from tilegames.klotski.board import METRICS


def add_parser(games: argparse._SubParsersAction) -> None:
    parser: Parser = games.add_parser(
        "klotski", help="Klotski (华容道): solve, hint, analyse the named layouts"
    )
    verbs = parser.add_subparsers(dest="verb", required=True, metavar="VERB")

    solve_parser = verbs.add_parser(
        "solve", help="an optimal solution of a layout (a name such as 横刀立马 or notation)"
    )
    _layout_and_metric(solve_parser)
    solve_parser.set_defaults(run=run_solve)

    hint_parser = verbs.add_parser("hint", help="the first move of an optimal solution")
    _layout_and_metric(hint_parser)
    hint_parser.set_defaults(run=run_hint)

    list_parser = verbs.add_parser("list", help="the named layouts")
    add_json(list_parser)
    list_parser.set_defaults(run=run_list)

    analyse_parser = verbs.add_parser(
        "analyse", help="reachable set, distances to the exit, farthest positions"
    )
    _layout_and_metric(analyse_parser)
    analyse_parser.add_argument(
        "--graph", type=Path, help="write the state graph as node-link JSON (networkx)"
    )
    analyse_parser.set_defaults(run=run_analyse)

    universe_parser = verbs.add_parser(
        "universe", help="every layout of a board, grouped; hardest per piece set"
    )
    universe_parser.add_argument("--size", default="4x5", help="board size WxH (default 4x5)")
    universe_parser.add_argument(
        "--cache", type=Path, help="cache directory (default: $TILEGAMES_CACHE or the user cache)"
    )
    universe_parser.add_argument(
        "--top", type=int, default=10, help="piece sets to show, hardest first (text output)"
    )
    universe_parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_json(universe_parser)
    universe_parser.set_defaults(run=run_universe)


def _layout_and_metric(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "layout", help="a layout name (横刀立马), pinyin alias (heng-dao-li-ma) or notation"
    )
    parser.add_argument(
        "--metric", choices=METRICS, default="moves", help="count moves (default) or unit steps"
    )
    parser.add_argument(
        "--max-states",
        type=int,
        default=None,
        metavar="N",
        help="stop after N positions (default 50,000,000; 500,000 on boards over 21 cells)",
    )
    add_json(parser)


def _undecided(error: SearchLimitError, args: argparse.Namespace) -> int:
    """Report a search that hit its limit: ``{"solvable": null, "limit": ...}``, exit 1."""
    emit({"solvable": None, "limit": str(error)}, args.json, f"undecided: {error}")
    return NOT_FOUND


def run_solve(args: argparse.Namespace) -> int:
    board = layout(args.layout)
    try:
        solution = solve(board, args.metric, max_states=args.max_states)
    except SearchLimitError as error:
        return _undecided(error, args)
    if solution is None:
        emit(
            {"solvable": False},
            args.json,
            f"{board}: no solution (the whole reachable set was searched)",
        )
        return NOT_FOUND
    payload = {"length": solution.length, "metric": solution.metric, "moves": solution.moves}
    moves = " ".join(solution.moves) or "already solved"
    emit(payload, args.json, f"{solution.length} {solution.metric}: {moves}")
    return DONE


def run_hint(args: argparse.Namespace) -> int:
    board = layout(args.layout)
    if board.is_solved():
        emit({"move": None, "solved": True}, args.json, "already solved")
        return NOT_FOUND
    try:
        solution = solve(board, args.metric, max_states=args.max_states)
    except SearchLimitError as error:
        return _undecided(error, args)
    if solution is None:
        emit({"move": None, "solvable": False}, args.json, "no solution: no move leads to the exit")
        return NOT_FOUND
    emit({"move": solution.moves[0]}, args.json, solution.moves[0])
    return DONE


def run_list(args: argparse.Namespace) -> int:
    rows = [{"name": e.name, "alias": e.alias, "layout": e.layout} for e in NAMED_LAYOUTS]
    text = "\n".join(f"{e.name}\t{e.alias}\t{e.layout}" for e in NAMED_LAYOUTS)
    emit({"layouts": rows}, args.json, text)
    return DONE


def run_analyse(args: argparse.Namespace) -> int:
    from tilegames.klotski.space import analyse

    try:
        result = analyse(layout(args.layout), args.metric, max_states=args.max_states)
    except SearchLimitError as error:
        return _undecided(error, args)
    summary = result.summary()
    if args.graph:
        try:
            args.graph.write_text(
                json.dumps(result.node_link(), ensure_ascii=False), encoding="utf-8"
            )
        except OSError as error:
            raise CommandError(
                f"cannot write the graph to {args.graph}: {error.strerror}"
            ) from None
        summary["graph"] = str(args.graph)
    lines = [
        f"layout: {result.layout}",
        f"reachable positions: {result.positions} ({result.positions_mirror_folded} with mirror images folded)",
        f"solved positions among them: {result.solved_positions}",
    ]
    if result.distance is None:
        lines.append("unsolvable: no solved position is reachable")
    else:
        more = " ..." if len(result.farthest) > 5 else ""
        lines.append(f"distance to the exit: {result.distance} {args.metric}")
        lines.append(
            f"farthest from the exit: {result.max_distance} {args.metric}: {', '.join(result.farthest[:5])}{more}"
        )
    text = "\n".join(lines)
    emit(summary, args.json, text)
    return DONE


def run_universe(args: argparse.Namespace) -> int:
    from tilegames.cli.common import size
    from tilegames.klotski.universe import universe

    width, height = size(args.size, limit=10)
    if args.top < 0:
        raise CommandError(f"--top {args.top}: give 0 or more piece sets to show")
    if width * height > 21:
        raise CommandError(f"the universe takes boards of at most 21 cells, not {width}x{height}")
    try:
        result = universe(width, height, cache_dir=args.cache, progress=not args.no_progress)
    except OSError as error:
        raise CommandError(
            f"cannot use the cache {error.filename or args.cache}: {error.strerror}"
        ) from None
    summary = result.summary()
    lines = [
        f"{width}x{height} layouts: {result.layouts} in {result.groups} groups "
        f"({result.solvable_groups} solvable groups, {result.solvable_layouts} solvable layouts)",
        f"piece sets: {len(result.piece_sets)}; computed in {result.seconds:.1f} s; cache {result.path}",
        "hardest piece sets (2×2 + 1×2 horizontal, 2×1 vertical, 1×1 counts): moves, one hardest layout",
    ]
    for entry in summary["piece_sets"][: args.top]:
        lines.append(
            f"  h{entry['horizontal']} v{entry['vertical']} s{entry['singles']}: {entry['hardest']} {entry['hardest_layouts'][:1]}"
        )
    emit(summary, args.json, "\n".join(lines))
    return DONE

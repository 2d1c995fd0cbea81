"""`tilegames klotski ...`: the shared verbs (new, solve, hint, check) and list, analyse, universe."""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

from tilegames.cli.common import DONE, NOT_FOUND, CommandError, add_json, add_limits, emit, size
from tilegames.cli.games import Game

METRICS = ("moves", "steps")


def _metric(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--metric", choices=METRICS, default="moves", help="count moves (default) or unit steps"
    )


def _options(verb: str, parser: argparse.ArgumentParser) -> None:
    if verb == "new":
        parser.add_argument("size", nargs="?", default="4x5", help="WxH (default 4x5)")
        parser.add_argument("--empty", type=int, default=2, help="empty cells (default 2)")
        return
    _metric(parser)


def _board(args: argparse.Namespace) -> Any:
    from tilegames.klotski import layout

    return layout(args.board)


def _solve(board: Any, args: argparse.Namespace, limits: Any) -> Any:
    from tilegames.klotski import solve

    return solve(board, args.metric, limits=limits)


def _hint(board: Any, args: argparse.Namespace, limits: Any) -> str | None:
    from tilegames.klotski import hint

    return hint(board, args.metric, limits=limits)


def _cells(args: argparse.Namespace) -> int:
    width, height = size(args.size, limit=10)
    return width * height


def _deal(args: argparse.Namespace, rng: random.Random) -> list[Any]:
    from tilegames.klotski.generate import random_layout

    width, height = size(args.size, limit=10)
    return [random_layout(width, height, empty=args.empty, seed=rng) for _ in range(args.count)]


def _extras(solution: Any) -> dict[str, Any]:
    return {
        "metric": solution.metric,
        "move_count": solution.move_count,
        "step_count": solution.step_count,
    }


def _more_verbs(verbs: argparse._SubParsersAction[Any]) -> None:
    list_parser = verbs.add_parser("list", help="the named layouts")
    add_json(list_parser)
    list_parser.set_defaults(run=run_list)

    analyse_parser = verbs.add_parser(
        "analyse", help="reachable set, distances to the exit, farthest positions"
    )
    analyse_parser.add_argument(
        "board", help="a layout name (横刀立马), pinyin alias (heng-dao-li-ma) or notation"
    )
    _metric(analyse_parser)
    add_limits(analyse_parser, "positions")
    add_json(analyse_parser)
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


GAME = Game(
    name="klotski",
    help="Klotski (华容道): solve, hint, analyse the named layouts",
    board_help="a layout name (横刀立马), pinyin alias (heng-dao-li-ma) or notation",
    board=_board,
    solve=_solve,
    hint=_hint,
    deal=_deal,
    cells=_cells,
    options=_options,
    extras=_extras,
    more_verbs=_more_verbs,
    node_name="positions (default 50,000,000; 500,000 on boards over 21 cells)",
)


def run_list(args: argparse.Namespace) -> int:
    from tilegames.klotski import NAMED_LAYOUTS

    rows = [
        {"name": e.name, "alias": e.alias, "english": e.english, "layout": e.layout}
        for e in NAMED_LAYOUTS
    ]
    text = "\n".join(f"{e.name}\t{e.alias}\t{e.layout}\t{e.english}" for e in NAMED_LAYOUTS)
    emit({"layouts": rows}, args.json, text)
    return DONE


def run_analyse(args: argparse.Namespace) -> int:
    from tilegames.common import SearchLimitError
    from tilegames.klotski import layout
    from tilegames.klotski.space import analyse

    if args.timeout is not None:
        raise CommandError("analyse takes --max-nodes only: it counts positions, not seconds")
    try:
        result = analyse(layout(args.board), args.metric, max_states=args.max_nodes)
    except SearchLimitError as error:
        emit(
            {"solvable": None, "limit": "max_nodes", "message": str(error)},
            args.json,
            f"undecided: {error}",
        )
        return NOT_FOUND
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

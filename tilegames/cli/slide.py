"""`tilegames slide new|solve|check|hint`: deals, solutions, solvability and hints for the sliding puzzle."""

from __future__ import annotations

import argparse
import random

from tilegames.cli.common import NOT_FOUND, CommandError, Parser, add_json, emit, size
from tilegames.slide import (
    Board,
    SearchLimitError,
    UnsolvableError,
    hint,
    random_board,
    scramble,
    solve,
)

MAX_COUNT = 10_000


def add_parser(games: argparse._SubParsersAction) -> None:
    parser: Parser = games.add_parser(
        "slide", help="the sliding number puzzle (15-puzzle, any WxH)"
    )
    verbs = parser.add_subparsers(dest="verb", required=True, metavar="VERB")

    new = verbs.add_parser("new", help="deal uniformly random solvable boards")
    new.add_argument("size", help="WxH, e.g. 4x4")
    new.add_argument("--seed", type=int, help="seed for a reproducible deal")
    group = new.add_mutually_exclusive_group()
    group.add_argument(
        "--walk", type=int, metavar="K", help="a random walk of K moves from the goal"
    )
    group.add_argument("--distance", type=int, metavar="D", help="optimal solution exactly D moves")
    new.add_argument(
        "--count", type=int, default=1, metavar="N", help="how many boards (default 1)"
    )
    add_json(new)
    new.set_defaults(run=run_new)

    solve_ = verbs.add_parser("solve", help="solve a board (optimal unless --fast)")
    solve_.add_argument("board", help='e.g. "5 1 3/4 0 2/7 8 6"')
    solve_.add_argument("--goal", help="goal board (default: 1..N-1, blank last)")
    solve_.add_argument("--fast", action="store_true", help="near-optimal, for big boards")
    solve_.add_argument("--max-nodes", type=int, metavar="N", help="stop after N search nodes")
    solve_.add_argument(
        "--timeout",
        type=float,
        metavar="S",
        help="stop the search after S seconds (a first-ever build of the databases comes first)",
    )
    solve_.add_argument(
        "--partition",
        help="pattern databases for 4x4: 6-6-3 (default) or 7-8 (built once: ~15 min, 580 MB)",
    )
    add_json(solve_)
    solve_.set_defaults(run=run_solve)

    check = verbs.add_parser("check", help="can the board reach the goal?")
    check.add_argument("board")
    check.add_argument("--goal")
    add_json(check)
    check.set_defaults(run=run_check)

    hint_ = verbs.add_parser(
        "hint", help="the next move of an optimal (or, on big boards, fast) solution"
    )
    hint_.add_argument("board")
    hint_.add_argument("--goal")
    hint_.add_argument("--timeout", type=float, metavar="S", help="optimal search budget")
    add_json(hint_)
    hint_.set_defaults(run=run_hint)


def _boards(args: argparse.Namespace) -> tuple[Board, Board | None]:
    board = Board.parse(args.board)
    goal = Board.parse(args.goal) if args.goal is not None else None
    if goal is not None and (goal.width, goal.height) != (board.width, board.height):
        raise CommandError(f"goal is {goal.size} but the board is {board.size}")
    return board, goal


def run_new(args: argparse.Namespace) -> int:
    width, height = size(args.size)
    if not 1 <= args.count <= MAX_COUNT:
        raise CommandError(f"count {args.count} is out of range 1..{MAX_COUNT}")
    if args.walk is not None and args.walk < 0:
        raise CommandError(f"walk {args.walk} must be at least 0")
    rng = random.Random(args.seed)
    boards = []
    for _ in range(args.count):
        if args.walk is not None:
            boards.append(scramble(Board.solved(width, height), args.walk, seed=rng))
        else:
            boards.append(random_board(width, height, seed=rng, distance=args.distance))
    texts = [str(b) for b in boards]
    emit({"boards": texts}, args.json, "\n".join(texts))
    return 0


def run_solve(args: argparse.Namespace) -> int:
    board, goal = _boards(args)
    try:
        solution = solve(
            board,
            goal,
            fast=args.fast,
            max_nodes=args.max_nodes,
            timeout=args.timeout,
            partition=args.partition,
        )
    except UnsolvableError as error:
        emit({"solvable": False}, args.json, f"unsolvable: {error}")
        return NOT_FOUND
    except SearchLimitError as error:
        emit({"solved": False, "limit": str(error), "nodes": error.nodes}, args.json, str(error))
        return NOT_FOUND
    payload = {
        "moves": solution.moves,
        "length": solution.length,
        "optimal": solution.optimal,
        "nodes": solution.nodes,
        "lower_bound": solution.lower_bound,
    }
    kind = "optimal" if solution.optimal else f"at least {solution.lower_bound} needed"
    emit(payload, args.json, f"{solution.moves}\n{solution.length} moves ({kind})")
    return 0


def run_check(args: argparse.Namespace) -> int:
    board, goal = _boards(args)
    solvable = board.is_solvable(goal)
    emit({"solvable": solvable}, args.json, "solvable" if solvable else "unsolvable")
    return 0


def run_hint(args: argparse.Namespace) -> int:
    board, goal = _boards(args)
    try:
        move = hint(board, goal, timeout=args.timeout)
    except UnsolvableError as error:
        emit({"solvable": False}, args.json, f"unsolvable: {error}")
        return NOT_FOUND
    emit({"move": move}, args.json, move or "solved")
    return 0

"""`tilegames slide new|solve|hint|check`: the sliding puzzle's adapter for the shared verbs."""

from __future__ import annotations

import argparse
import random
from typing import Any

from tilegames.cli.common import CommandError, size
from tilegames.cli.games import Game

MAX_WALK = 1_000_000
"""Longest random walk `new --walk` takes (a million moves mixes any board the CLI deals)."""


def _options(verb: str, parser: argparse.ArgumentParser) -> None:
    if verb == "new":
        parser.add_argument("size", help="WxH, e.g. 4x4")
        group = parser.add_mutually_exclusive_group()
        group.add_argument(
            "--walk", type=int, metavar="K", help=f"a random walk of K moves (up to {MAX_WALK})"
        )
        group.add_argument(
            "--distance", type=int, metavar="D", help="optimal solution exactly D moves"
        )
        return
    parser.add_argument("--goal", help="goal board (default: 1..N-1, blank last)")
    if verb == "solve":
        parser.add_argument("--fast", action="store_true", help="near-optimal, for big boards")
        parser.add_argument(
            "--partition",
            help=(
                "pattern databases: on 4x4 6-6-3 (default) or 7-8, on 5x5 5-5-5-5-4 (default) or"
                " 6-6-6-6 (each built once: ~3 and ~2 min on 2 cores, 580 and 510 MB; used by"
                " default once built)"
            ),
        )


def _boards(args: argparse.Namespace) -> tuple[Any, Any]:
    from tilegames.slide import Board

    board = Board.parse(args.board)
    goal = Board.parse(args.goal) if args.goal is not None else None
    if goal is not None and (goal.width, goal.height) != (board.width, board.height):
        raise CommandError(f"goal is {goal.size} but the board is {board.size}")
    return board, goal


def _solve(boards: tuple[Any, Any], args: argparse.Namespace, limits: Any) -> Any:
    from tilegames.slide import solve

    fast = getattr(args, "fast", False)
    partition = getattr(args, "partition", None)
    return solve(*boards, limits=limits, fast=fast, partition=partition)


def _hint(boards: tuple[Any, Any], args: argparse.Namespace, limits: Any) -> str | None:
    from tilegames.slide import hint

    return hint(*boards, limits=limits)


def _cells(args: argparse.Namespace) -> int:
    width, height = size(args.size)
    return width * height


def _deal(args: argparse.Namespace, rng: random.Random) -> list[Any]:
    from tilegames.slide import Board, random_board, scramble

    width, height = size(args.size)
    if args.walk is not None and not 0 <= args.walk <= MAX_WALK:
        raise CommandError(f"walk {args.walk} is out of range 0..{MAX_WALK}")
    if args.walk is not None:
        return [
            scramble(Board.solved(width, height), args.walk, seed=rng) for _ in range(args.count)
        ]
    return [
        random_board(width, height, seed=rng, distance=args.distance) for _ in range(args.count)
    ]


GAME = Game(
    name="slide",
    help="the sliding number puzzle (15-puzzle, any WxH)",
    board_help='e.g. "5 1 3/4 0 2/7 8 6"',
    board=_boards,
    solved=lambda boards: bool(boards[0].is_solved(boards[1])),
    solve=_solve,
    hint=_hint,
    deal=_deal,
    cells=_cells,
    options=_options,
    move_text=str,
    move_separator="",
    extras=lambda solution: {"lower_bound": solution.lower_bound},
)

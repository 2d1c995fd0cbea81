"""The verbs every game shares (`new`, `solve`, `hint`, `check`): one set of flags, JSON shapes and exit codes.

Each game registers a `Game` (its adapter: how to read a board, solve, hint, deal, and write moves); the verbs
here never ask which game they run. JSON shapes, the same in every game:

- solve: ``{"solvable": true, "moves": [...], "length", "optimal", "nodes", ...game extras}``;
  ``{"solvable": false}`` (proved, exit 1); a limit: ``{"solvable": null, "limit": "max_nodes"|"timeout",
  "nodes": N, "message": "..."}`` (exit 1).
- hint: ``{"move": m}``; none: ``{"move": null, "solved": true}`` or ``{"move": null, "solvable": false}`` (exit 1);
  a limit as for solve.
- check: ``{"solvable": true|false}`` (exit 0 / 1), a limit as for solve.
- new: ``{"boards": [...]}``.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tilegames.cli.common import (
    DONE,
    NOT_FOUND,
    CommandError,
    Parser,
    add_json,
    add_limits,
    emit,
    limits,
    seed,
)

MAX_COUNT = 10_000
"""Most boards one `new` deals."""
MAX_OUTPUT_CELLS = 4_000_000
"""Most cells one `new` prints (count × cells of a board): a bound on time, memory and output."""

Board = Any
Move = Any


@dataclass(frozen=True)
class Game:
    """One game's adapter for the shared verbs."""

    name: str
    help: str
    board_help: str
    board: Callable[[argparse.Namespace], Board]
    """The board of `args.board` (with the game's own flags, e.g. link's --gravity)."""
    solve: Callable[[Board, argparse.Namespace, Any], Any]
    """A Solution or None; SearchLimitError at a limit."""
    hint: Callable[[Board, argparse.Namespace, Any], Move | None]
    deal: Callable[[argparse.Namespace, Any], list[Board]]
    """`args.count` boards from the seeded random.Random given."""
    cells: Callable[[argparse.Namespace], int]
    """Cells of one board `new` would deal (to bound the output before dealing)."""
    options: Callable[[str, argparse.ArgumentParser], None]
    """Adds the game's own flags to a shared verb ("new", "solve", "hint", "check")."""
    move_json: Callable[[Move], Any] = str
    move_text: Callable[[Move], str] = str
    move_separator: str = "\n"
    """Between the moves of a printed solution: a line each, or slide's letters run together."""
    board_text: Callable[[Board], str] = str
    extras: Callable[[Any], dict[str, Any]] = lambda solution: {}
    """Game-specific fields of a solution's JSON (klotski's two metrics, slide's lower bound)."""
    solved: Callable[[Board], bool] = lambda board: bool(board.is_solved())
    """Whether the board (as `board` returned it) is solved: hint has nothing to say then."""
    hint_extras: Callable[[Board, Move], dict[str, Any]] = lambda board, move: {}
    more_verbs: Callable[[argparse._SubParsersAction[Any]], None] = lambda verbs: None
    default_nodes: int | None = None
    default_timeout: float | None = None
    node_name: str = "search nodes"


def add_game(games: argparse._SubParsersAction[Any], game: Game) -> None:
    """`tilegames GAME ...` with the shared verbs and the game's own."""
    parser: Parser = games.add_parser(game.name, help=game.help)
    verbs = parser.add_subparsers(dest="verb", required=True, metavar="VERB")

    new = verbs.add_parser("new", help="deal random boards")
    new.add_argument("--seed", type=seed, help="seed (0 or more) for a reproducible deal")
    new.add_argument(
        "--count", type=int, default=1, metavar="N", help="how many boards (default 1)"
    )
    game.options("new", new)
    add_json(new)
    new.set_defaults(run=lambda args: run_new(game, args))

    for verb, help_, run in (
        ("solve", "solve a board, or prove it has no solution", run_solve),
        ("hint", "the next move of a solution", run_hint),
        ("check", "can the board be solved?", run_check),
    ):
        sub = verbs.add_parser(verb, help=help_)
        sub.add_argument("board", help=game.board_help)
        add_limits(sub, game.node_name)
        game.options(verb, sub)
        add_json(sub)
        sub.set_defaults(run=lambda args, run=run: run(game, args))
    game.more_verbs(verbs)


def _limits(game: Game, args: argparse.Namespace) -> Any:
    return limits(args, game.default_nodes, game.default_timeout)


def _limit_hit(error: Any, args: argparse.Namespace) -> int:
    """Report a search that stopped at a limit, the same way in every game; exit 1."""
    payload = {"solvable": None, "limit": error.limit, "nodes": error.nodes, "message": str(error)}
    emit(payload, args.json, f"undecided: {error}")
    return NOT_FOUND


def run_solve(game: Game, args: argparse.Namespace) -> int:
    from tilegames.common import SearchLimitError

    board = game.board(args)
    try:
        solution = game.solve(board, args, _limits(game, args))
    except SearchLimitError as error:
        return _limit_hit(error, args)
    if solution is None:
        emit({"solvable": False}, args.json, "no solution (proved)")
        return NOT_FOUND
    payload = {
        "solvable": True,
        "moves": [game.move_json(m) for m in solution.moves],
        "length": solution.length,
        "optimal": solution.optimal,
        "nodes": solution.nodes,
        **game.extras(solution),
    }
    kind = "optimal" if solution.optimal else "not proved optimal"
    unit = getattr(solution, "metric", "moves")  # klotski counts in either metric
    moves = game.move_separator.join(game.move_text(m) for m in solution.moves)
    text = f"{solution.length} {unit} ({kind})\n{moves}" if moves else f"already solved: 0 {unit}"
    emit(payload, args.json, text)
    return DONE


def run_hint(game: Game, args: argparse.Namespace) -> int:
    from tilegames.common import SearchLimitError

    board = game.board(args)
    if game.solved(board):
        emit({"move": None, "solved": True}, args.json, "already solved: no move to hint")
        return NOT_FOUND
    try:
        move = game.hint(board, args, _limits(game, args))
    except SearchLimitError as error:
        return _limit_hit(error, args)
    if move is None:
        emit({"move": None, "solvable": False}, args.json, "no solution: no move to hint")
        return NOT_FOUND
    payload = {"move": game.move_json(move), **game.hint_extras(board, move)}
    emit(payload, args.json, game.move_text(move))
    return DONE


def run_check(game: Game, args: argparse.Namespace) -> int:
    from tilegames.common import SearchLimitError

    board = game.board(args)
    try:
        solution = game.solve(board, args, _limits(game, args))
    except SearchLimitError as error:
        return _limit_hit(error, args)
    solvable = solution is not None
    emit({"solvable": solvable}, args.json, "solvable" if solvable else "unsolvable")
    return DONE if solvable else NOT_FOUND


def run_new(game: Game, args: argparse.Namespace) -> int:
    from tilegames.common import rng

    if not 1 <= args.count <= MAX_COUNT:
        raise CommandError(f"count {args.count} is out of range 1..{MAX_COUNT}")
    cells = game.cells(args)
    if cells * args.count > MAX_OUTPUT_CELLS:
        raise CommandError(
            f"{args.count} boards of {cells} cells are {cells * args.count} cells, "
            f"more than one run prints ({MAX_OUTPUT_CELLS}): deal fewer or smaller boards"
        )
    boards = game.deal(args, rng(args.seed))
    texts = [game.board_text(b) for b in boards]
    separator = "\n\n" if any("\n" in text for text in texts) else "\n"
    emit({"boards": [str(b) for b in boards]}, args.json, separator.join(texts))
    return DONE

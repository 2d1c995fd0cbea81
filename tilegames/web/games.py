"""What the server does in-process for each game: check a new game's options, draw its state as JSON, apply a move.

Everything here is quick (parse a board, push one move, format it) and runs in Starlette's thread pool; the slow
jobs are in :mod:`tilegames.web.tasks`. The engines are used only through their public API.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from tilegames.store import GameRow
from tilegames.web.limits import Limits


class BadRequest(ValueError):
    """The request is well-formed JSON but asks for something out of bounds or against the rules (HTTP 422)."""

    def __init__(self, message: str, code: str = "bad_request") -> None:
        super().__init__(message)
        self.code = code


class IllegalMove(BadRequest):
    """The move is not legal in the game's current position (HTTP 422, nothing changed)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, "illegal_move")


@dataclass(frozen=True)
class Outcome:
    """A move accepted: the board after it, the new move count, and whether it wins."""

    board: str
    moves: int
    won: bool = False
    score: int | None = None
    options: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    """Told to the client once with this answer (a path to draw, a reshuffle notice)."""
    reshuffle: bool = False
    """Lianliankan: the board is stuck after this move and must be reshuffled before it is recorded."""


def link_reshuffle_seed(row: GameRow) -> int:
    """A reshuffle's seed, from the game and its ply: a replay of the game reshuffles the same way."""
    return (int(row.id[:12], 16) + row.plies) % 2**32


def _int(params: dict[str, Any], key: str, low: int, high: int, default: int | None = None) -> int:
    value = params.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadRequest(f"{key} must be a whole number from {low} to {high}", "bad_parameter")
    if not low <= value <= high:
        raise BadRequest(f"{key} {value} is out of range {low}..{high}", "out_of_range")
    return value


def _size(
    params: dict[str, Any], sides: tuple[int, int], heights: tuple[int, int] | None = None
) -> tuple[int, int]:
    heights = heights or sides
    return _int(params, "width", *sides), _int(params, "height", *heights)


def _seed(params: dict[str, Any]) -> int | None:
    if params.get("seed") is None:
        return None
    return _int(params, "seed", 0, 2**63 - 1)


# Sliding puzzle.

SLIDE_DISTANCE = {(3, 3): 31, (4, 4): 50}
"""Sizes where a deal can ask for an exact optimal distance, with the largest distance offered."""


def slide_params(params: dict[str, Any], limits: Limits) -> dict[str, Any]:
    width, height = _size(params, limits.slide_sides)
    distance = params.get("distance")
    if distance is not None:
        top = SLIDE_DISTANCE.get((width, height))
        if top is None:
            raise BadRequest("a deal by distance is offered on 3x3 and 4x4 only", "bad_parameter")
        distance = _int(params, "distance", 0, top)
    return {"width": width, "height": height, "distance": distance, "seed": _seed(params)}


def slide_view(row: GameRow) -> dict[str, Any]:
    from tilegames import slide

    board = slide.Board.parse(row.board)
    return {
        "width": board.width,
        "height": board.height,
        "tiles": list(board.tiles),
        "solved": board.is_solved(),
    }


def slide_move(row: GameRow, move: Any, last: str | None) -> Outcome:
    from tilegames import slide

    if not isinstance(move, str) or not move or len(move) > 16 or set(move) - set("UDLR"):
        raise BadRequest(
            "a sliding move is a string of U, D, L, R (the direction the tile travels)", "bad_move"
        )
    board = slide.Board.parse(row.board)
    for index, letter in enumerate(move):
        try:
            board.push(letter)
        except ValueError as error:
            raise IllegalMove(
                f"move {index + 1} of {move!r} ({letter}) is illegal: {error}"
            ) from None
    return Outcome(str(board), row.moves + len(move), won=board.is_solved())


def slide_cells(row: GameRow, move: str) -> list[list[int]]:
    """The tile a slide move letter moves (to highlight a hint)."""
    from tilegames import slide

    board = slide.Board.parse(row.board)
    blank = board.tiles.index(0)
    r, c = divmod(blank, board.width)
    dr, dc = {"U": (1, 0), "D": (-1, 0), "L": (0, 1), "R": (0, -1)}[move]
    return [[r + dr, c + dc]]


def slide_cells_count(row: GameRow) -> int:
    return len(row.board.replace("/", " ").split())


def slide_plan_next(plan: dict[str, Any], board_text: str) -> str | None:
    """The move the plan makes from ``board_text``, if that position lies on the plan (else None)."""
    from tilegames import slide

    board = slide.Board.parse(plan["board"])
    for move in plan["moves"]:
        if str(board) == board_text:
            return move
        board.push(move)
    return None


# Klotski.


def klotski_params(params: dict[str, Any], limits: Limits) -> dict[str, Any]:
    from tilegames import klotski

    text = params.get("layout")
    if not isinstance(text, str) or not text.strip():
        raise BadRequest(
            "layout must be a named layout, its alias, or layout notation", "bad_parameter"
        )
    if len(text) > limits.layout_chars:
        raise BadRequest(
            f"layout text is longer than {limits.layout_chars} characters", "out_of_range"
        )
    text = text.strip()
    named = klotski.LAYOUTS.get(text)
    if named is not None:
        name = next((n.name for n in klotski.NAMED_LAYOUTS if text in (n.name, n.alias)), text)
        return {"layout": str(named), "variant": name}
    try:
        board = klotski.layout(text)
    except ValueError as error:
        raise BadRequest(str(error), "invalid_layout") from None
    low, high = limits.klotski_sides
    if not (low <= board.width <= high and low <= board.height <= high) or (
        board.width * board.height > limits.klotski_cells
    ):
        raise BadRequest(
            f"a custom board must be {low} to {high} cells on each side and at most"
            f" {limits.klotski_cells} cells, not {board.width}x{board.height}",
            "out_of_range",
        )
    same = next((n.name for n in klotski.NAMED_LAYOUTS if n.board == board), None)
    return {"layout": str(board), "variant": same or f"custom {board}"}


def klotski_pieces(text: str) -> list[dict[str, Any]]:
    """The pieces of a layout as rectangles (letter, row, column, width, height), from the notation."""
    rows = [row for row in text.strip().split("/")]
    cells: dict[str, list[tuple[int, int]]] = {}
    for r, row in enumerate(rows):
        for c, char in enumerate(row):
            if char != ".":
                cells.setdefault(char, []).append((r, c))
    pieces = []
    for letter, spots in sorted(cells.items()):
        top = min(r for r, _ in spots)
        left = min(c for _, c in spots)
        height = max(r for r, _ in spots) - top + 1
        width = max(c for _, c in spots) - left + 1
        pieces.append({"id": letter, "row": top, "col": left, "width": width, "height": height})
    return pieces


def klotski_view(row: GameRow) -> dict[str, Any]:
    from tilegames import klotski

    board = klotski.Board.parse(row.board)
    return {
        "width": board.width,
        "height": board.height,
        "pieces": klotski_pieces(str(board)),
        "legal": list(board.moves(metric="moves")),
        "solved": board.is_solved(),
    }


def klotski_move(row: GameRow, move: Any, last: str | None) -> Outcome:
    from tilegames import klotski

    if not isinstance(move, str) or not 3 <= len(move) <= 40 or ":" not in move:
        raise BadRequest("a Klotski move is a string like 'G:RD' (piece, colon, steps)", "bad_move")
    board = klotski.Board.parse(row.board)
    try:
        board.push(move)
    except ValueError as error:
        text = str(
            error
        )  # the engine's message names the move already ("move B:U: ..."): say it once
        raise IllegalMove(text if move in text else f"{move}: {text}") from None
    # The classic count: moving the piece that moved last continues that move.
    same_piece = last is not None and last.split(":")[0] == move.split(":")[0]
    return Outcome(str(board), row.moves + (0 if same_piece else 1), won=board.is_solved())


# Lianliankan.

LINK_SIZES = ((14, 6), (16, 9), (18, 8), (24, 12), (26, 14), (30, 16), (6, 4))
"""KShisen's sizes, and a small one for a quick game."""


def link_params(params: dict[str, Any], limits: Limits) -> dict[str, Any]:
    width, height = _size(params, limits.link_width, limits.link_height)
    cells = width * height
    kinds = _int(params, "kinds", *limits.link_kinds, default=min(36, cells // 4) or 1)
    copies, remainder = divmod(cells, kinds)
    if remainder or copies % 2:
        raise BadRequest(
            f"{kinds} kinds do not fill {width}x{height} ({cells} cells) with an even number of each",
            "bad_parameter",
        )
    gravity = params.get("gravity", False)
    if not isinstance(gravity, bool):
        raise BadRequest("gravity must be true or false", "bad_parameter")
    return {
        "width": width,
        "height": height,
        "kinds": kinds,
        "copies": copies,
        "gravity": gravity,
        "seed": _seed(params),
    }


def link_variant(params: dict[str, Any]) -> str:
    return f"{params['width']}x{params['height']} k{params['kinds']}" + (
        " gravity" if params["gravity"] else ""
    )


def _link_board(row: GameRow) -> Any:
    from tilegames import link

    return link.Board.parse(row.board, gravity=bool(row.options.get("gravity")))


def link_score(row: GameRow, removed: int, seconds: float) -> int:
    from tilegames import link

    cells = row.options.get("cells") or 1
    return int(
        link.score(
            removed, max(seconds, 1.0), gravity=bool(row.options.get("gravity")), board_cells=cells
        )
    )


def link_view(row: GameRow) -> dict[str, Any]:
    board = _link_board(row)
    grid = ["".join(board[(r, c)] or "." for c in range(board.width)) for r in range(board.height)]
    removed = 2 * row.moves
    return {
        "width": board.width,
        "height": board.height,
        "grid": grid,
        "kinds": row.options.get("kinds_chars", []),
        "gravity": board.gravity,
        "remaining": sum(len(line) - line.count(".") for line in grid),
        "score": link_score(row, removed, row.clock(time.time())) if removed else 0,
        "solved": board.is_solved(),
        "reshuffles": row.options.get("reshuffles", 0),
    }


def _cell(value: Any, board: Any) -> tuple[int, int]:
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise BadRequest("a Lianliankan move is two cells [[row, col], [row, col]]", "bad_move")
    r, c = value
    if not (0 <= r < board.height and 0 <= c < board.width):
        raise IllegalMove(f"cell ({r}, {c}) is outside the {board.width}x{board.height} board")
    return (r, c)


def link_move(row: GameRow, move: Any, last: str | None) -> Outcome:
    if not isinstance(move, list | tuple) or len(move) != 2:
        raise BadRequest("a Lianliankan move is two cells [[row, col], [row, col]]", "bad_move")
    board = _link_board(row)
    a, b = _cell(move[0], board), _cell(move[1], board)
    if a == b:
        raise IllegalMove(f"cell ({a[0]}, {a[1]}) twice: pick two different tiles")
    if board[a] is None or board[b] is None:
        empty = a if board[a] is None else b
        raise IllegalMove(f"cell ({empty[0]}, {empty[1]}) is empty")
    if board[a] != board[b]:
        raise IllegalMove(f"({a[0]}, {a[1]}) and ({b[0]}, {b[1]}) are different tiles")
    path = board.path(a, b)
    if path is None:
        raise IllegalMove(
            f"({a[0]}, {a[1]}) and ({b[0]}, {b[1]}) cannot be joined with at most two turns"
        )
    try:
        board.push((a, b))
    except ValueError as error:
        raise IllegalMove(str(error)) from None
    extra: dict[str, Any] = {"path": [list(p) for p in path]}
    options = dict(row.options)
    moves = row.moves + 1
    won = board.is_solved()
    if not won and board.is_stuck():
        # A reshuffle can take a while (it keeps the board clearable): the caller runs it off the
        # store's writer thread and records the move with the reshuffled board (Arcade._record_reshuffled).
        return Outcome(str(board), moves, options=options, extra=extra, reshuffle=True)
    score = None
    if won:
        cells = options.get("cells") or 1
        score = link_score(row, cells, row.clock(time.time()))
    return Outcome(str(board), moves, won=won, score=score, options=options, extra=extra)


def encode_link_move(move: Any) -> str:
    return f"{move[0][0]},{move[0][1]}-{move[1][0]},{move[1][1]}"


def warm() -> None:
    """Exercise each engine's move path once (imports, compiled kernels loaded from numba's cache), so the
    first real move after a start does not stall the store's writer thread for a fraction of a second."""
    import contextlib

    with contextlib.suppress(Exception):
        from tilegames import slide

        board = slide.Board.parse("1 2 3/4 5 6/7 0 8")
        board.push("L")
        board.is_solved()
    with contextlib.suppress(Exception):
        from tilegames import klotski

        board = klotski.Board.parse("ABBC/ABBC/DEEF/DGHF/I..J")
        board.push(next(iter(board.moves("moves"))))
        board.is_solved()
    with contextlib.suppress(Exception):
        from tilegames import link

        board = link.Board.parse("AB/BA/CC")
        board.path((2, 0), (2, 1))
        board.push(((2, 0), (2, 1)))
        board.is_stuck()
        board.first_pair()
        board.is_solved()

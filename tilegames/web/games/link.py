"""Lianliankan on the web: solvable deals, one pair per move, reshuffles when stuck, score and time records."""

from __future__ import annotations

import time
from typing import Any

from starlette.concurrency import run_in_threadpool

from tilegames.store import GameRow
from tilegames.web import tasks
from tilegames.web.games import (
    BadRequest,
    Base,
    Deal,
    IllegalMove,
    Outcome,
    Services,
    deals,
    int_param,
    seed_param,
    size_param,
)
from tilegames.web.limits import ServerLimits

SIZES = ((14, 6), (16, 9), (18, 8), (24, 12), (26, 14), (30, 16), (6, 4))
"""KShisen's sizes, and a small one for a quick game."""


def _board(row: GameRow, text: str | None = None) -> Any:
    from tilegames import link

    return link.Board.parse(text or row.board, gravity=bool(row.options.get("gravity")))


def _score(row: GameRow, removed: int, seconds: float) -> int:
    from tilegames import link

    cells = row.options.get("cells") or 1
    return int(
        link.score(
            removed, max(seconds, 1.0), gravity=bool(row.options.get("gravity")), board_cells=cells
        )
    )


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


def _size(start: str) -> tuple[int, int]:
    """(width, height) of a board in notation (rows joined by '/')."""
    lines = start.strip().replace("\n", "/").split("/")
    return len(lines[0].strip()), len(lines)


def reshuffle_seed(row: GameRow) -> int:
    """A reshuffle's seed, from the game and its ply: a replay of the game reshuffles the same way."""
    return (int(row.id[:12], 16) + row.plies) % 2**32


class Link(Base):
    name = "link"
    records: tuple[str, ...] = (
        "seconds",
        "score",
    )  # fewest moves is always tiles ÷ 2: no record in it

    def catalog(self, limits: ServerLimits) -> dict[str, Any]:
        return {
            "sizes": [f"{w}x{h}" for w, h in SIZES],
            "width": list(limits.link_width),
            "height": list(limits.link_height),
            "kinds": list(limits.link_kinds),
        }

    def params(self, body: dict[str, Any], limits: ServerLimits) -> dict[str, Any]:
        if body.get("daily") is not None:  # the daily puzzle: KShisen's 18×8, dealt from the date
            date = deals.daily_date(body["daily"])
            seed = deals.daily_seed(date, self.name)
            return {"width": 18, "height": 8, "kinds": 36, "copies": 4, "gravity": False,
                    "seed": seed, "daily": date}  # fmt: skip
        width, height = size_param(body, limits.link_width, limits.link_height)
        cells = width * height
        kinds = int_param(body, "kinds", *limits.link_kinds, default=min(36, cells // 4) or 1)
        copies, remainder = divmod(cells, kinds)
        if remainder or copies % 2:
            raise BadRequest(
                f"{kinds} kinds do not fill {width}x{height} ({cells} cells) with an even number"
                " of each",
                "bad_parameter",
            )
        gravity = body.get("gravity", False)
        if not isinstance(gravity, bool):
            raise BadRequest("gravity must be true or false", "bad_parameter")
        return {
            "width": width,
            "height": height,
            "kinds": kinds,
            "copies": copies,
            "gravity": gravity,
            "seed": seed_param(body),
        }

    async def new(self, services: Services, params: dict[str, Any], seed: int) -> Deal:
        p = params
        dealt = await services.work(
            tasks.link_new,
            p["width"],
            p["height"],
            p["kinds"],
            p["copies"],
            p["gravity"],
            seed,
            timeout=services.limits.deal_seconds,
        )
        gravity = p["gravity"]
        variant = f"{p['width']}x{p['height']} k{p['kinds']}" + (" gravity" if gravity else "")
        label = f"{p['width']}×{p['height']} · {p['kinds']} kinds" + (
            " · gravity" if gravity else ""
        )
        options = {
            "seed": seed,
            "gravity": gravity,
            "kinds": p["kinds"],
            "cells": p["width"] * p["height"],
            "kinds_chars": sorted({ch for ch in dealt["board"] if ch not in "./\n "}),
            "reshuffles": 0,
            "size": f"{p['width']}x{p['height']}",
        }
        variant, label = deals.dated(p, variant, label, options)
        return Deal(dealt["board"], variant, label, options)

    def from_deal(self, text: str, rest: str) -> dict[str, Any]:
        """The new-game body of a deal id (``18x8-k36-s42``, ``18x8-k36-g-s42``, ``daily-2026-11-23``)."""
        daily = deals.daily_of(rest)
        if daily is not None:
            return daily
        (width, height), numbers, flags = deals.fields(text, rest)
        if flags - {"g"} or set(numbers) != {"k", "s"}:
            raise deals.bad_deal(text, "a Lianliankan deal is link-WxH-kKINDS[-g]-sSEED")
        return {"width": width, "height": height, "kinds": numbers["k"], "gravity": "g" in flags,
                "seed": numbers["s"]}  # fmt: skip

    def deal_id(self, row: GameRow) -> str | None:
        """The deal id of a stored game (None for a game stored before deals had seeds)."""
        options = row.options
        if options.get("daily"):
            return f"link-daily-{options['daily']}"
        if options.get("seed") is None or options.get("kinds") is None:
            return None
        size = options.get("size") or "x".join(map(str, _size(row.start)))
        gravity = "-g" if options.get("gravity") else ""
        return f"link-{size}-k{options['kinds']}{gravity}-s{options['seed']}"

    def view(self, row: GameRow) -> dict[str, Any]:
        board = _board(row)
        grid = [
            "".join(board[(r, c)] or "." for c in range(board.width)) for r in range(board.height)
        ]
        removed = 2 * row.moves
        return {
            "width": board.width,
            "height": board.height,
            "grid": grid,
            "kinds": row.options.get("kinds_chars", []),
            "gravity": board.gravity,
            "remaining": sum(len(line) - line.count(".") for line in grid),
            "score": _score(row, removed, row.clock(time.time())) if removed else 0,
            "solved": board.is_solved(),
            "reshuffles": row.options.get("reshuffles", 0),
        }

    def move(self, row: GameRow, move: Any) -> Outcome:
        if not isinstance(move, list | tuple) or len(move) != 2:
            raise BadRequest(
                "a Lianliankan move is one pair of cells [[row, col], [row, col]]", "bad_move"
            )
        board = _board(row)
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
        text = f"{a[0]},{a[1]}-{b[0]},{b[1]}"
        extra: dict[str, Any] = {"path": [list(p) for p in path]}
        options = dict(row.options)
        won = board.is_solved()
        score = None
        now = time.time()
        if won:
            score = _score(row, options.get("cells") or 1, row.clock(now))
        elif board.is_stuck():
            extra["stuck"] = True  # settle() reshuffles before the move is stored
        return Outcome(
            str(board),
            row.moves + 1,
            text,
            won=won,
            score=score,
            now=now,
            options=options,
            extra=extra,
        )

    async def settle(self, services: Services, row: GameRow, outcome: Outcome) -> Outcome:
        """A move that leaves the board stuck is stored with the board reshuffled (in the worker pool: it can
        take a while to keep the board clearable)."""
        if not outcome.extra.pop("stuck", False):
            return outcome
        dealt = await services.work(
            tasks.link_reshuffle,
            outcome.board,
            bool(row.options.get("gravity")),
            reshuffle_seed(row),
            timeout=services.limits.solve_seconds,
        )
        options = dict(outcome.options or row.options)
        options["reshuffles"] = options.get("reshuffles", 0) + 1
        return Outcome(
            dealt["board"],
            outcome.moves,
            outcome.text,
            options=options,
            extra={**outcome.extra, "reshuffled": True},
        )

    async def hint(self, services: Services, row: GameRow) -> dict[str, Any]:
        return await run_in_threadpool(self._hint, row)

    def _hint(self, row: GameRow) -> dict[str, Any]:
        board = _board(row)
        pair = board.first_pair()
        if pair is None:
            return {"move": None, "cells": [], "path": None}
        a, b = (tuple(x) for x in pair)
        return {
            "move": [list(a), list(b)],
            "cells": [list(a), list(b)],
            "path": [list(p) for p in board.path(a, b)],
        }

    async def solve(self, services: Services, row: GameRow) -> dict[str, Any]:
        limit = services.limits.solve_seconds
        gravity = bool(row.options.get("gravity"))
        return await services.work(tasks.link_solve, row.board, gravity, limit, timeout=limit)

    async def analyse(self, services: Services, row: GameRow) -> dict[str, Any]:
        from tilegames.web import analysis_tasks
        from tilegames.web.analysis import LINK_NODES, LINK_PAIRS

        gravity = bool(row.options.get("gravity"))
        limit = services.limits.solve_seconds
        return await services.work(
            analysis_tasks.link_analysis, row.board, gravity, LINK_NODES, LINK_PAIRS, timeout=limit
        )

    def warm(self) -> None:
        from tilegames import link

        board = link.Board.parse("AB/BA/CC")
        board.path((2, 0), (2, 1))
        board.push(((2, 0), (2, 1)))
        board.is_stuck()
        board.first_pair()
        board.is_solved()

"""The sliding puzzle on the web: deals (uniform or at an exact distance), moves of one line, hints from a plan."""

from __future__ import annotations

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

DISTANCE = {(3, 3): 31, (4, 4): 50}
"""Sizes where a deal can ask for an exact optimal distance, with the largest distance offered."""

#: Where the tile that a move letter moves stands, relative to the blank.
FROM_BLANK = {"U": (1, 0), "D": (-1, 0), "L": (0, 1), "R": (0, -1)}


class Slide(Base):
    name = "slide"
    records: tuple[str, ...] = ("moves", "seconds")

    def catalog(self, limits: ServerLimits) -> dict[str, Any]:
        return {
            "sizes": [f"{n}x{n}" for n in range(3, 9)] + ["3x4", "4x3", "4x5", "5x4", "3x5"],
            "sides": list(limits.slide_sides),
            "distance": {f"{w}x{h}": top for (w, h), top in DISTANCE.items()},
        }

    def params(self, body: dict[str, Any], limits: ServerLimits) -> dict[str, Any]:
        if body.get("daily") is not None:  # the daily puzzle: a 4×4 dealt from the date
            date = deals.daily_date(body["daily"])
            seed = deals.daily_seed(date, self.name)
            return {"width": 4, "height": 4, "distance": None, "seed": seed, "daily": date}
        width, height = size_param(body, limits.slide_sides)
        distance = body.get("distance")
        if distance is not None:
            top = DISTANCE.get((width, height))
            if top is None:
                raise BadRequest(
                    "a deal by distance is offered on 3x3 and 4x4 only", "bad_parameter"
                )
            distance = int_param(body, "distance", 0, top)
        return {"width": width, "height": height, "distance": distance, "seed": seed_param(body)}

    async def new(self, services: Services, params: dict[str, Any], seed: int) -> Deal:
        width, height, distance = params["width"], params["height"], params["distance"]
        dealt = await services.work(
            tasks.slide_new, width, height, seed, distance, timeout=services.limits.deal_seconds
        )
        variant, label = f"{width}x{height}", f"{width}×{height}"
        if distance is not None:  # each distance its own variant: an easy deal sets no 3×3 record
            variant += f" d{distance}"
            label += f", {distance} moves from solved"
        options = {"seed": seed, "distance": distance, "optimal": dealt["optimal"]}
        variant, label = deals.dated(params, variant, label, options)
        return Deal(dealt["board"], variant, label, options)

    def from_deal(self, text: str, rest: str) -> dict[str, Any]:
        """The new-game body of a deal id (``4x4-s42``, ``3x3-d20-s7``, ``daily-2026-11-23``)."""
        daily = deals.daily_of(rest)
        if daily is not None:
            return daily
        (width, height), numbers, flags = deals.fields(text, rest)
        if flags or "s" not in numbers or set(numbers) - {"s", "d"}:
            raise deals.bad_deal(text, "a sliding-puzzle deal is slide-WxH[-dDISTANCE]-sSEED")
        return {
            "width": width,
            "height": height,
            "distance": numbers.get("d"),
            "seed": numbers["s"],
        }

    def deal_id(self, row: GameRow) -> str | None:
        """The deal id of a stored game (None for a game stored before deals had seeds)."""
        options = row.options
        if options.get("daily"):
            return f"slide-daily-{options['daily']}"
        if options.get("seed") is None:
            return None
        lines = row.start.split("/")
        size = f"{len(lines[0].split())}x{len(lines)}"
        distance = options.get("distance")
        return (
            f"slide-{size}"
            + (f"-d{distance}" if distance is not None else "")
            + f"-s{options['seed']}"
        )

    async def created(self, services: Services, row: GameRow) -> None:
        cells = len(row.board.replace("/", " ").split())
        if row.options.get("optimal") is None and cells <= tasks.SLIDE_OPTIMAL_CELLS:
            services.in_background(self._learn_optimal(services, row))

    async def _learn_optimal(self, services: Services, row: GameRow) -> None:
        """Find a 4×4 deal's optimal length after answering (it can take a while), for the win screen."""
        limit = services.limits.optimal_seconds
        answer = await services.work(tasks.slide_optimal, row.start, limit, timeout=limit)
        if answer.get("optimal"):
            store = services.store

            def save() -> None:
                current = store.game(row.id)
                if current is not None:
                    store.update_options(row.id, {**current.options, "optimal": answer["length"]})

            await services.db(save)

    def view(self, row: GameRow) -> dict[str, Any]:
        from tilegames import slide

        board = slide.Board.parse(row.board)
        return {
            "width": board.width,
            "height": board.height,
            "tiles": list(board.tiles),
            "solved": board.is_solved(),
        }

    def move(self, row: GameRow, move: Any) -> Outcome:
        from tilegames import slide

        if not isinstance(move, str) or not move or len(move) > 16 or set(move) - set("UDLR"):
            raise BadRequest(
                "a sliding move is a string of U, D, L, R (the direction the tile travels)",
                "bad_move",
            )
        board = slide.Board.parse(row.board)
        longest = max(board.width, board.height) - 1
        if len(set(move)) > 1 or len(move) > longest:
            raise IllegalMove(
                f"one move slides one line of tiles in one direction ({longest} tiles at most),"
                f" not {move!r}",
                "one_action",
            )
        for index, letter in enumerate(move):
            try:
                board.push(letter)
            except ValueError as error:
                raise IllegalMove(
                    f"move {index + 1} of {move!r} ({letter}) is illegal: {error}"
                ) from None
        return Outcome(str(board), row.moves + len(move), move, won=board.is_solved())

    async def hint(self, services: Services, row: GameRow) -> dict[str, Any]:
        move = await self._next_move(services, row)
        return {"move": move, "cells": self._cells(row, move) if move else []}

    async def solve(self, services: Services, row: GameRow) -> dict[str, Any]:
        limit = services.limits.solve_seconds
        answer = await services.work(tasks.slide_solve, row.board, limit, timeout=limit)
        await services.db(self._save_plan, services, row.id, row.board, answer["moves"])
        return answer

    async def analyse(self, services: Services, row: GameRow) -> dict[str, Any]:
        from tilegames.web import analysis_tasks
        from tilegames.web.analysis import SLIDE_CELLS, SLIDE_NODES

        if len(row.board.replace("/", " ").split()) > SLIDE_CELLS:
            raise BadRequest(
                "analysis is offered on boards up to 4×4 (16 cells), where the optimal solver is quick",
                "analysis_unavailable",
            )
        limit = services.limits.solve_seconds
        return await services.work(
            analysis_tasks.slide_analysis, row.board, SLIDE_NODES, limit * 0.8, timeout=limit
        )

    def _cells(self, row: GameRow, move: str) -> list[list[int]]:
        """The tile a move letter moves (to highlight a hint)."""
        from tilegames import slide

        board = slide.Board.parse(row.board)
        r, c = divmod(board.tiles.index(0), board.width)
        dr, dc = FROM_BLANK[move]
        return [[r + dr, c + dc]]

    async def _next_move(self, services: Services, row: GameRow) -> str | None:
        """The next move of the game's plan (a solution found for an earlier hint) if the player is on it.

        Small boards just ask the engine's hint; larger ones (where a solve takes seconds) keep the whole
        solution as the game's plan, so following hints costs one solve, not one per hint.
        """
        limit = services.limits.solve_seconds
        plan = row.options.get("plan")
        if plan is not None:
            move = await run_in_threadpool(_plan_next, plan, row.board)
            if move is not None:
                return move
        if len(row.board.replace("/", " ").split()) <= 9:
            hinted = await services.work(tasks.slide_hint, row.board, limit, timeout=limit)
            return str(hinted["move"]) if hinted["move"] is not None else None
        answer = await services.work(tasks.slide_solve, row.board, limit, timeout=limit)
        await services.db(self._save_plan, services, row.id, row.board, answer["moves"])
        return answer["moves"][0] if answer["moves"] else None

    @staticmethod
    def _save_plan(services: Services, game_id: str, board: str, moves: list[str]) -> None:
        current = services.store.game(game_id)
        if current is not None:
            plan = {"board": board, "moves": "".join(moves)}
            services.store.update_options(game_id, {**current.options, "plan": plan})

    def warm(self) -> None:
        from tilegames import slide

        board = slide.Board.parse("1 2 3/4 5 6/7 0 8")
        board.push("L")
        board.is_solved()


def _plan_next(plan: dict[str, Any], board_text: str) -> str | None:
    """The move the plan makes from ``board_text``, if that position lies on the plan (else None)."""
    from tilegames import slide

    board = slide.Board.parse(plan["board"])
    for move in plan["moves"]:
        if str(board) == board_text:
            return str(move)
        board.push(move)
    return None

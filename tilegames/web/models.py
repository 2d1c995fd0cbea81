"""The API's request and response bodies as Pydantic models: /openapi.json is generated from them.

Requests are still checked by the endpoints and the game adapters (so every refusal keeps its own error code);
the models describe the same shapes for clients, and the API tests validate every answer against them.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Cell = tuple[int, int]


class ErrorBody(BaseModel):
    code: str = Field(
        description="a stable name: illegal_move, conflict, rate_limited, storage_full..."
    )
    message: str = Field(description="what went wrong, in words a player understands")


class Error(BaseModel):
    """Every error, whatever the status."""

    error: ErrorBody


class NewGame(BaseModel):
    game: Literal["slide", "klotski", "link"] | None = Field(
        None, description="required unless `deal` is given"
    )
    deal: str | None = Field(
        None,
        description="a deal id (a game's `deal`, e.g. slide-4x4-d30-s42): a new game on exactly that deal;"
        " the other fields are then ignored",
    )
    daily: bool | str | None = Field(
        None, description="true (today, UTC) or a date YYYY-MM-DD: that day's daily puzzle"
    )
    width: int | None = Field(None, description="slide 2..10; link 2..30")
    height: int | None = Field(None, description="slide 2..10; link 2..16")
    distance: int | None = Field(
        None, description="slide 3x3 (0..31) and 4x4 (0..50): deal at this exact optimal distance"
    )
    seed: int | None = Field(None, ge=0, description="the same seed deals the same game")
    layout: str | None = Field(
        None, description="Klotski: a name, an alias or layout notation (200 characters at most)"
    )
    kinds: int | None = Field(None, description="link: tile kinds; width*height/kinds must be even")
    gravity: bool | None = Field(None, description="link: tiles fall after a pair goes")


class Move(BaseModel):
    move: str | tuple[Cell, Cell] = Field(
        description='one player action: slide "RR" (one line, one direction), Klotski "G:RD" (one'
        " piece), Lianliankan [[row, col], [row, col]] (one pair)"
    )
    ply: int | None = Field(
        None,
        ge=0,
        description="the game's `plies` when the move was made: applied only if the game is still"
        " there, else 409 conflict (a stale tab)",
    )


class Undo(BaseModel):
    ply: int | None = Field(
        None, ge=0, description="as for a move: 409 conflict if the game moved on"
    )


class LayoutCheck(BaseModel):
    layout: str


class LayoutChecked(BaseModel):
    ok: bool
    layout: str = Field(description="the layout in notation")
    variant: str = Field(description="its name when it is a named one, else 'custom ...'")


class Best(BaseModel):
    game: str
    variant: str
    label: str = Field(description='the variant in words: "4×4, 30 moves from solved"')
    played: int = Field(description="games finished, with or without help")
    unassisted: int = Field(description="games finished with no hint and no solver playback")
    fewest_moves: int | None = Field(
        description="the record: only games won without help; none for link"
    )
    fastest_seconds: float | None
    top_score: int | None


class Record(BaseModel):
    new: bool = Field(description="this win set at least one record")
    kinds: list[Literal["moves", "seconds", "score"]]
    previous: dict[str, Any] | None = Field(description="the variant's bests before this win")
    counted: bool = Field(description="false when a hint or the solver helped: no record possible")


class Game(BaseModel):
    """A game's state, answered by every endpoint that shows or changes a game."""

    model_config = ConfigDict(extra="allow")

    id: str
    game: Literal["slide", "klotski", "link"]
    variant: str = Field(description="what records are grouped by: each kind of deal its own")
    label: str = Field(description="the variant in words")
    status: Literal["playing", "won"]
    board: str
    start: str
    moves: int
    moves_counted: int = Field(
        description="moves plus those taken back by undo: what records judge"
    )
    seconds: float = Field(
        description="playing time: gaps between actions, each counted up to 60 s"
    )
    running: bool = Field(
        description="the clock runs: a move was made, the game is on and not paused"
    )
    paused: bool = Field(
        False,
        description="paused (POST .../pause): the clock and the Lianliankan score stand still, and"
        " moves, undo, hint and solve are refused (409 paused) until POST .../resume",
    )
    optimal: int | None
    hints: int
    undos: int
    autoplay: bool
    analysed: bool = Field(False, description="Analysis was on (it then sets no record)")
    assisted: bool = Field(description="a hint or the solver helped: the game sets no record")
    plies: int = Field(
        description="moves on the history; send it back as `ply` with a move or an undo"
    )
    can_undo: bool
    steps: int | None = Field(None, description="klotski: cells moved (the unit-step metric)")
    best: Best | None
    deal: str | None = Field(
        None,
        description='the deal\'s id: POST it as {"deal": ...} for a new game on the same start (null only'
        " for games stored before deals were named)",
    )
    view: dict[str, Any] = Field(
        description="the game's picture: tiles, pieces and legal moves, or the grid"
    )
    last: dict[str, Any] | None = Field(
        None, description="link: the path just drawn; reshuffled: true"
    )
    record: Record | None = Field(None, description="only on the winning move's answer")


class HintBody(BaseModel):
    move: Any = Field(description="a move as sent to /moves, or null when there is none")
    cells: list[list[int]]
    piece: str | None = None
    path: list[Cell] | None = None


class Hint(BaseModel):
    id: str
    board: str
    hint: HintBody


class Solution(BaseModel):
    model_config = ConfigDict(extra="allow")

    moves: list[Any] = Field(description="the moves, to send one by one")
    length: int
    optimal: bool | None


class BestList(BaseModel):
    best: list[Best]


class ProgressEntry(BaseModel):
    game: str
    variant: str = Field(
        description="a Klotski level, a sliding-puzzle rung (3x3 d20), a Lianliankan size"
    )
    solved: int = Field(description="wins without solver playback")
    star: bool = Field(description="won with no help in at most the optimal number of moves")
    fewest_moves: int | None = Field(description="the player's fewest moves (none for link)")
    top_score: int | None = Field(description="link: the player's top score")


class Progress(BaseModel):
    player: str | None = Field(description="the X-Player header, null when none was sent")
    progress: list[ProgressEntry]


class Health(BaseModel):
    ok: bool = Field(description="true only when the store can write (a row committed, room left)")
    store: str = Field(description="ok, storage_full or storage_unavailable")
    schema_version: int | None = Field(None, alias="schema")
    message: str | None = None


MODELS: tuple[type[BaseModel], ...] = (
    Error,
    NewGame,
    Move,
    Undo,
    LayoutCheck,
    LayoutChecked,
    Game,
    Hint,
    Solution,
    BestList,
    Progress,
    Health,
)


# Analysis mode (tilegames/web/analysis.py).


class AnalysedMove(BaseModel):
    move: Any = Field(description="the move as sent to /moves (Lianliankan: the pair of cells)")
    verdict: Literal["better", "same", "worse", "unknown"]
    distance: int | None = Field(description="the distance to solved after it; null when unknown")
    steps: int | None = Field(None, description="Klotski: the distance in unit steps after it")
    clearable: bool | None = Field(
        None, description="Lianliankan: can the board still be cleared after it"
    )


class Analysis(BaseModel):
    """``GET /api/games/{id}/analysis``: the position's distance to solved and every legal move's verdict."""

    id: str
    board: str
    plies: int
    metric: Literal["moves", "clearable"]
    distance: int | None = Field(
        description="exact distance to solved (Lianliankan: pairs left while clearable); null when unknown"
    )
    steps: int | None = Field(None, description="Klotski: the distance in unit steps")
    clearable: bool | None = Field(None, description="Lianliankan: can the board still be cleared")
    exact: bool = Field(description="false when a search hit its limit (some answers are unknown)")
    moves: list[AnalysedMove]


MODELS = (*MODELS, AnalysedMove, Analysis)

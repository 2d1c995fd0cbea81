"""Two `tilegames serve` processes on two ports over one PostgreSQL: one arcade, one winner per ply, nothing lost.

Both servers start at the same moment on an empty database (the migration's advisory lock: one migrates, the
other waits). Requests go over real HTTP; the second server is the witness after the first is killed.
"""

from __future__ import annotations

import http.client
import json
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tilegames import slide
from tilegames.db import HEAD
from tilegames.web.launch import ServerProcess

OPPOSITE = {"U": "D", "D": "U", "L": "R", "R": "L"}


def call(url: str, body: dict[str, Any] | None = None) -> tuple[int, dict[str, Any]]:
    """(status, JSON) of a GET (no body) or a POST."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def new_game(server: ServerProcess, seed: int) -> dict[str, Any]:
    status, state = call(
        f"{server.url}/api/games", {"game": "slide", "width": 4, "height": 4, "seed": seed}
    )
    assert status == 201, state
    return state


def next_move(board: slide.Board, previous: str | None) -> str:
    """A legal move that does not undo the previous one (so the game never repeats a position quickly)."""
    return next(m for m in board.moves() if m != OPPOSITE.get(previous))


@pytest.fixture(scope="module")
def servers(cluster, tmp_path_factory):
    """Two servers over the cluster's (empty) database, started at the same moment."""
    logs = tmp_path_factory.mktemp("servers")
    pair = [
        ServerProcess(
            cluster.url,
            log_file=Path(logs / f"server{n}.log"),
            options=("--client-move-rate", "100000"),
        )
        for n in range(2)
    ]
    with ThreadPoolExecutor(2) as pool:
        list(pool.map(lambda server: server.start(), pair))
    yield pair
    for server in pair:
        server.stop()


def test_workers_need_postgresql(tmp_path, capsys):
    from tilegames.cli import main

    assert main(["serve", "--db", str(tmp_path / "a.sqlite3"), "--workers", "2"]) == 2
    err = capsys.readouterr().err
    assert "--workers needs a PostgreSQL --db" in err and err.count("\n") == 1
    assert not (tmp_path / "a.sqlite3").exists()  # refused before anything is opened


def test_a_game_made_on_one_is_played_on_the_other(servers, cluster):
    one, two = servers
    assert cluster.sql("SELECT version_num FROM alembic_version").split() == [HEAD]
    state = new_game(one, seed=1)
    board = slide.Board.parse(state["board"])
    move = next_move(board, None)
    status, moved = call(f"{two.url}/api/games/{state['id']}/moves", {"move": move, "ply": 0})
    assert status == 200 and moved["plies"] == 1
    board.push(move)
    status, seen = call(f"{one.url}/api/games/{state['id']}")
    assert status == 200 and seen["plies"] == 1 and seen["board"] == str(board)


def test_concurrent_moves_from_both_have_one_winner_per_ply(servers):
    one, two = servers
    state = new_game(one, seed=2)
    board = slide.Board.parse(state["board"])
    previous = None
    for ply in range(6):
        moves = [m for m in board.moves() if m != OPPOSITE.get(previous)]
        barrier = threading.Barrier(6)

        def send(
            n: int, ply: int = ply, moves: list[str] = moves, barrier: Any = barrier
        ) -> tuple[int, dict[str, Any], str]:
            server = servers[n % 2]
            move = moves[n % len(moves)]
            barrier.wait()
            status, answer = call(
                f"{server.url}/api/games/{state['id']}/moves", {"move": move, "ply": ply}
            )
            return status, answer, move

        with ThreadPoolExecutor(6) as pool:
            answers = list(pool.map(send, range(6)))
        won = [(answer, move) for status, answer, move in answers if status == 200]
        lost = [answer for status, answer, _ in answers if status != 200]
        assert len(won) == 1, answers
        assert all(a["error"]["code"] == "conflict" for a in lost), lost
        answer, move = won[0]
        board.push(move)
        previous = move
        assert answer["plies"] == ply + 1 and answer["board"] == str(board)
    for server in (one, two):
        _, seen = call(f"{server.url}/api/games/{state['id']}")
        assert seen["plies"] == 6 and seen["board"] == str(board)


def test_kill_9_of_one_loses_no_acknowledged_move(servers):
    """Four players move as fast as they can on the first server; it is killed mid-burst. Every answered move
    is on the second; at most the one move in flight at the kill is there unanswered."""
    victim, witness = servers
    players = 4
    games = [new_game(victim, seed=10 + n) for n in range(players)]
    sent: list[list[str]] = [[] for _ in range(players)]
    acknowledged = [0] * players
    stop = threading.Event()

    def play(n: int) -> None:
        board = slide.Board.parse(games[n]["board"])
        previous = None
        while not stop.is_set():
            move = next_move(board, previous)
            sent[n].append(move)
            try:
                status, answer = call(
                    f"{victim.url}/api/games/{games[n]['id']}/moves",
                    {"move": move, "ply": len(sent[n]) - 1},
                )
            except (OSError, http.client.HTTPException):  # cut mid-answer too (IncompleteRead)
                return  # the server is gone: this move was never answered
            assert status == 200, answer
            acknowledged[n] = answer["plies"]
            board.push(move)
            previous = move

    threads = [threading.Thread(target=play, args=(n,)) for n in range(players)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 60
    while min(acknowledged) < 5 and time.monotonic() < deadline:
        time.sleep(0.05)
    victim.kill()
    stop.set()
    for thread in threads:
        thread.join(timeout=90)
    assert min(acknowledged) >= 5, acknowledged
    for n in range(players):
        status, seen = call(f"{witness.url}/api/games/{games[n]['id']}")
        assert status == 200
        assert acknowledged[n] <= seen["plies"] <= acknowledged[n] + 1
        board = slide.Board.parse(games[n]["board"])
        for move in sent[n][: seen["plies"]]:
            board.push(move)
        assert seen["board"] == str(board)
    victim.start()  # for the tests that may run after this one (random order), over the same database

"""Every answered move is on disk: kill -9 the server right after an answer, and the database has it."""

from __future__ import annotations

import json
import urllib.request

from tilegames import slide
from tilegames.store import Store
from tilegames.web.launch import ServerProcess


def post(url: str, body: dict) -> dict:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)


def test_answered_moves_survive_kill_9(tmp_path):
    db = tmp_path / "durable.sqlite3"
    server = ServerProcess(db)
    server.start()
    base = server.url
    try:
        state = post(f"{base}/api/games", {"game": "slide", "width": 4, "height": 4, "seed": 3})
        board = slide.Board.parse(state["board"])
        previous = None
        for _ in range(20):
            move = next(
                m
                for m in board.moves()
                if m != {"U": "D", "D": "U", "L": "R", "R": "L"}.get(previous)
            )
            state = post(f"{base}/api/games/{state['id']}/moves", {"move": move})
            board.push(move)
            previous = move
    finally:
        server.kill()  # no shutdown, no checkpoint: the log must hold it all
    assert state["plies"] == 20
    store = Store(db)
    try:
        row = store.game(state["id"])
        assert row is not None and row.plies == 20 and row.board == str(board)
        assert len(store.history(state["id"])) == 20
    finally:
        store.close()

"""An unfinished game survives kill -9 of the server and a restart (same database, same address)."""

from __future__ import annotations

import pytest

from tilegames import slide

pytestmark = pytest.mark.browser


def test_game_survives_kill_9_and_restart(page, tmp_path, request):
    server_class = type(request.getfixturevalue("server"))
    server = server_class(tmp_path / "restart.sqlite3")
    server.start()
    try:
        page.goto(f"{server.url}/")
        page.evaluate(
            "localStorage.setItem('tilegames.slide.settings', JSON.stringify({width: 3, height: 3}))"
        )
        page.goto(f"{server.url}/#/slide")
        page.wait_for_function("document.querySelector('[data-board]')?.dataset.gameId")
        game_id = page.get_attribute("[data-board]", "data-game-id")
        board = slide.Board.parse(server.api(f"/api/games/{game_id}")["board"])
        for step in range(2):
            letter = next(iter(board.moves()))
            page.keyboard.press(
                {"U": "ArrowUp", "D": "ArrowDown", "L": "ArrowLeft", "R": "ArrowRight"}[letter]
            )
            board.push(letter)
            page.wait_for_function(
                f"document.querySelector('[data-board]').dataset.plies === '{step + 1}'"
            )
        # The page saw the answer, so the move is on disk: kill -9 and start again.
        server.kill()
        server.start()
        page.reload()
        page.wait_for_function(
            f"document.querySelector('[data-board]')?.dataset.gameId === '{game_id}'"
        )
        page.wait_for_function("document.querySelector('[data-board]').dataset.plies === '2'")
        again = server.api(f"/api/games/{game_id}")
        assert again["board"] == str(board) and again["moves"] == 2 and again["status"] == "playing"
        assert page.inner_text("[data-stat=moves]") == "2"
    finally:
        server.kill()

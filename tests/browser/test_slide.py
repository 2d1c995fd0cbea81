"""数字华容道 in the browser: deal, click tiles, hint, undo, reload, play the solver's moves to the win."""

from __future__ import annotations

import pytest

from tilegames import slide

pytestmark = pytest.mark.browser
DELTA = {
    "U": (1, 0),
    "D": (-1, 0),
    "L": (0, 1),
    "R": (0, -1),
}  # the moving tile, seen from the blank


def tile_for(board: slide.Board, letter: str) -> int:
    """The number on the tile that `letter` moves (a user clicks that tile)."""
    r, c = divmod(board.tiles.index(0), board.width)
    dr, dc = DELTA[letter]
    return board.tiles[(r + dr) * board.width + (c + dc)]


def test_slide_game_from_deal_to_best_result(play, page):
    play.open("slide", {"width": 3, "height": 3, "distance": 10})
    start = play.state()
    assert start["variant"] == "3x3 d10" and start["optimal"] == 10  # each distance its own variant
    board = slide.Board.parse(start["board"])

    # A click on a tile in line with the blank moves it; the counter shows it.
    letter = next(iter(board.moves()))
    page.click(f"[data-tile='{tile_for(board, letter)}']")
    play.wait_plies(1)
    assert play.moves_shown() == 1
    board.push(letter)
    assert play.state()["board"] == str(board)

    # Undo takes it back; an arrow key makes a move too.
    play.press("undo")
    play.wait_plies(0)
    board.pop()
    assert play.state()["board"] == str(board)
    arrow = {"U": "ArrowUp", "D": "ArrowDown", "L": "ArrowLeft", "R": "ArrowRight"}
    page.keyboard.press(arrow[letter])
    play.wait_plies(1)
    board.push(letter)

    # A hint lights the tile to move.
    play.press("hint")
    page.wait_for_selector(".tile.hint")
    hinted = int(page.get_attribute(".tile.hint", "data-tile"))
    assert hinted in {tile_for(board, m) for m in board.moves()}

    # A reload finds the game unchanged.
    before = play.state()
    page.reload()
    assert play.game_id() == before["id"]
    play.wait_plies(1)
    assert play.state()["board"] == before["board"] and play.moves_shown() == before["moves"]

    # Play the optimal solution by clicking tiles, as a user would.
    for index, letter in enumerate(slide.solve(board).moves):
        page.click(f"[data-tile='{tile_for(board, letter)}']")
        board.push(letter)
        play.wait_plies(2 + index)
    page.wait_for_selector(".overlay")
    assert "Optimal" in page.inner_text(".overlay") and "10" in page.inner_text(".overlay")
    final = play.state()
    assert final["status"] == "won" and final["assisted"]  # the hint above: played, but no record
    assert final["best"]["played"] >= 1 and final["best"]["fewest_moves"] is None
    page.click(".overlay button:has-text('Close')")
    assert "slide 3x3 d10" in play.best_rows()


def test_slide_solve_asks_plays_back_and_pauses(play, page):
    play.open("slide", {"width": 3, "height": 3, "distance": 5})
    play.press("solve")
    page.wait_for_selector(".overlay[role=dialog]")
    page.keyboard.press("Enter")  # confirms
    page.wait_for_selector("[data-action=solve][data-playing]")
    play.wait_plies(1)
    page.keyboard.press("p")  # pause: the board hides, the playback waits
    page.wait_for_selector("[data-board][hidden]", state="attached")
    assert page.get_attribute("[data-stat=time]", "data-paused") == "1"
    page.wait_for_timeout(1000)  # a move already sent may still land
    paused_at = play.plies()
    page.wait_for_timeout(900)
    assert play.plies() == paused_at < 5
    page.keyboard.press("p")  # resume
    page.wait_for_selector(".overlay")
    final = play.state()
    assert final["status"] == "won" and final["moves"] == 5 and final["autoplay"] is True

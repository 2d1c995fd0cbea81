"""华容道 in the browser: the custom layout editor, drag and click-and-arrow moves, hint, undo, reload, win."""

from __future__ import annotations

import pytest

from tests.browser.kit import ARROW_KEYS
from tilegames import klotski

pytestmark = pytest.mark.browser
SHORT = ".BB./.BB./AACD/E..F"  # five moves from the win


def solve(text: str):
    return klotski.solve(klotski.Board.parse(text))


def play_move(play, page, move: str) -> None:
    """Click the piece, then one arrow key per unit step, waiting for each answer."""
    piece, steps = move.split(":")
    page.click(f"[data-piece='{piece}']")
    for step in steps:
        plies = play.plies()
        page.keyboard.press(ARROW_KEYS[step])
        play.wait_plies(plies + 1)


def test_klotski_custom_layout_to_best_result(play, page):
    first = play.open("klotski")
    assert play.state()["variant"] == "横刀立马"
    page.wait_for_selector("[data-piece]")
    assert page.locator(".piece.boss").count() == 1
    assert page.text_content(".piece.boss .kname") == "曹操"
    assert page.get_attribute(".piece.boss", "aria-label") == "Cao Cao, row 1, column 2"

    # The editor refuses an invalid layout with the engine's reason.
    page.select_option("select[name=layout]", "custom")
    page.fill("textarea[name=custom]", "AABB\nAABB\n....\n....")
    page.wait_for_selector("[data-verdict].bad")  # the live check, before any submit
    assert "2×2" in page.inner_text("[data-verdict]")
    play.press("new")
    page.wait_for_selector(".message.error")
    assert "2×2" in page.inner_text(".message.error")
    assert play.game_id() == first

    page.fill("textarea[name=custom]", SHORT.replace("/", "\n"))
    page.wait_for_selector("[data-verdict].ok")
    play.press("new")
    game = play.game_id(other_than=first)
    state = play.state()
    assert state["optimal"] == 5 and state["variant"] == f"custom {SHORT}"

    # Drag a piece one cell (E moves right), then undo.
    box = page.locator("[data-piece='E']").bounding_box()
    cell = box["width"]
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + cell / 2, y, steps=4)
    page.mouse.move(x + cell, y, steps=4)
    page.mouse.up()
    play.wait_plies(1)
    assert play.state()["board"] != SHORT
    play.press("undo")
    play.wait_plies(0)
    assert play.state()["board"] == SHORT

    # The hint lights the piece of the first optimal move.
    solution = solve(SHORT)
    play.press("hint")
    page.wait_for_selector(".piece.hint")
    assert page.get_attribute(".piece.hint", "data-piece") == solution.moves[0].split(":")[0]

    # Two moves by click-and-arrow, then a reload finds them.
    for move in solution.moves[:2]:
        play_move(play, page, move)
    before = play.state()
    assert before["moves"] == 2
    page.reload()
    assert play.game_id() == game
    play.wait_plies(before["plies"])
    assert play.state()["board"] == before["board"] and play.moves_shown() == 2

    for move in solution.moves[2:]:
        play_move(play, page, move)
    page.wait_for_selector(".overlay")
    final = play.state()
    assert final["status"] == "won" and final["moves"] == 5
    assert "5" in page.inner_text(".overlay")
    page.click(".overlay button:has-text('Close')")
    assert f"klotski custom {SHORT}" in play.best_rows()

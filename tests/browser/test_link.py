"""连连看 in the browser: a wrong pair, hint, a pair removed with its path, undo, reload, the solver's pairs to the win."""

from __future__ import annotations

import pytest

from tilegames import link

pytestmark = pytest.mark.browser


def click_pair(page, pair) -> None:
    for r, c in pair:
        page.click(f".lt[data-r='{r}'][data-c='{c}']")


def test_link_game_to_best_result(play, page):
    play.open("link", {"width": 6, "height": 4, "kinds": 6, "gravity": False})
    state = play.state()
    assert state["variant"] == "6x4 k6" and state["view"]["remaining"] == 24
    board = link.Board.parse(state["board"])
    cells = {(r, c): board[(r, c)] for r in range(4) for c in range(6)}

    # Two different tiles: shown as wrong, nothing changes.
    a = (0, 0)
    b = next(cell for cell, kind in cells.items() if kind != cells[a])
    click_pair(page, [a, b])
    page.wait_for_selector(".lt.wrong")
    assert play.state()["plies"] == 0

    # A hint lights a removable pair.
    play.press("hint")
    page.wait_for_selector(".lt.hint")
    lit = {
        (int(e.get_attribute("data-r")), int(e.get_attribute("data-c")))
        for e in page.query_selector_all(".lt.hint")
    }
    assert len(lit) == 2 and tuple(lit) in {(x, y) for x, y in board.pairs()} | {
        (y, x) for x, y in board.pairs()
    }

    # Remove a pair: its path is drawn, the tiles go; undo brings them back.
    pair = board.hint()
    click_pair(page, pair)
    play.wait_plies(1)
    assert page.locator("[data-path]").count() >= 1
    assert (
        page.get_attribute(f".lt[data-r='{pair[0][0]}'][data-c='{pair[0][1]}']", "class").count(
            "empty"
        )
        == 1
    )
    play.press("undo")
    play.wait_plies(0)
    assert play.state()["board"] == state["board"]

    # Play the solver's order; reload half way.
    solution = link.solve(board)
    assert solution.solvable
    for index, pair in enumerate(solution.pairs):
        if index == 6:
            before = play.state()
            page.reload()
            play.wait_plies(6)
            assert play.state()["board"] == before["board"] and play.moves_shown() == 6
        click_pair(page, pair)
        play.wait_plies(index + 1)
    page.wait_for_selector(".overlay")
    final = play.state()
    assert final["status"] == "won" and final["view"]["remaining"] == 0
    assert "Score" in page.inner_text(".overlay")
    page.click(".overlay button:has-text('Close')")
    assert "link 6x4 k6" in play.best_rows()

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

    # Two different tiles: the second becomes the pick, with no request to the server.
    a = (0, 0)
    b = next(cell for cell, kind in cells.items() if kind != cells[a])
    sent: list[str] = []
    page.on("request", lambda request: sent.append(request.url))
    click_pair(page, [a, b])
    assert (
        page.get_attribute(f".lt[data-r='{b[0]}'][data-c='{b[1]}']", "class").count("picked") == 1
    )
    assert page.locator(".lt.picked").count() == 1 and not sent
    page.click(f".lt[data-r='{b[0]}'][data-c='{b[1]}']")  # the pick again: dropped
    assert page.locator(".lt.picked").count() == 0

    # Two equal tiles no line can join: shown as wrong, nothing changes.
    joinable = {frozenset(pair) for pair in board.pairs()}
    blocked = next(
        (
            (x, y)
            for x in cells
            for y in cells
            if x < y and cells[x] == cells[y] and frozenset((x, y)) not in joinable
        ),
        None,
    )
    if blocked is not None:
        click_pair(page, blocked)
        page.wait_for_selector(".lt.wrong")
        assert "two turns" in page.inner_text("[data-message]")
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
    pair = board.first_pair()
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
    assert solution is not None
    for index, pair in enumerate(solution.moves):
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


def test_link_on_a_phone_is_drawn_turned_and_playable(browser, server):
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, bypass_csp=True
    )
    page = context.new_page()
    try:
        page.goto(f"{server.url}/")
        page.evaluate(
            "localStorage.setItem('tilegames.link.settings',"
            " JSON.stringify({width: 14, height: 6, kinds: 21, gravity: false}))"
        )
        page.goto(f"{server.url}/#/link")
        page.wait_for_function("document.querySelector('[data-board]')?.dataset.gameId")
        assert "turned" in page.get_attribute(".link-svg", "class")
        game_id = page.get_attribute("[data-board]", "data-game-id")
        board = link.Board.parse(server.api(f"/api/games/{game_id}")["board"])
        pair = board.first_pair()
        for r, c in pair:
            page.tap(f".lt[data-r='{r}'][data-c='{c}']")
        page.wait_for_function("document.querySelector('[data-board]').dataset.plies === '1'")
        board.push(pair)
        assert server.api(f"/api/games/{game_id}")["board"] == str(board)
        # Drawn turned: the tile of row 0, column 13 sits in the last drawn row.
        first = page.locator(".lt[data-r='0'][data-c='0']").bounding_box()
        last = page.locator(".lt[data-r='0'][data-c='13']").bounding_box()
        assert last["y"] > first["y"] + 10 * first["height"]
        assert abs(last["x"] - first["x"]) < first["width"] / 4
    finally:
        context.close()

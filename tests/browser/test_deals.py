"""Shareable deals in the page: the address names the deal, a fresh browser opens the same deal, Restart replays
it (asking first mid-game), the win card offers a share text, and a best with no record in it shows "—"."""

from __future__ import annotations

import pytest

from tests.browser.kit import ARROW_KEYS
from tilegames import slide

pytestmark = pytest.mark.browser


def solving_move(board_text: str) -> str:
    """The one move that solves a deal one move from solved (found by trying every legal move)."""
    board = slide.Board.parse(board_text)
    for letter in board.moves():
        after = slide.Board.parse(board_text)
        after.push(letter)
        if after.is_solved():
            return letter
    raise AssertionError(f"{board_text} is not one move from solved")


def test_a_copied_address_opens_the_same_deal_in_a_fresh_browser(browser, play, server):
    play.open("slide", {"width": 3, "height": 3})
    play.page.wait_for_function("location.hash.includes('?deal=slide-3x3-')")
    address = play.page.url
    first = play.state()
    assert address.endswith(f"#/slide?deal={first['deal']}")
    other = browser.new_context(
        viewport={"width": 390, "height": 844}, bypass_csp=True
    )  # empty storage
    try:
        page = other.new_page()
        page.goto(address)
        page.wait_for_function("document.querySelector('[data-board]')?.dataset.gameId")
        opened = server.api(f"/api/games/{page.get_attribute('[data-board]', 'data-game-id')}")
        assert opened["id"] != first["id"]
        assert (opened["start"], opened["deal"]) == (first["start"], first["deal"])
    finally:
        other.close()


def test_restart_asks_mid_game_then_replays_the_deal(play):
    game_id = play.open("slide", {"width": 3, "height": 3})
    start = play.state()
    board = slide.Board.parse(start["board"])
    play.page.keyboard.press(ARROW_KEYS[next(iter(board.moves()))])
    play.wait_plies(1)
    play.press("restart")
    play.page.wait_for_selector(".overlay.ask, .overlay [data-dialog-action=no]")
    play.page.click("[data-dialog-action=no]")  # cancelled: the game stays
    assert play.plies() == 1 and play.game_id() == game_id
    play.press("restart")
    play.page.click("[data-dialog-action=yes]")
    again_id = play.game_id(other_than=game_id)
    again = play.state()
    assert again["start"] == start["start"] and again["plies"] == 0 and again_id != game_id


def test_the_win_card_shares_the_result_and_the_deal(play, server):
    deal = "slide-3x3-d1-s11"
    play.page.goto(f"{server.url}/#/slide?deal={deal}")
    play.game_id()
    state = play.state()
    assert state["deal"] == deal
    play.page.keyboard.press(ARROW_KEYS[solving_move(state["board"])])
    play.page.wait_for_selector("[data-share]")
    text = play.page.input_value("[data-share]")
    assert f"#/slide?deal={deal}" in text and "1" in text
    play.page.click("[data-action=copy]")
    play.page.wait_for_function("document.querySelector('[data-copied]').textContent.length > 0")
    assert "null" not in play.page.inner_text(".overlay")


def test_a_best_without_a_record_shows_a_dash_not_null(play, server):
    deal = "slide-4x4-d1-s12"  # its own variant ("4x4 d1"): won in these tests only with a hint
    play.page.goto(f"{server.url}/#/slide?deal={deal}")
    play.game_id()
    state = play.state()
    play.press("hint")
    play.page.wait_for_function(
        "!document.querySelector('[data-action=hint]').hasAttribute('aria-busy')"
    )
    assert play.state()["hints"] == 1
    play.page.keyboard.press(ARROW_KEYS[solving_move(state["board"])])
    play.page.wait_for_selector(".overlay.win, .overlay [data-share]")
    assert "null" not in play.page.inner_text(".overlay")
    play.page.keyboard.press("Escape")
    play.press("restart")  # the won game is over: no question
    play.game_id(other_than=state["id"])
    play.page.wait_for_function(
        "document.querySelector('[data-stat=extra]').textContent.includes('—')"
    )
    assert "null" not in play.page.inner_text("[data-stat=extra]")

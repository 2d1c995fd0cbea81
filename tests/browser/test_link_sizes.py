"""Lianliankan progress by size and gravity: the Sizes menu marks each size × gravity cleared (✓) with the
player's top score, a choice deals that size (asking first in the middle of a game), in both languages."""

from __future__ import annotations

import pytest

from tests.browser.kit import play_moves, serious
from tilegames import link

pytestmark = pytest.mark.browser


def open_sizes(page):
    page.click("[data-action=sizes]")
    page.wait_for_selector("[data-sizes] [data-size]")


def card(page, size: str, gravity: bool):
    return page.locator(f"[data-size='{size}'][data-gravity='{'1' if gravity else ''}']")


def test_sizes_menu_marks_a_cleared_size_and_deals_the_one_chosen(play, page):
    game = play.open("link", {"width": 6, "height": 4, "kinds": 6, "gravity": False})
    state = play.state()
    pairs = link.solve(link.Board.parse(state["board"])).moves
    won = play_moves(page, game, [[list(a), list(b)] for a, b in pairs])
    assert isinstance(won, dict) and won["status"] == "won", won
    score = won["view"]["score"]

    open_sizes(page)
    cards = page.locator("[data-sizes] [data-size]")
    assert cards.count() == 14  # 7 sizes, each without and with gravity
    cleared = card(page, "6x4", False)
    assert cleared.get_attribute("data-solved") == "1"
    assert cleared.get_attribute("data-best") == str(score)
    assert "✓" in cleared.inner_text() and str(score) in cleared.inner_text()
    assert card(page, "6x4", True).get_attribute("data-solved") == ""
    assert card(page, "14x6", False).get_attribute("data-best") == ""
    first = page.locator("[data-sizes] [data-size]").first.get_attribute("data-size")
    assert first == "6x4"  # smallest first

    # The game on screen was won elsewhere with no move here: a choice deals at once.
    card(page, "14x6", True).click()
    other = play.game_id(other_than=game)
    dealt = play.state()
    assert dealt["variant"] == "14x6 k21 gravity" and dealt["view"]["gravity"]
    assert page.input_value("select[name=size]") == "14x6"
    assert page.is_checked("input[name=gravity]")

    # Mid-game a choice asks first: Esc keeps the game, Enter deals the size.
    pair = link.Board.parse(dealt["board"]).first_pair()
    for r, c in pair:
        page.click(f".lt[data-r='{r}'][data-c='{c}']")
    play.wait_plies(1)
    open_sizes(page)
    card(page, "6x4", True).click()
    page.wait_for_selector(".overlay .card.ask")
    page.keyboard.press("Escape")
    page.wait_for_timeout(300)
    assert play.game_id() == other and play.state()["plies"] == 1
    open_sizes(page)
    card(page, "6x4", True).click()
    page.wait_for_selector(".overlay .card.ask")
    page.keyboard.press("Enter")
    play.game_id(other_than=other)
    assert play.state()["variant"] == "6x4 k6 gravity"


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_the_sizes_menu_speaks_the_page_language_and_passes_axe(browser, server, locale):
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale=locale, bypass_csp=True
    )
    page = context.new_page()
    try:
        page.goto(f"{server.url}/#/link")
        page.wait_for_function("document.querySelector('[data-board]')?.dataset.gameId")
        open_sizes(page)
        heading = page.inner_text(".overlay h2")
        assert heading == ("Sizes" if locale == "en-US" else "选择尺寸")
        header = page.inner_text(".size-grid thead")
        assert ("gravity" in header) if locale == "en-US" else ("重力" in header)
        label = card(page, "18x8", True).get_attribute("aria-label")
        assert label.startswith("18×8, " + ("gravity" if locale == "en-US" else "重力"))
        assert serious(page) == []
        page.keyboard.press("Escape")
        page.wait_for_selector(".overlay", state="detached")
    finally:
        context.close()

"""Accessibility: axe-core finds nothing serious, tab order follows the board, dialogs close on Esc and give focus back."""

from __future__ import annotations

import json

import pytest

from tests.browser.kit import serious
from tilegames import slide

pytestmark = pytest.mark.browser
SCREENS = {
    "home": None,
    "slide": {"width": 3, "height": 3, "distance": 10},
    "klotski": {"layout": "横刀立马"},
    "link": {"width": 6, "height": 4, "kinds": 6, "gravity": False},
}
VIEWPORTS = {"desktop": (1280, 800), "phone": (390, 844)}


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
@pytest.mark.parametrize("viewport", list(VIEWPORTS))
@pytest.mark.parametrize("screen", list(SCREENS))
def test_axe_finds_no_serious_violation(browser, server, screen, viewport, locale):
    width, height = VIEWPORTS[viewport]
    context = browser.new_context(
        viewport={"width": width, "height": height}, locale=locale, bypass_csp=True
    )
    page = context.new_page()
    try:
        page.goto(f"{server.url}/")
        if screen == "home":
            page.wait_for_selector("[data-best][data-loaded]")
        else:
            page.evaluate(
                "([k, v]) => localStorage.setItem(k, v)",
                [f"tilegames.{screen}.settings", json.dumps(SCREENS[screen])],
            )
            page.goto(f"{server.url}/#/{screen}")
            page.wait_for_function("document.querySelector('[data-board]')?.dataset.gameId")
        page.emulate_media(reduced_motion="reduce")
        assert serious(page) == []
        if screen != "home":  # and with the help open
            page.click("[data-action=help]")
            page.wait_for_selector(".overlay")
            assert serious(page) == []
    finally:
        context.close()


def test_tab_order_follows_the_board(play, page):
    """Bug 7: the sliding puzzle's tab order followed the order tiles were created, not their places."""
    play.open("slide", {"width": 3, "height": 3, "distance": 10})
    board = slide.Board.parse(play.state()["board"])
    letter = next(iter(board.moves()))
    page.keyboard.press(
        {"U": "ArrowUp", "D": "ArrowDown", "L": "ArrowLeft", "R": "ArrowRight"}[letter]
    )
    play.wait_plies(1)
    board.push(letter)
    page.focus("[data-tile]")
    page.evaluate("document.querySelector('.slide-svg [data-tile]').focus()")
    seen = []
    for _ in range(8):
        seen.append(page.evaluate("document.activeElement.dataset.tile"))
        page.keyboard.press("Tab")
    expected = [str(n) for n in board.tiles if n != 0]
    assert seen == expected
    # A label says where the tile is, counted from 1.
    first = board.tiles[0] or board.tiles[1]
    place = board.tiles.index(first)
    label = page.get_attribute(f"[data-tile='{first}']", "aria-label")
    assert label == f"tile {first}, row {place // 3 + 1}, column {place % 3 + 1}"


def test_focus_stays_on_a_tile_that_moved(play, page):
    play.open("slide", {"width": 3, "height": 3, "distance": 10})
    board = slide.Board.parse(play.state()["board"])
    letter = next(iter(board.moves()))
    blank = board.tiles.index(0)
    dr, dc = {"U": (1, 0), "D": (-1, 0), "L": (0, 1), "R": (0, -1)}[letter]
    tile = board.tiles[blank + dr * 3 + dc]
    page.focus(f"[data-tile='{tile}']")
    page.keyboard.press("Enter")
    play.wait_plies(1)
    assert page.evaluate("document.activeElement.dataset.tile") == str(tile)


def test_clock_is_not_a_live_region(play, page):
    play.open("slide", {"width": 3, "height": 3, "distance": 10})
    live = page.evaluate(
        "(() => { const t = document.querySelector('[data-stat=time]');"
        " return Boolean(t.closest('[aria-live], [role=status], [role=timer], output')); })()"
    )
    assert live is False


def test_win_dialog_closes_on_esc_and_gives_focus_back(play, page):
    """Bug 6: the win dialog ignored Esc and closing it left focus on <body>."""
    # 4×4: a win here must not set the 3×3 record test_slide expects (the server shares one per size)
    play.open("slide", {"width": 4, "height": 4, "distance": 5})
    board = slide.Board.parse(play.state()["board"])
    arrow = {"U": "ArrowUp", "D": "ArrowDown", "L": "ArrowLeft", "R": "ArrowRight"}
    for index, letter in enumerate(slide.solve(board).moves):
        page.keyboard.press(arrow[letter])
        play.wait_plies(index + 1)
    page.wait_for_selector(".overlay[role=dialog]")
    assert page.evaluate("document.activeElement.closest('.overlay') !== null")
    page.keyboard.press("Escape")
    page.wait_for_selector(".overlay", state="detached")
    assert page.evaluate("document.activeElement !== document.body")
    assert play.state()["status"] == "won"


def test_help_dialog_is_reachable_and_closes_on_esc(play, page):
    play.open("klotski", {"layout": "横刀立马"})
    page.focus("[data-action=help]")
    page.keyboard.press("Enter")
    page.wait_for_selector(".overlay[role=dialog]")
    text = page.inner_text(".overlay")
    assert "steps" in text and "optimum" in text
    page.keyboard.press("Tab")  # focus stays inside the dialog
    assert page.evaluate("document.activeElement.closest('.overlay') !== null")
    page.keyboard.press("Escape")
    page.wait_for_selector(".overlay", state="detached")
    assert page.evaluate("document.activeElement.dataset.action") == "help"


def luminance(rgb: str) -> float:
    """Relative luminance (WCAG 2) of a computed `rgb(r, g, b)` colour."""
    parts = [float(x) for x in rgb[rgb.index("(") + 1 : rgb.index(")")].split(",")[:3]]
    linear = [
        (c / 255) / 12.92 if c / 255 <= 0.03928 else ((c / 255 + 0.055) / 1.055) ** 2.4
        for c in parts
    ]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_buttons_keep_their_contrast_on_hover(play, page):
    play.open("slide", {"width": 3, "height": 3, "distance": 10})
    for selector in [
        "[data-action=new]",
        "[data-action=hint]",
        "[data-action=help]",
        "[data-lang-switch]",
    ]:
        page.hover(selector)
        page.wait_for_timeout(50)
        fg, bg = page.eval_on_selector(
            selector, "e => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor]"
        )
        assert contrast(fg, bg) >= 4.5, (selector, fg, bg)

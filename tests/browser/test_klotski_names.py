"""Klotski layouts by name in the page's language: English names on the level cards, the layout menu and the
win card in English (the Chinese name beside), the Chinese name in Chinese; pack levels "Level 37" / "第 37 关"."""

from __future__ import annotations

import pytest

from tests.browser.kit import ARROW_KEYS, play_moves
from tilegames import klotski
from tilegames.klotski.layouts import NAMED_LAYOUTS

pytestmark = pytest.mark.browser


@pytest.fixture
def localized(browser, server):
    contexts = []

    def open_page(locale: str):
        context = browser.new_context(
            viewport={"width": 1000, "height": 900}, locale=locale, bypass_csp=True
        )
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(20_000)
        return page

    yield open_page
    for context in contexts:
        context.close()


def open_levels(page):
    page.click("[data-action=levels]")
    page.wait_for_selector("[data-levels] [data-level]")


@pytest.mark.parametrize(
    ("locale", "named", "level"),
    [("en-US", "Blade Drawn, Horse Reined", "Level 37"), ("zh-CN", "横刀立马", "第 37 关")],
)
def test_level_cards_and_menu_name_layouts_in_the_page_language(
    localized, server, locale, named, level
):
    page = localized(locale)
    page.goto(f"{server.url}/#/klotski")
    page.wait_for_function("document.querySelector('[data-board]')?.dataset.gameId")
    option = page.inner_text("select[name=layout] option[value='横刀立马']")
    assert option.startswith(named)
    open_levels(page)
    card = page.locator("[data-level='横刀立马']")
    assert card.locator("strong").inner_text() == named
    assert "heng-dao" not in card.inner_text()  # the pinyin alias is for the CLI and deal ids
    assert page.locator("[data-level='Level 37'] strong").inner_text() == level
    english = {n.name: n.english for n in NAMED_LAYOUTS}
    for each in page.query_selector_all(".level-card.named"):
        shown = each.query_selector("strong").inner_text()
        name = each.get_attribute("data-level")
        assert shown == (english[name] if locale == "en-US" else name)


def test_the_win_card_names_the_layout_and_the_next_one_in_english(localized, server):
    page = localized("en-US")
    page.goto(f"{server.url}/#/klotski?deal=klotski-qian-hu-hou-yong")
    page.wait_for_function("document.querySelector('[data-board]')?.dataset.gameId")
    game = page.get_attribute("[data-board]", "data-game-id")
    state = server.api(f"/api/games/{game}")
    assert state["variant"] == "前呼后拥"
    moves = klotski.solve(klotski.Board.parse(state["board"]), "moves").moves
    play_moves(page, game, moves[:-1])
    page.reload()
    page.wait_for_function(
        f"document.querySelector('[data-board]')?.dataset.plies === '{len(moves) - 1}'"
    )
    piece, steps = moves[-1].split(":")
    page.click(f"[data-piece='{piece}']")
    for done, step in enumerate(steps, start=len(moves)):
        page.keyboard.press(ARROW_KEYS[step])
        page.wait_for_function(f"document.querySelector('[data-board]').dataset.plies === '{done}'")
    page.wait_for_selector(".overlay .card.win")
    card = page.inner_text(".overlay .card.win")
    assert "Escorts Front and Back" in card
    assert page.inner_text("[data-dialog-action=next]") == "Next layout: Wing to Wing"

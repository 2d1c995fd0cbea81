"""Progress in the page: the Klotski level screen with ✓/★ (kept across a server restart), the sliding-puzzle
ladder's next rung on the win card, the daily puzzle from the home screen."""

from __future__ import annotations

import datetime

import pytest

from tests.browser.kit import ARROW_KEYS, play_moves, serious
from tilegames import klotski, slide

pytestmark = pytest.mark.browser


def open_levels(page):
    page.click("[data-action=levels]")
    page.wait_for_selector("[data-levels] [data-level]")
    return page.query_selector_all("[data-level]")


def test_level_screen_marks_an_optimal_win_and_keeps_it_across_a_restart(page, tmp_path, request):
    server = type(request.getfixturevalue("server"))(tmp_path / "progress.sqlite3")
    server.start()
    try:
        page.goto(f"{server.url}/#/klotski")
        page.wait_for_function("document.querySelector('[data-board]')?.dataset.gameId")
        cards = open_levels(page)
        names = [card.get_attribute("data-level") for card in cards]
        assert len(names) >= 140 and "横刀立马" in names and "Level 100" in names
        assert names.index("Level 1") < names.index("Level 112")
        page.click("[data-level='Level 1']")
        page.wait_for_function("location.hash.includes('deal=klotski-level-1')")
        game_id = page.get_attribute("[data-board]", "data-game-id")
        board = server.api(f"/api/games/{game_id}")["board"]
        moves = klotski.solve(klotski.Board.parse(board), "moves").moves
        play_moves(page, game_id, moves)
        server.kill()
        server.start()
        page.reload()
        page.wait_for_function("document.querySelector('[data-board]')?.dataset.gameId")
        open_levels(page)
        card = page.query_selector("[data-level='Level 1']")
        assert card.get_attribute("data-solved") == "1" and card.get_attribute("data-star") == "1"
        assert "✓★" in card.inner_text()
        assert page.query_selector("[data-level='Level 2']").get_attribute("data-solved") == ""
    finally:
        server.kill()


def test_a_won_rung_offers_the_next_and_marks_the_ladder(play, server):
    play.page.goto(f"{server.url}/#/slide?deal=slide-3x3-d2-s21")
    game_id = play.game_id()
    state = play.state()
    for move in slide.solve(slide.Board.parse(state["board"])).moves:
        play.page.keyboard.press(ARROW_KEYS[move])
    play.page.wait_for_selector("[data-dialog-action=next]")
    play.page.click("[data-dialog-action=next]")
    play.game_id(other_than=game_id)
    assert play.state()["variant"] == "3x3 d5"
    play.page.wait_for_function(
        "document.querySelector('[data-progress]').dataset.variant === '3x3 d5'"
    )
    marks = play.page.get_attribute("select[name=level] option[value='2']", "data-marks")
    assert marks == "✓★"


def test_the_daily_puzzle_opens_from_the_home_screen(play, server):
    play.page.goto(f"{server.url}/")
    play.page.click("[data-daily=link]")
    play.game_id()
    today = datetime.datetime.now(datetime.UTC).date().isoformat()
    assert play.state()["variant"] == f"daily {today}"
    assert play.page.url.endswith(f"#/link?deal=link-daily-{today}")


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
def test_the_level_screen_and_home_pass_axe(browser, server, locale):
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale=locale, bypass_csp=True
    )
    page = context.new_page()
    try:
        page.goto(f"{server.url}/#/klotski")
        page.wait_for_function("document.querySelector('[data-board]')?.dataset.gameId")
        open_levels(page)
        assert serious(page) == []
        page.keyboard.press("Escape")
        page.goto(f"{server.url}/#/")
        page.wait_for_selector("[data-best][data-loaded]")
        assert page.query_selector("[data-daily=slide]") is not None
        assert serious(page) == []
    finally:
        context.close()

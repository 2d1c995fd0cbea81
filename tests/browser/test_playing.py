"""Playing without losing a game by accident: confirmations, shortcuts, pause, playback, redo, queued moves."""

from __future__ import annotations

import pytest

from tests.browser.kit import ARROW_KEYS
from tilegames import slide

pytestmark = pytest.mark.browser
DELTA = {
    "U": (1, 0),
    "D": (-1, 0),
    "L": (0, 1),
    "R": (0, -1),
}  # the moving tile, seen from the blank


def tile_for(board: slide.Board, letter: str) -> int:
    r, c = divmod(board.tiles.index(0), board.width)
    dr, dc = DELTA[letter]
    return board.tiles[(r + dr) * board.width + (c + dc)]


def one_move(play, page) -> slide.Board:
    """Make one move by keyboard; return the board after it."""
    board = slide.Board.parse(play.state()["board"])
    letter = next(iter(board.moves()))
    page.keyboard.press(ARROW_KEYS[letter])
    play.wait_plies(1)
    board.push(letter)
    return board


def test_new_game_mid_game_asks_first(play, page):
    first = play.open("slide", {"width": 3, "height": 3, "distance": 10})
    page.keyboard.press("n")  # nothing played yet: deals at once
    second = play.game_id(other_than=first)
    one_move(play, page)

    # N mid-game asks; Esc keeps the game and gives focus back.
    page.keyboard.press("n")
    page.wait_for_selector(".overlay[role=dialog]")
    assert page.evaluate("document.activeElement.dataset.dialogAction") == "yes"
    page.keyboard.press("Escape")
    page.wait_for_selector(".overlay", state="detached")
    assert play.game_id() == second and play.plies() == 1
    assert page.evaluate("document.activeElement !== document.body")

    # The New game button asks too; Cancel keeps the game, Enter on "Yes" deals.
    play.press("new")
    page.click(".overlay [data-dialog-action=no]")
    assert play.game_id() == second
    play.press("new")
    page.wait_for_selector(".overlay[role=dialog]")
    page.keyboard.press("Enter")
    play.game_id(other_than=second)


def test_size_change_mid_game_asks_and_cancel_restores_it(play, page):
    first = play.open("slide", {"width": 3, "height": 3, "distance": 10})
    one_move(play, page)
    page.select_option("select[name=size]", "4x4")
    page.wait_for_selector(".overlay[role=dialog]")
    page.keyboard.press("Escape")
    assert page.input_value("select[name=size]") == "3x3" and play.game_id() == first
    page.select_option("select[name=level]", "5")
    page.wait_for_selector(".overlay[role=dialog]")
    page.keyboard.press("Enter")
    play.game_id(other_than=first)
    assert play.state()["optimal"] == 5


@pytest.mark.parametrize("modifier", ["Meta", "Control", "Alt"])
def test_shortcuts_never_fire_with_a_modifier(play, page, modifier):
    """Bug 1: Cmd/Meta+S started Solve."""
    game = play.open("slide", {"width": 3, "height": 3, "distance": 10})
    one_move(play, page)
    for key in "snhup":
        page.keyboard.press(f"{modifier}+{key}")
    page.wait_for_timeout(500)
    assert page.locator(".overlay").count() == 0
    assert page.locator("[data-action=solve][data-playing]").count() == 0
    assert page.locator("[data-board][hidden]").count() == 0
    assert play.game_id() == game and play.state()["plies"] == 1 and play.state()["hints"] == 0


def test_pause_hides_the_board_and_stops_the_clock(play, page):
    play.open("slide", {"width": 3, "height": 3, "distance": 10})
    one_move(play, page)
    play.press("pause")
    page.wait_for_selector("[data-board][hidden]", state="attached")
    assert page.locator(".tile").first.is_hidden()
    shown = page.inner_text("[data-stat=time]")
    page.wait_for_timeout(2300)
    assert page.inner_text("[data-stat=time]") == shown
    page.keyboard.press("ArrowUp")  # no move while paused
    page.keyboard.press("ArrowDown")
    page.wait_for_timeout(300)
    assert play.state()["plies"] == 1
    page.keyboard.press("p")
    page.wait_for_selector("[data-board]:not([hidden])")
    assert page.get_attribute("[data-action=pause]", "aria-pressed") == "false"


def test_clock_says_paused_after_the_idle_limit(play, page):
    page.clock.install()
    play.open("slide", {"width": 3, "height": 3, "distance": 10})
    one_move(play, page)
    page.clock.run_for(70_000)  # past the server's one-minute cap on an idle gap
    page.wait_for_function("document.querySelector('[data-stat=time]').dataset.paused === '1'")
    assert "paused" in page.inner_text("[data-stat=time]")


def test_interrupted_playback_stops_cleanly_and_says_so(play, page):
    """Bug 2: Solve → Pause → click a tile → Resume gave a 422 toast and a status that still said it was playing."""
    play.open("slide", {"width": 3, "height": 3, "distance": 20})
    play.press("solve")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-action=solve][data-playing]")
    play.wait_plies(1)
    page.keyboard.press("p")
    page.wait_for_selector("[data-board][hidden]", state="attached")
    assert "resume" in page.inner_text("[data-message]").lower()
    page.keyboard.press("p")
    page.wait_for_selector("[data-board]:not([hidden])")
    page.wait_for_selector(".tile.movable")
    page.locator(".tile.movable").first.click()  # the player takes over
    page.wait_for_selector("[data-action=solve]:not([data-playing])")
    assert "stopped" in page.inner_text("[data-message]").lower()
    page.wait_for_timeout(800)  # a move already sent may still land
    settled = play.state()["plies"]
    page.wait_for_timeout(1200)
    state = play.state()
    assert state["plies"] == settled and state["status"] == "playing"
    assert page.locator("[data-toast=error]").count() == 0
    assert page.inner_text("[data-action=solve]") == "Solve"


def test_a_key_stops_playback_too(play, page):
    play.open("slide", {"width": 3, "height": 3, "distance": 20})
    page.keyboard.press("s")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-action=solve][data-playing]")
    page.keyboard.press("x")
    page.wait_for_selector("[data-action=solve]:not([data-playing])")
    assert "stopped" in page.inner_text("[data-message]").lower()


def test_redo_reapplies_undone_moves_until_a_new_move(play, page):
    play.open("slide", {"width": 3, "height": 3, "distance": 10})
    start = play.state()["board"]
    board = slide.Board.parse(start)
    letters = []
    for index in range(3):
        letter = next(
            m
            for m in board.moves()
            if not letters or m != {"U": "D", "D": "U", "L": "R", "R": "L"}[letters[-1]]
        )
        page.keyboard.press(ARROW_KEYS[letter])
        play.wait_plies(index + 1)
        board.push(letter)
        letters.append(letter)
    after = play.state()["board"]
    for plies in (2, 1):
        page.keyboard.press("u")
        play.wait_plies(plies)
    page.keyboard.press("r")
    play.wait_plies(2)
    play.press("redo")
    play.wait_plies(3)
    assert play.state()["board"] == after
    assert page.is_disabled("[data-action=redo]")
    page.keyboard.press("u")
    play.wait_plies(2)
    page.keyboard.press(
        ARROW_KEYS[{"U": "D", "D": "U", "L": "R", "R": "L"}[letters[1]]]
    )  # a new move
    play.wait_plies(3)
    assert page.is_disabled("[data-action=redo]")


def test_moves_faster_than_the_server_are_queued_in_order(play, page):
    play.open("slide", {"width": 3, "height": 3, "distance": 20})
    board = slide.Board.parse(play.state()["board"])
    letters = []
    for _ in range(6):
        letter = next(
            m
            for m in board.moves()
            if not letters or m != {"U": "D", "D": "U", "L": "R", "R": "L"}[letters[-1]]
        )
        board.push(letter)
        letters.append(letter)
    for letter in letters:  # no waiting between presses
        page.keyboard.press(ARROW_KEYS[letter])
    play.wait_plies(6)
    assert play.state()["board"] == str(board)


def test_hint_shows_progress_while_it_works(play, page):
    play.open("slide", {"width": 3, "height": 3, "distance": 20})
    page.route("**/hint", lambda route: (page.wait_for_timeout(600), route.continue_()))
    play.press("hint")
    page.wait_for_selector("[data-action=hint][aria-busy=true]")
    page.wait_for_selector(".tile.hint")
    assert page.get_attribute("[data-action=hint]", "aria-busy") is None

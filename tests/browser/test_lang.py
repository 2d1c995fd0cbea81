"""Two languages: the page follows the browser, switches on every screen, remembers; the server's codes in words;
a refused deal asked again, with the board's buttons off until there is a board."""

from __future__ import annotations

import json

import pytest

from tests.browser.kit import ARROW_KEYS, page_in
from tilegames import link, slide

pytestmark = pytest.mark.browser


@pytest.fixture
def zh_page(browser):
    with page_in(browser, "zh-CN") as page:
        yield page


def open_slide(page, url: str, settings: dict | None = None) -> None:
    page.goto(f"{url}/")
    page.evaluate(
        "v => localStorage.setItem('tilegames.slide.settings', v)",
        json.dumps(settings or {"width": 3, "height": 3, "distance": 10}),
    )
    page.goto(f"{url}/#/slide")
    page.wait_for_function("document.querySelector('[data-board]')?.dataset.gameId")


def test_the_page_follows_a_chinese_browser(zh_page, server):
    zh_page.goto(f"{server.url}/")
    zh_page.wait_for_selector("[data-best][data-loaded]")
    assert zh_page.get_attribute("html", "lang") == "zh-CN"
    assert zh_page.inner_text("[data-nav=klotski]") == "华容道"
    assert "最佳成绩" in zh_page.inner_text("[data-best]")
    open_slide(zh_page, server.url)
    assert zh_page.inner_text("[data-action=undo]") == "悔一步"
    assert zh_page.inner_text("[data-action=pause]") == "暂停"
    label = zh_page.get_attribute("[data-tile]", "aria-label")
    assert label.startswith("数字") and "行" in label and "列" in label
    zh_page.click("[data-action=help]")
    assert "空格" in zh_page.inner_text(".overlay")


def test_the_page_follows_an_english_browser(browser, server):
    with page_in(browser, "en-US") as page:
        page.goto(f"{server.url}/")
        page.wait_for_selector("[data-best][data-loaded]")
        assert page.get_attribute("html", "lang") == "en"
        assert page.inner_text("[data-nav=klotski]") == "Klotski"
        assert "Best results" in page.inner_text("[data-best]")


def test_switch_on_a_game_screen_keeps_the_game_and_is_remembered(play, page):
    game = play.open("slide", {"width": 3, "height": 3, "distance": 10})
    assert page.inner_text("[data-action=hint]") == "Hint"
    page.click("[data-lang-switch]")
    page.wait_for_selector("[data-action=hint]:has-text('提示')")
    assert page.get_attribute("html", "lang") == "zh-CN"
    assert play.game_id() == game
    page.reload()
    page.wait_for_selector("[data-action=hint]:has-text('提示')")
    assert play.game_id() == game
    page.click("[data-lang-switch]")
    page.wait_for_selector("[data-action=hint]:has-text('Hint')")
    assert page.get_attribute("html", "lang") == "en"


def test_both_languages_have_every_word(play, page, server):
    page.goto(f"{server.url}/")
    missing = page.evaluate("import('/static/js/i18n.js').then(m => m.missingKeys())")
    assert missing == []


def test_server_errors_are_shown_in_the_players_words(zh_page, server):
    open_slide(zh_page, server.url)
    answers = {"code": "rate_limited", "message": "too many new games, hints or solves at once"}
    zh_page.route(
        "**/hint",
        lambda route: route.fulfill(
            status=429, content_type="application/json", body=json.dumps({"error": answers})
        ),
    )
    zh_page.click("[data-action=hint]")
    zh_page.wait_for_selector("[data-message].error")
    assert zh_page.inner_text("[data-message]") == "请求太频繁：请稍等。"
    answers.update(
        code="busy", message="the server is busy with other solves; try again in a moment"
    )
    zh_page.click("[data-action=hint]")
    zh_page.wait_for_selector("[data-message]:has-text('服务器正忙于其他棋局：请稍后再试。')")
    answers.update(code="something_new", message="a reason only the server knows")
    zh_page.click("[data-action=hint]")
    zh_page.wait_for_selector("[data-message]:has-text('a reason only the server knows')")


def test_moves_carry_the_ply_and_a_conflict_reloads_the_game(play, page):
    play.open("slide", {"width": 3, "height": 3, "distance": 10})
    board = slide.Board.parse(play.state()["board"])
    bodies: list[dict] = []
    page.on(
        "request",
        lambda r: bodies.append(json.loads(r.post_data)) if r.url.endswith("/moves") else None,
    )
    first = next(iter(board.moves()))
    page.keyboard.press(ARROW_KEYS[first])
    play.wait_plies(1)
    board.push(first)
    assert bodies[0]["ply"] == 0 and bodies[0]["move"] == first

    # Another tab moves on: the server answers 409 conflict; the page shows the game as it stands.
    second = next(m for m in board.moves() if m != {"U": "D", "D": "U", "L": "R", "R": "L"}[first])
    state = play.state()
    page.evaluate(
        "([id, move, ply]) => fetch(`/api/games/${id}/moves`, {method: 'POST',"
        " headers: {'content-type': 'application/json'}, body: JSON.stringify({move, ply})})",
        [state["id"], second, 1],
    )
    conflict = {"error": {"code": "conflict", "message": "the game moved on; reload it"}}
    page.route(
        "**/moves",
        lambda route: route.fulfill(
            status=409, content_type="application/json", body=json.dumps(conflict)
        ),
    )
    board.push(second)
    page.keyboard.press(ARROW_KEYS[next(iter(board.moves()))])
    play.wait_plies(2)  # the other tab's move shows after the refused one
    assert "changed elsewhere" in page.inner_text("[data-message]")
    assert page.locator("[data-toast=error]").count() == 0


def test_win_card_shows_a_new_record_and_the_previous_best(play, page):
    # 4×4: a win here must not set the 3×3 record test_slide expects (the server shares one per size)
    play.open("slide", {"width": 4, "height": 4, "distance": 5})
    board = slide.Board.parse(play.state()["board"])
    moves = slide.solve(board).moves

    def with_record(route):
        answer = route.fetch()
        state = answer.json()
        if state.get("status") == "won":
            state["record"] = {
                "new": True,
                "previous": {"fewest_moves": 9, "fastest_seconds": 75, "top_score": None},
            }
        route.fulfill(response=answer, body=json.dumps(state))

    page.route("**/moves", with_record)
    for index, letter in enumerate(moves):
        page.keyboard.press(ARROW_KEYS[letter])
        play.wait_plies(index + 1)
    page.wait_for_selector(".overlay [data-record=new]")
    text = page.inner_text(".overlay")
    assert "New record!" in text and "Previous best" in text and "9 · 1:15" in text


def test_best_table_shows_the_label_in_words(play, page, server):
    rows = {
        "best": [
            {
                "game": "slide",
                "variant": "4x4 d30",
                "label": "4×4, 30 moves from solved",
                "played": 2,
                "unassisted": 1,
                "fewest_moves": 30,
                "fastest_seconds": 61.0,
                "top_score": None,
            }
        ]
    }
    page.route(
        "**/api/best",
        lambda route: route.fulfill(
            status=200, content_type="application/json", body=json.dumps(rows)
        ),
    )
    page.goto(f"{server.url}/")
    page.wait_for_selector("[data-best][data-loaded]")
    assert page.inner_text("[data-best-row] td:nth-child(2)") == "4×4, 30 moves from solved"


def refuse_deals(page, answers: list[tuple[int, str, dict[str, str]]]) -> list[str]:
    """Answer the page's next deals (POST /api/games) with `answers` (status, code, headers), then let them
    through; return the log of deals asked for ("refused" or "dealt")."""
    asked: list[str] = []

    def handle(route):
        if route.request.method != "POST":
            route.continue_()
        elif len(asked) < len(answers):
            status, code, headers = answers[len(asked)]
            asked.append("refused")
            body = {"error": {"code": code, "message": f"the server's own words for {code}"}}
            route.fulfill(
                status=status,
                headers=headers,
                content_type="application/json",
                body=json.dumps(body),
            )
        else:
            asked.append("dealt")
            route.continue_()

    page.route("**/api/games", handle)
    return asked


def test_a_deal_refused_with_retry_after_is_asked_again_in_the_players_words(zh_page, server):
    asked = refuse_deals(zh_page, [(503, "busy", {"Retry-After": "1"})])
    zh_page.goto(f"{server.url}/#/slide")
    zh_page.wait_for_selector("[data-message]:has-text('1 秒后重新发牌')")
    assert zh_page.inner_text("[data-message]") == "服务器正忙：1 秒后重新发牌…"
    zh_page.wait_for_function("document.querySelector('[data-board]')?.dataset.gameId")
    assert asked == ["refused", "dealt"]
    assert zh_page.inner_text("[data-message]") == ""


def test_a_deal_refused_without_retry_after_is_not_asked_again(page, server):
    asked = refuse_deals(page, [(500, "crashed", {})])
    page.goto(f"{server.url}/#/slide")
    page.wait_for_selector('[data-message].error:has-text("the server\'s own words for crashed")')
    page.wait_for_timeout(1500)
    assert asked == ["refused"]
    page.click("[data-action=new]")  # the player asks again: dealt
    page.wait_for_function("document.querySelector('[data-board]')?.dataset.gameId")
    assert asked == ["refused", "dealt"]


def test_a_new_deal_asked_while_one_waits_to_retry_replaces_it(page, server):
    asked = refuse_deals(page, [(503, "busy", {"Retry-After": "2"})])
    page.goto(f"{server.url}/#/slide")
    page.wait_for_selector("[data-message]:has-text('dealing again in 2 s')")
    page.click("[data-action=new]")
    page.wait_for_function("document.querySelector('[data-board]')?.dataset.gameId")
    shown = page.get_attribute("[data-board]", "data-game-id")
    page.wait_for_timeout(2500)  # past the first deal's retry, which gave up
    assert asked == ["refused", "dealt"]
    assert page.get_attribute("[data-board]", "data-game-id") == shown


# The buttons that act on a board, and those that make sense without one (as the language switch does).
BOARD_BUTTONS = ("undo", "redo", "hint", "solve", "pause")
FREE_BUTTONS = ("new", "help", "analysis")
NO_BOARD = {**dict.fromkeys(BOARD_BUTTONS, True), **dict.fromkeys(FREE_BUTTONS, False)}
NEW_BOARD = {**NO_BOARD, "hint": False, "solve": False, "pause": False}  # nothing to undo or redo


def disabled(page) -> dict[str, bool]:
    """Whether each toolbar and settings button is disabled, by its data-action."""
    return {action: page.is_disabled(f"[data-action={action}]") for action in NO_BOARD}


@pytest.mark.parametrize("locale", ["en-US", "zh-CN"])
@pytest.mark.parametrize("game", ["slide", "klotski", "link"])
def test_the_board_buttons_wait_for_the_first_deal(browser, server, game, locale):
    """Seen in screenshots: while the first deal waited to be asked again, Undo, Hint and Solve looked
    ready and did nothing. Disabled until the board comes, then as before."""
    with page_in(browser, locale) as page:
        asked = refuse_deals(page, [(503, "busy", {"Retry-After": "2"})])
        page.goto(f"{server.url}/#/{game}")
        page.wait_for_selector("[data-message].error")  # no board: waiting to deal again
        assert disabled(page) == NO_BOARD
        assert page.is_enabled("[data-lang-switch]")
        page.wait_for_function("document.querySelector('[data-board]')?.dataset.gameId")
        assert asked == ["refused", "dealt"]
        assert disabled(page) == NEW_BOARD


def test_a_deal_refused_for_good_leaves_the_board_buttons_off(play, page, server):
    page.goto(f"{server.url}/")
    page.evaluate(
        "v => localStorage.setItem('tilegames.link.settings', v)",
        json.dumps({"width": 6, "height": 4, "kinds": 6, "gravity": False}),
    )
    asked = refuse_deals(page, [(500, "crashed", {})])
    page.goto(f"{server.url}/#/link")
    page.wait_for_selector("[data-message].error:has-text('crashed')")
    assert disabled(page) == NO_BOARD
    play.press("new")  # the player asks again: dealt, and the toolbar works as before
    play.game_id()
    assert asked == ["refused", "dealt"] and disabled(page) == NEW_BOARD
    for r, c in link.hint(link.Board.parse(play.state()["board"])):
        page.click(f".lt[data-r='{r}'][data-c='{c}']")
    play.wait_plies(1)
    assert disabled(page) == {**NEW_BOARD, "undo": False}

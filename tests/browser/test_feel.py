"""Feel: the toolbar in view on every size, Lianliankan on a phone, drag and swipe, the solved and won looks."""

from __future__ import annotations

import json

import pytest

from tests.browser.kit import ARROW_KEYS
from tilegames import klotski, link, slide

pytestmark = pytest.mark.browser
TOOLBAR = ["undo", "redo", "hint", "solve", "pause"]


def deal(page, url: str, game: str, settings: dict) -> dict:
    """A fresh deal with these settings (not the game saved before); return its state."""
    page.goto(f"{url}/")
    page.evaluate(
        "([k, v, g]) => { localStorage.setItem(k, v); localStorage.removeItem(g); }",
        [f"tilegames.{game}.settings", json.dumps(settings), f"tilegames.{game}"],
    )
    page.goto(f"{url}/#/{game}")
    page.wait_for_function("document.querySelector('[data-board]')?.dataset.gameId")
    return json.loads(
        page.evaluate(
            "fetch('/api/games/' + document.querySelector('[data-board]').dataset.gameId)"
            ".then(r => r.text())"
        )
    )


def in_view(page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    return (
        box is not None
        and box["y"] >= 0
        and box["y"] + box["height"] <= size["height"]
        and box["x"] >= 0
        and box["x"] + box["width"] <= size["width"]
    )


@pytest.mark.parametrize("viewport", [(1280, 800), (390, 844)])
def test_toolbar_and_message_in_view_on_every_size(browser, server, viewport):
    catalog = json.loads(json.dumps(server.api("/api/catalog")))
    cases = [
        ("slide", {"width": int(s.split("x")[0]), "height": int(s.split("x")[1])})
        for s in catalog["slide"]["sizes"]
    ]
    cases += [("klotski", {"layout": catalog["klotski"]["layouts"][0]["name"]})]
    for size in catalog["link"]["sizes"]:
        w, h = map(int, size.split("x"))
        kinds = next(k for k in range(36, 1, -1) if (w * h) % k == 0 and (w * h // k) % 2 == 0)
        cases.append(("link", {"width": w, "height": h, "kinds": kinds, "gravity": False}))
    context = browser.new_context(
        viewport={"width": viewport[0], "height": viewport[1]}, bypass_csp=True
    )
    page = context.new_page()
    try:
        for game, settings in cases:
            deal(page, server.url, game, settings)
            for action in TOOLBAR:
                assert in_view(page, f"[data-action={action}]"), (game, settings, action)
            assert in_view(page, "[data-message]"), (game, settings)
    finally:
        context.close()


def test_link_30x16_on_a_phone_scrolls_in_its_frame_with_big_targets(browser, server):
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, bypass_csp=True
    )
    page = context.new_page()
    try:
        state = deal(
            page, server.url, "link", {"width": 30, "height": 16, "kinds": 30, "gravity": False}
        )
        assert state["view"]["remaining"] == 480
        box = page.locator(".lt[data-r='5'][data-c='7']").bounding_box()
        assert box["width"] >= 32 and box["height"] >= 32
        scrolls = page.eval_on_selector(
            "[data-board]", "b => b.scrollHeight > b.clientHeight || b.scrollWidth > b.clientWidth"
        )
        assert scrolls
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        board = link.Board.parse(state["board"])
        pair = board.first_pair()
        for r, c in pair:
            page.tap(f".lt[data-r='{r}'][data-c='{c}']")
        page.wait_for_function("document.querySelector('[data-board]').dataset.plies === '1'")
        assert in_view(page, "[data-action=undo]") or page.evaluate("window.scrollY") == 0
    finally:
        context.close()


def test_link_size_change_recomputes_the_kinds(play, page):
    """Bug 3: 6×4 with 6 kinds, then 30×16, then New game dealt 6 kinds × 80."""
    first = play.open("link", {"width": 6, "height": 4, "kinds": 6, "gravity": False})
    assert play.state()["variant"] == "6x4 k6"
    page.select_option("select[name=size]", "30x16")
    play.game_id(other_than=first)  # nothing played yet: deals at once
    kinds = int(page.input_value("select[name=kinds]"))
    offered = [
        int(v)
        for v in page.eval_on_selector_all(
            "select[name=kinds] option", "os => os.map(o => o.value)"
        )
    ]
    assert all(480 % k == 0 and (480 // k) % 2 == 0 for k in offered)
    assert kinds != 6 and 480 // kinds <= 16
    assert play.state()["variant"] == f"30x16 k{kinds}"


def test_link_cursor_and_pick_look_different(play, page):
    play.open("link", {"width": 6, "height": 4, "kinds": 6, "gravity": False})
    page.focus(".lt[data-r='0'][data-c='0']")
    page.keyboard.press("Enter")  # picks the tile under the cursor
    page.keyboard.press("ArrowRight")
    picked = page.eval_on_selector(
        ".lt.picked .lt-face",
        "e => [getComputedStyle(e).fill, getComputedStyle(e).strokeDasharray]",
    )
    cursor = page.eval_on_selector(
        ".lt.cursor .lt-face",
        "e => [getComputedStyle(e).fill, getComputedStyle(e).strokeDasharray]",
    )
    assert page.get_attribute(".lt.cursor", "data-c") == "1"
    assert picked[0] != cursor[0] and picked[1] != cursor[1]


def test_slide_solved_board_looks_solved(play, page):
    """Bug 5: `.solved .tile-face` lost to `.tile.home .tile-face`, so the solved colour never showed."""
    # 4×4: a win here must not set the 3×3 record test_slide expects (the server shares one per size)
    play.open("slide", {"width": 4, "height": 4, "distance": 5})
    board = slide.Board.parse(play.state()["board"])
    home_fill = None
    for index, letter in enumerate(slide.solve(board).moves):
        page.keyboard.press(ARROW_KEYS[letter])
        play.wait_plies(index + 1)
        if home_fill is None and page.locator(".tile.home").count():
            home_fill = page.eval_on_selector(
                ".tile.home .tile-face", "e => getComputedStyle(e).fill"
            )
    page.wait_for_selector(".slide-svg.solved")
    fills = set(
        page.eval_on_selector_all(".tile .tile-face", "es => es.map(e => getComputedStyle(e).fill)")
    )
    assert fills == {"rgb(191, 232, 207)"} and home_fill not in fills


def test_slide_swipe_moves_a_tile(play, page):
    play.open("slide", {"width": 3, "height": 3, "distance": 10})
    board = slide.Board.parse(play.state()["board"])
    letter = next(iter(board.moves()))
    blank = board.tiles.index(0)
    dr, dc = {"U": (1, 0), "D": (-1, 0), "L": (0, 1), "R": (0, -1)}[letter]
    tile = board.tiles[blank + dr * 3 + dc]
    box = page.locator(f"[data-tile='{tile}']").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    way = {"U": (0, -1), "D": (0, 1), "L": (-1, 0), "R": (1, 0)}[letter]

    # A swipe away from the blank does nothing; towards it, moves the tile.
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x - way[0] * 40, y - way[1] * 40, steps=4)
    page.mouse.up()
    page.wait_for_timeout(400)
    assert play.state()["plies"] == 0
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + way[0] * 40, y + way[1] * 40, steps=4)
    page.mouse.up()
    play.wait_plies(1)
    board.push(letter)
    assert play.state()["board"] == str(board)


def test_klotski_drag_stops_at_obstacles(play, page):
    play.open("klotski", {"layout": "横刀立马"})
    start = play.state()["board"]
    # Soldier I sits in the bottom left corner with two free cells to its right, then soldier J.
    box = page.locator("[data-piece='I']").bounding_box()
    cell = box["width"]
    x, y = box["x"] + cell / 2, box["y"] + cell / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 3.4 * cell, y, steps=8)
    moved = page.locator("[data-piece='I']").bounding_box()
    assert moved["x"] - box["x"] <= 2 * cell * 1.1  # stopped short of J
    page.mouse.up()
    play.wait_plies(1)
    board = klotski.Board.parse(start)
    board.push("I:RR")
    assert play.state()["board"] == str(board)

    # Cao Cao is boxed in: a drag down leaves him where he is, and sends nothing.
    boss = page.locator(".piece.boss").bounding_box()
    page.mouse.move(boss["x"] + boss["width"] / 2, boss["y"] + boss["height"] / 2)
    page.mouse.down()
    page.mouse.move(boss["x"] + boss["width"] / 2, boss["y"] + boss["height"] * 1.5, steps=6)
    assert abs(page.locator(".piece.boss").bounding_box()["y"] - boss["y"]) < 2
    page.mouse.up()
    page.wait_for_timeout(400)
    assert play.state()["plies"] == 1


def test_klotski_cao_cao_leaves_through_the_gate(play, page):
    short = ".BB./.BB./AACD/E..F"
    play.open("klotski", {"layout": short})
    plies = 0
    for move in klotski.solve(klotski.Board.parse(short)).moves:
        piece, steps = move.split(":")
        page.click(f"[data-piece='{piece}']")
        for step in steps:
            page.keyboard.press(ARROW_KEYS[step])
            plies += 1
            play.wait_plies(plies)
    page.wait_for_selector(".overlay")
    assert page.eval_on_selector(".piece.boss", "e => getComputedStyle(e).animationName") == "leave"
    assert "escaped" in page.inner_text(".overlay h2")

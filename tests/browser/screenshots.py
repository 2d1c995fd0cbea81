"""Take the README's screenshots of the arcade: one per game, the home screen, a win, help, and a phone-sized view, in English and in Chinese (files ending in -zh).

Run (from the repository root): .venv/bin/python -m tests.browser.screenshots [--out docs/screenshots] [--only progress]
(`--only progress` takes just the progress and pause screens: levels, sizes, paused, a Klotski win, phone too.)
It starts `tilegames serve` on a free port with a temporary database and drives Debian's chromium.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

from tests.browser.kit import ARROW_KEYS, play_moves
from tilegames import klotski, link, slide
from tilegames.web.launch import ServerProcess

ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
DELTA = {"U": (1, 0), "D": (-1, 0), "L": (0, 1), "R": (0, -1)}


def api(url: str, path: str) -> dict:
    with urllib.request.urlopen(url + path, timeout=10) as answer:
        return json.load(answer)


def open_game(page, url: str, game: str, settings: dict) -> dict:
    page.goto(url + "/")
    page.evaluate(  # a fresh deal with these settings, not the game saved from before
        "([k, v, g]) => { localStorage.setItem(k, v); localStorage.removeItem(g); }",
        [f"tilegames.{game}.settings", json.dumps(settings), f"tilegames.{game}"],
    )
    page.goto(f"{url}/#/{game}")
    page.wait_for_function("document.querySelector('[data-board]')?.dataset.gameId")
    return api(url, "/api/games/" + page.get_attribute("[data-board]", "data-game-id"))


def wait_plies(page, n: int) -> None:
    page.wait_for_function(f"document.querySelector('[data-board]')?.dataset.plies === '{n}'")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="docs/screenshots")
    parser.add_argument("--only", choices=["all", "progress"], default="all")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with (
        tempfile.TemporaryDirectory() as tmp,
        ServerProcess(Path(tmp) / "screenshots.sqlite3") as server,
    ):
        url = server.url
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path="/usr/bin/chromium", headless=True, args=ARGS
            )
            for locale, tag in (("en-US", ""), ("zh-CN", "-zh")):
                context = browser.new_context(
                    viewport={"width": 1100, "height": 860}, locale=locale, bypass_csp=True
                )
                page = context.new_page()
                if args.only == "all":
                    shoot(page, url, out, tag)
                shoot_progress(page, url, out, tag)
                context.close()
            browser.close()


def shoot(page, url: str, out: Path, tag: str) -> None:
    # Slide: a 4×4 deal, three moves made, a hint lit.
    state = open_game(page, url, "slide", {"width": 4, "height": 4})
    board = slide.Board.parse(state["board"])
    for index, letter in enumerate(slide.solve(board, fast=True).moves[:3]):
        r, c = divmod(board.tiles.index(0), board.width)
        dr, dc = DELTA[letter]
        page.click(f"[data-tile='{board.tiles[(r + dr) * board.width + c + dc]}']")
        board.push(letter)
        wait_plies(page, index + 1)
    page.click("[data-action=hint]")
    page.wait_for_selector(".tile.hint")
    page.wait_for_timeout(400)
    page.screenshot(path=str(out / f"slide{tag}.png"))

    # Klotski: 横刀立马 after a few optimal moves, one piece selected.
    state = open_game(page, url, "klotski", {"layout": "横刀立马"})
    moves = klotski.solve(klotski.Board.parse(state["board"])).moves
    plies = 0
    for move in moves[:6]:
        piece, steps = move.split(":")
        page.click(f"[data-piece='{piece}']")
        for step in steps:
            page.keyboard.press(
                {"U": "ArrowUp", "D": "ArrowDown", "L": "ArrowLeft", "R": "ArrowRight"}[step]
            )
            plies += 1
            wait_plies(page, plies)
    page.wait_for_timeout(400)
    page.screenshot(path=str(out / f"klotski{tag}.png"))

    # Lianliankan: 14×6, some pairs gone, the last path still drawn.
    state = open_game(page, url, "link", {"width": 14, "height": 6, "kinds": 21, "gravity": False})
    pairs = link.solve(link.Board.parse(state["board"])).moves
    for index, pair in enumerate(pairs[:9]):
        if index == 8:
            page.wait_for_timeout(900)  # let the earlier paths fade: show one
        for r, c in pair:
            page.click(f".lt[data-r='{r}'][data-c='{c}']")
        wait_plies(page, index + 1)
    page.wait_for_timeout(150)
    page.screenshot(path=str(out / f"link{tag}.png"))

    # Finish two small games, so the home screen has best results to show.
    for settings in (
        {"width": 3, "height": 3, "distance": 5},
        {"width": 3, "height": 3, "distance": 10},
    ):
        state = open_game(page, url, "slide", settings)
        board = slide.Board.parse(state["board"])
        for index, letter in enumerate(slide.solve(board).moves):
            r, c = divmod(board.tiles.index(0), board.width)
            dr, dc = DELTA[letter]
            page.click(f"[data-tile='{board.tiles[(r + dr) * board.width + c + dc]}']")
            board.push(letter)
            wait_plies(page, index + 1)
        page.wait_for_selector(".overlay")
        if settings["distance"] == 10:
            page.wait_for_timeout(400)
            page.screenshot(path=str(out / f"win{tag}.png"))
        page.keyboard.press("Escape")

    # Home screen, and the Klotski screen on a phone.
    page.goto(url + "/#/")
    page.wait_for_selector("[data-best][data-loaded]")
    page.wait_for_timeout(300)
    page.screenshot(path=str(out / f"home{tag}.png"))
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(url + "/#/klotski")
    page.wait_for_selector("[data-piece]")
    page.wait_for_timeout(300)
    page.screenshot(path=str(out / f"phone{tag}.png"))
    page.click("[data-action=help]")
    page.wait_for_selector(".overlay")
    page.wait_for_timeout(300)
    page.screenshot(path=str(out / f"help{tag}.png"))
    page.keyboard.press("Escape")
    page.set_viewport_size({"width": 1100, "height": 860})


PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1100, "height": 860}


def shoot_progress(page, url: str, out: Path, tag: str) -> None:
    """The level screen, the Lianliankan sizes, a paused game and a named Klotski win, desktop and phone."""
    # Klotski: 前呼后拥 won (all but the last move through the API, the last on the page): the win card.
    state = open_game(page, url, "klotski", {"layout": "前呼后拥"})
    moves = klotski.solve(klotski.Board.parse(state["board"]), "moves").moves
    play_moves(page, state["id"], moves[:-1])
    page.reload()
    wait_plies(page, len(moves) - 1)
    piece, steps = moves[-1].split(":")
    page.click(f"[data-piece='{piece}']")
    for index, step in enumerate(steps):
        page.keyboard.press(ARROW_KEYS[step])
        wait_plies(page, len(moves) + index)
    page.wait_for_selector(".overlay .card.win")
    page.wait_for_timeout(1200)
    page.screenshot(path=str(out / f"klotski-win{tag}.png"))
    page.keyboard.press("Escape")
    # The level screen (English names in English; ✓/★ on the layout just won).
    for size, name in ((DESKTOP, "levels"), (PHONE, "levels-phone")):
        page.set_viewport_size(size)
        page.click("[data-action=levels]")
        page.wait_for_selector("[data-levels] [data-level]")
        page.wait_for_timeout(300)
        page.screenshot(path=str(out / f"{name}{tag}.png"))
        page.keyboard.press("Escape")
    page.set_viewport_size(DESKTOP)

    # Lianliankan: a 6×4 cleared through the API, then the Sizes menu with its ✓ and top score.
    state = open_game(page, url, "link", {"width": 6, "height": 4, "kinds": 6, "gravity": False})
    pairs = link.solve(link.Board.parse(state["board"])).moves
    play_moves(page, state["id"], [[list(a), list(b)] for a, b in pairs])
    for size, name in ((DESKTOP, "sizes"), (PHONE, "sizes-phone")):
        page.set_viewport_size(size)
        page.click("[data-action=sizes]")
        page.wait_for_selector("[data-sizes] [data-size]")
        page.wait_for_timeout(300)
        page.screenshot(path=str(out / f"{name}{tag}.png"))
        page.keyboard.press("Escape")
    page.set_viewport_size(DESKTOP)

    # A paused Lianliankan game: the board hidden, the clock and the score standing still.
    state = open_game(page, url, "link", {"width": 14, "height": 6, "kinds": 21, "gravity": False})
    pairs = link.solve(link.Board.parse(state["board"])).moves
    for index, pair in enumerate(pairs[:3]):
        for r, c in pair:
            page.click(f".lt[data-r='{r}'][data-c='{c}']")
        wait_plies(page, index + 1)
    page.keyboard.press("p")
    page.wait_for_selector("[data-board][hidden]", state="attached")
    for size, name in ((DESKTOP, "paused"), (PHONE, "paused-phone")):
        page.set_viewport_size(size)
        page.wait_for_timeout(400)
        page.screenshot(path=str(out / f"{name}{tag}.png"))
    page.keyboard.press("p")
    page.set_viewport_size(DESKTOP)


if __name__ == "__main__":
    main()

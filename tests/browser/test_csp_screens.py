"""Every screen works under the server's strict Content-Security-Policy: no inline scripts or styles.

This page keeps the policy on (the shared `page` fixture bypasses it for the harness's eval'ed waits).
"""

from __future__ import annotations

import pytest

from tilegames import link

pytestmark = pytest.mark.browser


def test_every_screen_runs_under_the_strict_csp(play, browser):
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    page = context.new_page()
    refused: list[str] = []
    page.on(
        "console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None
    )

    # Waits use selectors only: Playwright's wait_for_function evaluates strings, which this CSP forbids.
    page.goto(f"{play.server.url}/")
    page.evaluate(
        "localStorage.setItem('tilegames.link.settings',"
        " JSON.stringify({width: 6, height: 4, kinds: 6, gravity: false}))"
    )
    page.goto(f"{play.server.url}/#/link")
    game_id = page.wait_for_selector("[data-board][data-game-id]").get_attribute("data-game-id")
    board = link.Board.parse(play.server.api(f"/api/games/{game_id}")["board"])
    for r, c in board.first_pair():
        page.click(f".lt[data-r='{r}'][data-c='{c}']")
    page.wait_for_selector("[data-board][data-plies='1']", state="attached")
    page.click("[data-action=help]")
    page.keyboard.press("Escape")
    for game in ("slide", "klotski"):
        page.click(f"[data-nav={game}]")
        page.wait_for_selector(f"[data-board={game}][data-game-id]")
    page.click("[data-lang-switch]")
    page.click(".brand")
    page.wait_for_selector("[data-best][data-loaded]")
    in_force = (
        "(() => { document.body.insertAdjacentHTML('beforeend', '<span id=csp style=\"display: none\">');"
        " return getComputedStyle(document.getElementById('csp')).display; })()"
    )
    assert refused == []
    assert page.evaluate(in_force) != "none"  # the policy is in force: an inline style is refused
    context.close()

"""The page works under the server's Content-Security-Policy (no inline script or style, no eval).

The other browser tests bypass the CSP (their harness evaluates strings in the page); this one keeps it on,
records every violation the browser reports, and drives the page only through clicks and selectors.
"""

from __future__ import annotations

import pytest

COLLECT = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) =>
  window.__violations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
"""


@pytest.fixture
def strict_page(browser):
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    context.add_init_script(COLLECT)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on(
        "console",
        lambda message: (
            problems.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    page.set_default_timeout(20_000)
    yield page, problems
    context.close()


@pytest.mark.parametrize("game", ["slide", "klotski", "link"])
def test_each_game_screen_works_under_the_csp(strict_page, server, game):
    page, problems = strict_page
    answer = page.goto(f"{server.url}/")
    assert "script-src 'self'" in answer.headers["content-security-policy"]
    page.wait_for_selector("[data-best][data-loaded]")
    page.goto(f"{server.url}/#/{game}")
    page.wait_for_selector("[data-board][data-game-id]")
    first = page.get_attribute("[data-board]", "data-game-id")
    page.click("[data-action=hint]")  # a POST through fetch: connect-src and the write checks pass
    page.wait_for_selector("[data-action=hint]:not([disabled])")
    assert server.api(f"/api/games/{first}")["hints"] == 1
    assert page.evaluate("window.__violations") == []
    assert problems == []

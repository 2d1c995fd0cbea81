"""Analysis mode in the browser: the switch, the distance, the marks on the tiles, the graph on the win card."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def wait_analysed(page, plies: int) -> int:
    """Wait for the analysis of the position at `plies`; return its distance."""
    page.wait_for_selector(f"[data-stat=analysis][data-plies='{plies}']:not([data-busy])")
    page.wait_for_selector("[data-board] [data-verdict]")
    return int(page.get_attribute("[data-stat=analysis]", "data-distance"))


def test_analysis_marks_moves_and_draws_the_game_on_the_win_card(play, page):
    page.goto(f"{play.server.url}/")
    page.evaluate("localStorage.setItem('tilegames.analysis', '0')")
    play.open("slide", {"width": 3, "height": 3, "distance": 5})
    switch = page.locator("[data-action=analysis]")
    assert switch.get_attribute("aria-pressed") == "false"
    assert page.locator("[data-board] [data-verdict]").count() == 0  # off by default: no marks
    switch.click()
    assert switch.get_attribute("aria-pressed") == "true"
    assert wait_analysed(page, 0) == 5
    assert "5" in page.inner_text("[data-stat=analysis]")

    # Every tile that can move has a mark, with its verdict in words too.
    worse = page.locator(".tile[data-verdict=worse]").first
    assert "worse" in worse.get_attribute("aria-label")
    assert worse.locator(".verdict-mark").text_content() == "−"
    assert page.locator(".tile[data-verdict=better]").count() >= 1

    # A worse move: the distance grows.
    worse.click()
    play.wait_plies(1)
    after = wait_analysed(page, 1)
    assert after > 5

    # Better moves to the win.
    plies = 1
    while play.state()["status"] == "playing":
        page.locator(".tile[data-verdict=better]").first.click()
        plies += 1
        play.wait_plies(plies)
        if play.state()["status"] != "playing":
            break
        distance = wait_analysed(page, plies)
        assert distance < after
        after = distance
    page.wait_for_selector(".overlay [data-analysis-graph]")
    assert page.locator("[data-analysis-graph] circle[data-lost='1']").count() == 1
    assert "not a record" in page.inner_text(".overlay")
    final = play.state()
    assert final["analysed"] is True and final["assisted"] is True and final["status"] == "won"

    # The switch is remembered.
    page.keyboard.press("Escape")
    page.reload()
    play.game_id()
    assert page.get_attribute("[data-action=analysis]", "aria-pressed") == "true"


def test_analysis_in_chinese_and_on_klotski(play, page):
    page.goto(f"{play.server.url}/")
    page.evaluate(
        "localStorage.setItem('tilegames.analysis', '1'); localStorage.setItem('tilegames.lang', 'zh')"
    )
    play.open("klotski")
    # A hint asked while the analysis is on its way waits for it (the pool runs one job per client).
    page.click("[data-action=hint]")
    page.wait_for_selector(".piece.hint")
    assert "error" not in (page.get_attribute("[data-message]", "class") or "")
    distance = wait_analysed(page, 0)
    assert distance > 0 and "离完成还有" in page.inner_text("[data-stat=analysis]")
    marked = page.locator(".piece[data-verdict]")
    assert marked.count() >= 1
    labels = [marked.nth(i).get_attribute("aria-label") for i in range(marked.count())]
    assert all(any(w in label for w in ("好棋", "持平", "坏棋", "未知")) for label in labels)


def test_lianliankan_analysis_under_the_csp(browser, server):
    """With the server's CSP enforced (no inline style): the marks and labels on a Lianliankan board."""
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("console", lambda m: "Content Security Policy" in m.text and problems.append(m.text))
    page.set_default_timeout(20_000)
    try:
        page.goto(f"{server.url}/#/link")
        page.wait_for_selector("[data-board][data-game-id]")
        switch = page.locator("[data-action=analysis]")
        if switch.get_attribute("aria-pressed") != "true":
            switch.click()
        page.wait_for_selector("[data-stat=analysis][data-plies='0']:not([data-busy])")
        marked = page.locator(".lt[data-verdict]")
        assert marked.count() >= 2  # both tiles of each removable pair
        label = marked.first.get_attribute("aria-label")
        assert "clearable" in label or "unknown" in label
        assert "clearable" in page.inner_text("[data-stat=analysis]")
        assert problems == []
    finally:
        context.close()


@pytest.mark.parametrize("viewport", [(1280, 800), (390, 844)])
@pytest.mark.parametrize("game", ["slide", "klotski", "link"])
def test_marks_pass_axe_and_the_switch_stays_in_view(browser, server, game, viewport):
    from axe_playwright_python.sync_playwright import Axe

    width, height = viewport
    context = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True)
    page = context.new_page()
    try:
        page.goto(f"{server.url}/")
        page.evaluate("localStorage.setItem('tilegames.analysis', '1')")
        page.goto(f"{server.url}/#/{game}")
        page.wait_for_selector("[data-stat=analysis][data-plies]:not([data-busy])")
        page.emulate_media(reduced_motion="reduce")
        box = page.locator("[data-action=analysis]").bounding_box()
        assert box is not None and box["y"] + box["height"] <= height and box["x"] >= 0
        violations = Axe().run(page).response["violations"]
        assert [v["id"] for v in violations if v["impact"] in {"serious", "critical"}] == []
    finally:
        context.close()

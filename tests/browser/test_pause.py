"""Pause is real on the server (issue 9): while the page is paused, the server's clock and the Lianliankan score
stand still, a reload (or another tab) finds the game paused, and resuming starts the clock again."""

from __future__ import annotations

import pytest

from tilegames import link

pytestmark = pytest.mark.browser


def click_pair(page, pair) -> None:
    for r, c in pair:
        page.click(f".lt[data-r='{r}'][data-c='{c}']")


def first_pair(state: dict):
    return link.Board.parse(state["board"]).first_pair()


def test_pause_wait_resume_keeps_time_and_score(play, page):
    game = play.open("link", {"width": 6, "height": 4, "kinds": 6, "gravity": False})
    click_pair(page, first_pair(play.state()))
    play.wait_plies(1)
    page.wait_for_timeout(1100)  # a second on the clock before the pause
    play.press("pause")
    page.wait_for_selector("[data-board][hidden]", state="attached")
    page.wait_for_function("document.querySelector('[data-board]').dataset.waiting === '0'")
    paused = play.state()
    assert paused["paused"] and not paused["running"] and paused["seconds"] >= 1.0
    shown = page.inner_text("[data-stat=time]")
    score = page.inner_text("[data-stat=extra]")
    page.wait_for_timeout(2500)
    later = play.state()
    assert (later["seconds"], later["view"]["score"]) == (
        paused["seconds"],
        paused["view"]["score"],
    )
    assert page.inner_text("[data-stat=time]") == shown
    assert page.inner_text("[data-stat=extra]") == score

    # A reload finds the game paused: the server keeps the pause, and the page shows it.
    page.reload()
    page.wait_for_function(f"document.querySelector('[data-board]')?.dataset.gameId === '{game}'")
    page.wait_for_selector("[data-board][hidden]", state="attached")
    assert page.get_attribute("[data-action=pause]", "aria-pressed") == "true"
    assert "paused" in page.inner_text("[data-stat=time]")

    page.keyboard.press("p")
    page.wait_for_selector("[data-board]:not([hidden])")
    page.wait_for_function("document.querySelector('[data-board]').dataset.waiting === '0'")
    resumed = play.state()
    assert resumed["running"] and not resumed["paused"]
    assert resumed["seconds"] == pytest.approx(paused["seconds"], abs=0.5)
    click_pair(page, first_pair(resumed))
    play.wait_plies(2)
    after = play.state()
    # 2.5 s of pause and a reload did not count: only the moments since the resume did.
    assert after["seconds"] - paused["seconds"] < 2.0
    assert after["hints"] == 0


def test_a_game_paused_in_another_tab_is_shown_paused(play, page):
    play.open("slide", {"width": 3, "height": 3, "distance": 10})
    state = play.state()
    answer = page.evaluate(
        "(id) => fetch(`/api/games/${id}/pause`, {method: 'POST',"
        " headers: {'content-type': 'application/json'}}).then((r) => r.status)",
        state["id"],
    )
    assert answer == 200
    page.locator(".tile.movable").first.click()  # refused by the server (409 paused)
    page.wait_for_selector("[data-board][hidden]", state="attached")
    assert page.get_attribute("[data-action=pause]", "aria-pressed") == "true"
    assert play.state()["plies"] == 0
    page.keyboard.press("p")
    page.wait_for_selector("[data-board]:not([hidden])")
    page.wait_for_function("document.querySelector('[data-board]').dataset.waiting === '0'")
    assert not play.state()["paused"]


def test_a_pause_survives_kill_9_and_a_restart(page, tmp_path, request):
    server = type(request.getfixturevalue("server"))(tmp_path / "paused.sqlite3")
    server.start()
    try:
        page.goto(f"{server.url}/")
        page.evaluate(
            "localStorage.setItem('tilegames.link.settings',"
            " JSON.stringify({width: 6, height: 4, kinds: 6, gravity: false}))"
        )
        page.goto(f"{server.url}/#/link")
        page.wait_for_function("document.querySelector('[data-board]')?.dataset.gameId")
        game = page.get_attribute("[data-board]", "data-game-id")
        click_pair(page, first_pair(server.api(f"/api/games/{game}")))
        page.wait_for_function("document.querySelector('[data-board]').dataset.plies === '1'")
        page.keyboard.press("p")
        page.wait_for_function("document.querySelector('[data-board]').dataset.waiting === '0'")
        paused = server.api(f"/api/games/{game}")
        assert paused["paused"]
        server.kill()  # kill -9: the pause was answered, so it is on disk
        server.start()
        page.reload()
        page.wait_for_function(
            f"document.querySelector('[data-board]')?.dataset.gameId === '{game}'"
        )
        page.wait_for_selector("[data-board][hidden]", state="attached")
        again = server.api(f"/api/games/{game}")
        assert again["paused"] and not again["running"]
        assert (again["seconds"], again["view"]["score"]) == (
            paused["seconds"],
            paused["view"]["score"],
        )
    finally:
        server.kill()

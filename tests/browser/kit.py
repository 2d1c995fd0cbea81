"""What the browser tests and the screenshot script share: a page that fails the test on a page error,
the arrow keys, moves played through the API from the page (as its player, so a win counts in its
progress), and axe-core's serious findings."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from axe_playwright_python.sync_playwright import Axe


@contextmanager
def page_in(browser: Any, locale: str | None = None) -> Iterator[Any]:
    """A page of a new browser context (1000x900, `locale` if given), closed after; an error in the
    page fails the test. bypass_csp: the harness's wait_for_function strings are eval'ed in the page,
    which the arcade's CSP forbids; tests/browser/test_csp.py plays the page with the CSP enforced."""
    options: dict[str, Any] = {"viewport": {"width": 1000, "height": 900}, "bypass_csp": True}
    if locale is not None:
        options["locale"] = locale
    context = browser.new_context(**options)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.set_default_timeout(20_000)
    try:
        yield page
    finally:
        context.close()
    assert not errors, errors


ARROW_KEYS = {"U": "ArrowUp", "D": "ArrowDown", "L": "ArrowLeft", "R": "ArrowRight"}
_PLAY = """async ([id, moves]) => {
  const player = localStorage.getItem('tilegames.player') || '';
  let state = null;
  for (const move of moves) {
    const r = await fetch(`/api/games/${id}/moves`, {method: 'POST', body: JSON.stringify({move}),
      headers: {'content-type': 'application/json', 'x-player': player}});
    if (!r.ok) return await r.text();
    state = await r.json();
  }
  return state;
}"""


def play_moves(page: Any, game_id: str, moves: Sequence[Any]) -> dict[str, Any] | None:
    """Play `moves` one request each from the page; the last state. The first refused move fails with
    the server's answer."""
    answer = page.evaluate(_PLAY, [game_id, list(moves)])
    assert not isinstance(answer, str), answer
    return answer


_SETTLED = """() => Promise.all(document.getAnimations()
  .filter(a => a.effect && a.effect.getTiming().iterations !== Infinity)
  .map(a => a.finished.catch(() => null)))"""
"""Wait for the page's finite animations: a card popping in is half transparent, and axe would
measure its colours mid-fade (an overlay's heading failed color-contrast so, now and then)."""


def serious(page: Any) -> list[str]:
    """axe-core's serious and critical violations on the page once its animations are over: rule,
    impact, first element."""
    page.evaluate(_SETTLED)
    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['nodes'][0]['target']} {v['help']}"
        for v in results.response["violations"]
        if v["impact"] in {"serious", "critical"}
    ]

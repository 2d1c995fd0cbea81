"""What the browser tests and the screenshot script share: the arrow keys, moves played through the API
from the page (as its player, so a win counts in its progress), and axe-core's serious findings."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from axe_playwright_python.sync_playwright import Axe

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


def serious(page: Any) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now: rule, impact, first element."""
    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['nodes'][0]['target']} {v['help']}"
        for v in results.response["violations"]
        if v["impact"] in {"serious", "critical"}
    ]

"""Progress per player (X-Player): solved, star (no help, optimal moves), own bests; kept in the database."""

from __future__ import annotations

import secrets

import pytest

from tilegames import klotski, slide
from tilegames.store import Store


def player() -> str:
    return secrets.token_urlsafe(18)


def new(client, who, **params):
    response = client.post("/api/games", json=params, headers={"X-Player": who})
    assert response.status_code == 201, response.text
    return response.json()


def play(client, state, moves):
    for move in moves:
        answer = client.post(f"/api/games/{state['id']}/moves", json={"move": move})
        assert answer.status_code == 200, answer.text
        state = answer.json()
    return state


def progress(client, who, game=None):
    query = f"?game={game}" if game else ""
    answer = client.get(f"/api/progress{query}", headers={"X-Player": who})
    assert answer.status_code == 200, answer.text
    assert answer.json()["player"] == who
    return {(r["game"], r["variant"]): r for r in answer.json()["progress"]}


def one_move(board_text: str) -> str:
    board = slide.Board.parse(board_text)
    for letter in board.moves():
        after = slide.Board.parse(board_text)
        after.push(letter)
        if after.is_solved():
            return letter
    raise AssertionError(board_text)


def test_a_win_counts_for_its_player_only_with_a_star_when_optimal(client):
    me, you = player(), player()
    state = new(client, me, game="slide", width=3, height=3, distance=1, seed=3)
    won = play(client, state, [one_move(state["board"])])
    assert won["status"] == "won"
    mine = progress(client, me)
    assert mine[("slide", "3x3 d1")] == {
        "game": "slide", "variant": "3x3 d1", "solved": 1, "star": True, "fewest_moves": 1,
        "top_score": None,
    }  # fmt: skip
    assert progress(client, you) == {}


def test_a_longer_or_hinted_win_is_solved_without_a_star(client):
    me = player()
    state = new(client, me, game="slide", width=3, height=3, distance=2, seed=4)
    board = slide.Board.parse(state["board"])
    detour = next(iter(board.moves()))
    board.push(detour)  # away and back: 2 extra moves
    back = {"U": "D", "D": "U", "L": "R", "R": "L"}[detour]
    moves = [detour, back, *slide.solve(slide.Board.parse(state["board"])).moves]
    play(client, state, moves)
    assert progress(client, me)[("slide", "3x3 d2")]["star"] is False
    state = new(client, me, game="slide", width=3, height=3, distance=1, seed=5)
    assert client.post(f"/api/games/{state['id']}/hint", json={}).status_code == 200
    play(client, state, [one_move(state["board"])])
    row = progress(client, me, "slide")[("slide", "3x3 d1")]
    assert row["solved"] == 1 and row["star"] is False


def test_a_solver_playback_does_not_count(client):
    me = player()
    state = new(client, me, game="klotski", layout="Level 1")
    answer = client.post(f"/api/games/{state['id']}/solve", json={})
    assert answer.status_code == 200, answer.text
    play(client, state, answer.json()["moves"])
    assert progress(client, me) == {}


def test_a_klotski_level_solved_optimally_gets_a_star(client):
    me = player()
    state = new(client, me, game="klotski", layout="level-1")
    solution = klotski.solve(klotski.Board.parse(state["board"]), "moves")
    won = play(client, state, solution.moves)
    assert won["status"] == "won" and won["optimal"] == solution.length
    row = progress(client, me, "klotski")[("klotski", "Level 1")]
    assert row["star"] is True and row["fewest_moves"] == solution.length


@pytest.mark.parametrize(
    "bad", ["short", "x" * 65, "spaces are not ok here", "dots.are.not.ok.either.1234"]
)
def test_a_bad_player_id_is_refused(client, bad):
    answer = client.get("/api/progress", headers={"X-Player": bad})
    assert answer.status_code == 422 and answer.json()["error"]["code"] == "bad_player"
    answer = client.post("/api/games", json={"game": "slide", "width": 3, "height": 3},
                         headers={"X-Player": bad})  # fmt: skip
    assert answer.status_code == 422


def test_progress_survives_reopening_the_database(tmp_path):
    path = tmp_path / "p.sqlite3"
    store = Store(path)
    row = store.create_game("slide", "3x3 d1", "1 2 3/4 5 6/7 0 8", {"optimal": 1}, label="3×3")
    won = store.record_move(row, "L", "1 2 3/4 5 6/7 8 0", 1, won=True, records=("moves",))
    store.run(lambda: store.record_progress(won, "p" * 20))
    store.close()
    again = Store(path)
    try:
        assert again.progress("p" * 20) == [
            {"game": "slide", "variant": "3x3 d1", "solved": 1, "star": True, "fewest_moves": 1,
             "top_score": None}
        ]  # fmt: skip
    finally:
        again.close()


def test_the_progress_answer_matches_its_model(client):
    from tilegames.web.models import Progress

    me = player()
    state = new(client, me, game="slide", width=3, height=3, distance=1, seed=8)
    play(client, state, [one_move(state["board"])])
    answer = client.get("/api/progress", headers={"X-Player": me}).json()
    Progress.model_validate(answer)
    assert client.get("/api/progress").json() == {"player": None, "progress": []}
    assert "/api/progress" in client.get("/openapi.json").json()["paths"]

"""Pause on the server (issue 9): the clock and the Lianliankan score stand still while a game is paused, moves
wait for resume (409 paused), and the pause is part of the stored game (both backends, a reopened store)."""

from __future__ import annotations

import time

import pytest

from tilegames import link
from tilegames.store import IDLE_CAP, Conflict, open_store
from tilegames.web import models

JSON = {"content-type": "application/json"}


# The store, with an injected clock (`now=`): no sleeping.


def test_pause_stops_the_clock_and_resume_restarts_it_from_then(store):
    row = store.create_game("link", "6x4 k6", "AA/BB/CC")
    row = store.record_move(row, "0,0-0,1", "../BB/CC", 1, now=1000.0)
    row = store.record_move(row, "1,0-1,1", "../../CC", 2, now=1010.0)
    assert (row.seconds, row.running, row.paused) == (10.0, True, None)
    paused = store.pause(row.id, now=1020.0)
    assert paused is not None and paused.paused == 1020.0 and not paused.running
    assert paused.seconds == 20.0
    # However long the pause, nothing of it counts (without it the gap would count up to IDLE_CAP).
    for later in (1021.0, 1020.0 + IDLE_CAP / 2, 1020.0 + 10 * IDLE_CAP):
        assert paused.clock(later) == 20.0
    again = store.pause(row.id, now=1500.0)  # pausing twice changes nothing
    assert again is not None and (again.seconds, again.paused) == (20.0, 1020.0)
    # Moves and undos are refused while paused, even when checked before the pause.
    with pytest.raises(Conflict):
        store.record_move(paused, "2,0-2,1", "../../..", 3, won=True, now=1030.0)
    with pytest.raises(Conflict):
        store.undo(paused, now=1030.0)
    assert store.game(row.id).plies == 2
    resumed = store.resume(row.id, now=2000.0)
    assert resumed is not None and resumed.paused is None and resumed.running
    assert resumed.clock(2005.0) == 25.0
    won = store.record_move(resumed, "2,0-2,1", "../../..", 3, won=True, now=2007.0)
    assert (won.status, won.seconds) == ("won", 27.0)
    assert store.best("link")[0].fastest_seconds == 27.0
    assert store.pause(row.id, now=2100.0).paused is None  # a finished game is left alone
    assert store.pause("nope") is None and store.resume("nope") is None


def test_a_game_paused_before_its_first_move_stays_unstarted(store):
    row = store.create_game("slide", "3x3", "1 2 3/4 5 6/7 0 8")
    paused = store.pause(row.id, now=50.0)
    assert paused is not None and paused.paused == 50.0 and paused.seconds == 0.0
    resumed = store.resume(row.id, now=90.0)
    assert resumed is not None and resumed.last_action is None and not resumed.running
    assert resumed.clock(1000.0) == 0.0  # the clock starts with the first move, as ever
    assert store.resume(row.id, now=95.0) == resumed  # resuming twice changes nothing


def test_a_pause_survives_reopening_the_store(fresh_db):
    url = fresh_db()
    t0 = time.time()  # recent: a game untouched for 30 days would be purged at open
    first = open_store(url)
    row = first.create_game("klotski", "横刀立马", "A")
    row = first.record_move(row, "G:D", "B", 1, now=t0 - 60.0)
    first.pause(row.id, now=t0 - 30.0)
    first.close()
    second = open_store(url)
    try:
        again = second.game(row.id)
        assert again is not None and again.paused == t0 - 30.0 and not again.running
        assert again.seconds == pytest.approx(30.0)
        assert again.clock(t0 + 10_000.0) == again.seconds
    finally:
        second.close()


def test_a_version_4_file_gains_the_pause_column(tmp_path):
    from tilegames.store import Store

    path = tmp_path / "v4.sqlite3"
    old = Store(path, upto=4)
    row = old.create_game("slide", "3x3", "b")
    old.close()
    new = Store(path)
    try:
        assert new.migrations_applied == (5,)
        again = new.game(row.id)
        assert again is not None and again.paused is None
        assert new.pause(row.id, now=1.0).paused == 1.0
    finally:
        new.close()


# The API: a short real wait, since the app reads the wall clock.


def link_game(client) -> dict:
    answer = client.post("/api/games", json={"game": "link", "width": 6, "height": 4, "kinds": 6})
    assert answer.status_code == 201, answer.text
    return answer.json()


def pair_of(state: dict) -> list[list[int]]:
    board = link.Board.parse(state["board"])
    a, b = board.first_pair()
    return [list(a), list(b)]


def post(client, state: dict, action: str, body: dict | None = None):
    return client.post(f"/api/games/{state['id']}/{action}", json=body or {})


def test_paused_game_keeps_its_time_and_score_and_refuses_moves(client):
    state = link_game(client)
    for _ in range(2):
        state = post(client, state, "moves", {"move": pair_of(state)}).json()
    assert state["running"] and not state["paused"]
    paused = post(client, state, "pause").json()
    models.Game.model_validate(paused)
    assert paused["paused"] and not paused["running"]
    time.sleep(1.2)
    shown = client.get(f"/api/games/{state['id']}").json()
    assert shown["seconds"] == paused["seconds"]
    assert shown["view"]["score"] == paused["view"]["score"]
    for action, body in (
        ("moves", {"move": pair_of(state)}),
        ("undo", {}),
        ("hint", {}),
        ("solve", {}),
    ):
        refused = post(client, state, action, body)
        assert refused.status_code == 409, action
        assert refused.json()["error"]["code"] == "paused"
        assert "resume" in refused.json()["error"]["message"]
    assert post(client, state, "pause").json()["seconds"] == paused["seconds"]  # idempotent
    resumed = post(client, state, "resume").json()
    assert resumed["running"] and not resumed["paused"]
    assert resumed["seconds"] == pytest.approx(paused["seconds"], abs=0.5)
    after = post(client, state, "moves", {"move": pair_of(state)}).json()
    # The 1.2 s of pause never counted (it would have: the idle cap is 60 s).
    assert after["seconds"] - paused["seconds"] < 1.0
    assert after["hints"] == 0 and after["plies"] == 3


def test_pause_and_resume_need_a_game_in_play_and_json(client):
    state = client.post(
        "/api/games", json={"game": "slide", "width": 3, "height": 3, "seed": 5}
    ).json()
    assert not post(client, state, "pause").json()["running"]
    resumed = post(client, state, "resume").json()
    assert not resumed["paused"] and not resumed["running"]  # the clock waits for the first move
    bare = client.post(f"/api/games/{state['id']}/pause")
    assert bare.status_code == 415 and bare.json()["error"]["code"] == "not_json"
    assert client.post("/api/games/nope/pause", headers=JSON).status_code == 404
    won = client.post(
        "/api/games", json={"game": "slide", "width": 3, "height": 3, "seed": 5}
    ).json()
    from tilegames import slide

    board = slide.Board.parse(won["board"])
    for move in slide.solve(board).moves:
        won = post(client, won, "moves", {"move": move}).json()
    assert won["status"] == "won"
    for action in ("pause", "resume"):
        answer = post(client, won, action)
        assert answer.status_code == 409 and answer.json()["error"]["code"] == "game_over"

"""Honest records (issue 9): only a game won with no hint and no solver sets one, each kind of deal keeps its
own, every record has a label in words, and the winning answer says whether it set one."""

from __future__ import annotations

import time

from tilegames import link, slide


def new(client, **params):
    response = client.post("/api/games", json=params)
    assert response.status_code == 201, response.text
    return response.json()


def play(client, state, moves):
    last = None
    for move in moves:
        response = client.post(f"/api/games/{state['id']}/moves", json={"move": move})
        assert response.status_code == 200, response.text
        last = response.json()
    return last


def solution(state):
    return slide.solve(slide.Board.parse(state["board"])).moves


def best_of(client, game, variant):
    return next(
        b for b in client.get(f"/api/best?game={game}").json()["best"] if b["variant"] == variant
    )


def test_a_clean_win_sets_a_record_and_says_so_with_the_previous_best(client):
    first = new(client, game="slide", width=3, height=3, distance=7, seed=21)
    assert first["variant"] == "3x3 d7" and first["label"] == "3×3, 7 moves from solved"
    won = play(client, first, solution(first))
    assert won["status"] == "won" and won["record"]["counted"] is True
    previous = won["record"]["previous"]
    if previous is None:  # the first game of this variant in this database
        assert won["record"]["new"] is True and "moves" in won["record"]["kinds"]
    assert won["best"]["fewest_moves"] == 7 and won["best"]["label"] == first["label"]
    # A longer game of the same variant (undo is allowed, its moves count): played, no moves record.
    second = new(client, game="slide", width=3, height=3, distance=7, seed=22)
    board = slide.Board.parse(second["board"])
    detour = next(iter(board.moves()))
    play(client, second, [detour])
    client.post(f"/api/games/{second['id']}/undo", json={})
    again = play(client, second, solution(second))
    assert (
        again["moves"] == 7
        and again["moves_counted"] == 8
        and again["undos"] == 1
        and again["record"]["counted"] is True
    )
    assert "moves" not in again["record"]["kinds"]
    assert again["record"]["previous"]["fewest_moves"] == 7
    best = best_of(client, "slide", "3x3 d7")
    assert best["fewest_moves"] == 7 and best["played"] >= 2 and best["unassisted"] >= 2


def test_hint_or_solver_games_count_as_played_but_set_no_record(client):
    hinted = new(client, game="slide", width=3, height=4, distance=None, seed=5)
    client.post(f"/api/games/{hinted['id']}/hint", json={})
    won = play(client, hinted, solution(hinted))
    assert won["assisted"] is True and won["record"] == {
        "new": False,
        "kinds": [],
        "previous": won["record"]["previous"],
        "counted": False,
    }
    best = best_of(client, "slide", "3x4")
    assert best["played"] >= 1 and best["fewest_moves"] is None and best["unassisted"] == 0
    auto = new(client, game="slide", width=3, height=4, seed=6)
    moves = client.post(f"/api/games/{auto['id']}/solve", json={}).json()["moves"]
    done = play(client, auto, moves)
    assert done["autoplay"] is True and done["record"]["counted"] is False
    after = best_of(client, "slide", "3x4")
    assert after["played"] == best["played"] + 1 and after["fewest_moves"] is None


def test_bug_4_an_exact_distance_deal_never_overwrites_the_uniform_record(client, store):
    # A uniform 3×3 win first (dealt by the store directly: a fixed near-solved start).
    uniform = store.create_game("slide", "3x3", "1 2 3/4 5 6/0 7 8", {}, label="3×3")
    done = play(client, {"id": uniform.id}, ["L", "L"])
    assert done["record"]["new"] is True and done["best"]["fewest_moves"] == 2
    easy = new(client, game="slide", width=3, height=3, distance=1, seed=3)
    won = play(client, easy, solution(easy))
    assert won["variant"] == "3x3 d1" and won["best"]["fewest_moves"] == 1
    assert best_of(client, "slide", "3x3")["fewest_moves"] == 2  # untouched by the 1-move deal


def test_lianliankan_keeps_score_and_time_not_fewest_moves(client):
    state = new(client, game="link", width=6, height=4, kinds=6, seed=2)
    assert state["label"] == "6×4 · 6 kinds"
    pairs = link.solve(link.Board.parse(state["board"])).moves
    won = play(client, state, [[list(a), list(b)] for a, b in pairs])
    assert won["status"] == "won" and won["record"]["counted"] is True
    assert "moves" not in won["record"]["kinds"]
    best = best_of(client, "link", "6x4 k6")
    assert best["fewest_moves"] is None and best["top_score"] is not None
    assert best["fastest_seconds"] is not None and best["label"] == "6×4 · 6 kinds"


def test_a_lianliankan_win_shows_the_score_it_recorded_however_slow_the_commit(
    client, store, monkeypatch
):
    # The score is reckoned from the clock when the move is checked; the store stops the clock when it commits.
    # Held up in between (a busy writer), both must still read the same moment.
    state = new(client, game="link", width=6, height=4, kinds=6, gravity=True, seed=5)
    board = link.Board.parse(state["board"], gravity=True)
    pairs = [[list(a), list(b)] for a, b in link.solve(board).moves]
    play(client, state, pairs[:-1])
    record_move = store.record_move

    def held_up(*args, **kwargs):
        time.sleep(1.5)
        return record_move(*args, **kwargs)

    monkeypatch.setattr(store, "record_move", held_up)
    won = play(client, state, pairs[-1:])
    assert won["status"] == "won"
    result = client.get(f"/api/games/{state['id']}").json()
    assert (
        won["record"]["new"] is True
    )  # the first win of this variant here: the score is the record
    best = best_of(client, "link", "6x4 k6 gravity")
    assert won["view"]["score"] == result["view"]["score"] == best["top_score"]


def test_custom_klotski_layout_is_its_own_variant_with_a_label(client):
    state = new(client, game="klotski", layout="ABBC/ABBC/D..E/FGHI")
    assert state["variant"] == "custom ABBC/ABBC/D..E/FGHI"
    assert state["label"].startswith("custom layout 4×4")
    named = new(client, game="klotski", layout="heng-dao-li-ma")
    assert named["label"] == named["variant"] == "横刀立马"

"""The JSON API: every endpoint, and bad input answered with a 4xx JSON error that changes nothing."""

from __future__ import annotations

import json

import pytest

from tilegames import klotski, link, slide


def error_code(response) -> str:
    body = response.json()
    assert set(body) == {"error"} and body["error"]["message"]
    return body["error"]["code"]


def playable(board, letters) -> bool:
    copy = board.copy()
    try:
        for letter in letters:
            copy.push(letter)
    except ValueError:
        return False
    return True


def new(client, **params):
    response = client.post("/api/games", json=params)
    assert response.status_code == 201, response.text
    return response.json()


def test_page_docs_and_openapi(client):
    page = client.get("/")
    assert page.status_code == 200 and "js/main.js" in page.text
    assert (
        client.get("/static/js/main.js")
        .headers["content-type"]
        .startswith(("text/javascript", "application/javascript"))
    )
    assert "openapi.json" in client.get("/docs").text
    doc = client.get("/openapi.json").json()
    assert doc["openapi"].startswith("3.")
    routes = {
        (path, method.upper())
        for path, item in doc["paths"].items()
        for method in item
        if method != "parameters"
    }
    served = {
        (route.path, method)
        for route in client.app.routes
        if getattr(route, "path", "").startswith("/api/")
        for method in getattr(route, "methods", None) or ()
        if method != "HEAD"
    }
    assert ("/api/games/{game_id}/moves", "POST") in routes and routes == served  # every API route
    assert client.get("/api/health").json()["ok"] is True


def test_catalog_lists_the_three_games(client):
    catalog = client.get("/api/catalog").json()
    assert "3x3" in catalog["slide"]["sizes"] and catalog["slide"]["distance"]["3x3"] == 31
    names = {entry["name"] for entry in catalog["klotski"]["layouts"]}
    assert "横刀立马" in names
    assert "heng-dao-li-ma" in {entry["alias"] for entry in catalog["klotski"]["layouts"]}
    assert "14x6" in catalog["link"]["sizes"] and "30x16" in catalog["link"]["sizes"]


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        (b"{not json", 400, "bad_json"),
        (b"[1, 2]", 400, "bad_json"),
        (b"\xff\xfe", 400, "bad_json"),
        (json.dumps({"game": "chess"}).encode(), 422, "unknown_game"),
        (json.dumps({"game": "slide", "width": 10**6, "height": 3}).encode(), 422, "out_of_range"),
        (json.dumps({"game": "slide", "width": 1, "height": 3}).encode(), 422, "out_of_range"),
        (json.dumps({"game": "slide", "width": "3", "height": 3}).encode(), 422, "bad_parameter"),
        (
            json.dumps({"game": "slide", "width": 5, "height": 5, "distance": 3}).encode(),
            422,
            "bad_parameter",
        ),
        (
            json.dumps({"game": "slide", "width": 3, "height": 3, "distance": 32}).encode(),
            422,
            "out_of_range",
        ),
        (json.dumps({"game": "link", "width": 31, "height": 16}).encode(), 422, "out_of_range"),
        (
            json.dumps({"game": "link", "width": 14, "height": 6, "kinds": 5}).encode(),
            422,
            "bad_parameter",
        ),
        (
            json.dumps({"game": "link", "width": 6, "height": 4, "gravity": "yes"}).encode(),
            422,
            "bad_parameter",
        ),
        (json.dumps({"game": "klotski"}).encode(), 422, "bad_parameter"),
        (json.dumps({"game": "klotski", "layout": "A" * 201}).encode(), 422, "out_of_range"),
        (
            json.dumps({"game": "klotski", "layout": "AABB/AABB/..../...."}).encode(),
            422,
            "invalid_layout",
        ),
    ],
)
def test_bad_new_game_requests(client, body, status, code):
    response = client.post("/api/games", content=body, headers={"content-type": "application/json"})
    assert response.status_code == status
    assert error_code(response) == code


def test_body_too_large_is_413(client):
    typed = {"content-type": "application/json"}
    response = client.post("/api/games", content=b" " * 20_000, headers=typed)
    assert response.status_code == 413 and error_code(response) == "body_too_large"
    chunked = client.post("/api/games", content=iter([b" " * 10_000, b" " * 10_000]), headers=typed)
    assert chunked.status_code == 413


def test_unknown_game_id_is_404_everywhere(client):
    for method, path in [
        ("GET", "/api/games/nope"),
        ("DELETE", "/api/games/nope"),
        ("POST", "/api/games/nope/undo"),
        ("POST", "/api/games/nope/hint"),
        ("POST", "/api/games/nope/solve"),
        ("POST", "/api/games/nope/pause"),
        ("POST", "/api/games/nope/resume"),
        ("GET", "/api/games/" + "x" * 500),
    ]:
        response = client.request(method, path, headers={"content-type": "application/json"})
        assert response.status_code == 404, (method, path)
        assert error_code(response) == "no_such_game"
    response = client.post("/api/games/nope/moves", json={"move": "R"})
    assert response.status_code == 404


def test_slide_moves_undo_and_illegal_moves(client):
    state = new(client, game="slide", width=3, height=3, seed=5)
    board = slide.Board.parse(state["board"])
    assert state["view"]["tiles"] == list(board.tiles) and state["optimal"] is not None
    gid = state["id"]
    before = client.get(f"/api/games/{gid}").json()
    illegal = next(
        m for m in ("U", "D", "L", "R", "UU", "DD", "LL", "RR") if not playable(board, m)
    )
    for move in (illegal, "X", "", 7, None, "R" * 17, ["R"]):
        response = client.post(f"/api/games/{gid}/moves", json={"move": move})
        assert 400 <= response.status_code < 500 and error_code(response)
    assert client.post(f"/api/games/{gid}/moves", json={}).status_code == 422
    assert client.get(f"/api/games/{gid}").json()["board"] == before["board"]
    assert client.post(f"/api/games/{gid}/undo", json={}).status_code == 409
    legal = next(iter(board.moves()))
    after = client.post(f"/api/games/{gid}/moves", json={"move": legal}).json()
    board.push(legal)
    assert after["board"] == str(board) and after["moves"] == 1 and after["can_undo"]
    undone = client.post(f"/api/games/{gid}/undo", json={}).json()
    assert undone["board"] == before["board"] and undone["moves"] == 0 and undone["undos"] == 1


def test_slide_row_move_counts_each_tile(client):
    state = new(client, game="slide", width=3, height=3, seed=11)
    board = slide.Board.parse(state["board"])
    blank = board.tiles.index(0)
    letters = "RR" if blank % 3 == 2 else "LL" if blank % 3 == 0 else "R"
    after = client.post(f"/api/games/{state['id']}/moves", json={"move": letters}).json()
    for letter in letters:
        board.push(letter)
    assert after["board"] == str(board) and after["moves"] == len(letters)


def test_slide_hint_solve_and_win_records_best(client, store):
    state = new(client, game="slide", width=3, height=3, distance=6, seed=3)
    assert state["optimal"] == 6
    gid = state["id"]
    hint = client.post(f"/api/games/{gid}/hint", json={}).json()["hint"]
    board = slide.Board.parse(state["board"])
    assert hint["move"] in set(board.moves()) and len(hint["cells"]) == 1
    for move in slide.solve(board).moves:
        last = client.post(f"/api/games/{gid}/moves", json={"move": move}).json()
    assert last["status"] == "won" and last["moves"] == 6 and last["hints"] == 1
    # A hinted win counts as played but sets no record.
    assert last["record"]["counted"] is False and last["record"]["new"] is False
    assert last["best"]["played"] >= 1 and last["variant"] == "3x3 d6"
    assert client.post(f"/api/games/{gid}/moves", json={"move": "R"}).status_code == 409
    best = client.get("/api/best?game=slide").json()["best"]
    assert any(b["variant"] == "3x3 d6" and b["label"] == "3×3, 6 moves from solved" for b in best)
    assert client.get("/api/best?game=chess").status_code == 422

    other = new(client, game="slide", width=3, height=3, distance=4, seed=1)
    solution = client.post(f"/api/games/{other['id']}/solve", json={}).json()
    assert solution["length"] == 4 and solution["optimal"] is True
    for move in solution["moves"]:
        done = client.post(f"/api/games/{other['id']}/moves", json={"move": move}).json()
    assert done["status"] == "won" and done["autoplay"] is True
    assert store.game(other["id"]).autoplay == 1


def test_klotski_named_layout_moves_hint_solve(client):
    state = new(client, game="klotski", layout="heng-dao-li-ma")
    assert state["variant"] == "横刀立马" and state["optimal"] == 81
    gid = state["id"]
    pieces = {p["id"]: p for p in state["view"]["pieces"]}
    assert (pieces["B"]["width"], pieces["B"]["height"]) == (2, 2)
    bad = client.post(f"/api/games/{gid}/moves", json={"move": "B:U"})
    assert bad.status_code == 422 and error_code(bad) == "illegal_move"
    assert bad.json()["error"]["message"].count("B:U") == 1  # named once, with the engine's reason
    assert client.get(f"/api/games/{gid}").json()["moves"] == 0
    hint = client.post(f"/api/games/{gid}/hint", json={}).json()["hint"]
    assert hint["move"] in state["view"]["legal"] and hint["piece"] == hint["move"][0]
    step = hint["move"].split(":")[0] + ":" + hint["move"].split(":")[1][0]
    one = client.post(f"/api/games/{gid}/moves", json={"move": step}).json()
    assert one["moves"] == 1 and one["steps"] == 1
    rest = hint["move"].split(":")[1][1:]
    if rest:  # the same piece again continues the same classic move
        two = client.post(
            f"/api/games/{gid}/moves", json={"move": f"{hint['piece']}:{rest}"}
        ).json()
        assert two["moves"] == 1 and two["steps"] == 1 + len(rest)
    # A second piece: a new classic move; undo takes its steps back off the count.
    other = next(
        m for m in client.get(f"/api/games/{gid}").json()["view"]["legal"] if m[0] != hint["piece"]
    )
    moved = client.post(f"/api/games/{gid}/moves", json={"move": other}).json()
    assert (
        moved["moves"] == 2 and moved["steps"] == len(hint["move"].split(":")[1]) + len(other) - 2
    )
    undone = client.post(f"/api/games/{gid}/undo", json={}).json()
    assert undone["moves"] == 1 and undone["steps"] == len(hint["move"].split(":")[1])
    solution = client.post(f"/api/games/{gid}/solve", json={}).json()
    assert solution["length"] == 80


def test_klotski_custom_layout_played_to_the_win(client):
    layout = "ABBC/ABBC/D..E/FGHI"
    state = new(client, game="klotski", layout=layout)
    assert state["variant"].startswith("custom ")
    board = klotski.Board.parse(state["board"])
    solution = klotski.solve(board)
    assert state["optimal"] == solution.length
    for move in solution.moves:
        last = client.post(f"/api/games/{state['id']}/moves", json={"move": move}).json()
    assert last["status"] == "won" and last["moves"] == solution.length
    assert last["best"]["variant"] == state["variant"]


def test_klotski_refuses_unsolvable_and_oversized_layouts(client):
    unsolvable = client.post(
        "/api/games", json={"game": "klotski", "layout": "ABBC/ABBC/DEEF/GHIJ"}
    )
    assert unsolvable.status_code == 422 and error_code(unsolvable) == "unsolvable"
    wide = "AA" + "." * 5 + "/AA" + "." * 5 + "/" + "/".join(["." * 7] * 5)
    big = client.post("/api/games", json={"game": "klotski", "layout": wide})
    assert big.status_code == 422 and error_code(big) == "out_of_range"


def test_link_pairs_wrong_pairs_hint_undo_and_win(client):
    state = new(client, game="link", width=6, height=4, kinds=6, seed=2)
    gid = state["id"]
    assert state["view"]["remaining"] == 24 and len(state["view"]["kinds"]) == 6
    board = link.Board.parse(state["board"])
    a, b = board.first_pair()
    kinds = {}
    for r in range(4):
        for c in range(6):
            kinds.setdefault(board[(r, c)], []).append([r, c])
    first = next(iter(kinds.values()))[0]
    other = next(cells for kind, cells in kinds.items() if kind != board[tuple(first)])[0]
    for move in (
        [first, other],
        [first, first],
        [first, [9, 9]],
        "x",
        [[0, 0]],
        [[0, True], [1, 1]],
    ):
        response = client.post(f"/api/games/{gid}/moves", json={"move": move})
        assert response.status_code == 422, move
    assert client.get(f"/api/games/{gid}").json()["board"] == state["board"]
    hint = client.post(f"/api/games/{gid}/hint", json={}).json()["hint"]
    assert len(hint["cells"]) == 2 and hint["path"][0] in hint["cells"]
    moved = client.post(f"/api/games/{gid}/moves", json={"move": [list(a), list(b)]}).json()
    assert moved["last"]["path"][0] in ([*a], [*b]) and moved["view"]["remaining"] == 22
    assert client.post(f"/api/games/{gid}/undo", json={}).json()["board"] == state["board"]
    solution = client.post(f"/api/games/{gid}/solve", json={}).json()
    assert solution["length"] == 12
    for pair in solution["moves"]:
        last = client.post(f"/api/games/{gid}/moves", json={"move": pair}).json()
    assert last["status"] == "won" and last["view"]["remaining"] == 0


def test_link_reshuffles_when_stuck(client, store):
    # After C-C goes, A and B each need three turns: stuck, so the server reshuffles at once.
    row = store.create_game(
        "link", "2x3 k3", "AB/BA/CC", {"gravity": False, "cells": 6, "kinds_chars": ["A", "B", "C"]}
    )
    state = client.post(f"/api/games/{row.id}/moves", json={"move": [[2, 0], [2, 1]]}).json()
    assert state["last"]["reshuffled"] is True and state["view"]["reshuffles"] == 1
    board = link.Board.parse(state["board"])
    assert not board.is_stuck() and board.remaining == 4


def test_delete_forgets_a_game(client):
    state = new(client, game="slide", width=3, height=3)
    assert (
        client.delete(
            f"/api/games/{state['id']}", headers={"content-type": "application/json"}
        ).status_code
        == 204
    )
    assert client.get(f"/api/games/{state['id']}").status_code == 404


def test_slide_hints_follow_a_saved_plan(client, store):
    state = new(client, game="slide", width=4, height=3, seed=2)
    gid = state["id"]
    board = slide.Board.parse(state["board"])
    first = client.post(f"/api/games/{gid}/hint", json={}).json()["hint"]["move"]
    plan = store.game(gid).options["plan"]
    assert plan["board"] == state["board"] and plan["moves"][0] == first
    assert len(plan["moves"]) == slide.solve(board).length  # 12 cells: the plan is optimal
    client.post(f"/api/games/{gid}/moves", json={"move": first})
    second = client.post(f"/api/games/{gid}/hint", json={}).json()["hint"]["move"]
    assert second == plan["moves"][1]
    # Off the plan, a new one is made from where the player is.
    board.push(first)
    inverse = {"U": "D", "D": "U", "L": "R", "R": "L"}[first]
    off = next(m for m in board.moves() if m not in (second, inverse))
    client.post(f"/api/games/{gid}/moves", json={"move": off})
    board.push(off)
    third = client.post(f"/api/games/{gid}/hint", json={}).json()["hint"]["move"]
    assert store.game(gid).options["plan"]["board"] == str(board) and third in set(board.moves())


def test_link_gravity_game_follows_the_engine(client):
    state = new(client, game="link", width=6, height=4, kinds=6, gravity=True, seed=4)
    assert state["variant"] == "6x4 k6 gravity" and state["view"]["gravity"] is True
    board = link.Board.parse(state["board"], gravity=True)
    pair = board.first_pair()
    after = client.post(
        f"/api/games/{state['id']}/moves", json={"move": [list(pair[0]), list(pair[1])]}
    )
    board.push(pair)
    assert after.json()["board"] == str(board)


def test_unknown_routes_and_methods_answer_json(client):
    missing = client.get("/api/nothing-here")
    assert missing.status_code == 404 and error_code(missing) == "http_error"
    assert client.put("/api/games").status_code == 415  # every write is typed JSON first
    wrong = client.put("/api/games", headers={"content-type": "application/json"})
    assert wrong.status_code == 405 and error_code(wrong) == "http_error"


def test_klotski_check_gives_the_engine_verdict_without_playing(client, store):
    named = client.post("/api/klotski/check", json={"layout": "heng-dao-li-ma"}).json()
    assert named == {"ok": True, "layout": "ABBC/ABBC/DEEF/DGHF/I..J", "variant": "横刀立马"}
    custom = client.post("/api/klotski/check", json={"layout": "ABBC/ABBC/D..E/FGHI"}).json()
    assert custom["ok"] and custom["variant"] == "custom ABBC/ABBC/D..E/FGHI"
    bad = client.post("/api/klotski/check", json={"layout": "ABBC/ABBC/DEEF/GHI"})
    assert bad.status_code == 422 and error_code(bad) == "invalid_layout"
    assert "row" in bad.json()["error"]["message"]
    assert client.post("/api/klotski/check", json={}).status_code == 422

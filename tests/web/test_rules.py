"""Issue 12 §2 and the ply check: one action per move, the stale-tab 409, move rate limits, the ply cap, and
requests that never reread a game's history."""

from __future__ import annotations

import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from tilegames import klotski, slide
from tilegames.store import Conflict, Store
from tilegames.web import create_app
from tilegames.web.limits import ServerLimits

from .conftest import GENEROUS


def new(client, **params):
    response = client.post("/api/games", json=params)
    assert response.status_code == 201, response.text
    return response.json()


def code(response) -> str:
    return response.json()["error"]["code"]


def test_a_move_at_the_wrong_ply_is_a_409_conflict_and_changes_nothing(client):
    state = new(client, game="slide", width=3, height=3, seed=8)
    gid = state["id"]
    board = slide.Board.parse(state["board"])
    first = next(iter(board.moves()))
    moved = client.post(f"/api/games/{gid}/moves", json={"move": first, "ply": 0})
    assert moved.status_code == 200 and moved.json()["plies"] == 1
    board.push(first)
    # A second tab that still shows ply 0 sends its move: refused, the board stays as the first tab left it.
    second = next(iter(board.moves()))
    stale = client.post(f"/api/games/{gid}/moves", json={"move": second, "ply": 0})
    assert stale.status_code == 409 and code(stale) == "conflict"
    assert "reload" in stale.json()["error"]["message"]
    now = client.get(f"/api/games/{gid}").json()
    assert now["board"] == str(board) and now["plies"] == 1
    # A stale undo is refused the same way; the right ply takes the move back.
    assert code(client.post(f"/api/games/{gid}/undo", json={"ply": 0})) == "conflict"
    assert client.get(f"/api/games/{gid}").json()["plies"] == 1
    undone = client.post(f"/api/games/{gid}/undo", json={"ply": 1})
    assert undone.status_code == 200 and undone.json()["plies"] == 0
    for bad in (-1, "1", 1.5, True):
        response = client.post(f"/api/games/{gid}/moves", json={"move": first, "ply": bad})
        assert response.status_code == 422 and code(response) == "bad_parameter"


def test_the_store_commits_a_checked_move_only_at_the_ply_it_was_checked_at(tmp_path):
    store = Store(tmp_path / "ply.sqlite3")
    try:
        row = store.create_game("slide", "3x3", "1 2 3/4 5 6/7 0 8")
        store.record_move(row, "L", "1 2 3/4 5 6/7 8 0", 1)
        with pytest.raises(Conflict):  # the same ply twice: the second writer loses
            store.record_move(row, "R", "1 2 3/4 5 6/0 7 8", 1)
        with pytest.raises(Conflict):
            store.undo(row)
        again = store.game(row.id)
        assert again.plies == 1 and again.board == "1 2 3/4 5 6/7 8 0"
        assert store.history(row.id) == ["L"]
    finally:
        store.close()


def test_a_slide_move_is_one_line_in_one_direction(client):
    state = new(client, game="slide", width=4, height=4, seed=2)
    gid = state["id"]
    board = slide.Board.parse(state["board"])
    # Two directions in one request, or more tiles than a line holds: refused whatever the board.
    there_and_back = (
        next(m for m in board.moves())
        + {"U": "D", "D": "U", "L": "R", "R": "L"}[next(m for m in board.moves())]
    )
    for move in (there_and_back, "LRLRLRLRLRLRLRLR", "LLLL", "UUUU"):
        response = client.post(f"/api/games/{gid}/moves", json={"move": move})
        assert response.status_code == 422 and code(response) == "one_action", move
    assert client.get(f"/api/games/{gid}").json()["plies"] == 0
    # A whole line at once is one action.
    blank = board.tiles.index(0)
    column = blank % 4
    line = "L" * (3 - column) if column < 3 else "R" * 3
    moved = client.post(f"/api/games/{gid}/moves", json={"move": line})
    assert moved.status_code == 200 and moved.json()["moves"] == len(line)


def test_a_whole_solution_in_one_request_cannot_win(client):
    state = new(client, game="slide", width=3, height=3, distance=8, seed=4)
    board = slide.Board.parse(state["board"])
    solution = "".join(slide.solve(board).moves)
    response = client.post(f"/api/games/{state['id']}/moves", json={"move": solution})
    assert response.status_code == 422
    assert client.get(f"/api/games/{state['id']}").json()["status"] == "playing"


@pytest.fixture(scope="module")
def tight(tmp_path_factory):
    """An app whose games take 6 moves at once (no refill to speak of) and keep 4 plies at most."""
    limits = ServerLimits(
        **{
            **GENEROUS.__dict__,
            "move_burst": 6,
            "move_per_second": 0.001,
            "max_plies": 4,
        }
    )
    store = Store(tmp_path_factory.mktemp("tight") / "tight.sqlite3")
    with TestClient(create_app(store=store, limits=limits, warm=False)) as client:
        yield client
    store.close()


def test_moves_are_rate_limited_per_game(tight):
    state = new(tight, game="slide", width=3, height=3, seed=1)
    gid = state["id"]
    for _ in range(6):  # a no-op storm spends the allowance even when every move is refused
        assert tight.post(f"/api/games/{gid}/moves", json={"move": "X"}).status_code == 422
    limited = tight.post(f"/api/games/{gid}/moves", json={"move": "R"})
    assert limited.status_code == 429 and code(limited) == "rate_limited"
    assert "Retry-After" in limited.headers
    # Another game has its own allowance.
    other = new(tight, game="slide", width=3, height=3, seed=1)
    board = slide.Board.parse(other["board"])
    move = next(iter(board.moves()))
    assert tight.post(f"/api/games/{other['id']}/moves", json={"move": move}).status_code == 200


def test_a_game_has_a_ply_cap(tight):
    state = new(tight, game="slide", width=3, height=3, seed=5)
    gid = state["id"]
    board = slide.Board.parse(state["board"])
    move = next(iter(board.moves()))
    back = {"U": "D", "D": "U", "L": "R", "R": "L"}[move]
    for letter in (move, back, move, back):
        assert tight.post(f"/api/games/{gid}/moves", json={"move": letter}).status_code == 200
    capped = tight.post(f"/api/games/{gid}/moves", json={"move": move})
    assert capped.status_code == 409 and code(capped) == "too_many_moves"
    assert "4" in capped.json()["error"]["message"]
    assert tight.get(f"/api/games/{gid}").json()["plies"] == 4


def test_a_get_and_a_move_never_read_the_history(client, store, backend):
    if backend != "sqlite":
        pytest.skip("traces the statements with SQLite's set_trace_callback")
    state = new(client, game="klotski", layout="横刀立马")
    gid = state["id"]
    board = klotski.Board.parse(state["board"])
    for _ in range(6):
        move = next(iter(board.moves("moves")))
        client.post(f"/api/games/{gid}/moves", json={"move": move})
        board.push(move)
    statements: list[str] = []
    read = store.read

    def traced(fn):  # the reader connections (GETs) are traced too
        def run(db):
            db.set_trace_callback(statements.append)
            try:
                return fn(db)
            finally:
                db.set_trace_callback(None)

        return read(run)

    store.read = traced
    store.run(store._db.set_trace_callback, statements.append)
    try:
        got = client.get(f"/api/games/{gid}").json()
        read_by_get = len(statements)
        move = next(iter(board.moves("moves")))
        moved = client.post(f"/api/games/{gid}/moves", json={"move": move}).json()
    finally:
        store.run(store._db.set_trace_callback, None)
        del store.read
    reads_of_plies = [s for s in statements if "FROM plies" in s or "FROM results" in s]
    assert reads_of_plies == []
    assert read_by_get > 0 and len(statements) > read_by_get  # the trace saw both requests
    history = store.history(gid)
    assert got["steps"] == sum(len(m.partition(":")[2]) for m in history[:6])
    assert moved["steps"] == sum(len(m.partition(":")[2]) for m in history)
    assert moved["plies"] == len(history) == 7


def test_racing_moves_at_one_ply_have_exactly_one_winner(client, store):
    """Eight requests for the same ply at once (eight stale tabs): one is applied, seven get 409 conflict."""
    import threading

    state = new(client, game="klotski", layout="横刀立马")
    gid = state["id"]
    legal = state["view"]["legal"]
    answers: list[int] = []

    def send(move: str) -> None:
        response = client.post(f"/api/games/{gid}/moves", json={"move": move, "ply": 0})
        answers.append(response.status_code)

    threads = [threading.Thread(target=send, args=(legal[n % len(legal)],)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == [200] + [409] * 7
    assert store.game(gid).plies == 1 and len(store.history(gid)) == 1


def test_a_get_does_not_wait_for_the_writer(client, store):
    """Reads run on their own connections: a GET answers while the writer thread is busy."""
    import threading

    state = new(client, game="slide", width=3, height=3, seed=3)
    busy, release = threading.Event(), threading.Event()

    def hold() -> None:
        busy.set()
        release.wait(60)

    holding = store.submit(hold)
    try:
        assert busy.wait(30)
        got = client.get(f"/api/games/{state['id']}")
        assert got.status_code == 200 and got.json()["board"] == state["board"]
        assert not holding.done()  # answered while the writer was still held
    finally:
        release.set()
    holding.result(30)

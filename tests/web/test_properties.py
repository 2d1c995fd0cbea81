"""Property tests: whatever a client sends, the server's board is the engine's board after exactly the moves
it accepted, and undo walks back through the same boards."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tilegames import klotski, link, slide

SLIDE_MOVES = st.one_of(
    st.text(alphabet="UDLR", min_size=1, max_size=4),
    st.text(max_size=5),
    st.integers(),
    st.none(),
)
SETTINGS = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def push_all(board, move) -> bool:
    """Apply a slide move string to a copy; True (and applied to `board`) only if it is one line in one
    direction (one letter, at most max(W, H) - 1 times) and every letter is legal."""
    if not isinstance(move, str) or not move or set(move) - set("UDLR"):
        return False
    if len(set(move)) != 1 or len(move) > max(board.width, board.height) - 1:
        return False
    trial = board.copy()
    try:
        for letter in move:
            trial.push(letter)
    except ValueError:
        return False
    for letter in move:
        board.push(letter)
    return True


@SETTINGS
@given(moves=st.lists(SLIDE_MOVES, max_size=12), undos=st.integers(0, 4))
def test_slide_server_board_is_the_engine_board(client, moves, undos):
    state = client.post(
        "/api/games", json={"game": "slide", "width": 3, "height": 3, "seed": 1}
    ).json()
    board = slide.Board.parse(state["board"])
    history = [str(board)]
    for move in moves:
        accepted = push_all(board, move)
        response = client.post(f"/api/games/{state['id']}/moves", json={"move": move})
        assert (response.status_code == 200) == accepted
        if accepted and response.json()["status"] == "won":
            return
        if accepted:
            history.append(str(board))
        assert client.get(f"/api/games/{state['id']}").json()["board"] == history[-1]
    for _ in range(min(undos, len(history) - 1)):
        history.pop()
        assert client.post(f"/api/games/{state['id']}/undo", json={}).json()["board"] == history[-1]


@SETTINGS
@given(picks=st.lists(st.tuples(st.integers(0, 40), st.integers(0, 3)), max_size=10))
def test_klotski_server_board_is_the_engine_board(client, picks):
    state = client.post("/api/games", json={"game": "klotski", "layout": "横刀立马"}).json()
    board = klotski.Board.parse(state["board"])
    for index, garble in picks:
        legal = list(board.moves("moves"))
        move = legal[index % len(legal)]
        if garble == 3:  # an illegal variant: the piece walks off the board
            move = move.split(":")[0] + ":" + "U" * 6
        response = client.post(f"/api/games/{state['id']}/moves", json={"move": move})
        if garble == 3:
            assert response.status_code == 422
        else:
            assert response.status_code == 200
            board.push(move)
        assert client.get(f"/api/games/{state['id']}").json()["board"] == str(board)


@SETTINGS
@given(cells=st.lists(st.tuples(st.integers(-1, 4), st.integers(-1, 6)), min_size=2, max_size=16))
def test_link_server_accepts_exactly_the_joinable_pairs(client, cells):
    state = client.post(
        "/api/games",
        json={"game": "link", "width": 6, "height": 4, "kinds": 6, "gravity": True, "seed": 5},
    ).json()
    board = link.Board.parse(state["board"], gravity=True)
    for a, b in zip(cells[::2], cells[1::2], strict=False):
        inside = all(0 <= r < 4 and 0 <= c < 6 for r, c in (a, b))
        joinable = (
            inside
            and a != b
            and board[a] is not None
            and board[a] == board[b]
            and board.path(a, b) is not None
        )
        response = client.post(f"/api/games/{state['id']}/moves", json={"move": [list(a), list(b)]})
        assert (response.status_code == 200) == joinable, (a, b, response.text)
        if joinable:
            board.push((a, b))
            if board.is_stuck() or board.is_solved():
                return  # a reshuffle (or the win) follows; the move itself was checked
            assert response.json()["board"] == str(board)

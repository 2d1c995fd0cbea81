"""Analysis mode (issue 9): the distance to solved and each legal move's verdict, checked against plain searches;
an analysed game sets no record."""

from __future__ import annotations

import functools
from collections import deque

from hypothesis import given, settings
from hypothesis import strategies as st

from tilegames import klotski, link, slide
from tilegames.web import analysis_tasks, models

SMALL = "AAB/AAC/D../..."
"""A 3×4 Klotski board small enough for a plain breadth-first search in Python (2,016 positions)."""


def new(client, **params):
    response = client.post("/api/games", json=params)
    assert response.status_code == 201, response.text
    return response.json()


def analyse(client, game_id):
    response = client.get(f"/api/games/{game_id}/analysis")
    assert response.status_code == 200, response.text
    answer = response.json()
    models.Analysis.model_validate(answer)
    return answer


def bfs_distances(board: klotski.Board, metric: str) -> dict[str, int]:
    """The slow reference: every position reachable from ``board`` by its notation, with its distance to the
    nearest solved one (a BFS out, then a BFS back from the solved positions; moves are reversible)."""
    graph: dict[str, list[str]] = {}
    boards = {str(board): board}
    queue = deque([board])
    while queue:
        here = queue.popleft()
        graph[str(here)] = []
        for move in here.moves(metric):
            there = here.copy(stack=False)
            there.push(move)
            graph[str(here)].append(str(there))
            if str(there) not in boards:
                boards[str(there)] = there
                queue.append(there)
    distance = {name: 0 for name, b in boards.items() if b.is_solved()}
    queue2 = deque(distance)
    while queue2:
        name = queue2.popleft()
        for other in graph[name]:
            if other not in distance:
                distance[other] = distance[name] + 1
                queue2.append(other)
    return distance


def expected_verdict(before, after):
    return "better" if after < before else "same" if after == before else "worse"


def test_klotski_verdicts_agree_with_a_plain_bfs_in_both_metrics(client):
    state = new(client, game="klotski", layout=SMALL)
    start = klotski.Board.parse(state["board"])
    # Every later position is reachable from the start, so one search per metric covers the walk.
    moves_bfs, steps_bfs = bfs_distances(start, "moves"), bfs_distances(start, "steps")
    seen = set()
    for _ in range(3):  # the start and two positions along the way
        answer = analyse(client, state["id"])
        board = klotski.Board.parse(state["board"])
        seen |= {m["verdict"] for m in answer["moves"]}
        assert answer["metric"] == "moves" and answer["exact"] is True
        assert answer["distance"] == moves_bfs[str(board)]
        assert answer["steps"] == steps_bfs[str(board)]
        assert [m["move"] for m in answer["moves"]] == list(board.moves("moves"))
        for judged in answer["moves"]:
            child = board.copy(stack=False)
            child.push(judged["move"])
            assert judged["distance"] == moves_bfs[str(child)]
            assert judged["steps"] == steps_bfs[str(child)]
            assert judged["verdict"] == expected_verdict(answer["distance"], judged["distance"])
        # Play a worse move first, then a better one, so the walk sees every kind of verdict.
        verdicts = {m["verdict"]: m["move"] for m in answer["moves"]}
        move = verdicts.get("worse") if _ == 0 else verdicts.get("better")
        move = move or answer["moves"][0]["move"]
        response = client.post(f"/api/games/{state['id']}/moves", json={"move": move})
        assert response.status_code == 200, response.text
        state = response.json()
        if state["status"] != "playing":
            break
    assert {"better", "worse"} <= seen


def test_slide_verdicts_agree_with_the_optimal_solver_on_3x3(client):
    state = new(client, game="slide", width=3, height=3, distance=12, seed=3)
    answer = analyse(client, state["id"])
    board = slide.Board.parse(state["board"])
    assert answer["distance"] == 12 == slide.solve(board).length and answer["exact"] is True
    # Every tile in line with the blank is a move: the run it pushes, as the page sends it.
    blank_row, blank_col = divmod(board.tiles.index(0), board.width)
    in_line = sum(
        1
        for i in range(len(board.tiles))
        if i != board.tiles.index(0) and (i // 3 == blank_row or i % 3 == blank_col)
    )
    assert len(answer["moves"]) == in_line
    for judged in answer["moves"]:
        child = board.copy(stack=False)
        for letter in judged["move"]:
            child.push(letter)
        optimal = slide.solve(child).length
        assert judged["distance"] == optimal
        assert judged["verdict"] == expected_verdict(12, optimal)
    assert {"better", "worse"} <= {m["verdict"] for m in answer["moves"]}


def test_link_says_whether_each_pair_keeps_the_board_clearable(client):
    state = new(client, game="link", width=6, height=4, kinds=3, seed=11)
    answer = analyse(client, state["id"])
    board = link.Board.parse(state["board"])
    assert answer["metric"] == "clearable" and answer["clearable"] is True
    assert answer["distance"] == board.remaining // 2
    assert [tuple(map(tuple, m["move"])) for m in answer["moves"]] == board.legal_moves()
    for judged in answer["moves"]:
        child = board.copy(stack=False)
        child.push(judged["move"])
        clearable = link.solve(child) is not None
        assert judged["clearable"] is clearable
        assert judged["verdict"] == ("same" if clearable else "worse")


def test_an_analysed_game_counts_as_played_but_sets_no_record(client):
    state = new(client, game="slide", width=3, height=3, distance=6, seed=8)
    answer = analyse(client, state["id"])
    assert answer["distance"] == 6
    moves = slide.solve(slide.Board.parse(state["board"])).moves
    for move in moves:
        response = client.post(f"/api/games/{state['id']}/moves", json={"move": move})
        assert response.status_code == 200, response.text
    won = response.json()
    assert won["status"] == "won" and won["analysed"] is True and won["autoplay"] is False
    assert won["assisted"] is True and won["record"]["counted"] is False
    assert won["record"]["kinds"] == []
    best = next(
        b for b in client.get("/api/best?game=slide").json()["best"] if b["variant"] == "3x3 d6"
    )
    assert best["unassisted"] == 0 and best["fewest_moves"] is None
    # A finished game has nothing to analyse.
    assert client.get(f"/api/games/{state['id']}/analysis").status_code == 409


def test_refusals_name_the_problem(client):
    big = new(client, game="slide", width=5, height=5, seed=1)
    response = client.get(f"/api/games/{big['id']}/analysis")
    assert (
        response.status_code == 422 and response.json()["error"]["code"] == "analysis_unavailable"
    )
    missing = client.get("/api/games/nope/analysis")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "no_such_game"


def test_a_search_past_its_limit_answers_unknown():
    hard = "0 12 9 13/15 11 10 14/3 7 2 5/4 8 6 1"
    answer = analysis_tasks.slide_analysis(hard, 1, 5.0)
    assert answer["exact"] is False and answer["distance"] is None
    assert answer["moves"] and {m["verdict"] for m in answer["moves"]} == {"unknown"}
    stuck = analysis_tasks.link_analysis(str(link.deal(14, 6, 21, seed=2)), False, 1, 3)
    assert stuck["exact"] is False
    assert all(m["verdict"] == "unknown" for m in stuck["moves"][3:])


@functools.cache
def slide_3x3_table() -> dict[tuple[int, ...], int]:
    """The slow reference: every 3×3 position's distance to solved, by a plain BFS back from the goal."""
    goal = (1, 2, 3, 4, 5, 6, 7, 8, 0)
    distance = {goal: 0}
    queue = deque([goal])
    while queue:
        here = queue.popleft()
        blank = here.index(0)
        r, c = divmod(blank, 3)
        for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= nr < 3 and 0 <= nc < 3:
                there = list(here)
                there[blank], there[nr * 3 + nc] = there[nr * 3 + nc], 0
                key = tuple(there)
                if key not in distance:
                    distance[key] = distance[here] + 1
                    queue.append(key)
    return distance


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_slide_analysis_matches_a_plain_bfs_of_every_3x3_position(seed):
    board = slide.random_board(3, 3, seed=seed)
    table = slide_3x3_table()
    answer = analysis_tasks.slide_analysis(str(board), 3_000_000, 30.0)
    assert answer["exact"] is True and answer["distance"] == table[tuple(board.tiles)]
    assert len(answer["moves"]) == 4  # on 3×3, two tiles in the blank's row and two in its column
    for judged in answer["moves"]:
        child = board.copy(stack=False)
        for letter in judged["move"]:
            child.push(letter)
        assert judged["distance"] == table[tuple(child.tiles)]
        assert judged["verdict"] == expected_verdict(answer["distance"], judged["distance"])

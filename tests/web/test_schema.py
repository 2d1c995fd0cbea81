"""The OpenAPI document is generated from the models, and the server's answers match those models."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from tilegames import klotski, link, slide
from tilegames.web import models


def test_openapi_schemas_come_from_the_models(client):
    doc = client.get("/openapi.json").json()
    schemas = doc["components"]["schemas"]
    for model in models.MODELS:
        assert schemas[model.__name__]["properties"].keys() >= {
            field.alias or name for name, field in model.model_fields.items()
        }
    move = doc["paths"]["/api/games/{game_id}/moves"]["post"]
    assert move["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith("/Move")
    assert "ply" in schemas["Move"]["properties"] and "409" in move["responses"]
    refs = {
        value
        for path in doc["paths"].values()
        for op in path.values()
        if isinstance(op, dict)
        for response in op.get("responses", {}).values()
        for value in [
            response.get("content", {}).get("application/json", {}).get("schema", {}).get("$ref")
        ]
        if value
    }
    assert all(ref.rsplit("/", 1)[1] in schemas for ref in refs)


def test_every_answer_matches_its_model(client):
    states = []
    slide_state = client.post(
        "/api/games", json={"game": "slide", "width": 3, "height": 3, "seed": 2}
    ).json()
    states.append(slide_state)
    board = slide.Board.parse(slide_state["board"])
    move = next(iter(board.moves()))
    states.append(
        client.post(f"/api/games/{slide_state['id']}/moves", json={"move": move, "ply": 0}).json()
    )
    states.append(client.post(f"/api/games/{slide_state['id']}/undo", json={"ply": 1}).json())
    k = client.post("/api/games", json={"game": "klotski", "layout": "ABBC/ABBC/D..E/FGHI"}).json()
    states.append(k)
    for step in klotski.solve(klotski.Board.parse(k["board"])).moves:
        last = client.post(f"/api/games/{k['id']}/moves", json={"move": step}).json()
    states.append(last)
    assert last["record"] is not None
    lk = client.post(
        "/api/games", json={"game": "link", "width": 6, "height": 4, "kinds": 6, "seed": 9}
    )
    states.append(lk.json())
    pair = link.Board.parse(lk.json()["board"]).first_pair()
    moved = client.post(
        f"/api/games/{lk.json()['id']}/moves", json={"move": [list(pair[0]), list(pair[1])]}
    ).json()
    states.append(moved)
    for state in states:
        models.Game.model_validate(state)
    models.Hint.model_validate(client.post(f"/api/games/{slide_state['id']}/hint", json={}).json())
    models.Solution.model_validate(
        client.post(f"/api/games/{slide_state['id']}/solve", json={}).json()
    )
    models.BestList.model_validate(client.get("/api/best").json())
    models.Health.model_validate(client.get("/api/health").json())
    models.Error.model_validate(client.get("/api/games/nope").json())
    with pytest.raises(ValidationError):  # the models do check: a state without its fields fails
        models.Game.model_validate({"id": "x"})

"""Deal ids: every game names its deal, and POST {"deal": id} starts a new game on exactly that deal."""

from __future__ import annotations

import datetime

import pytest

from tilegames.web.games import deals
from tilegames.web.models import Game


def new(client, **params):
    response = client.post("/api/games", json=params)
    assert response.status_code == 201, response.text
    Game.model_validate(response.json())
    return response.json()


@pytest.mark.parametrize(
    "params",
    [
        {"game": "slide", "width": 3, "height": 3},
        {"game": "slide", "width": 4, "height": 4, "distance": 12},
        {"game": "slide", "width": 5, "height": 3},
        {"game": "klotski", "layout": "横刀立马"},
        {"game": "klotski", "layout": "ABBC/ABBC/DEEF/DGHF/I..J"},
        {"game": "klotski", "layout": "AAB/AAB/C../D.."},
        {"game": "klotski", "layout": "Level 3"},
        {"game": "link", "width": 6, "height": 4, "kinds": 6},
        {"game": "link", "width": 6, "height": 4, "kinds": 3, "gravity": True},
    ],
)
def test_a_deal_id_replays_the_same_start(client, params):
    first = new(client, **params)
    deal = first["deal"]
    assert isinstance(deal, str) and deal.startswith(f"{params['game']}-")
    assert deals.DEAL_CHARS.fullmatch(deal), deal
    again = new(client, deal=deal)
    assert again["id"] != first["id"]
    assert (again["start"], again["variant"], again["deal"]) == (
        first["start"],
        first["variant"],
        deal,
    )
    assert again["plies"] == 0 and again["status"] == "playing"


def test_deal_ids_name_their_parts(client):
    state = new(client, game="slide", width=4, height=4, distance=20, seed=99)
    assert state["deal"] == "slide-4x4-d20-s99"
    state = new(client, game="link", width=6, height=4, kinds=6, gravity=True, seed=5)
    assert state["deal"] == "link-6x4-k6-g-s5"
    state = new(client, game="klotski", layout="heng-dao-li-ma")
    assert state["deal"] == "klotski-heng-dao-li-ma"


def test_a_seedless_deal_id_is_different_each_time_but_a_seeded_one_is_not(client):
    a, b = new(client, deal="slide-4x4-s7"), new(client, deal="slide-4x4-s7")
    c = new(client, deal="slide-4x4-s8")
    assert a["start"] == b["start"] != c["start"]


@pytest.mark.parametrize(
    ("deal", "code"),
    [
        ("chess-4x4-s1", "bad_deal"),
        ("slide", "bad_deal"),
        ("slide-4x4", "bad_deal"),
        ("slide-4x4-s1-q3", "bad_deal"),
        ("slide-axb-s1", "bad_deal"),
        ("slide-4x4-s1/..", "bad_deal"),
        ("slide-40x40-s1", "out_of_range"),
        ("slide-5x5-d3-s1", "bad_parameter"),
        ("link-6x4-s1", "bad_deal"),
        ("link-6x4-k5-s1", "bad_parameter"),
        ("klotski-no-such-layout", "bad_deal"),
        ("klotski-AB_CD", "invalid_layout"),
        ("slide-daily-2026-13-40", "bad_parameter"),
        ("slide-daily-2999-01-01", "out_of_range"),
        (42, "bad_deal"),
    ],
)
def test_bad_deal_ids_are_refused_with_a_reason(client, deal, code):
    response = client.post("/api/games", json={"deal": deal})
    assert response.status_code == 422, response.text
    assert response.json()["error"]["code"] == code
    assert response.json()["error"]["message"]


@pytest.mark.parametrize("game", ["slide", "klotski", "link"])
def test_the_daily_puzzle_is_the_same_deal_for_everyone_with_its_own_records(client, game):
    today = datetime.datetime.now(datetime.UTC).date().isoformat()
    first = new(client, game=game, daily=True)
    second = new(client, deal=f"{game}-daily-{today}")
    assert first["start"] == second["start"]
    assert first["variant"] == f"daily {today}" and first["deal"] == f"{game}-daily-{today}"
    assert today in first["label"]
    yesterday = (datetime.date.fromisoformat(today) - datetime.timedelta(days=1)).isoformat()
    other = new(client, game=game, daily=yesterday)
    assert other["variant"] == f"daily {yesterday}"
    if game != "klotski":  # the pack is finite: two days may draw the same level
        assert other["start"] != first["start"]


def test_daily_seed_depends_on_date_and_game():
    assert deals.daily_seed("2026-11-23", "slide") == deals.daily_seed("2026-11-23", "slide")
    assert deals.daily_seed("2026-11-23", "slide") != deals.daily_seed("2026-11-24", "slide")
    assert deals.daily_seed("2026-11-23", "slide") != deals.daily_seed("2026-11-23", "link")

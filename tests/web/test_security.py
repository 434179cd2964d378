"""The deal is the server's secret: no client can choose or learn it, whatever it sends."""

from __future__ import annotations

import json
import tomllib
from typing import Any

import pytest

pytest.importorskip("fastapi")

from tienlen import Rules, Session

from .conftest import Server, WsClient


def two_players(server: Server, **extra: Any) -> tuple[dict[str, Any], WsClient, WsClient]:
    made = server.browser().post("/api/tables", {"name": "Lan", "players": 2, **extra}).json()
    lan = server.ws(made["id"])
    lan.hello(made["token"])
    minh = server.browser().ws(made["id"])
    minh.hello()
    minh.send(type="join", name="Minh")
    minh.until(lambda m: m["type"] == "welcome" and m["seat"] == 1)
    return made, lan, minh


def dealt_hand(server: Server, **extra: Any) -> list[str]:
    _, lan, _ = two_players(server, **extra)
    lan.send(type="start")
    state = lan.until(lambda m: m["type"] == "state" and m["view"] is not None)
    return list(state["view"]["hand"])


@pytest.mark.parametrize("body", [
    {"seed": 12345},
    {"seed": 12345, "quick": False},
    {"seed": 0, "players": 2},
    {"seed": 12345, "private": True},
])
def test_a_table_where_a_second_player_can_sit_refuses_a_seed(server: Server,
                                                             body: dict[str, Any]) -> None:
    answer = server.browser().post("/api/tables", {"name": "Lan", **body})
    assert answer.status_code == 400
    assert "only the server knows the deal" in answer.json()["detail"]
    assert server.get("/healthz").json()["tables"] == 0


def test_no_message_can_carry_a_seed(server: Server) -> None:
    made, lan, minh = two_players(server)
    for command in ({"type": "start", "seed": 1}, {"type": "join", "name": "X", "seed": 1},
                    {"type": "next_hand", "version": 0, "seed": 1},
                    {"type": "hello", "seed": 1}, {"type": "add_bot", "rng": 1}):
        lan.send(**command)
        assert "unexpected field" in lan.error()["reason"]
    assert server.get(f"/api/tables/{made['id']}").json()["status"] == "open"
    del minh


def test_identical_requests_get_unrelated_deals_and_the_seed_is_never_shown(
        server: Server) -> None:
    hands = [dealt_hand(server) for _ in range(3)]
    assert len({" ".join(h) for h in hands}) == 3
    for table in server.get("/api/tables").json():
        assert table["seed"] is None
    # nor is the deal the one a guessable seed gives: not the table's number, not 0, 1, ...
    rules = Rules.preset("pagat")
    guesses = {" ".join(str(c) for c in Session(rules, 2, seed, names=["Lan", "Minh"])
                        .game.hand(0)) for seed in range(200)}
    assert not guesses & {" ".join(h) for h in hands}


def test_nothing_a_client_receives_names_a_seed(server: Server) -> None:
    made, lan, minh = two_players(server)
    lan.send(type="start")
    lan.until(lambda m: m["type"] == "state" and m["view"] is not None)
    minh.until(lambda m: m["type"] == "state" and m["view"] is not None)
    seen = json.dumps([*lan.received, *minh.received, made,
                       server.get(f"/api/tables/{made['id']}").json()])
    assert '"seed": null' in seen or '"seed":null' in seen
    for message in [*lan.received, *minh.received]:
        if message["type"] == "state":
            assert message["info"]["seed"] is None


def test_a_practice_table_shows_its_fixed_seed_and_keeps_it_in_the_record(
        server: Server) -> None:
    made = server.post("/api/tables", {"name": "Lan", "quick": True, "seed": 77,
                                       "players": 3, "away_timeout": 0}).json()
    assert made["info"]["seed"] == 77
    watcher = server.ws(made["id"])  # Lan stays away: a bot plays the seat to the hand's end
    if watcher.hello()["info"]["records"] < 1:
        watcher.until(lambda m: m["type"] == "state" and m["info"]["records"] >= 1)
    record = server.get(f"/api/tables/{made['id']}/records/1").text
    assert record.startswith("# practice table") and "fixed seed 77" in record
    expected = Session(Rules.preset("pagat"), 3, 77, names=["Lan", "Bot 1", "Bot 2"])
    assert tomllib.loads(record)["hands"][0]["dealt"] == \
        tomllib.loads(expected.game.record())["hands"][0]["dealt"]

"""The next hand waits for every player at the table: each asks, the others keep the results
until the last has asked or the table's countdown runs out; a restart keeps the asks."""

from __future__ import annotations

import time
from typing import Any

import pytest

pytest.importorskip("fastapi")

from .conftest import Server, WsClient
from .test_fair_seats import grace_over
from .waiting import stored


def two_players(server: Server, **options: Any) -> tuple[str, WsClient, WsClient]:
    """Lan (the host, seat 0) and Minh (seat 1) at a 2-seat table, started."""
    made = server.browser().post("/api/tables", {"name": "Lan", "players": 2,
                                                 "away_timeout": 3600, **options}).json()
    lan = server.ws(made["id"])
    lan.hello(made["token"])
    lan.token = made["token"]
    minh = server.browser().ws(made["id"])
    minh.hello()
    minh.send(type="join", name="Minh")
    minh.until(lambda m: m["type"] == "welcome" and m["seat"] == 1)
    lan.send(type="start")
    return made["id"], lan, minh


def at_version(client: WsClient, version: int) -> dict[str, Any]:
    state = client.state
    if state is None or state["version"] < version:
        state = client.until(lambda m: m["type"] == "state" and m["version"] >= version)
    assert state["version"] == version, "only the players move this table"
    return state


def play_out(lan: WsClient, minh: WsClient) -> int:
    """Both players play their first legal move each turn until the hand ends; its version."""
    version = lan.until(lambda m: m["type"] == "state" and m["view"] is not None)["version"]
    while True:
        states = [(c, at_version(c, version)) for c in (lan, minh)]
        if states[0][1]["view"]["is_over"]:
            assert states[1][1]["view"]["is_over"]
            return version
        mover, state = next((c, s) for c, s in states if s["view"]["legal"] and
                            s["view"]["turn"] in (c.seat, None))
        mover.send(type="play", version=version, move=state["view"]["legal"][0])
        version += 1


def ask(client: WsClient, version: int) -> dict[str, Any]:
    """Ask for the next hand; the state that follows."""
    client.send(type="next_hand", version=version)
    return client.until(lambda m: m["type"] in ("state", "error") and
                        (m["type"] == "error" or m["version"] > version))


def test_the_next_hand_waits_until_both_players_have_asked(server: Server) -> None:
    table_id, lan, minh = two_players(server, next_hand_after=0)
    over = play_out(lan, minh)
    lan.send(type="next_hand", version=over - 1)  # before the hand ended: stale
    assert lan.error()["code"] == "stale"
    asked = ask(lan, over)
    assert asked["type"] == "state"
    assert asked["info"]["ready"] == [0] and asked["info"]["next_hand_at"] is None
    assert asked["view"]["is_over"] and asked["info"]["hand_no"] == 1  # not dealt
    # Minh still has the results in front of him, and sees that Lan is ready
    seen = minh.until(lambda m: m["type"] == "state" and m["version"] == over + 1)
    assert seen["view"]["is_over"] and seen["view"]["revealed"] is not None
    assert seen["info"]["ready"] == [0]
    # asking twice is refused and stores nothing
    rows = stored(server)
    lan.send(type="next_hand", version=over + 1)
    assert lan.error()["reason"] == "you have already asked for the next hand: waiting for the others"
    assert stored(server) == rows
    # Minh asks from the state he saw when the hand ended: not stale, the last ask deals
    dealt = ask(minh, over)
    assert dealt["type"] == "state" and dealt["info"]["hand_no"] == 2
    assert not dealt["view"]["is_over"] and dealt["info"]["ready"] == []
    assert lan.until(lambda m: m["type"] == "state" and m["info"]["hand_no"] == 2)
    assert server.get(f"/api/tables/{table_id}").json()["hand_no"] == 2


def test_the_countdown_deals_the_next_hand_by_itself(server: Server) -> None:
    table_id, lan, minh = two_players(server, next_hand_after=1)
    over = play_out(lan, minh)
    asked_at = time.time()
    asked = ask(lan, over)
    assert asked["info"]["ready"] == [0] and asked["info"]["hand_no"] == 1
    deadline = asked["info"]["next_hand_at"]
    assert asked_at - 0.5 <= deadline - 1 <= time.time() + 0.5
    # nobody else asks: the table deals when the countdown runs out
    dealt = minh.until(lambda m: m["type"] == "state" and m["info"]["hand_no"] == 2, timeout=30)
    assert dealt["at"] >= deadline - 0.05 and not dealt["view"]["is_over"]
    assert dealt["info"]["ready"] == [] and dealt["info"]["next_hand_at"] is None
    assert server.get(f"/api/tables/{table_id}").json()["next_hand_after"] == 1


def test_a_restart_keeps_the_asks_and_the_countdown(server: Server) -> None:
    table_id, lan, minh = two_players(server, next_hand_after=600)
    over = play_out(lan, minh)
    asked = ask(lan, over)
    deadline = asked["info"]["next_hand_at"]
    assert asked["info"]["ready"] == [0] and deadline is not None
    tokens = lan.token, minh.token
    server.restart()
    lan, minh = server.ws(table_id), server.ws(table_id)
    lan.hello(tokens[0])
    back = minh.hello(tokens[1])
    assert back["view"]["is_over"] and back["info"]["hand_no"] == 1
    assert back["info"]["ready"] == [0] and back["info"]["next_hand_at"] == deadline
    lan.send(type="next_hand", version=back["version"])
    assert "already asked" in lan.error()["reason"]
    dealt = ask(minh, back["version"])
    assert dealt["info"]["hand_no"] == 2 and not dealt["view"]["is_over"]


def test_a_player_away_long_enough_is_not_waited_for(server: Server) -> None:
    table_id, lan, minh = two_players(server, next_hand_after=0, away_timeout=3)
    over = play_out(lan, minh)
    minh.close()
    lan.until(lambda m: m["type"] == "state" and not m["info"]["seats"][1]["connected"])
    asked = ask(lan, over)
    assert asked["info"]["ready"] == [0] and asked["info"]["hand_no"] == 1
    grace_over(server, table_id, 1)  # a rated table's grace (40 s at least) runs out
    # once a bot plays for Minh, only Lan was waited for: dealt
    dealt = lan.until(lambda m: m["type"] == "state" and m["info"]["hand_no"] == 2, timeout=30)
    assert dealt["info"]["seats"][1]["bot_playing"]

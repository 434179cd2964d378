"""A player who leaves: the seat waits for the table's timeout, a bot plays for it, the player returns."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("fastapi")

from .conftest import Server, WsClient
from .test_persistence import wait_turn


def seated_at_my_turn(server: Server, **options: Any) -> tuple[dict[str, Any], WsClient,
                                                                dict[str, Any]]:
    """A quick table made by Lan (seat 0) with these options: the table as made, Lan's
    connection, and the state when Lan's turn has come."""
    made = server.post("/api/tables", {"quick": True, "name": "Lan", "seed": 4, **options}).json()
    me = server.ws(made["id"])
    me.hello(made["token"])
    state = wait_turn(me)
    if state["view"]["is_over"]:  # bots played the whole hand before the player connected
        me.send(type="next_hand", version=state["version"])
        me.until(lambda m: m["type"] == "state" and not m["view"]["is_over"])
        state = wait_turn(me)
    return made, me, state


def seat0_moves(state: dict[str, Any]) -> int:
    return sum(1 for event in state["view"]["events"] if event["seat"] == 0)


def test_a_bot_plays_for_an_absent_player_until_they_return(server: Server) -> None:
    made, me, before = seated_at_my_turn(server, away_timeout=0)
    assert not before["info"]["seats"][0]["bot_playing"]
    me.close()
    watcher = server.ws(made["id"])
    first = watcher.hello()

    def played_for(m: dict[str, Any]) -> bool:
        return m["type"] == "state" and (seat0_moves(m) > seat0_moves(before) or m["view"]["is_over"])

    # the seat's turn comes and goes without its player: a bot played it (the bots may even
    # have finished the hand by the time the watcher looks)
    later = first if played_for(first) else watcher.until(played_for)
    assert later["version"] > before["version"]
    assert later["info"]["seats"][0]["bot_playing"] or later["view"]["is_over"]
    assert not later["info"]["seats"][0]["connected"]
    # back again: the seat is the player's, and the table waits for them
    back = server.ws(made["id"])
    state = back.hello(made["token"])
    assert state["info"]["seats"][0]["connected"] and not state["info"]["seats"][0]["bot_playing"]
    if state["view"]["is_over"]:
        back.send(type="next_hand", version=state["version"])
    mine = back.until(lambda m: m["type"] == "state" and m["view"]["turn"] == 0) \
        if state["view"]["turn"] != 0 else state
    assert mine["view"]["legal"]
    back.send(type="play", version=mine["version"], move=mine["view"]["legal"][0])
    back.until(lambda m: m["type"] == "state" and m["version"] > mine["version"])
    events = back.state["view"]["events"]  # type: ignore[index]
    assert (0, mine["view"]["legal"][0]) in [(e["seat"], e.get("cards") or e["kind"])
                                             for e in events]


def test_a_table_with_a_turn_timer_lets_a_bot_move_for_a_slow_player(server: Server) -> None:
    _, me, before = seated_at_my_turn(server, turn_timer=0.05)
    after = me.until(lambda m: m["type"] == "state" and seat0_moves(m) > seat0_moves(before))
    assert after["info"]["turn_timer"] == 0.05
    assert after["info"]["seats"][0]["connected"]


def test_a_player_who_waits_keeps_the_seat(server: Server) -> None:
    made, me, before = seated_at_my_turn(server)
    me.close()
    back = server.ws(made["id"])
    state = back.hello(made["token"])
    assert state["version"] == before["version"] and state["view"]["hand"] == before["view"]["hand"]

"""Other hands never leave the server: every message a seat or a spectator gets, over a whole hand."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

pytest.importorskip("fastapi")

from tienlen import Game

from .conftest import Server, WsClient

CARD = re.compile(r"(?<![A-Za-z0-9])[2-9TJQKA][scdh](?![A-Za-z0-9])")


def cards_in(obj: Any) -> set[str]:
    return set(CARD.findall(json.dumps(obj)))


def seat_four(server: Server, rules: str = "pagat") -> tuple[str, list[WsClient]]:
    made = server.browser().post("/api/tables", {"name": "P0", "rules": rules}).json()
    first = server.ws(made["id"])
    first.hello(made["token"])
    clients = [first]
    for k in range(1, 4):
        c = server.browser().ws(made["id"])
        c.hello()
        c.send(type="join", name=f"P{k}")
        c.until(lambda m: m["type"] == "welcome")
        clients.append(c)
    return made["id"], clients


def settle(clients: list[WsClient], version: int) -> None:
    for c in clients:
        if c.state is None or c.state["version"] < version:
            c.until(lambda m, v=version: m["type"] == "state" and m["version"] >= v)


@pytest.mark.parametrize("rules", ["pagat", "viet-cong"])
def test_no_seat_and_no_spectator_ever_sees_another_hand(server: Server, rules: str) -> None:
    table_id, players = seat_four(server, rules)
    watcher = server.ws(table_id)
    watcher.hello()
    players[0].send(type="start")
    everyone = [*players, watcher]
    state = players[0].until(lambda m: m["type"] == "state" and m["view"] is not None)
    settle(everyone, state["version"])
    while not players[0].state["view"]["is_over"]:  # type: ignore[index]
        version = players[0].state["version"]  # type: ignore[index]
        turn = players[0].state["view"]["turn"]  # type: ignore[index]
        actor = players[turn]
        view = actor.state["view"]  # type: ignore[index]
        assert view["legal"], "the seat on turn is told its legal actions"
        actor.send(type="play", version=version, move=view["legal"][0])
        settle(everyone, version + 1)
    record = server.get(f"/api/tables/{table_id}/records/1").text
    game = Game.from_record(record)
    dealt = [set(h.split()) for h in _dealt(record)]
    assert game.is_over
    for seat, client in enumerate([*players, watcher]):
        own = dealt[seat] if seat < 4 else set()
        states = [m for m in client.received if m["type"] == "state" and m["view"] is not None]
        assert states
        for msg in states:
            view = msg["view"]
            if view["is_over"]:
                continue
            leaked = cards_in(msg) - own - public_in(view)
            assert not leaked, f"seat {seat} was shown {leaked} before the hand ended"
            if seat < 4:
                assert set(view["hand"]) <= own
            else:
                assert view["hand"] == [] and view["legal"] == []
        for other in range(4):
            if other != seat:
                hidden_until_end = dealt[other] - {c for s, m in game.history if s == other
                                                   for c in str(m).split()}
                early = [m for m in states if not m["view"]["is_over"]]
                assert not any(cards_in(m) & hidden_until_end for m in early)


def public_in(view: dict[str, Any]) -> set[str]:
    """The cards a view shows everyone: those played (the history's), the play to beat."""
    public = {c for e in view["events"] if e["kind"] == "play" for c in e["cards"].split()}
    return public | set(view["table"].split() if view["table"] else ())


@pytest.mark.parametrize("rules", ["pagat", "viet-cong"])
def test_after_the_first_state_a_seat_is_sent_deltas_of_what_it_may_know(
        server: Server, rules: str) -> None:
    """Every change after the first state is a delta, and a delta holds no card the seat may
    not see: what it adds is the seat's own state's (the applied delta is checked above too)."""
    table_id, players = seat_four(server, rules)
    watcher = server.ws(table_id)
    watcher.hello()
    players[0].send(type="start")
    state = players[0].until(lambda m: m["type"] == "state" and m["view"] is not None)
    everyone = [*players, watcher]
    settle(everyone, state["version"])
    while not players[0].state["view"]["is_over"]:  # type: ignore[index]
        version = players[0].state["version"]  # type: ignore[index]
        actor = players[players[0].state["view"]["turn"]]  # type: ignore[index]
        actor.send(type="play", version=version, move=actor.state["view"]["legal"][0])  # type: ignore[index]
        settle(everyone, version + 1)
    dealt = [set(h.split()) for h in _dealt(server.get(f"/api/tables/{table_id}/records/1").text)]
    for seat, client in enumerate(everyone):
        own = dealt[seat] if seat < 4 else set()
        dealt_at = next(i for i, m in enumerate(client.received)
                        if m["type"] == "state" and m["view"] is not None)
        after = list(zip(client.wire, client.received, strict=True))[dealt_at + 1:]
        sent = [wire for wire, _ in after if wire["type"] in ("state", "delta")]
        assert sent and all(wire["type"] == "delta" for wire in sent), \
            f"seat {seat} was sent whole states during the hand"
        assert any("view" in wire for wire in sent)
        for wire, held in after:
            if wire["type"] == "delta" and not held["view"]["is_over"]:
                leaked = cards_in(wire) - own - public_in(held["view"])
                assert not leaked, f"a delta showed seat {seat} {leaked}"


def _dealt(record: str) -> list[str]:
    import tomllib

    return list(tomllib.loads(record)["hands"][0]["dealt"])

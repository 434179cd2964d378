"""A room of many processes (``tienlen serve --redis``): servers on one PostgreSQL and one Redis,
each serving the tables it holds the lease of, every connection served wherever it lands.

Each ``Server`` here is one process of the room (its own app, lobby, leases, bus); they run in
this test's process, on their own event loops."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import httpx
import pytest

from tienlen import TienLenError
from tienlen.web.app import create_app

from .conftest import NO_CLIENT_LIMITS, Server, WsClient
from .waiting import poll


def test_a_room_of_many_processes_is_refused_on_sqlite(sqlite_url: str) -> None:
    with pytest.raises(TienLenError, match="PostgreSQL"):
        create_app(sqlite_url, redis_url="redis://127.0.0.1:1/0")


def two_processes(pg_url: str, redis_url: str, redis_prefix: str,
                  **options: Any) -> Iterator[tuple[Server, Server]]:
    """Two processes of one room (``Server`` ``options`` given to both), on the database at
    ``pg_url`` and the test Redis under the test's own prefix (its keys and channels: no other
    test's room is seen)."""
    options.setdefault("limits", NO_CLIENT_LIMITS)
    servers = [Server(pg_url, redis_url=redis_url, redis_prefix=redis_prefix, **options)
               for _ in range(2)]
    for s in servers:
        s.start()
    try:
        yield servers[0], servers[1]
    finally:
        for s in servers:
            s.stop()


@pytest.fixture
def room_of_two(one_database: str, redis_url: str,
                redis_prefix: str) -> Iterator[tuple[Server, Server]]:
    """Two processes of one room."""
    yield from two_processes(one_database, redis_url, redis_prefix)


def served_by(server: Server, table_id: str) -> bool:
    return server.app.state.lobby.get(table_id) is not None


def play_out(ws: WsClient, state: dict[str, Any]) -> dict[str, Any]:
    """``ws`` plays its first legal move each turn until the hand ends; the last state."""
    while not state["view"]["is_over"]:
        view = state["view"]
        if view["turn"] == ws.seat and view["legal"]:
            ws.send(type="play", version=state["version"], move=view["legal"][0])
        state = ws.until(lambda m, v=state["version"]: m["type"] == "state" and m["version"] > v)
    return state


def test_a_player_on_one_process_plays_a_whole_hand_at_a_table_another_serves(
        room_of_two: tuple[Server, Server]) -> None:
    a, b = room_of_two
    made = a.post("/api/tables", {"name": "Lan", "players": 2, "quick": True, "seed": 3,
                                  "options": "stake = 2"}).json()
    table_id = made["id"]
    assert served_by(a, table_id) and not served_by(b, table_id)
    lan = b.ws(table_id)  # B holds the connection; A serves the table
    state = lan.hello(token=made["token"])
    assert lan.seat == 0 and state["view"]["hand"]  # her own hand, from A through B
    watcher = b.ws(table_id)
    watched = watcher.hello()
    assert watcher.seat is None and watched["view"].get("hand") in (None, [])
    end = play_out(lan, state)
    assert end["view"]["is_over"]
    assert not served_by(b, table_id)  # all of it served by A
    records = a.get(f"/api/tables/{table_id}/records").json()
    assert len(records) >= 1  # the hand's record, stored by its owner
    # the watcher on B saw the same end, by the same numbers
    seen = watcher.until(lambda m: m["type"] == "state" and m["version"] == end["version"])
    assert seen["view"]["is_over"]
    lan.close()
    watcher.close()


def test_a_table_handed_over_is_served_by_the_other_process_and_its_pages_come_back(
        room_of_two: tuple[Server, Server]) -> None:
    a, b = room_of_two
    made = b.post("/api/tables", {"name": "Lan", "players": 2, "quick": True, "seed": 3,
                                  "options": "stake = 2"}).json()
    table_id = made["id"]
    lan = a.ws(table_id)
    state = lan.hello(token=made["token"])
    version = state["version"]
    b.stop()  # B stops: it hands its tables over; the page's socket is closed to come back
    with pytest.raises(Exception):  # noqa: B017 - the connection ends, as a page sees it
        lan.until(lambda m: False, timeout=15)
    again = a.ws(table_id)  # the page connects again (through a proxy: anywhere)
    back = again.hello(token=made["token"])
    assert again.seat == 0 and back["version"] >= version
    assert served_by(a, table_id)
    again.close()
    b.start()  # (stopped by the fixture)


def test_a_session_ended_on_one_process_closes_its_sockets_on_the_other(
        room_of_two: tuple[Server, Server]) -> None:
    a, b = room_of_two
    lan = b.browser()
    lan.visit("/")
    made = lan.post("/api/tables", {"name": "Lan", "players": 2, "quick": True, "seed": 3}).json()
    ws = lan.ws(made["id"])
    ws.hello()
    # the same browser signs out through A (another request through the proxy)
    signed_out = a.browser()
    signed_out.http.cookies.update(lan.http.cookies)
    assert signed_out.post("/api/account/signout").status_code == 200
    with pytest.raises(Exception):  # noqa: B017 - closed by B, told by A
        ws.until(lambda m: False, timeout=15)
    assert ws.conn.close_code == 4401


def test_the_room_has_one_leader(room_of_two: tuple[Server, Server]) -> None:
    a, b = room_of_two
    clusters = [s.app.state.services.cluster for s in (a, b)]
    poll(lambda: sum(c.leader for c in clusters), lambda n: n == 1, timeout=20)
    # each says its role and that its Redis and database answer
    health = [s.get("/healthz").json() for s in (a, b)]
    assert sorted(h["role"] for h in health) == ["follower", "leader"]
    assert all(h["redis"] == {"ok": True} and h["database"]["ok"] for h in health)


def test_the_tables_a_player_hosts_are_counted_across_the_processes(
        one_database: str, redis_url: str, redis_prefix: str) -> None:
    """One table at a time for a player (``--tables-per-client 1``): hosting one on A, she is
    refused another on B; the room's whole count (``--max-tables``) is the room's too."""
    url = one_database
    limits = replace(NO_CLIENT_LIMITS, tables_per_client=1, max_tables=2)
    servers = [Server(url, limits=limits, redis_url=redis_url, redis_prefix=redis_prefix)
               for _ in range(2)]
    for s in servers:
        s.start()
    try:
        a, b = servers
        lan = {"X-Tienlen-Player": "lan-" + "k" * 30}
        minh = {"X-Tienlen-Player": "minh-" + "k" * 30}
        body = {"name": "Lan", "options": "stake = 2"}
        assert httpx.post(a.base + "/api/tables", json=body, headers=lan).status_code == 200
        refused = httpx.post(b.base + "/api/tables", json=body, headers=lan)
        assert refused.status_code == 429 and "1" in refused.json()["detail"]
        assert httpx.post(b.base + "/api/tables", json=body, headers=minh).status_code == 200
        full = httpx.post(a.base + "/api/tables", json=body,
                          headers={"X-Tienlen-Player": "hoa-" + "k" * 30})
        assert full.status_code == 429  # two tables in the room: full, whichever process
    finally:
        for s in servers:
            s.stop()


def test_two_strangers_on_different_processes_are_quick_matched_together(
        room_of_two: tuple[Server, Server]) -> None:
    """Lan asks for a game of two on A, Minh on B: the room's one matchmaker (its leader) seats
    them at one table, and each plays there through the process their browser reached."""
    a, b = room_of_two
    lan, minh = a.browser(), b.browser()
    for who, name in ((lan, "Lan"), (minh, "Minh")):
        assert who.post("/api/quickmatch", {"family": "southern", "players": 2,
                                            "name": name}).status_code == 200
    found = [poll(lambda who=who: who.get("/api/quickmatch").json(),
                  lambda s: s["state"] == "matched", timeout=30) for who in (lan, minh)]
    assert found[0]["table"] == found[1]["table"] and found[0]["seat"] != found[1]["seat"]
    table_id = found[0]["table"]
    seats = set()
    for who in (lan, minh):  # each through its own process, whichever serves the table
        ws = who.ws(table_id)
        state = ws.hello()
        seats.add(ws.seat)
        assert state["view"]["hand"]  # dealt: their own cards
        ws.close()
    assert seats == {found[0]["seat"], found[1]["seat"]}

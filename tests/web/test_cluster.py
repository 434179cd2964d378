"""A room of many processes (``tienlen serve --redis``): servers on one PostgreSQL and one Redis,
each serving the tables it holds the lease of, every connection served wherever it lands.

Each ``Server`` here is one process of the room (its own app, lobby, leases, bus); they run in
this test's process, on their own event loops."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest
import redis

from tienlen import TienLenError
from tienlen.web.app import create_app
from tienlen.web.schema import drop_everything, open_repository

from .conftest import IN_CI, NO_CLIENT_LIMITS, PG_URL, Server, WsClient
from .waiting import poll

REDIS_URL = os.environ.get("TIENLEN_TEST_REDIS_URL")


def worker_redis(url: str, worker: str | None) -> str:
    """The Redis database at ``url`` for one pytest-xdist worker (``gw0``: the next database
    number, ...), emptied: workers never see one another's keys (a room's leader, its
    directory of tables); ``url`` itself when the tests run in one process. (Pub/sub is not
    per database: the processes' channels are named after them, unique.)"""
    parts = urlsplit(url)
    base = int(parts.path.strip("/") or 0)
    number = (base + 1 + int(worker.removeprefix("gw"))) % 16 if worker else base
    chosen = urlunsplit(parts._replace(path=f"/{number}"))
    client = redis.Redis.from_url(chosen)
    try:
        client.flushdb()
    finally:
        client.close()
    return chosen


def two_processes(pg_url: str, **options: Any) -> Iterator[tuple[Server, Server]]:
    """Two processes of one room (``Server`` ``options`` given to both), on this worker's
    PostgreSQL database and Redis database, emptied."""
    if not REDIS_URL and not IN_CI:
        pytest.skip("no Redis: scripts/test.sh starts one (TIENLEN_TEST_REDIS_URL)")
    if not PG_URL and not IN_CI:
        pytest.skip("no PostgreSQL: scripts/test.sh starts one (TIENLEN_TEST_PG_URL)")
    assert REDIS_URL, "no Redis: scripts/test.sh starts one (TIENLEN_TEST_REDIS_URL)"
    repo = open_repository(pg_url)
    drop_everything(repo.engine)
    repo.close()
    url = worker_redis(REDIS_URL, os.environ.get("PYTEST_XDIST_WORKER"))
    options.setdefault("limits", NO_CLIENT_LIMITS)
    servers = [Server(pg_url, redis_url=url, **options) for _ in range(2)]
    for s in servers:
        s.start()
    try:
        yield servers[0], servers[1]
    finally:
        for s in servers:
            s.stop()



def test_a_room_of_many_processes_is_refused_on_sqlite(sqlite_url: str) -> None:
    with pytest.raises(TienLenError, match="PostgreSQL"):
        create_app(sqlite_url, redis_url="redis://127.0.0.1:1/0")


@pytest.fixture
def room_of_two(pg_url: str) -> Iterator[tuple[Server, Server]]:
    """Two processes of one room, on this worker's PostgreSQL and Redis databases emptied."""
    yield from two_processes(pg_url)


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

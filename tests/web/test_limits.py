"""Bounded resources: per-client limits answered with "too many requests" (never a silent drop),
idle tables that close (their records stay), bots-only tables that pause when nobody watches."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

pytest.importorskip("fastapi")

from tienlen.web.limits import Limits, RateLimit
from tienlen.web.storage import Repository

from .conftest import NO_CLIENT_LIMITS, UNRATED, Server, running
from .waiting import poll, stored


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@contextlib.contextmanager
def limited(sqlite_url: str, clock: Clock, **limits: Any) -> Iterator[Server]:
    """A server with these per-client limits, counting time by ``clock``."""
    yield from running(sqlite_url, limits=replace(NO_CLIENT_LIMITS, **limits), clock=clock)




def test_the_token_bucket_allows_bursts_then_says_how_long_to_wait(clock: Clock) -> None:
    bucket = RateLimit(3, 60.0, clock)
    assert [bucket.take("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert bucket.take("a") == pytest.approx(20.0)
    assert bucket.take("b") == 0.0  # another client is counted apart
    clock.now += 20
    assert bucket.take("a") == 0.0
    assert RateLimit(0, 1.0, clock).take("a") == 0.0  # 0: no limit


def test_creating_too_many_tables_a_minute_is_answered_429(sqlite_url: str,
                                                           clock: Clock) -> None:
    with limited(sqlite_url, clock, creates_per_minute=2) as server:
        assert server.post("/api/tables", {"name": "Lan", **UNRATED}).status_code == 200
        assert server.post("/api/tables", {"name": "Lan", **UNRATED}).status_code == 200
        before = stored(server)
        answer = server.post("/api/tables", {"name": "Lan", **UNRATED})
        assert answer.status_code == 429
        assert "too many requests" in answer.json()["detail"]
        assert "2 new tables a minute" in answer.json()["detail"]
        assert int(answer.headers["retry-after"]) >= 1
        assert stored(server) == before and server.get("/healthz").json()["tables"] == 2
        clock.now += 30  # half a minute: one more
        assert server.post("/api/tables", {"name": "Lan", **UNRATED}).status_code == 200


def test_one_client_cannot_hold_more_than_its_share_of_tables(sqlite_url: str,
                                                              clock: Clock) -> None:
    with limited(sqlite_url, clock, tables_per_client=2) as server:
        ids = [server.post("/api/tables", {"name": "Lan", **UNRATED}).json()["id"] for _ in range(2)]
        answer = server.post("/api/tables", {"name": "Lan", **UNRATED})
        assert answer.status_code == 429 and "2 open tables" in answer.json()["detail"]
        # once one of them closes (idle), another may be made
        lobby = server.app.state.lobby
        later = time.monotonic() + server.limits.idle_expiry + 1
        assert sorted(server.call(lambda: lobby.expire_idle(later))) == sorted(ids)
        assert server.post("/api/tables", {"name": "Lan", **UNRATED}).status_code == 200


def test_a_full_server_refuses_with_429_until_idle_tables_close(sqlite_url: str,
                                                                clock: Clock) -> None:
    with limited(sqlite_url, clock, max_tables=2) as server:
        first = server.post("/api/tables", {"name": "Lan", **UNRATED}).json()
        second = server.post("/api/tables", {"name": "Minh", **UNRATED}).json()
        me = server.ws(second["id"])
        me.hello(second["token"])
        full = server.post("/api/tables", {"name": "Hoa", **UNRATED})
        assert full.status_code == 429 and "as many tables as it can" in full.json()["detail"]
        lobby = server.app.state.lobby
        later = time.monotonic() + server.limits.idle_expiry + 1
        assert server.call(lambda: lobby.expire_idle(later)) == [first["id"]]  # not Minh's
        assert server.post("/api/tables", {"name": "Hoa", **UNRATED}).status_code == 200


def test_an_idle_table_closes_and_its_finished_hands_stay_downloadable(server: Server) -> None:
    made = server.post("/api/tables", {"quick": True, "players": 3}).json()
    table_id = made["id"]
    poll(lambda: server.get(f"/api/tables/{table_id}").json(), lambda t: t["records"] >= 1)
    lobby = server.app.state.lobby
    later = time.monotonic() + server.limits.idle_expiry + 1
    assert server.call(lambda: lobby.expire_idle(later)) == [table_id]
    gone = server.get(f"/api/tables/{table_id}")
    assert gone.status_code == 410 and "closed" in gone.json()["detail"]
    assert table_id not in [t["id"] for t in server.get("/api/tables").json()]
    assert server.get(f"/t/{table_id}").status_code == 404
    listing = server.get(f"/api/tables/{table_id}/records").json()
    assert [r["hand"] for r in listing] == [1]
    repo = Repository(server.db_url)  # only what rebuilding the table needed is gone
    rows = repo.count_rows()
    repo.close()
    assert rows["tienlen_log"] == rows["tienlen_seats"] == rows["tienlen_snapshots"] == 0
    assert rows["tienlen_records"] == 1 and rows["tienlen_tables"] == 1
    assert "[[hands]]" in server.get(listing[0]["url"]).text
    assert server.get(f"/api/tables/{table_id}/record.toml").status_code == 200
    error = server.ws(table_id).recv()
    assert error["code"] == "not_found" and "closed" in error["reason"]
    server.restart()  # a closed table is not rebuilt
    assert server.get(f"/api/tables/{table_id}").status_code == 410
    assert server.get("/healthz").json()["tables"] == 0


def test_too_many_messages_are_each_answered_rate_limited(sqlite_url: str,
                                                          clock: Clock) -> None:
    with limited(sqlite_url, clock, messages_per_second=3) as server:
        made = server.post("/api/tables", {"name": "Lan", **UNRATED, "players": 3}).json()
        me = server.ws(made["id"])
        me.hello(made["token"])  # 1 message
        sent = [me.send(type="ping") for _ in range(2)] + [me.send(type="add_bot")] + \
            [me.send(type="ping") for _ in range(3)]
        answers = [me.until(lambda m: m["type"] in ("pong", "error")) for _ in range(6)]
        assert [a["type"] for a in answers] == ["pong", "pong"] + ["error"] * 4
        assert [a["ref"] for a in answers] == sent  # every message is answered, none dropped
        for error in answers[2:]:
            assert error["code"] == "rate_limited" and "too many requests" in error["reason"]
        # the add_bot was refused, and so not carried out
        assert server.get(f"/api/tables/{made['id']}").json()["seats"][1]["kind"] == "empty"
        clock.now += 1  # a second later the client may act again
        me.send(type="add_bot")
        me.until(lambda m: m["type"] == "state" and m["info"]["seats"][1]["kind"] == "bot")


def test_too_many_connections_from_one_client_are_refused(sqlite_url: str, clock: Clock) -> None:
    with limited(sqlite_url, clock, connections_per_address=2) as server:
        made = server.post("/api/tables", {"name": "Lan", **UNRATED}).json()
        first, second = server.ws(made["id"]), server.ws(made["id"])
        first.hello()
        second.hello()
        third = server.ws(made["id"])
        refusal = json.loads(third.conn.recv(10))
        assert refusal["code"] == "rate_limited" and "too many connections" in refusal["reason"]
        first.close()
        poll(lambda: server.get("/healthz").json()["connections"], lambda n: n == 1)
        assert server.ws(made["id"]).hello()["type"] == "state"


def test_a_bots_only_table_pauses_unwatched_and_resumes_when_watched(server: Server) -> None:
    made = server.post("/api/tables", {"quick": True, "players": 3}).json()
    table_id = made["id"]
    info = poll(lambda: server.get(f"/api/tables/{table_id}").json(), lambda t: t["records"] >= 1)
    assert info["paused"] and info["hand_no"] == 1
    room = server.app.state.lobby.get(table_id)
    assert server.call(lambda: not room.clock.armed)  # nothing is arranged: no hand is dealt
    watcher = server.ws(table_id)
    watcher.hello()
    dealt = watcher.until(lambda m: m["type"] == "state" and m["info"]["hand_no"] == 2)
    assert not dealt["info"]["paused"]
    watcher.close()
    info = poll(lambda: server.get(f"/api/tables/{table_id}").json(),
                lambda t: t["records"] >= 2 and t["paused"])
    assert info["hand_no"] == 2


def test_default_limits_are_stated() -> None:
    limits = Limits()
    assert limits.creates_per_minute > 0 and limits.messages_per_second > 0
    assert limits.idle_expiry > 0 and limits.tables_per_client > 0


def test_the_server_closes_idle_tables_by_itself(sqlite_url: str, clock: Clock) -> None:
    with limited(sqlite_url, clock, idle_expiry=0.2, sweep_every=0.1) as server:
        made = server.post("/api/tables", {"name": "Lan", **UNRATED}).json()
        poll(lambda: server.get(f"/api/tables/{made['id']}").status_code, lambda s: s == 410)
        assert server.get("/healthz").json()["tables"] == 0

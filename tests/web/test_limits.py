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

from tienlen.web.limits import Held, Limits, Rate, RateLimit, Rates
from tienlen.web.schema import open_repository

from .conftest import NO_CLIENT_LIMITS, UNRATED, Server, Visitor, WsClient, running
from .manual_time import ManualTime, ServerTime
from .test_rated_hands import IN_PLAY  # no instant win ends its deals: a turn comes
from .waiting import poll, stored


@pytest.fixture
def clock() -> ManualTime:
    return ServerTime()  # the servers' rate limits, tables and sweeps run on it


@contextlib.contextmanager
def limited(sqlite_url: str, clock: ManualTime, **limits: Any) -> Iterator[Server]:
    """A server with these per-client limits, counting time by ``clock``."""
    yield from running(sqlite_url, limits=replace(NO_CLIENT_LIMITS, **limits), clock=clock)


@contextlib.contextmanager
def running_limited(sqlite_url: str, clock: ManualTime, **rates: Rate) -> Iterator[Server]:
    """A server with these actions' rates (limiter.py), counting time by ``clock``."""
    yield from running(sqlite_url, limits=rated(**rates), clock=clock)



def test_the_token_bucket_allows_bursts_then_says_how_long_to_wait(clock: ManualTime) -> None:
    bucket = RateLimit(3, 60.0, clock)
    assert [bucket.take("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert bucket.take("a") == pytest.approx(20.0)
    assert bucket.take("b") == 0.0  # another client is counted apart
    clock.now += 20
    assert bucket.take("a") == 0.0
    assert RateLimit(0, 1.0, clock).take("a") == 0.0  # 0: no limit


def test_creating_too_many_tables_a_minute_is_answered_429(sqlite_url: str,
                                                           clock: ManualTime) -> None:
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
                                                              clock: ManualTime) -> None:
    with limited(sqlite_url, clock, tables_per_client=2) as server:
        ids = [server.post("/api/tables", {"name": "Lan", **UNRATED}).json()["id"] for _ in range(2)]
        answer = server.post("/api/tables", {"name": "Lan", **UNRATED})
        assert answer.status_code == 429 and "2 open tables" in answer.json()["detail"]
        # once one of them closes (idle: at the first sweep past the idle expiry), another may
        server.advance(server.limits.idle_expiry + server.limits.sweep_every)
        assert [server.get(f"/api/tables/{i}").status_code for i in ids] == [410, 410]
        assert server.post("/api/tables", {"name": "Lan", **UNRATED}).status_code == 200


def test_a_full_server_refuses_with_429_until_idle_tables_close(sqlite_url: str,
                                                                clock: ManualTime) -> None:
    with limited(sqlite_url, clock, max_tables=2) as server:
        first = server.post("/api/tables", {"name": "Lan", **UNRATED}).json()
        second = server.post("/api/tables", {"name": "Minh", **UNRATED}).json()
        me = server.ws(second["id"])
        me.hello(second["token"])
        full = server.post("/api/tables", {"name": "Hoa", **UNRATED})
        assert full.status_code == 429 and "as many tables as it can" in full.json()["detail"]
        server.advance(server.limits.idle_expiry + server.limits.sweep_every)
        assert server.get(f"/api/tables/{first['id']}").status_code == 410
        assert server.get(f"/api/tables/{second['id']}").status_code == 200  # Minh is there
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
    repo = open_repository(server.db_url)  # only what rebuilding the table needed is gone
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
                                                          clock: ManualTime) -> None:
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


def test_what_a_key_holds_at_once_is_counted_by_one_counter() -> None:
    """Connections open, replays running, reviews being made: each key up to its limit, a
    refusal counting nothing, and what is given back free again."""
    held = Held(per_key=2)
    assert [held.take("a"), held.take("a"), held.take("a"), held.take("b")] == [
        True, True, False, True]
    assert held.full("a") and not held.full("b") and held.total == 3
    held.give("a")
    assert not held.full("a") and held.take("a") and held.total == 3
    for key in ("a", "a", "b"):
        held.give(key)
    assert held.total == 0 and Held(per_key=0).take("a")  # 0: no limit


def test_too_many_connections_from_one_client_are_refused(sqlite_url: str, clock: ManualTime) -> None:
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
    # the hand under way when the close is read is played out, and no other is dealt (the bots
    # play at once here: hand 2 may have ended, and hand 3 been dealt, before it was read)
    info = poll(lambda: server.get(f"/api/tables/{table_id}").json(),
                lambda t: t["paused"] and t["records"] == t["hand_no"] >= 2)
    assert server.call(lambda: not room.clock.armed)  # nothing is arranged: no hand is dealt
    assert server.get(f"/api/tables/{table_id}").json()["hand_no"] == info["hand_no"]


def test_default_limits_are_stated() -> None:
    limits = Limits()
    assert limits.creates_per_minute > 0 and limits.messages_per_second > 0
    assert limits.idle_expiry > 0 and limits.tables_per_client > 0


def test_the_server_closes_idle_tables_by_itself(sqlite_url: str, clock: ManualTime) -> None:
    with limited(sqlite_url, clock, idle_expiry=600.0) as server:  # a sweep a minute (default)
        made = server.post("/api/tables", {"name": "Lan", **UNRATED}).json()
        server.advance(server.limits.idle_expiry - 1)  # sweeps on the way: not idle long enough
        assert server.get(f"/api/tables/{made['id']}").status_code == 200
        server.advance(server.limits.sweep_every + 1)  # the next sweep closes it
        assert server.get(f"/api/tables/{made['id']}").status_code == 410
        assert server.get("/healthz").json()["tables"] == 0


# ---------------------------------------------------------------------- one limiter, per player
def rated(**rates: Rate) -> Limits:
    """The tests' limits with these actions' rates."""
    return replace(NO_CLIENT_LIMITS, rates=replace(Rates(), **rates))


def seated(server: Server, name: str,
           visitor: Visitor | None = None) -> tuple[Visitor, str, WsClient]:
    """A browser (a new one, or ``visitor``) that made a 2-seat table as ``name`` and sits at it
    with a greedy bot, started, its turn come."""
    if visitor is None:
        visitor = server.visitor()
        visitor.visit()
    made = visitor.post("/api/tables", {"name": name, "players": 2, "rules": IN_PLAY}).json()
    ws = visitor.ws(made["id"])
    ws.hello()
    ws.send(type="add_bot", level="greedy")
    ws.send(type="start")
    ws.until(lambda m: m["type"] == "state" and m["view"] is not None and m["view"]["turn"] == 0)
    return visitor, made["id"], ws


def test_friend_requests_are_limited_per_player_then_per_address(sqlite_url: str,
                                                                 clock: ManualTime) -> None:
    with running_limited(sqlite_url, clock, friend=Rate(4, 6, 600.0)) as server:
        lan, _, _ = seated(server, "Lan")
        minh, minh_table, _ = seated(server, "Minh")
        cycles = 0
        for _ in range(10):  # ask and withdraw, as fast as a script can
            asked = lan.post("/api/friends", {"table": minh_table, "seat": 0})
            if asked.status_code != 200:
                break
            cycles += 1
            assert lan.post(f"/api/friends/{asked.json()['id']}/remove").status_code == 200
        assert cycles == 2  # four actions: two asks, two withdrawals
        assert asked.status_code == 429 and int(asked.headers["Retry-After"]) >= 1
        assert asked.json()["code"] == "rate_limited"
        assert "too many friend requests and removals: at most 4 in 10 min" in asked.json()["detail"]
        assert minh.get("/api/friends").json() == []  # the refused ask reached nobody
        # another player behind the same address: two more, then the address's ceiling
        hoa, _, _ = seated(server, "Hoa")
        answers = [hoa.post("/api/friends", {"table": minh_table, "seat": 0}) for _ in range(3)]
        assert [a.status_code for a in answers] == [200, 200, 429]
        assert "too many requests from one address" in answers[-1].json()["detail"]
        clock.now += 600  # the span is over: asking again
        assert lan.post("/api/friends", {"table": minh_table, "seat": 0}).status_code == 200


def test_every_limited_route_answers_429_past_its_rate(sqlite_url: str, clock: ManualTime) -> None:
    one = Rate(1, 100, 60.0)
    with running_limited(sqlite_url, clock, friend=one, invite=one, report=one,
                         block=one) as server:
        lan, lan_table, _ = seated(server, "Lan")
        minh, minh_table, _ = seated(server, "Minh")
        handle = lan.post("/api/friends", {"table": minh_table, "seat": 0}).json()["id"]
        assert minh.post("/api/friends", {"table": lan_table, "seat": 0}).status_code == 200
        invite = {"friend": handle, "table": lan_table}
        report = {"table": minh_table, "seat": 0, "reason": "stalling"}
        block = {"table": minh_table, "seat": 0}
        for path, body in (("/api/invitations", invite), ("/api/reports", report),
                           ("/api/blocks", block)):
            assert lan.post(path, body).status_code == 200, path
            again = lan.post(path, body)
            assert again.status_code == 429 and again.json()["code"] == "rate_limited", path
            assert int(again.headers["Retry-After"]) >= 1
        assert len(minh.get("/api/invitations").json()) == 1  # the refused one reached nobody
        vi = lan.post("/api/reports", report, **{"Accept-Language": "vi"})
        assert vi.json()["detail"].startswith("quá nhiều báo cáo: tối đa 1 báo cáo trong 1 phút")


def test_hints_are_limited_per_player_over_all_their_tables(sqlite_url: str,
                                                            clock: ManualTime) -> None:
    with running_limited(sqlite_url, clock, hint=Rate(1, 100, 10.0)) as server:
        lan, _, at_first = seated(server, "Lan")
        _, _, at_second = seated(server, "Lan", lan)  # Lan's second table
        asked = at_first.send(type="hint")
        refused = at_second.send(type="hint")  # another table, the same player
        error = at_second.until(lambda m: m["type"] == "error" and m["ref"] == refused)
        assert error["code"] == "rate_limited"
        assert error["reason"].startswith("too many hints: at most 1 in 10 s at all your tables")
        assert not refused_at(at_first, asked)
        clock.now += 10
        again = at_second.send(type="hint")
        assert not refused_at(at_second, again)
        for ws, seq in ((at_first, asked), (at_second, again)):  # answered before the server stops

            def answer(m: dict[str, Any], seq: int = seq) -> bool:  # a hint, or a stale refusal
                return m["type"] in ("hint", "error") and m.get("ref") == seq

            if not any(answer(m) for m in ws.received):
                ws.until(answer, timeout=60)


def refused_at(ws: WsClient, seq: int) -> bool:
    """Whether the command ``seq`` was refused (a refusal comes before the pong of a ping sent
    after it; a hint itself is answered later, from the bot pool)."""
    ping = ws.send(type="ping")
    ws.until(lambda m: m["type"] == "pong" and m["ref"] == ping)
    return any(m["type"] == "error" and m.get("ref") == seq for m in ws.received)


def test_what_a_player_says_is_counted_over_all_their_tables(sqlite_url: str,
                                                             clock: ManualTime) -> None:
    with running_limited(sqlite_url, clock, say=Rate(2, 100, 10.0)) as server:
        lan, _, at_first = seated(server, "Lan")
        _, _, at_second = seated(server, "Lan", lan)
        for ws in (at_first, at_second):
            ws.send(type="react", emoji="🔥")
            ws.until(lambda m: m["type"] == "chat")
        at_first.send(type="say", phrase="hello")
        refused = at_first.error()
        assert refused["code"] == "rate_limited"
        assert refused["reason"].startswith("too much said: a player says at most 2 things in 10 s")
        clock.now += 5  # one more has come back
        at_second.send(type="say", phrase="hello")
        assert at_second.until(lambda m: m["type"] == "chat")["phrase"] == "hello"

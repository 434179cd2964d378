"""Every bad message gets an error with its reason and changes nothing."""

from __future__ import annotations

import json
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import pytest

pytest.importorskip("fastapi")

from tienlen.web.room.protocol import MAX_MESSAGE, PlayMove, ProtocolError, parse_command

from .conftest import NO_CLIENT_LIMITS, Server, WsClient, running
from .manual_time import ServerTime


def reason_of(raw: str) -> str:
    with pytest.raises(ProtocolError) as info:
        parse_command(raw)
    return info.value.reason


def test_a_valid_play_command_is_parsed() -> None:
    cmd = parse_command('{"type": "play", "seq": 3, "version": 7, "move": "5s 5h"}')
    assert isinstance(cmd, PlayMove) and cmd.move == "5s 5h" and cmd.version == 7


@pytest.mark.parametrize(("raw", "words"), [
    ("not json", "not JSON"),
    ("[1, 2]", "JSON object with a 'type'"),
    ('{"seq": 1}', "JSON object with a 'type'"),
    ('{"type": "dance", "seq": 1}', "unknown command type"),
    ('{"type": "play", "seq": 1, "version": 0}', "move"),
    ('{"type": "play", "seq": 0, "version": 0, "move": "3s"}', "seq"),
    ('{"type": "play", "seq": 1, "version": 0, "move": ""}', "move"),
    ('{"type": "start", "seq": 1, "admin": true}', "unexpected field 'admin'"),
    ('{"type": "join", "seq": 1, "name": "' + "x" * 200 + '"}', "name"),
    ('{"type": "add_bot", "seq": 1, "level": "godlike"}', "level"),
])
def test_malformed_commands_are_refused_with_a_reason(raw: str, words: str) -> None:
    assert words in reason_of(raw)


def test_an_oversized_message_is_refused() -> None:
    raw = json.dumps({"type": "play", "seq": 1, "version": 0, "move": "x" * MAX_MESSAGE})
    assert "too large" in reason_of(raw)


DEEP_MESSAGE = '{"seq":1,"type":"ping","x":' + "[" * 1000 + "]" * 1000 + "}"  # 2 KB


def test_a_message_nested_too_deeply_is_refused_with_a_reason() -> None:
    assert len(DEEP_MESSAGE) < MAX_MESSAGE
    with pytest.raises(ProtocolError) as info:
        parse_command(DEEP_MESSAGE)
    assert info.value.reason == "message is nested too deeply"
    assert info.value.say("vi") == "tin lồng nhau quá sâu"


@pytest.mark.parametrize(("field", "command"), [
    ("seq", '{"type": "ping", "seq": %s}'),
    ("version", '{"type": "play", "seq": 3, "version": %s, "move": "3s"}'),
    ("version", '{"type": "next_hand", "seq": 3, "version": %s}'),
    ("seat", '{"type": "join", "seq": 3, "name": "Lan", "seat": %s}'),
    ("seat", '{"type": "add_bot", "seq": 3, "seat": %s}'),
    ("seat", '{"type": "remove_seat", "seq": 3, "seat": %s}'),
])
def test_numbers_in_commands_are_json_integers_only(field: str, command: str) -> None:
    for bad in ('"7"', "true", "8.0", "1e2"):
        with pytest.raises(ProtocolError) as info:
            parse_command(command % bad)
        assert info.value.reason == f"bad command: {field}: Input should be a valid integer", bad
        assert info.value.ref == (None if field == "seq" else 3)  # true is no seq to refer to
    assert getattr(parse_command(command % "7"), field) == 7


def test_the_socket_stays_open_after_a_message_nested_too_deeply(server: Server) -> None:
    made = server.browser().post("/api/tables", {"name": "Lan"}).json()
    me = server.ws(made["id"])
    me.hello(made["token"])
    me.send_raw(DEEP_MESSAGE)
    error = me.error()
    assert (error["reason"], error["ref"]) == ("message is nested too deeply", None)
    seq = me.send(type="ping")
    assert me.until(lambda m: m["type"] == "pong")["ref"] == seq


def test_a_seq_of_true_is_refused_and_not_referred_to(server: Server) -> None:
    made = server.browser().post("/api/tables", {"name": "Lan"}).json()
    me = server.ws(made["id"])
    me.hello(made["token"])
    me.send_raw('{"seq": true, "type": "ping"}')
    error = me.error()
    assert error["reason"] == "bad command: seq: Input should be a valid integer"
    assert error["ref"] is None
    seq = me.send(type="ping")
    assert me.until(lambda m: m["type"] == "pong")["ref"] == seq


def test_a_rate_limited_message_nested_too_deeply_is_answered(sqlite_url: str) -> None:
    limits = replace(NO_CLIENT_LIMITS, messages_per_second=1)
    clock = ServerTime()
    with contextmanager(running)(sqlite_url, limits=limits, clock=clock) as server:
        made = server.browser().post("/api/tables", {"name": "Lan"}).json()
        me = server.ws(made["id"])
        me.hello(made["token"])  # the one message of this second
        me.send_raw(DEEP_MESSAGE)
        error = me.error()
        assert error["code"] == "rate_limited" and error["ref"] is None
        clock.now += 1
        seq = me.send(type="ping")
        assert me.until(lambda m: m["type"] == "pong")["ref"] == seq


def quick_table(server: Server, **extra: object) -> tuple[str, str, WsClient, dict[str, object]]:
    made = server.post("/api/tables", {"quick": True, "name": "Lan", "seed": 11, **extra}).json()
    client = server.ws(made["id"])
    state = client.hello(made["token"])
    return made["id"], made["token"], client, state


def my_turn(client: WsClient) -> dict[str, Any]:
    if client.state is not None and client.state["view"]["turn"] == client.seat:
        return client.state
    return client.until(lambda m: m["type"] == "state" and m["view"]["turn"] == client.seat)


def test_bad_messages_over_the_socket_change_nothing(server: Server) -> None:
    table_id, token, me, _ = quick_table(server)
    state = my_turn(me)
    version = state["version"]
    hand = state["view"]["hand"]
    me.send_raw("{oops")
    assert "not JSON" in me.error()["reason"]
    me.send_raw(json.dumps({"type": "play", "seq": 50, "version": version, "move": "3s " * 2000}))
    assert "too large" in me.error()["reason"]
    me.send(type="play", version=version - 1, move=hand[0])
    assert "stale" in me.error()["reason"]
    # a duplicate sequence number
    me.seq -= 1
    me.send(type="play", version=version, move=hand[0])
    assert "stale or duplicate" in me.error()["reason"]
    me.send(type="play", version=version, move=f"{hand[0]} {hand[-1]}")
    assert "not a combination" in me.error()["reason"]
    me.send(type="play", version=version, move="Zz")
    assert me.error()["reason"]
    me.send(type="start")
    assert "already started" in me.error()["reason"]
    watcher = server.ws(table_id)
    seen = watcher.hello()
    assert seen["version"] == version and seen["view"]["hand"] == []
    watcher.send(type="play", version=version, move=hand[0])
    assert "spectators cannot act" in watcher.error()["reason"]
    # nothing changed: a fresh look shows the same table
    again = server.ws(table_id).hello(token)
    assert again["version"] == version and again["view"]["hand"] == hand


def test_out_of_turn_play_is_refused_and_changes_nothing(server: Server) -> None:
    made = server.browser().post("/api/tables", {"name": "Lan", "players": 2}).json()
    lan = server.ws(made["id"])
    lan.hello(made["token"])
    minh = server.browser().ws(made["id"])
    minh.hello()
    minh.send(type="join", name="Minh")
    minh.until(lambda m: m["type"] == "welcome")
    lan.send(type="start")
    state = lan.until(lambda m: m["type"] == "state" and m["view"] is not None)
    waiting = lan if state["view"]["turn"] != lan.seat else minh
    st = waiting.until(lambda m: m["type"] == "state" and m["version"] == state["version"]) \
        if waiting is minh else state
    version = st["version"]
    waiting.send(type="play", version=version, move=st["view"]["hand"][0])
    assert "turn" in waiting.error()["reason"]
    look = server.ws(made["id"]).hello()
    assert look["version"] == version


def test_join_add_bot_and_start_are_checked(server: Server) -> None:
    made = server.browser().post("/api/tables", {"name": "Lan", "players": 3}).json()
    lan = server.ws(made["id"])
    lan.hello(made["token"])
    lan.send(type="start")
    assert "seat 1 is empty" in lan.error()["reason"]
    lan.send(type="add_bot", seat=0)
    assert "seat 0 is taken" in lan.error()["reason"]
    lan.send(type="add_bot", seat=7)
    assert "seats 0 to 2" in lan.error()["reason"]
    lan.send(type="join", name="Again")
    assert "already sit" in lan.error()["reason"]
    guest = server.browser().ws(made["id"])
    guest.hello()
    guest.send(type="add_bot")
    assert "join a seat first" in guest.error()["reason"]
    guest.send(type="hello", token="x" * 20)
    assert "not one of this table's" in guest.error()["reason"]


def test_rest_errors_say_what_is_wrong(server: Server) -> None:
    bad = server.post("/api/tables", {"rules": "nonsense"})
    assert bad.status_code == 400 and "unknown preset" in bad.json()["detail"]
    bad = server.post("/api/tables", {"options": "stake = 'lots'"})
    assert bad.status_code == 400 and "stake" in bad.json()["detail"]
    bad = server.post("/api/tables", {"players": 9})
    assert bad.status_code == 422 and "players" in bad.json()["detail"]
    assert server.get("/api/tables/nope").status_code == 404
    health = server.get("/healthz").json()
    assert health["status"] == "ok" and health["database"] == {"ok": True, "dialect": "sqlite"}


def test_after_a_whole_state_a_connection_is_sent_deltas_and_sync_sends_it_whole_again(
        server: Server) -> None:
    table_id, token, me, _ = quick_table(server)
    state = my_turn(me)
    me.send(type="play", version=state["version"], move=state["view"]["legal"][0])
    played = me.until(lambda m: m["type"] == "state" and m["version"] > state["version"])
    told = [m for m in me.wire if m["type"] in ("state", "delta")]
    assert told[0]["type"] == "state" and told[-1]["type"] == "delta"
    assert "history" not in json.dumps(told)  # the history goes as events only
    delta = next(m for m in told if m["type"] == "delta" and m["version"] == played["version"])
    assert delta["base"] < delta["version"] and "events" in delta["view"]["tail"]
    me.send(type="sync")
    whole = me.until(lambda m: me.wire[-1]["type"] == "state")  # whole on the wire
    assert whole["version"] >= played["version"] and whole["view"]["hand"] == me.state["view"]["hand"]  # type: ignore[index]
    again = server.ws(table_id)  # a new connection (a reconnect): the whole state first
    again.hello(token)
    assert next(m["type"] for m in again.wire if m["type"] in ("state", "delta")) == "state"

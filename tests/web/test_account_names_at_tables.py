"""An account's name at the tables: nobody but the account sits, queues or goes by it (nor by a
name that looks like it), the seats say which players are accounts, and a deleted account's
name leaves every open table, the queue and the later records."""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("argon2")

from .conftest import NO_CLIENT_LIMITS, Server, Visitor, running
from .test_rated_hands import play, room_of
from .waiting import poll

PASSWORD = "correct horse battery"
LOOK_ALIKES = ["Lan", "LAN", "L\u0430n", "\uff2c\uff41\uff4e", "Ian", " lan "]  # Cyrillic а; full-width


@pytest.fixture
def slow_queue(sqlite_url: str) -> Iterator[Server]:
    """A server whose quick match fills a table with bots only after an hour."""
    yield from running(sqlite_url, limits=dataclasses.replace(NO_CLIENT_LIMITS,
                                                              match_wait=3600.0))


@pytest.fixture
def any_slow_queue(db_url: str) -> Iterator[Server]:
    """The same on SQLite and on PostgreSQL."""
    yield from running(db_url, limits=dataclasses.replace(NO_CLIENT_LIMITS, match_wait=3600.0))


def browser(server: Server) -> Visitor:
    visitor = server.visitor()
    visitor.visit()
    return visitor


def claimed(server: Server, name: str = "Lan", visitor: Visitor | None = None) -> Visitor:
    visitor = visitor or browser(server)
    answer = visitor.post("/api/account/claim", {"name": name, "password": PASSWORD})
    assert answer.status_code == 200, answer.text
    return visitor


def refused_for_the_account(text: str, account: str = "Lan") -> bool:
    return f"the account '{account}'" in text and "only that account plays under it" in text


def seats(server: Server, table_id: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = server.get(f"/api/tables/{table_id}").json()["seats"]
    return found


def test_a_guest_cannot_make_a_table_under_an_accounts_name_or_one_like_it(server: Server) -> None:
    claimed(server)
    guest = browser(server)
    before = len(server.app.state.lobby.rooms)
    for name in LOOK_ALIKES:
        answer = guest.post("/api/tables", {"name": name, "players": 3})
        assert answer.status_code == 400 and refused_for_the_account(answer.json()["detail"]), \
            (name, answer.text)
    assert len(server.app.state.lobby.rooms) == before  # nothing made, nothing counted
    assert guest.get("/api/me").json()["id"] is None  # nor a guest of that name stored
    made = guest.post("/api/tables", {"name": "L\u00e2n", "players": 3})  # Lân: another name
    assert made.status_code == 200 and made.json()["info"]["seats"][0]["name"] == "L\u00e2n"


def test_nobody_sits_down_under_an_accounts_name_by_any_way_in(server: Server) -> None:
    lan = claimed(server)
    table_id = browser(server).post("/api/tables", {"players": 4}).json()["id"]
    guest = browser(server)
    for who in (guest.ws(table_id), server.ws(table_id)):  # a browser, a script without cookie
        who.hello()
        for name in LOOK_ALIKES:
            who.send(type="join", name=name)
            error = who.error()
            assert refused_for_the_account(error["reason"]), (name, error)
        assert who.seat is None
        who.close()
    assert all(s["kind"] == "empty" for s in seats(server, table_id))
    assert guest.get("/api/me").json()["id"] is None  # no guest of that name was made
    guest.post("/api/tables", {"name": "Hoa", "players": 3})  # a guest now, called Hoa
    tab = guest.ws(table_id)
    tab.hello()
    tab.send(type="join", name="LAN")  # nor does a guest rename itself so by sitting
    assert refused_for_the_account(tab.error()["reason"])
    assert guest.get("/api/me").json()["name"] == "Hoa"
    tab.close()
    own = lan.ws(table_id)  # the account itself sits under its name
    own.hello()
    own.send(type="join", name="Lan")
    own.until(lambda m: m["type"] == "welcome" and m["seat"] is not None)
    own.close()


def test_a_guest_cannot_queue_for_quick_match_under_an_accounts_name(slow_queue: Server) -> None:
    server = slow_queue
    lan = claimed(server)
    for name in LOOK_ALIKES:
        answer = browser(server).post("/api/quickmatch", {"players": 3, "name": name})
        assert answer.status_code == 400 and refused_for_the_account(answer.json()["detail"]), \
            (name, answer.text)
    assert server.get("/api/lobby").json()["waiting"] == 0
    hoa = browser(server)
    hoa.post("/api/tables", {"name": "Hoa", "players": 3})  # a guest called Hoa, then "Lan"
    answer = hoa.post("/api/quickmatch", {"players": 3, "name": "Lan"})
    assert answer.status_code == 400 and hoa.get("/api/me").json()["name"] == "Hoa"
    assert lan.post("/api/quickmatch", {"players": 3}).json()["state"] == "waiting"


def test_a_guest_queued_before_the_claim_is_seated_under_another_name(server: Server) -> None:
    early = browser(server)
    assert early.post("/api/quickmatch", {"players": 2, "name": "Lan"}).status_code == 200
    claimed(server)  # "Lan" is an account's now
    minh = browser(server)
    minh.post("/api/quickmatch", {"players": 2, "name": "Minh"})
    found = poll(lambda: early.get("/api/quickmatch").json(), lambda s: s["state"] == "matched")
    names = sorted(s["name"] for s in seats(server, found["table"]))
    assert names == ["Lan 2", "Minh"]


def test_the_seats_say_which_players_are_accounts(server: Server) -> None:
    lan = claimed(server)
    table_id = lan.post("/api/tables", {"name": "Lan", "players": 3}).json()["id"]
    guest = browser(server)
    tab = guest.ws(table_id)
    tab.hello()
    tab.send(type="join", name="Minh")
    state = tab.until(lambda m: m["type"] == "state" and m["info"]["seats"][1]["kind"] == "human")
    marks = [(s["name"], s["account"]) for s in state["info"]["seats"]]
    assert marks == [("Lan", True), ("Minh", False), (None, False)]
    # the guest Minh claims its name (its page there signed out): an account's seat from then on
    claimed(server, "Minh", guest)
    assert [s["account"] for s in seats(server, table_id)] == [True, True, False]
    tab.close()


def test_a_guest_seated_before_someone_claims_its_name_shows_as_a_guest(server: Server) -> None:
    early = browser(server)
    table_id = early.post("/api/tables", {"name": "Lan", "players": 3}).json()["id"]
    claimed(server)  # someone else claims "Lan": the guest keeps its seat, marked a guest
    first = seats(server, table_id)[0]
    assert (first["name"], first["account"]) == ("Lan", False)
    again = early.post("/api/tables", {"name": "Lan", "players": 3})  # but sits so no more
    assert again.status_code == 400 and refused_for_the_account(again.json()["detail"])


# ---------------------------------------------------------------------- a deleted account
def delete(visitor: Visitor) -> None:
    answer = visitor.post("/api/account/delete", {"password": PASSWORD})
    assert answer.status_code == 200, answer.text


def test_a_deleted_accounts_name_leaves_its_open_tables_and_later_records(
        any_server: Server) -> None:
    server = any_server  # SQLite and PostgreSQL
    lan = claimed(server)
    waiting = lan.post("/api/tables", {"name": "Lan", "players": 3}).json()["id"]  # not started
    table_id = lan.post("/api/tables", {"name": "Lan", "players": 2, "quick": True}).json()["id"]
    play(server, table_id, moves=1)  # a hand in play
    delete(lan)
    assert seats(server, waiting)[0]["kind"] == "empty"  # before the start: the seat is left
    first = seats(server, table_id)[0]
    assert (first["name"], first["kind"], first["account"]) == ("deleted player", "bot", False)
    play(server, table_id)  # the hand in play ends after the deletion
    record = server.get(f"/api/tables/{table_id}/records/1").text
    assert tomllib.loads(record)["players"][0] == "deleted player"
    server.restart()  # and so it stays
    assert seats(server, table_id)[0]["name"] == "deleted player"
    game = room_of(server, table_id).table.game
    assert game is not None and game.names[0] == "deleted player"


def test_a_deleted_account_leaves_the_queue_and_its_kept_seat(any_slow_queue: Server) -> None:
    server = any_slow_queue  # SQLite and PostgreSQL
    lan = claimed(server)
    me = lan.get("/api/me").json()["id"]
    assert lan.post("/api/quickmatch", {"players": 3}).json()["state"] == "waiting"
    vy = browser(server)
    table_id = vy.post("/api/tables", {"name": "Vy", "players": 2, "quick": True}).json()["id"]
    room = room_of(server, table_id)
    server.call(lambda: room.act(lambda: room.table.reserve(1, me, "Lan")))  # the bot's seat kept for Lan
    assert [r.name for r in room.table.reserved.values()] == ["Lan"]
    delete(lan)
    assert server.get("/api/lobby").json()["waiting"] == 0
    assert server.app.state.services.queue.get(me) is None
    assert room.table.reserved == {}  # the seat stays the bot's
    server.restart()
    assert room_of(server, table_id).table.reserved == {}

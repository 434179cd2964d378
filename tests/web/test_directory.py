"""The room's directory of tables: whichever process a request lands on, it sees every process's
tables (the lobby's list, a table's info and page, the tables one sits at, friends' tables and
invitations, who is around, quick match's seats to give), as one process alone sees its own.

The room's tests run two processes (``test_cluster.two_processes``) on one PostgreSQL and one
Redis; the local directory's run one process and compare it with its lobby."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import pytest

pytest.importorskip("fastapi")
import redis
from starlette.concurrency import run_in_threadpool

from tienlen.web.bus import directory as shared
from tienlen.web.bus.cluster import LEADER
from tienlen.web.lobby.directory import SeatFacts, TableFacts, ordered
from tienlen.web.ratings import ratings
from tienlen.web.room.protocol import TableInfo

from .conftest import NO_CLIENT_LIMITS, Server, Visitor
from .test_cluster import room_of_two, served_by, two_processes
from .test_rated_hands import IN_PLAY
from .waiting import poll

__all__ = ["room_of_two"]  # the fixture, used here
T = TypeVar("T")
Room = tuple[Server, Server]


def asked(server: Server, fn: Callable[[], T]) -> T:
    """``fn()`` asked as a route handler asks it: in a worker thread of the server's loop."""
    async def run() -> T:
        return await run_in_threadpool(fn)

    return asyncio.run_coroutine_threadsafe(run(), server.app.state.loop).result(20)


def through(who: Visitor, server: Server) -> Visitor:
    """The browser ``who`` reaching ``server`` (a proxy sends each request to any process)."""
    there = server.visitor()
    there.http.cookies.update(who.http.cookies)
    return there


def listed(server: Server) -> dict[str, dict[str, Any]]:
    return {t["id"]: t for t in server.get("/api/tables").json()}


def made(who: Visitor, **spec: Any) -> dict[str, Any]:
    answer = who.post("/api/tables", {"players": 3, **spec})
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


# ---------------------------------------------------------------------- two processes
def test_a_public_table_made_on_one_process_is_listed_on_the_other_with_its_seats(
        room_of_two: Room) -> None:
    a, b = room_of_two
    lan = a.browser()
    table = made(lan, name="Lan", table_name="Lan's room")["id"]
    assert served_by(a, table) and not served_by(b, table)
    seen = poll(lambda: listed(b), lambda found: table in found, timeout=30)[table]
    assert seen["name"] == "Lan's room" and seen["status"] == "open"
    assert [(s["name"], s["kind"]) for s in seen["seats"]] == [("Lan", "human"), (None, "empty"),
                                                               (None, "empty")]
    # a second player sits through B (the table is A's): B's list shows the seat soon after
    minh = b.browser()
    tab = minh.ws(table)
    tab.hello()
    tab.send(type="join", name="Minh", seat=1)
    tab.until(lambda m: m["type"] == "welcome" and m.get("seat") == 1)
    poll(lambda: listed(b)[table]["seats"][1]["name"], lambda name: name == "Minh", timeout=30)
    # a table's info on B is what its owner says
    poll(lambda: (a.get(f"/api/tables/{table}").json(), b.get(f"/api/tables/{table}").json()),
         lambda both: both[0] == both[1] and both[1]["seats"][1]["connected"], timeout=30)
    assert b.get(f"/t/{table}").status_code == 200
    assert b.get("/t/nosuchtbl").status_code == 404
    assert b.get("/api/tables/nosuchtbl").status_code == 404
    tab.close()


def test_a_private_table_is_not_listed_but_found_by_its_id_and_among_my_tables(
        room_of_two: Room) -> None:
    a, b = room_of_two
    lan = a.browser()
    hidden = made(lan, name="Lan", private=True)["id"]
    shown = made(lan, name="Lan")["id"]
    poll(lambda: listed(b), lambda found: shown in found, timeout=30)
    assert hidden not in listed(b) and hidden not in listed(a)
    found = b.get(f"/api/tables/{hidden}")
    assert found.status_code == 200 and found.json()["private"] is True
    assert b.get(f"/t/{hidden}").status_code == 200
    mine = through(lan, b).get("/api/me/tables").json()
    assert sorted(t["id"] for t in mine) == sorted([hidden, shown])
    assert through(b.browser(), b).get("/api/me/tables").json() == []  # nobody else's


def test_a_closed_table_leaves_the_list_of_both_processes(room_of_two: Room) -> None:
    a, b = room_of_two
    table = made(a.browser(), name="Lan")["id"]
    poll(lambda: listed(b), lambda found: table in found, timeout=30)
    lobby = a.app.state.lobby
    assert a.call(lambda: lobby.expire_idle(time.monotonic() + 10**6)) == [table]
    poll(lambda: listed(b), lambda found: table not in found, timeout=30)
    assert table not in listed(a)
    assert b.get(f"/api/tables/{table}").status_code == 410  # closed: its records stay
    assert a.get(f"/api/tables/{table}").status_code == 410
    assert b.get(f"/t/{table}").status_code == 404
    assert redis.Redis.from_url(a.redis_url).exists(shared.keys(a.redis_prefix)[0] + table) == 0


def test_a_table_whose_process_stopped_is_answered_by_the_other_which_takes_it(
        room_of_two: Room) -> None:
    a, b = room_of_two
    table = made(a.browser(), name="Lan")["id"]
    poll(lambda: listed(b), lambda found: table in found, timeout=30)
    name = a.app.state.services.cluster.name
    a.stop()  # A hands its tables over and removes their entries
    owner = redis.Redis.from_url(b.redis_url).hget(shared.keys(b.redis_prefix)[0] + table, "o")
    assert owner in (None, b.app.state.services.cluster.name.encode()) and owner != name.encode()
    # open, listed nowhere: B takes it at once, as a socket would (else its round takes it)
    info = b.get(f"/api/tables/{table}")
    assert info.status_code == 200 and info.json()["seats"][0]["name"] == "Lan"
    assert served_by(b, table) and table in listed(b)


def test_a_table_changing_often_is_published_a_few_times_a_second(room_of_two: Room) -> None:
    a, b = room_of_two
    table = made(a.browser(), name="Lan")["id"]
    poll(lambda: listed(b), lambda found: table in found, timeout=30)
    publisher = a.app.state.services.cluster.publisher
    before, start, told = publisher.puts, time.monotonic(), 0
    while time.monotonic() - start < 1.0:  # told of a change every few milliseconds
        a.call(lambda: publisher.touched(table))
        told += 1
    elapsed = time.monotonic() - start
    poll(lambda: a.call(lambda: set(publisher.dirty)), lambda dirty: not dirty)
    puts = publisher.puts - before
    assert told >= 20 and 1 <= puts <= elapsed / shared.PUBLISH_EVERY + 2


def test_who_is_around_is_the_same_on_every_process(room_of_two: Room) -> None:
    a, b = room_of_two
    lan, minh = a.browser(), b.browser()
    lan_table = made(lan, name="Lan", players=2, quick=True, seed=3)["id"]  # A's
    minh_table = made(minh, name="Minh", players=2, quick=True, seed=4)["id"]  # B's
    tabs = [through(lan, b).ws(lan_table), minh.ws(minh_table)]  # Lan's through B
    for tab in tabs:
        tab.hello()
        assert tab.seat == 0
    counts = poll(lambda: (a.get("/api/lobby").json(), b.get("/api/lobby").json()),
                  lambda both: both[0] == both[1] and both[0]["playing"] == 2, timeout=30)
    assert counts[0]["online"] == 3  # Lan, Minh, and the browser asking (one not known yet)
    directories = [s.app.state.services.directory for s in (a, b)]
    here = poll(lambda: [asked(s, d.connected) for s, d in zip((a, b), directories,
                                                                  strict=True)],
                lambda sets: sets[0] == sets[1] and len(sets[0]) == 2, timeout=30)
    assert here[0] == asked(a, directories[0].playing) == asked(b, directories[1].playing)
    for tab in tabs:
        tab.close()


def test_friends_see_each_other_at_tables_another_process_serves_and_invite_there(
        room_of_two: Room) -> None:
    a, b = room_of_two
    lan, minh = a.browser(), a.browser()
    lan_table, minh_table = made(lan, name="Lan")["id"], made(minh, name="Minh")["id"]
    tabs = [lan.ws(lan_table), minh.ws(minh_table)]
    for tab in tabs:
        tab.hello()
    lan_b, minh_b = through(lan, b), through(minh, b)  # both browse B: both tables are A's
    poll(lambda: listed(b), lambda found: {lan_table, minh_table} <= set(found), timeout=30)
    assert lan_b.post("/api/friends", {"table": minh_table, "seat": 0}).json()["state"] == "asked"
    assert minh_b.post("/api/friends", {"table": lan_table, "seat": 0}).json()["state"] == "friend"
    friend = poll(lambda: lan_b.get("/api/friends").json()[0], lambda f: f["tables"], timeout=30)
    assert friend["name"] == "Minh" and friend["online"]
    assert [t["id"] for t in friend["tables"]] == [minh_table]
    # Lan, on B, invites Minh to the table A serves where she sits
    assert lan_b.post("/api/invitations", {"friend": friend["id"], "table": minh_table}) \
        .status_code == 403  # not her seat
    assert lan_b.post("/api/invitations", {"friend": friend["id"], "table": lan_table}) \
        .status_code == 200
    [invitation] = minh_b.get("/api/invitations").json()
    assert invitation["table"] == lan_table and invitation["table_name"] == "Lan's table"
    for tab in tabs:
        tab.close()


@pytest.fixture
def quick_room(one_database: str, redis_url: str, redis_prefix: str,
               monkeypatch: pytest.MonkeyPatch) -> Iterator[Room]:
    """Two processes whose quick match fills a table with bots after a second, dealing hands
    no instant win ends (a table offers a bot's seat only while a hand is in play)."""
    monkeypatch.setitem(ratings.MEASURED_PRESET, "southern", IN_PLAY)
    yield from two_processes(one_database, redis_url, redis_prefix,
                             limits=dataclasses.replace(NO_CLIENT_LIMITS, match_wait=1.0))


def test_quick_match_on_one_process_gives_a_bots_seat_at_a_table_the_other_serves(
        quick_room: Room, monkeypatch: pytest.MonkeyPatch) -> None:
    a, b = quick_room
    lan = a.browser()
    assert lan.post("/api/quickmatch", {"players": 4, "name": "Lan"}).status_code == 200
    table = poll(lambda: lan.get("/api/quickmatch").json(),
                 lambda s: s["state"] == "matched", timeout=30)["table"]
    owner, other = (a, b) if served_by(a, table) else (b, a)
    # the room's lead passes to the other process (as when the leader dies): only it matches
    # from now on, and the table is its neighbour's
    leading, following = other.app.state.services.cluster, owner.app.state.services.cluster
    store = redis.Redis.from_url(other.redis_url)
    store.set(leading.bus.key(LEADER), leading.name, px=60_000)
    following.leader, leading.leader = False, True
    tab = through(lan, other).ws(table)  # Lan at her table (a hand in play), from the other
    tab.hello()
    assert tab.seat is not None
    hoa = other.browser()
    assert hoa.post("/api/quickmatch", {"players": 4, "name": "Hoa"}).status_code == 200
    found = poll(lambda: hoa.get("/api/quickmatch").json(),  # (a bound: a loaded CI took > 30 s)
                 lambda s: s["state"] == "matched" and s["next_hand"], timeout=90)
    assert found["table"] == table  # a bot's seat at the owner's table, from its next hand
    room = owner.app.state.lobby.get(table)
    assert owner.call(lambda: [k.name for k in room.table.reserved.values()]) == ["Hoa"]
    tab.close()


@pytest.fixture
def short_lived(one_database: str, redis_url: str, redis_prefix: str,
                monkeypatch: pytest.MonkeyPatch) -> Iterator[Room]:
    """Two processes whose directory entries last 1.5 s unless renewed."""
    monkeypatch.setattr(shared, "ENTRY_SECONDS", 1.5)
    yield from two_processes(one_database, redis_url, redis_prefix)


def test_a_process_gone_without_handing_over_leaves_no_entry_past_its_life(
        short_lived: Room) -> None:
    a, b = short_lived
    table = made(a.browser(), name="Lan")["id"]
    poll(lambda: listed(b), lambda found: table in found, timeout=30)
    cluster = a.app.state.services.cluster
    # A stops publishing and removes nothing, as a process that died
    asyncio.run_coroutine_threadsafe(cluster.publisher.stop(remove=False),
                                     a.app.state.loop).result(10)
    poll(lambda: listed(b), lambda found: table not in found, timeout=10)
    assert served_by(a, table)  # (A still serves it: only its entry ran out)
    store = redis.Redis.from_url(a.redis_url)
    entry, index = shared.keys(a.redis_prefix)
    assert store.exists(entry + table) == 0
    poll(lambda: store.zscore(index, table), lambda score: score is None, timeout=10)


def test_an_entry_is_renewed_while_its_table_is_served(short_lived: Room) -> None:
    a, b = short_lived
    table = made(a.browser(), name="Lan")["id"]
    poll(lambda: listed(b), lambda found: table in found, timeout=30)
    deadline = time.monotonic() + 4.0  # over twice an entry's life
    while time.monotonic() < deadline:
        assert table in listed(b)
        time.sleep(0.2)


# ---------------------------------------------------------------------- one process alone
def test_the_local_directory_lists_as_the_lobby_does(server: Server) -> None:
    lan = server.browser()
    first = made(lan, name="Lan")["id"]
    second = made(lan, name="Lan")["id"]
    quick = made(lan, name="Lan", players=2, quick=True, seed=3)
    playing = quick["id"]
    player = lan.ws(playing)  # its player is there (a table nobody plays at is not listed)
    player.hello(quick["token"])
    hidden = made(lan, name="Lan", private=True)["id"]
    tab = server.browser().ws(second)  # a change: the second is listed first of the open ones
    tab.hello()
    tab.send(type="join", name="Minh", seat=1)
    tab.until(lambda m: m["type"] == "welcome" and m.get("seat") == 1)
    lobby = server.app.state.lobby
    directory = server.app.state.services.directory
    by_lobby = server.call(lambda: [r.id for r in lobby.listing()])
    assert by_lobby == [second, first, playing]
    assert [t.id for t in asked(server, directory.listing)] == by_lobby
    assert [t["id"] for t in server.get("/api/tables").json()] == by_lobby
    assert hidden not in by_lobby and asked(server, lambda: directory.get(hidden)) is not None
    tab.close()
    player.close()


def test_the_local_directory_says_who_sits_where_as_the_lobby_does(server: Server) -> None:
    lan = server.browser()
    table = made(lan, name="Lan")
    tab = lan.ws(table["id"])
    tab.hello()
    lobby = server.app.state.lobby
    directory = server.app.state.services.directory
    room = lobby.get(table["id"])
    owner = server.call(lambda: room.table.seats[0].owner)
    assert owner is not None
    facts = asked(server, lambda: directory.get(table["id"]))
    assert facts.info == server.call(room.info)
    assert facts.seat_of(table["token"]) == 0 and facts.seat_of("not a token") is None
    assert facts.seat_owned(owner) == 0 and facts.holds(owner) and facts.sits(owner)
    assert [t.id for t in asked(server, lambda: directory.seated(owner))] == \
        server.call(lambda: [r.id for r in lobby.seated(owner)]) == [table["id"]]
    assert [t.id for t in asked(server, lambda: directory.tables_of([owner]))[owner]] == \
        [table["id"]]
    assert asked(server, directory.connected) == {owner}
    assert asked(server, directory.playing) == set()  # not started
    assert asked(server, lambda: directory.known(table["id"]))
    assert not asked(server, lambda: directory.known("nosuchtbl"))
    tab.close()
    poll(lambda: asked(server, lambda: directory.tables_of([owner]))[owner], lambda t: t == [])
    assert [t.id for t in asked(server, lambda: directory.seated(owner))] == [table["id"]]


def _facts(table_id: str, started: bool, version: int, private: bool = False,
           paused: bool = False) -> TableFacts:
    info = TableInfo(id=table_id, name=table_id, private=private, paused=paused,
                     next_hand_after=0.0,
                     status="playing" if started else "open", rules="pagat", options={},
                     players=2, seats=[], hand_no=0, totals=[], first_places=[], records=0,
                     away_timeout=30.0, turn_timer=0.0)
    return TableFacts(info=info, version=version,
                      seats=(SeatFacts(kind="human", owner="lan", connected=True),
                             SeatFacts(kind="bot", owner="minh")))


def test_the_listing_orders_open_tables_first_the_most_changed_first_and_leaves_private_out(
        ) -> None:
    tables = [_facts("p1", True, 9), _facts("o1", False, 2), _facts("x", False, 50, True),
              _facts("o2", False, 7), _facts("p2", True, 30)]
    assert [t.id for t in ordered(tables)] == ["o2", "o1", "p2", "p1"]
    assert [t.id for t in ordered(tables, most=2)] == ["o2", "o1"]
    gone = _facts("p3", True, 40, paused=True)  # its players left: nothing happens there
    assert [t.id for t in ordered([*tables, gone])] == ["o2", "o1", "p2", "p1"]


def test_a_tables_facts_travel_as_json_whole() -> None:
    facts = _facts("t1", True, 4)
    again = TableFacts.model_validate_json(facts.model_dump_json())
    assert again == facts
    assert again.holds("minh") and not again.sits("minh") and again.sits("lan")
    assert again.playing() == {"lan"}

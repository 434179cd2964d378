"""The directory of tables the routes read (the lobby's list, a table's info and page, the tables
one sits at, friends' tables and invitations, who is around, quick match's seats to give): one
process alone reads its lobby, as the routes did before there was a directory."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar

import pytest

pytest.importorskip("fastapi")
from starlette.concurrency import run_in_threadpool

from tienlen.web.lobby.directory import SeatFacts, TableFacts, ordered
from tienlen.web.room.protocol import TableInfo

from .conftest import Server, Visitor
from .waiting import poll

T = TypeVar("T")


def asked(server: Server, fn: Callable[[], T]) -> T:
    """``fn()`` asked as a route handler asks it: in a worker thread of the server's loop."""
    async def run() -> T:
        return await run_in_threadpool(fn)

    return asyncio.run_coroutine_threadsafe(run(), server.app.state.loop).result(20)


def listed(server: Server) -> dict[str, dict[str, Any]]:
    return {t["id"]: t for t in server.get("/api/tables").json()}


def made(who: Visitor, **spec: Any) -> dict[str, Any]:
    answer = who.post("/api/tables", {"players": 3, **spec})
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


# ---------------------------------------------------------------------- one process alone
def test_the_local_directory_lists_as_the_lobby_does(server: Server) -> None:
    lan = server.browser()
    first = made(lan, name="Lan")["id"]
    second = made(lan, name="Lan")["id"]
    playing = made(lan, name="Lan", players=2, quick=True, seed=3)["id"]
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


def _facts(table_id: str, started: bool, version: int, private: bool = False) -> TableFacts:
    info = TableInfo(id=table_id, name=table_id, private=private, next_hand_after=0.0,
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


def test_a_tables_facts_travel_as_json_whole() -> None:
    facts = _facts("t1", True, 4)
    again = TableFacts.model_validate_json(facts.model_dump_json())
    assert again == facts
    assert again.holds("minh") and not again.sits("minh") and again.sits("lan")
    assert again.playing() == {"lan"}

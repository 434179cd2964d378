"""Quick match never parks a player at a table that will not deal them in: a table whose players
all went is not offered, and a seat kept at a table that then stops dealing is given back."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")

from tienlen.web import matchmaker

from .conftest import Server, Visitor
from .test_quickmatch import browser, in_play_server
from .test_rated_hands import play, room_of
from .waiting import poll


@pytest.fixture
def quick(sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    yield from in_play_server(sqlite_url, monkeypatch)


def queued(server: Server, name: str) -> Visitor:
    who = browser(server)
    answer = who.post("/api/quickmatch", {"players": 4, "name": name})
    assert answer.status_code == 200, answer.text
    return who


def matched(who: Visitor, other_than: str | None = None) -> dict[str, Any]:
    found: dict[str, Any] = poll(lambda: who.get("/api/quickmatch").json(),
                                 lambda s: s["state"] == "matched" and s["table"] != other_than,
                                 timeout=30)
    return found


def dealt_in(who: Visitor, table_id: str) -> dict[str, Any]:
    """``who``'s page at ``table_id``: seated, with the cards of a hand dealt (the state; the hand
    may be over already: an instant win ends about one mien-nam deal in 25 as it is dealt)."""
    tab = who.ws(table_id)
    state = tab.hello()
    assert tab.seat is not None
    assert state["view"] is not None and state["view"]["hand"]
    tab.close()
    return state


def test_a_newcomer_is_not_sent_to_a_table_whose_players_all_went(quick: Server) -> None:
    lan, minh = queued(quick, "Lan"), queued(quick, "Minh")
    old = matched(lan)["table"]
    assert matched(minh)["table"] == old  # two players and two bots
    pages = [lan.ws(old), minh.ws(old)]
    for page in pages:
        page.hello()
    play(quick, old)  # the hand ends
    for page in pages:
        page.close()  # and both close their tabs
    poll(lambda: room_of(quick, old).clock.paused, bool)
    hoa = queued(quick, "Hoa")
    found = matched(hoa)
    assert found["table"] != old and found["next_hand"] is False  # a new table, bots filling it
    dealt_in(hoa, found["table"])
    assert room_of(quick, old).table.reserved == {}


def test_a_seat_kept_at_a_table_that_stops_dealing_is_given_back(
        quick: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(matchmaker, "STRANDED", 0.0)  # no grace for a page reloading
    lan, minh = queued(quick, "Lan"), queued(quick, "Minh")
    old = matched(lan)["table"]
    page = lan.ws(old)
    page.hello()  # Lan is there, a hand in play: the table may offer its bots' seats
    hoa = queued(quick, "Hoa")
    kept = matched(hoa)
    assert (kept["table"], kept["next_hand"]) == (old, True)
    page.close()  # the last player there goes before the next hand: it will not be dealt
    found = matched(hoa, other_than=old)  # back in the queue, first in line: a new table
    assert found["next_hand"] is False
    assert room_of(quick, old).table.reserved == {}
    dealt_in(hoa, found["table"])
    assert minh.get("/api/quickmatch").json()["table"] == old  # the others keep their seats


def test_a_page_reloading_is_not_gone(quick: Server) -> None:
    lan, _ = queued(quick, "Lan"), queued(quick, "Minh")
    old = matched(lan)["table"]
    page = lan.ws(old)
    page.hello()
    hoa = queued(quick, "Hoa")
    assert matched(hoa)["table"] == old
    page.close()  # Lan's page reloads
    room = room_of(quick, old)
    poll(lambda: room.clock.paused, bool)
    services = quick.app.state.services
    assert quick.call(lambda: matchmaker.give_back_stranded(services)) == []  # within the grace
    assert [kept.name for kept in room.table.reserved.values()] == ["Hoa"]
    again = lan.ws(old)
    again.hello()  # back: the table deals on, the seat still kept
    assert not room.clock.paused
    assert quick.call(lambda: matchmaker.give_back_stranded(services, grace=0.0)) == []
    assert hoa.get("/api/quickmatch").json()["next_hand"] is True
    again.close()

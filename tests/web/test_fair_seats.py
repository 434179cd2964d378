"""One person, one seat of a rated hand, whatever the way in; a reload is not absence; and a
player gone when the hand ends is rated as its leaver, however they went (over the WebSocket,
as a page or a script would)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("fastapi")

from tienlen.web.table.state import MIN_GRACE

from .conftest import Server, WsClient, running
from .test_rated_hands import (
    IN_PLAY,
    browser,
    expected,
    owners,
    play,
    played,
    rating,
    room_of,
    sat_down,
    two_people,
)
from .waiting import stored


def views(ws: WsClient) -> set[tuple[str, ...]]:
    """Every hand this connection was shown."""
    return {tuple(m["view"]["hand"]) for m in ws.received
            if m["type"] == "state" and m["view"] is not None}


def grace_over(server: Server, table_id: str, seat: int) -> None:
    """The grace of the player away from ``seat`` runs out: the table's clock is moved on (the
    player's connection closed that long ago), rather than waiting 40 real seconds or more."""
    def move_on() -> None:
        room = room_of(server, table_id)
        room.table.seats[seat].away_since -= room.table.away_timeout
        room.schedule()

    server.call(move_on)


def test_a_rated_table_seats_nobody_without_an_identity(server: Server) -> None:
    lan = browser(server)
    made = lan.post("/api/tables", {"name": "Lan", "players": 3}).json()
    before = stored(server)
    script = server.ws(made["id"])  # no cookie: known by a token alone
    script.hello()
    script.send(type="join", name="Script")
    error = script.error()
    assert error["reason"].startswith("a rated table seats only a player the room knows")
    assert script.seat is None and stored(server) == before
    # nor by making a table with a name: refused, in the script's language, nothing stored
    answer = server.post("/api/tables", {"name": "Script", "rules": "mien-nam"})
    assert answer.status_code == 400 and "seats only a player the room knows" in answer.text
    assert stored(server) == before
    # an unrated table (a practice table, changed rules) seats a script by its token
    practice = server.post("/api/tables", {"name": "Script", "quick": True, "seed": 3})
    assert practice.status_code == 200 and practice.json()["seat"] == 0


def test_one_connection_and_one_person_play_one_seat_of_a_rated_hand(server: Server) -> None:
    """The seen case: the browser at seat 0 sends hello with seat 1's token, and is kept at
    seat 0; no other connection of it, nor a script, plays seat 1 by that token."""
    lan_browser = browser(server)
    table_id, lan, minh = sat_down(server, lan_browser, browser(server), players=3)
    lan.until(lambda m: m["type"] == "state" and m["info"]["seats"][1]["kind"] == "human")
    lan.send(type="add_bot")
    lan.send(type="start")
    lan.until(lambda m: m["type"] == "state" and m["view"] is not None)
    minh.until(lambda m: m["type"] == "state" and m["view"] is not None)
    assert minh.token is not None
    lan.send(type="hello", token=minh.token)
    assert lan.error()["reason"] == "you already sit at seat 0"
    assert [m["seat"] for m in lan.received if m["type"] == "welcome"][-1] == 0
    second_tab = lan_browser.ws(table_id)
    second_tab.send(type="hello", token=minh.token)
    assert second_tab.error()["reason"] == ("at a rated table a seat is played from its "
                                            "player's own browser, not by its token: you are "
                                            "watching")
    assert second_tab.seat is None
    lan.send(type="ping")  # whatever is still on its way has come
    lan.until(lambda m: m["type"] == "pong")
    minh_hand = tuple(minh.state["view"]["hand"])  # type: ignore[index]
    assert minh_hand not in views(lan) and len(views(lan)) >= 1
    assert [s.kind for s in room_of(server, table_id).table.seats] == ["human", "human", "bot"]


def test_a_connection_plays_one_seat_at_any_table(server: Server) -> None:
    """A hot seat (two seats of one browser, at an unrated table) is two connections: one
    connection is never moved to another seat, nor sent its hand."""
    made = server.post("/api/tables", {"name": "Lan", "players": 2,
                                       "options": "stake = 2"}).json()  # unrated
    assert room_of(server, made["id"]).table.rated is None
    lan = server.ws(made["id"])
    lan.hello(made["token"])
    other = server.ws(made["id"])
    other.hello()
    other.send(type="join", name="Minh")
    other.until(lambda m: m["type"] == "welcome" and m["seat"] == 1)
    lan.send(type="hello", token=other.token)
    assert lan.error()["reason"] == "you already sit at seat 0"
    assert lan.seat == 0
    again = server.ws(made["id"])  # the same token on a connection of its own: that seat
    again.hello(other.token)
    assert again.seat == 1


def test_a_rated_tables_grace_holds_a_reload_and_a_kick_waits_for_it(server: Server) -> None:
    minh_browser = browser(server)
    table_id, lan, minh = two_people(server, minh=minh_browser, rules=IN_PLAY, away_timeout=0)
    info = server.get(f"/api/tables/{table_id}").json()
    assert info["away_timeout"] == MIN_GRACE  # asked for 0: a rated table gives 40 s at least
    minh.close()  # a reload: the page goes...
    lan.until(lambda m: m["type"] == "state" and not m["info"]["seats"][1]["connected"])
    lan.send(type="kick", seat=1)
    assert lan.error()["reason"] == (
        "Minh (seat 1) has been away less than 40 seconds: a player who reloads or loses the "
        "line for a moment is not away, and is kicked only after that long")
    assert not server.call(lambda: room_of(server, table_id).table.bot_controlled(1))
    page = minh_browser.ws(table_id)  # ...and comes back: seated, not barred
    page.send(type="hello")
    welcome = page.until(lambda m: m["type"] == "welcome")
    assert welcome["seat"] == 1 and not welcome.get("barred")
    page.close()  # gone for good this time: once the grace has run out, the host may kick
    lan.until(lambda m: m["type"] == "state" and not m["info"]["seats"][1]["connected"])
    grace_over(server, table_id, 1)
    lan.send(type="kick", seat=1)
    assert lan.until(lambda m: m["type"] == "removed")["how"] == "kicked"


@pytest.fixture
def still(sqlite_url: str) -> Iterator[Server]:
    """A server whose bots wait an hour before they play: the hand moves only as a test plays
    it. (Once the grace is over a bot plays every seat of the table, which would otherwise play
    itself out at once, on a loaded machine before a page coming back is seated.)"""
    yield from running(sqlite_url, bot_delay=3600.0)


def gone_mid_hand(server: Server, back: bool) -> tuple[str, dict[str, Any]]:
    """Lan and Minh at a rated table of four; a few moves in, Lan presses Leave and Minh closes
    the tab, gone past the grace (a bot plays for Minh); with ``back``, Minh's page comes back
    before the hand ends. The hand played out: the table, and each one's place and whether
    their ratings are the model's with the leavers last."""
    minh_browser = browser(server)
    table_id, lan, minh = two_people(server, minh=minh_browser, rules=IN_PLAY)
    lan_id, minh_id, *_ = owners(server, table_id)
    play(server, table_id, moves=3)
    lan.send(type="leave")
    lan.until(lambda m: m["type"] == "welcome" and m["seat"] is None)
    minh.close()
    lan.until(lambda m: m["type"] == "state" and not m["info"]["seats"][1]["connected"])
    grace_over(server, table_id, 1)
    play(server, table_id, moves=2)
    if back:
        minh_browser.ws(table_id).hello()
    play(server, table_id)
    want = expected(server, table_id, left=frozenset({0} if back else {0, 1}))
    places = {row[0]: row[4] for row in played(server)}
    return table_id, {"lan": places[lan_id], "minh": places[minh_id],
                      "rated": [rating(server, p) == want[p] for p in (lan_id, minh_id)]}


def test_a_player_gone_when_the_hand_ends_is_rated_last_however_they_went(
        still: Server) -> None:
    """A closed tab costs what Leave costs: both share the last place (third of four)."""
    _, got = gone_mid_hand(still, back=False)
    assert got == {"lan": 3, "minh": 3, "rated": [True, True]}


def test_a_player_back_before_the_hand_ends_is_rated_by_the_seats_place(still: Server) -> None:
    table_id, got = gone_mid_hand(still, back=True)
    stayed = [seat for seat in room_of(still, table_id).game.finish_order if seat != 0]
    assert got == {"lan": 4, "minh": stayed.index(1) + 1, "rated": [True, True]}

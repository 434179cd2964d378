"""Table manners: a player who left mid-hand takes the seat back from the bot (theirs alone,
and not rated last for the hand they came back to), and the turn timer tells: the player is
told what it played for them, the history marks the move, and a restart gives no new time."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any

import pytest

pytest.importorskip("fastapi")

from .conftest import Server, WsClient, running
from .manual_time import ServerTime
from .test_persistence import wait_turn
from .test_rated_hands import IN_PLAY, browser, expected, owners, play, played, rating, room_of
from .test_rated_hands import two_people as _two_people


def two_people(server: Server) -> tuple[str, WsClient, WsClient]:
    table_id, host, guest = _two_people(server, rules=IN_PLAY)
    play(server, table_id, moves=3)
    return table_id, host, guest


def leave(me: WsClient) -> dict[str, Any]:
    me.send(type="leave")
    return me.until(lambda m: m["type"] == "welcome" and m["seat"] is None)


def seat0(m: dict[str, Any]) -> dict[str, Any]:
    seat: dict[str, Any] = m["info"]["seats"][0]
    return seat


def test_a_player_who_left_takes_the_seat_back_and_the_others_see_it(server: Server) -> None:
    lan_browser = browser(server)
    table_id, lan, minh = _two_people(server, lan=lan_browser, rules=IN_PLAY)
    play(server, table_id, moves=3)
    told = leave(lan)
    assert told["back"] == [0]  # the page offers the seat back
    minh.until(lambda m: m["type"] == "state" and seat0(m)["kind"] == "bot")
    lan.send(type="back")
    welcome = lan.until(lambda m: m["type"] == "welcome")
    assert welcome["seat"] == 0 and welcome["token"] and "back" not in welcome
    seen = minh.until(lambda m: m["type"] == "state" and seat0(m)["kind"] == "human")
    assert seat0(seen)["name"] == "Lan" and seat0(seen)["connected"]
    mine = lan.until(lambda m: m["type"] == "state")
    assert mine["view"]["seat"] == 0 and mine["view"]["hand"]
    # the seat is the player's again, across a restart: a new page of theirs is seated at once
    server.restart()
    page = lan_browser.ws(table_id)
    page.hello()
    assert page.seat == 0


def test_a_page_that_left_is_not_seated_at_hello_but_offered_the_seat(server: Server) -> None:
    lan_browser = browser(server)
    table_id, lan, _ = _two_people(server, lan=lan_browser, rules=IN_PLAY)
    leave(lan)
    lan.close()
    page = lan_browser.ws(table_id)
    page.send(type="hello")
    welcome = page.until(lambda m: m["type"] == "welcome")
    assert welcome["seat"] is None and welcome["back"] == [0]
    server.restart()  # the seat is offered until the table closes
    page = lan_browser.ws(table_id)
    page.send(type="hello")
    assert page.until(lambda m: m["type"] == "welcome")["back"] == [0]
    page.send(type="back", seat=0)
    assert page.until(lambda m: m["type"] == "welcome")["seat"] == 0


@pytest.mark.parametrize("lang", ["en", "vi"])
def test_only_the_seats_owner_may_take_it_back(server: Server, lang: str) -> None:
    table_id, lan, minh = two_people(server)
    leave(lan)
    stranger = browser(server).ws(table_id)
    stranger.send(type="hello", lang=lang)
    assert "back" not in stranger.until(lambda m: m["type"] == "welcome")
    stranger.send(type="back", seat=0)
    refused = stranger.error()["reason"]
    assert refused == {"en": "seat 0 is not one you left: only its owner may take it back",
                       "vi": "ghế 0 không phải ghế bạn đã rời: chỉ chủ ghế mới được ngồi lại"}[lang]
    stranger.send(type="back")
    assert stranger.error()["reason"] == {
        "en": "you left no seat at this table that you could take back",
        "vi": "bạn không rời ghế nào ở bàn này để ngồi lại"}[lang]
    script = server.ws(table_id)  # no cookie: nobody's seat to take back
    script.hello()
    script.send(type="back", seat=0)
    assert script.error()["reason"].startswith("seat 0 is not one you left")
    minh.send(type="back", seat=0)  # seated elsewhere
    assert minh.error()["reason"] == "you already sit at seat 1"
    assert room_of(server, table_id).table.seats[0].kind == "bot"


def test_a_leaver_who_came_back_is_rated_by_the_finish_not_last(server: Server) -> None:
    table_id, lan, _ = two_people(server)
    lan_id, minh_id, *_ = owners(server, table_id)
    leave(lan)
    lan.send(type="back")
    lan.until(lambda m: m["type"] == "welcome" and m["seat"] == 0)
    server.restart()  # the leave and the coming back are read back from the log
    play(server, table_id)
    order = room_of(server, table_id).game.finish_order
    assert played(server)[0][4] == order.index(0) + 1
    want = expected(server, table_id)  # nobody left
    assert rating(server, lan_id) == want[lan_id or ""]
    assert rating(server, minh_id) == want[minh_id or ""]


# ------------------------------------------------------------------ the turn timer
def my_turn(server: Server, lang: str = "en", **options: Any) -> tuple[str, WsClient, dict[str, Any]]:
    """A quick table of Lan (seat 0, by its token) and bots, Lan's connection at Lan's turn."""
    made = server.post("/api/tables", {"quick": True, "name": "Lan", "seed": 4, **options}).json()
    me = server.ws(made["id"])
    me.send(type="hello", token=made["token"], lang=lang)
    me.until(lambda m: m["type"] == "welcome")
    state = wait_turn(me)
    if state["view"]["is_over"]:
        me.send(type="next_hand", version=state["version"])
        me.until(lambda m: m["type"] == "state" and not m["view"]["is_over"])
        state = wait_turn(me)
    return made["token"], me, state


@pytest.mark.parametrize("lang", ["en", "vi"])
def test_the_timer_tells_the_player_and_the_history_marks_its_move(sqlite_url: str,
                                                                    lang: str) -> None:
    clock = ServerTime()  # the timer runs out when the test moves the time, once
    with contextmanager(running)(sqlite_url, clock=clock) as server:
        _, me, before = my_turn(server, lang, turn_timer=2)
        server.advance(2)
        told = me.until(lambda m: m["type"] == "timed_out")
        assert told["seat"] == 0
        words = {"en": ("Time ran out: the timer played {} for you.",
                        "Time ran out: the timer passed for you."),
                 "vi": ("Hết giờ: đồng hồ đã đánh {} thay bạn.",
                        "Hết giờ: đồng hồ đã bỏ lượt thay bạn.")}
        played_words, passed_words = words[lang]
        assert told["reason"] == (passed_words if told["move"] == "pass"
                                  else played_words.format(told["move"]))
        after = me.until(lambda m: m["type"] == "state" and m["version"] > before["version"])
        n = len(before["view"]["events"])
        event = after["view"]["events"][n]
        assert event["seat"] == 0 and event["timed_out"] is True
        assert (event.get("cards") or event["kind"]) == told["move"]
        # only the timer's move is marked (the bots' are not)
        assert [e for e in after["view"]["events"] if e.get("timed_out")] == [event]


def test_the_mark_stays_after_a_restart(sqlite_url: str) -> None:
    clock = ServerTime()
    with contextmanager(running)(sqlite_url, clock=clock) as server:
        _, me, before = my_turn(server, turn_timer=2)
        server.advance(2)
        me.until(lambda m: m["type"] == "timed_out")
        n = len(before["view"]["events"])
        server.restart()
        watcher = server.ws(before["info"]["id"])
        state = watcher.hello()
        assert state["info"]["hand_no"] == before["info"]["hand_no"]
        assert state["view"]["events"][n]["seat"] == 0
        assert state["view"]["events"][n].get("timed_out") is True
        # the timer's move alone is marked; no bot's move is
        marked = [i for i, e in enumerate(state["view"]["events"]) if e.get("timed_out")]
        assert marked == [n]


def test_a_server_on_a_clock_moved_by_hand_runs_its_turn_timers_on_it(sqlite_url: str) -> None:
    """The server's one time reaches its tables: the turn timer runs out when the test moves
    the time past it, not a real second later."""
    clock = ServerTime()
    with contextmanager(running)(sqlite_url, clock=clock) as server:
        _, me, before = my_turn(server, turn_timer=30)
        assert before["info"]["turn_deadline"] == pytest.approx(clock.wall() + 30, abs=0.01)
        room = room_of(server, before["info"]["id"])
        server.advance(29.9)
        assert server.call(lambda: room.version) == before["version"]  # still Lan's turn
        server.advance(0.1)
        told = me.until(lambda m: m["type"] == "timed_out")
        assert told["seat"] == 0


def test_the_turn_timer_runs_on_across_a_restart(sqlite_url: str) -> None:
    clock = ServerTime()
    with contextmanager(running)(sqlite_url, clock=clock) as server:
        token, _, state = my_turn(server, turn_timer=30)
        deadline = state["info"]["turn_deadline"]
        assert deadline == pytest.approx(clock.wall() + 30, abs=0.01)
        server.advance(2)
        server.restart()
        again = server.ws(state["info"]["id"])
        restored = again.hello(token)
        assert restored["view"]["turn"] == 0 and restored["version"] == state["version"]
        # not a whole new 30 s: the 28 left
        assert restored["info"]["turn_deadline"] == pytest.approx(deadline, abs=0.01)
        assert restored["info"]["turn_deadline"] - clock.wall() == pytest.approx(28, abs=0.01)

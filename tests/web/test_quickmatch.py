"""Quick match through the API: the queue, cancelling, the tables it makes, the claim that two
matchmakers cannot both win, and a later player taking a bot's seat at the next hand."""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tienlen import Rules
from tienlen.web import matchmaker
from tienlen.web.quickmatch.matchqueue import QueueEntry, SqlMatchQueue
from tienlen.web.ratings import ratings
from tienlen.web.schema import open_repository
from tienlen.web.table.state import Refused, TableState
from tienlen.web.tablelog.writes import TableSettings, Write

from .conftest import NO_CLIENT_LIMITS, Server, Visitor, running
from .test_rated_hands import IN_PLAY, play, room_of
from .waiting import poll

WAIT = 1.0  # seconds the tests' servers wait before bots fill a table


@pytest.fixture
def quick(sqlite_url: str) -> Iterator[Server]:
    yield from running(sqlite_url, limits=dataclasses.replace(NO_CLIENT_LIMITS, match_wait=WAIT))


def in_play_server(sqlite_url: str, monkeypatch: pytest.MonkeyPatch,
                   wait: float = WAIT) -> Iterator[Server]:
    """A server whose quick match waits ``wait`` seconds before bots fill a table and deals a
    southern preset no instant win ends: a table offers a seat only while a hand is in play,
    and no end panel dealt at once covers the seats a page clicks."""
    monkeypatch.setitem(ratings.MEASURED_PRESET, "southern", IN_PLAY)
    yield from running(sqlite_url, limits=dataclasses.replace(NO_CLIENT_LIMITS, match_wait=wait))


def browser(server: Server) -> Visitor:
    visitor = server.visitor()
    visitor.visit()
    return visitor


def play_now(who: Visitor, name: str, players: int = 4, family: str = "southern") -> dict[str, Any]:
    answer = who.post("/api/quickmatch", {"family": family, "players": players, "name": name})
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def matched(who: Visitor, timeout: float = 20) -> dict[str, Any]:
    found: dict[str, Any] = poll(lambda: who.get("/api/quickmatch").json(),
                                 lambda s: s["state"] == "matched", timeout)
    return found


def test_two_players_waiting_for_a_table_of_two_are_seated_together_at_once(server: Server) -> None:
    lan, minh = browser(server), browser(server)
    first = play_now(lan, "Lan", players=2)
    assert first["state"] in ("waiting", "matched") and first["table"] in (None, first.get("table"))
    play_now(minh, "Minh", players=2)
    a, b = matched(lan), matched(minh)
    assert a["table"] == b["table"] and {a["seat"], b["seat"]} == {0, 1}
    info = server.get(f"/api/tables/{a['table']}").json()
    assert info["status"] == "playing" and info["rules"] == "mien-nam"
    assert sorted(s["name"] for s in info["seats"]) == ["Lan", "Minh"]
    assert all(s["kind"] == "human" for s in info["seats"])
    assert room_of(server, a["table"]).table.rated == "southern"
    # each page opening the table is seated by its identity, as at any table
    ws = lan.ws(a["table"])
    ws.hello()
    assert ws.seat == a["seat"]
    ws.close()


def test_waiting_says_how_long_and_how_many_and_cancel_takes_one_out(server: Server) -> None:
    lan, minh = browser(server), browser(server)
    play_now(lan, "Lan", players=3, family="northern")
    play_now(minh, "Minh", players=3, family="northern")
    state = poll(lambda: lan.get("/api/quickmatch").json(), lambda s: s["waited"] >= 0.5)
    assert (state["state"], state["table"], state["waiting"]) == ("waiting", None, 2)
    # bots fill the seats people did not once the queue's oldest (Lan) has waited 20 s
    wait = server.app.state.services.limits.match_wait
    assert state["fill_in"] == pytest.approx(wait - state["waited"], abs=0.3)
    assert minh.get("/api/quickmatch").json()["fill_in"] <= state["fill_in"]
    cancelled = lan.post("/api/quickmatch/cancel").json()
    assert cancelled["cancelled"] is True and cancelled["state"] == "none"
    assert lan.get("/api/quickmatch").json() == {"state": "none", "waited": 0.0, "table": None,
                                                 "waiting": 0}
    assert minh.get("/api/quickmatch").json()["waiting"] == 1
    # asking again moves the entry: one entry per identity, in the queue asked last
    play_now(minh, "Minh", players=5, family="southern")
    assert minh.get("/api/quickmatch").json()["players"] == 5
    queue = server.app.state.services.queue
    assert queue.count("northern", 3) == 0 and queue.count("southern", 5) == 1


def test_a_browser_not_known_yet_needs_a_name_and_a_script_a_cookie(server: Server) -> None:
    new = browser(server)
    refused = new.post("/api/quickmatch", {"family": "southern"})
    assert refused.status_code == 400
    assert new.get("/api/me").json()["id"] is None  # a refused request leaves no guest
    script = server.post("/api/quickmatch", {"family": "southern", "name": "Bot maker"})
    assert script.status_code == 403
    bad = new.post("/api/quickmatch", {"family": "eastern", "name": "Lan"})
    assert bad.status_code == 422


def test_after_the_wait_bots_near_the_players_rating_fill_the_table(quick: Server) -> None:
    lan = browser(quick)
    play_now(lan, "Lan", players=4)
    state = matched(lan)
    assert state["waited"] >= WAIT - 0.1
    info = quick.get(f"/api/tables/{state['table']}").json()
    assert info["status"] == "playing"
    kinds = [s["kind"] for s in info["seats"]]
    assert kinds.count("human") == 1 and kinds.count("bot") == 3
    # a new player (mu 25) meets the level anchored nearest 25 in the southern family: greedy
    assert {s["level"] for s in info["seats"] if s["kind"] == "bot"} == {"greedy"}


def test_a_blocked_player_is_not_seated_with_the_blocker(quick: Server) -> None:
    lan, minh = browser(quick), browser(quick)
    # Lan and Minh meet once (so that Lan may block Minh's seat), then Lan blocks Minh
    play_now(lan, "Lan", players=2)
    play_now(minh, "Minh", players=2)
    first = matched(lan)
    minh_seat = 1 - first["seat"]
    assert lan.post("/api/blocks", {"table": first["table"], "seat": minh_seat}).status_code == 200
    play_now(lan, "Lan", players=2)
    play_now(minh, "Minh", players=2)
    a, b = matched(lan), matched(minh)
    assert a["table"] != b["table"]  # each with a bot, after the wait


def test_two_matchmakers_claiming_one_player_cannot_both_win(tmp_path: Path) -> None:
    repo = open_repository(f"sqlite:///{tmp_path / 'q.sqlite3'}")
    one, two = SqlMatchQueue(repo.engine), SqlMatchQueue(repo.engine)
    for who in "abc":
        one.join(QueueEntry(who, who, "southern", 2, 25.0, 8.0, 0.0))
    assert one.claim({"a": ("T1", 0), "b": ("T1", 1)})
    assert not two.claim({"b": ("T2", 0), "c": ("T2", 1)})  # b is T1's: nothing changes
    assert two.get("c").waiting and two.get("b").table_id == "T1"
    # at the same moment, in two threads: exactly one wins
    for who in "de":
        one.join(QueueEntry(who, who, "southern", 2, 25.0, 8.0, 0.0))
    wins: list[bool] = []
    start = threading.Barrier(2)

    def claim(queue: SqlMatchQueue, table: str) -> None:
        start.wait()
        wins.append(queue.claim({"d": (table, 0), "e": (table, 1)}))

    threads = [threading.Thread(target=claim, args=(q, t)) for q, t in ((one, "T3"), (two, "T4"))]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sorted(wins) == [False, True]
    assert one.get("d").table_id == one.get("e").table_id
    repo.close()


def test_two_servers_on_one_database_seat_every_player_once(sqlite_url: str) -> None:
    limits = dataclasses.replace(NO_CLIENT_LIMITS, match_wait=60.0)
    first, second = Server(sqlite_url, limits=limits), Server(sqlite_url, limits=limits)
    first.start()
    second.start()
    try:
        players = [browser(first) for _ in range(8)]
        for i, who in enumerate(players):
            play_now(who, f"P{i}", players=2)
        tables = [matched(who)["table"] for who in players]

        def seated_now() -> dict[str, list[str | None]]:
            return {room.id: [s.owner for s in room.table.seats]
                    for server in (first, second) for room in server.app.state.lobby.rooms.values()}

        # a group is claimed in the queue, then its table made: each matched table is made soon
        seated = poll(seated_now, lambda found: set(tables) <= set(found))
        assert sorted(tables) == sorted(t for t, owners in seated.items() for _ in owners)
        assert len({o for owners in seated.values() for o in owners}) == 8
    finally:
        first.stop()
        second.stop()


def test_a_later_player_takes_a_bots_seat_at_the_next_hand_across_a_restart(
        quick: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    # nobody is connected for a while across the restarts: the kept seat is not given back for
    # that here (test_quickmatch_offers.py tests when it is), however slow the machine
    monkeypatch.setattr(matchmaker, "STRANDED", 3600.0)
    # a southern preset no instant win ends: a seat is offered only while a hand is in play
    monkeypatch.setitem(ratings.MEASURED_PRESET, "southern", IN_PLAY)
    lan, minh = browser(quick), browser(quick)
    play_now(lan, "Lan", players=2)
    table_id = matched(lan)["table"]
    seats = quick.get(f"/api/tables/{table_id}").json()["seats"]
    bot = next(s["seat"] for s in seats if s["kind"] == "bot")
    hand = quick.get(f"/api/tables/{table_id}").json()["hand_no"]
    there = lan.ws(table_id)
    there.hello()  # a table is offered only while a player is there to deal the next hand
    play_now(minh, "Minh", players=2)
    kept = matched(minh)
    assert (kept["table"], kept["seat"], kept["next_hand"]) == (table_id, bot, True)
    there.close()
    watch = minh.ws(table_id)
    watch.hello()
    assert watch.seat is None  # the hand in play stays the bot's
    assert quick.get(f"/api/tables/{table_id}").json()["seats"][bot]["kind"] == "bot"
    watch.close()
    quick.restart()  # the seat kept is stored: it is still Minh's to take
    assert matched(minh)["next_hand"] is True
    play(quick, table_id)  # the hand ends with the bot in the seat
    records = quick.get(f"/api/tables/{table_id}/records").json()
    watch = minh.ws(table_id)
    watch.hello()
    host = lan.ws(table_id)
    state = host.hello()
    host.send(type="next_hand", version=state["version"])
    welcome = watch.until(lambda m: m["type"] == "welcome" and m["seat"] == bot)
    assert welcome["seat"] == bot
    info = quick.get(f"/api/tables/{table_id}").json()
    assert info["hand_no"] == hand + 1
    assert info["seats"][bot]["kind"] == "human" and info["seats"][bot]["name"] == "Minh"
    assert matched(minh)["next_hand"] is False
    assert records  # the finished hand was the bot's: kept as it was
    room = room_of(quick, table_id)
    assert room.table.seats[bot].owner == minh.get("/api/me").json()["id"]
    assert room.table.game is not None and room.table.game.names[bot] == "Minh"  # its record's
    quick.restart()  # and after another restart the seat is Minh's
    info = quick.get(f"/api/tables/{table_id}").json()
    assert info["seats"][bot]["kind"] == "human" and info["seats"][bot]["name"] == "Minh"
    again = room_of(quick, table_id).table.game
    assert again is not None and again.names[bot] == "Minh"
    watch.close()
    host.close()


def test_the_lobby_counts_players_online_playing_and_waiting(server: Server) -> None:
    before = server.get("/api/lobby").json()
    assert set(before) == {"online", "playing", "waiting", "pools"}
    assert before["online"] == 1 and before["pools"] == []  # a newcomer: the one asking
    lan, minh = browser(server), browser(server)
    play_now(lan, "Lan", players=3)
    counts = lan.get("/api/lobby").json()
    assert counts["waiting"] == before["waiting"] + 1 and counts["online"] == 1  # Lan, asking
    assert counts["pools"] == [{"family": "southern", "size": 3, "waiting": 1}]
    play_now(minh, "Minh", players=2)
    play_now(browser(server), "Hoa", players=2)
    matched(minh)
    counts = server.get("/api/lobby").json()
    assert counts["playing"] >= 2 and counts["waiting"] == 1
    assert counts["online"] >= counts["playing"] + counts["waiting"] + 1  # and the one asking
    assert counts["pools"] == [{"family": "southern", "size": 3, "waiting": 1}]


def test_a_blocked_player_does_not_take_a_bots_seat_at_the_blockers_table(quick: Server) -> None:
    lan, minh = browser(quick), browser(quick)
    play_now(lan, "Lan", players=2)
    play_now(minh, "Minh", players=2)
    first = matched(lan)
    assert lan.post("/api/blocks", {"table": first["table"],
                                    "seat": 1 - first["seat"]}).status_code == 200
    play_now(lan, "Lan", players=2)
    own = matched(lan)  # alone: with a bot, after the wait
    there = lan.ws(own["table"])
    there.hello()  # there: its table would be offered, but for the block
    play_now(minh, "Minh", players=2)
    other = matched(minh)
    assert other["table"] != own["table"] and other["next_hand"] is False
    there.close()


def test_the_deal_the_driver_stages_gives_the_kept_seat_first() -> None:
    writes: list[Write] = []
    settings = TableSettings("T", Rules.preset("mien-nam").to_toml(), 2, 5, 30.0, 0.0,
                             quick_match=True)
    table = TableState(settings, writes.append)
    table.join_seat("Lan", 0, "lan")
    table.add_bot()
    table.start()
    with pytest.raises(Refused):
        table.reserve(0, "minh", "Minh")  # a player's seat is not a bot's to give
    table.reserve(1, "minh", "Minh")
    with pytest.raises(Refused):
        table.reserve(1, "hoa", "Hoa")  # kept already
    while not table.game.is_over:  # the hand, the bot's in seat 1 to its end
        asked = table.asked()
        if table.seats[asked.seat].kind == "human":
            table.apply_move(asked.seat, str(table.choose(asked.seat)))
        elif (staged := table.bot_move(time.time())) is not None:
            writes.append(staged.write)
            table.install(staged)
    assert table.seats[1].kind == "bot"
    staged = table.stage_deal(time.time())  # as the countdown's deal is made
    writes.append(staged.write)
    table.install(staged)
    assert (table.seats[1].kind, table.seats[1].name, table.seats[1].owner) == ("human", "Minh",
                                                                                 "minh")
    kinds = [w.entry.kind for w in writes]
    assert kinds.index("reserve") < kinds.index("take") < kinds.index("next")
    assert table.reserved == {} and table.taken == [1]


def test_two_strangers_of_one_name_are_told_apart_at_their_table(server: Server) -> None:
    first, second = browser(server), browser(server)
    play_now(first, "Lan", players=2)
    play_now(second, "Lan", players=2)
    table_id = matched(first)["table"]
    names = sorted(s["name"] for s in server.get(f"/api/tables/{table_id}").json()["seats"])
    assert names == ["Lan", "Lan 2"]


def test_a_flood_of_browsers_from_one_address_is_refused_in_the_queue(sqlite_url: str) -> None:
    # each wait ends in a table (bots fill it): counted as one made for the address
    limits = dataclasses.replace(NO_CLIENT_LIMITS, match_wait=3600.0, creates_per_address=3)
    for srv in running(sqlite_url, limits=limits):
        for n in range(3):
            play_now(browser(srv), f"Guest {n}", players=8)
        answer = browser(srv).post("/api/quickmatch", {"players": 8, "name": "Guest 4"})
        assert answer.status_code == 429 and answer.headers["Retry-After"]
        assert "at most 3 new tables a minute from one address" in answer.json()["detail"]
        assert srv.get("/api/lobby").json()["waiting"] == 3  # the refused one is not queued

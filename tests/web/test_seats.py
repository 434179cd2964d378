"""No stranger can lock a table: taken names are refused, the host removes seats, players leave,
a private table is found by its link only, and the table's bot level is every bot's."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("fastapi")

from .conftest import Server, WsClient
from .waiting import poll, stored


def host_table(server: Server, **extra: Any) -> tuple[dict[str, Any], WsClient]:
    made = server.browser().post("/api/tables", {"name": "Alice", "players": 3, **extra}).json()
    alice = server.ws(made["id"])
    alice.hello(made["token"])
    return made, alice


def join(server: Server, table_id: str, name: str) -> WsClient:
    guest = server.browser().ws(table_id)
    guest.hello()
    guest.send(type="join", name=name)
    guest.until(lambda m: m["type"] == "welcome" and m["seat"] is not None)
    return guest


def seats(server: Server, table_id: str) -> list[dict[str, Any]]:
    return list(server.get(f"/api/tables/{table_id}").json()["seats"])


def test_a_taken_name_is_refused_at_join_and_the_table_can_still_start(server: Server) -> None:
    made, alice = host_table(server)
    assert made["info"]["host_seat"] == 0
    stranger = server.browser().ws(made["id"])
    stranger.hello()
    for name in ("Alice", "alice", " ALICE "):
        stranger.send(type="join", name=name)
        error = stranger.error()
        assert "the name" in error["reason"] and "taken" in error["reason"]
    assert [s["kind"] for s in seats(server, made["id"])] == ["human", "empty", "empty"]
    stranger.send(type="join", name="Bob")
    stranger.until(lambda m: m["type"] == "welcome" and m["seat"] == 1)
    alice.send(type="add_bot")
    alice.send(type="start")
    state = alice.until(lambda m: m["type"] == "state" and m["view"] is not None)
    assert state["info"]["status"] == "playing"


def test_the_host_removes_a_bot_and_an_absent_player_before_the_start(server: Server) -> None:
    made, alice = host_table(server, players=4)
    bob = join(server, made["id"], "Bob")
    carol = join(server, made["id"], "Carol")
    alice.send(type="add_bot", seat=3)
    alice.until(lambda m: m["type"] == "state" and m["info"]["seats"][3]["kind"] == "bot")
    # nobody but the host (a player who is here may be removed too: tests/web/test_chat.py)
    bob.send(type="remove_seat", seat=3)
    assert "only the table's host" in bob.error()["reason"]
    alice.send(type="remove_seat", seat=0)
    assert "your own seat" in alice.error()["reason"]
    # a bot, then a player who went away
    alice.send(type="remove_seat", seat=3)
    alice.until(lambda m: m["type"] == "state" and m["info"]["seats"][3]["kind"] == "empty")
    carol.close()
    alice.until(lambda m: m["type"] == "state" and not m["info"]["seats"][2]["connected"])
    alice.send(type="remove_seat", seat=2)
    alice.until(lambda m: m["type"] == "state" and m["info"]["seats"][2]["kind"] == "empty")
    assert [s["kind"] for s in seats(server, made["id"])] == ["human", "human", "empty", "empty"]
    # the removed player's token opens nothing now; the seat is free for someone else
    back = server.ws(made["id"])
    back.send(type="hello", token=carol.token)
    assert "not one of this table's" in back.error()["reason"]
    join(server, made["id"], "Dan")
    alice.send(type="remove_seat", seat=3)
    assert "already empty" in alice.error()["reason"]
    # once the game has started, no seat is removed
    alice.send(type="add_bot")
    alice.send(type="start")
    alice.until(lambda m: m["type"] == "state" and m["info"]["status"] == "playing")
    alice.send(type="remove_seat", seat=1)
    assert "started" in alice.error()["reason"]
    del bob


def test_only_the_host_seats_bots_and_starts_the_table(server: Server) -> None:
    made, alice = host_table(server)
    bob = join(server, made["id"], "Bob")
    before = stored(server)
    bob.send(type="add_bot")
    assert bob.error()["reason"] == "only the table's host (seat 0) can seat a bot"
    bob.send(type="add_bot", seat=2, level="random")
    assert "only the table's host (seat 0)" in bob.error()["reason"]
    bob.send(type="start")
    assert bob.error()["reason"] == "only the table's host (seat 0) can start the table"
    vi = server.ws(made["id"])
    vi.send(type="hello", token=bob.token, lang="vi")
    vi.send(type="start")
    assert vi.error()["reason"] == "chỉ chủ bàn (ghế 0) mới được bắt đầu ván"
    # the refusals changed nothing, stored or shown
    assert stored(server) == before
    assert [s["kind"] for s in seats(server, made["id"])] == ["human", "human", "empty"]
    # the host does both
    alice.send(type="add_bot")
    alice.until(lambda m: m["type"] == "state" and m["info"]["seats"][2]["kind"] == "bot")
    bob.send(type="start")
    assert "only the table's host" in bob.error()["reason"]
    alice.send(type="start")
    assert alice.until(lambda m: m["type"] == "state" and m["view"] is not None)["info"][
        "status"] == "playing"


def test_a_table_made_without_a_name_is_run_by_the_first_to_sit(server: Server) -> None:
    made = server.post("/api/tables", {"players": 3}).json()
    assert made["info"]["host_seat"] is None
    bob = server.browser().ws(made["id"])
    bob.hello()
    bob.send(type="join", name="Bob", seat=2)
    bob.until(lambda m: m["type"] == "welcome" and m["seat"] == 2)
    carol = join(server, made["id"], "Carol")
    assert carol.seat == 0
    carol.send(type="add_bot")
    assert carol.error()["reason"] == "only the table's host (seat 2) can seat a bot"
    server.restart()  # the host is stored
    assert server.get(f"/api/tables/{made['id']}").json()["host_seat"] == 2
    back = server.ws(made["id"])
    back.hello(bob.token)
    back.send(type="add_bot")
    back.until(lambda m: m["type"] == "state" and m["info"]["seats"][1]["kind"] == "bot")


def test_a_player_who_leaves_before_the_start_frees_the_seat(server: Server) -> None:
    made, alice = host_table(server)
    bob = join(server, made["id"], "Bob")
    token = bob.token
    bob.send(type="leave")
    welcome = bob.until(lambda m: m["type"] == "welcome")
    assert welcome["seat"] is None
    assert seats(server, made["id"])[1]["kind"] == "empty"
    again = server.ws(made["id"])
    again.send(type="hello", token=token)
    assert "not one of this table's" in again.error()["reason"]
    # the host leaving passes the role to the first player still seated
    join(server, made["id"], "Bob")
    alice.send(type="leave")
    alice.until(lambda m: m["type"] == "welcome" and m["seat"] is None)
    info = server.get(f"/api/tables/{made['id']}").json()
    assert info["host_seat"] == 1 and info["seats"][0]["kind"] == "empty"


def test_a_player_who_leaves_a_game_is_replaced_by_a_bot_and_watches(server: Server) -> None:
    made, alice = host_table(server, players=2, away_timeout=3600)
    bob = join(server, made["id"], "Bob")
    alice.send(type="start")
    alice.until(lambda m: m["type"] == "state" and m["view"] is not None)
    bob.send(type="leave")
    assert bob.until(lambda m: m["type"] == "welcome")["seat"] is None
    watching = bob.until(lambda m: m["type"] == "state")
    assert watching["view"]["hand"] == [] and watching["info"]["seats"][1]["kind"] == "bot"
    assert watching["info"]["seats"][1]["level"] == "heuristic"
    # the bot plays Bob's seat: the hand goes on to its end with only Alice acting
    while True:
        state = alice.until(lambda m: m["type"] == "state" and
                            (m["view"]["turn"] == 0 or m["view"]["is_over"]))
        if state["view"]["is_over"]:
            break
        alice.send(type="play", version=state["version"], move=state["view"]["legal"][0])
    assert sum(state["view"]["scores"]) == 0


def test_a_private_table_is_not_listed_but_joinable_by_its_link(server: Server) -> None:
    public = server.browser().post("/api/tables", {"name": "Alice", "table_name": "Come in"}).json()
    private = server.browser().post("/api/tables", {"name": "Alice", "table_name": "Friends only",
                                          "private": True}).json()
    listed = server.get("/api/tables").json()
    assert [t["name"] for t in listed] == ["Come in"]
    assert listed[0]["private"] is False and listed[0]["hand_no"] == 0
    assert private["info"]["private"] is True and private["invite"] == f"/t/{private['id']}"
    assert server.get(private["invite"]).status_code == 200
    bob = join(server, private["id"], "Bob")
    assert bob.seat == 1
    assert public["info"]["name"] == "Come in"


def test_the_tables_bot_level_is_every_bots_level(server: Server) -> None:
    made, alice = host_table(server, level="greedy")
    assert made["info"]["bot_level"] == "greedy"
    alice.send(type="add_bot")
    alice.send(type="add_bot", level="random")
    state = alice.until(lambda m: m["type"] == "state" and
                        all(s["kind"] != "empty" for s in m["info"]["seats"]))
    assert [s["level"] for s in state["info"]["seats"][1:]] == ["greedy", "random"]
    quick = server.post("/api/tables", {"quick": True, "level": "random", "players": 3}).json()
    assert [s["level"] for s in quick["info"]["seats"]] == ["random"] * 3


def test_a_table_its_players_left_leaves_the_lobby_until_one_comes_back(server: Server) -> None:
    """The lobby lists a table being played only while someone plays it: once its players are
    gone it is paused ("nobody is here") and nothing happens there."""
    made, alice = host_table(server)
    alice.send(type="add_bot")
    alice.send(type="add_bot")
    alice.send(type="start")
    alice.until(lambda m: m["type"] == "state" and m["view"] is not None)

    def listed() -> bool:
        return made["id"] in [t["id"] for t in server.get("/api/tables").json()]

    assert listed()
    alice.close()
    poll(lambda: server.get(f"/api/tables/{made['id']}").json(), lambda t: t["paused"])
    assert not listed()
    assert server.get(f"/api/tables/{made['id']}").status_code == 200  # still there, by its link
    back = server.ws(made["id"])
    back.hello(made["token"])
    poll(lambda: server.get(f"/api/tables/{made['id']}").json(), lambda t: not t["paused"])
    assert listed()
    back.close()

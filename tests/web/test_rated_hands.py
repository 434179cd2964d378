"""A hand finished at the table rates its players: both people of a rated table move, bots stay
at their anchors, a player who left during the hand is last, a practice table or changed
options rate nobody (the hand is still theirs), and a restart neither loses nor repeats it."""

from __future__ import annotations

import functools
import time
from typing import Any

import pytest

pytest.importorskip("fastapi")

from sqlalchemy import select

from tienlen.web.accounts.rows import PlayedRow
from tienlen.web.ratings.ratings import MU, Rating, rate_hand
from tienlen.web.records.played import NOBODY, seated
from tienlen.web.tablelog.writes import HandEnd

from .conftest import Server, Visitor, WsClient

# a southern preset whose deals no instant win ends (mien-nam's end about one in 25): the
# tests that act during the hand need one still in play
IN_PLAY = "thirteen"


def browser(server: Server) -> Visitor:
    visitor = server.visitor()
    visitor.visit()
    return visitor


def sat_down(server: Server, lan: Visitor, other: Visitor, name: str = "Minh",
             **spec: Any) -> tuple[str, WsClient, WsClient]:
    """Lan makes a table (``spec``: the request's fields) and hosts it at seat 0; ``other``
    sits at seat 1 as ``name``; not started."""
    made = lan.post("/api/tables", {"name": "Lan", **spec}).json()
    host = lan.ws(made["id"])
    host.hello()
    guest = other.ws(made["id"])
    guest.hello()
    guest.send(type="join", name=name)
    guest.until(lambda m: m["type"] == "welcome" and m["seat"] == 1)
    return made["id"], host, guest


def two_people(server: Server, players: int = 4, lan: Visitor | None = None,
               minh: Visitor | None = None, **spec: Any) -> tuple[str, WsClient, WsClient]:
    """Lan (a browser, the host at seat 0) and Minh (another, seat 1) at a table of ``players``
    seats, the rest bots, started."""
    spec = {"rules": "mien-nam", "away_timeout": 3600, **spec}
    table_id, host, guest = sat_down(server, lan or browser(server), minh or browser(server),
                                     players=players, **spec)
    for _ in range(players - 2):
        host.send(type="add_bot", level="greedy")
    host.send(type="start")
    host.until(lambda m: m["type"] == "state" and m["view"] is not None)
    return table_id, host, guest


def play(server: Server, table_id: str, moves: int | None = None) -> None:
    """Make ``moves`` moves of the hand (None: until it ends) on the server's loop, each through
    the table's one write path (``Room.act``: made, stored by the committer, then told): a
    person's as a person's move is made (``TableState.apply_move``), a bot's as its tick makes
    it (``TableState.make``)."""
    def run() -> None:
        room = server.app.state.lobby.get(table_id)
        table, made = room.table, 0
        while not table.game.is_over and (moves is None or made < moves):
            asked = table.asked()
            if table.seats[asked.seat].kind == "human":
                move = str(table.choose(asked.seat))
                room.act(functools.partial(table.apply_move, asked.seat, move))
            else:
                staged = table.bot_move(time.time())
                if staged is None:
                    continue
                room.act(functools.partial(table.make, staged))
            made += 1
    server.call(run)


def room_of(server: Server, table_id: str) -> Any:
    return server.app.state.lobby.get(table_id)


def owners(server: Server, table_id: str) -> list[str | None]:
    return [s.owner for s in room_of(server, table_id).table.seats]


def rating(server: Server, player: str | None, family: str = "southern") -> Rating | None:
    assert player is not None
    found: Rating | None = server.app.state.services.ratings.get(player, family)
    return found


def played(server: Server) -> list[tuple[str, str, int, int, int, str | None, bool]]:
    p = PlayedRow
    with server.app.state.services.repo.engine.connect() as conn:
        rows = conn.execute(select(p.identity, p.table_id, p.hand_no, p.seat, p.place, p.family,
                                   p.private).order_by(p.seat)).all()
    return [tuple(row) for row in rows]  # type: ignore[misc]


def expected(server: Server, table_id: str, left: frozenset[int] = frozenset()) -> dict[str, Rating]:
    """The ratings the finished hand should give from new ones (the rating model's own)."""
    room = room_of(server, table_id)
    seats = room.table.seats
    end = HandEnd(1, "southern", False, tuple(s.owner for s in seats),
                  tuple(None if s.owner else s.level for s in seats),
                  tuple(room.game.finish_order), left)
    return rate_hand("southern", seated(end), end.finish_order, {}, left)


def test_a_rated_hand_moves_both_players_and_lists_it_for_them(any_server: Server) -> None:
    server = any_server
    table_id, _, _ = two_people(server)
    lan, minh, *_ = owners(server, table_id)
    bots = server.post("/api/tables", {"quick": True, "rules": "mien-nam"}).json()["id"]
    script = server.post("/api/tables", {"quick": True, "rules": "mien-nam", "seed": 5,
                                         "name": "Script"}).json()["id"]  # no cookie: a token
    for other in (table_id, bots, script):  # the other two write nothing
        play(server, other)
    want = expected(server, table_id)
    for player in (lan, minh):
        got = rating(server, player)
        assert got is not None and got.hands == 1 and got.mu != MU
        assert got == want[player or ""]
    order = room_of(server, table_id).game.finish_order
    assert played(server) == [(lan, table_id, 1, 0, order.index(0) + 1, "southern", False),
                              (minh, table_id, 1, 1, order.index(1) + 1, "southern", False)]


def test_a_bot_that_ends_the_hand_rates_it_too(server: Server) -> None:
    """The hand's last move is a bot's more often than not: the driver's group commit rates it."""
    table_id, host, guest = two_people(server, players=3, rules=IN_PLAY)
    host.close()
    guest.close()
    room = room_of(server, table_id)
    server.call(lambda: [setattr(room.table, "away_timeout", 0.0),  # the bots play for both
                         room.changed()])
    deadline = time.monotonic() + 30
    while not server.call(lambda: room.game.is_over):
        assert time.monotonic() < deadline, "the bots did not finish the hand"
        time.sleep(0.05)
    lan, minh, _ = owners(server, table_id)
    assert [rating(server, p).hands for p in (lan, minh)] == [1, 1]  # type: ignore[union-attr]


def test_a_player_who_leaves_during_the_hand_is_rated_last(server: Server) -> None:
    table_id, host, _ = two_people(server, rules=IN_PLAY)
    lan, minh, *_ = owners(server, table_id)
    play(server, table_id, moves=3)
    host.send(type="leave")
    host.until(lambda m: m["type"] == "welcome" and m["seat"] is None)
    server.restart()  # the leave is read back from the log
    play(server, table_id)
    assert room_of(server, table_id).table.seats[0].kind == "bot"
    assert played(server)[0][4] == 4  # Lan's place: last, whoever played the seat on
    want = expected(server, table_id, left=frozenset({0}))
    assert rating(server, lan) == want[lan or ""] and rating(server, minh) == want[minh or ""]
    # the next hand is the bot's: Lan is not in it, nor rated for it
    room = room_of(server, table_id)
    server.call(lambda: room.act(room.table.next_hand))
    play(server, table_id)
    assert [row[0] for row in played(server)] == [lan, minh, minh]
    assert rating(server, lan).hands == 1  # type: ignore[union-attr]
    assert rating(server, minh).hands == 2  # type: ignore[union-attr]


def test_a_restart_neither_loses_nor_repeats_a_rated_hand(server: Server) -> None:
    table_id, _, _ = two_people(server, rules=IN_PLAY)
    lan, minh, *_ = owners(server, table_id)
    play(server, table_id, moves=5)
    server.restart()
    play(server, table_id)
    after = [rating(server, p) for p in (lan, minh)]
    assert [r.hands for r in after if r is not None] == [1, 1]
    server.restart()  # the move that ended it is replayed from the log: nothing written again
    assert [rating(server, p) for p in (lan, minh)] == after
    assert len(played(server)) == 2


@pytest.mark.parametrize("spec", [{"seed": 7, "quick": True}, {"options": "stake = 2"}],
                         ids=["practice", "changed-options"])
def test_an_unrated_table_rates_nobody_but_keeps_the_hand(server: Server,
                                                           spec: dict[str, Any]) -> None:
    lan = browser(server)
    made = lan.post("/api/tables", {"name": "Lan", "players": 4, "rules": "mien-nam",
                                    "level": "greedy", "quick": True, **spec}).json()
    play(server, made["id"])
    owner = owners(server, made["id"])[0]
    assert rating(server, owner) is None
    assert [(row[0], row[5]) for row in played(server)] == [(owner, None)]


def test_a_seat_of_nobody_counts_in_the_order_but_is_kept_nowhere() -> None:
    """A person held by a token only (a script an older release seated at a rated table: a
    rated table seats none now, tests/web/test_fair_seats.py) is rated as a newcomer who is
    never stored."""
    for first in (True, False):
        order = (0, 1) if first else (1, 0)
        end = HandEnd(1, "southern", False, ("lan", None), (None, None), order, frozenset())
        seats = seated(end)
        assert seats[0] == "lan" and isinstance(seats[1], str) and seats[1].startswith(NOBODY)
        got = rate_hand("southern", seats, order, {})
        assert list(got) == ["lan", seats[1]] and (got["lan"].mu > MU) == first
        assert got["lan"] == rate_hand("southern", ["lan", "newcomer"], order, {})["lan"]


def test_a_hand_won_at_the_deal_is_stored_and_listed(server: Server) -> None:
    """An instant win the deal settles at once (seed 0 deals six pairs to seat 3) ends the hand
    with no move: its record and its players' row are stored with the deal."""
    lan = browser(server)
    made = lan.post("/api/tables", {"name": "Lan", "players": 4, "rules": "mien-nam",
                                    "quick": True, "seed": 0}).json()
    assert room_of(server, made["id"]).game.is_over
    assert [r["hand"] for r in server.get(f"/api/tables/{made['id']}/records").json()] == [1]
    assert [(row[0], row[2], row[4]) for row in played(server)] == [
        (owners(server, made["id"])[0], 1, 2)]  # seat 3 first, then seats 0, 1, 2

"""A finished hand's payments reach the page already said, in each connection's language, in the
terminal's words (tienlen.paywords, "you" being the connection's seat): the page keeps no
second copy of the wording."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("fastapi")

from tienlen import Game, Rules
from tienlen.i18n import display_name
from tienlen.paywords import payment_line
from tienlen.web.room.protocol import SeatInfo
from tienlen.web.room.views import seat_names, seat_view, worded

from .conftest import Server, WsClient

# mien-nam practice tables whose first hand, Lan playing first_legal, ends with a chop and two
# penalties (a two held, cóng), or with the places' payments alone (the bots are deterministic)
CHOP_AND_PENALTIES = 8
ORDINARY = 2


def first_legal(legal: list[str], table: str | None) -> str:
    """The first legal play; a pass only when nothing else is allowed."""
    return next((move for move in legal if move != "pass"), "pass")


def test_a_seat_view_says_its_payments_as_the_terminal_does() -> None:
    """A chain of chops (chặt chồng) paid at the round's end, said for each seat and a
    spectator; a view not yet said carries the facts alone, as before."""
    hands = ["2h 7c 8c", "3s 3c 4s 4c 5d 5h Qd", "Js Jc Jd Jh Qc", "6s 6c 7s 7d 8s 8d 9s 9c Kc"]
    game = Game(Rules.preset("mien-nam"), hands, leader=0, first_hand=False)
    for move in ("2h", "3s 3c 4s 4c 5d 5h", "Js Jc Jd Jh", "pass", "pass", "pass"):
        game.play(move)
    names = ["Lan", "Máy 1", "Máy 2", "Máy 3"]
    for seat in (0, 1, 2, None):
        view = seat_view(game, seat)
        assert "words" not in view.model_dump()["payments"][0]
        said = worded(view, game.payments, names, "vi")
        assert [p.words for p in said.payments] == \
            [payment_line(p, names, "vi", seat) for p in game.payments]
    [line] = [p.words for p in worded(seat_view(game, 1), game.payments, names, "vi").payments]
    assert line.startswith("Bạn trả Máy 2 4 điểm: Bạn chặt 2h của Lan bằng ba đôi thông")


def test_the_seats_are_named_as_the_page_names_them() -> None:
    seats = [SeatInfo(seat=0, name="Lan", kind="human"), SeatInfo(seat=1, name="Bot 2", kind="bot"),
             SeatInfo(seat=2, name=None, kind="empty"), SeatInfo(seat=3, name="Bot 7", kind="human")]
    assert seat_names(seats, "vi") == ["Lan", "Máy 2", "Ghế 3", "Bot 7"]
    assert seat_names(seats, "en") == ["Lan", "Bot 2", "Seat 3", "Bot 7"]


def said_in(server: Server, table_id: str, lang: str, token: str | None = None) -> WsClient:
    """A connection to the table in ``lang``: Lan's seat with her token, else a spectator."""
    client = server.ws(table_id)
    client.send(type="hello", lang=lang, **({"token": token} if token else {}))
    client.until(lambda m: m["type"] == "welcome")
    return client


def play_the_hand(lan: WsClient, move: Any) -> dict[str, Any]:
    """Lan plays each of her turns as ``move(legal, table)`` says until the hand ends; its
    last state."""
    def asked_or_over(m: dict[str, Any], after: int) -> bool:
        return m["type"] == "state" and m["version"] > after and m["view"] is not None and \
            (m["view"]["is_over"] or m["view"]["turn"] == lan.seat)

    version = -1
    while True:
        state = lan.until(lambda m, after=version: asked_or_over(m, after))
        view = state["view"]
        if view["is_over"]:
            return state
        version = state["version"]
        lan.send(type="play", version=version, move=move(view["legal"], view["table"]))


def terminal_lines(server: Server, table_id: str, lang: str, you: int | None) -> list[str]:
    """The hand's payments as the terminal says them (paywords), from its stored record."""
    record = server.get(f"/api/tables/{table_id}/records/1")
    assert record.status_code == 200, record.text
    game = Game.from_record(record.text)
    names = [display_name(name, lang) for name in game.names]
    return [payment_line(p, names, lang, you) for p in game.payments]


def finished(server: Server, seed: int, move: Any) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """A mien-nam practice table's first hand played out: its id and its last state as Lan
    (seat 0, in English) and a Vietnamese spectator received them (an English spectator beside
    them gets the terminal's English, as a spectator: "you" is no one)."""
    made = server.post("/api/tables", {"quick": True, "name": "Lan", "rules": "mien-nam",
                                       "seed": seed}).json()
    table_id = made["id"]
    lan = said_in(server, table_id, "en", made["token"])
    watchers = [said_in(server, table_id, lang) for lang in ("vi", "en")]
    over = play_the_hand(lan, move)
    vi, en = (w.until(lambda m: m["type"] == "state" and m["version"] >= over["version"])
              for w in watchers)
    assert words(en) == terminal_lines(server, table_id, "en", None)
    for client in (lan, *watchers):
        client.close()
    return table_id, over, vi


def words(state: dict[str, Any]) -> list[str]:
    return [p["words"] for p in state["view"]["payments"]]


def test_a_chop_and_penalties_reach_the_page_in_the_terminals_words(server: Server) -> None:
    table_id, lan, watcher = finished(server, CHOP_AND_PENALTIES, first_legal)
    items = [p["item"] for p in lan["view"]["payments"]]
    assert items == ["chop", "place", "place", "two", "cong"]
    assert words(lan) == terminal_lines(server, table_id, "en", 0)
    assert words(watcher) == terminal_lines(server, table_id, "vi", None)
    assert words(lan)[0] == "Bot 2 pays Bot 1 2 units: Bot 1 chopped Bot 2's 2h with three consecutive pairs"
    assert words(lan)[3] == "Bot 3 pays Bot 1 2 units: a two still held (thối heo): 2d"
    assert words(watcher)[0] == "Máy 2 trả Máy 1 2 điểm: Máy 1 chặt 2h của Máy 2 bằng ba đôi thông"
    assert words(watcher)[4] == "Máy 3 trả Máy 1 2 điểm: cóng: chưa đánh lá nào khi có người về nhất"
    # the numbers and seats the page lays out stay data beside the words
    assert [(p["payer"], p["payee"], p["units"]) for p in lan["view"]["payments"]] == \
        [(2, 1, 2), (3, 1, 2), (2, 0, 1), (3, 1, 2), (3, 1, 2)]


def test_an_ordinary_end_reaches_the_page_in_the_terminals_words(server: Server) -> None:
    table_id, lan, watcher = finished(server, ORDINARY, first_legal)
    assert [p["item"] for p in lan["view"]["payments"]] == ["place", "place"]
    assert words(lan) == terminal_lines(server, table_id, "en", 0)
    assert words(watcher) == terminal_lines(server, table_id, "vi", None)
    assert words(lan) == ["You pay Bot 1 2 units: 4th place pays 1st place",
                          "Bot 3 pays Bot 2 1 unit: 3rd place pays 2nd place"]
    assert words(watcher) == ["Lan trả Máy 1 2 điểm: Bét trả Nhất",
                              "Máy 3 trả Máy 2 1 điểm: Ba trả Nhì"]

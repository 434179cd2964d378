"""The review of a finished hand over HTTP: made in the bot pool, off the event loop; a seated
player reviews their own seat (by its seat token), a spectator of a public table any seat, and
nobody but its players a private table's hands."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("fastapi")

from .conftest import Server
from .test_rated_hands import browser, play


def finished_table(server: Server, **spec: Any) -> tuple[str, str]:
    """A 2-player pagat table, Lan at seat 0 and a bot, its first hand played out: its id and
    Lan's seat token."""
    lan = browser(server)
    made = lan.post("/api/tables", {"name": "Lan", "players": 2, "rules": "pagat",
                                    "away_timeout": 3600, **spec}).json()
    host = lan.ws(made["id"])
    host.hello()
    host.send(type="add_bot", level="greedy")
    host.send(type="start")
    host.until(lambda m: m["type"] == "state" and m["view"] is not None)
    play(server, made["id"])
    return made["id"], made["token"]


def review(server: Server, table_id: str, token: str | None = None, seat: int | None = None,
           lang: str = "en") -> Any:
    import httpx

    headers = {"Accept-Language": lang, **({"X-Tienlen-Seat": token} if token else {})}
    query = "" if seat is None else f"?seat={seat}"
    return httpx.get(f"{server.base}/api/tables/{table_id}/records/1/review{query}",
                     headers=headers, timeout=120)


def test_a_player_reviews_their_own_seat_and_only_theirs(server: Server) -> None:
    table_id, token = finished_table(server)
    answer = review(server, table_id, token)
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert data["seat"] == 0 and data["hand"] == 1
    assert data["decisions"], "Lan made decisions"
    for d in data["decisions"]:
        assert d["kind"] in ("evaluated", "forced", "phase", "out_of_turn", "trades")
        assert (d["played"] is None) == (d["kind"] != "evaluated")
        assert len(d["hands"]) == 2  # the record shows both hands
    refused = review(server, table_id, token, seat=1)
    assert refused.status_code == 403
    assert "own seat" in refused.json()["detail"]


def test_a_spectator_reviews_any_seat_of_a_public_table_but_not_of_a_private_one(
        server: Server) -> None:
    public, _ = finished_table(server)
    watched = review(server, public, seat=1)
    assert watched.status_code == 200 and watched.json()["seat"] == 1
    private, token = finished_table(server, private=True)
    refused = review(server, private, seat=0, lang="vi")
    assert refused.status_code == 403
    assert "bàn riêng" in refused.json()["detail"]
    assert review(server, private, token).status_code == 200
    assert review(server, public, seat=None).status_code == 400  # whose review, unsaid

"""A restart rebuilds each table from its snapshot and the log entries after it: the same state,
at a cost that does not grow with the table's history."""

from __future__ import annotations

import random
import tomllib
from typing import Any

import pytest

pytest.importorskip("fastapi")

from sqlalchemy import create_engine, text

from tienlen import Game, Rules, Session
from tienlen.session import next_deal
from tienlen.web.schema import open_repository
from tienlen.web.tablelog.writes import Entry, SeatChange

from .conftest import Server
from .waiting import poll


def table_state(server: Server, table_id: str) -> dict[str, Any]:
    """Everything a seat or a spectator is shown, straight from the server's table."""
    def look() -> dict[str, Any]:
        room = server.app.state.lobby.get(table_id)
        seats: list[int | None] = [*range(room.players), None]
        info = room.info().model_dump(exclude={"turn_deadline", "paused"})
        for seat in info["seats"]:
            seat.pop("connected")
            seat.pop("bot_playing")
        return {"version": room.version, "info": info,
                "views": [room.view_for(s).model_dump() for s in seats]}
    return dict(server.call(look))


def played_hands(server: Server, body: dict[str, Any], hands: int) -> str:
    """A bots-only table watched until it deals hand ``hands``, then left to finish that hand
    and pause."""
    made = server.post("/api/tables", {"quick": True, **body}).json()
    watcher = server.ws(made["id"])
    if watcher.hello()["info"]["hand_no"] < hands:
        watcher.until(lambda m: m["type"] == "state" and m["info"]["hand_no"] >= hands)
    watcher.close()
    poll(lambda: server.get(f"/api/tables/{made['id']}").json(),
         lambda t: t["paused"] and t["records"] == t["hand_no"])
    return str(made["id"])


def test_a_restart_resumes_the_state_from_the_snapshot_exactly(any_server: Server) -> None:
    table_id = played_hands(any_server, {"players": 4}, 3)
    before = table_state(any_server, table_id)
    assert before["info"]["hand_no"] >= 3 and before["views"][0]["round_starts"]
    any_server.restart()
    assert table_state(any_server, table_id) == before
    # and only what followed the snapshot was read again
    repo = open_repository(any_server.db_url)
    stored = {t.id: t for t in repo.load_all()}[table_id]
    whole = repo.log(table_id)
    repo.close()
    assert stored.snapshot is not None and stored.snapshot[0] > 0
    assert [e.idx for e in stored.log] == [e.idx for e in whole[stored.snapshot[0]:]]
    assert whole[stored.snapshot[0] - 1].kind == "next"  # taken where the hand was dealt
    # the rebuilt table plays on
    watcher = any_server.ws(table_id)
    watcher.hello()
    watcher.until(lambda m: m["type"] == "state" and m["version"] > before["version"])


def test_a_practice_table_deals_from_its_seed_across_restarts(server: Server) -> None:
    table_id = played_hands(server, {"players": 3, "seed": 9}, 2)
    server.restart()
    watcher = server.ws(table_id)
    watcher.hello()
    watcher.until(lambda m: m["type"] == "state" and m["info"]["records"] >= 3)
    second = Game.from_record(server.get(f"/api/tables/{table_id}/records/2").text)
    rng = random.Random(9)  # as Session(rules, 3, seed=9) draws: the dealer, then each deal
    rng.randrange(3)
    seeds = [rng.getrandbits(64) for _ in range(3)]
    rules = Rules.preset("pagat")
    dealer, leader, exchange = next_deal(rules, second)
    third = Game.deal(rules, 3, seeds[2], dealer=dealer, leader=leader, first_hand=False,
                      names=second.names, exchange=exchange)
    shown = tomllib.loads(server.get(f"/api/tables/{table_id}/records/3").text)["hands"][0]["dealt"]
    assert shown == tomllib.loads(third.record())["hands"][0]["dealt"]


def test_a_database_from_before_snapshots_is_opened_and_resumed(tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    engine = create_engine(url)
    rules = Rules.preset("pagat")
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE tienlen_tables (id VARCHAR(32) PRIMARY KEY, created FLOAT, "
                          "rules_toml TEXT, players INTEGER, seed BIGINT, away_timeout FLOAT, "
                          "turn_timer FLOAT)"))
        conn.execute(text("INSERT INTO tienlen_tables VALUES ('old', 1.0, :r, 3, 4242, 30, 0)"),
                      {"r": rules.to_toml()})
    engine.dispose()
    repo = open_repository(url)  # adds the new columns and tables

    for seat in range(3):
        repo.append("old", Entry(seat, "bot", seat, "greedy"),
                    SeatChange(seat, "bot", f"Bot {seat + 1}", "greedy"))
    repo.append("old", Entry(3, "start"))
    repo.close()
    server = Server(url)
    server.start()
    try:
        info = server.get("/api/tables/old").json()
        assert info["name"] == "Table old" and info["seed"] is None and not info["private"]
        assert info["next_hand_after"] == 15  # the column added, with the default countdown
        expected = Session(rules, 3, 4242, names=["Bot 1", "Bot 2", "Bot 3"]).game
        room = server.app.state.lobby.get("old")
        dealt = server.call(lambda: tomllib.loads(room.game.record())["hands"][0]["dealt"])
        assert dealt == tomllib.loads(expected.record())["hands"][0]["dealt"]
    finally:
        server.stop()
    repo = open_repository(url)
    assert repo.snapshot("old") is not None  # written once, so the next start reads less
    repo.close()

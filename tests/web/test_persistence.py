"""Nothing is lost: actions are stored before anyone hears of them, and a restart resumes every table.

These run on SQLite and on PostgreSQL (when scripts/test.sh has started one).
"""

from __future__ import annotations

import tomllib
from typing import Any

import pytest

pytest.importorskip("fastapi")

from tienlen import Game, Session
from tienlen.web.schema import open_repository
from tienlen.web.storage import StorageError

from .conftest import Server, WsClient


def quick(server: Server, **extra: Any) -> tuple[str, str, WsClient]:
    made = server.post("/api/tables", {"quick": True, "name": "Lan", "seed": 7, **extra}).json()
    me = server.ws(made["id"])
    me.hello(made["token"])
    return made["id"], made["token"], me


def wait_turn(me: WsClient) -> dict[str, Any]:
    def mine(m: dict[str, Any]) -> bool:
        return m["type"] == "state" and (m["view"]["turn"] == me.seat or m["view"]["is_over"])

    if me.state is not None and mine(me.state):
        return me.state
    return me.until(mine)


def play_hint(me: WsClient) -> None:
    state = wait_turn(me)
    me.send(type="hint")
    # a hint is made in the bot pool, whose first worker a loaded machine may take long to start
    move = me.until(lambda m: m["type"] == "hint", timeout=60)["move"]
    me.send(type="play", version=state["version"], move=move)
    me.until(lambda m: m["type"] == "state" and m["version"] > state["version"])


def test_every_state_a_client_sees_is_already_stored(any_server: Server) -> None:
    table_id, _, me = quick(any_server)
    for _ in range(3):
        play_hint(me)
    repo = open_repository(any_server.db_url)
    stored = len(repo.log(table_id))
    repo.close()
    seen = max(m["version"] for m in me.received if m["type"] == "state")
    assert stored >= seen


def test_a_move_the_database_refuses_is_never_shown(any_server: Server,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    table_id, token, me = quick(any_server)
    state = wait_turn(me)
    repo = any_server.app.state.lobby.repo

    def broken(*_args: Any, **_kw: Any) -> None:
        raise StorageError("the database refused a write: OperationalError")

    monkeypatch.setattr(repo, "append_many", broken)  # the one write of every move
    me.send(type="hint")
    # a hint is made in the bot pool, whose first worker a loaded machine may take long to start
    move = me.until(lambda m: m["type"] == "hint", timeout=60)["move"]
    me.send(type="play", version=state["version"], move=move)
    assert "could not" in me.error()["reason"]
    monkeypatch.undo()
    look = any_server.ws(table_id).hello(token)
    assert look["version"] == state["version"] and look["view"] == state["view"]
    me.send(type="play", version=state["version"], move=move)
    me.until(lambda m: m["type"] == "state" and m["version"] == state["version"] + 1)


def test_a_restart_resumes_every_table_exactly(any_server: Server) -> None:
    table_id, token, me = quick(any_server)
    for _ in range(2):
        play_hint(me)
    before = wait_turn(me)
    bots_only = any_server.post("/api/tables", {"quick": True, "players": 3, "seed": 2}).json()["id"]
    open_table = any_server.browser().post("/api/tables", {"name": "Hoa", "players": 5}).json()
    me.close()
    any_server.restart()
    again = any_server.ws(table_id).hello(token)
    assert again["version"] == before["version"]
    assert again["view"] == before["view"]
    strip = ("seats",)
    assert {k: v for k, v in again["info"].items() if k not in strip} == \
        {k: v for k, v in before["info"].items() if k not in strip}
    assert [s["name"] for s in again["info"]["seats"]] == [s["name"] for s in before["info"]["seats"]]
    # the rebuilt table goes on: my move is accepted and the bots answer
    me = any_server.ws(table_id)
    me.hello(token)
    play_hint(me)
    tables = {t: any_server.get(f"/api/tables/{t}").json() for t in (bots_only, open_table["id"])}
    assert tables[bots_only]["status"] == "playing"  # (paused: nobody watches it)
    assert tables[open_table["id"]]["status"] == "open"
    assert tables[open_table["id"]]["seats"][0]["name"] == "Hoa"
    # the creator of the open table still holds its seat
    hoa = any_server.ws(open_table["id"])
    hoa.hello(open_table["token"])
    assert hoa.seat == 0


def test_a_restart_between_hands_deals_the_same_next_hand(any_server: Server) -> None:
    """The session's deals come from its seed: rebuilt, it deals exactly what it would have."""
    made = any_server.post("/api/tables", {"quick": True, "name": "Lan", "seed": 5,
                                           "away_timeout": 0}).json()
    table_id, token = made["id"], made["token"]
    watcher = any_server.ws(table_id)
    if watcher.hello()["info"]["records"] < 1:  # the bots may finish before the watcher looks
        watcher.until(lambda m: m["type"] == "state" and m["info"]["records"] >= 1)
    any_server.restart()
    me = any_server.ws(table_id)
    state = me.hello(token)
    assert state["view"]["is_over"]
    me.send(type="next_hand", version=state["version"])
    dealt = me.until(lambda m: m["type"] == "state" and m["info"]["hand_no"] == 2)
    first = Game.from_record(any_server.get(f"/api/tables/{table_id}/records/1").text)
    session = Session(first.rules, 4, 5, names=list(first.names))
    assert session.game.record() == first.record().replace(_actions(first.record()), "actions = []")
    session.games[0] = first
    session.next_hand()
    assert dealt["view"]["hand"] == [str(c) for c in session.game.hand(0)]


def _actions(record: str) -> str:
    start = record.index("actions = [")
    return record[start:record.index("]", start) + 1]


def test_finished_hands_are_downloadable_records(any_server: Server) -> None:
    made = any_server.post("/api/tables", {"quick": True, "players": 4, "seed": 9}).json()
    watcher = any_server.ws(made["id"])
    watcher.hello()
    watcher.until(lambda m: m["type"] == "state" and m["info"]["records"] >= 2)
    listing = any_server.get(f"/api/tables/{made['id']}/records").json()
    assert [r["hand"] for r in listing[:2]] == [1, 2]
    one = any_server.get(listing[0]["url"])
    assert one.headers["content-type"].startswith("application/toml")
    assert "attachment" in one.headers["content-disposition"]
    data = tomllib.loads(one.text)
    assert data["format"] == "tienlen/1" and data["players"] == ["Bot 1", "Bot 2", "Bot 3", "Bot 4"]
    game = Game.from_record(one.text)
    assert game.is_over and sum(game.scores) == 0
    # the whole record and a replay are made in the bot pool, whose first worker starts now
    # (seconds on a loaded machine): waited for as long as that takes
    whole = any_server.get(f"/api/tables/{made['id']}/record.toml", timeout=60)
    session = Session.from_record(whole.text)
    assert len(session.games) >= 2 and all(g.is_over for g in session.games)
    replay = any_server.get(f"/api/tables/{made['id']}/records/1/replay", timeout=60).json()
    assert len(replay["steps"]) == len(data["hands"][0]["actions"]) + 1
    assert replay["steps"][-1]["over"]
    assert any_server.get(f"/api/tables/{made['id']}/records/999").status_code == 404

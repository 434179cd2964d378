"""Bot moves of many tables are stored together, and still before anyone hears of them."""

from __future__ import annotations

import threading
from typing import Any

import pytest

pytest.importorskip("fastapi")

from tienlen.web.schema import open_repository
from tienlen.web.storage import StorageError
from tienlen.web.tablelog.writes import Write

from .conftest import Server


def test_bot_moves_are_stored_before_they_are_shown_and_batched_across_tables(
        server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = server.app.state.lobby.repo
    stored: dict[str, int] = {}  # table -> versions stored
    batches: list[int] = []
    real = repo.append_many
    lock = threading.Lock()

    def counting(writes: list[Write], epochs: Any = None) -> set[str]:
        fenced = real(writes, epochs)
        with lock:
            batches.append(len({w.table_id for w in writes}))
            for w in writes:
                stored[w.table_id] = max(stored.get(w.table_id, 0), w.entry.idx + 1)
        return fenced

    monkeypatch.setattr(repo, "append_many", counting)
    ids = [server.post("/api/tables", {"quick": True, "players": 4, "seed": k}).json()["id"]
           for k in range(8)]
    watchers = [server.ws(table_id) for table_id in ids]
    for w in watchers:
        w.hello()
    for table_id, w in zip(ids, watchers, strict=True):
        for _ in range(30):
            state = w.until(lambda m: m["type"] == "state")
            with lock:
                assert state["version"] <= stored.get(table_id, 0), "shown before it was stored"
    assert max(batches) > 1  # one transaction held moves of several tables


def test_a_batch_the_database_refuses_is_never_shown_and_the_tables_go_on(
        server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    made = server.post("/api/tables", {"quick": True, "players": 4, "seed": 3}).json()
    watcher = server.ws(made["id"])
    first = watcher.hello()
    repo = server.app.state.lobby.repo
    refused = threading.Event()
    real = repo.append_many

    def broken(_writes: list[Write], *_args: Any) -> None:
        refused.set()
        raise StorageError("the database refused a write: OperationalError")

    monkeypatch.setattr(repo, "append_many", broken)
    assert refused.wait(10)
    room = server.app.state.lobby.get(made["id"])
    frozen = room.version
    monkeypatch.setattr(repo, "append_many", real)
    later = watcher.until(lambda m: m["type"] == "state" and m["version"] > frozen + 2)
    assert later["version"] > first["version"]
    # every state shown is in the log, in order, with nothing missing and nothing twice
    check = open_repository(server.db_url)
    log = check.log(made["id"])
    check.close()
    assert [e.idx for e in log] == list(range(len(log)))
    shown = [m["version"] for m in watcher.received if m["type"] == "state"]
    assert shown == sorted(shown) and max(shown) <= len(log)

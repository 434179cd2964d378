"""The committer (web/committer.py): every table's inbox read in passes, the writes of many
tables stored in one transaction before any is told; first with tables the test makes up (no
server, no event loop, no database), then with real rooms on an in-memory database, on a time
the test moves by hand (manual_time.py)."""

from __future__ import annotations

import asyncio
import json
import threading
import time as clock
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("icu", reason="the web extra's pyicu-wheels compares names")

from tienlen.web.lobby.lobby import Lobby, NewTable
from tienlen.web.room.protocol import Hello, PlayMove
from tienlen.web.room.room import Client, Room, Tick
from tienlen.web.schema import open_repository
from tienlen.web.storage import StorageError
from tienlen.web.table.committer import Committer
from tienlen.web.tablelog.writes import Entry, Write

from .manual_time import ManualTime
from .waiting import in_a_thread


class Store:
    """The committer's repository: keeps each batch it is given, or refuses a batch with a write
    of a table in ``refuse``."""

    def __init__(self, said: list[str]) -> None:
        self.said = said
        self.batches: list[list[Write]] = []
        self.refuse: set[str] = set()
        self.ownership = None  # no leases: nothing fenced

    def append_many(self, writes: list[Write], epochs: Any = None) -> set[str]:
        names = " ".join(w.table_id for w in writes)
        if self.refuse & {w.table_id for w in writes}:
            self.said.append(f"refused {names}")
            raise StorageError("the database says no")
        self.batches.append(writes)
        self.said.append(f"stored {names}")
        return set()  # no table's lease lost


class Inbox:
    """A table whose every message is one write (``silent``: its messages write nothing)."""

    def __init__(self, name: str, said: list[str]) -> None:
        self.id = name
        self.version = 0
        self.said = said
        self.inbox: list[str] = []
        self.silent = False

    def step(self, change: Callable[[], None] | None = None) -> list[Write]:
        if change is not None:
            change()
        read, self.inbox = self.inbox, []
        self.said.append(f"read {self.id}")
        if self.silent:
            return []
        writes = [Write(self.id, Entry(self.version + i, "move", 0, m)) for i, m in enumerate(read)]
        self.version += len(writes)
        return writes

    def published(self) -> None:
        self.said.append(f"told {self.id}")

    def refused(self, exc: StorageError) -> bool:
        self.said.append(f"rebuilt {self.id}")
        return True


def committed(*names: str) -> tuple[Committer, Store, list[Inbox], ManualTime, list[str]]:
    said: list[str] = []
    store = Store(said)
    time = ManualTime()
    repo: Any = store
    return Committer(repo, budget=10.0, retry=1.0, time=time), store, \
        [Inbox(name, said) for name in names], time, said


def post(committer: Committer, table: Inbox, message: str) -> None:
    table.inbox.append(message)
    committer.due(table)  # type: ignore[arg-type]


def test_the_writes_of_many_tables_are_stored_in_one_transaction_before_any_is_told() -> None:
    committer, store, (a, b), time, said = committed("a", "b")
    post(committer, a, "3s")
    post(committer, b, "4c")
    post(committer, a, "5d")  # a second message: read in the same pass
    assert said == []  # nothing until the loop's next pass
    time.advance()
    assert said == ["read a", "read b", "stored a a b", "told a", "told b"]
    assert [len(batch) for batch in store.batches] == [3]
    assert (committer.stats.batches, committer.stats.moves) == (1, 3)


def test_a_table_whose_write_is_refused_does_not_hold_back_the_others() -> None:
    committer, store, (a, b, c), time, said = committed("a", "b", "c")
    store.refuse = {"b"}
    for table in (a, b, c):
        post(committer, table, "pass")
    time.advance()
    assert said == ["read a", "read b", "read c", "refused a b c",  # the batch: then each alone
                    "stored a", "refused b", "stored c", "told a", "rebuilt b", "told c"]
    assert committer.stats.refused == 1 and committer.stats.moves == 2


def test_a_table_that_fails_to_read_its_inbox_does_not_stop_the_others() -> None:
    committer, _, (a, b), time, said = committed("a", "b")

    def fails(change: Callable[[], None] | None = None) -> list[Write]:
        raise RuntimeError("the bot fell over")

    a.step = fails  # type: ignore[method-assign]
    post(committer, a, "pass")
    post(committer, b, "pass")
    time.advance()
    assert said == ["rebuilt a", "read b", "stored b", "told b"]


def test_tables_posted_to_while_a_pass_runs_go_in_the_next_pass() -> None:
    committer, _, (first, *rest), time, said = committed("t0", "t1", "t2")

    def told() -> None:  # the first table's news makes the others due
        said.append("told t0")
        for table in rest:
            post(committer, table, "pass")

    first.published = told  # type: ignore[method-assign]
    post(committer, first, "pass")
    time.advance()
    assert said == ["read t0", "stored t0", "told t0", "read t1", "read t2", "stored t1 t2",
                    "told t1", "told t2"]
    assert committer.stats.batches == 2


def test_a_pass_reads_one_table_at_least_however_short_its_budget() -> None:
    committer, _, (a, b), time, said = committed("a", "b")
    committer.budget = 0.0
    post(committer, a, "pass")
    post(committer, b, "pass")
    time.advance()
    assert said == ["read a", "stored a", "told a", "read b", "stored b", "told b"]


def test_a_server_job_is_made_at_once_through_the_same_path() -> None:
    committer, _, (a, b), _, said = committed("a", "b")
    post(committer, b, "pass")  # waits for the next pass: not read with the job
    committer.now(a, lambda: a.inbox.append("kept"))  # type: ignore[arg-type]
    assert said == ["read a", "stored a", "told a"]


# ---------------------------------------------------------------------- offloaded (a database server)


class SlowStore(Store):
    """A database server that answers once ``answer`` is set: each batch is stored on the
    committer's thread (said: "storing ..."), the event loop free meanwhile."""

    def __init__(self, said: list[str]) -> None:
        super().__init__(said)
        self.answer = threading.Event()

    def append_many(self, writes: list[Write], epochs: Any = None) -> set[str]:
        self.said.append("storing " + " ".join(w.table_id for w in writes))
        assert self.answer.wait(60), "the test never let the database answer"
        return super().append_many(writes, epochs)


async def until(done: Callable[[], bool], seconds: float = 30.0) -> None:
    """Let the event loop run until ``done`` holds."""
    deadline = clock.monotonic() + seconds
    while not done():
        assert clock.monotonic() < deadline, "still waiting"
        await asyncio.sleep(0.005)


def offloaded(*names: str) -> tuple[Committer, SlowStore, list[Inbox], list[str]]:
    said: list[str] = []
    store = SlowStore(said)
    repo: Any = store
    return Committer(repo, budget=10.0, offload=True), store, [Inbox(n, said) for n in names], said


def test_while_a_batch_is_stored_the_loop_goes_on_and_nothing_is_read_or_told_before_it_lands() -> None:
    async def main() -> list[str]:
        committer, store, (a, b), said = offloaded("a", "b")
        post(committer, a, "3s")
        await until(lambda: "storing a" in said)  # on its way: this coroutine still runs
        post(committer, a, "4c")  # a's second move and b's first wait for the batch to land
        post(committer, b, "5d")
        for _ in range(20):
            await asyncio.sleep(0)
        assert said == ["read a", "storing a"]
        store.answer.set()
        await until(lambda: "told b" in said)
        committer.close()
        return said

    assert in_a_thread(main()) == ["read a", "storing a", "stored a", "told a",
                                   "read a", "read b", "storing a b", "stored a b",
                                   "told a", "told b"]


def test_a_server_job_waits_for_the_batch_on_its_way_and_is_stored_after_it() -> None:
    async def main() -> list[str]:
        committer, store, (a,), said = offloaded("a")
        post(committer, a, "3s")
        await until(lambda: "storing a" in said)
        threading.Timer(0.2, store.answer.set).start()  # the database answers a little later
        committer.now(a, lambda: a.inbox.append("kept"))  # type: ignore[arg-type]
        committer.close()
        return said

    assert in_a_thread(main()) == ["read a", "storing a", "stored a", "told a",  # landed first
                                   "read a", "storing a", "stored a", "told a"]


def test_a_batch_that_fails_on_its_thread_rebuilds_each_of_its_tables() -> None:
    async def main() -> list[str]:
        committer, store, (a, b), said = offloaded("a", "b")

        def broken(writes: list[Write], epochs: Any = None) -> set[str]:
            said.append("storing")
            raise RuntimeError("the driver fell over")

        store.append_many = broken  # type: ignore[method-assign]
        post(committer, a, "3s")
        post(committer, b, "4c")
        await until(lambda: "rebuilt b" in said)
        assert committer.stats.refused == 2
        committer.close()
        return said

    assert in_a_thread(main()) == ["read a", "read b", "storing", "rebuilt a", "rebuilt b"]


# ---------------------------------------------------------------------- real rooms


class Page:
    """A connection's outbox: the events it was sent, read."""

    def __init__(self) -> None:
        self.bodies: list[str] = []
        self.client = Client(self.bodies.append)

    def events(self) -> list[dict[str, Any]]:
        return [json.loads(b) for b in self.bodies]


def seated(lobby: Lobby, name: str) -> tuple[Room, Page]:
    """``name`` at a started 2-seat table with a random bot, connected; the hand waits for them
    (a table where the bot would lead is made again)."""
    while True:
        room, _, token = lobby.create(NewTable(name=name, players=2, level="random",
                                               quick=True), owner=name)
        page = Page()
        room.attach(page.client)
        room.handle(page.client, Hello(type="hello", seq=1, token=token))
        lobby.committer.flush()
        assert page.client.seat == 0 and room.game is not None
        if room.game.turn == 0 and not room.game.is_over:
            return room, page
        room.stop()


def test_people_and_bots_write_through_one_transaction_and_are_told_after_it() -> None:
    time = ManualTime()
    repo = open_repository("sqlite://")
    lobby = Lobby(repo, bot_delay=60.0, time=time)
    lobby.committer.budget = 10.0  # both tables in one pass, however slow this machine
    ann, ann_page = seated(lobby, "ann")
    bots, _ = seated(lobby, "bo")
    bots.act(lambda: bots.leave(0))  # Bo's seat is a bot's now: it owes the next move
    version, bot_version = ann.version, bots.version
    stats = lobby.committer.stats
    moves, batches = stats.moves, stats.batches
    sent = len(ann_page.bodies)
    game = ann.game
    assert game is not None
    ann.handle(ann_page.client, PlayMove(type="play", seq=2, version=version,
                                         move=str(game.legal_plays(0)[0])))
    bots.post(Tick(bot_version))  # the bots' table's clock wakes before the next pass
    assert ann_page.bodies[sent:] == [] and ann.version == version  # posted: nothing made yet
    lobby.committer.flush()
    assert (ann.version, bots.version) == (version + 1, bot_version + 1)
    assert (stats.moves - moves, stats.batches - batches) == (2, 1)  # one transaction
    assert [e.kind for e in repo.log(ann.id)][-1] == "move"
    assert [e.kind for e in repo.log(bots.id)][-1] == "bot_move"
    assert json.loads(ann_page.bodies[-1])["version"] == version + 1  # told once stored
    for room in (ann, bots):
        room.stop()


def test_a_refused_move_leaves_the_table_as_stored_and_tells_its_player(
        monkeypatch: pytest.MonkeyPatch) -> None:
    time = ManualTime()
    repo = open_repository("sqlite://")
    lobby = Lobby(repo, bot_delay=60.0, time=time)
    lobby.committer.budget = 10.0  # both tables in one pass, however slow this machine
    ann, ann_page = seated(lobby, "ann")
    minh, minh_page = seated(lobby, "minh")
    stored = repo.append_many

    def refuse_ann(writes: list[Write], epochs: Any = None) -> set[str]:
        if any(w.table_id == ann.id for w in writes):
            raise StorageError("the disk is full")
        return stored(writes, epochs)

    monkeypatch.setattr(repo, "append_many", refuse_ann)
    before = (ann.version, len(ann.game.history), list(ann.game.hand(0)))  # type: ignore[union-attr]
    logged = len(repo.log(ann.id))
    for room, page in ((ann, ann_page), (minh, minh_page)):
        game = room.game
        assert game is not None
        room.handle(page.client, PlayMove(type="play", seq=2, version=room.version,
                                          move=str(game.legal_plays(0)[0])))
    sent = len(ann_page.bodies)
    lobby.committer.flush()
    # Ann's table: as stored, her cards in her hand, and she is told why
    assert (ann.version, len(ann.game.history), list(ann.game.hand(0))) == before  # type: ignore[union-attr]
    assert len(repo.log(ann.id)) == logged and ann_page.client.seat == 0
    told = [json.loads(b) for b in ann_page.bodies[sent:]]
    assert any(e["type"] == "error" and e["ref"] == 2 for e in told)
    assert [e for e in told if e["type"] == "state"][-1]["version"] == before[0]
    # Minh's table: stored and told, not held back
    assert [e.kind for e in repo.log(minh.id)][-1] == "move"
    assert minh_page.events()[-1]["version"] == minh.version
    assert lobby.committer.stats.refused == 1
    monkeypatch.setattr(repo, "append_many", stored)  # the database is back: Ann plays on
    game = ann.game
    assert game is not None
    ann.handle(ann_page.client, PlayMove(type="play", seq=3, version=ann.version,
                                         move=str(game.legal_plays(0)[0])))
    lobby.committer.flush()
    assert ann.version == before[0] + 1 and len(repo.log(ann.id)) == logged + 1
    for room in (ann, minh):
        room.stop()

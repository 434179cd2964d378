"""Faults at random in a room of three ``tienlen serve --redis`` processes while scripted players
and bots play many tables: processes killed (``kill -9``, a new one started), paused past their
leases and woken, Redis restarted. Afterwards every move a player saw acknowledged is in its
table's log exactly once, and every table's log replays to the state stored for it.

The faults follow a seeded random schedule (the seed is in the test's name, so a failure is
played again as it happened)."""

from __future__ import annotations

import dataclasses
import os
import random
import signal
import threading
import time
from typing import Any

import pytest

from tienlen.web.schema import open_repository
from tienlen.web.table.state import TableState

from .manual_time import ManualTime
from .test_cluster_processes import Process, Room, connect_again, new_table, room  # noqa: F401
from .test_table_log import state as table_state

SEED = int(os.environ.get("TIENLEN_FAULT_SEED", "34"))  # another seed: another schedule
FAULTS = 4  # faults made, one every few seconds
PLAYERS = 4  # tables with a scripted player (seat 0) and a bot
WATCHED = 2  # tables of bots only, watched (a bots-only table deals while watched)


class Player(threading.Thread):
    """A scripted player at one table: plays her turns (a card play when she has one), connects
    again to any live process whenever her connection ends, until the hand is over. ``acked``:
    her own card plays as the states she was sent show them made (by her, not by a bot or the
    turn timer playing for her while she was away); each state must show every one an earlier
    state showed: a move once shown made is never lost."""

    def __init__(self, table_id: str, token: str, live: Any) -> None:
        super().__init__(daemon=True)
        self.table_id, self.token, self.live = table_id, token, live
        self.acked: list[str] = []
        self.done = False
        self.failure: BaseException | None = None

    def run(self) -> None:
        try:
            self._play()
        except BaseException as exc:
            self.failure = exc

    def _play(self) -> None:
        deadline = time.monotonic() + 240
        client: Any = None
        state: dict[str, Any] = {}
        while time.monotonic() < deadline:
            try:
                if client is None:
                    client, state = connect_again(self.live(), self.table_id, self.token, 90)
                self._seen(state)
                view = state["view"]
                if view["is_over"]:
                    self.done = True
                    client.close()
                    return
                if view["turn"] == client.seat and view["legal"]:
                    cards = [m for m in view["legal"] if m != "pass"]
                    move = cards[0] if cards else view["legal"][0]
                    client.send(type="play", version=state["version"], move=move)
                state = client.until(lambda m, v=state["version"]: m["type"] == "state"
                                     and m["version"] > v, timeout=15)
            except LostMove:
                raise
            except Exception:  # the connection ended (a fault): connect again
                if client is not None:
                    client.close()
                client = None
        raise AssertionError(f"table {self.table_id}: the hand did not end in time")

    def _seen(self, state: dict[str, Any]) -> None:
        mine = [e["cards"] for e in state["view"].get("events") or []
                if e["seat"] == 0 and e["kind"] == "play" and not e.get("bot") and not e.get("timed_out")]
        if mine[:len(self.acked)] != self.acked:
            raise LostMove(f"table {self.table_id} at version {state['version']}: "
                           f"{self.acked} shown made before, now {mine}")
        self.acked = mine


class LostMove(AssertionError):
    """A state showed fewer of the player's moves made than one before it."""


class Watcher(threading.Thread):
    """Watches a bots-only table (so that it deals), connecting again when it must."""

    def __init__(self, table_id: str, live: Any, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.table_id, self.live, self.stop = table_id, live, stop

    def run(self) -> None:
        client: Any = None
        while not self.stop.is_set():
            try:
                if client is None:
                    client, _ = connect_again(self.live(), self.table_id, None, 60)
                client.until(lambda m: False, timeout=1)
            except TimeoutError:
                continue
            except Exception:
                if client is not None:
                    client.close()
                client = None
        if client is not None:
            client.close()


def replays_to_its_stored_state(db: str, table_id: str) -> None:
    """The table as stored (its snapshot and the log after it) is the table its whole log makes,
    entry by entry from the first."""
    repo = open_repository(db)
    try:
        stored = repo.load_table(table_id)
        assert stored is not None
        whole = dataclasses.replace(stored, log=repo.log(table_id), snapshot=None, earlier=[])
        time = ManualTime()
        fast = TableState.restore(stored, lambda w: None, time)
        slow = TableState.restore(whole, lambda w: None, time)
        assert table_state(fast) == table_state(slow), table_id
        assert fast.version == len(repo.log(table_id))
    finally:
        repo.close()


def test_random_faults_lose_no_acknowledged_move(room: Room) -> None:  # noqa: F811
    rng = random.Random(SEED)
    redis = room.start_redis()
    processes = room.processes(3)
    paused: set[int] = set()
    wakes: list[threading.Timer] = []
    lock = threading.Lock()

    def live() -> list[Process]:
        with lock:
            return [p for p in processes if p.proc.poll() is None]

    made = [new_table(processes[k % 3], seed=k) for k in range(PLAYERS)]
    watched = [processes[k % 3].post("/api/tables", {"players": 4, "quick": True, "seed": 100 + k})
               ["id"] for k in range(WATCHED)]
    stop = threading.Event()
    players = [Player(table_id, token, live) for table_id, token in made]
    watchers = [Watcher(table_id, live, stop) for table_id in watched]
    for thread in (*players, *watchers):
        thread.start()
    said: list[str] = []
    for _ in range(FAULTS):
        time.sleep(rng.uniform(2.0, 4.0))  # the schedule of faults (what is tested is their mix)
        fault = rng.choice(["kill", "pause", "redis"])
        with lock:
            running = [p for p in processes if p.proc.poll() is None and p.proc.pid not in paused]
        victim = rng.choice(running)
        said.append(f"{fault} {victim.port}")
        if fault == "kill":
            victim.proc.kill()
            victim.proc.wait(20)
            fresh = room.processes(1)
            with lock:
                processes.extend(fresh)
        elif fault == "pause":
            os.kill(victim.proc.pid, signal.SIGSTOP)
            paused.add(victim.proc.pid)

            def wake(p: Process = victim) -> None:
                os.kill(p.proc.pid, signal.SIGCONT)
                paused.discard(p.proc.pid)

            wakes.append(threading.Timer(rng.uniform(7.0, 9.0), wake))  # past its 6 s leases
            wakes[-1].start()
        else:
            redis.stop()
            redis.start()
    for player in players:
        player.join(240)
    stop.set()
    for watcher in watchers:
        watcher.join(30)
    # the room stops before it is read: a bots-only table moves on while a process holds it, and
    # its snapshot and its whole log must be read at the same version
    for timer in wakes:
        timer.cancel()
    for process in room.made:
        process.end()
    for player in players:
        assert player.failure is None, (said, player.failure)
        assert player.done, said
    for player in players:
        logged = [e.text for e in _log(room.db, player.table_id) if e.kind == "move"
                  and e.seat == 0 and e.text != "pass"]
        assert logged == player.acked, (said, player.table_id)  # each once, none lost
    for table_id in [t for t, _ in made] + watched:
        replays_to_its_stored_state(room.db, table_id)


def _log(db: str, table_id: str) -> list[Any]:
    repo = open_repository(db)
    try:
        return repo.log(table_id)
    finally:
        repo.close()


pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

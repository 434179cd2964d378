"""A room of many ``tienlen serve --redis`` processes, as an operator runs them, and what happens
when one dies (``kill -9``), is paused past its leases (``SIGSTOP``) and woken, is stopped
(``SIGTERM``: it hands its tables over), or when Redis restarts mid-hand.

Each process is a real ``tienlen serve`` on one PostgreSQL database and a Redis of this test's
own (so that restarting it disturbs no other test). A page reconnects on its own through the
proxy; here the test's client does what the page does: it connects again, to any process."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from tienlen.web.schema import open_repository
from tienlen.web.tablelog.leases import LEASE_SECONDS
from tienlen.web.tablelog.rows import LeaseRow

from .conftest import IN_CI, PG_URL, WsClient, free_port
from .waiting import poll

REDIS_SERVER = shutil.which("redis-server")


def _needs() -> None:
    if REDIS_SERVER is None and not IN_CI:
        pytest.skip("no redis-server: scripts/test.sh installs it (Debian's redis-server)")
    if not PG_URL and not IN_CI:
        pytest.skip("no PostgreSQL: scripts/test.sh starts one (TIENLEN_TEST_PG_URL)")
    assert REDIS_SERVER is not None, "no redis-server: scripts/test.sh installs it"


class Redis:
    """A redis-server of this test's own, which it may stop and start again on its port."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        assert REDIS_SERVER is not None
        self.proc = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.folder)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        poll(self._pong, bool, timeout=20)

    def _pong(self) -> bool:
        import redis

        client = redis.Redis.from_url(self.url, socket_connect_timeout=0.5)
        try:
            return bool(client.ping())
        except redis.RedisError:
            return False
        finally:
            client.close()

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(20)
            self.proc = None


class Postgres:
    """A PostgreSQL server of this test's own (as scripts/web_services.sh starts the suite's),
    which it may stop and start again."""

    def __init__(self) -> None:
        found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
        if not found:
            pytest.fail("no PostgreSQL: scripts/test.sh installs it (Debian's postgresql)")
        self.bin = found[-1].parent
        self.folder = Path(tempfile.mkdtemp(prefix="tienlen-pg-"))
        self.port = free_port()
        self.url = f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"
        self.as_user: list[str] = []
        if os.geteuid() == 0:  # PostgreSQL runs as its own user
            shutil.chown(self.folder, "postgres")
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self._run("initdb", "-A", "trust", "-U", "postgres", "-D", str(self.folder / "data"))

    def _run(self, tool: str, *args: str) -> None:
        subprocess.run([*self.as_user, str(self.bin / tool), *args], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)

    def start(self) -> None:
        self._run("pg_ctl", "-D", str(self.folder / "data"), "-l", str(self.folder / "log"), "-w",
                  "-o", f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 "
                  "-c fsync=off", "start")

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "fast", "-w", "stop")

    def remove(self) -> None:
        with contextlib.suppress(Exception):
            self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


class Process:
    """One ``tienlen serve --redis`` process of the room."""

    def __init__(self, db: str, redis: str, folder: Path, name: str) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = folder / f"{name}.log"
        env = {**os.environ, "TIENLEN_PURE": "1", "PYTHONUNBUFFERED": "1"}
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "tienlen", "serve", "--db", db, "--redis", redis,
                 "--port", str(self.port), "--bot-delay", "0.2", "--bot-workers", "1",
                 "--tables-per-client", "0", "--creates-per-minute", "0",
                 "--messages-per-second", "0", "--messages-per-address", "0"],
                stdout=out, stderr=subprocess.STDOUT, env=env, cwd=folder)

    def wait_up(self) -> None:
        poll(self._up, bool, timeout=60)

    def _up(self) -> bool:
        assert self.proc.poll() is None, self.log.read_text()
        try:
            return httpx.get(self.base + "/", timeout=2).status_code == 200
        except httpx.HTTPError:
            return False

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        answer = httpx.post(self.base + path, json=body, timeout=10,
                            headers={"Origin": self.base})
        assert answer.status_code == 200, answer.text
        data: dict[str, Any] = answer.json()
        return data

    def ws(self, table_id: str) -> WsClient:
        from websockets.sync.client import connect

        return WsClient(connect(f"ws://127.0.0.1:{self.port}/ws/{table_id}", open_timeout=10,
                                proxy=None, additional_headers={"Origin": self.base},
                                ping_interval=None, legacy=True))

    def said(self) -> str:
        return self.log.read_text(errors="replace")

    def end(self) -> None:
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGCONT)
            self.proc.kill()
            self.proc.wait(20)


class Room:
    """The room's parts, made by a test: its Redis, its processes, its database (``db``)."""

    def __init__(self, db: str, folder: Path) -> None:
        self.db = db
        self.folder = folder
        self.made: list[Process] = []
        self.redis: Redis | None = None
        self.postgres: Postgres | None = None

    def own_postgres(self) -> Postgres:
        """A PostgreSQL of the room's own (to be stopped and started), its database the room's."""
        self.postgres = Postgres()
        self.postgres.start()
        self.db = self.postgres.url
        return self.postgres

    def start_redis(self) -> Redis:
        self.redis = Redis(self.folder)
        self.redis.start()
        return self.redis

    def processes(self, n: int = 2) -> list[Process]:
        """``n`` processes, started together."""
        assert self.redis is not None
        started = [Process(self.db, self.redis.url, self.folder, f"p{len(self.made) + i}")
                   for i in range(n)]
        self.made.extend(started)
        for process in started:
            process.wait_up()
        return started

    def end(self) -> None:
        for process in self.made:
            process.end()
        if self.redis is not None:
            self.redis.stop()
        if self.postgres is not None:
            self.postgres.remove()


@pytest.fixture
def room(one_database: str, tmp_path: Path) -> Iterator[Room]:
    """A room on this worker's PostgreSQL database, emptied."""
    _needs()
    made = Room(one_database, tmp_path)
    try:
        yield made
    finally:
        made.end()


def lease_owner(db: str, table_id: str) -> str | None:
    repo = open_repository(db)
    try:
        with repo.engine.connect() as conn:
            return conn.execute(select(LeaseRow.owner).where(LeaseRow.table_id == table_id)) \
                .scalar()
    finally:
        repo.close()


def connect_again(processes: list[Process], table_id: str, token: str | None,
                  timeout: float = 30) -> tuple[WsClient, dict[str, Any]]:
    """What the page does when its socket closes: connect again (through the proxy: to any
    process, here each in turn) until one serves it; the client and its first state."""
    deadline = time.monotonic() + timeout
    turn = 0
    while True:
        process = processes[turn % len(processes)]
        turn += 1
        try:
            client = process.ws(table_id)
            return client, client.hello(token=token)
        except Exception:  # closed: the table is between processes; knock again
            if time.monotonic() > deadline:
                raise
            time.sleep(0.3)


def closed(client: WsClient, timeout: float = 30) -> None:
    """Wait until ``client``'s connection is closed by the server."""
    with pytest.raises(Exception):  # noqa: B017 - the connection ends, as a page sees it
        client.until(lambda m: False, timeout=timeout)


def play_some(lan: WsClient, state: dict[str, Any], moves: int) -> tuple[dict[str, Any], list[str]]:
    """Lan plays ``moves`` of her turns (each acknowledged: the state that shows it came
    back); the last state and her moves."""
    played: list[str] = []
    while len(played) < moves and not state["view"]["is_over"]:
        view = state["view"]
        if view["turn"] == lan.seat and view["legal"]:
            move = view["legal"][0]
            lan.send(type="play", version=state["version"], move=move)
            state = lan.until(lambda m, v=state["version"]: m["type"] == "state"
                              and m["version"] > v)
            played.append(move)
        else:
            state = lan.until(lambda m, v=state["version"]: m["type"] == "state"
                              and m["version"] > v)
    return state, played


def moves_logged(db: str, table_id: str) -> list[str]:
    repo = open_repository(db)
    try:
        return [e.text for e in repo.log(table_id) if e.kind == "move" and e.seat == 0]
    finally:
        repo.close()


def new_table(process: Process, **options: Any) -> tuple[str, str]:
    made = process.post("/api/tables", {"name": "Lan", "players": 2, "quick": True, "seed": 3,
                                        "options": "stake = 2", **options})
    return str(made["id"]), str(made["token"])


def test_the_owner_killed_mid_hand_its_table_resumes_on_another_process(
        room: Room) -> None:
    """kill -9 of the process that serves Lan's table: another takes it once its lease runs
    out, rebuilt from what is stored; Lan's page connects again and finishes the hand; every
    move she saw acknowledged is in the log once; her turn timer stands where it stood."""
    room.start_redis()
    a, b = room.processes()
    table_id, token = new_table(a, turn_timer=60)
    lan = b.ws(table_id)  # her connection on B, the table on A
    state, played = play_some(lan, lan.hello(token=token), 2)
    assert played and lease_owner(room.db, table_id) is not None
    before = state["info"]["turn_deadline"]
    a.proc.kill()  # SIGKILL: no hand-over, its lease runs out
    killed = time.monotonic()
    closed(lan)  # B learns that A is gone and sends the page to connect again
    lan, state = connect_again([b], table_id, token, timeout=LEASE_SECONDS * 5)
    taken = time.monotonic() - killed
    assert taken < 30
    if before is not None and state["info"]["turn_deadline"] is not None \
            and state["view"]["turn"] == 0:
        assert abs(state["info"]["turn_deadline"] - before) < 2.0  # resumed, not restarted
    state, more = play_some(lan, state, 100)
    assert state["view"]["is_over"]
    logged = moves_logged(room.db, table_id)
    assert logged == played + more  # every acknowledged move, each once, in order
    lan.close()


def test_an_owner_paused_past_its_lease_writes_nothing_when_woken_and_lets_go(
        room: Room) -> None:
    room.start_redis()
    a, b = room.processes()
    table_id, token = new_table(a)
    lan = a.ws(table_id)
    state, played = play_some(lan, lan.hello(token=token), 1)
    a_owner = lease_owner(room.db, table_id)
    os.kill(a.proc.pid, signal.SIGSTOP)  # paused: no renewal, no write
    # B finds the table nobody serves once the lease runs out, and takes it
    poll(lambda: lease_owner(room.db, table_id), lambda owner: owner not in (None, a_owner),
         timeout=LEASE_SECONDS * 5)
    os.kill(a.proc.pid, signal.SIGCONT)  # woken: its renewal finds the lease another's
    poll(a.said, lambda text: "let go" in text, timeout=30)
    lan, state = connect_again([a, b], table_id, token)
    state, more = play_some(lan, state, 100)
    assert state["view"]["is_over"]
    assert moves_logged(room.db, table_id) == played + more
    lan.close()


def test_sigterm_hands_the_tables_over_at_once(room: Room) -> None:
    room.start_redis()
    a, b = room.processes()
    table_id, token = new_table(a)
    lan = b.ws(table_id)
    state, played = play_some(lan, lan.hello(token=token), 1)
    a.proc.send_signal(signal.SIGTERM)
    stopped = time.monotonic()
    # it drains and exits (uvicorn raises the signal again once it has shut down)
    assert a.proc.wait(30) in (0, -signal.SIGTERM)
    closed(lan)
    lan, state = connect_again([b], table_id, token)
    # handed over: B serves it at once, not a lease later
    assert time.monotonic() - stopped < LEASE_SECONDS + 5
    state, more = play_some(lan, state, 100)
    assert state["view"]["is_over"]
    assert moves_logged(room.db, table_id) == played + more
    lan.close()


def test_redis_restarted_mid_hand_play_resumes(room: Room) -> None:
    redis = room.start_redis()
    a, b = room.processes()
    table_id, token = new_table(a)
    lan = b.ws(table_id)
    state, played = play_some(lan, lan.hello(token=token), 1)
    redis.stop()
    redis.start()  # the same port, empty: the processes subscribe again
    lan.close()
    lan, state = connect_again([b, a], table_id, token, timeout=60)
    state, more = play_some(lan, state, 100)
    assert state["view"]["is_over"]
    assert moves_logged(room.db, table_id) == played + more
    lan.close()


def test_postgresql_away_for_ten_seconds_play_resumes(room: Room) -> None:
    """The database stops mid-hand for 10 s: Lan's move then is refused, saying why, nothing of
    it kept; her page is told to come back, and is told the database is away until it is back;
    the HTTP API answers 503 meanwhile, never 500; then the hand goes on where it stood."""
    postgres = room.own_postgres()
    room.start_redis()
    a, b = room.processes()
    table_id, token = new_table(a)
    lan = b.ws(table_id)
    state, played = play_some(lan, lan.hello(token=token), 1)
    while state["view"]["turn"] != lan.seat:  # her turn: the move she makes meets the outage
        state = lan.until(lambda m, v=state["version"]: m["type"] == "state" and m["version"] > v)
    postgres.stop()
    stopped = time.monotonic()
    lan.send(type="play", version=state["version"], move=state["view"]["legal"][0])
    refused = lan.until(lambda m: m["type"] in ("error", "state"), timeout=30)
    assert refused["type"] == "error" and "could not" in refused["reason"]
    listed = httpx.get(a.base + "/api/tables", timeout=10)
    assert listed.status_code in (200, 503)  # the lobby's list may be served from memory
    signin = httpx.post(b.base + "/api/account/signin", json={"name": "Lan", "password": "x"},
                        timeout=10, headers={"Origin": b.base})
    assert signin.status_code == 503 and "database" in signin.json()["detail"]
    away = b.ws(table_id)  # her page knocks again: told the database is away, to knock later
    said = away.until(lambda m: m["type"] == "error", timeout=30)
    assert said["code"] == "unavailable" and "database" in said["reason"]
    closed(away)
    assert away.conn.close_code == 1013
    # the outage lasts 10 s, whatever the test saw meanwhile (what is simulated is its length)
    time.sleep(max(0.0, 10 - (time.monotonic() - stopped)))  # the outage lasts 10 s
    postgres.start()
    lan.close()
    lan, state = connect_again([b, a], table_id, token, timeout=60)
    state, more = play_some(lan, state, 100)
    assert state["view"]["is_over"]
    assert moves_logged(room.db, table_id) == played + more
    lan.close()

"""A real server (uvicorn in a thread, loopback only) that tests can stop and start again."""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the web tests need the web extra")
import httpx
import uvicorn
from sqlalchemy import create_engine, make_url, text
from websockets.sync.client import ClientConnection, connect

from tienlen.web.app import create_app
from tienlen.web.limits import Limits, Rate, Rates
from tienlen.web.now import REAL_TIME, Time
from tienlen.web.room.deltas import apply_delta
from tienlen.web.schema import drop_everything, open_repository

from .manual_time import ManualTime

PG_URL = os.environ.get("TIENLEN_TEST_PG_URL")
REDIS_URL = os.environ.get("TIENLEN_TEST_REDIS_URL")
NO_REDIS = "no Redis: scripts/test.sh starts one (TIENLEN_TEST_REDIS_URL)"
CHROMIUM = os.environ.get("TIENLEN_CHROMIUM", "/usr/bin/chromium")
# the tests' clients all come from 127.0.0.1: no per-client limit unless a test sets one
# nor a limit on hints (the tests play hands by hints, faster than a person asks)
NO_CLIENT_LIMITS = Limits(tables_per_client=0, tables_per_address=0, creates_per_minute=0,
                          creates_per_address=0, messages_per_second=0, messages_per_address=0,
                          connections_per_address=0, replays_per_client=0,
                          rates=Rates(hint=Rate(0, 0, 10.0)))

# what a table a script with no cookie sits at asks for: changed rules, which are not rated (a
# rated table seats only an identity: web/table/state.py)
UNRATED = {"options": "stake = 2"}
# how long a test server may take to answer a request, a connection or a job on its loop: a
# bound, not a wait (an answer ends it), generous for a machine busy with other work (beside
# a CPU hog a record's download once took more than 10 s)
ANSWERED_WITHIN = 60.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """One server process's worth of app, started and stopped on a fixed port."""

    def __init__(self, db_url: str, bot_delay: float = 0.0, limits: Limits | None = None,
                 clock: Time = REAL_TIME, api_docs: bool = False, redis_url: str | None = None,
                 redis_prefix: str = "") -> None:
        self.db_url = db_url
        self.redis_url = redis_url  # one process of a room of many there (None: alone)
        self.redis_prefix = redis_prefix
        self.api_docs = api_docs
        self.bot_delay = bot_delay
        self.limits = limits or NO_CLIENT_LIMITS
        self.clock = clock
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self.app: Any = None

    def start(self) -> None:
        app = create_app(self.db_url, bot_delay=self.bot_delay, limits=self.limits,
                         clock=self.clock, api_docs=self.api_docs, redis_url=self.redis_url,
                         redis_prefix=self.redis_prefix)
        self.app = app
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning",
                                ws_max_size=64 * 1024, lifespan="on")
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(target=self._server.run, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 20
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        if self._server is not None and self._thread is not None:
            self._server.should_exit = True
            self._thread.join(20)
        self._server = None

    def restart(self) -> None:
        self.stop()
        self.start()

    def call(self, fn: Any) -> Any:
        """Run ``fn()`` on the server's event loop (where its tables live) and return its result."""
        async def run() -> Any:
            return fn()

        return asyncio.run_coroutine_threadsafe(run(), self.app.state.loop).result(ANSWERED_WITHIN)

    def advance(self, seconds: float) -> None:
        """Move the server's time (a :class:`~.manual_time.ServerTime`, given as ``clock``) on
        by ``seconds``, on its event loop: the timers and sweeps due on the way run there."""
        clock = self.clock
        assert isinstance(clock, ManualTime), "a server on real time: its time is not moved"
        self.call(lambda: clock.advance(seconds))

    # helpers
    def post(self, path: str, body: dict[str, Any]) -> httpx.Response:
        return httpx.post(self.base + path, json=body, timeout=ANSWERED_WITHIN)

    def get(self, path: str, timeout: float = ANSWERED_WITHIN) -> httpx.Response:
        return httpx.get(self.base + path, timeout=timeout)

    def ws(self, table_id: str) -> WsClient:
        return WsClient(connect(f"{self.ws_base}/ws/{table_id}", open_timeout=ANSWERED_WITHIN, proxy=None,
                                legacy=True, ping_interval=None))

    def visitor(self) -> Visitor:
        """A browser of its own: it keeps the cookies the server gives and says it comes from
        the server's own page (``Origin``), as a page's requests do."""
        return Visitor(self)

    def browser(self) -> Visitor:
        """A new browser that has opened the lobby (it has its cookies): a player who may sit
        at a rated table, which seats no script without cookies."""
        visitor = Visitor(self)
        visitor.visit()
        return visitor


class Visitor:
    """One browser: a cookie jar, and requests and WebSockets sent as its page sends them."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.origin = server.base
        self.http = httpx.Client(base_url=server.base, timeout=ANSWERED_WITHIN,
                                 headers={"Origin": server.base, "Sec-Fetch-Site": "same-origin"})

    def visit(self, path: str = "/") -> httpx.Response:
        """Open a page (the first visit is given the session cookie)."""
        return self.http.get(path, headers={"Sec-Fetch-Site": "none"})

    def get(self, path: str) -> httpx.Response:
        return self.http.get(path)

    def post(self, path: str, body: dict[str, Any] | None = None,
             **headers: str) -> httpx.Response:
        return self.http.post(path, json=body if body is not None else {}, headers=headers)

    @property
    def cookie(self) -> str | None:
        value: str | None = self.http.cookies.get("tienlen_sid")
        return value

    def ws(self, table_id: str, origin: str | None = None) -> WsClient:
        headers = {"Origin": origin or self.origin}
        cookies = "; ".join(f"{name}={value}" for name, value in self.http.cookies.items())
        if cookies:
            headers["Cookie"] = cookies
        # no keepalive pings of its own: a test's connection lives seconds, and one left open
        # when its server stopped would only fail its ping later, in another test's output
        conn = connect(f"{self.server.ws_base}/ws/{table_id}", open_timeout=ANSWERED_WITHIN, proxy=None,
                       legacy=True, additional_headers=headers, ping_interval=None)
        # the cookies its handshake's answer gives are kept, as a browser keeps them
        assert conn.response is not None
        given = [("set-cookie", v) for v in conn.response.headers.get_all("Set-Cookie")]
        if given:
            url = f"{self.server.base}/ws/{table_id}"
            self.http.cookies.extract_cookies(
                httpx.Response(101, headers=given, request=httpx.Request("GET", url)))
        return WsClient(conn)


class WsClient:
    """A protocol client that keeps every message it receives, as the page holds the table's
    state: a ``delta`` is applied to the state held and kept as the ``state`` it makes (the
    messages as they came are in ``wire``)."""

    def __init__(self, conn: ClientConnection) -> None:
        self.conn = conn
        self.seq = 0
        self.wire: list[dict[str, Any]] = []
        self.received: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.token: str | None = None
        self.seat: int | None = None

    def send(self, **cmd: Any) -> int:
        self.seq += 1
        self.conn.send(json.dumps({"seq": self.seq, **cmd}))
        return self.seq

    def send_raw(self, text: str) -> None:
        self.conn.send(text)

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        msg: dict[str, Any] = json.loads(self.conn.recv(timeout))
        self.wire.append(msg)
        if msg["type"] == "delta":
            made = apply_delta(self.state, msg) if self.state is not None else None
            assert made is not None, f"a delta for a state this client does not hold: {msg}"
            msg = made
        self.received.append(msg)
        if msg["type"] == "state":
            self.state = msg
        elif msg["type"] == "welcome":
            self.seat = msg["seat"]
            if msg.get("token"):
                self.token = msg["token"]
        return msg

    def until(self, pred: Any, timeout: float = 20) -> dict[str, Any]:
        """Read messages until one satisfies ``pred``; return it."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no such message; last: {self.received[-1:]}")
            msg = self.recv(left)
            if pred(msg):
                return msg

    def error(self) -> dict[str, Any]:
        return self.until(lambda m: m["type"] == "error")

    def hello(self, token: str | None = None) -> dict[str, Any]:
        if token is not None:
            self.send(type="hello", token=token)
        else:
            self.send(type="hello")
        self.until(lambda m: m["type"] == "welcome")
        return self.until(lambda m: m["type"] == "state")

    def close(self) -> None:
        self.conn.close()


IN_CI = bool(os.environ.get("CI"))  # in CI a missing service is a failure, not a skip


def _urls() -> list[Any]:
    if IN_CI:
        return ["sqlite", "postgresql"]
    return ["sqlite", pytest.param("postgresql", marks=pytest.mark.skipif(
        not PG_URL, reason="no PostgreSQL: scripts/test.sh starts one (TIENLEN_TEST_PG_URL)"))]


def worker_database(url: str, worker: str | None) -> str:
    """The database at ``url`` for one pytest-xdist worker (``gw0``...): another database of the
    same server, ``tienlen_test_gw0``, made the first time, so that workers never empty one
    another's tables; ``url`` itself when the tests run in one process (``worker`` is None)."""
    if not worker:
        return url
    given = make_url(url)
    name = f"{given.database}_{worker}"
    engine = create_engine(given, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as conn:
            known = conn.execute(text("SELECT 1 FROM pg_database WHERE datname = :name"),
                                 {"name": name}).first()
            if known is None:
                conn.execute(text(f'CREATE DATABASE "{name}"'))
    finally:
        engine.dispose()
    return given.set(database=name).render_as_string(hide_password=False)


@pytest.fixture(scope="session")
def pg_url() -> str:
    """This worker's database on the test PostgreSQL (``TIENLEN_TEST_PG_URL``)."""
    assert PG_URL is not None, "no PostgreSQL: scripts/test.sh starts one (TIENLEN_TEST_PG_URL)"
    return worker_database(PG_URL, os.environ.get("PYTEST_XDIST_WORKER"))


@pytest.fixture(params=_urls())
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database: an SQLite file, or this worker's test PostgreSQL database emptied."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'tienlen.sqlite3'}"
    return emptied(request.getfixturevalue("pg_url"))


def emptied(url: str) -> str:
    """The database at ``url`` with every table made again, empty."""
    repo = open_repository(url)
    drop_everything(repo.engine)
    repo.close()
    return url


@pytest.fixture
def one_database(request: pytest.FixtureRequest) -> str:
    """This worker's test PostgreSQL database, emptied (what processes of one room share)."""
    if not PG_URL and not IN_CI:
        pytest.skip("no PostgreSQL: scripts/test.sh starts one (TIENLEN_TEST_PG_URL)")
    return emptied(request.getfixturevalue("pg_url"))


@pytest.fixture
def redis_url() -> str:
    """The test Redis (``TIENLEN_TEST_REDIS_URL``), which every worker shares: a test keeps its
    keys under its own :func:`redis_prefix`, never emptying the database."""
    if not REDIS_URL:
        if IN_CI:
            pytest.fail(NO_REDIS)
        pytest.skip(NO_REDIS)
    return REDIS_URL


@pytest.fixture
def redis_prefix(redis_url: str) -> Iterator[str]:
    """A key prefix of this test's own on the test Redis; its keys are deleted afterwards."""
    import redis

    prefix = f"test.{secrets.token_hex(8)}:"
    yield prefix
    client = redis.Redis.from_url(redis_url)
    try:
        keys = list(client.scan_iter(match=f"tl:{prefix}*", count=1000))
        if keys:
            client.delete(*keys)
    finally:
        client.close()


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'tienlen.sqlite3'}"


def running(url: str, **options: Any) -> Iterator[Server]:
    """A server on the database at ``url`` (with these :class:`Server` options), stopped
    afterwards."""
    srv = Server(url, **options)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture
def server(sqlite_url: str) -> Iterator[Server]:
    yield from running(sqlite_url)


@pytest.fixture
def any_server(db_url: str) -> Iterator[Server]:
    """The server on SQLite and on PostgreSQL."""
    yield from running(db_url)


# Generous bounds on a browser's waits: the suite runs on as many workers as cores, often beside
# other work, and a page that takes a loaded machine longer than Playwright's defaults (5 s for
# what a page shows, 30 s for an action: a click, a screenshot) is slow, not wrong.
SHOWN_WITHIN_MS = 20_000
ACTED_WITHIN_MS = 90_000


@pytest.fixture(scope="session")
def browser(browser: Any) -> Any:
    """pytest-playwright's browser (one a worker), each context it opens given the bounds above."""
    from playwright.sync_api import expect

    expect.set_options(timeout=SHOWN_WITHIN_MS)
    opened = browser.new_context

    def new_context(*args: Any, **kwargs: Any) -> Any:
        context = opened(*args, **kwargs)
        context.set_default_timeout(ACTED_WITHIN_MS)
        return context

    browser.new_context = new_context
    return browser


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    """The distribution's chromium, headless, offline."""
    if not os.path.exists(CHROMIUM):
        if IN_CI:
            pytest.fail(f"no chromium at {CHROMIUM}: scripts/test.sh installs it")
        pytest.skip(f"no chromium at {CHROMIUM}: scripts/test.sh installs it")
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "headless": True,
            "args": ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                     "--disable-component-update", "--disable-sync", "--no-first-run"]}


@pytest.fixture(scope="session")
def base_url() -> None:
    """No base address: every test opens a whole one (``server.base + "/"``). This replaces
    pytest-playwright's own ``base_url``, a fixture written as a method of a plugin class, which
    pytest deprecates (PytestRemovedIn10Warning) in every run that opens a page."""
    return None


@pytest.fixture(autouse=True)
def close_browser_contexts(request: pytest.FixtureRequest) -> Iterator[None]:
    """After a browser test, close every context it opened (``browser.new_context()``): a page
    left open keeps its socket and its animations running, and slows every later test."""
    yield
    if "browser" in request.fixturenames:
        for context in list(request.getfixturevalue("browser").contexts):
            context.close()

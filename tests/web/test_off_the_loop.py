"""The tables do not wait for the database: a route that only reads or writes it runs in
FastAPI's thread pool, so a slow query holds no table back; and what every process of one
server counts an address by is one keyed hash, under the key the database holds."""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

pytest.importorskip("fastapi")
import httpx
from starlette.requests import Request

from tienlen.web.app import create_app
from tienlen.web.services import address_of

from .conftest import Server, running

HELD = 30.0  # the longest a test holds a query (released at once when the test is done)


@pytest.fixture
def bots_server(sqlite_url: str) -> Iterator[Server]:
    """A server whose bots take a moment over each move (a hand lasts a few seconds)."""
    yield from running(sqlite_url, bot_delay=0.05)


def watched_bot_table(server: Server) -> Any:
    """A practice table of four bots that plays by itself, watched (a watched bots' table moves
    on; an unwatched one pauses): the watcher, having had its first state."""
    made = server.post("/api/tables", {"quick": True, "players": 4, "seed": 7}).json()
    watcher = server.ws(made["id"])
    watcher.hello()
    return watcher


def blocking(fn: Callable[..., Any], entered: threading.Event,
             release: threading.Event) -> Callable[..., Any]:
    """``fn``, made to wait for ``release`` once it is called (``entered`` then set)."""
    def slow(*args: Any, **kwargs: Any) -> Any:
        entered.set()
        release.wait(HELD)
        return fn(*args, **kwargs)
    return slow


def test_a_slow_profile_query_holds_no_table_back(bots_server: Server,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    server = bots_server
    watcher = watched_bot_table(server)
    identities = server.app.state.services.identities
    entered, release = threading.Event(), threading.Event()
    monkeypatch.setattr(identities, "by_account",
                        blocking(identities.by_account, entered, release))
    with ThreadPoolExecutor(1) as asking:
        profile = asking.submit(httpx.get, f"{server.base}/api/players/Nobody",
                                timeout=HELD + 10)
        try:
            assert entered.wait(10), "the profile's query was never made"
            # while the query is held: a ping is answered (after every state sent before it),
            ping = watcher.send(type="ping")
            watcher.until(lambda m: m["type"] == "pong" and m["ref"] == ping, timeout=10)
            # and the bots play on: a state newer than any sent before the ping
            assert watcher.state is not None
            version = watcher.state["version"]
            watcher.until(lambda m: m["type"] == "state" and m["version"] > version,
                          timeout=10)
            assert not profile.done()  # still held
        finally:
            release.set()
        answer = profile.result(HELD)
    assert answer.status_code == 404 and answer.json()["code"] == "not_found"
    watcher.close()


def _request(app: Any, host: str) -> Request:
    return Request({"type": "http", "app": app, "client": (host, 40000), "headers": [],
                    "method": "GET", "path": "/", "query_string": b""})


ANOTHER_PROCESS = """
import sys
from starlette.requests import Request
from tienlen.web.app import create_app
from tienlen.web.services import address_of
app = create_app(sys.argv[1])
print(address_of(Request({"type": "http", "app": app, "client": ("203.0.113.7", 1), "headers": [],
                          "method": "GET", "path": "/", "query_string": b""})))
"""


def test_two_servers_on_one_database_count_an_address_alike(sqlite_url: str) -> None:
    first, second = create_app(sqlite_url), create_app(sqlite_url)
    here = address_of(_request(first, "203.0.113.7"))
    assert address_of(_request(second, "203.0.113.7")) == here
    assert address_of(_request(first, "203.0.113.8")) != here
    assert "203.0.113.7" not in here  # the address itself is never kept
    # what the limits count an address by is what a ban names of it
    assert first.state.services.moderation.address_key(_request(first, "203.0.113.7")) == here
    # and another process (the next server, many processes) hashes it alike
    other = subprocess.run([sys.executable, "-c", ANOTHER_PROCESS, sqlite_url],
                           capture_output=True, text=True, timeout=120, check=True)
    assert other.stdout.strip() == here
    for app in (first, second):
        app.state.services.repo.close()

"""Helpers the web tests share: waiting for a server that moves on by itself, counting rows."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from tienlen.web.storage import Repository

from .conftest import Server


def poll(fetch: Callable[[], Any], done: Callable[[Any], bool], timeout: float = 60) -> Any:
    """Fetch until ``done`` holds (the server's tables move on by themselves)."""
    deadline = time.monotonic() + timeout
    while True:
        value = fetch()
        if done(value):
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"still {value!r}")
        time.sleep(0.05)


def stored(server: Server) -> dict[str, int]:
    """How many rows each table of the server's database holds."""
    repo = Repository(server.db_url)
    try:
        return repo.count_rows()
    finally:
        repo.close()

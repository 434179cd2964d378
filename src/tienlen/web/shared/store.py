"""The Redis the shared counts are kept in: the client (:func:`connect`), the keys' names, and
the one way a count's call reaches it (:meth:`Store.call`), a Redis that does not answer
becoming a refusal (503) that says so.

The client is redis-py's synchronous one: the counts are taken where the server takes them
today, synchronously, in the route handlers (FastAPI's thread pool) and in the tables'
commands, the WebSocket loop and the accounts' acts (on the event loop), each one round trip
to a Redis beside the server (about 0.1 ms on one machine). So that a Redis gone quiet never
holds the event loop, a command waits at most :data:`TIMEOUT`, is retried once at once (a
connection the server closed), and after a failure every call is refused at once for
:data:`DOWN_FOR` seconds.
"""

from __future__ import annotations

import hashlib
import logging
import re
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

import redis
from redis.backoff import NoBackoff
from redis.commands.core import Script
from redis.retry import Retry

from ...i18n import msg
from ..refusal import Refused

log = logging.getLogger("tienlen.web")

TIMEOUT = 0.5  # seconds a connection or a command may take before Redis counts as down
HEALTH_CHECK = 30  # seconds a pooled connection may idle before it is checked with a PING
DOWN_FOR = 1.0  # seconds every call is refused at once after one failed
RETRY_AFTER = 5.0  # what a refusal then tells the client to wait
MAX_KEY = 80  # characters of a counted key kept as given (longer ones are hashed)
PLAIN_KEY = re.compile(r"[A-Za-z0-9:._-]+")  # what a key kept as given is made of
UNAVAILABLE = "unavailable"  # the refusal's kind on the WebSocket
# the start of every script: Redis's own time in milliseconds, so that every process counts alike
NOW = "local t = redis.call('TIME')\nlocal now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)\n"
T = TypeVar("T")


def connect(url: str) -> redis.Redis:
    """A client of the Redis at ``url`` (``redis://host:port/db``), with the timeouts and the
    one retry the module's docstring says. It connects at the first call."""
    return redis.Redis.from_url(url, socket_timeout=TIMEOUT, socket_connect_timeout=TIMEOUT,
                                health_check_interval=HEALTH_CHECK, retry=Retry(NoBackoff(), 1))


def refusal() -> Refused:
    """What an action is told while the shared counts cannot be reached (503)."""
    return Refused(msg("err.web.counts_down"), UNAVAILABLE, status=503, retry_after=RETRY_AFTER)


class Store:
    """One Redis and the prefix of every key the counts keep there (``tl:`` and ``prefix``:
    two servers, or two tests, on one Redis each with its own)."""

    def __init__(self, client: redis.Redis, prefix: str = "") -> None:
        self.client = client
        self.prefix = f"tl:{prefix}"
        self._down_until = 0.0  # time.monotonic() until which every call is refused at once
        self._lock = threading.Lock()
        self._scripts: dict[str, Script] = {}

    def key(self, kind: str, name: str, counted: str) -> str:
        """The Redis key of what ``counted`` (an address's or a player's key, a name tried)
        holds in the count ``name`` of ``kind``; ``counted`` kept as given when it is short and
        plain, else its hash (``#`` and 32 hex digits: a plain key has no ``#``)."""
        if len(counted) > MAX_KEY or not PLAIN_KEY.fullmatch(counted):
            counted = "#" + hashlib.sha256(counted.encode()).hexdigest()[:32]
        return f"{self.prefix}{kind}:{name}:{counted}"

    def script(self, text: str) -> Script:
        """The Lua script ``text`` (after :data:`NOW`), registered once per store: run by its
        SHA (EVALSHA), sent again when Redis has forgotten it (a restart)."""
        with self._lock:
            if text not in self._scripts:
                self._scripts[text] = self.client.register_script(NOW + text)
            return self._scripts[text]

    def run(self, script: Script, keys: list[str], args: list[str | int | float]) -> Any:
        """``script`` on ``keys`` with ``args``, through :meth:`call`."""
        return self.call(lambda: script(keys, args))

    def call(self, fn: Callable[[], T]) -> T:
        """``fn()``, a call to Redis: a :func:`refusal` when Redis fails (logged once) or failed
        less than :data:`DOWN_FOR` seconds ago."""
        if time.monotonic() < self._down_until:
            raise refusal()
        try:
            return fn()
        except redis.RedisError as exc:
            with self._lock:
                if time.monotonic() >= self._down_until:
                    log.warning("the shared counts' Redis failed (%s): actions are refused", exc)
                self._down_until = time.monotonic() + DOWN_FOR
            raise refusal() from None

    def close(self) -> None:
        """Close the client's connections."""
        self.client.close()

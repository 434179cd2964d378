"""Per-client limits (by address): how many tables, requests and messages one client may make."""

from __future__ import annotations

import hashlib
import hmac
import math
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..errors import ArgumentError, error
from ..i18n import Msg, msg

PRUNE_AT = 10_000  # addresses remembered before the full buckets are forgotten
_KEY = secrets.token_bytes(32)  # this process's key for client_key


@dataclass(frozen=True)
class Limits:
    """The server's limits; 0 turns a per-client limit off. ``tienlen serve --help`` says each."""

    max_tables: int = 20_000  # tables held at once, for everyone together
    tables_per_client: int = 20  # open tables that one address has created
    creates_per_minute: int = 10  # tables one address may create in a minute
    messages_per_second: int = 20  # WebSocket messages one address may send in a second
    connections_per_client: int = 50  # WebSocket connections one address may hold at once
    idle_expiry: float = 7200.0  # seconds with nobody connected and nothing done: the table closes
    sweep_every: float = 60.0  # seconds between looks for idle tables

    def __post_init__(self) -> None:
        for name in ("max_tables", "tables_per_client", "creates_per_minute",
                     "messages_per_second", "connections_per_client"):
            if getattr(self, name) < 0:
                raise error(ArgumentError, "err.limits.at_least_zero", name=name,
                            value=getattr(self, name))
        if self.max_tables < 1:
            raise error(ArgumentError, "err.limits.at_least_one", name="max_tables",
                        value=self.max_tables)
        for name in ("idle_expiry", "sweep_every"):
            if not getattr(self, name) > 0:
                raise error(ArgumentError, "err.limits.seconds", name=name,
                            value=getattr(self, name))


class RateLimit:
    """A token bucket per key: ``rate`` actions per ``per`` seconds, in bursts of up to ``rate``
    (``rate`` 0: no limit)."""

    def __init__(self, rate: int, per: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.per = per
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, when counted)

    def take(self, key: str) -> float:
        """Spend one action for ``key``: 0.0 when allowed, else the seconds until one is."""
        if self.rate == 0:
            return 0.0
        now = self.clock()
        refill = self.rate / self.per
        tokens, then = self._buckets.get(key, (float(self.rate), now))
        tokens = min(float(self.rate), tokens + (now - then) * refill)
        if tokens < 1.0:
            self._buckets[key] = (tokens, now)
            return (1.0 - tokens) / refill
        if len(self._buckets) >= PRUNE_AT:
            self._prune(now, refill)
        self._buckets[key] = (tokens - 1.0, now)
        return 0.0

    def _prune(self, now: float, refill: float) -> None:
        """Forget the keys whose buckets have filled up again (they are as if new)."""
        self._buckets = {k: (t, at) for k, (t, at) in self._buckets.items()
                         if t + (now - at) * refill < self.rate}


def client_key(address: str | None) -> str:
    """What a client is counted by: a keyed hash of its address (the address itself is not
    kept, and the key changes with each server process, so a stored hash reveals nothing)."""
    return hmac.new(_KEY, (address or "unknown").encode(), hashlib.sha256).hexdigest()[:32]


def wait_text(seconds: float) -> Msg:
    """'try again in 3 s' for a wait of ``seconds`` (a message, said in the client's language)."""
    return msg("err.web.wait", n=max(1, math.ceil(seconds)))

"""Limits: how many tables, requests, messages and connections a client, a connection and an
address may make or hold.

Many players share one address (mobile networks, schools, cafés), so the everyday limits count
the one who acts: messages per WebSocket connection, tables per player (the page's player key,
see :func:`player_key`; a client that sends none is counted by its address). Each address also
has a much higher ceiling, against floods from one place.

Two counters, each one class, count per key: :class:`RateLimit` (a token bucket: actions in a
while) and :class:`Held` (what a key holds at once: connections open, jobs running). A client's
address is counted by :func:`client_key`, its keyed hash under the database's key, so that
every process of one server counts one address alike.

What counts across processes is made by one :class:`Counting`: :class:`InMemory` (these two
classes, this process's counts alone) or the shared one in Redis (``shared/``); the limiter,
the sign-in tries and the connections ask theirs for their buckets (:class:`Bucket`) and
counts (:class:`Holding`), and never know which it is.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import os
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from ..errors import ArgumentError, error
from ..i18n import Msg, msg

PRUNE_AT = 10_000  # addresses remembered before the full buckets are forgotten
# every bucket's counting, all or none (take_all) included: the route handlers in FastAPI's
# thread pool count alongside the tables on the event loop
_COUNTING = threading.RLock()


LIMIT_NAMES = ("max_tables", "tables_per_client", "tables_per_address", "creates_per_minute",
               "creates_per_address", "messages_per_second", "messages_per_address",
               "connections_per_address", "max_body", "replays_per_client", "signins_per_name",
               "signins_per_address")


def default_bot_workers() -> int:
    """The bot pool's worker processes by default: the cores less one (the event loop's), at
    least 1."""
    return max(1, (os.cpu_count() or 1) - 1)


@dataclass(frozen=True)
class Rate:
    """An action's limit: ``player`` times in ``per`` seconds for one player (its identity, else
    its address), ``address`` times for everyone behind one address; 0 turns either off."""

    player: int
    address: int
    per: float


@dataclass(frozen=True)
class Rates:
    """The limited actions besides creating a table (``Limits.creates_per_*``), each counted per
    player and per address by one :class:`~.limiter.Limiter`."""

    friend: Rate = Rate(20, 200, 600.0)  # friend requests and removals
    invite: Rate = Rate(20, 200, 60.0)  # invitations to a table
    report: Rate = Rate(10, 60, 3600.0)  # reports
    block: Rate = Rate(30, 300, 600.0)  # blocks and unblocks
    hint: Rate = Rate(10, 200, 10.0)  # hints, over all of a player's tables (a hint a second)
    say: Rate = Rate(5, 100, 10.0)  # things said at the tables (phrases, reactions, words)
    review: Rate = Rate(20, 120, 60.0)  # reviews of finished hands asked


ACTIONS = ("create", *Rates.__dataclass_fields__)  # every action a Limiter counts


@dataclass(frozen=True)
class Limits:
    """The server's limits; 0 turns a per-client limit off. ``tienlen serve --help`` says each."""

    max_tables: int = 20_000  # tables held at once, for everyone together
    tables_per_client: int = 20  # open tables that one player has created and still hosts
    tables_per_address: int = 200  # the same, for everyone behind one address
    creates_per_minute: int = 10  # tables one player may create in a minute
    creates_per_address: int = 100  # the same, for everyone behind one address
    rates: Rates = Rates()  # the other actions that cost the server or reach another person
    messages_per_second: int = 20  # WebSocket messages one connection may send in a second
    messages_per_address: int = 400  # the same, for every connection from one address
    connections_per_address: int = 500  # WebSocket connections one address may hold at once
    max_body: int = 64 * 1024  # bytes in one HTTP request body (413 beyond)
    replays_per_client: int = 4  # replays and record downloads one address may have running
    # sign-in and recovery tries one account name has from one address in 10 minutes (from
    # everywhere: accounts.NAME_CEILING times as many)
    signins_per_name: int = 10
    signins_per_address: int = 300  # the same, for every name tried from one address
    idle_expiry: float = 7200.0  # seconds with nobody connected and nothing done: the table closes
    sweep_every: float = 60.0  # seconds between looks for idle tables (and old reports)
    keep_reports: float = 180.0  # days a report is kept (0: for ever; the audit log stays)
    keep_chat: float = 30.0  # days what was said at the tables is kept (0: for ever; chat.py)
    # seconds quick match waits for players before bots fill a table's empty seats
    match_wait: float = 20.0
    # worker processes making the strongest bots' decisions and the hints (botpool.py)
    bot_workers: int = field(default_factory=default_bot_workers)

    def __post_init__(self) -> None:
        for name in LIMIT_NAMES:
            if getattr(self, name) < 0:
                raise error(ArgumentError, "err.limits.at_least_zero", name=name,
                            value=getattr(self, name))
        for name in ("max_tables", "bot_workers"):
            if getattr(self, name) < 1:
                raise error(ArgumentError, "err.limits.at_least_one", name=name,
                            value=getattr(self, name))
        for name in ("keep_reports", "keep_chat", "match_wait"):
            if getattr(self, name) < 0:
                raise error(ArgumentError, "err.limits.at_least_zero", name=name,
                            value=getattr(self, name))
        for name in ACTIONS:
            rate = self.rate(name)
            if min(rate.player, rate.address) < 0 or not rate.per > 0:
                raise error(ArgumentError, "err.limits.rate", name=name, value=rate)
        for name in ("idle_expiry", "sweep_every"):
            if not getattr(self, name) > 0:
                raise error(ArgumentError, "err.limits.seconds", name=name,
                            value=getattr(self, name))

    def rate(self, action: str) -> Rate:
        """The limit of ``action`` (one of :data:`ACTIONS`)."""
        if action == "create":
            return Rate(self.creates_per_minute, self.creates_per_address, 60.0)
        rate: Rate = getattr(self.rates, action)
        return rate


class Bucket(Protocol):
    """A token bucket per key (:class:`RateLimit`, or a shared one): ``rate`` actions per
    ``per`` seconds, in bursts of up to ``rate`` (0: no limit)."""

    rate: int
    per: float

    def take(self, key: str) -> float:
        """Spend one action for ``key``: 0.0 when allowed, else the seconds until one is."""
        ...

    def wait(self, key: str) -> float:
        """The seconds until ``key`` may act (0.0: now), spending nothing."""
        ...


class Holding(Protocol):
    """What each key holds at once, at most ``per_key`` (0: no limit): :class:`Held`, or a
    shared one."""

    per_key: int

    def full(self, key: str) -> bool:
        """Whether ``key`` holds ``per_key`` already."""
        ...

    def take(self, key: str) -> bool:
        """Count one more for ``key``: False (and nothing counted) when it is full."""
        ...

    def give(self, key: str) -> None:
        """One of ``key``'s is done."""
        ...

    @property
    def total(self) -> int:
        """What every key holds, together (a shared count: what this process holds)."""
        ...


class Counting(Protocol):
    """Where the counts are kept: what makes the buckets and the holdings, and spends several
    buckets of its own all or none. ``renew_every``: the seconds between two calls of
    :meth:`refresh` the server makes (None: it has nothing to renew)."""

    renew_every: float | None

    def bucket(self, name: str, rate: int, per: float) -> Bucket:
        """A token bucket per key, ``name`` telling it from the others (``create.player``)."""
        ...

    def held(self, name: str, per_key: int) -> Holding:
        """A count of what each key holds at once, ``name`` telling it from the others."""
        ...

    def take_all(self, counted: Sequence[tuple[Bucket, str]]) -> tuple[int, float] | None:
        """One action in each of ``counted`` (buckets this made, each with its key), all or
        none, as :func:`take_all` says."""
        ...

    def refresh(self) -> None:
        """Renew what this process holds (a shared count forgets a process that stops)."""
        ...


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
        with _COUNTING:
            return self._take(key)

    def _take(self, key: str) -> float:
        wait, tokens, now = self._count(key)
        if self.rate == 0:
            return 0.0
        if wait:
            self._buckets[key] = (tokens, now)
            return wait
        if len(self._buckets) >= PRUNE_AT:
            self._prune(now, self.rate / self.per)
        self._buckets[key] = (tokens - 1.0, now)
        return 0.0

    def wait(self, key: str) -> float:
        """The seconds until ``key`` may act (0.0: now), spending nothing."""
        with _COUNTING:
            return self._count(key)[0]

    def _count(self, key: str) -> tuple[float, float, float]:
        """(the wait, the tokens ``key`` holds, now)."""
        now = self.clock()
        if self.rate == 0:
            return 0.0, 0.0, now
        refill = self.rate / self.per
        tokens, then = self._buckets.get(key, (float(self.rate), now))
        tokens = min(float(self.rate), tokens + (now - then) * refill)
        return (0.0 if tokens >= 1.0 else (1.0 - tokens) / refill), tokens, now

    def _prune(self, now: float, refill: float) -> None:
        """Forget the keys whose buckets have filled up again (they are as if new)."""
        self._buckets = {k: (t, at) for k, (t, at) in self._buckets.items()
                         if t + (now - at) * refill < self.rate}


def take_all(counted: Sequence[tuple[Bucket, str]]) -> tuple[int, float] | None:
    """One action in each bucket of ``counted`` (a bucket and the key counted in it), all or
    none: None when every one allows it (all spent), else the first that refuses and its wait
    (nothing spent: a refused action leaves no trace)."""
    with _COUNTING:
        for i, (bucket, key) in enumerate(counted):
            wait = bucket.wait(key)
            if wait:
                return i, wait
        for bucket, key in counted:
            bucket.take(key)
        return None


class Held:
    """What each key holds at once (connections open, jobs running): at most ``per_key`` (0: no
    limit). Counted on the event loop."""

    def __init__(self, per_key: int = 0) -> None:
        self.per_key = per_key
        self._held: Counter[str] = Counter()

    def full(self, key: str) -> bool:
        """Whether ``key`` holds ``per_key`` already."""
        return bool(self.per_key) and self._held[key] >= self.per_key

    def take(self, key: str) -> bool:
        """Count one more for ``key``: False (and nothing counted) when it is :meth:`full`."""
        if self.full(key):
            return False
        self._held[key] += 1
        return True

    def give(self, key: str) -> None:
        """One of ``key``'s is done."""
        self._held[key] -= 1
        if self._held[key] <= 0:
            del self._held[key]

    @property
    def total(self) -> int:
        """What every key holds, together."""
        return sum(self._held.values())


class InMemory:
    """The counts in this process's memory (:class:`RateLimit`, :class:`Held`, on ``clock``):
    one process's server, and the tests'."""

    renew_every: float | None = None

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock

    def bucket(self, name: str, rate: int, per: float) -> RateLimit:
        return RateLimit(rate, per, self.clock)

    def held(self, name: str, per_key: int) -> Held:
        return Held(per_key)

    def take_all(self, counted: Sequence[tuple[Bucket, str]]) -> tuple[int, float] | None:
        return take_all(counted)

    def refresh(self) -> None:
        """Nothing to renew: this process's counts die with it."""


def client_key(address: str | None, key: bytes) -> str:
    """What a client is counted by, and what a ban names of it: the HMAC of its address under
    ``key``, the server's (kept in the database, the same in every process and after a
    restart); the address itself is never kept."""
    return hmac.new(key, (address or "unknown").encode(), hashlib.sha256).hexdigest()[:32]


MIN_PLAYER_KEY = 16  # characters in a player key (the page sends 32 random ones)
MAX_PLAYER_KEY = 128


def player_key(secret: str | None, address_key: str) -> str:
    """Who a new table is counted against: the player whose page sent ``secret`` (its player key,
    kept in the browser; a hash, so that the stored value cannot be replayed), else the address.
    The lasting identity of the accounts to come takes this key's place."""
    if secret is None:
        return address_key
    return "p:" + hashlib.sha256(secret.encode()).hexdigest()[:32]


def wait_text(seconds: float) -> Msg:
    """'try again in 3 s' for a wait of ``seconds`` (a message, said in the client's language)."""
    return msg("err.web.wait", n=max(1, math.ceil(seconds)))


def span_text(seconds: float) -> Msg:
    """'in 10 s', 'in 10 min', 'in 1 h': the span a limit counts over (a message)."""
    if seconds < 60:
        return msg("err.web.span.seconds", n=round(seconds))
    if seconds < 3600:
        return msg("err.web.span.minutes", n=round(seconds / 60))
    return msg("err.web.span.hours", n=round(seconds / 3600))

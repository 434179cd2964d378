"""What every route and the WebSocket loop share: one :class:`Services` object on ``app.state``.

The routes (``routes/``) and the socket loop (``socket.py``) hold no state of their own: they
reach the lobby, the storage, the limits, the rate limits and the worker pool through the
``Services`` that :func:`~.app.create_app` made, by the dependency :data:`Svc` (or
:func:`services_of`).

What is per process, and behind which interface. A server of several processes (the tables
shared out among them, a Redis or the like between them) keeps the interfaces and swaps what
is behind them:

- **rate-limit buckets** (every action that costs the server or reaches another person, per
  player and per address: :class:`~.limiter.Limiter`; WebSocket messages per address): each a
  :class:`~.limits.RateLimit`, used only through ``take(key) -> seconds to wait`` and
  ``wait(key)`` (a shared version: a token bucket per key in the store, one atomic script a
  call);
- **connection counts** per address: :class:`Connections`, used only through
  ``open(key) -> bool`` and ``close(key)`` (shared: a counter per key, incremented and
  decremented, with an expiry so that a dead process's connections are forgotten);
- **worker jobs running** per address: :class:`Offload`'s ``run(key, fn, *args)`` (counted
  by a :class:`Connections`; the work itself goes to the one bot pool, ``botpool.py``);
- **identities and sessions**: an :class:`~.identity.IdentityStore` (in the database; a
  shared store only needs the same methods);
- **ratings**: a :class:`~.ratings_store.RatingStore`; the server's is the database's, whose
  update is made in the transaction that stores a finished hand (``played.py``);
- **moderation**: a :class:`~.moderation_store.ModerationStore` in the database; each process
  keeps the bans in force for a few seconds (``moderation.BAN_CACHE_SECONDS``) and the address
  each identity used last (for an address ban: per process);
- **quick match's queue**: a :class:`~.matchqueue.MatchQueue` in the database (each
  process's matchmaker claims a group in one transaction, so a player is seated once);
- **the tables themselves**: the :class:`~.lobby.Lobby` holds each open table in the memory of
  the process that serves it; what outlives the process is in the :class:`~.storage.Repository`
  (the log and snapshots each table is rebuilt from).

A connection's own message bucket lives and dies with the connection (in ``socket.py``).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any, TypeVar

from fastapi import Depends, HTTPException
from fastapi import Path as PathParam
from starlette.requests import HTTPConnection

from ..i18n import Msg, msg, render, t
from .botpool import BotPool
from .chat import SqlChatStore
from .friends import FriendStore, SqlFriendStore
from .identity import IdentityStore, SqlIdentityStore
from .limiter import Limiter
from .limits import Limits, RateLimit, client_key
from .lobby import Lobby, TooMany
from .matchqueue import MatchQueue, SqlMatchQueue
from .moderation import Moderation
from .moderation_store import SqlModerationStore
from .now import REAL_TIME, Time
from .played import HandWriter
from .problems import Refusal
from .ratings_store import RatingStore, SqlRatingStore
from .reviews import Reviews
from .room import Room
from .storage import Repository

MAX_TABLE_ID = 64  # characters of a table id in URLs
TableId = Annotated[str, PathParam(min_length=1, max_length=MAX_TABLE_ID)]  # one in a path
T = TypeVar("T")


class Connections:
    """The WebSocket connections each address holds now, at most ``per_key`` (0: no limit)."""

    def __init__(self, per_key: int) -> None:
        self.per_key = per_key
        self._open: Counter[str] = Counter()

    def open(self, key: str) -> bool:
        """Count one more connection for ``key``: False (and nothing counted) when it holds
        ``per_key`` already."""
        if self.per_key and self._open[key] >= self.per_key:
            return False
        self._open[key] += 1
        return True

    def close(self, key: str) -> None:
        """One connection of ``key``'s is closed."""
        self._open[key] -= 1
        if self._open[key] <= 0:
            del self._open[key]


class Offload:
    """CPU work that must not hold the event loop (replays, whole-table records), made in the
    bot pool behind every hint and bot decision (:meth:`~.botpool.BotPool.run`), at most
    ``per_client`` at once for one client (0: no limit): more are refused until one is done,
    so one client cannot queue the pool full."""

    def __init__(self, pool: BotPool, per_client: int) -> None:
        self.pool = pool
        self.running = Connections(per_client)

    async def run(self, key: str, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker, counted against ``key``; :class:`~.lobby.TooMany` when
        ``key`` already has ``per_client`` running."""
        if not self.running.open(key):
            raise TooMany(msg("err.web.busy", n=self.running.per_key), retry_after=1)
        try:
            return await self.pool.run(fn, *args)
        finally:
            self.running.close(key)


@dataclass
class Services:
    """The server's shared state: its tables, its storage, its limits and what counts them."""

    limits: Limits
    repo: Repository
    lobby: Lobby
    offload: Offload
    clock: Time  # the one time: the rate limits count by it, the tables run on it (now.py)
    limiter: Limiter  # every limited action (tables created, friends asked, hints...), per
    # player and per address
    address_messages: RateLimit  # WebSocket messages, per address
    connections: Connections  # WebSocket connections open, per address
    identities: IdentityStore  # who plays, and the sessions that sign them in
    ratings: RatingStore  # the players' ratings (each finished rated hand updates them)
    moderation: Moderation  # blocks, reports, bans (read through a short cache), the audit log
    friends: FriendStore  # who asked whom, and the invitations to tables
    queue: MatchQueue  # quick match: who waits for a table, and the tables they were given
    reviews: Reviews  # finished hands' reviews, made in the bot pool, kept and shared
    started: float = field(default_factory=time.time)

    @classmethod
    def make(cls, repo: Repository, bot_delay: float, limits: Limits,
             clock: Time = REAL_TIME) -> Services:
        ratings = SqlRatingStore(repo.engine)
        # a finished hand's PlayedRow rows and rating update go in the transaction of its record
        repo.hand_writer = HandWriter(ratings)
        identities = SqlIdentityStore(repo.engine)
        lobby = Lobby(repo, bot_delay, limits, identities, time=clock)
        pool = lobby.driver.pool  # the one pool: bots' decisions, hints, the records' work
        return cls(limits=limits, repo=repo, lobby=lobby, reviews=Reviews(pool),
                   offload=Offload(pool, limits.replays_per_client), clock=clock,
                   limiter=Limiter(limits, clock),
                   address_messages=RateLimit(limits.messages_per_address, 1.0, clock),
                   connections=Connections(limits.connections_per_address),
                   identities=identities, ratings=ratings,
                   friends=SqlFriendStore(repo.engine), queue=SqlMatchQueue(repo.engine, clock.wall),
                   moderation=Moderation(SqlModerationStore(repo.engine), identities,
                                         chat=SqlChatStore(repo.engine)))

    # ------------------------------------------------------------------ tables by id
    def missing(self, table_id: str) -> tuple[int, Msg]:
        """Why there is no open table ``table_id``: closed (410, its records stay) or unknown."""
        if self.repo.table_exists(table_id):
            return 410, msg("err.web.closed", id=repr(table_id),
                            url=f"/api/tables/{table_id}/records")
        return 404, msg("err.web.no_table", id=repr(table_id))

    def room_or_404(self, table_id: str, lang: str) -> Room:
        """The open table ``table_id``, else an HTTP refusal saying why in ``lang``."""
        room = self.lobby.get(table_id)
        if room is None:
            status, reason = self.missing(table_id)
            raise HTTPException(status, render(reason, lang))
        return room

    def take_a_table(self, creator: str, address: str, lang: str) -> None:
        """Count a table made for ``creator`` (a player key) at ``address`` (a new table, or a
        wait in quick match, which ends in one): refused (429, in ``lang``) past the tables a
        minute each may make."""
        self.take("create", creator, address, lang)

    def take(self, action: str, player: str | None, address: str, lang: str) -> None:
        """Count ``action`` (limiter.py) for ``player`` (None: counted by its address) and for
        ``address`` (:func:`address_of`): refused (429, in ``lang``) past the limits."""
        try:
            self.limiter.take(action, player or address, address)
        except Refusal as exc:
            raise refusal_answer(exc, lang) from None

    def known_or_404(self, table_id: str, lang: str) -> None:
        """Tables open or closed (a closed table's records stay downloadable)."""
        if self.lobby.get(table_id) is None and not self.repo.table_exists(table_id):
            raise HTTPException(404, t("err.web.no_table", lang, id=repr(table_id)))


def refusal_answer(exc: Refusal, lang: str) -> HTTPException:
    """The HTTP answer to a :class:`Refusal`: its status, its reason in ``lang``, and
    ``Retry-After`` when a limit refused it."""
    headers = {"Retry-After": str(max(1, round(exc.retry_after)))} if exc.retry_after else None
    return HTTPException(exc.status, exc.say(lang), headers=headers)


def services_of(conn: HTTPConnection) -> Services:
    """The services of the app that serves ``conn`` (a request or a WebSocket)."""
    services: Services = conn.app.state.services
    return services


Svc = Annotated[Services, Depends(services_of)]


def address_of(conn: HTTPConnection) -> str:
    """What the client of ``conn`` is counted by (see :func:`~.limits.client_key`)."""
    return client_key(conn.client.host if conn.client else None)

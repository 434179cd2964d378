"""What every route and the WebSocket loop share: one :class:`Services` object on ``app.state``.

The routes (``routes/``) and the socket loop (``socket.py``) hold no state of their own: they
reach the lobby, the storage, the limits, the rate limits and the worker pool through the
``Services`` that :func:`~.app.create_app` made, by the dependency :data:`Svc` (or
:func:`services_of`).

What is per process, and behind which interface. A server of several processes (the tables
shared out among them, a Redis between them) keeps the interfaces and swaps what is behind
them; what counts is made by the services' one :class:`~.limits.Counting`, in this process's
memory (:class:`~.limits.InMemory`) or, given a Redis client, in Redis
(:class:`~.shared.counting.InRedis`, shared by every process):

- **rate-limit buckets** (every action that costs the server or reaches another person, per
  player and per address: :class:`~.limiter.Limiter`; WebSocket messages per address; the
  sign-in tries, ``accounts.py``): each a :class:`~.limits.Bucket`, used only through
  ``take(key) -> seconds to wait`` and ``wait(key)``, several spent all or none by the
  counting's ``take_all`` (shared: a token bucket per key in Redis, one atomic script a call,
  ``shared/redis_buckets.py``);
- **connection counts** per address: a :class:`~.limits.Holding` (the interface of
  :class:`~.limits.Held`, the one count of what a key holds at once), used only through
  ``take(key) -> bool`` and ``give(key)`` (shared: a sorted set per key of the processes'
  holdings, each with an expiry the holding process renews, so that a dead process's
  connections are forgotten: ``shared/redis_held.py``);
- **worker jobs running** per address (per process, in memory): :class:`Offload`'s
  ``run(key, fn, *args)`` (the work itself goes to the one bot pool, ``botpool.py``) and the
  reviews being made (:class:`~.reviews.Reviews`), each a :class:`~.limits.Held`;
- **the address hash** (:func:`address_of`): the server's key is kept in the database, so
  every process hashes an address alike;
- **identities and sessions**: an :class:`~.identity.IdentityStore` (in the database; a
  shared store only needs the same methods);
- **ratings**: a :class:`~.ratings.store.RatingStore`; the server's is the database's, whose
  update is made in the transaction that stores a finished hand (``played.py``);
- **moderation**: a :class:`~.moderation.store.ModerationStore` in the database; each process
  keeps the bans in force for a few seconds (``moderation.BAN_CACHE_SECONDS``) and the address
  each identity used last (for an address ban: per process);
- **quick match's queue**: a :class:`~.matchqueue.MatchQueue` in the database (each
  process's matchmaker claims a group in one transaction, so a player is seated once);
- **the tables themselves**: the :class:`~.lobby.Lobby` holds each open table in the memory of
  the process that serves it; what outlives the process is in the :class:`~.tablelog.repository.Repository`
  (the log and snapshots each table is rebuilt from);
- **where the tables are**: the :class:`~.lobby.directory.Directory` the routes and quick match
  read (the listing, a table's facts, who sits where, who is around): this process's lobby
  (:class:`~.lobby.directory.LocalDirectory`), or in a room of many the entries every process
  publishes in Redis (``bus/directory.py``).

A connection's own message bucket lives and dies with the connection (in ``socket.py``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import anyio.from_thread
from fastapi import Depends
from fastapi import Path as PathParam
from starlette.requests import HTTPConnection

from ..i18n import Msg, msg
from .accounts.identity import IdentityStore, SqlIdentityStore
from .bus.bus import Note
from .bus.cluster import Cluster
from .limiter import Limiter
from .limits import Bucket, Counting, Held, Holding, InMemory, Limits
from .lobby.directory import Directory, LocalDirectory, TableFacts
from .lobby.lobby import Lobby
from .moderation.moderation import Moderation
from .moderation.store import SqlModerationStore
from .now import REAL_TIME, Time
from .ops.metrics import Metrics
from .quickmatch.matchqueue import MatchQueue, SqlMatchQueue
from .ratings.store import RatingStore, SqlRatingStore
from .records.played import HandWriter
from .records.reviews import Reviews
from .refusal import Refused
from .room.chat import SqlChatStore
from .room.room import Room
from .shared.counting import InRedis
from .shared.store import Store
from .social.friends import FriendStore, SqlFriendStore
from .tablelog.repository import Repository
from .workers.botpool import BotPool

if TYPE_CHECKING:
    import redis

MAX_TABLE_ID = 64  # characters of a table id in URLs
TableId = Annotated[str, PathParam(min_length=1, max_length=MAX_TABLE_ID)]  # one in a path
T = TypeVar("T")


class Offload:
    """CPU work that must not hold the event loop (replays, whole-table records), made in the
    bot pool behind every hint and bot decision (:meth:`~.workers.botpool.BotPool.run`), at most
    ``per_client`` at once for one client (0: no limit): more are refused until one is done,
    so one client cannot queue the pool full."""

    def __init__(self, pool: BotPool, per_client: int) -> None:
        self.pool = pool
        self.running = Held(per_client)

    async def run(self, key: str, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker, counted against ``key``; refused (429) when ``key``
        already has ``per_client`` running."""
        if not self.running.take(key):
            raise Refused.too_many(msg("err.web.busy", n=self.running.per_key), retry_after=1)
        try:
            return await self.pool.run(fn, *args)
        finally:
            self.running.give(key)


@dataclass
class Services:
    """The server's shared state: its tables, its storage, its limits and what counts them."""

    limits: Limits
    repo: Repository
    lobby: Lobby
    offload: Offload
    clock: Time  # the one time: the rate limits count by it, the tables run on it (now.py)
    counting: Counting  # where the limits count: this process's memory, or a shared Redis
    limiter: Limiter  # every limited action (tables created, friends asked, hints...), per
    # player and per address
    address_messages: Bucket  # WebSocket messages, per address
    connections: Holding  # WebSocket connections open, per address
    identities: IdentityStore  # who plays, and the sessions that sign them in
    ratings: RatingStore  # the players' ratings (each finished rated hand updates them)
    moderation: Moderation  # blocks, reports, bans (read through a short cache), the audit log
    friends: FriendStore  # who asked whom, and the invitations to tables
    queue: MatchQueue  # quick match: who waits for a table, and the tables they were given
    reviews: Reviews  # finished hands' reviews, made in the bot pool, kept and shared
    directory: Directory  # the room's open tables, wherever served (asked from a thread)
    started: float = field(default_factory=time.time)
    # this process in a room of many (tienlen serve --redis: bus/cluster.py); None: alone
    cluster: Cluster | None = None
    metrics: Metrics = field(default_factory=Metrics)  # /metrics (ops/metrics.py): what the
    # socket counts, and the table leases' hook for a take-over: metrics.took_over()

    @classmethod
    def make(cls, repo: Repository, bot_delay: float, limits: Limits,
             clock: Time = REAL_TIME, redis: redis.Redis | None = None,
             redis_prefix: str = "") -> Services:
        """The services over ``repo``; the limits counted in this process's memory by ``clock``,
        or, given ``redis`` (a client: ``shared.store.connect``), in that Redis under keys
        starting ``tl:`` + ``redis_prefix``, shared with every process counting there."""
        counting: Counting = InRedis(Store(redis, redis_prefix)) if redis is not None \
            else InMemory(clock)
        ratings = SqlRatingStore(repo.engine)
        # a finished hand's PlayedRow rows and rating update go in the transaction of its record
        repo.hand_writer = HandWriter(ratings)
        identities = SqlIdentityStore(repo.engine)
        lobby = Lobby(repo, bot_delay, limits, identities, time=clock)
        pool = lobby.committer.pool  # the one pool: bots' decisions, hints, the records' work
        return cls(limits=limits, repo=repo, lobby=lobby, reviews=Reviews(pool),
                   directory=LocalDirectory(lobby),
                   offload=Offload(pool, limits.replays_per_client), clock=clock,
                   counting=counting, limiter=Limiter(limits, clock, counting),
                   address_messages=counting.bucket("messages.address",
                                                    limits.messages_per_address, 1.0),
                   connections=counting.held("connections", limits.connections_per_address),
                   identities=identities, ratings=ratings,
                   friends=SqlFriendStore(repo.engine), queue=SqlMatchQueue(repo.engine, clock.wall),
                   moderation=Moderation(SqlModerationStore(repo.engine), identities,
                                         chat=SqlChatStore(repo.engine)))

    def join_cluster(self, redis_url: str, prefix: str = "") -> Cluster:
        """Make this process one of a room of many, over the Redis at ``redis_url``: it serves
        the tables it takes (nobody serves them), the others' through the bus; the routes read
        every process's tables in the room's directory; a session's end, an account's deletion
        and a ban reach every process."""
        lobby = self.lobby
        lobby.alone = False
        cluster = self.cluster = Cluster(redis_url, lobby, self.limiter,
                                         self.moderation.blocked_by, prefix)
        self.directory = cluster.directory

        def ended(note: Note) -> None:
            lobby.end_sessions(note.get("identity"), note.get("session"), note.get("keep"))

        def forgotten(note: Note) -> None:
            lobby.forget_identity(str(note["identity"]), str(note["name"]))

        cluster.hear("end", ended)
        cluster.hear("forget", forgotten)
        cluster.hear("bans", lambda note: self.moderation.forget())
        self.moderation.bans_changed = lambda: cluster.broadcast("bans")
        return cluster

    @property
    def redis(self) -> Any:
        """The room's Redis client (its bus's, asyncio), for /healthz; None alone."""
        return self.cluster.bus.redis if self.cluster is not None else None

    @property
    def role(self) -> str:
        """What this process is in the room (said by /healthz and /metrics): ``single`` alone,
        else ``leader`` or ``follower`` (bus/cluster.py)."""
        if self.cluster is None:
            return "single"
        return "leader" if self.cluster.leader else "follower"

    def leads(self) -> bool:
        """Whether this process runs the room's single jobs (quick match, the retention
        sweep): always when alone, else while it holds the room's lead (bus/cluster.py)."""
        return self.cluster is None or self.cluster.leader

    def end_sessions(self, identity_id: str | None = None, session: str | None = None,
                     keep: str | None = None) -> None:
        """Close the connections of the sessions that ended (Lobby.end_sessions), on every
        process of the room."""
        if self.cluster is None:
            self.lobby.end_sessions(identity_id, session, keep)
        else:
            self.cluster.broadcast("end", identity=identity_id, session=session, keep=keep)

    def forget_identity(self, identity_id: str, name: str) -> None:
        """An account deleted: off every open table (Lobby.forget_identity), on every process."""
        if self.cluster is None:
            self.lobby.forget_identity(identity_id, name)
        else:
            self.cluster.broadcast("forget", identity=identity_id, name=name)

    # ------------------------------------------------------------------ tables by id
    def missing(self, table_id: str) -> tuple[int, Msg]:
        """Why there is no open table ``table_id``: closed (410, its records stay) or unknown."""
        if self.repo.table_exists(table_id):
            return 410, msg("err.web.closed", id=repr(table_id),
                            url=f"/api/tables/{table_id}/records")
        return 404, msg("err.web.no_table", id=repr(table_id))

    def room_or_404(self, table_id: str) -> Room:
        """The open table ``table_id``, else :class:`~.refusal.Refused` saying why (404, 410).
        From a route handler in the thread pool: the table is only looked up there (one
        lookup), what is read of it is read on the loop (:func:`on_loop`)."""
        room = self.lobby.get(table_id)
        if room is None:
            status, reason = self.missing(table_id)
            raise Refused(reason, status=status)
        return room

    def table_or_404(self, table_id: str) -> TableFacts:
        """The facts of the open table ``table_id``, wherever it is served (the directory's),
        else :class:`~.refusal.Refused` saying why not (404, 410). From a route handler in the
        thread pool."""
        found = self.directory.get(table_id)
        if found is None:
            status, reason = self.missing(table_id)
            raise Refused(reason, status=status)
        return found

    def take_a_table(self, creator: str, address: str) -> None:
        """Count a table made for ``creator`` (a player key) at ``address`` (a new table, or a
        wait in quick match, which ends in one): refused (429) past the tables a minute each
        may make."""
        self.take("create", creator, address)

    def take(self, action: str, player: str | None, address: str) -> None:
        """Count ``action`` (limiter.py) for ``player`` (None: counted by its address) and for
        ``address`` (:func:`address_of`): refused (429) past the limits."""
        self.limiter.take(action, player or address, address)


def services_of(conn: HTTPConnection) -> Services:
    """The services of the app that serves ``conn`` (a request or a WebSocket)."""
    services: Services = conn.app.state.services
    return services


Svc = Annotated[Services, Depends(services_of)]


def on_loop(fn: Callable[..., T], *args: object) -> T:
    """``fn(*args)`` run on the event loop, where the live tables are, from a plain ``def``
    route handler (FastAPI runs those in its thread pool, so that their database work does not
    hold the tables back): how such a handler reads or changes a table, its seats, the lobby."""
    return anyio.from_thread.run_sync(fn, *args)


def address_of(conn: HTTPConnection) -> str:
    """What the client of ``conn`` is counted by, and a ban names: the keyed hash of its
    address under the database's key (:func:`~.limits.client_key`), alike in every process."""
    return services_of(conn).moderation.address_key(conn)

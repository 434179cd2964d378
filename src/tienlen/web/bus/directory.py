"""The room's directory of tables, shared over Redis (``tienlen serve --redis``): every process
publishes an entry for each table it serves (:class:`Publisher`), and reads its own tables in
its lobby and the others' from their entries (:class:`SharedDirectory`, the routes'
:class:`~..lobby.directory.Directory`).

An entry (``tl:dir:`` and the table's id) is a hash: ``o`` the process that serves the table,
``f`` its :class:`~..lobby.directory.TableFacts` as JSON (the table's info, its seats' owners and
tokens' hashes, who is connected, quick match's seats to give). It lasts :data:`ENTRY_SECONDS`
(three lease renewals) unless renewed, and the index ``tl:dirs`` (a sorted set of the tables'
ids, scored by their entries' expiry in Redis's own milliseconds) lists them; members past their
expiry are pruned by every process's round. The owner publishes a table soon after it changes,
coalesced (at most once every :data:`PUBLISH_EVERY` seconds, however often it changes), renews
its entries every third of their life, and removes a table's entry at once when it closes it,
loses it or stops; a process that dies leaves entries that run out on their own. Only the
process an entry names renews or removes it (a process that lost a table does not remove the
new owner's entry).

Publishing runs on the event loop with the bus's asyncio client. The routes read in FastAPI's
thread pool, with a client of their own (synchronous: its I/O waits in that thread and holds no
table back, where the asyncio client would have the loop do each read among the tables' work;
redis-py's pool serves many threads): the other processes' entries read at once, and kept for
:data:`READ_EVERY` seconds for every request (the lobby's list and counts are asked by every
page, often); one table by its id is read fresh (and one open in the database that no entry
lists is waited for a moment, or taken here when nobody serves it).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Collection
from typing import Any

import anyio.from_thread
import redis
import redis.asyncio as aioredis
from pydantic import ValidationError
from redis.exceptions import RedisError

from ..lobby.directory import LISTED, LocalDirectory, TableFacts, facts_of, ordered
from ..lobby.lobby import Lobby
from ..tablelog.leases import RENEW_EVERY
from .bus import stop_tasks

log = logging.getLogger("tienlen.web")

ENTRY = "dir:"  # a table's entry: the room's prefix (``tl:`` and the room's own), this, its id
INDEX = "dirs"  # every entry's table id, scored by when it runs out (ms)
ENTRY_SECONDS = 3 * RENEW_EVERY  # how long an entry lasts unless renewed
PUBLISH_EVERY = 0.25  # the least time between two publications of this process's changes
READ_EVERY = 0.5  # how long a process reuses the other processes' entries it read
RETRY = 1.0  # seconds before publishing is tried again after Redis failed
RENEW_AT_ONCE = 500  # entries renewed by one script (Redis does nothing else meanwhile)
ENTRY_WAIT = 1.0  # how long a table open in the database is waited for in the directory

_NOW = "local t = redis.call('time') local now = t[1] * 1000 + math.floor(t[2] / 1000) "
# KEYS: the entry, the index; ARGV: the process, the facts, ms, the table's id
_PUT = _NOW + (
    "redis.call('hset', KEYS[1], 'o', ARGV[1], 'f', ARGV[2]) "
    "redis.call('pexpire', KEYS[1], ARGV[3]) "
    "redis.call('zadd', KEYS[2], now + tonumber(ARGV[3]), ARGV[4]) return 1")
# KEYS: the index, then the entries; ARGV: the process, ms, then the entries' table ids: those
# whose entry is not (or no longer) this process's, to publish again
_RENEW = _NOW + (
    "local lost = {} "
    "for i = 2, #KEYS do "
    "  if redis.call('hget', KEYS[i], 'o') == ARGV[1] then "
    "    redis.call('pexpire', KEYS[i], ARGV[2]) "
    "    redis.call('zadd', KEYS[1], now + tonumber(ARGV[2]), ARGV[i + 1]) "
    "  else lost[#lost + 1] = ARGV[i + 1] end "
    "end "
    "redis.call('zremrangebyscore', KEYS[1], '-inf', now) return lost")
# KEYS: the entry, the index; ARGV: the process, the table's id
_DROP = ("local o = redis.call('hget', KEYS[1], 'o') "
         "if o == false or o == ARGV[1] then "
         "  redis.call('del', KEYS[1]) redis.call('zrem', KEYS[2], ARGV[2]) return 1 end "
         "return 0")


def keys(prefix: str) -> tuple[str, str]:
    """The start of an entry's key and the index's key, for the room of ``prefix``."""
    return f"tl:{prefix}{ENTRY}", f"tl:{prefix}{INDEX}"


class Publisher:
    """This process's tables in the room's directory: an entry for each (see the module's
    text), put soon after the table changes, renewed, and removed when the table goes."""

    def __init__(self, client: aioredis.Redis, lobby: Lobby, ttl: float | None = None,
                 every: float | None = None, prefix: str = "") -> None:
        self.redis = client
        self.entry, self.index = keys(prefix)
        self.lobby = lobby
        self.process = lobby.ownership.owner
        self.ttl = ttl or ENTRY_SECONDS
        self.every = PUBLISH_EVERY if every is None else every
        self.dirty: set[str] = set()  # the tables to publish (or remove) next
        self.published: set[str] = set()  # the tables with an entry of this process's
        self.puts = 0  # entries put (a table's changes coalesced)
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        lobby.watch(self.touched)

    def touched(self, table_id: str) -> None:
        """(On the loop.) ``table_id`` changed, was made or went: published soon."""
        self.dirty.add(table_id)
        if self._wake is not None:
            self._wake.set()

    async def start(self) -> None:
        self._wake = asyncio.Event()
        self._wake.set()
        self._task = asyncio.create_task(self._run())

    async def stop(self, remove: bool = True) -> None:
        """Publish nothing more; ``remove``: this process's entries removed (it stops), else
        left to run out (as a process that died leaves them)."""
        task, self._task = self._task, None
        if task is not None:
            self._stopping = True
            if self._wake is not None:
                self._wake.set()
            await stop_tasks([task])  # (it ends at its next turn if the cancellation is lost)
        if remove and self.published:
            with contextlib.suppress(RedisError, OSError):
                await self._drop(sorted(self.published))

    async def _run(self) -> None:
        assert self._wake is not None
        loop = asyncio.get_running_loop()
        renewed = loop.time()
        while not self._stopping:
            # (not asyncio.wait_for: on Python 3.11 it loses a cancellation that comes as the
            # event is set, and the task would never stop)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(max(0.0, renewed + self.ttl / 3 - loop.time())):
                    await self._wake.wait()
            if self._stopping:
                return
            self._wake.clear()
            pause = self.every  # a table changing often is published this often
            try:
                if loop.time() >= renewed + self.ttl / 3:
                    await self.renew()
                    renewed = loop.time()
                await self.flush()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Redis away: what is dirty stays so, tried again
                log.warning("the directory could not be published: %s", exc)
                self._wake.set()
                pause = RETRY
            await asyncio.sleep(pause)

    async def flush(self) -> None:
        """Put the entries of the tables changed since the last time, remove those gone."""
        ids, self.dirty = self.dirty, set()
        if not ids:
            return
        ms = int(self.ttl * 1000)
        gone: list[str] = []
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                for table_id in sorted(ids):
                    room = self.lobby.get(table_id)
                    if room is None or room.moved:
                        gone.append(table_id)
                        continue
                    facts = facts_of(room, self.process).model_dump_json()
                    pipe.eval(_PUT, 2, self.entry + table_id, self.index, self.process, facts, ms, table_id)
                    self.published.add(table_id)
                    self.puts += 1
                for table_id in gone:
                    pipe.eval(_DROP, 2, self.entry + table_id, self.index, self.process, table_id)
                    self.published.discard(table_id)
                await pipe.execute()
        except BaseException:
            self.dirty |= ids  # tried again
            raise

    async def renew(self) -> None:
        """Renew this process's entries (and prune the index); an entry that ran out or that
        another process put meanwhile is published again."""
        held = sorted(t for t in self.published if t not in self.dirty)
        for start in range(0, max(len(held), 1), RENEW_AT_ONCE):  # the index pruned if none
            some = held[start:start + RENEW_AT_ONCE]
            lost = await self.redis.eval(_RENEW, 1 + len(some), self.index,
                                         *(self.entry + table_id for table_id in some), self.process,
                                         int(self.ttl * 1000), *some)
            for raw in lost or ():
                self.dirty.add(raw.decode() if isinstance(raw, bytes) else str(raw))

    async def _drop(self, table_ids: list[str]) -> None:
        async with self.redis.pipeline(transaction=False) as pipe:
            for table_id in table_ids:
                pipe.eval(_DROP, 2, self.entry + table_id, self.index, self.process, table_id)
            await pipe.execute()
        self.published.difference_update(table_ids)


class SharedDirectory:
    """The room's directory (:class:`~..lobby.directory.Directory`), asked from a worker thread:
    this process's tables read in its lobby (:class:`~..lobby.directory.LocalDirectory`), the
    other processes' from their entries in the Redis at ``url``."""

    def __init__(self, url: str, lobby: Lobby, fresh: float | None = None,
                 prefix: str = "") -> None:
        self.here = LocalDirectory(lobby)
        self.entry, self.index = keys(prefix)
        self.lobby = lobby
        self.process = lobby.ownership.owner
        self.redis: redis.Redis = redis.Redis.from_url(url, socket_timeout=2,
                                                       socket_connect_timeout=2)
        self.fresh = READ_EVERY if fresh is None else fresh
        self._lock = threading.Lock()
        self._read_at = -1e9  # monotonic seconds
        self._seen: dict[str, TableFacts] = {}  # the other processes' tables, as read then
        self._parsed: dict[str, tuple[bytes, TableFacts]] = {}  # each entry's text as read last

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.redis.close()

    # ------------------------------------------------------------------ the other processes
    def _facts(self, table_id: str, owner: Any, text: Any,
               parsed: dict[str, tuple[bytes, TableFacts]] | None = None) -> TableFacts | None:
        """An entry as read (None: gone, this process's own, or not readable); ``parsed``: the
        entries read before (an entry read again as it was is not parsed again)."""
        if not isinstance(text, bytes) or not isinstance(owner, bytes) \
                or owner.decode() == self.process:
            return None  # this process's tables are read in its lobby
        known = self._parsed.get(table_id) if parsed is not None else None
        if known is not None and known[0] == text:
            facts = known[1]
        else:
            try:
                facts = TableFacts.model_validate_json(text)
            except ValidationError:
                log.warning("table %s: its directory entry cannot be read", table_id)
                return None
        if parsed is not None:
            parsed[table_id] = (text, facts)
        return facts

    def elsewhere(self) -> dict[str, TableFacts]:
        """The tables the other processes serve (their entries, read at most every
        :attr:`fresh` seconds); this process's own left out."""
        with self._lock:
            now = time.monotonic()
            if now - self._read_at < self.fresh:
                return self._seen
            try:
                members: list[bytes] = self.redis.zrange(self.index, 0, -1)  # type: ignore[assignment]
                ids = [raw.decode() for raw in members]
                pipe = self.redis.pipeline(transaction=False)
                for table_id in ids:
                    pipe.hmget(self.entry + table_id, ["o", "f"])
                found = pipe.execute()
            except (RedisError, OSError) as exc:
                log.warning("the directory could not be read: %s", exc)
                if now - self._read_at > ENTRY_SECONDS:  # what was read is too old to show
                    self._seen = {}
                return self._seen
            seen: dict[str, TableFacts] = {}
            parsed: dict[str, tuple[bytes, TableFacts]] = {}
            for table_id, (owner, text) in zip(ids, found, strict=True):
                facts = self._facts(table_id, owner, text, parsed)
                if facts is not None:
                    seen[table_id] = facts
            self._seen, self._parsed, self._read_at = seen, parsed, now
            return seen

    def _others(self, here: Collection[str] = ()) -> list[TableFacts]:
        """The other processes' tables but those served here (``here``, and the lobby's now)."""
        rooms = self.lobby.rooms
        return [t for t in self.elsewhere().values() if t.id not in here and t.id not in rooms]

    # ------------------------------------------------------------------ the directory
    def listing(self, most: int = LISTED) -> list[TableFacts]:
        here = self.here.listing(most)
        return ordered([*here, *self._others({t.id for t in here})], most)

    def get(self, table_id: str) -> TableFacts | None:
        local = self.here.get(table_id)
        if local is not None:
            return local
        found = self._entry(table_id)
        return found if found is not None else self._unlisted(table_id)

    def _entry(self, table_id: str) -> TableFacts | None:
        """The table's entry, read now."""
        try:
            owner, text = self.redis.hmget(self.entry + table_id, ["o", "f"])
        except (RedisError, OSError) as exc:
            log.warning("the directory could not be read: %s", exc)
            return self.elsewhere().get(table_id)
        return self._facts(table_id, owner, text)

    def _unlisted(self, table_id: str) -> TableFacts | None:
        """An open table that no entry lists (None: no such open table): nobody serves it (its
        owner gone), so this process takes it, as a connection to it would
        (``Cluster.link_for``); or another process made or took it a moment ago, and its entry
        is waited for (:data:`ENTRY_WAIT` seconds at most)."""
        holder = self.lobby.ownership.holder(table_id)
        if holder is None:
            return None
        owner, expires = holder
        if not owner or owner == self.process or expires < self.lobby.time.wall():
            if anyio.from_thread.run_sync(self.lobby.adopt, table_id) is None:
                return None
            return self.here.get(table_id)
        deadline = time.monotonic() + ENTRY_WAIT
        while time.monotonic() < deadline:
            time.sleep(0.05)
            found = self._entry(table_id)
            if found is not None:
                return found
        return None

    def known(self, table_id: str) -> bool:
        """An open table: served here, listed by another process, or open in the database
        (made a moment ago, or its owner gone and nobody serving it yet: a connection to it
        is served by whoever takes it, ``Cluster.link_for``)."""
        if self.here.known(table_id):
            return True
        try:
            if self.redis.exists(self.entry + table_id):
                return True
        except (RedisError, OSError) as exc:
            log.warning("the directory could not be read: %s", exc)
        return self.lobby.ownership.holder(table_id) is not None

    def seated(self, identity: str) -> list[TableFacts]:
        here = self.here.seated(identity)
        ids = {t.id for t in here}
        return [*here, *(t for t in self._others(ids) if t.holds(identity))]

    def tables_of(self, identities: Collection[str]) -> dict[str, list[TableFacts]]:
        here = self.here.tables_of(identities)
        ids = {t.id for tables in here.values() for t in tables}
        others = self._others(ids)
        return {i: [*here.get(i, []), *(t for t in others if t.sits(i))] for i in identities}

    def connected(self) -> set[str]:
        out = self.here.connected()
        for t in self._others():
            out.update(t.present)
        return out

    def playing(self) -> set[str]:
        out = self.here.playing()
        for t in self._others():
            out |= t.playing()
        return out

    def quick_tables(self, here: bool = True) -> list[TableFacts]:
        mine = self.here.quick_tables(here)
        ids = {t.id for t in mine}
        return [*mine, *(t for t in self._others(ids) if t.quick is not None)]

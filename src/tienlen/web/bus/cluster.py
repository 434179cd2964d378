"""One process of a room of many (``tienlen serve --redis``): its bus, the tables it serves for
connections held elsewhere (:class:`~.hosted.Hosting`), its connections to tables served
elsewhere (:class:`~.remote.Remotes`), and the rounds that keep them true: every
:data:`~..tablelog.leases.RENEW_EVERY` seconds it says it is alive, detaches the connections of
processes that are gone and sends the connections whose table's owner is gone to connect again.

A connection to a table (:meth:`Cluster.link_for`) is served where the table is: here when this
process holds its lease (or takes it: nobody serves the table, or its owner let it run out),
else through the bus to the process that does. A note to every process (a session ended, an
account deleted) is :meth:`Cluster.broadcast`. The room's tables, wherever served, are in its
directory (:mod:`.directory`: this process publishes its own, ``Cluster.directory`` reads them
all); a bot's seat that quick match keeps at a table another process serves is kept there
(:meth:`Cluster.keep_seat`, answered by the owner's :class:`~.hosted.Hosting`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable

from starlette.concurrency import run_in_threadpool

from ..limiter import Limiter
from ..lobby.lobby import Lobby
from ..room.room import Room
from ..tablelog.leases import RENEW_EVERY
from .bus import Bus, Note, stop_tasks
from .directory import Publisher, SharedDirectory
from .hosted import Hosting
from .remote import ANSWER_SECONDS, Remotes, RemoteTable

log = logging.getLogger("tienlen.web")

LEADER = "leader"  # the room's key the leader holds (its name), while it leads
# renew the key only if it is still this process's
_RENEW_LEAD = ("if redis.call('get', KEYS[1]) == ARGV[1] then "
               "return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end")


class Cluster:
    """This process in a room of many: over the Redis at ``url``, its name its leases'."""

    def __init__(self, url: str, lobby: Lobby, limiter: Limiter | None = None,
                 blocks: Callable[[str], frozenset[str]] | None = None, prefix: str = "") -> None:
        self.lobby = lobby
        lobby.scan_unserved = False  # taken here, once their owners are known to be gone
        self.bus = Bus(url, lobby.ownership.owner, prefix)
        self.hosting = Hosting(self.bus, lobby, limiter, blocks)
        self.remotes = Remotes(self.bus)
        # the room's tables: this process's published, everyone's read (the routes' directory)
        self.publisher = Publisher(self.bus.redis, lobby, prefix=prefix)
        self.directory = SharedDirectory(url, lobby, prefix=prefix)
        self.leader = False  # whether this process runs the room's single jobs now
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._keeping: dict[str, Callable[[bool], None]] = {}  # seats asked of other processes
        self.bus.on("kept", self._kept)

    @property
    def name(self) -> str:
        return self.bus.name

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        await self.bus.start()
        await self.publisher.start()
        self._task = asyncio.create_task(self._rounds())

    async def stop(self) -> None:
        self._stopping = True
        if self._task is not None:
            await stop_tasks([self._task])
        await self.publisher.stop()  # this process's entries removed: its tables are handed over
        self.directory.close()
        if self.leader:
            with contextlib.suppress(Exception):
                if await self.bus.redis.get(self.bus.key(LEADER)) == self.name.encode():
                    await self.bus.redis.delete(self.bus.key(LEADER))
        await self.bus.stop()

    # ------------------------------------------------------------------ connections
    async def link_for(self, table_id: str) -> Room | RemoteTable | None:
        """Where a connection to ``table_id`` is served: the table here (held, or taken now),
        a link to the process that serves it, or None (no such open table)."""
        room = self.lobby.get(table_id)
        if room is not None:
            return room
        holder = await run_in_threadpool(self.lobby.ownership.holder, table_id)
        if holder is None:
            return None
        owner, expires = holder
        if not owner or owner == self.name or expires < self.lobby.time.wall():
            room = self.lobby.adopt(table_id)
            if room is not None:
                return room
            holder = await run_in_threadpool(self.lobby.ownership.holder, table_id)
            if holder is None:
                return None
            owner = holder[0]
        return self.remotes.link(table_id, owner)

    # ------------------------------------------------------------------ quick match
    def keep_seat(self, process: str, table_id: str, seat: int, identity: str, name: str,
                  device: str | None, then: Callable[[bool], None]) -> None:
        """(On the loop.) Have ``process``, which serves ``table_id``, keep the bot's ``seat``
        there for ``identity`` (quick match: TableState.reserve); ``then`` is told whether it
        did (False too when nobody read the note, or no answer came within
        :data:`~.remote.ANSWER_SECONDS`)."""
        asked = secrets.token_hex(6)
        self._keeping[asked] = then
        note: Note = {"k": "keep", "f": self.name, "a": asked, "t": table_id, "seat": seat,
                      "identity": identity, "name": name, "device": device}

        def reached(done: asyncio.Future[int]) -> None:
            if done.cancelled() or done.result() <= 0:
                self._answered(asked, False)

        self.bus.ask(process, note).add_done_callback(reached)
        asyncio.get_running_loop().call_later(ANSWER_SECONDS, self._answered, asked, False)

    def _kept(self, note: Note) -> None:
        self._answered(str(note.get("a")), bool(note.get("ok")))

    def _answered(self, asked: str, kept: bool) -> None:
        then = self._keeping.pop(asked, None)
        if then is not None:
            then(kept)

    # ------------------------------------------------------------------ to every process
    def broadcast(self, kind: str, **fields: object) -> None:
        """Tell every process (this one too) a note of ``kind``; from any thread."""
        note: Note = {"k": kind, **fields}
        loop = self._loop
        if loop is None:
            return
        loop.call_soon_threadsafe(self.bus.send_all, note)

    def hear(self, kind: str, handler: Callable[[Note], None]) -> None:
        """Call ``handler`` with each note of ``kind`` broadcast to every process."""
        self.bus.on(kind, handler)

    # ------------------------------------------------------------------ rounds
    async def _rounds(self) -> None:
        while not self._stopping:
            try:
                await self._round()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Redis away: the next round tries again
                log.warning("the cluster's round failed: %s", exc)
            await asyncio.sleep(RENEW_EVERY)

    async def _round(self) -> None:
        await self.bus.beat()
        await self._lead()
        await self._take_unserved()
        held = self.hosting.processes()
        alive = await self.bus.alive(held)
        for process in held:
            if process not in alive:
                self.hosting.drop_process(process)
        owners = self.remotes.by_owner()
        alive = await self.bus.alive(list(owners))
        for owner, links in owners.items():
            if owner not in alive:
                for link in links:
                    link.move_on()

    async def _take_unserved(self) -> None:
        """Take the tables whose lease ran out and whose owner is gone (not a process alive
        that could not renew, the database away for a while: it keeps them)."""
        unserved = await run_in_threadpool(self.lobby.ownership.unserved)
        owners = sorted({owner for _, owner in unserved if owner and owner != self.name})
        alive = await self.bus.alive(owners)
        for table_id, owner in unserved:
            if owner not in alive:
                self.lobby.adopt(table_id)

    async def _lead(self) -> None:
        """Take the room's lead when nobody holds it, keep it while held."""
        ms = int(RENEW_EVERY * 3 * 1000)
        redis, key = self.bus.redis, self.bus.key(LEADER)
        if self.leader:
            self.leader = bool(await redis.eval(_RENEW_LEAD, 1, key, self.name, ms))
        if not self.leader:
            self.leader = bool(await redis.set(key, self.name, nx=True, px=ms))

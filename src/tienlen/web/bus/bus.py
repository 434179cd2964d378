"""The processes of one room talk over Redis: each process reads one channel of its own
(``tl:p:`` and its name, the owner name its leases carry; every key and channel of the room
starts ``tl:`` and the room's prefix, so that rooms may share one Redis), and sends to another by publishing
on that one's channel.

What is sent is a small JSON object (:data:`Note`). A process's notes leave in the order they
were sent, pipelined on one connection by one task (so a connection's events never overtake one
another); the notes for one channel that wait together leave as one message (a JSON list of
them: many tables' moves fall on one step of the clock, and a message costs its reader more
than its size), and each sender can learn whether anybody read it (Redis says how many subscribers a
message reached: 0 when the process it was for is gone). The reader hands each note to the
handler of its kind on the event loop. A process also says it is alive (a key that expires
unless renewed: :meth:`Bus.beat`), so that the others can tell a silent process from a dead one.

When Redis goes away, notes sent meanwhile are dropped (and their senders told that nobody read
them), the reader waits and subscribes again; what was missed is made up by the parts above
(a connection whose events have a gap connects again, and is sent the whole state).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import RedisError

log = logging.getLogger("tienlen.web")

Note = dict[str, Any]  # one message between processes: "k" names its kind
# the room's keys and channels start "tl:" and the room's prefix (tests share one Redis)
PROCESS = "p:"  # a process's channel: this and its name
EVERYONE = "all"  # the channel every process reads too
ALIVE = "alive:"  # a process's key while it lives
ALIVE_SECONDS = 6.0  # how long a process's key lasts unless renewed
RETRY = 0.5  # seconds before the reader tries Redis again
STOP_WAIT = 2.0  # the most a stopping task is waited for


async def stop_tasks(tasks: list[asyncio.Task[None]]) -> None:
    """Cancel ``tasks`` and wait for them to end, a moment at most: redis-py sends a command
    under asyncio.wait_for, which on Python 3.11 loses a cancellation that comes as the command
    is done (the task runs on); the loops that use Redis also end at their next turn once told
    to stop."""
    for task in tasks:
        task.cancel()
    if tasks:
        await asyncio.wait(tasks, timeout=STOP_WAIT)


class Bus:
    """This process's end of the bus: ``name`` (its leases' owner name), over the Redis at
    ``url``. :meth:`start` on the event loop; :meth:`on` a handler per kind of note."""

    def __init__(self, url: str, name: str, prefix: str = "") -> None:
        self.name = name
        self.prefix = f"tl:{prefix}"  # every key and channel of the room starts so
        self.redis: aioredis.Redis = aioredis.Redis.from_url(url, socket_timeout=5,
                                                             socket_connect_timeout=2)
        self._handlers: dict[str, Callable[[Note], None]] = {}
        # the notes to send (None: the writer ends)
        self._out: asyncio.Queue[tuple[str, str, asyncio.Future[int] | None] | None] | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self.sent = 0  # notes sent (published)
        self.read = 0  # notes read
        self.up = False  # whether the reader holds its subscription now
        self._stopping = False

    def on(self, kind: str, handler: Callable[[Note], None]) -> None:
        """Call ``handler`` with each note of ``kind`` this process is sent."""
        self._handlers[kind] = handler

    async def start(self) -> None:
        self._out = asyncio.Queue()
        self._tasks = [asyncio.create_task(self._read()), asyncio.create_task(self._write())]

    async def stop(self) -> None:
        self._stopping = True
        if self._out is not None:
            self._out.put_nowait(None)  # the writer wakes, and ends
        await stop_tasks(self._tasks)
        self._tasks = []
        with contextlib.suppress(Exception):
            await self.redis.delete(self.key(ALIVE + self.name))
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    # ------------------------------------------------------------------ sending
    def send(self, process: str, note: Note) -> None:
        """Send ``note`` to ``process`` (in order after every note sent before)."""
        self._put(process, note, None)

    def ask(self, process: str, note: Note) -> asyncio.Future[int]:
        """Send ``note`` to ``process``; the future says how many read it (0: nobody, the
        process is gone; -1: Redis could not be reached)."""
        done: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._put(process, note, done)
        return done

    def send_all(self, note: Note) -> None:
        """Send ``note`` to every process, this one too."""
        self._put_on(self.key(EVERYONE), note, None)

    def _put(self, process: str, note: Note, done: asyncio.Future[int] | None) -> None:
        self._put_on(self.channel_of(process), note, done)

    def key(self, name: str) -> str:
        """The room's key (or channel) ``name``."""
        return self.prefix + name

    def channel_of(self, process: str) -> str:
        """The channel ``process`` reads."""
        return self.key(PROCESS + process)

    def _put_on(self, ch: str, note: Note, done: asyncio.Future[int] | None) -> None:
        if self._out is None:
            raise RuntimeError("the bus is not started")
        self._out.put_nowait((ch, json.dumps(note, separators=(",", ":")), done))

    async def _write(self) -> None:
        """Publish the queued notes in order, as many at once as are waiting (one pipeline)."""
        assert self._out is not None
        while not self._stopping:
            first = await self._out.get()
            batch = [first] if first is not None else []
            while not self._out.empty():
                item = self._out.get_nowait()
                if item is not None:
                    batch.append(item)
            if not batch:
                continue
            channels: dict[str, list[str]] = {}  # a channel's notes, in order: one message
            for ch, data, _ in batch:
                channels.setdefault(ch, []).append(data)
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for ch, datas in channels.items():
                        pipe.publish(ch, datas[0] if len(datas) == 1 else f"[{','.join(datas)}]")
                    by_channel = dict(zip(channels, await pipe.execute(), strict=True))
            except (RedisError, OSError) as exc:
                log.warning("the bus could not send %d notes: %s", len(batch), exc)
                by_channel = dict.fromkeys(channels, -1)
            reached = [by_channel[ch] for ch, _, _ in batch]
            self.sent += len(batch)
            for (_, _, done), n in zip(batch, reached, strict=True):
                if done is not None and not done.done():
                    done.set_result(int(n))
            unread = {ch for (ch, _, done), n in zip(batch, reached, strict=True)
                      if n == 0 and done is None and ch.startswith(self.channel_of(""))}
            handler = self._handlers.get("unread")
            if handler is not None:
                for ch in sorted(unread):
                    handler({"k": "unread", "process": ch[len(self.channel_of("")):]})

    # ------------------------------------------------------------------ reading
    async def _read(self) -> None:
        """Read this process's channel for as long as it runs, subscribing again after Redis
        went away."""
        while not self._stopping:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.channel_of(self.name), self.key(EVERYONE))
                self.up = True
                while not self._stopping:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is not None and message.get("type") == "message":
                        self._dispatch(message["data"])
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as exc:
                if self.up:
                    log.warning("the bus lost Redis: %s", exc)
                self.up = False
                await asyncio.sleep(RETRY)
            finally:
                with contextlib.suppress(Exception):
                    # (untyped before redis 8.2; typed since)
                    await pubsub.aclose()  # type: ignore[no-untyped-call, unused-ignore]

    def _dispatch(self, data: bytes | str) -> None:
        """Hand each note of a message (one note, or a list of a channel's notes sent
        together) to its kind's handler, in order."""
        try:
            notes = json.loads(data)
        except ValueError:
            notes = None
        for note in notes if isinstance(notes, list) else [notes]:
            self._handle(note)

    def _handle(self, note: Any) -> None:
        try:
            handler = self._handlers.get(note.get("k", ""))
        except (AttributeError, TypeError):
            log.warning("the bus read a note it cannot use")
            return
        self.read += 1
        if handler is None:
            return
        try:
            handler(note)
        except Exception:  # one note must not stop the reader
            log.exception("the bus could not handle a %r note", note.get("k"))

    # ------------------------------------------------------------------ who is alive
    async def beat(self) -> None:
        """Say this process is alive for :data:`ALIVE_SECONDS` more."""
        await self.redis.set(self.key(ALIVE + self.name), "1", px=int(ALIVE_SECONDS * 1000))

    async def alive(self, processes: list[str]) -> set[str]:
        """Which of ``processes`` are alive now."""
        if not processes:
            return set()
        found = await self.redis.mget([self.key(ALIVE + p) for p in processes])
        return {p for p, v in zip(processes, found, strict=True) if v is not None}

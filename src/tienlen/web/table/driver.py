"""Bot moves for every table, stored in group commits: one transaction for many tables' moves.

A table whose bot owes a move tells the driver (:meth:`Driver.due`). Once per
pass of the event loop the driver asks each such table for the move it owes
(staged: decided and checked, nothing changed yet), stores every staged move
in one transaction, and only then makes the moves and tells each table's
connections. Nothing is shown that is not stored; when the database refuses
the write, no move of the batch is made and the tables try again a little
later. A pass stages moves for a bounded time before it stores and broadcasts
them, so a crowd of tables due at once cannot hold one table's event back for
long.

A bot whose decisions the bot pool makes (botpool.py: ``search``) raises
:class:`~.botpool.Pending` when asked: the driver sends its seat's view to the pool and goes on
with the other tables; when the answer comes back (on the event loop) and the table is still
where it was asked (its version), the table is due again and the bot's move is staged with the
others. An answer for a table that moved on meanwhile is dropped, and the table asked again.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from ..now import REAL_TIME, Time
from ..storage import Repository, StorageError, Write
from ..workers.botpool import BotPool, Pending

if TYPE_CHECKING:
    from concurrent.futures import Future

    from ... import Action, Game, Move, Play

log = logging.getLogger("tienlen.web")

BUDGET = 0.002  # seconds of staging in one batch before it is stored and broadcast
RETRY = 1.0  # seconds before a table whose batch the database refused tries again


@dataclass(frozen=True)
class Staged:
    """A move decided and checked but not made yet: what to store, then what to do."""

    write: Write
    seat: int | None
    move: Play | Action | None  # None: deal the next hand
    at: float  # when it was due (Unix seconds): its event's latency counts from then
    hand: Game | None = None  # the next hand, dealt (when ``move`` is None)


class Table(Protocol):
    """What the driver asks of a table (a :class:`~.room.Room`)."""

    @property
    def id(self) -> str: ...

    @property
    def version(self) -> int: ...

    def bot_action(self) -> Staged | None:
        """The move a bot owes now, staged (nothing changed yet), or None."""

    def install(self, staged: Staged) -> None:
        """Make a staged move, once it is stored."""

    def changed(self, at: float | None = None) -> None:
        """Tell the table's connections what changed."""

    def schedule(self, at_least: float = 0.0) -> None:
        """Ask the driver again later (at least ``at_least`` seconds from now)."""


@dataclass
class DriverStats:
    moves: int = 0
    batches: int = 0
    refused: int = 0  # batches the database refused
    pooled: int = 0  # decisions sent to the bot pool
    stale: int = 0  # the pool's answers dropped: their table had moved on


class Driver:
    """The one place where bot moves are made, in batches that are stored before anyone hears.
    ``time`` arranges its passes (:mod:`.now`); ``budget`` is processing time (``perf_counter``)."""

    def __init__(self, repo: Repository, budget: float = BUDGET, retry: float = RETRY,
                 pool: BotPool | None = None, time: Time = REAL_TIME) -> None:
        self.repo = repo
        self.time = time
        self.pool = pool or BotPool()  # where the strongest bots decide (started when needed)
        self._thinking: set[Table] = set()  # tables whose bot's decision the pool is making
        self.budget = budget
        self.retry = retry
        self.stats = DriverStats()
        self._due: deque[tuple[Table, int]] = deque()
        self._waiting: set[Table] = set()
        self._flush_soon = False

    def due(self, room: Table, version: int) -> None:
        """``room`` (at ``version``) owes a bot move now: make it in the next batch."""
        if room in self._waiting or room in self._thinking:  # the pool's answer will ask again
            return
        self._waiting.add(room)
        self._due.append((room, version))
        if not self._flush_soon:
            self._flush_soon = True
            self.time.call_soon(self.flush)

    def flush(self) -> None:
        """Stage, store (one transaction), apply and broadcast the moves owed now."""
        self._flush_soon = False
        start = time.perf_counter()
        staged: list[tuple[Table, Staged]] = []
        while self._due and time.perf_counter() - start < self.budget:
            room, version = self._due.popleft()
            self._waiting.discard(room)
            if room.version != version:  # someone acted meanwhile: look again after the delay
                room.schedule()
                continue
            try:
                action = room.bot_action()
            except Pending as pending:  # decided in the pool: the others go on meanwhile
                self._think(room, version, pending)
                continue
            except Exception:  # a failure must not stop the table, nor the others: wait
                log.exception("table %s: the bot's move failed", room.id)
                room.schedule(at_least=self.retry)
                continue
            if action is None:
                room.schedule()
                continue
            staged.append((room, action))
        try:
            self._store_and_tell(staged)
        finally:
            if self._due and not self._flush_soon:  # the rest once this batch is on its way
                self._flush_soon = True
                self.time.call_soon(self.flush)

    def _think(self, room: Table, version: int, pending: Pending) -> None:
        self._thinking.add(room)
        self.stats.pooled += 1
        loop = asyncio.get_running_loop()
        answer = self.pool.decide(pending.bot.key, pending.view)
        answer.add_done_callback(
            lambda done: loop.call_soon_threadsafe(self._thought, room, version, pending, done))

    def _thought(self, room: Table, version: int, pending: Pending,
                 done: Future[Move]) -> None:
        """The pool's answer for ``room`` at ``version``: staged now, unless the table moved on."""
        self._thinking.discard(room)
        if room.version != version:  # a decision for a state gone: dropped, the table asks anew
            self.stats.stale += 1
            room.schedule()
            return
        exc = done.exception()
        if exc is not None:
            log.warning("table %s: the bot pool's decision failed (%r)", room.id, exc)
        pending.bot.answered(pending.view, exc if exc is not None else done.result())
        self.due(room, version)

    def _store_and_tell(self, staged: list[tuple[Table, Staged]]) -> None:
        if not staged:
            return
        try:
            self.repo.append_many([action.write for _, action in staged])
        except StorageError as exc:
            self.stats.refused += 1
            log.warning("%d bot moves not made (%s); trying again in %.1f s", len(staged), exc,
                        self.retry)
            for room, _ in staged:
                room.schedule(at_least=self.retry)
            return
        self.stats.batches += 1
        self.stats.moves += len(staged)
        for room, action in staged:
            room.install(action)
        for room, action in staged:
            room.changed(action.at)

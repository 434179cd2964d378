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
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from .storage import Repository, StorageError, Write

if TYPE_CHECKING:
    from .. import Action, Game, Play

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


class Driver:
    """The one place where bot moves are made, in batches that are stored before anyone hears."""

    def __init__(self, repo: Repository, budget: float = BUDGET, retry: float = RETRY) -> None:
        self.repo = repo
        self.budget = budget
        self.retry = retry
        self.stats = DriverStats()
        self._due: deque[tuple[Table, int]] = deque()
        self._waiting: set[Table] = set()
        self._flush_soon = False

    def due(self, room: Table, version: int) -> None:
        """``room`` (at ``version``) owes a bot move now: make it in the next batch."""
        if room in self._waiting:
            return
        self._waiting.add(room)
        self._due.append((room, version))
        if not self._flush_soon:
            self._flush_soon = True
            asyncio.get_running_loop().call_soon(self.flush)

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
                asyncio.get_running_loop().call_soon(self.flush)

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

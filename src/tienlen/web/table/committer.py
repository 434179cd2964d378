"""The one write path of every table: each table's inbox read in passes, and the writes of many
tables stored in one transaction before anyone hears of them.

Every input to a table is a message posted to its inbox (room.py: a connection's command, the
clock's tick, the bot pool's answer, a connection gone); posting tells the committer the table
is due (:meth:`Committer.due`). Once per pass of the event loop the committer has each due table
read its inbox (:meth:`Table.step`: the table decides, makes what it decided and stages the
writes, holding back what its connections would be sent), stores the staged writes of all of
them in one transaction, and only then has each table publish (send what it held, arrange its
clock). Nothing is shown that is not stored. When the database refuses the batch, each table's
writes are stored alone, so that a table whose write is refused does not hold the others back;
a refused table is rebuilt from what is stored, sends nothing of the refused pass, tells the
senders and tries again a little later. A pass reads inboxes for a bounded time before it
stores and publishes, so a crowd of tables due at once cannot hold one table's event back for
long; the tables not reached are read in the next pass.

On a database server (PostgreSQL) the transaction is stored on a thread of the committer's own
(``offload``): the event loop goes on serving the connections, the bus and the other tables
while the database answers, and the tables due meanwhile are read in the next pass, once the
batch on its way has landed (one batch at a time: a table is never read again before what it
staged is stored or refused). SQLite, a file of this process's with no network between, is
written on the event loop.

A server job that changes a table (quick match keeping a seat, an account deleted) goes the same
way, at once: :meth:`Committer.now` (the batch on its way landed first).

The bot pool's decisions (botpool.py) are asked here (:meth:`Committer.ask`): the answer is
posted to the table's inbox when it comes (no exception as control flow: the table says it is
``Asking``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from ..now import REAL_TIME, Time
from ..storage import StorageError
from ..tablelog.repository import Repository
from ..tablelog.writes import Write
from ..workers.botpool import BotPool

if TYPE_CHECKING:
    from ... import Move
    from .staged import Asking

log = logging.getLogger("tienlen.web")

BUDGET = 0.002  # seconds of reading inboxes in one pass (one table at least) before it is stored
RETRY = 1.0  # seconds before a table whose write the database refused tries again
MOVES = frozenset({"move", "bot_move", "timer"})  # the log's kinds that are a hand's moves
BOT_MOVES = frozenset({"bot_move", "timer"})


class Table(Protocol):
    """What the committer asks of a table (a :class:`~tienlen.web.room.room.Room`)."""

    @property
    def id(self) -> str: ...

    def step(self, change: Callable[[], None] | None = None) -> list[Write]:
        """Read the inbox (after ``change``, a server job's): decide, make and stage; the writes
        to store (what the connections are sent is held until published)."""

    def published(self) -> None:
        """The staged writes are stored: send what was held, arrange what comes next."""

    def refused(self, exc: StorageError) -> bool:
        """The staged writes were refused: be as stored again, tell the senders (False: what
        is stored could not be read either; the table let go, as :meth:`lost`)."""

    def lost(self) -> None:
        """Another process serves the table now (its lease was taken: tablelog/leases.py):
        nothing of the pass is sent, nothing more is arranged, the connections go elsewhere."""


@dataclass
class CommitterStats:
    moves: int = 0  # the hands' moves stored (people's and bots')
    bot_moves: int = 0  # of which a bot's (or the turn timer's)
    batches: int = 0  # transactions that stored writes
    refused: int = 0  # tables whose writes the database refused
    fenced: int = 0  # tables dropped: another process took their lease (writes refused)
    pooled: int = 0  # decisions sent to the bot pool
    stale: int = 0  # the pool's answers dropped: their table had moved on


@dataclass
class Outcome:
    """What became of a batch's writes: the tables refused (with why) and those fenced."""

    refused: dict[Table, StorageError] = field(default_factory=dict)
    fenced: set[str] = field(default_factory=set)


Read = list[tuple[Table, list[Write]]]  # a pass: each table read, with the writes it staged


def _running_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop this runs on (None: none, a tool's or a test's pass: stored at once)."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


class Committer:
    """Reads the tables' inboxes and stores their writes in group commits (see the module's
    text). ``time`` arranges its passes (:mod:`.now`); ``budget`` is processing time
    (``perf_counter``); ``offload``: the batches are stored on a thread of the committer's own
    (a database server's), the event loop free meanwhile."""

    def __init__(self, repo: Repository, budget: float = BUDGET, retry: float = RETRY,
                 pool: BotPool | None = None, time: Time = REAL_TIME, offload: bool = False) -> None:
        self.repo = repo
        self.time = time
        self.pool = pool or BotPool()  # where the strongest bots decide (started when needed)
        self.budget = budget
        self.retry = retry
        self.stats = CommitterStats()
        self._due: dict[Table, None] = {}  # the tables with messages, in the order they came
        self._soon = False
        self._storer = ThreadPoolExecutor(1, thread_name_prefix="tienlen-commit") if offload else None
        self._landing: tuple[Future[Outcome], Read] | None = None  # the batch on its way
        # told of a table whose write was fenced (the lobby forgets it); set by its owner
        self.on_lost: Callable[[Table], None] = lambda table: None

    def due(self, table: Table) -> None:
        """``table`` has a message in its inbox: read it in the next pass."""
        self._due[table] = None
        if not self._soon:
            self._soon = True
            self.time.call_soon(self.flush)

    def flush(self) -> None:
        """One pass: read the due tables' inboxes (for :attr:`budget` at most), store their
        writes in one transaction, then publish (offloaded: once the batch has landed; while
        one is on its way, nothing is read: the pass comes when it lands)."""
        self._soon = False
        if self._landing is not None:
            return
        start = time.perf_counter()
        read: Read = []
        while self._due and (not read or time.perf_counter() - start < self.budget):
            table = next(iter(self._due))
            del self._due[table]
            writes = self._step(table)
            if writes is not None:
                read.append((table, writes))
        try:
            loop = _running_loop() if self._storer is not None else None
            if loop is not None and any(ws for _, ws in read):
                self._send(read, loop)
                return
            self.commit(read)
        finally:
            self._again()

    def _again(self) -> None:
        """Arrange the next pass, when tables are due and no batch is on its way."""
        if self._due and not self._soon and self._landing is None:
            self._soon = True
            self.time.call_soon(self.flush)

    def _send(self, read: Read, loop: asyncio.AbstractEventLoop) -> None:
        """Store ``read``'s writes on the committer's thread; published on ``loop`` when they
        land."""
        assert self._storer is not None
        # the leases' epochs now, as the writes were staged: a lease lost and taken again
        # before the batch is stored has a new one, and the batch is fenced
        ownership = self.repo.ownership
        epochs = None if ownership is None else ownership.epochs({t.id for t, _ in read})
        batch = self._storer.submit(self.store, read, epochs)
        self._landing = (batch, read)
        batch.add_done_callback(lambda _: loop.call_soon_threadsafe(self._land, batch))

    def _land(self, batch: Future[Outcome]) -> None:
        """The batch on its way has landed (on the event loop): publish it, then the next pass."""
        if self._landing is None or self._landing[0] is not batch:
            return  # settled already (:meth:`settle`)
        self.settle()
        self._again()

    def settle(self) -> None:
        """Wait for the batch on its way, if any, and publish it (a server job's change, a
        process that stops)."""
        if self._landing is None:
            return
        batch, read = self._landing
        self._landing = None
        try:
            outcome = batch.result()
        except Exception as exc:  # not the database's refusal: every table of the batch is rebuilt
            log.exception("a batch of writes failed")
            why = exc if isinstance(exc, StorageError) else StorageError(str(exc))
            outcome = Outcome(refused={table: why for table, _ in read})
        self.publish(read, outcome)

    def close(self) -> None:
        """The batch on its way landed, the thread and the bot pool stopped (the server stops)."""
        self.settle()
        if self._storer is not None:
            self._storer.shutdown()
        self.pool.close()

    def now(self, table: Table, change: Callable[[], None]) -> None:
        """Make a server job's ``change`` to ``table`` at once, through the one path: the table
        reads its inbox with ``change`` first (Room.act), and what it staged is stored and
        published (the batch on its way first: the table may be in it)."""
        self.settle()
        self._due.pop(table, None)
        writes = self._step(table, change)
        if writes is not None:
            self.commit([(table, writes)])
        self._again()

    def _step(self, table: Table, change: Callable[[], None] | None = None) -> list[Write] | None:
        """The table's writes, read from its inbox (None: it failed, and was rebuilt)."""
        try:
            return table.step(change)
        except Exception:  # a failure must not stop the others: the table is rebuilt
            log.exception("table %s: its inbox could not be read", table.id, extra={"table": table.id})
            if not table.refused(StorageError("the table's inbox could not be read")):
                self.on_lost(table)
            return None

    def commit(self, read: Read) -> None:
        """Store the tables' writes and publish them (:meth:`store`, then :meth:`publish`)."""
        self.publish(read, self.store(read))

    def store(self, read: Read, epochs: Mapping[str, int | None] | None = None) -> Outcome:
        """Store the tables' writes (one transaction; each table alone if it is refused): what
        was refused, and the tables fenced (another process holds their lease now, or this one
        took it again since ``epochs``, those they were staged under: their writes are left
        out). Touches nothing but the database (it may run on the committer's thread)."""
        outcome = Outcome()
        writes = [w for _, ws in read for w in ws]
        if not writes:
            return outcome
        try:
            outcome.fenced = self.repo.append_many(writes, epochs)
        except StorageError:
            for table, ws in read:  # who was refused? each alone, the others stored
                if ws:
                    try:
                        outcome.fenced |= self.repo.append_many(ws, epochs)
                    except StorageError as exc:
                        outcome.refused[table] = exc
        return outcome

    def publish(self, read: Read, outcome: Outcome) -> None:
        """Once ``read``'s writes are stored: publish each stored table, rebuild each refused
        one and let go of each fenced one (never tried again)."""
        refused, fenced = outcome.refused, outcome.fenced
        stored = [w for table, ws in read
                  if table not in refused and table.id not in fenced for w in ws]
        if stored:
            self.stats.batches += 1
            kinds = [w.entry.kind for w in stored]
            self.stats.moves += sum(k in MOVES for k in kinds)
            self.stats.bot_moves += sum(k in BOT_MOVES for k in kinds)
        for table, _ in read:
            if table.id in fenced:
                self.stats.fenced += 1
                table.lost()
                self.on_lost(table)
                continue
            why = refused.get(table)
            if why is None:
                table.published()
                continue
            self.stats.refused += 1
            log.warning("table %s: its writes were not stored (%s); trying again in %.1f s",
                        table.id, why, self.retry, extra={"table": table.id})
            if not table.refused(why):
                self.on_lost(table)

    # ------------------------------------------------------------------ the bot pool
    def ask(self, asking: Asking, answer: Callable[[Move | BaseException], None]) -> None:
        """Ask the bot pool for a decision; ``answer`` is called with it (or with its failure)
        on the event loop when it comes (it posts it to the table's inbox)."""
        self.stats.pooled += 1
        loop = asyncio.get_running_loop()
        future = self.pool.decide(asking.key, asking.view)

        def done(future: Future[Move]) -> None:
            exc = future.exception()
            answer(exc if exc is not None else future.result())

        future.add_done_callback(lambda future: loop.call_soon_threadsafe(done, future))

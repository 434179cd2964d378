"""Which process serves each open table: a lease in the database (an owner, a fencing epoch, an
expiry), taken before a table is loaded, renewed while it is served, and checked in the
transaction of every write of the table.

A process that serves tables holds one :class:`Ownership`: its name (``owner``, unique to this
run of this process) and the epoch of each table it holds. Taking a table's lease
(:meth:`Ownership.take`) succeeds when nobody holds it, when its holder let it run out, or when
asked to force it (one process serving the whole room takes every table at start); each take
moves the table's epoch on by one. The writes of a table (``Repository``: its log, seats,
snapshot, records, its closing) are stored only while its lease still has the epoch this
process took (:meth:`Ownership.fenced`, read ``FOR UPDATE`` in the write's own transaction, so a
take-over waits for a write under way and then fences every later one): a process paused past
its lease and woken writes nothing more for the tables it lost, and learns that it lost them.

Expiry is counted in Unix seconds of the processes' own clocks (``Time.wall``): the machines
of one room keep their clocks synchronised (NTP), far closer than a lease's length.
"""

from __future__ import annotations

import os
import secrets
import socket
from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Any

from sqlalchemy import bindparam, delete, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine

from ..now import REAL_TIME, Time
from ..storage import StorageError, transaction
from .rows import LeaseRow, TableRow

LEASE_SECONDS = 6.0  # how long a lease lasts unless renewed (a dead owner's tables wait this long)
RENEW_EVERY = LEASE_SECONDS / 3  # how often the owner renews every lease it holds


class Fenced(StorageError):
    """A write of a table whose lease this process no longer holds (another process took it)."""


# the leases of some tables, locked until the transaction ends: built once (a write's hottest
# read: a statement made again for each batch cost more CPU than the batch's own inserts)
_LEASES = LeaseRow.__table__.c
_HELD = (select(_LEASES.table_id, _LEASES.epoch)
         .where(_LEASES.table_id.in_(bindparam("ids", expanding=True)))
         .order_by(_LEASES.table_id).with_for_update())


def process_name() -> str:
    """This run of this process, as a lease names its owner: the machine, the process id and a
    random part (a restarted process with the same id is another owner)."""
    return f"{socket.gethostname()[:32]}:{os.getpid()}:{secrets.token_hex(4)}"


class Ownership:
    """The leases one process holds (:attr:`held`: table id -> epoch), over ``engine``'s
    database, for ``seconds`` at a time on ``time``'s clock."""

    def __init__(self, engine: Engine, owner: str | None = None, seconds: float = LEASE_SECONDS,
                 time: Time = REAL_TIME) -> None:
        self.engine = engine
        self.owner = owner or process_name()
        self.seconds = seconds
        self.time = time
        self.held: dict[str, int] = {}
        self.takeovers = 0  # leases taken from another owner (it let them run out, or was forced)
        self.on_takeover: Callable[[], None] = lambda: None  # told of each (the metrics)

    # ------------------------------------------------------------------ taking and giving
    def take(self, table_id: str, force: bool = False) -> int | None:
        """Take the lease of the open table ``table_id``: its new epoch, or None when another
        process holds it still (or the table is not open). ``force``: whoever holds it."""
        with transaction(self.engine) as conn:
            epoch = self._take(conn, table_id, force)
        if epoch is not None:
            self.held[table_id] = epoch
        return epoch

    def _take(self, conn: Connection, table_id: str, force: bool) -> int | None:
        is_open = conn.execute(select(TableRow.closed).where(TableRow.id == table_id)).first()
        if is_open is None or is_open[0] is not None:
            return None
        now = self.time.wall()
        before = conn.execute(select(LeaseRow.owner).where(LeaseRow.table_id == table_id)).first()
        upsert = postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert
        stmt: Any = upsert(LeaseRow).values(table_id=table_id, owner=self.owner, epoch=1,
                                            expires=now + self.seconds)
        free = (LeaseRow.expires < now) | (LeaseRow.owner == self.owner)
        stmt = stmt.on_conflict_do_update(
            index_elements=[LeaseRow.table_id],
            set_={"owner": self.owner, "epoch": LeaseRow.epoch + 1, "expires": now + self.seconds},
            where=None if force else free).returning(LeaseRow.epoch)
        row = conn.execute(stmt).first()
        if row is None:
            return None
        if before is not None and before[0] != self.owner:
            self.takeovers += 1
            self.on_takeover()
        return int(row[0])

    def claim_new(self, conn: Connection, table_id: str) -> None:
        """The lease of a table being made, in the transaction that makes it (epoch 1); held
        once that transaction is stored (:meth:`made`)."""
        conn.execute(insert(LeaseRow).values(table_id=table_id, owner=self.owner, epoch=1,
                                             expires=self.time.wall() + self.seconds))

    def made(self, table_id: str) -> None:
        """The table made with :meth:`claim_new` is stored: its lease is held."""
        self.held[table_id] = 1

    def drop(self, table_id: str) -> None:
        """Forget the lease of ``table_id`` here (lost, or its table closed)."""
        self.held.pop(table_id, None)

    def release(self, table_ids: Iterable[str]) -> None:
        """Hand the leases of ``table_ids`` over at once (a process that stops): each runs out
        now, for any process to take, and is forgotten here. Only what is still this process's
        is touched."""
        mine = [(t, self.held.pop(t)) for t in list(table_ids) if t in self.held]
        if not mine:
            return
        with transaction(self.engine) as conn:
            for table_id, epoch in mine:
                conn.execute(update(LeaseRow).where(
                    LeaseRow.table_id == table_id, LeaseRow.epoch == epoch,
                    LeaseRow.owner == self.owner).values(expires=0.0))

    def renew(self) -> set[str]:
        """Renew every lease held; the tables whose lease was lost meanwhile (taken by another
        process, or gone), forgotten here."""
        if not self.held:
            return set()
        with transaction(self.engine) as conn:
            rows = conn.execute(update(LeaseRow).where(LeaseRow.owner == self.owner)
                                .values(expires=self.time.wall() + self.seconds)
                                .returning(LeaseRow.table_id, LeaseRow.epoch)).all()
        still = {table_id: int(epoch) for table_id, epoch in rows}
        lost = {t for t, epoch in self.held.items() if still.get(t) != epoch}
        for table_id in lost:
            del self.held[table_id]
        return lost

    # ------------------------------------------------------------------ checking writes
    def epochs(self, table_ids: Collection[str]) -> dict[str, int | None]:
        """The epochs held now of ``table_ids`` (None: not held): what a batch staged now is
        checked against when it is stored later, on another thread (committer.py). A lease
        lost and taken again meanwhile has a new epoch, and the batch staged under the old one
        is fenced."""
        return {t: self.held.get(t) for t in table_ids}

    def fenced(self, conn: Connection, table_ids: Collection[str],
               epochs: Mapping[str, int | None] | None = None) -> set[str]:
        """Of ``table_ids``, those this process may not write now (their lease is another's,
        or is not held here; ``epochs``: the epochs the writes were staged under, by default
        those held now), read in ``conn``'s transaction with their leases locked until it
        ends (``FOR UPDATE``: a take-over waits for it)."""
        wanted = sorted(set(table_ids))
        if not wanted:
            return set()
        rows = conn.execute(_HELD, {"ids": wanted}).all()
        found: Mapping[str, int] = {table_id: int(epoch) for table_id, epoch in rows}
        held = self.held if epochs is None else epochs  # (one lookup a table: read on the
        # committer's thread too)
        return {t for t in wanted if (epoch := held.get(t)) is None or found.get(t) != epoch}

    def check(self, conn: Connection, table_id: str) -> None:
        """Refuse (:class:`Fenced`) a write of ``table_id`` this process may not make now."""
        if self.fenced(conn, (table_id,)):
            raise Fenced(f"table {table_id!r} is served by another process now")

    @staticmethod
    def forget(conn: Connection, table_id: str) -> None:
        """Delete the lease of a table being closed (in the transaction that closes it)."""
        conn.execute(delete(LeaseRow).where(LeaseRow.table_id == table_id))

    def holder(self, table_id: str) -> tuple[str, float] | None:
        """Who serves the open table ``table_id`` and until when (Unix seconds): ("", 0.0) when
        it has no lease yet; None when there is no such open table."""
        with transaction(self.engine) as conn:
            row = conn.execute(select(TableRow.closed, LeaseRow.owner, LeaseRow.expires)
                               .outerjoin(LeaseRow, LeaseRow.table_id == TableRow.id)
                               .where(TableRow.id == table_id)).first()
        if row is None or row[0] is not None:
            return None
        return (row[1] or "", float(row[2] or 0.0))

    # ------------------------------------------------------------------ tables nobody serves
    def unserved(self, limit: int = 100) -> list[tuple[str, str]]:
        """Open tables whose lease ran out or that have none (their owner died or was paused, or
        a whole room was stopped), with whoever held them last ("": nobody): for a process to
        take, oldest lease first."""
        now = self.time.wall()
        with transaction(self.engine) as conn:
            lapsed = conn.execute(
                select(LeaseRow.table_id, LeaseRow.owner)
                .join(TableRow, TableRow.id == LeaseRow.table_id)
                .where(LeaseRow.expires < now, TableRow.closed.is_(None))
                .order_by(LeaseRow.expires).limit(limit)).all()
            never = conn.execute(
                select(TableRow.id).where(TableRow.closed.is_(None),
                                          ~select(LeaseRow.table_id)
                                          .where(LeaseRow.table_id == TableRow.id).exists())
                .order_by(TableRow.created).limit(limit)).scalars().all()
        return [*((str(t), str(o)) for t, o in lapsed), *((str(t), "") for t in never)][:limit]

"""The quick-match queue: who waits for a table of which family and size, with which rating,
and, once matched, the table and seat they were given.

Behind :class:`MatchQueue` so that several server processes share one queue: the server's is
the database's (:class:`SqlMatchQueue`, one ``QueueRow`` per identity); a Redis or the like
only needs the same methods. A group is claimed in one transaction (:meth:`MatchQueue.claim`):
every entry must still be waiting, else nothing changes and the group stays in the queue, so
two matchmakers (two processes) never seat one player twice.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.engine import Engine, Row

from ..storage import transaction
from .rows import QueueRow

MATCHED_KEPT = 600.0  # seconds a matched entry is kept for its page to find its table


@dataclass(frozen=True)
class QueueEntry:
    """One player in the queue (``table_id`` None: still waiting)."""

    identity: str
    name: str  # the name it sits under
    family: str
    size: int
    mu: float
    sigma: float
    joined: float  # Unix seconds
    device: str | None = None  # its browser (session.device_of): one seat a rated table
    table_id: str | None = None
    seat: int | None = None
    matched: float | None = None

    @property
    def waiting(self) -> bool:
        return self.table_id is None


class ClaimLost(Exception):
    """A group's entry was no longer waiting: the claim is rolled back."""


class MatchQueue(Protocol):
    def join(self, entry: QueueEntry) -> None:
        """Put ``entry`` in the queue: one entry per identity (asking again replaces it)."""

    def cancel(self, identity: str) -> bool:
        """Take ``identity``'s entry out (waiting or matched); whether there was one."""

    def get(self, identity: str) -> QueueEntry | None: ...

    def waiting(self) -> list[QueueEntry]:
        """Every waiting entry, the oldest first."""

    def count(self, family: str | None = None, size: int | None = None) -> int:
        """Entries waiting (in one family and size, when given)."""

    def claim(self, given: Mapping[str, tuple[str, int]]) -> bool:
        """Give each identity of ``given`` its (table, seat), in one transaction, only if every
        one of them is still waiting: False (nothing changed) when one is not."""

    def release(self, identities: Collection[str]) -> int:
        """Put these identities' entries back to waiting (their table or seat could not be
        made after all)."""

    def unmatch(self, identity: str, table_id: str) -> bool:
        """Put ``identity``'s entry back to waiting (its joining time kept) if it was matched to
        ``table_id`` (the seat kept there was given up); whether it was."""

    def forget_matched(self, before: float) -> int:
        """Delete the entries matched before ``before`` (their pages found their tables)."""


def _entry(r: Row[Any]) -> QueueEntry:
    return QueueEntry(r.identity, r.name, r.family, r.size, r.mu, r.sigma, r.joined, r.device,
                      r.table_id, r.seat, r.matched)


class SqlMatchQueue:
    """The queue in the server's database (``tienlen_queue``)."""

    def __init__(self, engine: Engine, clock: Callable[[], float] = time.time) -> None:
        self.engine = engine
        self.clock = clock

    def join(self, entry: QueueEntry) -> None:
        with transaction(self.engine) as conn:
            conn.execute(delete(QueueRow).where(QueueRow.identity == entry.identity))
            conn.execute(insert(QueueRow), {
                "identity": entry.identity, "name": entry.name, "device": entry.device,
                "family": entry.family, "size": entry.size, "mu": entry.mu,
                "sigma": entry.sigma, "joined": entry.joined, "table_id": None, "seat": None,
                "matched": None})

    def cancel(self, identity: str) -> bool:
        with transaction(self.engine) as conn:
            gone = conn.execute(delete(QueueRow).where(QueueRow.identity == identity))
            return bool(gone.rowcount)

    def get(self, identity: str) -> QueueEntry | None:
        with transaction(self.engine) as conn:
            row = conn.execute(select(QueueRow).where(QueueRow.identity == identity)).first()
            return _entry(row) if row is not None else None

    def waiting(self) -> list[QueueEntry]:
        with transaction(self.engine) as conn:
            rows = conn.execute(select(QueueRow).where(QueueRow.table_id.is_(None))
                                .order_by(QueueRow.joined, QueueRow.identity)).all()
            return [_entry(r) for r in rows]

    def count(self, family: str | None = None, size: int | None = None) -> int:
        query = select(func.count()).select_from(QueueRow).where(QueueRow.table_id.is_(None))
        if family is not None:
            query = query.where(QueueRow.family == family)
        if size is not None:
            query = query.where(QueueRow.size == size)
        with transaction(self.engine) as conn:
            return int(conn.scalar(query) or 0)

    def claim(self, given: Mapping[str, tuple[str, int]]) -> bool:
        now = self.clock()
        try:
            with transaction(self.engine) as conn:
                for identity, (table_id, seat) in given.items():
                    done = conn.execute(
                        update(QueueRow)
                        .where(QueueRow.identity == identity, QueueRow.table_id.is_(None))
                        .values(table_id=table_id, seat=seat, matched=now))
                    if done.rowcount != 1:  # matched by another process meanwhile, or gone
                        raise ClaimLost(identity)
        except ClaimLost:
            return False
        return True

    def release(self, identities: Collection[str]) -> int:
        with transaction(self.engine) as conn:
            done = conn.execute(update(QueueRow).where(QueueRow.identity.in_(list(identities)))
                                .values(table_id=None, seat=None, matched=None))
            return int(done.rowcount)

    def unmatch(self, identity: str, table_id: str) -> bool:
        with transaction(self.engine) as conn:
            done = conn.execute(update(QueueRow).where(QueueRow.identity == identity,
                                                       QueueRow.table_id == table_id)
                                .values(table_id=None, seat=None, matched=None))
            return bool(done.rowcount)

    def forget_matched(self, before: float) -> int:
        with transaction(self.engine) as conn:
            gone = conn.execute(delete(QueueRow).where(QueueRow.matched.is_not(None),
                                                       QueueRow.matched < before))
            return int(gone.rowcount)


def by_queue(entries: Sequence[QueueEntry]) -> dict[tuple[str, int], list[QueueEntry]]:
    """The entries of each queue (family, size), in their order."""
    out: dict[tuple[str, int], list[QueueEntry]] = {}
    for entry in entries:
        out.setdefault((entry.family, entry.size), []).append(entry)
    return out

"""The tables' store: every table's settings, seats, log, snapshot and records written and read
back (:class:`Repository`). Bot moves of many tables share one transaction (a group commit,
``table/committer.py``: :meth:`Repository.append_many`); what a finished hand writes for its
players (``records/played.py``) is handed in as :attr:`Repository.hand_writer`, so that it is
stored in the same transaction as the hand's record.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from typing import Any

from sqlalchemy import bindparam, delete, func, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.sql.elements import ColumnElement

from ...errors import error
from ..now import REAL_TIME, Time
from ..storage import StorageError, make_engine
from .leases import Fenced, Ownership
from .rows import LeaseRow, LogRow, RecordRow, SeatRow, SnapshotRow, TableRow
from .writes import (
    NEXT_HAND_AFTER,
    Entry,
    HandEnd,
    HandWriter,
    SeatChange,
    StoredTable,
    TableSettings,
    Write,
)

_LOG_INSERT = insert(LogRow)
_LOG_AFTER = (select(LogRow.idx, LogRow.kind, LogRow.seat, LogRow.text)
              .where(LogRow.table_id == bindparam("table_id"), LogRow.idx >= bindparam("start"))
              .order_by(LogRow.idx))
_LOG_LAST = (select(LogRow.at).where(LogRow.table_id == bindparam("table_id"))
             .order_by(LogRow.idx.desc()).limit(1))
# the entries that bar an identity from a table (TableState.barred), whatever the snapshot holds
BARRING = ("remove", "kick")




class Repository:
    """Every read and write of the tables' log; each write is one transaction. Opened by
    ``schema.open_repository``, which makes every feature's tables first: this class makes
    none (its engine is the one the other stores share). ``time``: the server's (:mod:`..now`),
    whose Unix seconds each row is stamped with (a restored turn timer counts from them)."""

    def __init__(self, url: str, time: Time = REAL_TIME) -> None:
        self.url = url
        self.time = time
        self.engine = make_engine(url)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        # the log's insert, compiled once to the driver's own SQL: the hottest write skips
        # SQLAlchemy's per-statement work, on a connection kept for it
        compiled = _LOG_INSERT.compile(dialect=self.engine.dialect)
        self._log_sql = str(compiled)
        self._log_order = tuple(compiled.positiontup or ()) if compiled.positional else None
        self._log_conn: Connection | None = None
        # what a hand's end writes for its players (set by the server: played.py), if anything
        self.hand_writer: HandWriter | None = None
        # the leases this process holds (set by the lobby that serves the tables): every write
        # of a table is checked against its lease's epoch in its own transaction (leases.py);
        # None: nothing is checked (a tool, a test writing alone)
        self.ownership: Ownership | None = None

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    @contextmanager
    def _write(self) -> Iterator[Session]:
        try:
            with self._sessions.begin() as session:
                yield session
        except SQLAlchemyError as exc:
            raise error(StorageError, "err.storage.refused",
                        error=exc.__class__.__name__) from None

    def close(self) -> None:
        self._drop_log_connection()
        self.engine.dispose()

    def _log_connection(self) -> Connection:
        conn = self._log_conn
        if conn is None or conn.closed or conn.invalidated:
            conn = self._log_conn = self.engine.connect()
        return conn

    def _drop_log_connection(self) -> None:
        """Forget the kept connection (after a failed write it may be broken: the next write
        opens a new one)."""
        conn, self._log_conn = self._log_conn, None
        if conn is not None:
            with suppress(SQLAlchemyError):
                conn.close()

    # ------------------------------------------------------------------ writes
    def create_table(self, t: TableSettings, seats: Sequence[SeatChange] = (),
                     log: Sequence[Entry] = (), snapshot: tuple[int, str] | None = None,
                     records: Sequence[tuple[int, str]] = ()) -> None:
        """Store a new table with its first seats, log entries, snapshot and the records of the
        hands they end (an instant win at the first deal), in one transaction: all of it or
        nothing."""
        with self._write() as s:
            s.add(TableRow(id=t.id, created=self.time.wall(), rules_toml=t.rules_toml, players=t.players,
                           seed=t.seed, away_timeout=t.away_timeout, turn_timer=t.turn_timer,
                           name=t.name, private=t.private, bot_level=t.bot_level,
                           host_seat=t.host_seat, fixed_seed=t.fixed_seed, creator=t.creator,
                           next_hand_after=t.next_hand_after, quick_match=t.quick_match))
            s.flush()
            now = self.time.wall()
            for change in seats:
                s.add(SeatRow(table_id=t.id, seat=change.seat, kind=change.kind, name=change.name,
                              level=change.level, token_hash=change.token_hash,
                              owner=change.owner, device=change.device))
            for entry in log:
                s.add(LogRow(table_id=t.id, idx=entry.idx, kind=entry.kind, seat=entry.seat,
                             text=entry.text, at=now))
            if snapshot is not None:
                s.add(SnapshotRow(table_id=t.id, idx=snapshot[0], data=snapshot[1]))
            for record in records:
                self._put_record(s.connection(), t.id, record, now)
            if self.ownership is not None:
                self.ownership.claim_new(s.connection(), t.id)
        if self.ownership is not None:
            self.ownership.made(t.id)

    def put_ended(self, table_id: str, ended: HandEnd) -> None:
        """Write what a finished hand writes for its players, alone (a new table's first hand,
        ended by its deal, once the players are stored: see ``TableState.held``)."""
        if self.hand_writer is None:
            return
        with self._write() as s:
            self._check(s.connection(), table_id)
            self.hand_writer(s.connection(), table_id, ended, self.time.wall())

    def close_table(self, table_id: str, at: float) -> None:
        """Mark a table closed (expired): it is not rebuilt again, and what only rebuilding it
        needed (its log, snapshot and seats with their tokens, its lease) goes; its records
        stay. Only the table's owner closes it (:class:`~.leases.Fenced` else)."""
        with self._write() as s:
            self._check(s.connection(), table_id)
            s.execute(update(TableRow).where(TableRow.id == table_id).values(closed=at))
            for model in (LogRow, SnapshotRow, SeatRow, LeaseRow):
                s.execute(delete(model).where(model.table_id == table_id))
        if self.ownership is not None:
            self.ownership.drop(table_id)

    def _check(self, conn: Connection, table_id: str) -> None:
        """Refuse (:class:`~.leases.Fenced`) a write of a table this process does not hold."""
        if self.ownership is not None:
            self.ownership.check(conn, table_id)

    def append(self, table_id: str, entry: Entry, seat: SeatChange | None = None,
               record: tuple[int, str] | None = None, snapshot: str | None = None,
               host: tuple[int | None] | None = None, ended: HandEnd | None = None) -> None:
        """Store one log entry, with the seat it changes, the record of the hand it ends (and
        what that writes for its players), the table's snapshot after it and its new host, in
        one transaction."""
        if self.append_many([Write(table_id, entry, seat, record, snapshot, host, ended)]):
            raise Fenced(f"table {table_id!r} is served by another process now")

    def append_many(self, writes: list[Write],
                    epochs: Mapping[str, int | None] | None = None) -> set[str]:
        """Store many log entries (of many tables) in one transaction: all of them or none,
        but the writes of the tables this process may no longer write (their lease is
        another's: :attr:`ownership`; ``epochs``: the leases' epochs they were staged under,
        by default those held now), which are left out: their ids are returned.
        The server's hottest write: the log rows go in one executemany of the insert compiled
        once to the driver's SQL, on a connection kept for these writes."""
        if not writes:
            return set()
        now = self.time.wall()
        try:
            conn = self._log_connection()
            with conn.begin():
                fenced = set() if self.ownership is None else \
                    self.ownership.fenced(conn, {w.table_id for w in writes}, epochs)
                if fenced:
                    writes = [w for w in writes if w.table_id not in fenced]
                    if not writes:
                        return fenced
                logs = [{"table_id": w.table_id, "idx": w.entry.idx, "kind": w.entry.kind,
                         "seat": w.entry.seat, "text": w.entry.text, "at": now} for w in writes]
                order = self._log_order
                params: list[Any] = logs if order is None else \
                    [tuple(row[k] for k in order) for row in logs]
                conn.exec_driver_sql(self._log_sql, params)
                for w in writes:
                    if w.seat is not None:
                        self._put_seat(conn, w.table_id, w.seat)
                    if w.record is not None:
                        self._put_record(conn, w.table_id, w.record, now)
                    if w.ended is not None and self.hand_writer is not None:
                        self.hand_writer(conn, w.table_id, w.ended, now)
                    if w.snapshot is not None:
                        self._put_snapshot(conn, w.table_id, w.entry.idx + 1, w.snapshot)
                    if w.host is not None:  # the host left: no longer counted as its creator's
                        conn.execute(update(TableRow).where(TableRow.id == w.table_id)
                                     .values(host_seat=w.host[0], creator=""))
        except SQLAlchemyError as exc:
            self._drop_log_connection()
            raise error(StorageError, "err.storage.refused",
                        error=exc.__class__.__name__) from None
        return fenced

    @staticmethod
    def _put_seat(conn: Connection, table_id: str, change: SeatChange) -> None:
        conn.execute(delete(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == change.seat))
        if change.kind == "empty":
            return
        conn.execute(insert(SeatRow), {"table_id": table_id, "seat": change.seat, "kind": change.kind,
                                       "name": change.name, "level": change.level,
                                       "token_hash": change.token_hash, "owner": change.owner,
                                       "device": change.device})

    @staticmethod
    def _put_record(conn: Connection, table_id: str, record: tuple[int, str], now: float) -> None:
        hand_no, text = record
        conn.execute(delete(RecordRow).where(RecordRow.table_id == table_id,
                                             RecordRow.hand_no == hand_no))
        conn.execute(insert(RecordRow), {"table_id": table_id, "hand_no": hand_no, "text": text,
                                         "finished": now})

    @staticmethod
    def _put_snapshot(conn: Connection, table_id: str, idx: int, data: str) -> None:
        conn.execute(delete(SnapshotRow).where(SnapshotRow.table_id == table_id))
        conn.execute(insert(SnapshotRow), {"table_id": table_id, "idx": idx, "data": data})

    def put_snapshot(self, table_id: str, idx: int, data: str) -> None:
        """Store a table's state after its first ``idx`` log entries (replacing the last one)."""
        with self._write() as s:
            self._check(s.connection(), table_id)
            self._put_snapshot(s.connection(), table_id, idx, data)

    # ------------------------------------------------------------------ reads
    def load_table(self, table_id: str) -> StoredTable | None:
        """One open table as :meth:`load_all` reads it (None: none such is open)."""
        found = self.load_all(only=table_id)
        return found[0] if found else None

    def load_all(self, only: str | None = None) -> list[StoredTable]:
        """Every open table (``only``: the one of that id): its settings, seats, snapshot and
        the log entries after it. The cost follows the tables and what came after their
        snapshots, not their whole history."""
        with self._sessions() as s:
            wanted: ColumnElement[bool] = TableRow.closed.is_(None)
            if only is not None:
                wanted = wanted & (TableRow.id == only)
            open_ids = select(TableRow.id).where(wanted)
            tables = s.scalars(select(TableRow).where(wanted).order_by(TableRow.created)).all()
            seats: dict[str, dict[int, SeatChange]] = {}
            for row in s.scalars(select(SeatRow).where(SeatRow.table_id.in_(open_ids))):
                seats.setdefault(row.table_id, {})[row.seat] = SeatChange(
                    row.seat, row.kind, row.name, row.level, row.token_hash, row.owner, row.device)
            snaps: dict[str, tuple[int, str]] = {
                row.table_id: (row.idx, row.data)
                for row in s.scalars(select(SnapshotRow).where(SnapshotRow.table_id.in_(open_ids)))}
            # one index range per table (a join would let the database scan the whole log), in
            # the driver's own SQL compiled once
            compiled = _LOG_AFTER.compile(dialect=self.engine.dialect)
            sql, order = str(compiled), compiled.positiontup if compiled.positional else None
            conn = s.connection()
            logs: dict[str, list[Entry]] = {}
            for t in tables:
                snap = snaps.get(t.id)
                named = {"table_id": t.id, "start": snap[0] if snap else 0}
                params: Any = named if order is None else tuple(named[k] for k in order)
                logs[t.id] = [Entry(idx, kind, seat, entry_text) for idx, kind, seat, entry_text
                              in conn.exec_driver_sql(sql, params)]
            last = {t.id: s.scalar(_LOG_LAST, {"table_id": t.id}) for t in tables}
            earlier: dict[str, list[Entry]] = {}
            for bar in s.scalars(select(LogRow).where(
                    LogRow.table_id.in_(open_ids), LogRow.kind.in_(BARRING), LogRow.text != "")
                    .order_by(LogRow.table_id, LogRow.idx)):
                if bar.idx < snaps.get(bar.table_id, (0, ""))[0]:
                    earlier.setdefault(bar.table_id, []).append(
                        Entry(bar.idx, bar.kind, bar.seat, bar.text))
            return [StoredTable(_settings(t), seats.get(t.id, {}), logs.get(t.id, []),
                                snaps.get(t.id), last[t.id], earlier.get(t.id, []))
                    for t in tables]

    def open_count(self, creator: str | None = None) -> int:
        """Open tables, all of them or those ``creator`` still hosts (every process's)."""
        with self._sessions() as s:
            wanted: ColumnElement[bool] = TableRow.closed.is_(None)
            if creator is not None:
                wanted = wanted & (TableRow.creator == creator)
            return int(s.scalar(select(func.count()).select_from(TableRow).where(wanted)) or 0)

    def table_exists(self, table_id: str) -> bool:
        """Whether the table was ever made here (open or closed)."""
        with self._sessions() as s:
            return s.get(TableRow, table_id) is not None

    def snapshot(self, table_id: str) -> tuple[int, str] | None:
        with self._sessions() as s:
            row = s.get(SnapshotRow, table_id)
            return (row.idx, row.data) if row is not None else None

    def log(self, table_id: str) -> list[Entry]:
        with self._sessions() as s:
            rows = s.scalars(select(LogRow).where(LogRow.table_id == table_id).order_by(LogRow.idx))
            return [Entry(r.idx, r.kind, r.seat, r.text) for r in rows]

    def records(self, table_id: str) -> list[tuple[int, float]]:
        with self._sessions() as s:
            rows = s.execute(select(RecordRow.hand_no, RecordRow.finished)
                             .where(RecordRow.table_id == table_id).order_by(RecordRow.hand_no))
            return [(n, at) for n, at in rows]

    def record(self, table_id: str, hand_no: int) -> str | None:
        with self._sessions() as s:
            row = s.get(RecordRow, (table_id, hand_no))
            return row.text if row is not None else None

    def count_rows(self) -> dict[str, int]:
        """Rows in each of the server's tables (tests check that a refusal stored nothing)."""
        with self._sessions() as s:
            return {model.__tablename__: int(s.scalar(select(func.count()).select_from(model)) or 0)
                    for model in (TableRow, SeatRow, LogRow, SnapshotRow, RecordRow)}


def _settings(t: TableRow) -> TableSettings:
    return TableSettings(t.id, t.rules_toml, t.players, t.seed, t.away_timeout, t.turn_timer,
                         t.name or f"Table {t.id}", bool(t.private), t.bot_level or "heuristic",
                         t.host_seat, bool(t.fixed_seed), t.creator or "",
                         NEXT_HAND_AFTER if t.next_hand_after is None else t.next_hand_after,
                         bool(t.quick_match))

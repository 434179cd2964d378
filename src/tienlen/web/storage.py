"""Storage through SQLAlchemy: tables, seats (with hashed seat tokens), the action log and records.

Every change to a table is one row of its log, written (and committed) before
anyone hears of it; replaying the log through the engine rebuilds the table
exactly. Bot moves of many tables share one transaction (a group commit, see
``driver.py``). Finished hands are kept as records in the project's TOML
format, stored in the transaction of the move that finishes them.
SQLite (a file) by default, PostgreSQL by URL (``postgresql+psycopg://…``).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    BigInteger,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import ArgumentError, SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker
from sqlalchemy.pool import StaticPool

from ..errors import TienLenError

DEFAULT_DB = "sqlite:///tienlen.sqlite3"


class StorageError(TienLenError):
    """The database cannot be opened or written; the text says which and why."""


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "tienlen_tables"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created: Mapped[float] = mapped_column(Float)
    rules_toml: Mapped[str] = mapped_column(Text)
    players: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    away_timeout: Mapped[float] = mapped_column(Float)
    turn_timer: Mapped[float] = mapped_column(Float)


class SeatRow(Base):
    __tablename__ = "tienlen_seats"
    table_id: Mapped[str] = mapped_column(ForeignKey("tienlen_tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # human | bot
    name: Mapped[str] = mapped_column(String(64))
    level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)


class LogRow(Base):
    __tablename__ = "tienlen_log"
    table_id: Mapped[str] = mapped_column(ForeignKey("tienlen_tables.id"), primary_key=True)
    idx: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # join | bot | start | move | next
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    text: Mapped[str] = mapped_column(Text, default="")
    at: Mapped[float] = mapped_column(Float)


class RecordRow(Base):
    __tablename__ = "tienlen_records"
    table_id: Mapped[str] = mapped_column(ForeignKey("tienlen_tables.id"), primary_key=True)
    hand_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    text: Mapped[str] = mapped_column(Text)
    finished: Mapped[float] = mapped_column(Float)


_LOG_INSERT = insert(LogRow)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class Entry:
    """One row of a table's log."""

    idx: int
    kind: str
    seat: int | None = None
    text: str = ""


@dataclass(frozen=True)
class SeatChange:
    seat: int
    kind: str
    name: str
    level: str | None = None
    token_hash: str | None = None


@dataclass(frozen=True)
class Write:
    """One entry for a table's log, with the seat it changes and the record of the hand it ends."""

    table_id: str
    entry: Entry
    seat: SeatChange | None = None
    record: tuple[int, str] | None = None  # (hand number, the finished hand's record)


@dataclass(frozen=True)
class StoredTable:
    id: str
    rules_toml: str
    players: int
    seed: int
    away_timeout: float
    turn_timer: float
    seats: dict[int, SeatChange]
    log: list[Entry]


def make_engine(url: str) -> Engine:
    try:
        if url.startswith("sqlite"):
            memory = url in ("sqlite://", "sqlite:///:memory:")
            engine = create_engine(url, connect_args={"check_same_thread": False},
                                   poolclass=StaticPool if memory else None)

            @event.listens_for(engine, "connect")
            def _pragmas(conn: Any, _record: Any) -> None:
                cur = conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=NORMAL")
                cur.close()

            return engine
        return create_engine(url, pool_pre_ping=True)
    except (ArgumentError, ImportError, SQLAlchemyError) as exc:
        raise StorageError(f"cannot use database {url!r}: {exc}") from None


class Repository:
    """Every read and write the server makes; each write is one transaction."""

    def __init__(self, url: str = DEFAULT_DB) -> None:
        self.url = url
        self.engine = make_engine(url)
        try:
            Base.metadata.create_all(self.engine)
        except SQLAlchemyError as exc:
            raise StorageError(f"cannot open database {url!r}: {exc.__class__.__name__}: "
                               f"{str(exc).splitlines()[0]}") from None
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        # the log's insert, compiled once to the driver's own SQL: the hottest write skips
        # SQLAlchemy's per-statement work, on a connection kept for it
        compiled = _LOG_INSERT.compile(dialect=self.engine.dialect)
        self._log_sql = str(compiled)
        self._log_order = tuple(compiled.positiontup or ()) if compiled.positional else None
        self._log_conn: Connection | None = None

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    @contextmanager
    def _write(self) -> Iterator[Session]:
        try:
            with self._sessions.begin() as session:
                yield session
        except SQLAlchemyError as exc:
            raise StorageError(f"the database refused a write: {exc.__class__.__name__}") from None

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

    def drop_everything(self) -> None:
        """Remove every table the server made (tests use it on a shared database)."""
        Base.metadata.drop_all(self.engine)
        Base.metadata.create_all(self.engine)

    # ------------------------------------------------------------------ writes
    def create_table(self, table_id: str, rules_toml: str, players: int, seed: int,
                     away_timeout: float, turn_timer: float) -> None:
        with self._write() as s:
            s.add(TableRow(id=table_id, created=time.time(), rules_toml=rules_toml, players=players,
                           seed=seed, away_timeout=away_timeout, turn_timer=turn_timer))

    def append(self, table_id: str, entry: Entry, seat: SeatChange | None = None,
               record: tuple[int, str] | None = None) -> None:
        """Store one log entry, with the seat it changes and the record of the hand it ends,
        in one transaction."""
        self.append_many([Write(table_id, entry, seat, record)])

    def append_many(self, writes: list[Write]) -> None:
        """Store many log entries (of many tables) in one transaction: all of them or none.
        The server's hottest write: the log rows go in one executemany of the insert compiled
        once to the driver's SQL, on a connection kept for these writes."""
        if not writes:
            return
        now = time.time()
        logs = [{"table_id": w.table_id, "idx": w.entry.idx, "kind": w.entry.kind,
                 "seat": w.entry.seat, "text": w.entry.text, "at": now} for w in writes]
        order = self._log_order
        params: list[Any] = logs if order is None else [tuple(row[k] for k in order) for row in logs]
        try:
            conn = self._log_connection()
            with conn.begin():
                conn.exec_driver_sql(self._log_sql, params)
                for w in writes:
                    if w.seat is not None:
                        self._put_seat(conn, w.table_id, w.seat)
                    if w.record is not None:
                        self._put_record(conn, w.table_id, w.record, now)
        except SQLAlchemyError as exc:
            self._drop_log_connection()
            raise StorageError(f"the database refused a write: {exc.__class__.__name__}") from None

    @staticmethod
    def _put_seat(conn: Connection, table_id: str, change: SeatChange) -> None:
        conn.execute(delete(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == change.seat))
        conn.execute(insert(SeatRow), {"table_id": table_id, "seat": change.seat, "kind": change.kind,
                                       "name": change.name, "level": change.level,
                                       "token_hash": change.token_hash})

    @staticmethod
    def _put_record(conn: Connection, table_id: str, record: tuple[int, str], now: float) -> None:
        hand_no, text = record
        conn.execute(delete(RecordRow).where(RecordRow.table_id == table_id,
                                             RecordRow.hand_no == hand_no))
        conn.execute(insert(RecordRow), {"table_id": table_id, "hand_no": hand_no, "text": text,
                                         "finished": now})

    # ------------------------------------------------------------------ reads
    def load_all(self) -> list[StoredTable]:
        with self._sessions() as s:
            tables = s.scalars(select(TableRow).order_by(TableRow.created)).all()
            seats: dict[str, dict[int, SeatChange]] = {}
            for row in s.scalars(select(SeatRow)):
                seats.setdefault(row.table_id, {})[row.seat] = SeatChange(
                    row.seat, row.kind, row.name, row.level, row.token_hash)
            logs: dict[str, list[Entry]] = {}
            for lrow in s.scalars(select(LogRow).order_by(LogRow.table_id, LogRow.idx)):
                logs.setdefault(lrow.table_id, []).append(
                    Entry(lrow.idx, lrow.kind, lrow.seat, lrow.text))
            return [StoredTable(t.id, t.rules_toml, t.players, t.seed, t.away_timeout, t.turn_timer,
                                seats.get(t.id, {}), logs.get(t.id, [])) for t in tables]

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

    def count_tables(self) -> int:
        with self._sessions() as s:
            return int(s.scalar(select(func.count()).select_from(TableRow)) or 0)

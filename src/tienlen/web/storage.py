"""Storage through SQLAlchemy: tables, seats (with hashed seat tokens), the action log and records.

Every change to a table is one row of its log, written (and committed) before
anyone hears of it; replaying the log through the engine rebuilds the table
exactly. Bot moves of many tables share one transaction (a group commit, see
``committer.py``). Finished hands are kept as records in the project's TOML
format, stored in the transaction of the move that finishes them.
SQLite (a file in the user's data folder, :func:`default_db`) by default, PostgreSQL by URL
(``postgresql+psycopg://…``).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from sqlalchemy import (
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import ArgumentError, SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker
from sqlalchemy.pool import StaticPool
from sqlalchemy.sql.elements import ColumnElement

from ..errors import TienLenError, error

DB_FILE = "tienlen.sqlite3"  # the SQLite database's file name, by default
NEXT_HAND_AFTER = 15.0  # a table's default countdown to the next hand, once someone asked


class StorageError(TienLenError):
    """The database cannot be opened or written; the text says which and why."""


class DefaultDb(NamedTuple):
    """The database a server uses when it is given none: its URL, its file, and whether that
    is the one found in the working folder (``here``)."""

    url: str
    path: Path
    here: bool


def default_db(cwd: Path | None = None, environ: Mapping[str, str] | None = None) -> DefaultDb:
    """The database a server (and ``tienlen admin``) uses without ``--db``: ``tienlen.sqlite3``
    in the user's data folder (``$XDG_DATA_HOME/tienlen``, by default
    ``~/.local/share/tienlen``: :func:`tienlen.play.controller.data_dir`), the folder made when
    missing; but one in the working folder ``cwd``, where servers kept it before, is used as it
    is (``here``), so that an existing server keeps its tables and accounts."""
    found = (Path.cwd() if cwd is None else cwd) / DB_FILE
    if found.is_file():
        path = found.resolve()
        return DefaultDb(f"sqlite:///{path}", path, True)
    from ..play.controller import data_dir

    path = data_dir(environ) / DB_FILE
    with suppress(OSError):  # else the database cannot be opened: the error names it
        path.parent.mkdir(parents=True, exist_ok=True)
    return DefaultDb(f"sqlite:///{path}", path, False)


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
    # added by the public card room (older databases gain them on opening, see _migrate)
    name: Mapped[str] = mapped_column(String(64), default="")
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    bot_level: Mapped[str] = mapped_column(String(16), default="heuristic")
    host_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    fixed_seed: Mapped[bool] = mapped_column(Boolean, default=False)  # a practice table's seed
    # the creator, as limits.client_key counts it (a keyed hash under the database's key)
    creator: Mapped[str] = mapped_column(String(64), default="")
    # seconds the next hand waits, once a player has asked for it, for the others (0: for all)
    next_hand_after: Mapped[float] = mapped_column(Float, default=NEXT_HAND_AFTER)
    # made by quick match (matchmaker.py): a human who comes later may take a bot's seat
    quick_match: Mapped[bool] = mapped_column(Boolean, default=False)
    closed: Mapped[float | None] = mapped_column(Float, nullable=True)  # when it expired


# columns added after the first release: (name, SQL type, default) for ALTER TABLE
_ADDED_COLUMNS = (("name", "VARCHAR(64)", "''"), ("private", "BOOLEAN", "FALSE"),
                  ("bot_level", "VARCHAR(16)", "'heuristic'"), ("host_seat", "INTEGER", "NULL"),
                  ("fixed_seed", "BOOLEAN", "FALSE"), ("creator", "VARCHAR(64)", "''"),
                  ("closed", "FLOAT", "NULL"), ("next_hand_after", "FLOAT", str(NEXT_HAND_AFTER)),
                  ("quick_match", "BOOLEAN", "FALSE"))


class SeatRow(Base):
    __tablename__ = "tienlen_seats"
    table_id: Mapped[str] = mapped_column(ForeignKey("tienlen_tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))  # human | bot
    name: Mapped[str] = mapped_column(String(64))
    level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    # the identity the seat belongs to (identity.py): its page finds the seat by its cookie
    owner: Mapped[str | None] = mapped_column(String(32), nullable=True)
    device: Mapped[str | None] = mapped_column(String(32), nullable=True)  # session.device_of


# seat columns added after the first release, as _ADDED_COLUMNS
_ADDED_SEAT_COLUMNS = (("owner", "VARCHAR(32)", "NULL"), ("device", "VARCHAR(32)", "NULL"))


class LogRow(Base):
    __tablename__ = "tienlen_log"
    table_id: Mapped[str] = mapped_column(ForeignKey("tienlen_tables.id"), primary_key=True)
    idx: Mapped[int] = mapped_column(Integer, primary_key=True)
    # join | bot | remove | leave | back | kick (the host gave an away player's seat to a bot) |
    # start | move | timer (a move the turn timer made) | bot_move (a bot's move) | ask (for the
    # next hand) | next | reserve (a bot's seat kept for a player from quick match) | take (the
    # seat becomes that player's, as the next hand is dealt); a remove and a kick of a player
    # name the identity in ``text``: it never sits at the table again
    kind: Mapped[str] = mapped_column(String(8))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    text: Mapped[str] = mapped_column(Text, default="")
    at: Mapped[float] = mapped_column(Float)


class SnapshotRow(Base):
    """A table's state after its log's first ``idx`` entries: a restart replays only the rest."""

    __tablename__ = "tienlen_snapshots"
    table_id: Mapped[str] = mapped_column(ForeignKey("tienlen_tables.id"), primary_key=True)
    idx: Mapped[int] = mapped_column(Integer)
    data: Mapped[str] = mapped_column(Text)


class RecordRow(Base):
    __tablename__ = "tienlen_records"
    table_id: Mapped[str] = mapped_column(ForeignKey("tienlen_tables.id"), primary_key=True)
    hand_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    text: Mapped[str] = mapped_column(Text)
    finished: Mapped[float] = mapped_column(Float)


class ShareRow(Base):
    """A finished hand of a private table its host shared (``hand_access.py``): the SHA-256 of
    the link's secret (the secret itself is only in the link), the hand it opens, who made it."""

    __tablename__ = "tienlen_shares"
    digest: Mapped[str] = mapped_column(String(64), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(32), index=True)
    hand_no: Mapped[int] = mapped_column(Integer)
    by: Mapped[str] = mapped_column(String(64))  # the host's identity (or "seat N": a token's)
    at: Mapped[float] = mapped_column(Float)


class RatingRow(Base):
    """A player's rating in one family (``ratings/store.py``: ``SqlRatingStore``); ``hands`` is also
    the row's version: an update writes only over the hands it read."""

    __tablename__ = "tienlen_ratings"
    player: Mapped[str] = mapped_column(String(64), primary_key=True)
    family: Mapped[str] = mapped_column(String(16), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    hands: Mapped[int] = mapped_column(Integer)
    firsts: Mapped[int] = mapped_column(Integer)
    updated: Mapped[float] = mapped_column(Float)


class RatingHistoryRow(Base):
    """A player's rating in one family after each rated hand (its curve and trend)."""

    __tablename__ = "tienlen_rating_history"
    player: Mapped[str] = mapped_column(String(64), primary_key=True)
    family: Mapped[str] = mapped_column(String(16), primary_key=True)
    hands: Mapped[int] = mapped_column(Integer, primary_key=True)  # rated hands after this one
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    at: Mapped[float] = mapped_column(Float)
    # after a hand of a private table: a point only the player's own profile shows
    private: Mapped[bool] = mapped_column(Boolean, default=False)


# rating history columns added after the first release, as _ADDED_COLUMNS
_ADDED_HISTORY_COLUMNS = (("private", "BOOLEAN", "FALSE"),)


class IdentityRow(Base):
    """Who plays (``identity.py``): a guest (a name and the sessions of its browser) or, once
    claimed, an account (a unique name and a password). A deleted account keeps its row, its
    name replaced and everything secret gone, so that its hands' records still name a seat."""

    __tablename__ = "tienlen_identities"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))  # as shown: the account's name, or the guest's
    created: Mapped[float] = mapped_column(Float)
    # an account's: its name's keys (names.name_key, names.confusable_key: unique, compared)
    account_key: Mapped[str | None] = mapped_column(String(128), unique=True, nullable=True)
    look_key: Mapped[str | None] = mapped_column(String(256), unique=True, nullable=True)
    password_hash: Mapped[str | None] = mapped_column(Text, nullable=True)  # argon2id
    role: Mapped[str] = mapped_column(String(8), default="player")  # player | admin
    deleted: Mapped[float | None] = mapped_column(Float, nullable=True)


class SessionRow(Base):
    """A browser signed in as an identity: the SHA-256 of its cookie's secret (the secret itself
    is kept only by the browser)."""

    __tablename__ = "tienlen_sessions"
    digest: Mapped[str] = mapped_column(String(64), primary_key=True)
    identity: Mapped[str] = mapped_column(ForeignKey("tienlen_identities.id"), index=True)
    created: Mapped[float] = mapped_column(Float)
    seen: Mapped[float] = mapped_column(Float)
    agent: Mapped[str] = mapped_column(String(160), default="")  # the browser, as it says


class DeviceRow(Base):
    """A browser that has signed in to an account (the hash of the secret that sign-in gave it,
    ``session.KNOWN``): strangers' wrong guesses at that account's password never hold it back
    (``accounts.py``). Kept when it signs out; gone with the account."""

    __tablename__ = "tienlen_account_devices"
    identity: Mapped[str] = mapped_column(ForeignKey("tienlen_identities.id"), primary_key=True)
    device: Mapped[str] = mapped_column(String(32), primary_key=True)
    at: Mapped[float] = mapped_column(Float)  # when it last signed in


class PlayedRow(Base):
    """A finished hand an identity sat in (its profile's recent hands): the record is the
    table's ``RecordRow``; ``private`` hands are shown only to those who sat at the table."""

    __tablename__ = "tienlen_played"
    identity: Mapped[str] = mapped_column(ForeignKey("tienlen_identities.id"), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    hand_no: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    place: Mapped[int] = mapped_column(Integer)  # 1: first out (a leaver: last)
    family: Mapped[str | None] = mapped_column(String(16), nullable=True)  # None: not rated
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    at: Mapped[float] = mapped_column(Float, index=True)


class RecoveryCodeRow(Base):
    """An account's recovery codes (shown once at claim time), each kept as a hash; one resets
    the password and is used up."""

    __tablename__ = "tienlen_recovery_codes"
    identity: Mapped[str] = mapped_column(ForeignKey("tienlen_identities.id"), primary_key=True)
    digest: Mapped[str] = mapped_column(String(64), primary_key=True)


class FriendRow(Base):
    """``identity`` asked ``friend`` to be friends; both ways: they are friends."""

    __tablename__ = "tienlen_friends"
    identity: Mapped[str] = mapped_column(ForeignKey("tienlen_identities.id"), primary_key=True)
    friend: Mapped[str] = mapped_column(ForeignKey("tienlen_identities.id"), primary_key=True)
    at: Mapped[float] = mapped_column(Float)


class InvitationRow(Base):
    """``sender`` invited ``recipient`` (a friend) to the table ``table_id``."""

    __tablename__ = "tienlen_invitations"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    sender: Mapped[str] = mapped_column(ForeignKey("tienlen_identities.id"))
    recipient: Mapped[str] = mapped_column(ForeignKey("tienlen_identities.id"), index=True)
    table_id: Mapped[str] = mapped_column(String(32))
    at: Mapped[float] = mapped_column(Float, index=True)


class BlockRow(Base):
    """``blocker`` never sits with ``blocked`` in quick match and does not see their chat."""

    __tablename__ = "tienlen_blocks"
    blocker: Mapped[str] = mapped_column(ForeignKey("tienlen_identities.id"), primary_key=True)
    blocked: Mapped[str] = mapped_column(ForeignKey("tienlen_identities.id"), primary_key=True)
    at: Mapped[float] = mapped_column(Float)


class ReportRow(Base):
    """A player's report of another (with the table and hand it is about), for the admins."""

    __tablename__ = "tienlen_reports"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    reporter: Mapped[str] = mapped_column(ForeignKey("tienlen_identities.id"), index=True)
    reported: Mapped[str] = mapped_column(ForeignKey("tienlen_identities.id"), index=True)
    reason: Mapped[str] = mapped_column(String(16))  # one of moderation.REASONS
    text: Mapped[str] = mapped_column(Text, default="")
    table_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    hand_no: Mapped[int | None] = mapped_column(Integer, nullable=True)
    at: Mapped[float] = mapped_column(Float, index=True)
    handled: Mapped[float | None] = mapped_column(Float, nullable=True)


class ChatRow(Base):
    """One thing said at a table (``chat.py``): a phrase's key, a reaction's emoji or free
    text, by the seat and identity that said it, during hand ``hand_no`` (0: before the start);
    kept for the admins reading a report of that hand, swept after ``--keep-chat`` days."""

    __tablename__ = "tienlen_chat"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(String(32), index=True)
    hand_no: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    identity: Mapped[str | None] = mapped_column(String(32), nullable=True)
    kind: Mapped[str] = mapped_column(String(8))  # phrase | emoji | text
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[float] = mapped_column(Float, index=True)


class BanRow(Base):
    """An identity, or an address (its keyed hash), kept out until ``until``."""

    __tablename__ = "tienlen_bans"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    identity: Mapped[str | None] = mapped_column(String(32), index=True, nullable=True)
    address: Mapped[str | None] = mapped_column(String(64), index=True, nullable=True)
    until: Mapped[float] = mapped_column(Float)
    reason: Mapped[str] = mapped_column(Text, default="")
    by: Mapped[str] = mapped_column(String(32))
    at: Mapped[float] = mapped_column(Float)


class AuditRow(Base):
    """Every act of an admin (and every grant from the command line), never changed."""

    __tablename__ = "tienlen_audit"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[float] = mapped_column(Float, index=True)
    actor: Mapped[str] = mapped_column(String(64))  # an identity's id, or "command line"
    action: Mapped[str] = mapped_column(String(16))  # grant | revoke | ban | unban | rename | ...
    target: Mapped[str] = mapped_column(String(64))
    detail: Mapped[str] = mapped_column(Text, default="")


class QueueRow(Base):
    """A player waiting in quick match (``matchqueue.py``) for a table of ``size`` seats of a
    rating family, with the rating it waits with; once matched, the table and seat given."""

    __tablename__ = "tienlen_queue"
    identity: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))  # the name it sits under
    device: Mapped[str | None] = mapped_column(String(32), nullable=True)  # session.device_of
    family: Mapped[str] = mapped_column(String(16), index=True)
    size: Mapped[int] = mapped_column(Integer)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    joined: Mapped[float] = mapped_column(Float)
    table_id: Mapped[str | None] = mapped_column(String(32), nullable=True)  # None: waiting
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    matched: Mapped[float | None] = mapped_column(Float, nullable=True)


class ServerKeyRow(Base):
    """A secret the server makes once and keeps (``moderation/store.py``): the key of the address
    hashes that bans store, the same in every process and after a restart."""

    __tablename__ = "tienlen_server_keys"
    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))


_LOG_INSERT = insert(LogRow)
_LOG_AFTER = (select(LogRow.idx, LogRow.kind, LogRow.seat, LogRow.text)
              .where(LogRow.table_id == bindparam("table_id"), LogRow.idx >= bindparam("start"))
              .order_by(LogRow.idx))
_LOG_LAST = (select(LogRow.at).where(LogRow.table_id == bindparam("table_id"))
             .order_by(LogRow.idx.desc()).limit(1))
# the entries that bar an identity from a table (TableState.barred), whatever the snapshot holds
BARRING = ("remove", "kick")


@contextmanager
def transaction(engine: Engine) -> Iterator[Connection]:
    """One transaction on ``engine`` (committed at the end, rolled back on an error); a
    database error is a :class:`StorageError` that names it. The stores' one way in."""
    try:
        with engine.begin() as conn:
            yield conn
    except SQLAlchemyError as exc:
        raise error(StorageError, "err.storage.refused",
                    error=(str(exc).splitlines() or [exc.__class__.__name__])[0][:200]) from None


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
    owner: str | None = None  # the identity the seat belongs to
    device: str | None = None  # the browser it was taken from (session.device_of)


@dataclass(frozen=True)
class HandEnd:
    """A finished hand's seats, for what it writes for its players (``played.py``): who held
    each seat when the hand began (``owners``: an identity, or None: a bot's seat, or a person
    held by a token only) and the bots' levels (``levels``: None for a person's seat)."""

    hand_no: int
    family: str | None  # the rating family (None: the table is not rated)
    private: bool
    owners: tuple[str | None, ...]
    levels: tuple[str | None, ...]
    finish_order: tuple[int, ...]
    # the seats whose players are gone as it ends, rated last (TableState.absent_at_end)
    left: frozenset[int] = frozenset()


# what the server writes for a finished hand's players, in the transaction of its record
HandWriter = Callable[[Connection, str, HandEnd, float], None]


@dataclass(frozen=True)
class Write:
    """One entry for a table's log, with the seat it changes and the record of the hand it ends."""

    table_id: str
    entry: Entry
    seat: SeatChange | None = None
    record: tuple[int, str] | None = None  # (hand number, the finished hand's record)
    snapshot: str | None = None  # the table's state after this entry (see snapshot.py)
    # the table's new host seat, when it changes: the creator no longer runs the table, and it
    # stops counting against the creator's limits (the creator column is cleared)
    host: tuple[int | None] | None = None
    ended: HandEnd | None = None  # the hand's players, when it ends one that people sat in


@dataclass(frozen=True)
class TableSettings:
    """What a table is made with, stored once when it is created."""

    id: str
    rules_toml: str
    players: int
    seed: int
    away_timeout: float
    turn_timer: float
    name: str = ""
    private: bool = False
    bot_level: str = "heuristic"
    host_seat: int | None = None
    fixed_seed: bool = False
    creator: str = ""
    next_hand_after: float = NEXT_HAND_AFTER
    quick_match: bool = False  # made by quick match: a bot's seat may be taken at a next hand


@dataclass(frozen=True)
class StoredTable:
    settings: TableSettings
    seats: dict[int, SeatChange]
    log: list[Entry]  # the entries after the snapshot (every entry when there is none)
    snapshot: tuple[int, str] | None = None  # (entries it covers, its data)
    last_at: float | None = None  # when its newest log entry was stored (the turn timer's start)
    # the removals and kicks before the snapshot, which it does not hold: who is barred
    earlier: list[Entry] = field(default_factory=list)

    @property
    def id(self) -> str:
        return self.settings.id


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
        # the database library's own words for what is wrong stay as it wrote them (English)
        raise error(StorageError, "err.storage.cannot_use", url=repr(url), error=str(exc)) \
            from None


class Repository:
    """Every read and write the server makes; each write is one transaction."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        try:
            Base.metadata.create_all(self.engine)
            _migrate(self.engine)
        except SQLAlchemyError as exc:
            raise error(StorageError, "err.storage.cannot_open", url=repr(url),
                        error=f"{exc.__class__.__name__}: {str(exc).splitlines()[0]}") from None
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        # the log's insert, compiled once to the driver's own SQL: the hottest write skips
        # SQLAlchemy's per-statement work, on a connection kept for it
        compiled = _LOG_INSERT.compile(dialect=self.engine.dialect)
        self._log_sql = str(compiled)
        self._log_order = tuple(compiled.positiontup or ()) if compiled.positional else None
        self._log_conn: Connection | None = None
        # what a hand's end writes for its players (set by the server: played.py), if anything
        self.hand_writer: HandWriter | None = None

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

    def drop_everything(self) -> None:
        """Remove every table the server made (tests use it on a shared database)."""
        Base.metadata.drop_all(self.engine)
        Base.metadata.create_all(self.engine)

    # ------------------------------------------------------------------ writes
    def create_table(self, t: TableSettings, seats: Sequence[SeatChange] = (),
                     log: Sequence[Entry] = (), snapshot: tuple[int, str] | None = None,
                     records: Sequence[tuple[int, str]] = ()) -> None:
        """Store a new table with its first seats, log entries, snapshot and the records of the
        hands they end (an instant win at the first deal), in one transaction: all of it or
        nothing."""
        with self._write() as s:
            s.add(TableRow(id=t.id, created=time.time(), rules_toml=t.rules_toml, players=t.players,
                           seed=t.seed, away_timeout=t.away_timeout, turn_timer=t.turn_timer,
                           name=t.name, private=t.private, bot_level=t.bot_level,
                           host_seat=t.host_seat, fixed_seed=t.fixed_seed, creator=t.creator,
                           next_hand_after=t.next_hand_after, quick_match=t.quick_match))
            s.flush()
            now = time.time()
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

    def put_ended(self, table_id: str, ended: HandEnd) -> None:
        """Write what a finished hand writes for its players, alone (a new table's first hand,
        ended by its deal, once the players are stored: see ``TableState.held``)."""
        if self.hand_writer is None:
            return
        with self._write() as s:
            self.hand_writer(s.connection(), table_id, ended, time.time())

    def close_table(self, table_id: str, at: float) -> None:
        """Mark a table closed (expired): it is not rebuilt again, and what only rebuilding it
        needed (its log, snapshot and seats with their tokens) goes; its records stay."""
        with self._write() as s:
            s.execute(update(TableRow).where(TableRow.id == table_id).values(closed=at))
            for model in (LogRow, SnapshotRow, SeatRow):
                s.execute(delete(model).where(model.table_id == table_id))

    def append(self, table_id: str, entry: Entry, seat: SeatChange | None = None,
               record: tuple[int, str] | None = None, snapshot: str | None = None,
               host: tuple[int | None] | None = None, ended: HandEnd | None = None) -> None:
        """Store one log entry, with the seat it changes, the record of the hand it ends (and
        what that writes for its players), the table's snapshot after it and its new host, in
        one transaction."""
        self.append_many([Write(table_id, entry, seat, record, snapshot, host, ended)])

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


def _migrate(engine: Engine) -> None:
    """Add the columns a database made by an older release lacks (tables made before had
    client-given or secret seeds alike: their seed stays fixed, as it was)."""
    for table, added in ((TableRow.__tablename__, _ADDED_COLUMNS),
                         (SeatRow.__tablename__, _ADDED_SEAT_COLUMNS),
                         (RatingHistoryRow.__tablename__, _ADDED_HISTORY_COLUMNS)):
        have = {c["name"] for c in inspect(engine).get_columns(table)}
        missing = [c for c in added if c[0] not in have]
        if not missing:
            continue
        with engine.begin() as conn:
            for name, sql_type, default in missing:
                conn.execute(text(f"ALTER TABLE {table} ADD COLUMN {name} {sql_type} "
                                  f"DEFAULT {default}"))
            if table == RatingHistoryRow.__tablename__:
                _mark_private_points(conn)


def _mark_private_points(conn: Connection) -> None:
    """The points of the rating curves stored before the curve said which hands were private:
    a point written with a private table's hand (its ``PlayedRow``: the same player, family and
    transaction, so the same second) is marked private, as it would be now."""
    h, p = RatingHistoryRow, PlayedRow
    conn.execute(update(h).where(select(p.identity).where(
        p.identity == h.player, p.family == h.family, p.private.is_(True),
        func.abs(p.at - h.at) < 1.0).exists()).values(private=True))

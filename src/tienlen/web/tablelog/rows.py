"""The rows a table leaves: its settings (``TableRow``), its seats (with hashed seat tokens),
its log (every change to the table one row, written before anyone hears of it: replaying it
through the engine rebuilds the table exactly), its latest snapshot and the records of its
finished hands (in the project's TOML format, stored in the transaction of the move that
finishes them). Written and read by :class:`~.repository.Repository`; an account's profile and
its deletion read the records and tables too (``accounts/``).
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Boolean, Float, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from ..storage import AddedColumn, Base
from .writes import NEXT_HAND_AFTER

OPEN_BY_CREATOR = "ix_tienlen_tables_open_creator"


class TableRow(Base):
    __tablename__ = "tienlen_tables"
    # the open tables a creator hosts, counted by a room of many processes (Lobby.check_room_for)
    __table_args__ = (Index(OPEN_BY_CREATOR, "closed", "creator"),)
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    created: Mapped[float] = mapped_column(Float)
    rules_toml: Mapped[str] = mapped_column(Text)
    players: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(BigInteger)
    away_timeout: Mapped[float] = mapped_column(Float)
    turn_timer: Mapped[float] = mapped_column(Float)
    # added by the public card room (older databases gain them on opening: ADDED_TABLE_COLUMNS)
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


# table columns added after the first release (schema.py adds them to an older database)
ADDED_TABLE_COLUMNS: tuple[AddedColumn, ...] = (
    ("name", "VARCHAR(64)", "''"), ("private", "BOOLEAN", "FALSE"),
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


# seat columns added after the first release, as ADDED_TABLE_COLUMNS
ADDED_SEAT_COLUMNS: tuple[AddedColumn, ...] = (("owner", "VARCHAR(32)", "NULL"),
                                               ("device", "VARCHAR(32)", "NULL"))


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



class LeaseRow(Base):
    """Which process serves an open table (``owner``), under which fencing ``epoch`` (one more
    at each take-over), until when (``expires``, Unix seconds, renewed while it serves it): the
    table's every write is checked against the epoch in its own transaction (leases.py)."""

    __tablename__ = "tienlen_leases"
    table_id: Mapped[str] = mapped_column(ForeignKey("tienlen_tables.id"), primary_key=True)
    owner: Mapped[str] = mapped_column(String(64))
    epoch: Mapped[int] = mapped_column(BigInteger)
    expires: Mapped[float] = mapped_column(Float, index=True)

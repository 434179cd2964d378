"""Moderation's rows: blocks, reports, bans, the admins' audit log, and the server's keys
(the key of the address hashes that bans store, made once and kept). The store: ``store.py``
(``SqlModerationStore``); the routes read a hand's reports to let an admin open it
(``routes/hand_access.py``).
"""

from __future__ import annotations

from sqlalchemy import Float, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from ..storage import Base


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



class ServerKeyRow(Base):
    """A secret the server makes once and keeps (``moderation/store.py``): the key of the address
    hashes that bans store, the same in every process and after a restart."""

    __tablename__ = "tienlen_server_keys"
    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))

"""The accounts' rows: identities (a guest, or a claimed account), the sessions that prove
them, the browsers that signed in to an account, its recovery codes, and the finished hands
each identity sat in (``PlayedRow``: its profile's recent hands, written by
``records/played.py`` in the transaction of the hand's record, read by ``profiles.py`` and
rewritten when an account is deleted). The stores: ``identity.py``, ``profiles.py``.

Here, not with the records: the profile and an account's deletion read the played hands, and
the accounts sit below the records (which may import them, not the other way).
"""

from __future__ import annotations

from sqlalchemy import Boolean, Float, ForeignKey, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from ..storage import AddedColumn, Base


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
    # a rated hand: the player's skill mean before and after it, and their rated hands after
    # it (the end of the hand says how the rating moved: /api/me/hands/…/rating)
    mu_before: Mapped[float | None] = mapped_column(Float, nullable=True)
    mu_after: Mapped[float | None] = mapped_column(Float, nullable=True)
    rated_hands: Mapped[int | None] = mapped_column(Integer, nullable=True)


# played-hand columns added after the first release (schema.py adds them to an older database)
ADDED_PLAYED_COLUMNS: tuple[AddedColumn, ...] = (
    ("mu_before", "FLOAT", "NULL"), ("mu_after", "FLOAT", "NULL"),
    ("rated_hands", "INTEGER", "NULL"))


class RecoveryCodeRow(Base):
    """An account's recovery codes (shown once at claim time), each kept as a hash; one resets
    the password and is used up."""

    __tablename__ = "tienlen_recovery_codes"
    identity: Mapped[str] = mapped_column(ForeignKey("tienlen_identities.id"), primary_key=True)
    digest: Mapped[str] = mapped_column(String(64), primary_key=True)

"""Who plays: identities and the sessions that prove them.

A browser's first visit is given a long random secret in a cookie (``session.py``) and nothing
else: no row is written until the browser does something that needs an identity (sits at a
table, creates one). Then it becomes a **guest**: an identity with the name it typed, and one
session, the SHA-256 of its secret. A guest may later claim an account (a unique name and a
password, ``accounts.py``); the identity stays the same, so its seats, hands and ratings follow.

Everything lasting is behind :class:`IdentityStore` (an interface a Redis or another database
can implement); :class:`SqlIdentityStore` keeps it in the server's database.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import delete, func, insert, or_, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from ...errors import error
from ..storage import StorageError, transaction
from ..tablelog.rows import RecordRow
from .rows import DeviceRow, IdentityRow, PlayedRow, RecoveryCodeRow, SessionRow

SEEN_EVERY = 300.0  # seconds: a session's "last seen" is written at most this often
MAX_AGENT = 160  # characters of a browser's User-Agent kept with its session


@dataclass(frozen=True)
class Identity:
    """A player the room knows. ``name`` is as shown (an account's name, or the name a guest
    last sat under); ``account`` is True once claimed."""

    id: str
    name: str
    account: bool = False
    role: str = "player"  # player | admin
    created: float = 0.0
    deleted: bool = False

    @property
    def guest(self) -> bool:
        return not self.account


@dataclass(frozen=True)
class SessionInfo:
    """One browser signed in as an identity (its own page lists them)."""

    digest: str
    created: float
    seen: float
    agent: str


def new_id() -> str:
    """An identity's id: random, never reused, shown in no URL an account has a name for."""
    return "i" + secrets.token_hex(12)


class IdentityStore(Protocol):
    """Identities and their sessions."""

    def by_session(self, digest: str) -> Identity | None:
        """The identity signed in by the session ``digest`` (None: no such session), noting
        that the session was seen now (at most every :data:`SEEN_EVERY` seconds)."""

    def get(self, identity_id: str) -> Identity | None:
        """The identity ``identity_id`` (None: unknown)."""

    def new_guest(self, name: str, digest: str, agent: str = "",
                  identity_id: str | None = None) -> Identity:
        """A new guest called ``name`` (its id ``identity_id``, else a new one), signed in by
        the session ``digest``."""

    def by_account(self, key: str) -> Identity | None:
        """The account whose name has the key ``key`` (``names.account_key`` of its name; None:
        no such account, or deleted)."""

    def name_conflict(self, key: str, look: str, other_than: str | None = None) -> Identity | None:
        """An account (but ``other_than``) whose name has the key ``key`` (``names.account_key``)
        or looks like it (the same ``names.confusable_key``, ``look``); None: the name is free."""

    def rename_guest(self, identity_id: str, name: str) -> None:
        """A guest sat under another name: it is shown so from now on (an account's name stays)."""

    def add_session(self, identity_id: str, digest: str, agent: str = "") -> None:
        """Sign ``identity_id`` in by a new session ``digest``."""

    def drop_session(self, digest: str) -> None:
        """Sign one browser out."""

    def drop_sessions(self, identity_id: str, keep: str | None = None) -> int:
        """Sign every browser of ``identity_id`` out but ``keep``'s; how many were."""

    def sessions(self, identity_id: str) -> list[SessionInfo]:
        """The browsers signed in as ``identity_id``, the last seen first."""

    def rename_account(self, identity_id: str, name: str, key: str, look: str) -> bool:
        """An admin renamed the account ``identity_id`` to ``name`` (its keys ``key``, ``look``:
        checked free by the caller, see ``moderation.check_new_name``); False: no such account."""

    def switch_session(self, identity_id: str, old: str | None, digest: str,
                       agent: str = "") -> None:
        """One browser signs in as ``identity_id`` by a new session ``digest``: its session
        ``old`` (None: none) is gone, in the same transaction."""

    def know_device(self, identity_id: str, device: str) -> None:
        """The browser ``device`` (as ``session.known_of`` stores it) signed in to the account
        ``identity_id`` now."""

    def knows_device(self, identity_id: str, device: str) -> bool:
        """Whether the browser ``device`` has signed in to the account ``identity_id``."""

    def account_hash(self, key: str) -> tuple[Identity, str] | None:
        """The account whose name has the key ``key``, and its password's hash (None: none)."""

    def password_hash(self, identity_id: str) -> str | None:
        """The password hash of the account ``identity_id`` (None: a guest, or unknown)."""

    def claim(self, claim: Claim) -> bool:
        """The guest ``claim.identity`` (made now when ``claim.new``) becomes the account
        ``claim.name``, with its password's hash and recovery codes, signed in by the session
        ``claim.digest`` instead of ``claim.old``: all in one transaction. False (nothing
        changed): another account took the name meanwhile."""

    def set_password(self, identity_id: str, password_hash: str, keep: str | None) -> int:
        """A new password hash for ``identity_id``; every session but ``keep``'s ends (how many
        did)."""

    def set_codes(self, identity_id: str, digests: list[str]) -> None:
        """``identity_id``'s recovery codes are now those of ``digests`` (the old ones gone)."""

    def use_code(self, identity_id: str, digest: str) -> bool:
        """Use up ``identity_id``'s recovery code of ``digest``: False if it has none such (or
        it was used already, even by a request at the same moment)."""

    def delete_account(self, identity_id: str, name: str,
                       rename: Callable[[str, int, str], str]) -> None:
        """Delete the account ``identity_id``: its row stays called ``name``, its name's keys,
        password, sessions, codes and known browsers gone, ``deleted`` set; the record of
        every finished hand it played (its ``PlayedRow`` rows) becomes
        ``rename(text, seat, name)``. One transaction."""


@dataclass(frozen=True)
class Claim:
    """What claiming an account writes (:meth:`IdentityStore.claim`)."""

    identity: str
    name: str
    key: str  # names.account_key(name)
    look: str  # names.confusable_key(name)
    password_hash: str
    codes: list[str]  # the recovery codes' digests
    digest: str  # the new session
    old: str | None = None  # the session it replaces
    agent: str = ""
    new: bool = False  # no guest yet: the identity is made now


class _Unclaimed(Exception):
    """A claim that changed nothing (its transaction is rolled back)."""


_COLUMNS = (IdentityRow.id, IdentityRow.name, IdentityRow.account_key, IdentityRow.role,
            IdentityRow.created, IdentityRow.deleted)


def _identity(row: Any) -> Identity:
    """An identity from a row of :data:`_COLUMNS`."""
    return Identity(row.id, row.name, row.account_key is not None, row.role or "player",
                    row.created, row.deleted is not None)


def _drop_sessions(conn: Connection, identity_id: str, keep: str | None) -> int:
    """End every session of ``identity_id`` but ``keep``'s, on ``conn``; how many ended."""
    where = [SessionRow.identity == identity_id]
    if keep is not None:
        where.append(SessionRow.digest != keep)
    n = conn.execute(select(func.count()).select_from(SessionRow).where(*where)).scalar_one()
    conn.execute(delete(SessionRow).where(*where))
    return int(n)


class SqlIdentityStore:
    """Identities and sessions in the server's database (the tables of ``rows.py``)."""

    def __init__(self, engine: Engine, clock: Callable[[], float] = time.time) -> None:
        self.engine = engine
        self.clock = clock

    def by_session(self, digest: str) -> Identity | None:
        now = self.clock()
        with transaction(self.engine) as conn:
            row = conn.execute(
                select(*_COLUMNS, SessionRow.seen)
                .join(SessionRow, SessionRow.identity == IdentityRow.id)
                .where(SessionRow.digest == digest)).first()
            if row is None:
                return None
            if now - row.seen >= SEEN_EVERY:
                conn.execute(update(SessionRow).where(SessionRow.digest == digest)
                             .values(seen=now))
            if row.deleted is not None:
                return None
            return _identity(row)

    def get(self, identity_id: str) -> Identity | None:
        with transaction(self.engine) as conn:
            row = conn.execute(select(*_COLUMNS)
                               .where(IdentityRow.id == identity_id)).first()
        return None if row is None else _identity(row)

    def by_account(self, key: str) -> Identity | None:
        with transaction(self.engine) as conn:
            row = conn.execute(select(*_COLUMNS).where(IdentityRow.account_key == key,
                                                       IdentityRow.deleted.is_(None))).first()
        return None if row is None else _identity(row)

    def name_conflict(self, key: str, look: str, other_than: str | None = None) -> Identity | None:
        where = [or_(IdentityRow.account_key == key, IdentityRow.look_key == look)]
        if other_than is not None:
            where.append(IdentityRow.id != other_than)
        with transaction(self.engine) as conn:
            row = conn.execute(select(*_COLUMNS).where(*where).limit(1)).first()
        return None if row is None else _identity(row)

    def new_guest(self, name: str, digest: str, agent: str = "",
                  identity_id: str | None = None) -> Identity:
        now = self.clock()
        identity = Identity(identity_id or new_id(), name, created=now)
        with transaction(self.engine) as conn:
            conn.execute(insert(IdentityRow), {"id": identity.id, "name": name,
                                               "created": now, "role": "player"})
            conn.execute(insert(SessionRow), {"digest": digest, "identity": identity.id,
                                              "created": now, "seen": now,
                                              "agent": agent[:MAX_AGENT]})
        return identity

    def rename_guest(self, identity_id: str, name: str) -> None:
        with transaction(self.engine) as conn:
            conn.execute(update(IdentityRow).where(IdentityRow.id == identity_id,
                                                   IdentityRow.account_key.is_(None))
                         .values(name=name))

    def add_session(self, identity_id: str, digest: str, agent: str = "") -> None:
        now = self.clock()
        with transaction(self.engine) as conn:
            conn.execute(insert(SessionRow), {"digest": digest, "identity": identity_id,
                                              "created": now, "seen": now,
                                              "agent": agent[:MAX_AGENT]})

    def drop_session(self, digest: str) -> None:
        with transaction(self.engine) as conn:
            conn.execute(delete(SessionRow).where(SessionRow.digest == digest))

    def drop_sessions(self, identity_id: str, keep: str | None = None) -> int:
        with transaction(self.engine) as conn:
            return _drop_sessions(conn, identity_id, keep)

    def sessions(self, identity_id: str) -> list[SessionInfo]:
        with transaction(self.engine) as conn:
            rows = conn.execute(select(SessionRow.digest, SessionRow.created, SessionRow.seen,
                                       SessionRow.agent)
                                .where(SessionRow.identity == identity_id)
                                .order_by(SessionRow.seen.desc())).all()
        return [SessionInfo(d, c, s, a or "") for d, c, s, a in rows]

    def rename_account(self, identity_id: str, name: str, key: str, look: str) -> bool:
        with transaction(self.engine) as conn:
            done = conn.execute(update(IdentityRow)
                                .where(IdentityRow.id == identity_id,
                                       IdentityRow.account_key.is_not(None),
                                       IdentityRow.deleted.is_(None))
                                .values(name=name, account_key=key, look_key=look))
        return bool(done.rowcount)

    def switch_session(self, identity_id: str, old: str | None, digest: str,
                       agent: str = "") -> None:
        now = self.clock()
        with transaction(self.engine) as conn:
            if old is not None:
                conn.execute(delete(SessionRow).where(SessionRow.digest == old))
            conn.execute(insert(SessionRow), {"digest": digest, "identity": identity_id,
                                              "created": now, "seen": now,
                                              "agent": agent[:MAX_AGENT]})

    def know_device(self, identity_id: str, device: str) -> None:
        now = self.clock()
        where = (DeviceRow.identity == identity_id, DeviceRow.device == device)
        try:
            with self.engine.begin() as conn:
                if not conn.execute(update(DeviceRow).where(*where).values(at=now)).rowcount:
                    conn.execute(insert(DeviceRow), {"identity": identity_id, "device": device,
                                                     "at": now})
        except IntegrityError:  # the same browser signed in at the same moment: known already
            pass
        except SQLAlchemyError as exc:
            raise error(StorageError, "err.storage.refused", error=str(exc)[:200]) from None

    def knows_device(self, identity_id: str, device: str) -> bool:
        with transaction(self.engine) as conn:
            return conn.execute(select(DeviceRow.at).where(DeviceRow.identity == identity_id,
                                                           DeviceRow.device == device)
                                ).first() is not None

    def account_hash(self, key: str) -> tuple[Identity, str] | None:
        with transaction(self.engine) as conn:
            row = conn.execute(select(*_COLUMNS, IdentityRow.password_hash)
                               .where(IdentityRow.account_key == key,
                                      IdentityRow.deleted.is_(None))).first()
        if row is None or row.password_hash is None:
            return None
        return _identity(row), row.password_hash

    def password_hash(self, identity_id: str) -> str | None:
        with transaction(self.engine) as conn:
            found = conn.execute(select(IdentityRow.password_hash)
                                 .where(IdentityRow.id == identity_id,
                                        IdentityRow.deleted.is_(None))).scalar()
        return None if found is None else str(found)

    def claim(self, claim: Claim) -> bool:
        now = self.clock()
        account = {"name": claim.name, "account_key": claim.key, "look_key": claim.look,
                   "password_hash": claim.password_hash}
        try:
            with self.engine.begin() as conn:
                if claim.new:
                    conn.execute(insert(IdentityRow), {"id": claim.identity, "created": now,
                                                       "role": "player", **account})
                else:
                    done = conn.execute(update(IdentityRow)
                                        .where(IdentityRow.id == claim.identity,
                                               IdentityRow.account_key.is_(None),
                                               IdentityRow.deleted.is_(None))
                                        .values(**account))
                    if done.rowcount != 1:  # an account already (another tab claimed it)
                        raise _Unclaimed
                if claim.old is not None:
                    conn.execute(delete(SessionRow).where(SessionRow.digest == claim.old))
                conn.execute(insert(SessionRow), {"digest": claim.digest,
                                                  "identity": claim.identity, "created": now,
                                                  "seen": now, "agent": claim.agent[:MAX_AGENT]})
                conn.execute(delete(RecoveryCodeRow)
                             .where(RecoveryCodeRow.identity == claim.identity))
                if claim.codes:
                    conn.execute(insert(RecoveryCodeRow), [{"identity": claim.identity,
                                                            "digest": d} for d in claim.codes])
        except (IntegrityError, _Unclaimed):  # the unique account_key: taken just now
            return False
        except SQLAlchemyError as exc:
            raise error(StorageError, "err.storage.refused", error=str(exc)[:200]) from None
        return True

    def set_password(self, identity_id: str, password_hash: str, keep: str | None) -> int:
        with transaction(self.engine) as conn:
            conn.execute(update(IdentityRow).where(IdentityRow.id == identity_id)
                         .values(password_hash=password_hash))
            return _drop_sessions(conn, identity_id, keep)

    def set_codes(self, identity_id: str, digests: list[str]) -> None:
        with transaction(self.engine) as conn:
            conn.execute(delete(RecoveryCodeRow)
                         .where(RecoveryCodeRow.identity == identity_id))
            if digests:
                conn.execute(insert(RecoveryCodeRow), [{"identity": identity_id,
                                                        "digest": d} for d in digests])

    def use_code(self, identity_id: str, digest: str) -> bool:
        with transaction(self.engine) as conn:
            done = conn.execute(delete(RecoveryCodeRow)
                                .where(RecoveryCodeRow.identity == identity_id,
                                       RecoveryCodeRow.digest == digest))
        return bool(done.rowcount == 1)

    def delete_account(self, identity_id: str, name: str,
                       rename: Callable[[str, int, str], str]) -> None:
        now = self.clock()
        with transaction(self.engine) as conn:
            played = conn.execute(select(PlayedRow.table_id, PlayedRow.hand_no, PlayedRow.seat)
                                  .where(PlayedRow.identity == identity_id)).all()
            for table_id, hand_no, seat in played:
                text = conn.execute(select(RecordRow.text)
                                    .where(RecordRow.table_id == table_id,
                                           RecordRow.hand_no == hand_no)).scalar()
                if text is not None:
                    conn.execute(update(RecordRow).where(RecordRow.table_id == table_id,
                                                         RecordRow.hand_no == hand_no)
                                 .values(text=rename(text, seat, name)))
            conn.execute(delete(SessionRow).where(SessionRow.identity == identity_id))
            conn.execute(delete(RecoveryCodeRow)
                         .where(RecoveryCodeRow.identity == identity_id))
            conn.execute(delete(DeviceRow).where(DeviceRow.identity == identity_id))
            conn.execute(update(IdentityRow).where(IdentityRow.id == identity_id)
                         .values(name=name, account_key=None, look_key=None,
                                 password_hash=None, deleted=now))

"""Where moderation is kept: blocks, reports, bans, the admins' roles, the audit log and the
server's key for address hashes.

Everything is behind :class:`ModerationStore` (an interface another database can implement);
:class:`SqlModerationStore` keeps it in the server's database (``rows.py``). Every act
of an admin is written to the audit log in the transaction of the act itself: an act without
its line in the log does not happen. The log is only ever added to.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import and_, delete, insert, or_, select, update
from sqlalchemy.engine import CursorResult, Engine, Result
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session

from ...errors import error
from ..accounts.rows import IdentityRow
from ..storage import StorageError
from .rows import AuditRow, BanRow, BlockRow, ReportRow, ServerKeyRow

COMMAND_LINE = "command line"  # the audit log's actor for what the command line did
ADDRESS_KEY = "address"  # the server key's name: the key of the address hashes of bans


@dataclass(frozen=True)
class Report:
    """A report as the admins read it (the names as they are now)."""

    id: int
    reporter: str  # identity ids
    reported: str
    reporter_name: str
    reported_name: str
    reported_account: bool
    reason: str
    text: str
    table_id: str | None
    hand_no: int | None
    at: float
    handled: float | None


@dataclass(frozen=True)
class Ban:
    """An identity or an address (its keyed hash) kept out until ``until``."""

    id: int
    identity: str | None
    address: str | None
    until: float
    reason: str
    by: str
    at: float


@dataclass(frozen=True)
class AuditEntry:
    id: int
    at: float
    actor: str  # an identity's id, or COMMAND_LINE
    action: str
    target: str
    detail: str


@dataclass(frozen=True)
class Block:
    """One player a player blocked (``id``: the blocked identity)."""

    id: str
    name: str
    at: float


class ModerationStore(Protocol):
    """Blocks, reports, bans, roles and the audit log."""

    def server_key(self) -> bytes:
        """The key of the address hashes bans store: made once, then the same everywhere."""

    # blocks
    def block(self, blocker: str, blocked: str) -> None:
        """``blocker`` blocks ``blocked`` (again: nothing changes)."""

    def unblock(self, blocker: str, blocked: str) -> bool:
        """The block removed; False when there was none."""

    def blocks(self, blocker: str) -> list[Block]:
        """Whom ``blocker`` blocked, the latest first."""

    def blocked_by(self, blocker: str) -> set[str]:
        """The identities ``blocker`` blocked (quick match and chat will leave them out)."""

    def blocked_between(self, a: str, b: str) -> bool:
        """Whether either of ``a`` and ``b`` blocked the other."""

    # reports
    def report(self, reporter: str, reported: str, reason: str, text: str,
               table_id: str | None, hand_no: int | None) -> int:
        """Store a report; its id."""

    def reports(self, include_handled: bool = False, limit: int = 200) -> list[Report]:
        """Reports, the newest first (open ones only unless ``include_handled``)."""

    def mark_handled(self, report_id: int, actor: str) -> bool:
        """An admin handled a report (audited); False: no such open report."""

    def forget_reports(self, before: float) -> int:
        """Delete the reports made before ``before`` (retention); how many. The log stays."""

    # bans
    def ban(self, actor: str, until: float, reason: str, identity: str | None = None,
            address: str | None = None, target: str = "") -> Ban:
        """Ban an identity or an address (its hash) until ``until`` (audited, naming ``target``)."""

    def lift(self, ban_id: int, actor: str) -> Ban | None:
        """End a ban now (audited); None: no such ban in force."""

    def bans(self, now: float) -> list[Ban]:
        """The bans in force at ``now``, the latest first."""

    # roles and the log
    def set_role(self, identity_id: str, role: str, actor: str) -> None:
        """Make an identity an admin or a player again (audited: grant, revoke)."""

    def admins(self) -> list[tuple[str, str]]:
        """(id, name) of every admin."""

    def audit(self, actor: str, action: str, target: str, detail: str = "") -> None:
        """Add a line to the audit log."""

    def audit_log(self, limit: int = 200) -> list[AuditEntry]:
        """The audit log, the latest first."""


def _count(result: Result[Any]) -> int:
    """The rows an update or a delete changed."""
    assert isinstance(result, CursorResult)
    return int(result.rowcount)


class SqlModerationStore:
    """Moderation in the server's database."""

    def __init__(self, engine: Engine, clock: Callable[[], float] = time.time) -> None:
        self.engine = engine
        self.clock = clock

    @contextmanager
    def _begin(self) -> Iterator[Session]:
        try:
            with Session(self.engine, expire_on_commit=False) as conn, conn.begin():
                yield conn
        except SQLAlchemyError as exc:
            raise error(StorageError, "err.storage.refused", error=str(exc)[:200]) from None

    def _log(self, conn: Session, actor: str, action: str, target: str, detail: str) -> None:
        conn.execute(insert(AuditRow), {"at": self.clock(), "actor": actor, "action": action,
                                        "target": target, "detail": detail})

    def server_key(self) -> bytes:
        for _ in range(2):  # two processes may make it at once: the one stored wins
            with self._begin() as conn:
                value = conn.execute(select(ServerKeyRow.value)
                                     .where(ServerKeyRow.name == ADDRESS_KEY)).scalar()
            if value is not None:
                return bytes.fromhex(value)
            try:
                with self.engine.begin() as conn:
                    conn.execute(insert(ServerKeyRow), {"name": ADDRESS_KEY,
                                                        "value": secrets.token_hex(32)})
            except IntegrityError:
                continue
        return self.server_key()

    # ------------------------------------------------------------------ blocks
    def block(self, blocker: str, blocked: str) -> None:
        with self._begin() as conn:
            have = conn.execute(select(BlockRow.at).where(BlockRow.blocker == blocker,
                                                          BlockRow.blocked == blocked)).first()
            if have is None:
                conn.execute(insert(BlockRow), {"blocker": blocker, "blocked": blocked,
                                                "at": self.clock()})

    def unblock(self, blocker: str, blocked: str) -> bool:
        with self._begin() as conn:
            gone = conn.execute(delete(BlockRow).where(BlockRow.blocker == blocker,
                                                       BlockRow.blocked == blocked))
        return bool(_count(gone))

    def blocks(self, blocker: str) -> list[Block]:
        with self._begin() as conn:
            rows = conn.execute(select(BlockRow.blocked, IdentityRow.name, BlockRow.at)
                                .join(IdentityRow, IdentityRow.id == BlockRow.blocked)
                                .where(BlockRow.blocker == blocker)
                                .order_by(BlockRow.at.desc())).all()
        return [Block(i, n, at) for i, n, at in rows]

    def blocked_by(self, blocker: str) -> set[str]:
        with self._begin() as conn:
            return set(conn.execute(select(BlockRow.blocked)
                                    .where(BlockRow.blocker == blocker)).scalars())

    def blocked_between(self, a: str, b: str) -> bool:
        with self._begin() as conn:
            return conn.execute(select(BlockRow.at).where(or_(
                and_(BlockRow.blocker == a, BlockRow.blocked == b),
                and_(BlockRow.blocker == b, BlockRow.blocked == a))).limit(1)).first() is not None

    # ------------------------------------------------------------------ reports
    def report(self, reporter: str, reported: str, reason: str, text: str,
               table_id: str | None, hand_no: int | None) -> int:
        with self._begin() as conn:
            made = conn.execute(insert(ReportRow).returning(ReportRow.id), {
                "reporter": reporter, "reported": reported, "reason": reason, "text": text,
                "table_id": table_id, "hand_no": hand_no, "at": self.clock()})
            return int(made.scalar_one())

    def reports(self, include_handled: bool = False, limit: int = 200) -> list[Report]:
        by, of = IdentityRow.__table__.alias("by"), IdentityRow.__table__.alias("of")
        query = (select(ReportRow, by.c.name, of.c.name, of.c.account_key)
                 .join(by, by.c.id == ReportRow.reporter).join(of, of.c.id == ReportRow.reported)
                 .order_by(ReportRow.at.desc(), ReportRow.id.desc()).limit(limit))
        if not include_handled:
            query = query.where(ReportRow.handled.is_(None))
        with self._begin() as conn:
            rows = conn.execute(query).all()
        return [Report(r.id, r.reporter, r.reported, by_name, of_name, key is not None,
                       r.reason, r.text, r.table_id, r.hand_no, r.at, r.handled)
                for r, by_name, of_name, key in rows]

    def mark_handled(self, report_id: int, actor: str) -> bool:
        with self._begin() as conn:
            done = conn.execute(update(ReportRow).where(ReportRow.id == report_id,
                                                        ReportRow.handled.is_(None))
                                .values(handled=self.clock()))
            if not _count(done):
                return False
            self._log(conn, actor, "handled", f"report {report_id}", "")
        return True

    def forget_reports(self, before: float) -> int:
        with self._begin() as conn:
            return _count(conn.execute(delete(ReportRow).where(ReportRow.at < before)))

    # ------------------------------------------------------------------ bans
    def ban(self, actor: str, until: float, reason: str, identity: str | None = None,
            address: str | None = None, target: str = "") -> Ban:
        now = self.clock()
        with self._begin() as conn:
            made = conn.execute(insert(BanRow).returning(BanRow.id), {
                "identity": identity, "address": address, "until": until, "reason": reason,
                "by": actor, "at": now})
            ban = Ban(int(made.scalar_one()), identity, address, until, reason, actor, now)
            ends = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(until))
            self._log(conn, actor, "ban", target or identity or "address",
                      f"{'+ address ' if address else ''}→ {ends}: {reason}")
        return ban

    def lift(self, ban_id: int, actor: str) -> Ban | None:
        now = self.clock()
        with self._begin() as conn:
            row = conn.execute(select(BanRow).where(BanRow.id == ban_id,
                                                    BanRow.until > now)).scalar()
            if row is None:
                return None
            conn.execute(update(BanRow).where(BanRow.id == ban_id).values(until=now))
            self._log(conn, actor, "unban", row.identity or "address", f"ban {ban_id}")
            return Ban(row.id, row.identity, row.address, now, row.reason, row.by, row.at)

    def bans(self, now: float) -> list[Ban]:
        with self._begin() as conn:
            rows = conn.execute(select(BanRow).where(BanRow.until > now)
                                .order_by(BanRow.at.desc(), BanRow.id.desc())).scalars().all()
        return [Ban(r.id, r.identity, r.address, r.until, r.reason, r.by, r.at) for r in rows]

    # ------------------------------------------------------------------ roles and the log
    def set_role(self, identity_id: str, role: str, actor: str) -> None:
        with self._begin() as conn:
            conn.execute(update(IdentityRow).where(IdentityRow.id == identity_id)
                         .values(role=role))
            self._log(conn, actor, "grant" if role == "admin" else "revoke", identity_id, role)

    def admins(self) -> list[tuple[str, str]]:
        with self._begin() as conn:
            rows = conn.execute(select(IdentityRow.id, IdentityRow.name)
                                .where(IdentityRow.role == "admin")
                                .order_by(IdentityRow.name)).all()
        return [(i, n) for i, n in rows]

    def audit(self, actor: str, action: str, target: str, detail: str = "") -> None:
        with self._begin() as conn:
            self._log(conn, actor, action, target, detail)

    def audit_log(self, limit: int = 200) -> list[AuditEntry]:
        with self._begin() as conn:
            rows = conn.execute(select(AuditRow).order_by(AuditRow.at.desc(), AuditRow.id.desc())
                                .limit(limit)).scalars().all()
        return [AuditEntry(r.id, r.at, r.actor, r.action, r.target, r.detail) for r in rows]

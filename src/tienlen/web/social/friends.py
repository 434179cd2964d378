"""Friends and invitations: who asked whom, who are friends (both asked), and the invitations
a player sent a friend to a table.

Friendship is mutual: a player asks, and the other is a friend once they ask back (from a
profile or a seat). Only friends see where the other is (online, at which table), so that
nobody can follow a stranger by asking alone. An invitation goes to a friend only; it is kept
:data:`INVITATION_SECONDS` and shown on the friend's pages. Everything lasting is behind
:class:`FriendStore` (a Redis can implement it); where a player is now comes from the room's
directory of tables (:meth:`~.lobby.directory.Directory.tables_of`), whichever process serves
them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from sqlalchemy import and_, delete, insert, or_, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from ...errors import error
from ..accounts.rows import IdentityRow
from ..storage import StorageError, transaction
from .rows import FriendRow, InvitationRow

INVITATION_SECONDS = 600.0  # an invitation is shown this long
MAX_FRIENDS = 200  # friends and open requests one player may hold


@dataclass(frozen=True)
class Friendship:
    """Another player as ``identity`` sees them: a friend, asked by it, or asking it."""

    id: str
    name: str
    account: bool
    state: str  # friend | asked | asking


@dataclass(frozen=True)
class Invitation:
    id: int
    sender: str  # the sender's name
    sender_id: str  # its identity (never sent to the page)
    table_id: str
    at: float


class FriendStore(Protocol):
    def ask(self, identity: str, friend: str) -> bool:
        """``identity`` asks ``friend``; True when they are friends now (the other had asked)."""

    def remove(self, identity: str, friend: str) -> bool:
        """``identity`` is no longer ``friend``'s friend, nor asking (either way); False: was not."""

    def of(self, identity: str) -> list[Friendship]:
        """Friends, those asked and those asking, by name."""

    def friends(self, a: str, b: str) -> bool:
        """Whether ``a`` and ``b`` asked each other."""

    def count(self, identity: str) -> int:
        """How many players ``identity`` asked."""

    def invite(self, sender: str, recipient: str, table_id: str) -> int:
        """Store an invitation; its id."""

    def invitations(self, recipient: str, since: float) -> list[Invitation]:
        """The invitations to ``recipient`` sent after ``since``, the newest first."""


class SqlFriendStore:
    """Friends and invitations in the server's database."""

    def __init__(self, engine: Engine, clock: Callable[[], float] = time.time) -> None:
        self.engine = engine
        self.clock = clock

    def ask(self, identity: str, friend: str) -> bool:
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(FriendRow), {"identity": identity, "friend": friend,
                                                 "at": self.clock()})
        except IntegrityError:  # asked already
            pass
        except SQLAlchemyError as exc:
            raise error(StorageError, "err.storage.refused", error=str(exc)[:200]) from None
        return self.friends(identity, friend)

    def remove(self, identity: str, friend: str) -> bool:
        with transaction(self.engine) as conn:
            gone = conn.execute(delete(FriendRow).where(or_(
                and_(FriendRow.identity == identity, FriendRow.friend == friend),
                and_(FriendRow.identity == friend, FriendRow.friend == identity))))
        return bool(gone.rowcount)

    def of(self, identity: str) -> list[Friendship]:
        with transaction(self.engine) as conn:
            asked = {f for (f,) in conn.execute(select(FriendRow.friend)
                                                .where(FriendRow.identity == identity))}
            asking = {i for (i,) in conn.execute(select(FriendRow.identity)
                                                 .where(FriendRow.friend == identity))}
            rows = conn.execute(select(IdentityRow.id, IdentityRow.name, IdentityRow.account_key)
                                .where(IdentityRow.id.in_(asked | asking),
                                       IdentityRow.deleted.is_(None))).all()
        out = [Friendship(i, name, key is not None,
                          "friend" if i in asked and i in asking else
                          "asked" if i in asked else "asking") for i, name, key in rows]
        order = {"friend": 0, "asking": 1, "asked": 2}
        return sorted(out, key=lambda f: (order[f.state], f.name.casefold()))

    def friends(self, a: str, b: str) -> bool:
        with transaction(self.engine) as conn:
            n = conn.execute(select(FriendRow.at).where(or_(
                and_(FriendRow.identity == a, FriendRow.friend == b),
                and_(FriendRow.identity == b, FriendRow.friend == a)))).all()
        return len(n) == 2

    def count(self, identity: str) -> int:
        with transaction(self.engine) as conn:
            return len(conn.execute(select(FriendRow.friend)
                                    .where(FriendRow.identity == identity)).all())

    def invite(self, sender: str, recipient: str, table_id: str) -> int:
        with transaction(self.engine) as conn:
            made = conn.execute(insert(InvitationRow).returning(InvitationRow.id),
                                {"sender": sender, "recipient": recipient,
                                 "table_id": table_id, "at": self.clock()})
            return int(made.scalar_one())

    def invitations(self, recipient: str, since: float) -> list[Invitation]:
        with transaction(self.engine) as conn:
            rows = conn.execute(select(InvitationRow.id, IdentityRow.name, InvitationRow.sender,
                                       InvitationRow.table_id, InvitationRow.at)
                                .join(IdentityRow, IdentityRow.id == InvitationRow.sender)
                                .where(InvitationRow.recipient == recipient,
                                       InvitationRow.at > since)
                                .order_by(InvitationRow.at.desc()).limit(20)).all()
        return [Invitation(*row) for row in rows]

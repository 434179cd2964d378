"""The social rows: friendships (asked one way, friends both ways) and invitations to a table.
The store: ``friends.py`` (``SqlFriendStore``).
"""

from __future__ import annotations

from sqlalchemy import Float, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from ..storage import Base


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

"""The room's row: what was said at a table (``chat.py``'s ``SqlChatStore``), kept for the
admins reading a report, swept after ``--keep-chat`` days.
"""

from __future__ import annotations

from sqlalchemy import Float, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from ..storage import Base


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

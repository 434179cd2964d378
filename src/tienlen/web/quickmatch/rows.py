"""Quick match's row: a player waiting (or just matched) in the queue. The store:
``matchqueue.py`` (``SqlMatchQueue``).
"""

from __future__ import annotations

from sqlalchemy import Float, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from ..storage import Base


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

"""The records' row: a finished hand of a private table shared by its host (the hash of the
link's secret). Read and written by ``routes/hand_access.py``, the one check every route that
serves a stored hand goes through; the records themselves are the tables' (``tablelog/``).
"""

from __future__ import annotations

from sqlalchemy import Float, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from ..storage import Base


class ShareRow(Base):
    """A finished hand of a private table its host shared (``hand_access.py``): the SHA-256 of
    the link's secret (the secret itself is only in the link), the hand it opens, who made it."""

    __tablename__ = "tienlen_shares"
    digest: Mapped[str] = mapped_column(String(64), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(32), index=True)
    hand_no: Mapped[int] = mapped_column(Integer)
    by: Mapped[str] = mapped_column(String(64))  # the host's identity (or "seat N": a token's)
    at: Mapped[float] = mapped_column(Float)

"""The ratings' rows: each player's rating in each family, and its curve (a point after every
rated hand). The store: ``store.py`` (``SqlRatingStore``).
"""

from __future__ import annotations

from sqlalchemy import Boolean, Float, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from ..storage import AddedColumn, Base


class RatingRow(Base):
    """A player's rating in one family (``ratings/store.py``: ``SqlRatingStore``); ``hands`` is also
    the row's version: an update writes only over the hands it read."""

    __tablename__ = "tienlen_ratings"
    player: Mapped[str] = mapped_column(String(64), primary_key=True)
    family: Mapped[str] = mapped_column(String(16), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    hands: Mapped[int] = mapped_column(Integer)
    firsts: Mapped[int] = mapped_column(Integer)
    updated: Mapped[float] = mapped_column(Float)


class RatingHistoryRow(Base):
    """A player's rating in one family after each rated hand (its curve and trend)."""

    __tablename__ = "tienlen_rating_history"
    player: Mapped[str] = mapped_column(String(64), primary_key=True)
    family: Mapped[str] = mapped_column(String(16), primary_key=True)
    hands: Mapped[int] = mapped_column(Integer, primary_key=True)  # rated hands after this one
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    at: Mapped[float] = mapped_column(Float)
    # after a hand of a private table: a point only the player's own profile shows
    private: Mapped[bool] = mapped_column(Boolean, default=False)


# rating history columns added after the first release (schema.py adds them to an older
# database)
ADDED_HISTORY_COLUMNS: tuple[AddedColumn, ...] = (("private", "BOOLEAN", "FALSE"),)

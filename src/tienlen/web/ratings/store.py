"""Where ratings are kept: a :class:`RatingStore` (an interface another store, Redis, can
implement later), held in memory or in the server's database through SQLAlchemy.

Every update is one transaction that reads the players' ratings, computes the new ones and
writes them: two hands ending at once never lose an update. The SQL store writes a rating
only over the version it read (its rated hands: a compare-and-set) and, when another hand
wrote first, reads again and retries; a Redis store would do the same with WATCH and MULTI.
Nothing lives in the process but the connection.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Protocol, TypeVar

from sqlalchemy import and_, delete, insert, select, update
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError, OperationalError, SQLAlchemyError
from sqlalchemy.orm import aliased

from ...errors import error
from ..storage import StorageError
from .ratings import PROVISIONAL_HANDS, Rating, Seated, rate_hand, shown
from .rows import RatingHistoryRow, RatingRow

TREND_HANDS: Final = 10  # the trend: the change of the rating shown over the last this many hands
RETRIES: Final = 20  # an update that keeps meeting another's write gives up after this many

T = TypeVar("T")
Change = Callable[[dict[str, Rating]], Mapping[str, Rating]]


@dataclass(frozen=True)
class Point:
    """A rating after one rated hand (a point of the player's curve)."""

    hands: int
    mu: float
    sigma: float
    at: float
    private: bool = False  # after a hand of a private table

    @property
    def conservative(self) -> float:
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class Standing:
    """A line of the leaderboard: the player, the rating, and its trend (the change of the
    rating shown, :func:`~.ratings.shown`, over the last :data:`TREND_HANDS` rated hands; None:
    no point that far)."""

    player: str
    rating: Rating
    trend: int | None


class RatingStore(Protocol):
    """Players' ratings per family, their curves, and the leaderboard."""

    def get(self, player: str, family: str) -> Rating | None:
        """The player's rating in the family (None: never rated in it)."""

    def put(self, player: str, family: str, rating: Rating) -> None:
        """Set a rating (and its point of the curve), whatever was there."""

    def update(self, family: str, players: Collection[str], change: Change) -> dict[str, Rating]:
        """In one transaction: read the players' ratings (those never rated left out), ask
        ``change`` for the new ones, write them with their points of the curve; returns them."""

    def history(self, player: str, family: str, limit: int = 100,
                private: bool = True) -> list[Point]:
        """The player's last ``limit`` ratings in the family, oldest first (``private``
        False: those after a private table's hands left out, as others see the curve)."""

    def leaderboard(self, family: str, limit: int = 50) -> list[Standing]:
        """The players with at least :data:`PROVISIONAL_HANDS` rated hands, best first by
        mu - 3 sigma (ties by player id)."""


def record_hand(store: RatingStore, family: str, seats: Sequence[Seated],
                finish_order: Sequence[int], left: Collection[int] = ()) -> dict[str, Rating]:
    """Rate one finished hand in the store (see :func:`ratings.rate_hand`), in one transaction."""
    players = [s for s in seats if isinstance(s, str)]
    return store.update(family, players,
                        lambda before: rate_hand(family, seats, finish_order, before, left))


def _trend(rating: Rating, then: Point | Rating | None) -> int | None:
    return None if then is None else rating.shown - shown(then.mu)


class MemoryRatingStore:
    """Ratings in this process (tests, a server without a database)."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._ratings: dict[tuple[str, str], Rating] = {}
        self._history: dict[tuple[str, str], dict[int, Point]] = {}
        self._lock = threading.Lock()
        self._clock = clock

    def get(self, player: str, family: str) -> Rating | None:
        return self._ratings.get((player, family))

    def _put(self, player: str, family: str, rating: Rating) -> None:
        self._ratings[player, family] = rating
        self._history.setdefault((player, family), {})[rating.hands] = Point(
            rating.hands, rating.mu, rating.sigma, self._clock())

    def put(self, player: str, family: str, rating: Rating) -> None:
        with self._lock:
            self._put(player, family, rating)

    def update(self, family: str, players: Collection[str], change: Change) -> dict[str, Rating]:
        with self._lock:
            before = {p: r for p in players if (r := self._ratings.get((p, family))) is not None}
            after = dict(change(before))
            for player, rating in after.items():
                self._put(player, family, rating)
            return after

    def history(self, player: str, family: str, limit: int = 100,
                private: bool = True) -> list[Point]:
        points = self._history.get((player, family), {})
        return [points[n] for n in sorted(points) if private or not points[n].private][-limit:]

    def leaderboard(self, family: str, limit: int = 50) -> list[Standing]:
        rows = [(p, r) for (p, f), r in self._ratings.items()
                if f == family and r.hands >= PROVISIONAL_HANDS]
        rows.sort(key=lambda row: (-row[1].mu, row[0]))
        return [Standing(p, r, _trend(r, self._history[p, family].get(r.hands - TREND_HANDS)))
                for p, r in rows[:limit]]


class _Conflict(Exception):
    """Another transaction wrote a rating this one read."""


class SqlRatingStore:
    """Ratings in the server's database (SQLite or PostgreSQL; the tables are ``rows.py``'s,
    made with every other feature's by ``schema.open_repository``)."""

    def __init__(self, engine: Engine, clock: Callable[[], float] = time.time) -> None:
        self.engine = engine
        self._clock = clock

    def get(self, player: str, family: str) -> Rating | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(RatingRow.mu, RatingRow.sigma, RatingRow.hands,
                                      RatingRow.firsts)
                               .where(RatingRow.player == player, RatingRow.family == family)).first()
        return None if row is None else Rating(*row)

    def put(self, player: str, family: str, rating: Rating) -> None:
        def write(conn: Connection) -> None:
            conn.execute(delete(RatingRow).where(RatingRow.player == player,
                                                 RatingRow.family == family))
            self._insert(conn, player, family, rating)
        self._transaction(write)

    def update(self, family: str, players: Collection[str], change: Change) -> dict[str, Rating]:
        return self._transaction(lambda conn: self._update(conn, family, players, change))

    def update_in(self, conn: Connection, family: str, players: Collection[str],
                  change: Change, private: bool = False) -> dict[str, Rating]:
        """:meth:`update` inside a transaction of the caller's (the one that stores a hand's
        record, ``private``: a private table's, whose points of the curve only their players'
        own profiles show): all of it is written, or none; a rating another writer changed
        meanwhile refuses the whole transaction (StorageError), which the caller makes again."""
        try:
            return self._update(conn, family, players, change, private)
        except _Conflict:
            raise error(StorageError, "err.storage.refused",
                        error="a rating was written meanwhile") from None

    def _update(self, conn: Connection, family: str, players: Collection[str],
                change: Change, private: bool = False) -> dict[str, Rating]:
        rows = conn.execute(select(RatingRow.player, RatingRow.mu, RatingRow.sigma,
                                   RatingRow.hands, RatingRow.firsts)
                            .where(RatingRow.family == family,
                                   RatingRow.player.in_(list(players))))
        before = {p: Rating(mu, sigma, hands, firsts) for p, mu, sigma, hands, firsts in rows}
        after = dict(change(dict(before)))
        for player in sorted(after):  # one order for every writer: no deadlock
            rating, old = after[player], before.get(player)
            if old is None:  # two inserts: one is refused
                self._insert(conn, player, family, rating, private)
                continue
            done = conn.execute(
                update(RatingRow)
                .where(RatingRow.player == player, RatingRow.family == family,
                       RatingRow.hands == old.hands)
                .values(mu=rating.mu, sigma=rating.sigma, hands=rating.hands,
                        firsts=rating.firsts, updated=self._clock()))
            if done.rowcount != 1:
                raise _Conflict
            self._point(conn, player, family, rating, private)
        return after

    def _insert(self, conn: Connection, player: str, family: str, rating: Rating,
                private: bool = False) -> None:
        conn.execute(insert(RatingRow), {"player": player, "family": family, "mu": rating.mu,
                                         "sigma": rating.sigma, "hands": rating.hands,
                                         "firsts": rating.firsts, "updated": self._clock()})
        self._point(conn, player, family, rating, private)

    def _point(self, conn: Connection, player: str, family: str, rating: Rating,
               private: bool = False) -> None:
        conn.execute(delete(RatingHistoryRow).where(
            RatingHistoryRow.player == player, RatingHistoryRow.family == family,
            RatingHistoryRow.hands == rating.hands))
        conn.execute(insert(RatingHistoryRow), {"player": player, "family": family,
                                                "hands": rating.hands, "mu": rating.mu,
                                                "sigma": rating.sigma, "at": self._clock(),
                                                "private": private})

    def _transaction(self, write: Callable[[Connection], T]) -> T:
        """``write`` in one transaction, again from the start when another writer came first
        (a changed version, a refused insert, a lock or deadlock the database broke)."""
        for attempt in range(RETRIES):
            try:
                with self.engine.begin() as conn:
                    return write(conn)
            except (_Conflict, IntegrityError, OperationalError):
                time.sleep(0.001 * attempt)
            except SQLAlchemyError as exc:
                raise error(StorageError, "err.storage.refused",
                            error=exc.__class__.__name__) from None
        raise error(StorageError, "err.storage.refused", error="too many conflicting writes")

    def history(self, player: str, family: str, limit: int = 100,
                private: bool = True) -> list[Point]:
        h = RatingHistoryRow
        shown = [] if private else [h.private.is_not(True)]
        with self.engine.connect() as conn:
            rows = conn.execute(select(h.hands, h.mu, h.sigma, h.at, h.private)
                                .where(h.player == player, h.family == family, *shown)
                                .order_by(h.hands.desc()).limit(limit)).all()
        return [Point(n, mu, sigma, at, bool(private))
                for n, mu, sigma, at, private in reversed(rows)]

    def leaderboard(self, family: str, limit: int = 50) -> list[Standing]:
        r, then = RatingRow, aliased(RatingHistoryRow)
        query = (select(r.player, r.mu, r.sigma, r.hands, r.firsts, then.mu, then.sigma)
                 .outerjoin(then, and_(then.player == r.player, then.family == r.family,
                                       then.hands == r.hands - TREND_HANDS))
                 .where(r.family == family, r.hands >= PROVISIONAL_HANDS)
                 .order_by(r.mu.desc(), r.player).limit(limit))
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        out = []
        for player, mu, sigma, hands, firsts, then_mu, then_sigma in rows:
            rating = Rating(mu, sigma, hands, firsts)
            past = None if then_mu is None else Rating(then_mu, then_sigma)
            out.append(Standing(player, rating, _trend(rating, past)))
        return out

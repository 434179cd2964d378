"""What a finished hand writes for its players, in the transaction that stores its record.

Every identity that held a seat when the hand began gets a :class:`~.accounts.rows.PlayedRow` (its
place, the table's family or None when the table is not rated, whether the table is private),
at any table; a bots-only table, or one whose players are known by their tokens alone, writes
nothing (``TableState`` gives no :class:`~.tablelog.writes.HandEnd` then). At a rated table the same
transaction rates the hand (:func:`~.ratings.rate_hand`): the identities by their finish, a
player gone when it ended last (Leave, a kick or a closed tab alike:
``TableState.absent_at_end``), the bots at their levels' anchors. A seat held by a token only
(no identity; a rated table seats none now, but an older release's may hold one) is
**nobody**: it enters the finish order as a new player of unknown skill (openskill's starting
rating), so that finishing ahead of or behind it counts as it would against any newcomer, and
its own rating is kept nowhere.

Written with the move that ends the hand (the log row, the record, these rows: one transaction,
the committer's group commit), a hand is rated once: a restart replays the move
from the log and writes nothing again; a repeated write of the same hand (a PlayedRow already
there) changes nothing.
"""

from __future__ import annotations

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection

from ..accounts.rows import PlayedRow
from ..ratings.anchors import MEASURED
from ..ratings.ratings import Bot, Rating, Seated, places, rate_hand
from ..ratings.store import SqlRatingStore
from ..tablelog.writes import HandEnd

NOBODY = "\x00seat"  # the prefix of a nobody's stand-in id (no identity's id has it)


def seated(end: HandEnd) -> list[Seated]:
    """Who each seat was for the rating: an identity's id, a bot at its level (one with no
    measured anchor in the family, and a seat held by a token only: a stand-in nobody, see the
    module's text). An identity at two seats (an unrated table allows it) is rated at neither."""
    anchors = MEASURED.get(end.family or "", {}).get("anchors", {})
    seen = [o for o in end.owners if o is not None]
    out: list[Seated] = []
    for seat, (owner, level) in enumerate(zip(end.owners, end.levels, strict=True)):
        if owner is not None and seen.count(owner) == 1:
            out.append(owner)
        elif owner is None and level is not None and level in anchors:
            out.append(Bot(level))
        else:
            out.append(f"{NOBODY}{seat}")
    return out


class HandWriter:
    """The :data:`~.tablelog.writes.HandWriter` the server's repository calls for each finished hand
    that people sat in: their PlayedRow rows and, at a rated table, the rating update (in
    ``ratings``, a store on the same database)."""

    def __init__(self, ratings: SqlRatingStore) -> None:
        self.ratings = ratings

    def __call__(self, conn: Connection, table_id: str, end: HandEnd, now: float) -> None:
        ranks = places(end.finish_order, end.left)
        rows = {}
        for seat, owner in enumerate(end.owners):
            if owner is not None and owner not in rows:  # an identity's first seat of the hand
                rows[owner] = {"identity": owner, "table_id": table_id, "hand_no": end.hand_no,
                               "seat": seat, "place": ranks[seat] + 1, "family": end.family,
                               "private": end.private, "at": now}
        if not rows:
            return
        known = conn.execute(select(PlayedRow.identity).where(
            PlayedRow.table_id == table_id, PlayedRow.hand_no == end.hand_no)).first()
        if known is not None:  # this hand was written already: not again, nor rated twice
            return
        conn.execute(insert(PlayedRow), list(rows.values()))
        if end.family is not None:
            self.rate(conn, table_id, end.family, end)

    def rate(self, conn: Connection, table_id: str, family: str, end: HandEnd) -> None:
        seats = seated(end)
        players = [s for s in seats if isinstance(s, str) and not s.startswith(NOBODY)]
        if not players:
            return

        was: dict[str, Rating] = {}

        def change(before: dict[str, Rating]) -> dict[str, Rating]:
            was.update(before)
            after = rate_hand(family, seats, end.finish_order, before, end.left)
            return {p: after[p] for p in players}

        after = self.ratings.update_in(conn, family, players, change, end.private)
        for player, rating in after.items():  # what the hand's end says to each of them
            conn.execute(update(PlayedRow).where(
                PlayedRow.identity == player, PlayedRow.table_id == table_id,
                PlayedRow.hand_no == end.hand_no).values(
                mu_before=was.get(player, Rating()).mu, mu_after=rating.mu,
                rated_hands=rating.hands))

"""What a profile and the leaderboard show, read from the stored hands and ratings.

A profile is an identity's ratings per family (with the curve of each), the hands it played
(at any table: ``PlayedRow``) and the first places among them, and its last hands; the
player's own profile also lists the people it played with lately. A private table's hands
count in the player's own totals and rating; a hand is listed only to a viewer who sat in
that hand (the player themself included), and anyone but the player sees the rating as it
stood after its last public hand, its hands, first places and curve counted in public hands
alone: to them the private hands are not there, so that nobody learns from a profile when,
where or how a private hand went (``hand_access.py``). The leaderboard is the rating
store's (by the rating shown, players with at least 20 rated hands), its players named as
they are now (a deleted account as "deleted player", in the reader's language). Each rating
goes out as the number players see (``rating``: :func:`~.ratings.shown`, ``spread``: its
doubt in the same points) beside the model's own (``mu``, ``sigma``, ``conservative``).
"""

from __future__ import annotations

import dataclasses
import tomllib
from typing import Any, Final
from urllib.parse import quote

from sqlalchemy import and_, func, or_, select
from sqlalchemy.engine import Engine
from sqlalchemy.sql.elements import ColumnElement

from ...i18n import t
from ..ratings.ratings import FAMILIES, PROVISIONAL_HANDS, Rating, shown, shown_spread
from ..ratings.store import Point, RatingStore
from ..tablelog.names import title_fields
from ..tablelog.rows import RecordRow, TableRow
from .identity import Identity
from .rows import IdentityRow, PlayedRow

RECENT: Final = 20  # hands a profile lists
OPPONENTS: Final = 12  # recent opponents the player's own profile lists
CURVE: Final = 100  # points of a rating's curve
_HEAD: Final = 1200  # characters of a record that hold its header (the players' names)


def profile_link(identity: Identity) -> str | None:
    """An account's profile page (a guest has none, nor a deleted account)."""
    return f"/p/{quote(identity.name)}" if identity.account and not identity.deleted else None


def empty_profile() -> dict[str, Any]:
    """The profile of a browser the room does not know yet."""
    return {"name": None, "account": False, "profile": None, "ratings": [], "hands": 0,
            "firsts": 0, "recent": [], "opponents": []}


def _names(head: str) -> list[str]:
    """The players' names from the start of a record (its header, before the first hand)."""
    try:
        names = tomllib.loads(head.split("\n[[", 1)[0]).get("players", [])
    except tomllib.TOMLDecodeError:
        return []
    return [str(n) for n in names]


def profile(engine: Engine, ratings: RatingStore, who: Identity,
            viewer: str | None) -> dict[str, Any]:
    """``who``'s profile as ``viewer`` (an identity's id, None: a browser not known) sees it."""
    ratings_out = []
    for family in FAMILIES:
        rating = ratings.get(who.id, family)
        if rating is None:
            continue
        own = viewer == who.id
        points = ratings.history(who.id, family, CURVE, private=own)
        if not own:  # as of its last public hand, counted in public hands alone
            rating, points = _public(engine, who.id, family, points)
            if rating is None:
                continue
        curve = [{"hands": p.hands, "mu": p.mu, "sigma": p.sigma, "at": p.at,
                  "rating": shown(p.mu), "spread": shown_spread(p.sigma)} for p in points]
        ratings_out.append({"family": family, "rating": rating.shown,
                            "spread": shown_spread(rating.sigma), "mu": rating.mu,
                            "sigma": rating.sigma,
                            "conservative": rating.conservative, "hands": rating.hands,
                            "firsts": rating.firsts, "provisional": rating.provisional,
                            "curve": curve})
    p, r = PlayedRow, RecordRow
    mine = p.identity == who.id
    listed: ColumnElement[bool] = p.private.is_(False)
    if viewer is not None:  # a private hand the viewer sat in too
        sat = PlayedRow.__table__.alias("sat")
        listed = or_(listed, select(sat.c.hand_no).where(
            sat.c.identity == viewer, sat.c.table_id == p.table_id,
            sat.c.hand_no == p.hand_no).exists())
    counted = mine if viewer == who.id else and_(mine, p.private.is_(False))
    with engine.connect() as conn:
        hands, firsts = conn.execute(select(func.count(), func.count().filter(p.place == 1))
                                     .where(counted)).one()
        rows = conn.execute(
            select(p.table_id, p.hand_no, p.seat, p.place, p.family, p.at,
                   func.substr(r.text, 1, _HEAD), TableRow.name)
            .outerjoin(r, and_(r.table_id == p.table_id, r.hand_no == p.hand_no))
            .outerjoin(TableRow, TableRow.id == p.table_id)
            .where(mine, listed).order_by(p.at.desc(), p.hand_no.desc()).limit(RECENT)).all()
    recent = [{"table": table, "hand": hand, "seat": seat, "place": place,
               "players": _names(head or ""), "family": family, "at": at,
               "table_name": name or "", "title": title_fields(name or "", table, family),
               "record": f"/api/tables/{table}/records/{hand}",
               # replayed on a felt of its own, the table open or closed (its record stays)
               "replay": f"/replay/{table}/{hand}"}
              for table, hand, seat, place, family, at, head, name in rows]
    return {"name": who.name, "account": who.account, "profile": profile_link(who),
            "ratings": ratings_out, "hands": int(hands), "firsts": int(firsts or 0),
            "recent": recent,
            "opponents": recent_opponents(engine, who.id) if viewer == who.id else []}


def hand_rating(engine: Engine, identity_id: str, table_id: str,
                hand_no: int) -> dict[str, Any] | None:
    """How one rated hand moved ``identity_id``'s rating (None: they were not rated in it):
    its family, the rating shown before and after it, the change, their rated hands after it
    and whether the rating is still provisional then."""
    p = PlayedRow
    with engine.connect() as conn:
        row = conn.execute(select(p.family, p.mu_before, p.mu_after, p.rated_hands).where(
            p.identity == identity_id, p.table_id == table_id, p.hand_no == hand_no)).first()
    if row is None or row.family is None or row.mu_after is None or row.mu_before is None:
        return None
    before, after, hands = shown(row.mu_before), shown(row.mu_after), int(row.rated_hands or 0)
    return {"family": row.family, "before": before, "after": after, "change": after - before,
            "hands": hands, "provisional": hands < PROVISIONAL_HANDS}


def _public(engine: Engine, player: str, family: str,
            points: list[Point]) -> tuple[Rating | None, list[Point]]:
    """``player``'s rating in ``family`` as anyone else sees it: as it stood after its last
    public hand (``points``: the public points of its curve, the last ones), its hands and
    first places counted in public hands only, each point numbered by the public hands up to
    it (so that no gap shows where a private hand was). None: no public rated hand."""
    p = PlayedRow
    with engine.connect() as conn:
        hands, firsts = conn.execute(
            select(func.count(), func.count().filter(p.place == 1))
            .where(p.identity == player, p.family == family, p.private.is_(False))).one()
    if not points or not hands:
        return None, []
    first = int(hands) - len(points) + 1
    points = [dataclasses.replace(point, hands=max(1, first + i)) for i, point in enumerate(points)]
    last = points[-1]
    return Rating(last.mu, last.sigma, last.hands, int(firsts or 0)), points


def recent_opponents(engine: Engine, identity_id: str,
                     limit: int = OPPONENTS) -> list[dict[str, Any]]:
    """The people ``identity_id`` sat with lately (bots are no identities), the latest first:
    each one's name as it is now, profile (an account's), hands together and the last one's
    time. A deleted account is left out. Only the player's own profile lists them (who one
    played with is theirs to see, a private table's companions included)."""
    mine, theirs = PlayedRow.__table__.alias("mine"), PlayedRow.__table__.alias("theirs")
    last = func.max(theirs.c.at)
    with engine.connect() as conn:
        rows = conn.execute(
            select(theirs.c.identity, func.count(), last)
            .join(mine, and_(mine.c.table_id == theirs.c.table_id,
                             mine.c.hand_no == theirs.c.hand_no))
            .where(mine.c.identity == identity_id, theirs.c.identity != identity_id)
            .group_by(theirs.c.identity).order_by(last.desc()).limit(limit)).all()
        ids = [i for i, _, _ in rows]
        found = {i: Identity(i, name, key is not None) for i, name, key in conn.execute(
            select(IdentityRow.id, IdentityRow.name, IdentityRow.account_key)
            .where(IdentityRow.id.in_(ids), IdentityRow.deleted.is_(None)))}
    return [{"name": found[i].name, "account": found[i].account,
             "profile": profile_link(found[i]), "hands": int(n), "at": at}
            for i, n, at in rows if i in found]


def leaderboard(engine: Engine, ratings: RatingStore, family: str, lang: str,
                limit: int = 50) -> dict[str, Any]:
    """The family's leaderboard, its players named as they are now."""
    standings = ratings.leaderboard(family, limit)
    ids = [s.player for s in standings]
    with engine.connect() as conn:
        found = conn.execute(select(IdentityRow.id, IdentityRow.name, IdentityRow.account_key,
                                    IdentityRow.deleted).where(IdentityRow.id.in_(ids))).all()
    who = {i: Identity(i, name, key is not None, deleted=deleted is not None)
           for i, name, key, deleted in found}
    rows = []
    for rank, standing in enumerate(standings, 1):
        identity = who.get(standing.player)
        gone = identity is None or identity.deleted
        rating = standing.rating
        rows.append({"rank": rank,
                     "name": t("web.board.deleted", lang) if gone or identity is None
                     else identity.name,
                     "profile": None if identity is None else profile_link(identity),
                     "account": identity is not None and identity.account and not gone,
                     "rating": rating.shown, "spread": shown_spread(rating.sigma),
                     "conservative": rating.conservative, "mu": rating.mu,
                     "sigma": rating.sigma, "hands": rating.hands, "firsts": rating.firsts,
                     "trend": standing.trend})
    return {"family": family, "families": list(FAMILIES), "min_hands": PROVISIONAL_HANDS,
            "rows": rows}

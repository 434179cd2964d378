"""Players seen from outside a table: an account's profile, the player's own, the leaderboard.
Each only reads the database: plain ``def`` handlers, run in FastAPI's thread pool."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request
from fastapi import Path as PathParam

from ...i18n import msg
from ..accounts.names import MAX_NAME, RAW_FACTOR, account_key
from ..accounts.profiles import empty_profile, hand_rating, leaderboard, profile
from ..accounts.session import identity_of
from ..http.problems import answers, request_lang
from ..refusal import Refused
from ..services import Svc, TableId
from .hand_access import Readable
from .moderation import Target, target_of

router = APIRouter()

Family = Literal["southern", "northern", "published"]  # ratings.FAMILIES
HandNo = Annotated[int, PathParam(ge=1, le=1_000_000)]
SeatNo = Annotated[int, PathParam(ge=0, le=7)]
PlayerName = Annotated[str, PathParam(min_length=1, max_length=MAX_NAME * RAW_FACTOR)]


@router.get("/api/players/{name}", responses=answers(404, 422))
def player(name: PlayerName, request: Request, svc: Svc) -> dict[str, Any]:
    """An account's profile (a guest has none: only its own browser sees it, at /api/me/profile);
    a private table's hands are listed only to a viewer who sat in them, and the points of the
    rating's curve after them only to the player themself (profiles.py)."""
    who = svc.identities.by_account(account_key(name))
    if who is None:
        raise Refused(msg("err.web.no_player", name=repr(name)), status=404)
    viewer = identity_of(request, svc.identities)
    return profile(svc.repo.engine, svc.ratings, who, viewer.id if viewer is not None else None)


@router.get("/api/tables/{table_id}/seats/{seat}/player", responses=answers(404, 410, 422))
def seat_player(table_id: TableId, seat: SeatNo, request: Request, svc: Svc) -> dict[str, Any]:
    """The player at a seat, as anyone may look them up (a guest too, who has no page of their
    own): their profile as :func:`player` shows an account's to this viewer, and ``relation``,
    what they are to the viewer: ``self``, ``friend``, ``asked`` (the viewer asked them),
    ``asking`` (they asked the viewer) or None. 404: a bot's seat, an empty one."""
    who = target_of(svc, Target(table=table_id, seat=seat))
    viewer = identity_of(request, svc.identities)
    seen = profile(svc.repo.engine, svc.ratings, who, viewer.id if viewer is not None else None)
    relation = None
    if viewer is not None and viewer.id == who.id:
        relation = "self"
    elif viewer is not None:
        relation = next((f.state for f in svc.friends.of(viewer.id) if f.id == who.id), None)
    return {**seen, "opponents": [], "relation": relation}


@router.get("/api/me/profile")
def my_profile(request: Request, svc: Svc) -> dict[str, Any]:
    """The profile of this browser's identity, a guest's too (a browser not known yet: empty)."""
    me = identity_of(request, svc.identities)
    if me is None:
        return empty_profile()
    return profile(svc.repo.engine, svc.ratings, me, me.id)


@router.get("/api/me/hands/{table_id}/{hand_no}/rating", responses=answers(404, 422))
def my_hand_rating(table_id: TableId, hand_no: HandNo, request: Request, svc: Svc,
                   access: Readable) -> dict[str, Any]:
    """How this browser's identity's rating moved in one rated hand it played (what the end of
    the hand shows); 404: not a rated hand of theirs (not played, not rated, or not over), or
    a hand it may not read (the one check of every route naming a hand: hand_access.py)."""
    if not access.may(hand_no):
        raise access.refused()
    me = identity_of(request, svc.identities)
    found = None if me is None else hand_rating(svc.repo.engine, me.id, table_id, hand_no)
    if found is None:
        raise Refused(msg("err.web.no_rated_hand", hand=hand_no), status=404)
    return found


@router.get("/api/leaderboard", responses=answers(422))
def board(request: Request, svc: Svc, family: Family = "southern") -> dict[str, Any]:
    """The players with at least 20 rated hands in the family, best first by their rating."""
    return leaderboard(svc.repo.engine, svc.ratings, family, request_lang(request))

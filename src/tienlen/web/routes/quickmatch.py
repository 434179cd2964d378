"""Quick match's API: "Play now" (join the queue), where one stands in it, cancel; and the
lobby's counts (players online, playing, waiting). The queue is in the database: plain ``def``
handlers, in FastAPI's thread pool, reading a matched table's seats in the room's directory
(whichever process serves it)."""

from __future__ import annotations

from typing import Any, Literal, get_args

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from ...i18n import msg
from ..accounts.identity import Identity
from ..accounts.names import MAX_NAME, RAW_FACTOR, BadName, check_not_account, clean_name
from ..accounts.session import device_of, identity_of, owner_for, sat_down
from ..http.problems import answers
from ..quickmatch.matchqueue import QueueEntry, by_queue
from ..ratings.ratings import FAMILIES, Rating
from ..refusal import Refused
from ..services import Services, Svc, address_of
from .presence import counts

router = APIRouter()

Family = Literal["southern", "northern", "published"]  # ratings.FAMILIES
assert set(get_args(Family)) == set(FAMILIES)


class PlayNow(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    family: Family = "southern"
    players: int = Field(default=4, ge=2, le=8)
    # the name a browser not known yet sits under (it becomes a guest of that name)
    name: str | None = Field(default=None, min_length=1, max_length=MAX_NAME * RAW_FACTOR)


def _state(svc: Services, me: Identity | None) -> dict[str, Any]:
    """Where ``me`` stands in quick match: waiting (how long, with how many in its queue, and
    ``fill_in``: the seconds until bots fill the seats people did not, when the queue's oldest
    entry has waited the room's wait), matched (the table, and whether the seat is theirs only
    from the next hand), or none."""
    entry = svc.queue.get(me.id) if me is not None else None
    if entry is None:
        return {"state": "none", "waited": 0.0, "table": None, "waiting": 0}
    now = svc.clock.wall()
    queue = by_queue(svc.queue.waiting()).get((entry.family, entry.size), [])  # one read
    out: dict[str, Any] = {"family": entry.family, "players": entry.size,
                           "waited": round(max(0.0, (entry.matched or now) - entry.joined), 1),
                           "waiting": len(queue)}
    if entry.waiting:
        oldest = min([e.joined for e in queue] + [entry.joined])
        fill_in = max(0.0, oldest + svc.limits.match_wait - now)
        return {"state": "waiting", "table": None, "fill_in": round(fill_in, 1), **out}
    table = svc.directory.get(entry.table_id) \
        if entry.table_id is not None and entry.seat is not None else None
    kept = table.kept.get(entry.seat) if table is not None and entry.seat is not None else None
    return {"state": "matched", "table": entry.table_id, "seat": entry.seat,
            "url": f"/t/{entry.table_id}", "next_hand": kept is not None and kept.owner == entry.identity,
            **out}


@router.post("/api/quickmatch", responses=answers(400, 403, 413, 422, 429))
def play_now(body: PlayNow, request: Request, response: Response,
             svc: Svc) -> dict[str, Any]:
    """Join the queue of ``family`` for a table of ``players`` seats (asking again moves the
    entry). The browser's identity waits: an account under its name, a guest under the name
    it sends (or its own), a browser not known yet becomes a guest of the name it sends."""
    me = identity_of(request, svc.identities)
    owner = owner_for(request, me)
    if owner is None:  # a script with no cookie has nobody to seat by
        raise Refused(msg("err.web.quick.cookie"), status=403)
    raw = me.name if me is not None and (me.account or body.name is None) else body.name
    if raw is None:
        raise Refused(msg("err.web.quick.name"))
    try:
        name = clean_name(raw, "the player's name", MAX_NAME)
        check_not_account(svc.identities, name, owner)  # an account's name is its own
    except BadName as exc:
        raise Refused(exc.reason) from None
    # a wait ends in a table (bots fill it): counted as one, so that a flood of browsers
    # from one address cannot fill the server with bot tables
    svc.take_a_table(me.id if me is not None else owner, address_of(request))
    me = sat_down(request, response, svc.identities, me, owner, name)
    rating = svc.ratings.get(me.id, body.family) or Rating()
    svc.queue.join(QueueEntry(me.id, me.name, body.family, body.players, rating.mu, rating.sigma,
                              svc.clock.wall(), device_of(request)))
    svc.moderation.seen(me.id, address_of(request))
    return _state(svc, me)


@router.get("/api/quickmatch")
def where(request: Request, svc: Svc) -> dict[str, Any]:
    """``{"state": "waiting"|"matched"|"none", "waited", "table", "waiting"}``."""
    return _state(svc, identity_of(request, svc.identities))


@router.post("/api/quickmatch/cancel")
def cancel(request: Request, svc: Svc) -> dict[str, Any]:
    """Leave the queue (a matched entry is forgotten too: its table stays)."""
    me = identity_of(request, svc.identities)
    gone = svc.queue.cancel(me.id) if me is not None else False
    return {"cancelled": gone, **_state(svc, me)}


@router.get("/api/lobby")
def lobby_counts(request: Request, svc: Svc) -> dict[str, Any]:
    """Players online (at a table, seen in the last 5 minutes, playing or waiting, and the
    browser asking), playing (seated at a started table) and waiting (in quick match), and
    ``pools``: how many wait in each family and table size, the fullest first."""
    me = identity_of(request, svc.identities)
    return counts(svc, viewer=me.id if me is not None else None)

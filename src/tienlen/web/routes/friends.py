"""Friends and invitations (``friends.py``): ask a player to be friends (from a profile or a
seat), see friends online and at which table, invite a friend to the table one sits at, and the
invitations a page shows. Another player is named by its name, its profile and a handle of the
asking player's own (``Moderation.handle``), never by its identity's id; what comes from a
player banned now (a request, an invitation) is not shown."""

from __future__ import annotations

import time
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from pydantic import BaseModel, ConfigDict, Field

from ...i18n import msg
from ..friends import INVITATION_SECONDS, MAX_FRIENDS, Friendship
from ..identity import Identity
from ..presence import online
from ..problems import Refusal, answers
from ..services import MAX_TABLE_ID, Services, Svc
from ..session import identity_of
from .moderation import Target, limit, player_asking, refused, target_of

router = APIRouter()

FriendId = Annotated[str, PathParam(min_length=1, max_length=32)]  # a handle


class NewInvitation(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    friend: str = Field(min_length=1, max_length=32)  # the friend's handle (GET /api/friends)
    table: str = Field(min_length=1, max_length=MAX_TABLE_ID)


def _banned(svc: Services, identity_id: str) -> bool:
    """Whether ``identity_id`` is banned now (what it asked or sent is not shown)."""
    return svc.moderation.ban_for(identity_id) is not None


def _related(svc: Services, me: Identity, handle: str) -> Friendship | None:
    """The player ``handle`` stands for among ``me``'s friends and requests (None: nobody)."""
    for f in svc.friends.of(me.id):
        if svc.moderation.handle(me.id, f.id) == handle:
            return f
    return None


def _profile(f: Identity | Friendship) -> str | None:
    return f"/p/{quote(f.name, safe='')}" if f.account else None


def _where(svc: Services, identity_id: str) -> dict[str, Any]:
    """A friend's presence: online (a table, or a browser seen lately), and at which tables."""
    tables = [{"id": r.id, "name": r.table.settings.name, "url": f"/t/{r.id}"}
              for r in svc.lobby.tables_of(identity_id) if not r.private]
    return {"online": online(svc, identity_id), "tables": tables}


@router.get("/api/friends")
async def friends(request: Request, svc: Svc) -> list[dict[str, Any]]:
    """Friends (with where they are), the players asked and those asking; none for a browser
    never seated."""
    me = identity_of(request, svc.identities)
    if me is None:
        return []
    out = []
    for f in svc.friends.of(me.id):
        if f.state == "asking" and _banned(svc, f.id):
            continue
        line: dict[str, Any] = {"id": svc.moderation.handle(me.id, f.id), "name": f.name,
                                "state": f.state, "profile": _profile(f)}
        if f.state == "friend":
            line.update(_where(svc, f.id))
        out.append(line)
    return out


@router.post("/api/friends", responses=answers(400, 403, 404, 410, 422, 429))
async def ask(body: Target, request: Request, svc: Svc) -> dict[str, Any]:
    """Ask a player (an account's name, or a seat's player) to be friends: friends once both
    asked. Refused for oneself, a bot, a player either blocked."""
    try:
        me = player_asking(request, svc)
        who = target_of(svc, body)
        if who.id == me.id:
            raise Refusal(400, msg("err.web.friends.self"))
        if svc.moderation.store.blocked_between(me.id, who.id):
            raise Refusal(403, msg("err.web.friends.blocked", name=who.name))
        if svc.friends.count(me.id) >= MAX_FRIENDS:
            raise Refusal(400, msg("err.web.friends.many", n=MAX_FRIENDS))
    except Refusal as exc:
        raise refused(exc, request) from None
    limit(svc, "friend", me, request)
    both = svc.friends.ask(me.id, who.id)
    return {"id": svc.moderation.handle(me.id, who.id), "name": who.name,
            "state": "friend" if both else "asked", "profile": _profile(who)}


@router.post("/api/friends/{friend}/remove", responses=answers(403, 404, 422, 429))
async def remove(friend: FriendId, request: Request, svc: Svc) -> dict[str, Any]:
    """No longer friends (or asking): either way. ``friend``: the handle GET /api/friends gave."""
    try:
        me = player_asking(request, svc)
    except Refusal as exc:
        raise refused(exc, request) from None
    limit(svc, "friend", me, request)
    other = _related(svc, me, friend)
    if other is None or not svc.friends.remove(me.id, other.id):
        raise refused(Refusal(404, msg("err.web.friends.none")), request)
    return {"removed": friend, "name": other.name}


@router.post("/api/invitations", responses=answers(400, 403, 404, 410, 422, 429))
async def invite(body: NewInvitation, request: Request, svc: Svc) -> dict[str, Any]:
    """Invite a friend (by the handle GET /api/friends gave) to the open table where one holds
    a seat."""
    try:
        me = player_asking(request, svc)
        room = svc.lobby.get(body.table)
        if room is None:
            status, reason = svc.missing(body.table)
            raise Refusal(status, reason)
        if room.table.seat_owned(me.id) is None:
            raise Refusal(403, msg("err.web.invite.not_seated"))
        friend = _related(svc, me, body.friend)
        if friend is None or friend.state != "friend":
            raise Refusal(404, msg("err.web.invite.not_friend"))
    except Refusal as exc:
        raise refused(exc, request) from None
    limit(svc, "invite", me, request)
    made = svc.friends.invite(me.id, friend.id, room.id)
    return {"id": made, "table": room.id}


@router.get("/api/invitations")
async def invitations(request: Request, svc: Svc) -> list[dict[str, Any]]:
    """The invitations of the last :data:`~.friends.INVITATION_SECONDS` to tables still open
    the newest first."""
    me = identity_of(request, svc.identities)
    if me is None:
        return []
    out = []
    for inv in svc.friends.invitations(me.id, time.time() - INVITATION_SECONDS):
        room = svc.lobby.get(inv.table_id)
        if room is None or _banned(svc, inv.sender_id):
            continue
        out.append({"id": inv.id, "from": inv.sender, "table": inv.table_id,
                    "table_name": room.table.settings.name, "url": f"/t/{inv.table_id}",
                    "at": inv.at})
    return out

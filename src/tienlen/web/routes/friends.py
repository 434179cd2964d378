"""Friends and invitations (``friends.py``): ask a player to be friends (from a profile or a
seat), see friends online and at which table, invite a friend to the table one sits at, and the
invitations a page shows. Another player is named by its name, its profile and a handle of the
asking player's own (``Moderation.handle``), never by its identity's id; what comes from a
player banned now (a request, an invitation) is not shown. The friendships are in the
database: plain ``def`` handlers, in FastAPI's thread pool, reading where friends sit in the
room's directory (``Services.directory``: whichever process serves their tables)."""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from pydantic import BaseModel, ConfigDict, Field

from ...i18n import msg
from ..accounts.identity import Identity
from ..accounts.session import identity_of
from ..http.problems import answers
from ..refusal import Refused
from ..room.protocol import TableInfo
from ..services import MAX_TABLE_ID, Services, Svc
from ..social.friends import INVITATION_SECONDS, MAX_FRIENDS, Friendship
from .moderation import Target, limit, player_asking, target_of
from .presence import online

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


Tables = tuple[bool, list[dict[str, Any]]]  # at a table at all, and the public ones


def _tables(svc: Services, identities: list[str]) -> dict[str, Tables]:
    """Where each of ``identities`` sits (connected): at any table, and at which public
    tables."""
    out: dict[str, Tables] = {}
    for identity_id, found in svc.directory.tables_of(identities).items():
        out[identity_id] = (bool(found), [{"id": t.id, **_named(t.info), "url": f"/t/{t.id}"}
                                          for t in found if not t.private])
    return out


def _named(info: TableInfo) -> dict[str, Any]:
    """A table's name as a page says it (``lib/i18n.js`` tableTitle): the name, what a name the
    room made says, and its players' names."""
    return {"name": info.name, "title": info.title.model_dump() if info.title else None,
            "people": [s.name for s in info.seats if s.kind == "human" and s.name]}


def _names(svc: Services, table_ids: list[str]) -> dict[str, dict[str, Any]]:
    """The names (:func:`_named`) of those of ``table_ids`` still open."""
    found = [svc.directory.get(table_id) for table_id in dict.fromkeys(table_ids)]
    return {t.id: _named(t.info) for t in found if t is not None}


@router.get("/api/friends")
def friends(request: Request, svc: Svc) -> list[dict[str, Any]]:
    """Friends (with where they are), the players asked and those asking; none for a browser
    never seated."""
    me = identity_of(request, svc.identities)
    if me is None:
        return []
    listed = [f for f in svc.friends.of(me.id) if f.state != "asking" or not _banned(svc, f.id)]
    where = _tables(svc, [f.id for f in listed if f.state == "friend"])
    out = []
    for f in listed:
        line: dict[str, Any] = {"id": svc.moderation.handle(me.id, f.id), "name": f.name,
                                "state": f.state, "profile": _profile(f)}
        if f.state == "friend":  # its presence: online (a table, or a browser seen lately)
            at_table, tables = where[f.id]
            line.update({"online": online(svc, f.id, at_table), "tables": tables})
        out.append(line)
    return out


@router.post("/api/friends", responses=answers(400, 403, 404, 410, 422, 429))
def ask(body: Target, request: Request, svc: Svc) -> dict[str, Any]:
    """Ask a player (an account's name, or a seat's player) to be friends: friends once both
    asked. Refused for oneself, a bot, a player either blocked."""
    me = player_asking(request, svc)
    who = target_of(svc, body)
    if who.id == me.id:
        raise Refused(msg("err.web.friends.self"))
    if svc.moderation.store.blocked_between(me.id, who.id):
        raise Refused(msg("err.web.friends.blocked", name=who.name), status=403)
    if svc.friends.count(me.id) >= MAX_FRIENDS:
        raise Refused(msg("err.web.friends.many", n=MAX_FRIENDS))
    limit(svc, "friend", me, request)
    both = svc.friends.ask(me.id, who.id)
    return {"id": svc.moderation.handle(me.id, who.id), "name": who.name,
            "state": "friend" if both else "asked", "profile": _profile(who)}


@router.post("/api/friends/{friend}/remove", responses=answers(403, 404, 422, 429))
def remove(friend: FriendId, request: Request, svc: Svc) -> dict[str, Any]:
    """No longer friends (or asking): either way. ``friend``: the handle GET /api/friends gave."""
    me = player_asking(request, svc)
    limit(svc, "friend", me, request)
    other = _related(svc, me, friend)
    if other is None or not svc.friends.remove(me.id, other.id):
        raise Refused(msg("err.web.friends.none"), status=404)
    return {"removed": friend, "name": other.name}


@router.post("/api/invitations", responses=answers(400, 403, 404, 410, 422, 429))
def invite(body: NewInvitation, request: Request, svc: Svc) -> dict[str, Any]:
    """Invite a friend (by the handle GET /api/friends gave) to the open table where one holds
    a seat."""
    me = player_asking(request, svc)
    table = svc.table_or_404(body.table)
    if table.seat_owned(me.id) is None:
        raise Refused(msg("err.web.invite.not_seated"), status=403)
    friend = _related(svc, me, body.friend)
    if friend is None or friend.state != "friend":
        raise Refused(msg("err.web.invite.not_friend"), status=404)
    limit(svc, "invite", me, request)
    made = svc.friends.invite(me.id, friend.id, table.id)
    return {"id": made, "table": table.id}


@router.get("/api/invitations")
def invitations(request: Request, svc: Svc) -> list[dict[str, Any]]:
    """The invitations of the last :data:`~.friends.INVITATION_SECONDS` to tables still open
    the newest first."""
    me = identity_of(request, svc.identities)
    if me is None:
        return []
    sent = svc.friends.invitations(me.id, svc.clock.wall() - INVITATION_SECONDS)
    open_ = _names(svc, [inv.table_id for inv in sent])
    return [{"id": inv.id, "from": inv.sender, "table": inv.table_id,
             "table_name": open_[inv.table_id]["name"], "table_title": open_[inv.table_id],
             "url": f"/t/{inv.table_id}", "at": inv.at}
            for inv in sent if inv.table_id in open_ and not _banned(svc, inv.sender_id)]

"""Moderation's API: reports and blocks (any player), and the admins' routes (reports, bans,
renames, the audit log), each refused (403) to anyone who is not an admin; and the gate that
keeps a banned player to watching (:func:`not_banned`, every route's). They only read and
write the database (a report or a block about a seat reads the seat on the event loop): plain
``def`` handlers, in FastAPI's thread pool."""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Query, Request
from fastapi import Path as PathParam
from pydantic import BaseModel, Field
from starlette.requests import HTTPConnection

from ...i18n import msg
from ..accounts.identity import Identity
from ..accounts.names import MAX_NAME, RAW_FACTOR, account_key, bot_number
from ..accounts.session import identity_of
from ..http.problems import answers
from ..lobby.directory import TableFacts
from ..moderation.moderation import MAX_REPORT_TEXT, REASONS, check_new_name, report_text, until_text
from ..moderation.store import COMMAND_LINE, Ban, Report
from ..refusal import Refused
from ..services import MAX_TABLE_ID, Services, Svc, address_of, services_of

router = APIRouter()

BlockId = Annotated[str, PathParam(min_length=1, max_length=32)]  # a handle (Moderation.handle)

# What a banned player may still do besides watching (every GET but ACTING_READS): sign out,
# leave quick match's queue, look after its own account (its sessions, password, recovery
# codes, deleting it), block and unblock, end a friendship and stop sharing a hand (none of it
# reaches another person: each cuts contact), and the admins' routes (refused to all but
# admins; an admin must be able to lift a ban on its own address).
BANNED_MAY = frozenset({"/api/account/signout", "/api/account/signout-others",
                        "/api/account/sessions/{session_id}/end", "/api/account/password",
                        "/api/account/codes", "/api/account/delete", "/api/quickmatch/cancel",
                        "/api/blocks", "/api/blocks/{blocked}/remove",
                        "/api/friends/{friend}/remove",
                        "/api/tables/{table_id}/records/{hand_no}/share/remove"})
ADMIN = "/api/admin/"
# the reads that act: they cost the server (a review is made in the bot pool)
ACTING_READS = frozenset({"/api/tables/{table_id}/records/{hand_no}/review"})
READS = frozenset({"GET", "HEAD", "OPTIONS"})


def acts(method: str, path: str) -> bool:
    """Whether the route ``method`` ``path`` (as declared) is an act a ban refuses."""
    if method in READS:
        return path in ACTING_READS
    return path not in BANNED_MAY and not path.startswith(ADMIN)


def not_banned(conn: HTTPConnection) -> None:
    """Every route's gate (the app's dependency): a banned identity, or anyone from a banned
    address, is refused every act (403, saying until when and why, in its language) and may
    watch. The WebSocket checks each command itself (socket.py). A plain ``def``: it reads the
    identity (the database) in FastAPI's thread pool, off the event loop."""
    route = conn.scope.get("route")
    if conn.scope["type"] != "http" or not acts(conn.scope["method"], getattr(route, "path", "")):
        return
    svc = services_of(conn)
    ban = svc.moderation.banned(conn, identity_of(conn, svc.identities))
    if ban is not None:
        raise Refused(svc.moderation.words(ban), status=403)
RowId = Annotated[int, PathParam(ge=1, le=2**31 - 1)]


class Target(BaseModel):
    """Whom: an account's ``player`` name, or the player at ``seat`` of ``table``."""

    player: str | None = Field(default=None, min_length=1, max_length=MAX_NAME * RAW_FACTOR)
    table: str | None = Field(default=None, min_length=1, max_length=MAX_TABLE_ID)
    seat: int | None = Field(default=None, ge=0, le=7)


class NewReport(Target):
    reason: str = Field(max_length=16)  # one of moderation.REASONS
    text: str = Field(default="", max_length=MAX_REPORT_TEXT * RAW_FACTOR)
    hand: int | None = Field(default=None, ge=1, le=1_000_000)  # the hand it is about


class Whom(BaseModel):
    """An admin's target: an account's ``player`` name, or any identity (a guest) by id."""

    player: str | None = Field(default=None, min_length=1, max_length=MAX_NAME * RAW_FACTOR)
    identity: str | None = Field(default=None, min_length=1, max_length=32)


class NewBan(Whom):
    address: bool = False  # also the address the player used last
    hours: float = Field(default=0.0, ge=0)
    days: float = Field(default=0.0, ge=0)
    reason: str = Field(min_length=1, max_length=MAX_REPORT_TEXT)


class Rename(Whom):
    name: str = Field(min_length=1, max_length=MAX_NAME * RAW_FACTOR)


def limit(svc: Services, action: str, me: Identity, request: Request) -> None:
    """Count ``me``'s ``action`` (limiter.py): refused (429) past its limits."""
    svc.take(action, me.id, address_of(request))


def player_asking(request: Request, svc: Services) -> Identity:
    """The identity asking (a browser that never sat is no one yet: refused)."""
    me = identity_of(request, svc.identities)
    if me is None:
        raise Refused(msg("err.web.report.who"), status=403)
    return me


def _admin(request: Request, svc: Services) -> Identity:
    me = identity_of(request, svc.identities)
    if me is None or me.role != "admin":
        raise Refused(msg("err.web.admin.only"), status=403)
    return me


def target_of(svc: Services, body: Target) -> Identity:
    """The player a report or a block is about, or :class:`Refused` saying why none is (from
    a handler in the thread pool: the table's seat is read in the room's directory)."""
    if body.player is not None:
        if bot_number(body.player) is not None:
            raise Refused(msg("err.web.report.bot"))
        who = svc.identities.by_account(account_key(body.player))
        if who is None:
            raise Refused(msg("err.web.report.unknown", name=body.player), status=404)
        return who
    if body.table is None or body.seat is None:
        raise Refused(msg("err.web.report.target"), status=422)
    kind, owner = _seat(svc.table_or_404(body.table), body.seat)
    if owner is None:  # a bot's seat (one a player left keeps its owner), or nobody's
        if kind == "bot":
            raise Refused(msg("err.web.report.bot"))
        if kind in (None, "empty"):
            raise Refused(msg("err.web.report.empty_seat", n=body.seat + 1), status=404)
    who = svc.identities.get(owner) if owner is not None else None
    if who is None:  # a script's seat, held by its token only
        raise Refused(msg("err.web.report.unknown_seat", n=body.seat + 1), status=404)
    return who


def _seat(table: TableFacts, n: int) -> tuple[str | None, str | None]:
    """The kind of seat ``n`` and its owner (None, None: no such seat)."""
    seats = table.seats
    return (seats[n].kind, seats[n].owner) if n < len(seats) else (None, None)


def _whom(svc: Services, body: Whom) -> Identity:
    who = None
    if body.player is not None:
        who = svc.identities.by_account(account_key(body.player))
    elif body.identity is not None:
        who = svc.identities.get(body.identity)
    if who is None or who.deleted:
        raise Refused(msg("err.web.report.unknown", name=body.player or body.identity or ""),
                      status=404)
    return who


def _profile(name: str, account: bool) -> str | None:
    return f"/p/{quote(name, safe='')}" if account else None


# ---------------------------------------------------------------------- any player
@router.post("/api/reports", responses=answers(400, 403, 404, 410, 422, 429))
def report(body: NewReport, request: Request, svc: Svc) -> dict[str, Any]:
    """Report a player (by an account's name, or by a seat of a table) for one of the reasons,
    with optional words; a player may report so many an hour, an address more."""
    me = player_asking(request, svc)
    if body.reason not in REASONS:
        raise Refused(msg("err.web.report.reason", reasons=", ".join(REASONS)), status=422)
    who = target_of(svc, body)
    if who.id == me.id:
        raise Refused(msg("err.web.report.self"))
    limit(svc, "report", me, request)
    mod = svc.moderation
    made = mod.store.report(me.id, who.id, body.reason, report_text(body.text), body.table,
                            body.hand)
    mod.seen(me.id, address_of(request))
    return {"id": made, "reported": who.name}


@router.post("/api/blocks", responses=answers(400, 403, 404, 410, 422, 429))
def block(body: Target, request: Request, svc: Svc) -> dict[str, Any]:
    """Block a player (kept per identity; from the next line said): see docs/web.md for what
    blocking does. ``id`` is a handle for the blocked player, this player's own."""
    me = player_asking(request, svc)
    who = target_of(svc, body)
    if who.id == me.id:
        raise Refused(msg("err.web.block.self"))
    limit(svc, "block", me, request)
    svc.moderation.block(me.id, who.id)
    return {"id": svc.moderation.handle(me.id, who.id), "name": who.name}


@router.get("/api/blocks")
def blocks(request: Request, svc: Svc) -> list[dict[str, Any]]:
    """Whom this browser's identity blocked, the latest first (none: a browser never seated);
    each by a handle of this player's own and its name."""
    me = identity_of(request, svc.identities)
    if me is None:
        return []
    mod = svc.moderation
    return [{"id": mod.handle(me.id, b.id), "name": b.name, "at": b.at}
            for b in mod.store.blocks(me.id)]


@router.post("/api/blocks/{blocked}/remove", responses=answers(403, 404, 422, 429))
def unblock(blocked: BlockId, request: Request, svc: Svc) -> dict[str, Any]:
    """Unblock the player ``blocked`` (the handle ``GET /api/blocks`` gave)."""
    me = player_asking(request, svc)
    limit(svc, "block", me, request)
    name = svc.moderation.unblock(me.id, blocked)
    if name is None:
        raise Refused(msg("err.web.block.none"), status=404)
    return {"removed": blocked, "name": name}


# ---------------------------------------------------------------------- admins
def _report(r: Report) -> dict[str, Any]:
    record = f"/api/tables/{r.table_id}/records/{r.hand_no}" \
        if r.table_id is not None and r.hand_no is not None else None
    return {"id": r.id, "at": r.at, "reason": r.reason, "text": r.text,
            "reporter": r.reporter_name, "reporter_id": r.reporter,
            "reported": r.reported_name, "reported_id": r.reported,
            "profile": _profile(r.reported_name, r.reported_account),
            "table": r.table_id, "hand": r.hand_no, "record": record,
            "table_page": f"/t/{r.table_id}" if r.table_id is not None else None,
            "handled": r.handled}


def _name_of(svc: Services, identity_id: str | None, names: dict[str, str]) -> str | None:
    if identity_id is None:
        return None
    if identity_id not in names:
        who = svc.identities.get(identity_id)
        names[identity_id] = who.name if who is not None else identity_id
    return names[identity_id]


def _ban(svc: Services, b: Ban, names: dict[str, str]) -> dict[str, Any]:
    return {"id": b.id, "identity": b.identity, "name": _name_of(svc, b.identity, names),
            "address": b.address is not None, "until": b.until, "until_text": until_text(b.until),
            "reason": b.reason, "by": _name_of(svc, b.by, names), "at": b.at}


@router.get("/api/admin/reports", responses=answers(403, 422))
def admin_reports(request: Request, svc: Svc, handled: bool = False) -> list[dict[str, Any]]:
    """Open reports, the newest first (with ``handled``: the handled ones too)."""
    _admin(request, svc)
    return [_report(r) for r in svc.moderation.store.reports(include_handled=handled)]


@router.get("/api/admin/chat", responses=answers(403, 422))
def admin_chat(request: Request, svc: Svc,
                     table: Annotated[str, Query(min_length=1, max_length=MAX_TABLE_ID)],
                     hand: Annotated[int, Query(ge=0, le=1_000_000)]) -> list[dict[str, Any]]:
    """What was said at ``table`` during ``hand`` (a report's), in order: each line's seat, the
    speaker's name as it is now, its kind (phrase: a catalogue key; emoji; text) and words."""
    _admin(request, svc)
    chat = svc.moderation.chat
    names: dict[str, str] = {}
    return [{"seat": line.seat, "identity": line.identity,
             "name": _name_of(svc, line.identity, names), "kind": line.kind, "text": line.text,
             "at": line.at}
            for line in (chat.of_hand(table, hand) if chat is not None else [])]


@router.post("/api/admin/reports/{report_id}/handled", responses=answers(403, 404, 422))
def admin_handled(report_id: RowId, request: Request, svc: Svc) -> dict[str, Any]:
    me = _admin(request, svc)
    if not svc.moderation.store.mark_handled(report_id, me.id):
        raise Refused(msg("err.web.admin.no_report", id=report_id), status=404)
    return {"handled": report_id}


@router.get("/api/admin/bans", responses=answers(403))
def admin_bans(request: Request, svc: Svc) -> list[dict[str, Any]]:
    """The bans in force, the latest first."""
    _admin(request, svc)
    names: dict[str, str] = {}
    mod = svc.moderation
    return [_ban(svc, b, names) for b in mod.store.bans(mod.clock())]


@router.post("/api/admin/bans", responses=answers(400, 403, 404, 422))
def admin_ban(body: NewBan, request: Request, svc: Svc) -> dict[str, Any]:
    """Ban a player (an account by name, any identity by id) for ``hours`` + ``days``, with a
    reason; with ``address``, the address it used last as well."""
    me = _admin(request, svc)
    mod = svc.moderation
    who = _whom(svc, body)
    address = None
    if body.address:
        address = mod.last_address(who.id)
        if address is None:
            raise Refused(msg("err.web.admin.no_address", name=who.name), status=404)
    made = mod.ban(me.id, body.hours + 24.0 * body.days, body.reason, who.id, address,
                   target=who.id)
    return _ban(svc, made, {})


@router.post("/api/admin/bans/{ban_id}/lift", responses=answers(403, 404, 422))
def admin_lift(ban_id: RowId, request: Request, svc: Svc) -> dict[str, Any]:
    me = _admin(request, svc)
    lifted = svc.moderation.lift(ban_id, me.id)
    return _ban(svc, lifted, {})


@router.post("/api/admin/rename", responses=answers(400, 403, 404, 409, 422))
def admin_rename(body: Rename, request: Request, svc: Svc) -> dict[str, Any]:
    """Rename a player: an account's new name is checked as a claimed name is (unique after
    NFKC and case, not confusable with another account's, not a bot's); a guest's too."""
    me = _admin(request, svc)
    who = _whom(svc, body)
    name, key, look = check_new_name(svc.identities, body.name, who.id)
    if who.account:
        svc.identities.rename_account(who.id, name, key, look)
    else:
        svc.identities.rename_guest(who.id, name)
    svc.moderation.store.audit(me.id, "rename", who.id, f"{who.name} -> {name}")
    return {"id": who.id, "name": name, "profile": _profile(name, who.account)}


@router.get("/api/admin/audit", responses=answers(403))
def admin_audit(request: Request, svc: Svc) -> list[dict[str, Any]]:
    """Every admin act (and the command line's grants), the latest first."""
    _admin(request, svc)
    names: dict[str, str] = {}
    return [{"id": e.id, "at": e.at, "actor": e.actor,
             "actor_name": e.actor if e.actor == COMMAND_LINE else _name_of(svc, e.actor, names),
             "action": e.action, "target": e.target,
             "target_name": _name_of(svc, e.target, names) if e.target.startswith("i") else
             e.target, "detail": e.detail}
            for e in svc.moderation.store.audit_log()]

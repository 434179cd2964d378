"""The lobby's API: the presets, the tables listed, a new table, one table's public facts.

The handlers that read the tables, wherever they are served, ask the room's directory
(``Services.directory``) and those that read the session's identity (the database) are plain
``def``, in FastAPI's thread pool; a new table is made on the event loop (``on_loop``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, HTTPException, Request, Response

from ... import Rules, TienLenError
from ...bots import bot_names
from ...errors import reason_of
from ...i18n import pick_lang, say_error
from ...rules_text import explain_text
from ..accounts.session import device_of, identity_of, owner_for, sat_down
from ..http.problems import answers
from ..limits import MAX_PLAYER_KEY, MIN_PLAYER_KEY, player_key
from ..lobby.lobby import HOME_PRESETS, Lobby, NewTable
from ..refusal import Refused
from ..room.ladder import offered, seats
from ..room.protocol import BOT_LEVELS, TableInfo
from ..room.room import Room
from ..services import Svc, TableId, address_of, on_loop
from ..table.agent import served

router = APIRouter()

PlayerKey = Annotated[str | None, Header(alias="X-Tienlen-Player", min_length=MIN_PLAYER_KEY,
                                         max_length=MAX_PLAYER_KEY, pattern=r"^[A-Za-z0-9_-]+$")]


@router.get("/api/presets")
async def presets() -> dict[str, Any]:
    """The presets, the bot levels (weakest first) and the levels each preset's tables offer;
    ``seats``: per preset, the table sizes of the levels it offers only at some;
    ``home``: the presets the room offers first (Vietnam's own), the first its default;
    ``agent``: the trained agent the server offers (its name, and the rules and number of
    players of the only tables it sits at), or None."""
    agent = served()
    return {"presets": Rules.presets(), "home": list(HOME_PRESETS),
            "bots": [b for b in BOT_LEVELS if b in bot_names()], "levels": offered(),
            "seats": seats(),
            "agent": None if agent is None else {"name": agent.name, "rules": agent.preset,
                                                 "players": agent.players}}


@router.get("/api/presets/{name}", responses=answers(404, 422))
async def preset(name: str, lang: str = "en") -> dict[str, Any]:
    """A preset: its options, and ``explain``, the rules in words in ``lang``."""
    try:
        rules = Rules.preset(name)
    except TienLenError as exc:
        raise HTTPException(404, say_error(exc, pick_lang(lang))) from None
    return {"name": name, "toml": rules.to_toml(), "options": rules.as_dict(),
            "describe": rules.describe(),
            "explain": explain_text(rules, width=None, lang=pick_lang(lang))}


@router.get("/api/tables")
def tables(svc: Svc) -> list[TableInfo]:
    """The public tables of the room: open ones (with an empty seat) first, then those being
    played."""
    return [found.info for found in svc.directory.listing()]


@router.get("/api/me/tables")
def my_tables(request: Request, svc: Svc) -> list[TableInfo]:
    """The open tables where this browser's identity holds a seat (or one it left, a bot
    playing it), private ones too: the lobby offers to resume them."""
    me = identity_of(request, svc.identities)
    if me is None:
        return []
    return [found.info for found in svc.directory.seated(me.id)]


@router.post("/api/tables", responses=answers(400, 403, 413, 422, 429))
def create_table(spec: NewTable, request: Request, response: Response, svc: Svc,
                 player: PlayerKey = None) -> dict[str, Any]:
    """A new table. Who it counts against: the identity of the session cookie, else
    ``X-Tienlen-Player`` (a script's player key), else the address: tables a minute and open
    tables per player, with a higher ceiling for everyone behind one address. With ``name``,
    seat 0 is taken for the cookie's identity (a browser not known yet becomes a guest)."""
    address = address_of(request)
    me = identity_of(request, svc.identities)
    owner = owner_for(request, me) if spec.name is not None else None
    if me is not None and me.account and spec.name is not None:  # an account sits as itself
        spec = spec.model_copy(update={"name": me.name})
    creator = me.id if me is not None else player_key(player, address)
    svc.take_a_table(creator, address)
    room, seat, token = on_loop(_create, svc.lobby, spec, creator, address, owner,
                                device_of(request))
    if owner is not None and seat is not None:
        sat_down(request, response, svc.identities, me, owner, on_loop(_name, room, seat))
        svc.moderation.seen(owner, address)
    info = on_loop(_changed, room)
    return {"id": room.id, "invite": f"/t/{room.id}", "seat": seat, "token": token,
            "info": info.model_dump()}


def _create(lobby: Lobby, spec: NewTable, creator: str, address: str, owner: str | None,
            device: str | None) -> tuple[Room, int | None, str | None]:
    """(On the loop.) The new table, the seat taken and its token; else why not."""
    try:
        return lobby.create(spec, creator, address, owner, device)
    except Refused:
        raise
    except TienLenError as exc:  # rules that cannot be
        raise Refused(reason_of(exc)) from None


def _name(room: Room, seat: int) -> str:
    return room.table.seats[seat].name or ""


def _changed(room: Room) -> TableInfo:
    """(On the loop.) The new table is told to its watchers and listed; its facts."""
    room.changed()
    return room.info()


@router.get("/api/tables/{table_id}", responses=answers(404, 410, 422))
def table(table_id: TableId, svc: Svc) -> TableInfo:
    return svc.table_or_404(table_id).info

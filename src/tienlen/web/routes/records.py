"""A table's stored hands: the list, each hand's record, the whole table as one session record,
a hand's replay (the last two computed in the bot pool, see ``services.Offload``) and its review
(made in the bot pool too, see ``reviews.py``); the links a private table's host makes to share a
hand. Every route reaches a hand through ``hand_access.py``'s one check.

The handlers that only read or write the database are plain ``def`` (FastAPI's thread pool);
those that wait for the bot pool are ``async`` and read the database in a thread
(``run_in_threadpool``)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import PlainTextResponse, Response
from starlette.concurrency import run_in_threadpool

from ...i18n import msg
from ..accounts.identity import Identity
from ..accounts.session import identity_of
from ..http.problems import answers, request_lang
from ..lobby.directory import TableFacts
from ..records.replays import replay_or_reason, session_text
from ..refusal import Refused
from ..services import Services, Svc, address_of
from .hand_access import (
    Access,
    Hand,
    Readable,
    ReadableHand,
    SharedHand,
    share,
    unshare,
)

router = APIRouter()
log = logging.getLogger("tienlen.web")


def seed_note(svc: Services, table_id: str) -> str:
    """A comment kept at the head of an open practice table's records: its fixed seed (read in
    the room's directory, from a thread)."""
    table = svc.directory.get(table_id)
    seed = table.info.seed if table is not None else None
    if table is None or seed is None:
        return ""
    players = table.info.players
    return (f"# practice table {table_id}: fixed seed {seed} "
            f"(Session(rules, {players}, seed={seed}) deals these hands)\n")


async def offloaded(svc: Services, request: Request, fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` in the bot pool (see ``services.Offload``), a few at a time per address."""
    return await svc.offload.run(address_of(request), fn, *args)


def toml_file(text: str, filename: str) -> Response:
    return PlainTextResponse(text, media_type="application/toml", headers={
        "Content-Disposition": f'attachment; filename="{filename}"'})


async def replay_of(svc: Services, request: Request, hand: Hand) -> Response:
    """A finished hand as the states after each action, every seat's cards shown, its payments
    said in the asker's language."""
    steps, reason = await offloaded(svc, request, replay_or_reason, hand.text,
                                    request_lang(request))
    if steps is None:
        raise Refused(reason or msg("err.web.replay", reason=""))
    return Response(steps, media_type="application/json")


@router.get("/api/tables/{table_id}/records", responses=answers(404, 422))
def records(access: Readable, svc: Svc) -> list[dict[str, Any]]:
    """The finished hands the asker may read (a private table's: those it sat in)."""
    if not access.at_table:
        raise access.refused()
    table_id = access.table_id
    return [{"hand": n, "finished": at, "url": f"/api/tables/{table_id}/records/{n}"}
            for n, at in access.hands(svc)]


@router.get("/api/tables/{table_id}/records/{hand_no}", responses=answers(404, 422))
def record(hand: ReadableHand, svc: Svc) -> Response:
    table_id = hand.access.table_id
    return toml_file(seed_note(svc, table_id) + hand.text,
                     f"tienlen-{table_id}-hand{hand.number}.toml")


@router.get("/api/tables/{table_id}/record.toml", responses=answers(404, 422, 429))
async def session_record(access: Readable, request: Request, svc: Svc) -> Response:
    """The finished hands the asker may read, as one session record."""
    table_id = access.table_id
    texts = await run_in_threadpool(_texts, svc, access)
    if not texts:
        raise access.refused() if access.private else Refused(
            msg("err.web.no_hand_yet", id=repr(table_id)), status=404)
    text = await offloaded(svc, request, session_text, texts)
    note = await run_in_threadpool(seed_note, svc, table_id)
    return toml_file(note + text, f"tienlen-{table_id}.toml")


def _texts(svc: Services, access: Access) -> list[str]:
    """(In a thread.) The records of the hands ``access`` may read, in order."""
    return [svc.repo.record(access.table_id, n) or "" for n, _ in access.hands(svc)]


@router.get("/api/tables/{table_id}/records/{hand_no}/replay",
            responses=answers(400, 404, 422, 429))
async def replay(hand: ReadableHand, request: Request, svc: Svc) -> Response:
    """A finished hand as the states after each action, every seat's cards shown."""
    return await replay_of(svc, request, hand)


@router.get("/api/tables/{table_id}/records/{hand_no}/review",
            responses=answers(400, 403, 404, 422, 429, 503))
async def review(hand: ReadableHand, request: Request, svc: Svc,
                 seat: Annotated[int | None, Query(ge=0, le=7)] = None) -> Response:
    """A finished hand reviewed for one seat (``tienlen.review``), made in the bot pool, off the
    event loop: the asker's own seat in that hand (the seat its browser's identity held, or
    its seat token's in ``X-Tienlen-Seat``), or at a public table any seat (``seat``), since
    the hand's record shows every hand already. A few at a time per address (reviews.py)."""
    table_id, hand_no = hand.access.table_id, hand.number
    table = await run_in_threadpool(svc.directory.get, table_id)
    if table is None:
        raise Refused(msg("review.web.closed", id=repr(table_id)), status=404)
    mine = hand.access.seat_in(hand_no)
    if mine is not None and seat is not None and seat != mine:
        raise Refused(msg("review.web.own_seat"), status=403)
    if mine is None and table.private:
        raise Refused(msg("review.web.private"), status=403)
    asked = mine if mine is not None else seat
    if asked is None:
        raise Refused(msg("review.web.which_seat"))
    players = table.info.players
    if asked >= players:
        raise Refused(msg("review.err.seat", seat=repr(asked), players=players,
                          last=players - 1))
    me = await run_in_threadpool(identity_of, request, svc.identities)
    svc.take("review", me.id if me is not None else None, address_of(request))
    try:
        body, reason = await svc.reviews.review((table_id, hand_no, asked), hand.text, asked,
                                                address_of(request))
    except Refused:
        raise
    except Exception:  # the pool failed (a worker died): said, logged, and tried anew next time
        log.exception("table %s: the review of hand %d failed in the bot pool", table_id, hand_no,
                      extra={"table": table_id})
        raise Refused(msg("review.web.failed"), status=503, retry_after=5) from None
    if body is None:
        raise Refused(reason or msg("err.web.replay", reason=""))
    return Response(body, media_type="application/json")


# ---------------------------------------------------------------------- share links
def host_asking(svc: Services, hand: Hand, request: Request) -> str | None:
    """Who asks, as a share link stores its maker, when it is the open table's host (by its
    browser's seat or its seat token); else None."""
    table = svc.directory.get(hand.access.table_id)
    me = identity_of(request, svc.identities)
    host, mine = _host(table, me) if table is not None else (None, None)
    if host is None:
        return None
    if me is not None and mine == host:
        return me.id
    if hand.access.token_seat == host:
        return me.id if me is not None else f"seat {host}"
    return None


def _host(table: TableFacts, me: Identity | None) -> tuple[int | None, int | None]:
    """The open table's host's seat, and the seat ``me`` holds there."""
    return table.info.host_seat, table.seat_owned(me.id) if me is not None else None


@router.post("/api/tables/{table_id}/records/{hand_no}/share",
             responses=answers(400, 403, 404, 422))
def share_hand(hand: ReadableHand, request: Request, svc: Svc) -> dict[str, Any]:
    """A link of its own to a finished hand of a private table, made by its host: whoever has
    it reads that hand's record and replay (not the table, nor its other hands), and ``page``
    shows the replay on a felt of its own. Asked again,
    a new link is made and the one before stops working."""
    if not hand.access.private:
        raise Refused(msg("err.web.share_public", url=(
            f"/api/tables/{hand.access.table_id}/records/{hand.number}")))
    by = host_asking(svc, hand, request)
    if by is None:
        raise Refused(msg("err.web.share_host"), status=403)
    secret = share(svc, hand, by)
    return {"hand": hand.number, "url": f"/api/shared/{secret}",
            "replay": f"/api/shared/{secret}/replay", "page": f"/shared/{secret}"}


@router.post("/api/tables/{table_id}/records/{hand_no}/share/remove",
             responses=answers(403, 404, 422))
def unshare_hand(hand: ReadableHand, request: Request, svc: Svc) -> dict[str, Any]:
    """Stop sharing a hand: its link opens nothing from now on. The host's to do while the
    table is open; the one who made the link's, too, after it closed."""
    if host_asking(svc, hand, request) is not None:
        return {"hand": hand.number, "removed": unshare(svc, hand)}
    me = identity_of(request, svc.identities)
    removed = unshare(svc, hand, me.id) if me is not None else 0
    if not removed:
        raise Refused(msg("err.web.share_host"), status=403)
    return {"hand": hand.number, "removed": removed}


@router.get("/api/shared/{secret}", responses=answers(404, 422))
def shared_record(hand: SharedHand) -> Response:
    """A shared hand's record (its table's id left out: the link opens nothing else)."""
    return toml_file(hand.text, f"tienlen-shared-hand{hand.number}.toml")


@router.get("/api/shared/{secret}/replay", responses=answers(400, 404, 422, 429))
async def shared_replay(hand: SharedHand, request: Request, svc: Svc) -> Response:
    return await replay_of(svc, request, hand)

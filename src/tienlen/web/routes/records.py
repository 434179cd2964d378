"""A table's stored hands: the list, each hand's record, the whole table as one session record,
a hand's replay (the last two computed in worker processes, see ``offload.py``) and its review
(made in the bot pool, see ``reviews.py``)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Annotated, Any

from fastapi import APIRouter, Header, HTTPException, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import PlainTextResponse, Response

from ...i18n import msg, render, t
from ..lobby import TooMany
from ..problems import answers, request_lang
from ..replays import replay_or_reason, session_text
from ..services import Services, Svc, address_of
from ..session import identity_of
from .lobby import TableId

router = APIRouter()
log = logging.getLogger("tienlen.web")

MAX_HAND_NO = 2**31 - 1  # hand numbers in URLs
HandNo = Annotated[int, PathParam(ge=1, le=MAX_HAND_NO)]


def record_text(svc: Services, table_id: str, hand_no: int, lang: str) -> str:
    svc.known_or_404(table_id, lang)
    text = svc.repo.record(table_id, hand_no)
    if text is None:
        raise HTTPException(404, t("err.web.no_hand", lang, id=repr(table_id), n=hand_no))
    return text


def seed_note(svc: Services, table_id: str) -> str:
    """A comment kept at the head of a practice table's records: its fixed seed."""
    room = svc.lobby.get(table_id)
    if room is None or not room.fixed_seed:
        return ""
    return (f"# practice table {table_id}: fixed seed {room.seed} "
            f"(Session(rules, {room.players}, seed={room.seed}) deals these hands)\n")


async def offloaded(svc: Services, request: Request, fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` in a worker process (see offload.py), a few at a time per address."""
    try:
        return await svc.offload.run(address_of(request), fn, *args)
    except TooMany as exc:
        raise HTTPException(exc.status, exc.say(request_lang(request)),
                            headers={"Retry-After": "1"}) from None


@router.get("/api/tables/{table_id}/records", responses=answers(404, 422))
async def records(table_id: TableId, request: Request, svc: Svc) -> list[dict[str, Any]]:
    svc.known_or_404(table_id, request_lang(request))
    return [{"hand": n, "finished": at, "url": f"/api/tables/{table_id}/records/{n}"}
            for n, at in svc.repo.records(table_id)]


@router.get("/api/tables/{table_id}/records/{hand_no}", responses=answers(404, 422))
async def record(table_id: TableId, hand_no: HandNo, request: Request, svc: Svc) -> Response:
    text = seed_note(svc, table_id) + record_text(svc, table_id, hand_no, request_lang(request))
    return PlainTextResponse(text, media_type="application/toml", headers={
        "Content-Disposition": f'attachment; filename="tienlen-{table_id}-hand{hand_no}.toml"'})


@router.get("/api/tables/{table_id}/record.toml", responses=answers(404, 422, 429))
async def session_record(table_id: TableId, request: Request, svc: Svc) -> Response:
    lang = request_lang(request)
    svc.known_or_404(table_id, lang)
    texts = [svc.repo.record(table_id, n) or "" for n, _ in svc.repo.records(table_id)]
    if not texts:
        raise HTTPException(404, t("err.web.no_hand_yet", lang, id=repr(table_id)))
    text = await offloaded(svc, request, session_text, texts)
    return PlainTextResponse(seed_note(svc, table_id) + text, media_type="application/toml",
                             headers={"Content-Disposition":
                                      f'attachment; filename="tienlen-{table_id}.toml"'})


@router.get("/api/tables/{table_id}/records/{hand_no}/replay",
            responses=answers(400, 404, 422, 429))
async def replay(table_id: TableId, hand_no: HandNo, request: Request, svc: Svc) -> Response:
    """A finished hand as the states after each action, every seat's cards shown."""
    lang = request_lang(request)
    text = record_text(svc, table_id, hand_no, lang)
    steps, reason = await offloaded(svc, request, replay_or_reason, text)
    if steps is None:
        raise HTTPException(400, render(reason or msg("err.web.replay", reason=""), lang))
    return Response(steps, media_type="application/json")


@router.get("/api/tables/{table_id}/records/{hand_no}/review",
            responses=answers(400, 403, 404, 422, 429, 503))
async def review(table_id: TableId, hand_no: HandNo, request: Request, svc: Svc,
                 seat: Annotated[int | None, Query(ge=0, le=7)] = None,
                 token: Annotated[str | None, Header(alias="X-Tienlen-Seat", max_length=200)] = None,
                 ) -> Response:
    """A finished hand reviewed for one seat (``tienlen.review``), made in the bot pool, off the
    event loop: a seated player's own seat (its seat token in ``X-Tienlen-Seat``, or the seat
    its browser's session holds), or at a public table any seat (``seat``), since the hand's
    record shows every hand already. A few at a time per address (reviews.py)."""
    lang = request_lang(request)
    text = record_text(svc, table_id, hand_no, lang)
    room = svc.lobby.get(table_id)
    if room is None:
        raise HTTPException(404, t("review.web.closed", lang, id=repr(table_id)))
    mine = room.table.seat_of(token) if token else None
    if mine is None:  # a browser's seat, held by its session cookie
        me = identity_of(request, svc.identities)
        owned = [s for s, held in enumerate(room.table.seats)
                 if me is not None and held.owner == me.id]
        mine = owned[0] if owned else None
    if mine is not None and seat is not None and seat != mine:
        raise HTTPException(403, t("review.web.own_seat", lang))
    if mine is None and room.private:
        raise HTTPException(403, t("review.web.private", lang))
    asked = mine if mine is not None else seat
    if asked is None:
        raise HTTPException(400, t("review.web.which_seat", lang))
    if asked >= room.players:
        raise HTTPException(400, t("review.err.seat", lang, seat=repr(asked), players=room.players,
                                   last=room.players - 1))
    me = identity_of(request, svc.identities)
    svc.take("review", me.id if me is not None else None, address_of(request), lang)
    try:
        body, reason = await svc.reviews.review((table_id, hand_no, asked), text, asked,
                                                address_of(request))
    except TooMany as exc:
        raise HTTPException(exc.status, exc.say(lang), headers={
            "Retry-After": str(round(exc.retry_after or 1))}) from None
    except Exception:  # the pool failed (a worker died): said, logged, and tried anew next time
        log.exception("table %s: the review of hand %d failed in the bot pool", table_id, hand_no)
        raise HTTPException(503, t("review.web.failed", lang), headers={"Retry-After": "5"}) from None
    if body is None:
        raise HTTPException(400, render(reason or msg("err.web.replay", reason=""), lang))
    return Response(body, media_type="application/json")

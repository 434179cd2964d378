"""What the server's operator and their tools fetch: ``/healthz`` (is this process well: its
database, Redis where it has one; what it serves) and ``/metrics`` (its figures, in
Prometheus's text format: ``ops/metrics.py``).

``/metrics`` on the main port is answered only to a loopback client (a Prometheus or an agent
on the same machine), unless ``tienlen serve --metrics-public`` (where only a private network
reaches the port); with ``--metrics-address HOST:PORT`` it is served there, on a listener of
its own, and the main port does not know it (404). Its figures name no table, player or
address, but how busy a server is is the operator's to know. Behind a reverse proxy on the same
machine every client looks local: the proxy sends ``X-Forwarded-For`` (uvicorn believes it from
127.0.0.1) or does not pass ``/metrics`` on."""

from __future__ import annotations

import ipaddress
import os
import time

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import JSONResponse, Response

from ...i18n import msg
from ..ops import process
from ..ops.health import Health
from ..ops.options import Ops
from ..refusal import Refused
from ..services import Services, Svc

router = APIRouter()


def _loopback(request: Request) -> bool:
    host = request.client.host if request.client is not None else ""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:  # not an address (a test client's name): not known to be local
        return False


def _ops(request: Request) -> Ops:
    ops: Ops = getattr(request.app.state, "ops", None) or Ops()
    return ops


@router.get("/metrics", include_in_schema=False)
def metrics(request: Request, svc: Svc) -> Response:
    """This process's figures (a plain ``def``: read in the thread pool, as from the listener of
    ``--metrics-address``; nothing it reads needs the event loop)."""
    ops = _ops(request)
    if ops.metrics_address is not None:  # served on a listener of its own
        raise HTTPException(404)
    if not ops.metrics_public and not _loopback(request):
        raise Refused(msg("err.web.metrics_local"), status=403)
    body, media_type = svc.metrics.text(request.headers.get("accept", ""))
    return Response(body, media_type=media_type, headers={"Cache-Control": "no-store"})


def _health(request: Request, svc: Services) -> Health:
    """The app's checks (made at the first probe; on the event loop, so made once)."""
    health: Health | None = getattr(request.app.state, "health", None)
    if health is None:
        health = request.app.state.health = Health(svc.repo.engine,
                                                   lambda: getattr(svc, "redis", None))
    return health


@router.get("/healthz", response_model=None, responses={
    503: {"description": "Degraded: the database (or Redis) did not answer"}})
async def healthz(request: Request, svc: Svc) -> JSONResponse:
    """``status`` ok (200) or degraded (503, when the database or Redis did not answer: each
    check's ``error`` says why); ``role``, ``process`` (its name) and ``pid``; ``database``
    (``ok``, its ``dialect``), ``redis`` (null: none used); ``uptime`` in seconds; and what
    this process serves now: its tables, those playing, its connections, the moves stored and
    the engine its bots play on. The counts are read on the event loop, the checks off it."""
    rooms = svc.lobby.rooms
    stats = svc.lobby.committer.stats
    served = {"tables": len(rooms), "playing": sum(1 for r in rooms.values() if r.started),
              "connections": sum(len(r.clients) for r in rooms.values()),
              "moves": stats.moves, "bot_moves": stats.bot_moves, "batches": stats.batches,
              "engine": svc.lobby.committer.pool.engine}
    database, redis = await _health(request, svc).checks()
    ok = database["ok"] and (redis is None or redis["ok"])
    body = {"status": "ok" if ok else "degraded", "role": svc.role, "process": process.name(),
            "pid": os.getpid(), "database": {**database, "dialect": svc.repo.dialect},
            "redis": redis, "uptime": round(time.time() - svc.started, 1), **served}
    return JSONResponse(body, status_code=200 if ok else 503, headers={"Cache-Control": "no-store"})

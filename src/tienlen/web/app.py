"""The FastAPI application: the routers (``routes/``, ``socket.py``) wired to one
:class:`~.services.Services`, the exception handlers (``problems.py``), the body limit, the
static files, and the server's life: rebuilding the tables, the idle sweep, quick match's
matchmaker, the collector."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import AsyncIterator, Callable

from fastapi import Depends, FastAPI
from fastapi.staticfiles import StaticFiles

from . import matchmaker
from .accounts.accounts import Accounts
from .http import problems
from .http.bodylimit import BodyLimit
from .http.origin import OriginCheck
from .limits import Limits
from .now import REAL_TIME, Time, Timer
from .ops.options import Ops
from .routes import accounts, friends, lobby, moderation, ops, pages, players, quickmatch, records, socket
from .routes.pages import STATIC
from .schema import open_repository
from .services import Services
from .storage import default_db

log = logging.getLogger("tienlen.web")
GC_THRESHOLDS = (10_000, 10, 100)  # the garbage collector's, while serving (Python's: 700, 10, 10)


def sweep(services: Services) -> None:
    """Close the idle tables and delete the reports and the chat kept long enough
    (``--keep-reports``, ``--keep-chat``)."""
    try:
        services.lobby.expire_idle()
    except Exception:  # the next sweep tries again; serving goes on
        log.exception("closing idle tables failed")
    try:
        services.moderation.sweep(services.limits.keep_reports, services.limits.keep_chat)
    except Exception:
        log.exception("deleting old reports and chat failed")


class Sweeper:
    """:func:`sweep` every ``sweep_every`` seconds of the services' time (:mod:`.now`: a test
    that moves its time by hand moves the sweeps with it)."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self._timer: Timer | None = None

    def start(self) -> None:
        self._timer = self.services.clock.call_later(self.services.limits.sweep_every, self._run)

    def _run(self) -> None:
        sweep(self.services)
        self.start()

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


def create_app(db_url: str | None = None, bot_delay: float = 0.5,
               limits: Limits | None = None,
               clock: Time = REAL_TIME, api_docs: bool = False,
               prepared: Callable[[float | None], None] | None = None,
               operations: Ops | None = None) -> FastAPI:
    """The server for ``db_url`` (default: :func:`~.storage.default_db`, an SQLite file) under
    ``limits`` (default: :class:`~.limits.Limits`); ``clock`` is the one time (:mod:`.now`) the
    rate limits count by and the tables, their bots and the sweeps run on.
    ``api_docs``: serve the API's documentation page at /api/docs (its scripts come from a CDN,
    so it is off unless asked for; the schema itself is always at /openapi.json). ``prepared``
given (``tienlen serve``): the bot pool compiles the fast path at start (the pure engine
answers meanwhile) and calls it with the seconds that took (None: it failed) once done;
not given (the tests' servers), the pool's workers compile it on first use. ``operations``:
where /metrics is served and to whom (ops/options.py; default: the main port, loopback only)."""
    limits = limits or Limits()
    services = Services.make(open_repository(db_url or default_db().url, clock), bot_delay, limits,
                             clock)
    services.metrics.watch(services.lobby, lambda: services.role)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        services.lobby.restore()
        app.state.loop = asyncio.get_running_loop()
        for room in services.lobby.rooms.values():
            room.schedule()
        sweeper = Sweeper(services)
        sweeper.start()
        matcher = asyncio.create_task(matchmaker.matchmaking(services))
        if prepared is not None:
            services.lobby.committer.pool.prepare(prepared)
        # Garbage collection pauses the whole server. What startup built (the rebuilt tables)
        # lives as long as the server: leave it out of every later collection. Collect the young
        # generation less often, so that the many short-lived objects of each move die before
        # a collection sees them instead of piling up in the old generation, whose full
        # collections (100 ms and more with hundreds of tables) would hold every table back.
        thresholds = gc.get_threshold()
        gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        yield
        sweeper.stop()
        matcher.cancel()
        services.lobby.committer.pool.close()
        gc.set_threshold(*thresholds)
        gc.unfreeze()
        services.repo.close()

    # every route passes the ban's gate: a banned player may watch and nothing more
    app = FastAPI(title="tienlen", lifespan=lifespan, docs_url="/api/docs" if api_docs else None,
                  redoc_url=None, dependencies=[Depends(moderation.not_banned)])
    app.state.services = services
    app.state.lobby = services.lobby  # the tests' and the tools' way in
    app.state.limits = limits
    app.state.ops = operations or Ops()
    app.state.offload = services.offload
    app.state.accounts = Accounts(services.identities, services.clock, limits)
    app.add_middleware(BodyLimit, limit=limits.max_body)
    app.add_middleware(OriginCheck)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    problems.install(app, (pages.router, lobby.router, records.router, players.router,
                           accounts.router, moderation.router, friends.router,
                           quickmatch.router, socket.router, ops.router))
    return app

"""The FastAPI application: the routers (``routes/``, ``socket.py``) wired to one
:class:`~.services.Services`, the exception handlers (``problems.py``), the body limit, the
static files, and the server's life: rebuilding the tables, the idle sweep, quick match's
matchmaker, the collector."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from collections.abc import AsyncIterator, Callable

from fastapi import Depends, FastAPI
from fastapi.staticfiles import StaticFiles

from . import matchmaker, problems, socket
from .accounts import Accounts
from .bodylimit import BodyLimit
from .limits import Limits
from .origin import OriginCheck
from .routes import accounts, friends, lobby, moderation, pages, players, quickmatch, records
from .routes.pages import STATIC
from .services import Services
from .storage import Repository, default_db

log = logging.getLogger("tienlen.web")
GC_THRESHOLDS = (10_000, 10, 100)  # the garbage collector's, while serving (Python's: 700, 10, 10)


async def sweep(services: Services) -> None:
    """Close the idle tables and delete the reports and the chat kept long enough
    (``--keep-reports``, ``--keep-chat``), every ``sweep_every`` seconds."""
    while True:
        await asyncio.sleep(services.limits.sweep_every)
        try:
            services.lobby.expire_idle()
        except Exception:  # the next sweep tries again; serving goes on
            log.exception("closing idle tables failed")
        try:
            services.moderation.sweep(services.limits.keep_reports, services.limits.keep_chat)
        except Exception:
            log.exception("deleting old reports and chat failed")


def create_app(db_url: str | None = None, bot_delay: float = 0.5,
               limits: Limits | None = None,
               clock: Callable[[], float] = time.monotonic, api_docs: bool = False,
               prepared: Callable[[float | None], None] | None = None) -> FastAPI:
    """The server for ``db_url`` (default: :func:`~.storage.default_db`, an SQLite file) under
    ``limits`` (default: :class:`~.limits.Limits`); the rate limits count time by ``clock``.
    ``api_docs``: serve the API's documentation page at /api/docs (its scripts come from a CDN,
    so it is off unless asked for; the schema itself is always at /openapi.json). ``prepared``
given (``tienlen serve``): the bot pool compiles the fast path at start (the pure engine
answers meanwhile) and calls it with the seconds that took (None: it failed) once done;
not given (the tests' servers), the pool's workers compile it on first use."""
    limits = limits or Limits()
    services = Services.make(Repository(db_url or default_db().url), bot_delay, limits, clock)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        services.lobby.restore()
        app.state.loop = asyncio.get_running_loop()
        for room in services.lobby.rooms.values():
            room.schedule()
        sweeper = asyncio.create_task(sweep(services))
        matcher = asyncio.create_task(matchmaker.matchmaking(services))
        if prepared is not None:
            services.lobby.driver.pool.prepare(prepared)
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
        sweeper.cancel()
        matcher.cancel()
        services.offload.close()
        services.lobby.driver.pool.close()
        gc.set_threshold(*thresholds)
        gc.unfreeze()
        services.repo.close()

    # every route passes the ban's gate: a banned player may watch and nothing more
    app = FastAPI(title="tienlen", lifespan=lifespan, docs_url="/api/docs" if api_docs else None,
                  redoc_url=None, dependencies=[Depends(moderation.not_banned)])
    app.state.services = services
    app.state.lobby = services.lobby  # the tests' and the tools' way in
    app.state.limits = limits
    app.state.offload = services.offload
    app.state.accounts = Accounts(services.identities, services.clock, limits)
    app.add_middleware(BodyLimit, limit=limits.max_body)
    app.add_middleware(OriginCheck)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    problems.install(app, (pages.router, lobby.router, records.router, players.router,
                           accounts.router, moderation.router, friends.router,
                           quickmatch.router, socket.router))
    return app

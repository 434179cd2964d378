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

from .. import TienLenError
from ..errors import error
from . import matchmaker
from .accounts.accounts import Accounts
from .http import problems
from .http.bodylimit import BodyLimit
from .http.compress import PageCompression
from .http.origin import OriginCheck
from .limits import Counting, Limits
from .now import REAL_TIME, Time, Timer
from .ops.options import Ops
from .refusal import Refused
from .routes import accounts, friends, lobby, moderation, ops, pages, players, quickmatch, records, socket
from .routes.pages import STATIC
from .schema import open_repository
from .services import Services
from .shared.store import connect
from .storage import default_db

log = logging.getLogger("tienlen.web")
GC_THRESHOLDS = (10_000, 10, 100)  # the garbage collector's, while serving (Python's: 700, 10, 10)


def sweep(services: Services) -> None:
    """Close the idle tables (this process's own) and, where this process leads the room,
    delete the reports and the chat kept long enough (``--keep-reports``, ``--keep-chat``)."""
    try:
        services.lobby.expire_idle()
    except Exception:  # the next sweep tries again; serving goes on
        log.exception("closing idle tables failed")
    if not services.leads():
        return
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


async def renewing(counting: Counting, every: float) -> None:
    """Renew what this process holds in the shared counts every ``every`` seconds (real ones:
    what a shared count forgets is on its own time), for as long as the server runs."""
    while True:
        await asyncio.sleep(every)
        try:
            counting.refresh()
        except Refused:  # Redis does not answer (store.py said so): the next renewal tries again
            pass
        except Exception:
            log.exception("renewing the shared counts failed")


def create_app(db_url: str | None = None, bot_delay: float = 0.5,
               limits: Limits | None = None,
               clock: Time = REAL_TIME, api_docs: bool = False,
               prepared: Callable[[float | None], None] | None = None,
               redis_url: str | None = None, redis_prefix: str = "",
               operations: Ops | None = None) -> FastAPI:
    """The server for ``db_url`` (default: :func:`~.storage.default_db`, an SQLite file) under
    ``limits`` (default: :class:`~.limits.Limits`); ``clock`` is the one time (:mod:`.now`) the
    rate limits count by and the tables, their bots and the sweeps run on.
    ``api_docs``: serve the API's documentation page at /api/docs (its scripts come from a CDN,
    so it is off unless asked for; the schema itself is always at /openapi.json). ``prepared``
given (``tienlen serve``): the bot pool compiles the fast path at start (the pure engine
answers meanwhile) and calls it with the seconds that took (None: it failed) once done;
not given (the tests' servers), the pool's workers compile it on first use.
``redis_url`` given (``redis://host:port/db``): this process is one of a room of many over
that Redis (bus/cluster.py): it restores no table at start and serves those it takes; the rate
limits, the sign-in tries and the connections per address are counted there, shared with every
process (``shared/``); its keys and channels start ``tl:`` + ``redis_prefix``. None: alone,
counted in this process's memory. ``operations``: where /metrics is served and to whom
(ops/options.py; default: the main port, loopback only)."""
    limits = limits or Limits()
    url = db_url or default_db().url
    if redis_url is not None and not url.startswith("postgresql"):
        raise error(TienLenError, "err.serve.redis_needs_pg", db=url.split(":", 1)[0])
    client = connect(redis_url) if redis_url is not None else None
    services = Services.make(open_repository(url, clock), bot_delay, limits, clock, redis=client,
                             redis_prefix=redis_prefix)
    cluster = services.join_cluster(redis_url, redis_prefix) if redis_url is not None else None
    services.metrics.watch(services.lobby, lambda: services.role)
    services.lobby.ownership.on_takeover = services.metrics.took_over

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if cluster is None:
            services.lobby.restore()
        else:
            await cluster.start()
        app.state.loop = asyncio.get_running_loop()
        for room in services.lobby.rooms.values():
            room.schedule()
        services.lobby.start_leases()
        sweeper = Sweeper(services)
        sweeper.start()
        matcher = asyncio.create_task(matchmaker.matchmaking(services))
        every = services.counting.renew_every  # None: nothing to renew (counted in memory)
        renewer = asyncio.create_task(renewing(services.counting, every)) if every else None
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
        if renewer is not None:
            renewer.cancel()
        services.lobby.stop_leases()
        if cluster is not None:
            await cluster.stop()
        services.lobby.committer.close()
        gc.set_threshold(*thresholds)
        gc.unfreeze()
        services.repo.close()
        if client is not None:
            client.close()

    # every route passes the ban's gate: a banned player may watch and nothing more
    app = FastAPI(title="tienlen", lifespan=lifespan, docs_url="/api/docs" if api_docs else None,
                  redoc_url=None, dependencies=[Depends(moderation.not_banned)])
    app.state.services = services
    app.state.lobby = services.lobby  # the tests' and the tools' way in
    app.state.limits = limits
    app.state.ops = operations or Ops()
    app.state.offload = services.offload
    app.state.accounts = Accounts(services.identities, services.clock, limits, services.counting)
    app.add_middleware(BodyLimit, limit=limits.max_body)
    app.add_middleware(OriginCheck)
    app.add_middleware(PageCompression)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    problems.install(app, (pages.router, lobby.router, records.router, players.router,
                           accounts.router, moderation.router, friends.router,
                           quickmatch.router, socket.router, ops.router))
    return app

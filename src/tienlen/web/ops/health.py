"""``/healthz``'s checks: the database answers a ``SELECT 1``, and Redis (where the server holds
a client of one: ``services.redis``) a ``PING``.

Each check runs off the event loop (the database's in a thread, ``asyncio.to_thread``) and is
waited for :data:`TIMEOUT` seconds at most: a database that does not answer (a host gone
silent) makes the answer degraded, not late. One check of each at a time: a probe asked while
one is under way shares its answer (:class:`Probe`), so a load balancer's probes never pile
threads up behind a silent database. A check never raises: what went wrong is its ``error``, in
the database library's words (the first line, as :func:`~..storage.transaction` says it; the
server's refusals say it so too).
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy import text
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError

TIMEOUT = 3.0  # seconds a check is waited for
Check = dict[str, Any]  # {"ok": bool, "error"?: str}


def said(exc: BaseException) -> str:
    """What went wrong, in one line: the first of the error's text (SQLAlchemy's names the
    driver's error: ``(sqlite3.OperationalError) unable to open database file``), after the
    error's kind for any other."""
    first = (str(exc).splitlines() or [""])[0][:200]
    if isinstance(exc, SQLAlchemyError) and first:
        return first
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__


def database(engine: Engine) -> Check:
    """``SELECT 1`` on a connection of ``engine``'s pool, as every store takes one: blocking,
    for a thread."""
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
    except Exception as exc:  # whatever it is, the answer says it: never a 500
        return {"ok": False, "error": said(exc)}
    return {"ok": True}


async def redis(client: Any) -> Check:
    """``PING`` to ``client``, a redis-py client (its blocking one, in a thread; or its asyncio
    one, whose ``ping()`` gives what to await)."""
    try:
        answer = await asyncio.to_thread(client.ping)
        if inspect.isawaitable(answer):
            answer = await answer
    except Exception as exc:
        return {"ok": False, "error": said(exc)}
    return {"ok": True} if answer else {"ok": False, "error": "no PONG"}


class Probe:
    """One check at a time: :meth:`__call__` starts ``check`` unless one is under way, and waits
    for it :data:`TIMEOUT` seconds at most. On the event loop."""

    def __init__(self, check: Callable[[], Awaitable[Check]]) -> None:
        self.check = check
        self._running: asyncio.Future[Check] | None = None

    async def __call__(self, timeout: float = TIMEOUT) -> Check:
        if self._running is None or self._running.done():
            self._running = asyncio.ensure_future(self.check())
        try:
            return await asyncio.wait_for(asyncio.shield(self._running), timeout)
        except TimeoutError:
            return {"ok": False, "error": f"no answer within {timeout:g} s"}


class Health:
    """The checks of one server: its database's, and Redis's when it holds a client (read at
    each check: ``redis_of()``, None when there is none)."""

    def __init__(self, engine: Engine, redis_of: Callable[[], Any]) -> None:
        self.database = Probe(lambda: asyncio.to_thread(database, engine))
        self.redis_of = redis_of
        self.redis = Probe(lambda: redis(self.redis_of()))

    async def checks(self) -> tuple[Check, Check | None]:
        """The database's check, and Redis's (None: the server holds no Redis client)."""
        if self.redis_of() is None:
            return await self.database(), None
        database_check, redis_check = await asyncio.gather(self.database(), self.redis())
        return database_check, redis_check

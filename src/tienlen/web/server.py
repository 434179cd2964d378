"""``tienlen serve``: the web server under uvicorn, and the options that set its limits."""

from __future__ import annotations

import argparse
import functools
import os
from typing import TYPE_CHECKING

from .. import fast
from ..errors import ArgumentError, TienLenError, error
from ..fast.cache import CACHE_ENV, settle
from ..i18n import Msg, t
from .limits import Limits
from .ops import logs
from .ops.options import Ops, metrics_text
from .table.agent import load_agent, serve_agent

if TYPE_CHECKING:
    from .storage import DefaultDb

MAX_WS_MESSAGE = 64 * 1024  # uvicorn closes a connection sending more; the protocol allows 4 KiB

_D = Limits()


# the limits as options: (field of Limits, metavar, type)
_OPTIONS = (("max_tables", "N", int), ("tables_per_client", "N", int),
            ("tables_per_address", "N", int), ("creates_per_minute", "N", int),
            ("creates_per_address", "N", int), ("messages_per_second", "N", int),
            ("messages_per_address", "N", int), ("connections_per_address", "N", int),
            ("max_body", "BYTES", int), ("replays_per_client", "N", int),
            ("signins_per_name", "N", int), ("signins_per_address", "N", int),
            ("idle_expiry", "SECONDS", float))
_RETENTION = ("keep_reports", "keep_chat")  # days, as options of their own group


def add_limit_options(parser: argparse.ArgumentParser, lang: str = "en") -> None:
    """The server's limits as ``tienlen serve`` options, each with its default (help in ``lang``)."""
    def h(key: str) -> str:
        return t(f"cli.help.serve.{key}", lang)

    group = parser.add_argument_group(h("limits"), h("limits_counted"))
    for name, metavar, kind in _OPTIONS:
        group.add_argument("--" + name.replace("_", "-"), type=kind, default=getattr(_D, name),
                           metavar=metavar, help=h(name))
    group.add_argument("--bot-workers", type=int, default=_D.bot_workers, metavar="N",
                       help=h("bot_workers"))
    group.add_argument("--match-wait", type=float, default=_D.match_wait, metavar="SECONDS",
                       help=h("match_wait"))
    # how long what players wrote is kept: reports and chat (the audit log is kept for ever)
    kept = parser.add_argument_group(h("retention"))
    for name in _RETENTION:
        kept.add_argument("--" + name.replace("_", "-"), type=float, default=getattr(_D, name),
                          metavar="DAYS", help=h(name))


def limits_from(args: argparse.Namespace) -> Limits:
    """The limits ``tienlen serve`` was given."""
    try:
        return Limits(**{name: getattr(args, name) for name, _, _ in _OPTIONS},
                      **{name: getattr(args, name) for name in _RETENTION},
                      bot_workers=args.bot_workers, match_wait=args.match_wait,
                      sweep_every=min(_D.sweep_every, max(1.0, args.idle_expiry / 4)))
    except ArgumentError as exc:  # named as the option is: max-tables
        reason = exc.reason
        assert isinstance(reason, Msg)
        params = {**reason.params, "name": str(reason.params["name"]).replace("_", "-")}
        raise error(TienLenError, reason.key, **params) from None


def limits_text(limits: Limits, lang: str = "en") -> str:
    """The start-up line that states the server's limits (0: a per-client limit is off)."""
    return t("cli.serve.limits", lang, **{name: f"{getattr(limits, name):g}"
                                          for name, _, _ in _OPTIONS})


def engine_text(lang: str = "en") -> str:
    """The start-up line that says what the bots and hints run on: the compiled engine being
    prepared (and where it is kept between starts), or the pure one. Settles the cache's
    folder (``fast/cache.py``) for the bot pool's processes to come."""
    if not fast.available():
        return t("cli.serve.engine_pure", lang)
    kept = settle()
    if kept is None:
        return t("cli.serve.engine_uncached", lang)
    return t("cli.serve.engine_preparing", lang, folder=kept)


def prepared_text(seconds: float | None, lang: str = "en") -> str:
    """The line said once the compiled engine is ready (None: it could not be compiled)."""
    if seconds is None:
        return t("cli.serve.engine_failed", lang)
    return t("cli.serve.engine_ready", lang, s=f"{seconds:.0f}")


def found_db_text(found: DefaultDb, lang: str = "en") -> str:
    """The start-up line said when the database is the one a server left in the working
    folder (:func:`~.storage.default_db`): kept, and where a new one would have gone."""
    from ..play.controller import data_dir

    return t("cli.serve.db_here", lang, path=found.path, folder=data_dir())


REDIS_SCHEMES = ("redis://", "rediss://", "unix://")


def check_redis(redis: str, db: str | None) -> None:
    """Refuse ``--redis`` without a PostgreSQL ``--db`` (many processes share the database),
    a URL that is no Redis's, or a Redis that does not answer."""
    if db is None or not db.startswith("postgresql"):
        raise error(TienLenError, "err.serve.redis_needs_pg",
                    db=(db or "sqlite").split(":", 1)[0])
    if not redis.startswith(REDIS_SCHEMES):
        raise error(TienLenError, "err.serve.redis_url", url=repr(redis))
    try:
        import redis as redis_py
    except ImportError as exc:
        raise error(TienLenError, "err.serve.extra", error=str(exc)) from None
    try:
        client = redis_py.Redis.from_url(redis, socket_timeout=3, socket_connect_timeout=3)
        try:
            client.ping()
        finally:
            client.close()
    except (redis_py.RedisError, OSError, ValueError) as exc:
        raise error(TienLenError, "err.serve.redis_down", url=repr(redis),
                    error=str(exc).splitlines()[0] if str(exc) else type(exc).__name__) from None


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | None = None,
          bot_delay: float = 0.5, limits: Limits | None = None, lang: str = "en",
          api_docs: bool = False, cache_dir: str | None = None, redis: str | None = None,
          ops: Ops | None = None, agent: str | None = None) -> int:
    """Run the server until interrupted; ``cache_dir``: where the compiled engine is kept
    between starts (else ``TIENLEN_CACHE_DIR``, else numba's own places). ``redis``: this
    process is one of a room of many over that Redis (their database a PostgreSQL one);
    ``ops``: /metrics' address and the logs' form (ops/options.py); ``agent``: the trained
    agent offered at its tables (``NAME=py:MODULE:ATTR@PRESET/PLAYERS``, table/agent.py)."""
    try:
        import uvicorn

        from .app import create_app
        from .ops.metrics import listen
        from .storage import default_db
    except ImportError as exc:
        raise error(TienLenError, "err.serve.extra", error=str(exc)) from None
    if not 0 < port < 65536:
        raise error(TienLenError, "err.serve.port", port=port)
    if redis is not None:
        check_redis(redis, db)
    if cache_dir is not None:
        os.environ[CACHE_ENV] = cache_dir
    served = load_agent(agent) if agent is not None else None  # a bad one stops the start
    serve_agent(served)
    engine = engine_text(lang)
    ops = ops or Ops()
    say = logs.start() if ops.log_json else functools.partial(print, flush=True)

    def prepared(seconds: float | None) -> None:
        say(prepared_text(seconds, lang))

    chosen = default_db() if db is None else None
    url = chosen.url if chosen is not None else str(db)
    app = create_app(url, bot_delay=bot_delay, limits=limits, api_docs=api_docs,
                     prepared=prepared, redis_url=redis, operations=ops)
    apart = listen(app.state.services.metrics, ops.metrics_address) if ops.metrics_address else None
    say(t("cli.serve.serving", lang, url=f"http://{host}:{port}/", db=url))
    if redis is not None:
        say(t("cli.serve.in_a_room", lang, redis=redis))
    if chosen is not None and chosen.here:
        say(found_db_text(chosen, lang))
    say(limits_text(limits or Limits(), lang))
    if served is not None:
        say(t("cli.serve.agent", lang, name=served.name, spec=served.spec, preset=served.preset,
              players=served.players))
    say(metrics_text(ops, host, port, lang))
    say(engine)
    try:  # --log-json: the logging is configured already (logs.start), else uvicorn's own
        uvicorn.run(app, host=host, port=port, ws_max_size=MAX_WS_MESSAGE, log_level="warning",
                    log_config=None if ops.log_json else uvicorn.config.LOGGING_CONFIG)
    finally:
        if apart is not None:
            apart()
    return 0

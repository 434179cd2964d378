"""``tienlen serve``: the web server under uvicorn, and the options that set its limits."""

from __future__ import annotations

import argparse

from ..errors import ArgumentError, TienLenError, error
from ..i18n import Msg, t
from .limits import Limits

MAX_WS_MESSAGE = 64 * 1024  # uvicorn closes a connection sending more; the protocol allows 4 KiB

_D = Limits()


def add_limit_options(parser: argparse.ArgumentParser, lang: str = "en") -> None:
    """The server's limits as ``tienlen serve`` options, each with its default (help in ``lang``)."""
    def h(key: str) -> str:
        return t(f"cli.help.serve.{key}", lang)

    group = parser.add_argument_group(h("limits"))
    group.add_argument("--max-tables", type=int, default=_D.max_tables, metavar="N",
                       help=h("max_tables"))
    group.add_argument("--tables-per-client", type=int, default=_D.tables_per_client, metavar="N",
                       help=h("tables_per_client"))
    group.add_argument("--creates-per-minute", type=int, default=_D.creates_per_minute,
                       metavar="N", help=h("creates_per_minute"))
    group.add_argument("--messages-per-second", type=int, default=_D.messages_per_second,
                       metavar="N", help=h("messages_per_second"))
    group.add_argument("--connections-per-client", type=int, default=_D.connections_per_client,
                       metavar="N", help=h("connections_per_client"))
    group.add_argument("--idle-expiry", type=float, default=_D.idle_expiry, metavar="SECONDS",
                       help=h("idle_expiry"))


def limits_from(args: argparse.Namespace) -> Limits:
    """The limits ``tienlen serve`` was given."""
    try:
        return Limits(max_tables=args.max_tables, tables_per_client=args.tables_per_client,
                      creates_per_minute=args.creates_per_minute,
                      messages_per_second=args.messages_per_second,
                      connections_per_client=args.connections_per_client,
                      idle_expiry=args.idle_expiry,
                      sweep_every=min(_D.sweep_every, max(1.0, args.idle_expiry / 4)))
    except ArgumentError as exc:  # named as the option is: max-tables
        reason = exc.reason
        assert isinstance(reason, Msg)
        params = {**reason.params, "name": str(reason.params["name"]).replace("_", "-")}
        raise error(TienLenError, reason.key, **params) from None


def limits_text(limits: Limits, lang: str = "en") -> str:
    """The start-up line that states the server's limits (0: a per-client limit is off)."""
    return t("cli.serve.limits", lang, max_tables=limits.max_tables,
             tables_per_client=limits.tables_per_client,
             creates_per_minute=limits.creates_per_minute,
             messages_per_second=limits.messages_per_second,
             connections_per_client=limits.connections_per_client,
             idle_expiry=f"{limits.idle_expiry:g}")


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | None = None,
          bot_delay: float = 0.5, limits: Limits | None = None, lang: str = "en") -> int:
    """Run the server until interrupted."""
    try:
        import uvicorn

        from .app import create_app
        from .storage import DEFAULT_DB
    except ImportError as exc:
        raise error(TienLenError, "err.serve.extra", error=str(exc)) from None
    if not 0 < port < 65536:
        raise error(TienLenError, "err.serve.port", port=port)
    app = create_app(db or DEFAULT_DB, bot_delay=bot_delay, limits=limits)
    print(t("cli.serve.serving", lang, url=f"http://{host}:{port}/", db=db or DEFAULT_DB))
    print(limits_text(limits or Limits(), lang), flush=True)
    uvicorn.run(app, host=host, port=port, ws_max_size=MAX_WS_MESSAGE, log_level="warning")
    return 0

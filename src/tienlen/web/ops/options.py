"""``tienlen serve``'s options for its operations surface: where ``/metrics`` is served and to
whom, and whether the logs are JSON lines. The standard library only, as ``server.py`` (the
command line's ``--help`` needs no extra)."""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from ...i18n import t


@dataclass(frozen=True)
class Ops:
    """How the server shows itself to its operator.

    ``metrics_address``: ``/metrics`` is served there, on a listener of its own (HOST, PORT),
    and not on the main port. Else it is on the main port, to loopback clients only unless
    ``metrics_public``. ``log_json``: the logs (``tienlen.web``'s, uvicorn's) and the start-up
    lines are JSON lines on stderr (``logs.py``)."""

    metrics_address: tuple[str, int] | None = None
    metrics_public: bool = False
    log_json: bool = False


def address(text: str, lang: str = "en") -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:9100`` for an IPv6 host) as (host, port), else
    :class:`argparse.ArgumentTypeError` saying what it should be."""
    host, sep, port = text.rpartition(":")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise argparse.ArgumentTypeError(t("cli.arg.host_port", lang, text=repr(text)))
    return host, int(port)


def add_ops_options(parser: argparse.ArgumentParser, lang: str = "en") -> None:
    """The operations options of ``tienlen serve`` (help in ``lang``), a group of their own."""
    def h(key: str) -> str:
        return t(f"cli.help.serve.{key}", lang)

    group = parser.add_argument_group(h("ops"), h("ops_said"))
    group.add_argument("--metrics-address", type=lambda text: address(text, lang), default=None,
                       metavar="HOST:PORT", help=h("metrics_address"))
    group.add_argument("--metrics-public", action="store_true", help=h("metrics_public"))
    group.add_argument("--log-json", action="store_true", help=h("log_json"))


def url_of(host: str, port: int, path: str = "") -> str:
    """``http://HOST:PORT/PATH``, an IPv6 host in brackets."""
    return f"http://{f'[{host}]' if ':' in host else host}:{port}/{path}"


def metrics_text(ops: Ops, host: str, port: int, lang: str = "en") -> str:
    """The start-up line that says where /metrics is served, and to whom."""
    if ops.metrics_address is not None:
        return t("cli.serve.metrics_apart", lang, url=url_of(*ops.metrics_address, "metrics"))
    if ops.metrics_public:
        return t("cli.serve.metrics_public", lang, url=url_of(host, port, "metrics"))
    return t("cli.serve.metrics_local", lang, url=url_of(host, port, "metrics"))


def ops_from(args: argparse.Namespace) -> Ops:
    """The operations options ``tienlen serve`` was given."""
    return Ops(metrics_address=args.metrics_address, metrics_public=args.metrics_public,
               log_json=args.log_json)

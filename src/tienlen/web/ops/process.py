"""The name this process goes by in its logs and its health (and, for the table leases of a
server of several processes, wherever one process must be told from another): ``HOST:PID``
unless it was given one (:func:`set_name`)."""

from __future__ import annotations

import functools
import os
import socket

_given: str | None = None


@functools.cache
def _host() -> str:
    return socket.gethostname()


def name() -> str:
    """This process's name (its pid read now: a spawned worker is another process)."""
    return _given if _given is not None else f"{_host()}:{os.getpid()}"


def set_name(given: str | None) -> None:
    """Go by ``given`` from now on (None: ``HOST:PID`` again): e.g. the owner name the table
    leases are held under, so that the logs, /healthz and the leases say the same."""
    global _given
    _given = given

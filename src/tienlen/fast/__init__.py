"""The optional compiled fast path of the play phase (``pip install -e '.[fast]'``: numba).

Hands and plays are bitmasks (:mod:`.layout`), a hand in play is one int64 array, and the
hot loop -- legal plays (:mod:`.movegen`), playing and passing with rounds and the hand's
end (:mod:`.engine`), playouts with the random, greedy and heuristic policies
(:mod:`.policies`, :mod:`.greedy`, :mod:`.heuristic`, :mod:`.appraise`, :mod:`.split`,
:mod:`.ranking`) -- is compiled by numba, cached on disk. :mod:`.encoding` converts a
:class:`~tienlen.game.Game` in play to the fast form and back; :mod:`.api` is the Python
face (:class:`~tienlen.fast.api.FastGame`), :mod:`.plays` its cache of ``Play`` objects.

Importing this package imports neither numba nor numpy: :func:`available` says whether the
extra is installed, :func:`supports` whether it implements a set of rules (callers fall
back to the pure engine otherwise), and :func:`load` compiles (or loads from the cache) on
first use. The pure engine stays the reference; the differential tests hold the two equal.
"""

from __future__ import annotations

import importlib.util
import os
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..rules import Rules

__all__ = ["available", "enabled", "load", "supports", "turned_off"]

_AVAILABLE: list[bool] = []


def available() -> bool:
    """Whether numba is installed (the ``fast`` extra); ``TIENLEN_PURE=1`` turns it off."""
    if turned_off():
        return False
    if not _AVAILABLE:
        _AVAILABLE.append(importlib.util.find_spec("numba") is not None)
    return _AVAILABLE[0]


def turned_off() -> bool:
    """Whether ``TIENLEN_PURE`` (set to anything but 0) turns the fast path off."""
    return os.environ.get("TIENLEN_PURE", "") not in ("", "0")


def supports(rules: Rules) -> bool:
    """Whether the fast path implements every option of ``rules`` that acts during play."""
    from .support import unsupported

    return not unsupported(rules)


def enabled(rules: Rules) -> bool:
    """Whether callers should use the fast path for these rules: installed and supported."""
    return available() and supports(rules)


def load() -> ModuleType:
    """The fast path's Python face (:mod:`tienlen.fast.api`), compiled or loaded from the cache."""
    from . import api

    return api

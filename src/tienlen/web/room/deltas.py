"""What a connection is sent after its first state: what changed since the one it holds.

:func:`update` compares the state a connection was last sent with the one it is owed now (both
of its own seat) field by field, and gives a :class:`~.protocol.Delta` of the difference, or
the whole state where a delta cannot say it (the first state, a seat changed, a hand view
appearing). A delta holds values of the new state only, so it tells a seat nothing its own
state would not. :func:`apply_delta` makes the state a client holds after a delta, both read
from JSON: what the page does (``static/lib/net.js``, ``applyDelta``), for the tests and the
benchmark.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from .protocol import Changes, Delta, State, Tail


def _kept(was: Sequence[Any], now: Sequence[Any]) -> int:
    """How many first items two lists share (the same object, or equal)."""
    n = 0
    for a, b in zip(was, now, strict=False):
        if a is not b and a != b:
            break
        n += 1
    return n


def changes(old: BaseModel, new: BaseModel) -> Changes | None:
    """The fields of ``new`` that differ from ``old``'s (two of one model): a list that keeps
    its first items as its new end (``tail``), anything else whole (``set``); None: none."""
    whole: dict[str, Any] = {}
    tails: dict[str, Tail] = {}
    for name in type(new).model_fields:
        was, now = getattr(old, name), getattr(new, name)
        if was is now or was == now:
            continue
        keep = _kept(was, now) if isinstance(was, list) and isinstance(now, list) else 0
        if keep:
            tails[name] = Tail(keep=keep, add=now[keep:])
        else:
            whole[name] = now
    return Changes(set=whole, tail=tails) if whole or tails else None


def update(shown: State | None, state: State) -> State | Delta:
    """What a connection that was last sent ``shown`` (None: nothing yet) is sent for ``state``
    (of the same seat): a delta, or ``state`` itself where its view appears, goes, or is
    another seat's."""
    was, now = shown.view if shown is not None else None, state.view
    if shown is None or (was is None) != (now is None) or \
            (was is not None and now is not None and was.seat != now.seat):
        return state
    view = changes(was, now) if was is not None and now is not None else None
    return Delta(version=state.version, base=shown.version, at=state.at,
                 info=changes(shown.info, state.info), view=view)


def _patched(held: dict[str, Any], changed: dict[str, Any]) -> dict[str, Any]:
    out = {**held, **changed.get("set", {})}
    for name, tail in changed.get("tail", {}).items():
        out[name] = [*held[name][:tail["keep"]], *tail["add"]]
    return out


def apply_delta(state: dict[str, Any], delta: dict[str, Any]) -> dict[str, Any] | None:
    """The state a client holds after ``delta`` (a ``state`` event as JSON read; ``state`` is
    left as it was), or None when ``delta`` is not for it (its ``base`` is not the version
    held): then the client asks for the whole state (``sync``)."""
    if state.get("version") != delta["base"]:
        return None
    out = {**state, "seq": delta["seq"], "version": delta["version"], "at": delta["at"]}
    for part in ("info", "view"):
        if part in delta:
            if state.get(part) is None:
                return None
            out[part] = _patched(state[part], delta[part])
    return out

"""What time it is, for the parts of the room that wait: one small object, real by default, that
a test replaces with one it moves by hand.

A :class:`Time` is the ``clock`` the rate limits take (:class:`~.limits.RateLimit`: called, it
gives monotonic seconds), with what a table needs besides: Unix seconds (what is stored and
shown) and wakes arranged for later. :data:`REAL_TIME` reads the machine's clocks and arranges
wakes on the running event loop.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any, Protocol


class Timer(Protocol):
    """A wake arranged for later (``asyncio.TimerHandle`` is one)."""

    def cancel(self) -> None: ...


class Time(Protocol):
    """Monotonic seconds when called; Unix seconds; wakes arranged for later."""

    def __call__(self) -> float:
        """Monotonic seconds (for intervals: never set back)."""

    def wall(self) -> float:
        """Unix seconds (what is stored, and shown to players)."""

    def call_later(self, delay: float, callback: Callable[..., object], *args: Any) -> Timer:
        """Call ``callback(*args)`` ``delay`` seconds from now."""

    def call_soon(self, callback: Callable[..., object], *args: Any) -> Timer:
        """Call ``callback(*args)`` as soon as what runs now is done."""


class RealTime:
    """The machine's clocks; wakes on the running event loop."""

    def __call__(self) -> float:
        return time.monotonic()

    def wall(self) -> float:
        return time.time()

    def call_later(self, delay: float, callback: Callable[..., object], *args: Any) -> Timer:
        return asyncio.get_running_loop().call_later(delay, callback, *args)

    def call_soon(self, callback: Callable[..., object], *args: Any) -> Timer:
        return asyncio.get_running_loop().call_soon(callback, *args)


REAL_TIME: Time = RealTime()

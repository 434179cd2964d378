"""A :class:`~tienlen.web.now.Time` that a test moves by hand: nothing waits a real second.

Called, it gives its monotonic seconds (``now``, which a test may also set): so it is the
``clock`` the rate limits count by too. A live server's is a :class:`ServerTime`
(``Server(clock=...)``, test_limits.py): its tables, their bots and its sweeps run on it."""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections.abc import Callable
from typing import Any

from tienlen.web.now import Timer

WALL = 1_700_000_000.0  # the Unix seconds when its monotonic clock reads 0


class ManualTimer:
    """A wake arranged on a :class:`ManualTime`."""

    def __init__(self, when: float, callback: Callable[..., object], args: tuple[Any, ...]) -> None:
        self.when = when
        self.callback = callback
        self.args = args
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class ManualTime:
    """Time that stands still until :meth:`advance` moves it; the wakes due on the way are
    called in order, each at its own time (``now`` reads it then)."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now
        self._timers: list[tuple[float, int, ManualTimer]] = []
        self._order = itertools.count()

    def __call__(self) -> float:
        return self.now

    def wall(self) -> float:
        return WALL + self.now

    def call_later(self, delay: float, callback: Callable[..., object], *args: Any) -> Timer:
        timer = ManualTimer(self.now + max(0.0, delay), callback, args)
        heapq.heappush(self._timers, (timer.when, next(self._order), timer))
        return timer

    def call_soon(self, callback: Callable[..., object], *args: Any) -> Timer:
        return self.call_later(0.0, callback, *args)

    def pending(self) -> list[float]:
        """When (monotonic seconds) each wake still arranged is due, soonest first."""
        return sorted(when for when, _, timer in self._timers if not timer.cancelled)

    def advance(self, seconds: float = 0.0) -> None:
        """Move time on by ``seconds``, calling each wake due on the way (and those they arrange
        that are due by then)."""
        end = self.now + seconds
        while self._timers and self._timers[0][0] <= end:
            when, _, timer = heapq.heappop(self._timers)
            if timer.cancelled:
                continue
            self.now = max(self.now, when)
            timer.callback(*timer.args)
        self.now = end


class ServerTime(ManualTime):
    """A :class:`ManualTime` for a live server, whose event loop is real: what is due now (soon,
    or after no delay: a bot of no delay, the driver's next batch) runs on that loop at once,
    as on real time, so the server never waits for a test to move its time; what is due later
    (turn timers, away timeouts, countdowns, the idle sweep) waits until the test moves it
    (``Server.advance``: on the server's loop, where the tables live)."""

    def call_later(self, delay: float, callback: Callable[..., object], *args: Any) -> Timer:
        if delay <= 0:
            return self.call_soon(callback, *args)
        return super().call_later(delay, callback, *args)

    def call_soon(self, callback: Callable[..., object], *args: Any) -> Timer:
        return asyncio.get_running_loop().call_soon(callback, *args)

"""CPU work that must not hold the event loop (replays, whole-table records) in worker
processes, a few at a time per client.

Every table lives on the event loop, so a replay computed there holds every table back. The
work goes to a small pool of worker processes (started when first needed): the loop only
waits for the answer. One client (an address) may have ``per_client`` such requests running;
more are refused with 429 until one is done, so one client cannot queue the pool full.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from ..i18n import msg
from .limits import Held
from .refusal import Refused

T = TypeVar("T")

WORKERS = 2  # worker processes


class Offload:
    """Run functions in worker processes, at most ``per_client`` at once for one client."""

    def __init__(self, workers: int = WORKERS, per_client: int = 4) -> None:
        self.workers = workers
        self.per_client = per_client
        self._running = Held(per_client)  # the jobs running, per client
        self._pool: ProcessPoolExecutor | None = None

    async def run(self, key: str, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker, counted against ``key``; :class:`~.refusal.Refused` when
        ``key`` already has ``per_client`` running."""
        if not self._running.take(key):
            raise Refused.too_many(msg("err.web.busy", n=self.per_client), retry_after=1)
        try:
            try:
                return await asyncio.get_running_loop().run_in_executor(self._workers(), fn, *args)
            except BrokenProcessPool:  # a worker died (killed, out of memory): once more, anew
                self._pool = None
                return await asyncio.get_running_loop().run_in_executor(self._workers(), fn, *args)
        finally:
            self._running.give(key)

    def _workers(self) -> ProcessPoolExecutor:
        if self._pool is None:  # spawned, not forked: the server's threads stay behind
            self._pool = ProcessPoolExecutor(self.workers,
                                             mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

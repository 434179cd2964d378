"""The reviews of finished hands the web makes (``GET /api/tables/ID/records/N/review``).

A review is made in the bot pool (botpool.py), a decision at a time, behind every hint and bot
decision: a table's bot waits at most for one decision of a review, never for a whole one. The
latest :data:`KEPT` reviews, keyed by (table, hand, seat), are kept and shared while being
made, so a second click or another watcher does not make one again. New reviews are counted:
at most :data:`PER_ADDRESS` being made for one address (past it, 429) and :data:`AT_ONCE` in
all (past it, 503); a refused request (:class:`~.refusal.Refused`, with a Retry-After) queues
nothing. The cache is this process's, like the pool it feeds from.
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from typing import Any

from ...i18n import Msg, msg
from ..limits import Held
from ..refusal import Refused
from ..workers.botpool import BotPool

KEPT = 64  # reviews kept, the latest asked
PER_ADDRESS = 2  # reviews being made for one address
AT_ONCE = 8  # reviews being made in all

Key = tuple[str, int, int]  # table, hand, seat
Made = tuple[str | None, Msg | None]  # the review's JSON text, or why it cannot be made


class Reviews:
    """Reviews made in ``pool``, kept and shared, counted per address and in all."""

    def __init__(self, pool: BotPool, kept: int = KEPT, per_address: int = PER_ADDRESS,
                 at_once: int = AT_ONCE) -> None:
        self.pool = pool
        self.kept = kept
        self.per_address = per_address
        self.at_once = at_once
        self._made: OrderedDict[Key, asyncio.Task[Made]] = OrderedDict()
        self._making = Held(per_address)  # reviews being made, per address

    @property
    def making(self) -> int:
        return self._making.total

    async def review(self, key: Key, text: str, seat: int, address: str) -> Made:
        """The review of ``key`` (the hand's record ``text``, for ``seat``): the one kept or
        being made, or a new one counted against ``address``. Raises :class:`~.refusal.Refused`
        past the limits; an error of the pool (a worker that died) is raised as it is."""
        task = self._made.pop(key, None)
        if task is None or (task.done() and (task.cancelled() or task.exception() is not None)):
            if self._making.full(address):
                raise Refused.too_many(msg("review.web.busy", n=self.per_address), retry_after=2)
            if self.at_once and self.making >= self.at_once:
                raise Refused.too_many(msg("review.web.full"), status=503, retry_after=5)
            task = asyncio.get_running_loop().create_task(self._make(text, seat))
            self._making.take(address)
            task.add_done_callback(lambda _: self._making.give(address))
        self._made[key] = task  # the latest asked last
        while len(self._made) > self.kept:
            self._made.popitem(last=False)  # forgotten; one being made still ends
        return await asyncio.shield(task)  # one asker gone does not end it for the others

    async def _make(self, text: str, seat: int) -> Made:
        head, numbers, reason = await asyncio.wrap_future(self.pool.review_head(text, seat))
        if head is None:
            return None, reason
        decisions: list[dict[str, Any]] = []
        for number in numbers:
            decisions.append(await asyncio.wrap_future(
                self.pool.review_decision(text, seat, number)))
        head["decisions"] = decisions
        return json.dumps(head, ensure_ascii=False, separators=(",", ":")), None

"""One mechanism for every action that costs the server or reaches another person: creating a
table (and waiting in quick match, which ends in one), asking for friendship, inviting,
reporting, blocking, a hint, a thing said at a table, a review.

``Limiter.take(action, player, address)`` counts the action for the player (its identity; a
script with no cookie: its address) and for everyone behind its address, each a token bucket
(:class:`~.limits.Bucket`) at the rate ``Limits.rate(action)`` gives; past either it raises
one :class:`~.refusal.Refused` (429, how long to wait, in the asker's language) and spends
nothing. The HTTP routes and the table's commands (``room.py``: hints and chat) both call it,
so a player's six tables share one count of hints. Its buckets are its
:class:`~.limits.Counting`'s: this process's memory, or shared by every process in Redis.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ..i18n import msg
from .limits import ACTIONS, Counting, InMemory, Limits, span_text, wait_text
from .refusal import Refused

# what a player is told, per action ({n}, {span}, {wait}); past an address's ceiling, ADDRESS
WORDS = {"create": "err.web.creates", "friend": "err.web.limit.friend",
         "invite": "err.web.invite.many", "report": "err.web.report.too_many",
         "block": "err.web.limit.block", "hint": "err.web.limit.hint",
         "say": "chat.rate_limited", "review": "err.web.limit.review"}
ADDRESS = {"create": "err.web.creates_address"}  # else err.web.limit.address
assert set(WORDS) == set(ACTIONS)


class Limiter:
    """The buckets of every action of :data:`~.limits.ACTIONS`, per player and per address."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic,
                 counting: Counting | None = None) -> None:
        """``counting``: where the buckets are kept (default: in memory, counted by ``clock``;
        a shared one counts by its own time)."""
        self.counting = counting or InMemory(clock)
        self._buckets = {action: (self.counting.bucket(f"{action}.player", rate.player, rate.per),
                                  self.counting.bucket(f"{action}.address", rate.address, rate.per))
                         for action in ACTIONS for rate in (limits.rate(action),)}

    def take(self, action: str, player: str, address: str) -> None:
        """Count one ``action`` of ``player`` from ``address``: :class:`Refused` (429) past the
        player's limit or the address's ceiling, and then nothing is counted."""
        mine, theirs = self._buckets[action]
        refused = self.counting.take_all(((mine, player), (theirs, address)))
        if refused is not None:
            which, wait = refused
            bucket = (mine, theirs)[which]
            words = WORDS[action] if which == 0 else ADDRESS.get(action, "err.web.limit.address")
            raise Refused.too_many(msg(words, n=bucket.rate, span=span_text(bucket.per),
                                       wait=wait_text(wait)), retry_after=wait)

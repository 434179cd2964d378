"""What each key holds at once across every process of the server (WebSocket connections per
address), in Redis: the interface of :class:`~..limits.Held`, so that a process that dies has
its holdings forgotten.

A key's holdings are one sorted set, each member one holding (this process's id and a number),
scored by when it expires (milliseconds of Redis's time). Each check removes the expired
members in the same script that counts and adds; the server renews its own holdings every
``ttl / 3`` seconds (:meth:`RedisHeld.refresh`), so a holding outlives its process by at most
``ttl``. Counted on the event loop.
"""

from __future__ import annotations

import contextlib
import itertools
import uuid

from ..refusal import Refused
from .store import Store

TTL = 30.0  # seconds a holding is kept without its process renewing it
RENEWED_AT_ONCE = 200  # keys renewed in one script

# the set's key expires with its last member
LAST = """
local function expire_with_last(key)
  local last = redis.call('ZRANGE', key, -1, -1, 'WITHSCORES')
  if last[2] then redis.call('PEXPIREAT', key, last[2]) end
end
"""
# KEYS[1]: the key's set; ARGV: the new member, per_key, ttl (ms). 1: taken, 0: it was full.
TAKE = LAST + """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
expire_with_last(KEYS[1])
return 1
"""
# KEYS[1]: the key's set; ARGV[1]: per_key. 1: full.
FULL = """
if redis.call('ZCOUNT', KEYS[1], '(' .. now, '+inf') >= tonumber(ARGV[1]) then return 1 end
return 0
"""
# KEYS: sets; ARGV[1]: ttl (ms), then for each set the number of this process's members in it
# and the members: each kept (again, had it expired) until now + ttl.
RENEW = LAST + """
local at = 2
for _, key in ipairs(KEYS) do
  local n = tonumber(ARGV[at])
  for j = 1, n do
    redis.call('ZADD', key, now + tonumber(ARGV[1]), ARGV[at + j])
  end
  at = at + n + 1
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  expire_with_last(key)
end
return 0
"""


class RedisHeld:
    """What each key holds at once in the count ``name`` of ``store``, at most ``per_key`` for
    every process together (0: no limit, and then each process counts its own alone, without
    Redis); a holding not renewed for ``ttl`` seconds is forgotten."""

    def __init__(self, store: Store, name: str, per_key: int = 0, ttl: float = TTL) -> None:
        self.store = store
        self.name = name
        self.per_key = per_key
        self.ttl_ms = max(1, round(ttl * 1000))
        self.process = uuid.uuid4().hex[:16]  # this process's holdings, told from the others'
        self._numbers = itertools.count()
        self._mine: dict[str, list[str]] = {}  # key -> this process's members in its set
        self._take = store.script(TAKE)
        self._full = store.script(FULL)
        self._renew = store.script(RENEW)

    def key(self, counted: str) -> str:
        """The Redis key of ``counted``'s set."""
        return self.store.key("held", self.name, counted)

    def full(self, key: str) -> bool:
        """Whether ``key`` holds ``per_key`` already, in every process together."""
        if not self.per_key:
            return False
        return bool(self.store.run(self._full, [self.key(key)], [self.per_key]))

    def take(self, key: str) -> bool:
        """Count one more for ``key``: False (and nothing counted) when it is :meth:`full`;
        a :class:`~..refusal.Refused` (503) when Redis does not answer."""
        member = f"{self.process}:{next(self._numbers)}"
        if self.per_key and not self.store.run(self._take, [self.key(key)],
                                               [member, self.per_key, self.ttl_ms]):
            return False
        self._mine.setdefault(key, []).append(member)
        return True

    def give(self, key: str) -> None:
        """One of ``key``'s is done. Never refused: when Redis does not answer, the holding is
        forgotten there once its time is out."""
        members = self._mine.get(key)
        if not members:
            return
        member = members.pop()
        if not members:
            del self._mine[key]
        if self.per_key:
            with contextlib.suppress(Refused):
                self.store.call(lambda: self.store.client.zrem(self.key(key), member))

    @property
    def total(self) -> int:
        """What this process holds, every key together."""
        return sum(len(members) for members in self._mine.values())

    def refresh(self) -> None:
        """Renew this process's holdings for another ``ttl`` (one script for every
        :data:`RENEWED_AT_ONCE` keys); a :class:`~..refusal.Refused` when Redis does not
        answer."""
        if not self.per_key:
            return
        held = [(key, list(members)) for key, members in self._mine.items()]
        for start in range(0, len(held), RENEWED_AT_ONCE):
            part = held[start:start + RENEWED_AT_ONCE]
            args: list[str | int | float] = [self.ttl_ms]
            for _, members in part:
                args += [len(members), *members]
            self.store.run(self._renew, [self.key(key) for key, _ in part], args)

"""The counts in Redis, shared by every process of the server: the
:class:`~..limits.Counting` the services are given with a Redis (the other is
:class:`~..limits.InMemory`)."""

from __future__ import annotations

from collections.abc import Sequence

from ..limits import Bucket
from . import redis_buckets
from .redis_buckets import RedisBucket
from .redis_held import TTL, RedisHeld
from .store import Store


class InRedis:
    """The token buckets and the holdings of ``store``; holdings kept ``ttl`` seconds unless
    renewed, which the server does every third of it."""

    def __init__(self, store: Store, ttl: float = TTL) -> None:
        self.store = store
        self.ttl = ttl
        self.renew_every: float | None = ttl / 3
        self._held: list[RedisHeld] = []

    def bucket(self, name: str, rate: int, per: float) -> RedisBucket:
        return RedisBucket(self.store, name, rate, per)

    def held(self, name: str, per_key: int) -> RedisHeld:
        held = RedisHeld(self.store, name, per_key, self.ttl)
        self._held.append(held)
        return held

    def take_all(self, counted: Sequence[tuple[Bucket, str]]) -> tuple[int, float] | None:
        """One action in each of ``counted``, all or none, in one script: every bucket must be
        one this made."""
        buckets = [(bucket, key) for bucket, key in counted if isinstance(bucket, RedisBucket)]
        if len(buckets) != len(counted):
            raise TypeError("buckets counted together in Redis are all Redis buckets")
        return redis_buckets.take_all(buckets)

    def refresh(self) -> None:
        """Renew what this process holds, in every count of holdings this made."""
        for held in self._held:
            held.refresh()

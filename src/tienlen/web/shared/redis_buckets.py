"""A token bucket per key in Redis, shared by every process of the server: the semantics of
:class:`~..limits.RateLimit` (``rate`` actions per ``per`` seconds, in bursts of up to ``rate``;
0: no limit) and of :func:`~..limits.take_all` (several buckets spent all or none), each call
one atomic script counting by Redis's own time.

A key's bucket is a hash, its tokens (``t``) and when they were counted (``at``, milliseconds
of Redis's time); it expires once it would be full again (a full bucket is as if new).
"""

from __future__ import annotations

from collections.abc import Sequence

from .store import Store

# KEYS: the buckets; ARGV[1]: 1 to spend, 0 to look only; then each bucket's rate and per
# (seconds). Returns {the first that refuses (from 1; 0: none), its wait in seconds (a string:
# Redis would cut a number to an integer)}; refused or looked, nothing is written.
TAKE = """
local spend = ARGV[1] == '1'
local tokens = {}
for i, key in ipairs(KEYS) do
  local rate = tonumber(ARGV[2 * i])
  local refill = rate / (tonumber(ARGV[2 * i + 1]) * 1000)
  local held = redis.call('HMGET', key, 't', 'at')
  local t = rate
  if held[1] then
    t = math.min(rate, tonumber(held[1]) + math.max(0, now - tonumber(held[2])) * refill)
  end
  if t < 1 then
    return {i, tostring((1 - t) / refill / 1000)}
  end
  tokens[i] = t
end
if spend then
  for i, key in ipairs(KEYS) do
    local rate = tonumber(ARGV[2 * i])
    local refill = rate / (tonumber(ARGV[2 * i + 1]) * 1000)
    local t = tokens[i] - 1
    redis.call('HSET', key, 't', tostring(t), 'at', now)
    redis.call('PEXPIRE', key, math.max(1, math.ceil((rate - t) / refill)))
  end
end
return {0, '0'}
"""


class RedisBucket:
    """A token bucket per key, ``name`` its name among the buckets of ``store``."""

    def __init__(self, store: Store, name: str, rate: int, per: float) -> None:
        self.store = store
        self.name = name
        self.rate = rate
        self.per = per
        self.script = store.script(TAKE)

    def key(self, counted: str) -> str:
        """The Redis key of ``counted``'s bucket."""
        return self.store.key("rate", self.name, counted)

    def take(self, key: str) -> float:
        """Spend one action for ``key``: 0.0 when allowed, else the seconds until one is."""
        refused = take_all([(self, key)])
        return refused[1] if refused is not None else 0.0

    def wait(self, key: str) -> float:
        """The seconds until ``key`` may act (0.0: now), spending nothing."""
        refused = _count([(self, key)], spend=False)
        return refused[1] if refused is not None else 0.0


def take_all(counted: Sequence[tuple[RedisBucket, str]]) -> tuple[int, float] | None:
    """One action in each bucket of ``counted`` (a bucket of one store and the key counted in
    it), all or none in one script: None when every one allows it (all spent), else the first
    that refuses and its wait (nothing spent)."""
    return _count(counted, spend=True)


def _count(counted: Sequence[tuple[RedisBucket, str]], spend: bool) -> tuple[int, float] | None:
    limited = [(i, bucket, key) for i, (bucket, key) in enumerate(counted) if bucket.rate]
    if not limited:
        return None
    store = limited[0][1].store
    if any(bucket.store is not store for _, bucket, _ in limited):
        raise ValueError("the buckets counted together are kept in one Redis")
    args: list[str | int | float] = ["1" if spend else "0"]
    for _, bucket, _ in limited:
        args += [bucket.rate, repr(float(bucket.per))]
    which, wait = store.run(limited[0][1].script, [b.key(k) for _, b, k in limited], args)
    if not int(which):
        return None
    return limited[int(which) - 1][0], float(wait)

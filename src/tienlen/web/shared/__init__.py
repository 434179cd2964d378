"""The counts every process of one server shares, kept in Redis: the rate limits' token buckets
(``redis_buckets.py``), what a key holds at once (``redis_held.py``), the one way a call reaches
Redis (``store.py``) and what makes them (``counting.py``: the :class:`~..limits.Counting` the
services are given when the server is given a Redis)."""

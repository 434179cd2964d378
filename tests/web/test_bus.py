"""The bus between the processes of a room (``tienlen.web.bus.bus``): notes arrive in the order
they were sent, the notes for one process that wait together travel as one message, and a note
a reader cannot use is skipped without losing the others."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

pytest.importorskip("redis")

import redis.asyncio as aioredis

from tienlen.web.bus.bus import Bus

from .waiting import in_a_thread

WITHIN = 30.0  # a generous bound for what is awaited


async def _until(done: Any) -> None:
    async with asyncio.timeout(WITHIN):
        while not done():
            await asyncio.sleep(0.01)


def test_notes_sent_together_arrive_in_order_as_one_message_per_process(
        redis_url: str, redis_prefix: str) -> None:
    async def main() -> None:
        a, b, c = (Bus(redis_url, name, prefix=redis_prefix) for name in ("a", "b", "c"))
        got: dict[str, list[int]] = {"b": [], "c": []}
        b.on("move", lambda note: got["b"].append(note["n"]))
        c.on("move", lambda note: got["c"].append(note["n"]))
        spy = aioredis.Redis.from_url(redis_url)
        watch = spy.pubsub(ignore_subscribe_messages=True)
        await watch.subscribe(b.channel_of("b"))
        for bus in (a, b, c):
            await bus.start()
        await _until(lambda: b.up and c.up)
        for n in range(6):  # queued at once: the writer finds them waiting together
            a.send("b" if n % 3 else "c", {"k": "move", "n": n})
        reached = a.ask("b", {"k": "move", "n": 6})
        await _until(lambda: len(got["b"]) == 5 and len(got["c"]) == 2)
        assert got == {"b": [1, 2, 4, 5, 6], "c": [0, 3]}
        assert await reached == 2  # b's reader and the spy
        message = None
        async with asyncio.timeout(WITHIN):
            while message is None:  # (the subscription's own reply reads as None)
                message = await watch.get_message(timeout=1.0)
        assert [note["n"] for note in json.loads(message["data"])] == [1, 2, 4, 5, 6]
        assert a.sent == 7 and b.read == 5 and c.read == 2
        for bus in (a, b, c):
            await bus.stop()
        await watch.aclose()  # type: ignore[no-untyped-call]
        await spy.aclose()

    in_a_thread(main())


def test_a_note_that_cannot_be_used_is_skipped_and_the_rest_handled() -> None:
    bus = Bus("redis://127.0.0.1:1/0", "b")  # never started: no Redis needed to read
    got: list[int] = []
    bus.on("move", lambda note: got.append(note["n"]))
    bus._dispatch('[{"k": "move", "n": 1}, 5, "x", {"k": "move", "n": 2}]')
    bus._dispatch("not json")
    bus._dispatch('{"k": "move", "n": 3}')
    assert got == [1, 2, 3] and bus.read == 3

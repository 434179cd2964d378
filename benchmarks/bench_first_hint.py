"""How long the first hint after a server's start waits, with nothing compiled yet.

    python benchmarks/bench_first_hint.py [--rules pagat] [--seed 1]

Two bot pools of one worker each, as ``tienlen serve`` has them, each with an empty cache
for the compiled code (a fresh ``NUMBA_CACHE_DIR``: a fresh install's first start), in turn:

- ``at first use``: the pool as it was before it prepared anything: the first hint's worker
  compiles the fast path, and the hint waits for it;
- ``prepared at start``: :meth:`~tienlen.web.workers.botpool.BotPool.prepare` at start (the compiled
  engine made in a process of its own), the first hint asked at once, answered on the pure
  engine; then the time until the compiled engine is ready, and a hint after that.

Wall seconds (the wait a player sees); the machine's load is printed beside them.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time

from tienlen import Game, Rules
from tienlen.view import View
from tienlen.web.workers.botpool import BotPool


def first_decision(rules: Rules, seed: int) -> View:
    """The first view in a hand dealt from ``seed`` with more than one legal action."""
    game = Game.deal(rules, 4, seed=seed)
    while True:
        seat = game.turn
        if game.phase == "play" and seat is not None and len(game.view(seat).legal) > 1:
            return game.view(seat)
        game.play(game.legal_plays()[0])


async def timed_hint(pool: BotPool, view: View) -> float:
    started = time.monotonic()
    await asyncio.wrap_future(pool.hint(view, 1))
    return time.monotonic() - started


async def at_first_use(view: View) -> None:
    pool = BotPool(1)
    try:
        print(f"at first use:       first hint after {await timed_hint(pool, view):6.1f} s")
    finally:
        pool.close()


async def prepared_at_start(view: View) -> None:
    pool = BotPool(1)
    ready: asyncio.Future[float | None] = asyncio.get_running_loop().create_future()
    started = time.monotonic()
    pool.prepare(ready.set_result)
    try:
        first = await timed_hint(pool, view)
        print(f"prepared at start:  first hint after {first:6.1f} s (engine: {pool.engine})")
        took = await ready
        print(f"                    compiled engine ready after {time.monotonic() - started:6.1f} s "
              f"(compiling: {took if took is None else round(took, 1)} s)")
        print(f"                    a hint then after {await timed_hint(pool, view):6.1f} s "
              f"(new worker, loads the compiled code)")
        print(f"                    the next hint after {await timed_hint(pool, view):6.1f} s")
    finally:
        pool.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rules", default="pagat")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    view = first_decision(Rules.preset(args.rules), args.seed)
    print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for case in (at_first_use, prepared_at_start):
        with tempfile.TemporaryDirectory() as cache:
            os.environ["NUMBA_CACHE_DIR"] = cache  # nothing compiled yet, for the workers
            asyncio.run(case(view))
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()

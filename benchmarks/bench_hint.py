"""CPU seconds per hint, and how often a hint agrees with a search bot of four times the budget.

    python benchmarks/bench_hint.py [--rules pagat] [--positions 40] [--seed 1]

The positions: seat 0's decisions with a choice (the play phase, its turn, more than one legal
action) in hands dealt from ``--seed`` on and played by four ``heuristic`` bots, the first
``--positions`` of them. On each, two hints are asked:

- ``hint``: :func:`tienlen.hints.suggest` (the coach's best move, :func:`tienlen.coach.appraise`),
- ``old``: the former hint (the default ``search`` bot at its default budget, seeded with the
  position's number),

and both are compared with the default search bot at four times its budget (``steps`` and
``worlds``, seeded apart): over every position, and over those where that reference does not
make the heuristic's choice (where search's own judgement shows), on the pure engine and,
with the ``fast`` extra, on the fast path (``TIENLEN_PURE`` set and unset). The figures are
CPU seconds of this one process (steadier than wall time on a shared machine); the
agreement's interval is Wilson's at 95%.
"""

from __future__ import annotations

import argparse
import math
import os
import time
from collections.abc import Callable

from tienlen import Game, Rules, fast
from tienlen.actions import Move
from tienlen.bots import get_bot
from tienlen.bots.fast_rollout import FAST_STEPS, FAST_WORLDS
from tienlen.bots.search import PURE_STEPS, PURE_WORLDS
from tienlen.hints import prepare, suggest
from tienlen.view import View


def positions(rules: Rules, count: int, seed: int) -> list[View]:
    """Seat 0's first ``count`` decisions with a choice in heuristic-played hands."""
    out: list[View] = []
    deal = seed
    while len(out) < count:
        game = Game.deal(rules, 4, seed=deal)
        bots = [get_bot("heuristic", seed=deal + s) for s in range(4)]
        while not game.is_over and len(out) < count:
            seat = game.turn
            assert seat is not None
            view = game.view(seat)
            if seat == 0 and game.phase == "play" and len(view.legal) > 1:
                out.append(view)
            game.play(bots[seat].choose(view), seat=seat)
        deal += 1
    return out


def wilson(hits: int, n: int) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p, z = hits / n, 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def timed(ask: Callable[[View, int], Move], views: list[View]) -> tuple[list[Move], list[float]]:
    moves, times = [], []
    for i, view in enumerate(views):
        start = time.process_time()
        moves.append(ask(view, i))
        times.append(time.process_time() - start)
    return moves, times


def run(path: str, views: list[View]) -> None:
    steps, worlds = (FAST_STEPS, FAST_WORLDS) if path == "fast" else (PURE_STEPS, PURE_WORLDS)
    hint, hint_times = timed(lambda v, i: suggest(v).move, views)
    old, old_times = timed(lambda v, i: get_bot("search", seed=i).choose(v), views)
    strong, strong_times = timed(lambda v, i: get_bot("search", seed=10_000 + i, steps=4 * steps,
                                                      worlds=4 * worlds).choose(v), views)
    plain = [get_bot("heuristic", seed=i).choose(v) for i, v in enumerate(views)]
    hard = [i for i, (a, b) in enumerate(zip(plain, strong, strict=True)) if a != b]
    n = len(views)
    print(f"{path} path, {n} positions; the reference: search:steps={4 * steps}:worlds={4 * worlds}, "
          f"{sum(strong_times) / n:.3f} s of CPU per decision; it differs from the heuristic's "
          f"choice on {len(hard)}")
    for label, moves, times in (("hint (the coach's best)", hint, hint_times),
                                ("former hint (search, default budget)", old, old_times)):
        print(f"  {label}: mean {sum(times) / n:.3f} s of CPU per hint, worst {max(times):.3f} s; "
              f"agrees with the reference on {agreement(moves, strong, range(n))}, "
              f"on those {len(hard)}: {agreement(moves, strong, hard)}")


def agreement(moves: list[Move], reference: list[Move], where: range | list[int]) -> str:
    """How often ``moves`` are the reference's at the positions ``where``, with its interval."""
    n = len(where)
    hits = sum(moves[i] == reference[i] for i in where)
    low, high = wilson(hits, n)
    return f"{hits}/{n} = {100 * hits / max(n, 1):.0f}% [{100 * low:.0f}, {100 * high:.0f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rules", default="pagat")
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rules = Rules.preset(args.rules)
    views = positions(rules, args.positions, args.seed)
    was = os.environ.get("TIENLEN_PURE")
    os.environ["TIENLEN_PURE"] = "1"
    run("pure", views)
    if was is None:
        del os.environ["TIENLEN_PURE"]
    else:
        os.environ["TIENLEN_PURE"] = was
    if fast.enabled(rules):
        start = time.process_time()
        prepare(rules)
        print(f"prepare (the fast kernels loaded): {time.process_time() - start:.2f} s of CPU")
        run("fast", views)
    else:
        print("fast path: not installed or not for these rules (pip install -e '.[fast]')")


if __name__ == "__main__":
    main()

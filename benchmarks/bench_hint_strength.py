"""The hint's strength: a player who follows the hint at every decision, against the
``heuristic`` bot in the same seat, over duplicate deals.

    python benchmarks/bench_hint_strength.py [--rules pagat] [--deals 1000] [--seed 1]
                                             [--players 4] [--workers 2] [--paths fast]

Each deal is played twice with the same cards and the same ``heuristic`` bots at the other
seats: once with the hint (:func:`tienlen.hints.suggest`) choosing every move of one seat, once
with the ``heuristic`` bot in that seat (the seat turns with the deal's number, so every seat
is played as often). The figure is the mean of the paired differences of the units that seat
won (hint minus heuristic), with its 95% interval, and the first-place rates of both; a
positive difference whose interval is above zero means the hint is worth following. Progress
goes to the standard error every tenth of the run.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from tienlen import Game, Rules
from tienlen.arena import play_out
from tienlen.bots import get_bot
from tienlen.hints import suggest
from tienlen.view import View

Z95 = 1.959964


class HintFollower:
    name = "hint"

    def choose(self, view: View) -> object:
        return suggest(view).move


def deal_result(args: tuple[str, int, int]) -> tuple[int, int, bool, bool]:
    """Seat ``seed % players``'s units and first place, with the hint and with the heuristic."""
    preset, players, seed = args
    rules = Rules.preset(preset)
    seat = seed % players
    out: list[tuple[int, bool]] = []
    for hinted in (True, False):
        game = Game.deal(rules, players, seed)
        bots = [HintFollower() if hinted and s == seat else get_bot("heuristic", seed=seed * 10 + s)
                for s in range(players)]
        play_out(game, bots)  # type: ignore[arg-type]
        out.append((game.scores[seat], bool(game.finish_order) and game.finish_order[0] == seat))
    (hint_units, hint_first), (heur_units, heur_first) = out
    return hint_units, heur_units, hint_first, heur_first


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rules", default="pagat")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--paths", default="fast", choices=("fast", "pure"),
                        help="pure: TIENLEN_PURE set in the workers")
    args = parser.parse_args()
    if args.paths == "pure":
        os.environ["TIENLEN_PURE"] = "1"
    jobs = [(args.rules, args.players, args.seed + d) for d in range(args.deals)]
    start = time.perf_counter()
    results: list[tuple[int, int, bool, bool]] = []
    with ProcessPoolExecutor(args.workers) as pool:
        for result in pool.map(deal_result, jobs, chunksize=4):
            results.append(result)
            if len(results) % max(1, args.deals // 10) == 0:
                print(f"{len(results)}/{args.deals} deals, {time.perf_counter() - start:.0f} s: "
                      f"{difference(results)}", file=sys.stderr, flush=True)
    n = len(results)
    hint_units = sum(r[0] for r in results) / n
    heur_units = sum(r[1] for r in results) / n
    hint_first = sum(r[2] for r in results) / n
    heur_first = sum(r[3] for r in results) / n
    print(f"{args.rules}, {args.players} players, {n} duplicate deals ({args.paths} path), "
          f"{time.perf_counter() - start:.0f} s with {args.workers} workers")
    print(f"  the hint:      {hint_units:+.3f} units a hand, first {hint_first:.1%}")
    print(f"  the heuristic: {heur_units:+.3f} units a hand, first {heur_first:.1%}")
    print(f"  {difference(results)}")


def difference(results: list[tuple[int, int, bool, bool]]) -> str:
    """The mean paired difference of units (hint minus heuristic), with its 95% interval."""
    n = len(results)
    gaps = [h - b for h, b, _, _ in results]
    mean = sum(gaps) / n
    half = Z95 * math.sqrt(sum((g - mean) ** 2 for g in gaps) / (n - 1) / n) if n > 1 else math.inf
    return f"hint minus heuristic: {mean:+.3f} units a hand [{mean - half:+.3f}, {mean + half:+.3f}]"


if __name__ == "__main__":
    main()

"""CPU seconds per decision of search bots, each played on the same hands against three heuristic.

    python benchmarks/bench_search.py [--rules pagat] [--hands 8] [--seed 1]
                                      [--bots search,search:learned=2]

Each bot (as a tournament names it) sits at seat 0 of the same dealt hands with three
``heuristic`` bots; the figures are CPU seconds of this one process (steadier than wall time on
a shared machine), over every decision and over those not forced (one legal action).
"""

from __future__ import annotations

import argparse

from bench_engine import Timed  # the same timing wrapper (run from this folder)
from tienlen import Game, Rules
from tienlen.arena import BotSpec, play_out
from tienlen.bots import get_bot


def decision_times(spec: str, rules: Rules, hands: int, seed: int) -> list[float]:
    """CPU seconds of each decision ``spec`` makes at seat 0 against three ``heuristic``."""
    times: list[float] = []
    for h in range(hands):
        game = Game.deal(rules, 4, seed + h)
        bots = [Timed(BotSpec(spec).make(h, 0.0), times),
                *(get_bot("heuristic", seed=h) for _ in range(3))]
        play_out(game, bots)  # type: ignore[arg-type]
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rules", default="pagat")
    parser.add_argument("--hands", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", default="search,search:learned=2")
    args = parser.parse_args()
    rules = Rules.preset(args.rules)
    specs = args.bots.split(",")
    for spec in specs:
        decision_times(spec, rules, 1, args.seed + 999)  # load compiled code and weights first
    for spec in specs:
        times = decision_times(spec, rules, args.hands, args.seed)
        real = [t for t in times if t > 0.0005]  # leave out the forced moves
        print(f"{spec}: {args.hands} hands against three heuristic bots: mean "
              f"{sum(times) / len(times):.4f} s of CPU over {len(times)} decisions "
              f"({sum(real) / max(len(real), 1):.4f} s over the {len(real)} not forced), "
              f"worst {max(times):.3f} s")


if __name__ == "__main__":
    main()

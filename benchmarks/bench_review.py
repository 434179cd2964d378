"""CPU seconds to review a whole 4-player hand for one seat, on the fast path and the pure one,
and the width of the first-place intervals the review shows.

    python benchmarks/bench_review.py [--rules pagat] [--hands 3] [--seed 1] [--seat 0]
                                      [--deals 2000] [--target 0.03] [--players 4] [--hinted]

Each hand is dealt from the seed and played by ``heuristic`` bots (with ``--hinted``, ``--seat``
plays the hint, :func:`tienlen.hints.suggest`, at every decision: how often does the review
mark a move the hint gave as a loss?); the review of ``--seat``
asks search's estimates at each of its decisions (the move made added to the candidates, every
candidate on the same deals, deals until each first-place interval is within ``--target`` or
``--deals`` were played). The figures are CPU seconds of this one process (steadier than wall
time on a shared machine); the fast path's first review, which compiles or loads the compiled
code, is timed apart. The issue's targets: at most 2 s fast and 10 s pure per hand, each
first-place estimate within ±3 points at 95%.
"""

from __future__ import annotations

import argparse
import statistics
import time

from tienlen import Game, Rules, fast
from tienlen.actions import Move
from tienlen.arena import play_out
from tienlen.bots import get_bot
from tienlen.hints import suggest
from tienlen.review import Review, review_game
from tienlen.view import View


class HintFollower:
    """A player who plays the hint at every decision."""

    name = "hint"

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def choose(self, view: View) -> Move:
        self.seed += 1
        return suggest(view, self.seed).move


def hand(rules: Rules, seed: int, players: int = 4, hinted: int | None = None) -> Game:
    game = Game.deal(rules, players, seed)
    bots = [HintFollower(seed) if s == hinted else get_bot("heuristic", seed=seed)
            for s in range(players)]
    play_out(game, bots)  # type: ignore[arg-type]
    return game


def timed(game: Game, seat: int, compiled: bool, deals: int, target: float) -> tuple[float, Review]:
    start = time.process_time()
    review = review_game(game, seat, fast=compiled, deals=deals, target=target)
    return time.process_time() - start, review


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rules", default="pagat")
    parser.add_argument("--hands", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seat", type=int, default=0)
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--target", type=float, default=0.03)
    parser.add_argument("--paths", default="fast,pure")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--hinted", action="store_true", help="--seat plays the hint")
    args = parser.parse_args()
    rules = Rules.preset(args.rules)
    games = [hand(rules, args.seed + h, args.players, args.seat if args.hinted else None)
             for h in range(args.hands)]
    paths = args.paths.split(",")
    if "fast" in paths and not fast.enabled(rules):
        print("fast path: not installed or not for these rules (pip install -e '.[fast]')")
        paths.remove("fast")
    if "fast" in paths:
        warm, _ = timed(games[0], args.seat, True, 50, args.target)
        print(f"fast path: first review (compiling or loading the compiled code): {warm:.2f} s CPU")
    who = "the hint" if args.hinted else "heuristic"
    print(f"{args.rules}, {args.players} players, seat {args.seat} ({who}), {args.hands} hands, "
          f"cap {args.deals} deals, target ±{args.target:.0%}")
    print(f"{'path':<5} {'hand':>4} {'decisions':>9} {'evaluated':>9} {'losses':>6} {'CPU s':>7} "
          f"{'deals/est':>9} {'half-width mean':>15} {'max':>6} {'over target':>11}")
    for path in paths:
        seconds: list[float] = []
        halves: list[float] = []
        losses = judged = 0
        for h, game in enumerate(games):
            cpu, review = timed(game, args.seat, path == "fast", args.deals, args.target)
            seconds.append(cpu)
            mine = [e for d in review.decisions for e in (d.played, d.best) if e is not None]
            half = [(e.first_ci[1] - e.first_ci[0]) / 2 for e in mine]
            halves += half
            evaluated = sum(1 for d in review.decisions if d.played is not None)
            losses += len(review.losses)
            judged += evaluated
            deals = statistics.mean(e.deals for e in mine) if mine else 0
            print(f"{path:<5} {h + 1:>4} {len(review.decisions):>9} {evaluated:>9} "
                  f"{len(review.losses):>6} {cpu:>7.2f} "
                  f"{deals:>9.0f} {statistics.mean(half) if half else 0:>15.2%} "
                  f"{max(half, default=0):>6.2%} {sum(x > args.target for x in half):>11}")
        print(f"{path:<5} mean {statistics.mean(seconds):.2f} s CPU a hand, max {max(seconds):.2f} s; "
              f"first-place half-width mean {statistics.mean(halves) if halves else 0:.2%}, "
              f"max {max(halves, default=0):.2%} (the move made and search's best, each decision); "
              f"{losses} of {judged} evaluated decisions marked as losses")


if __name__ == "__main__":
    main()

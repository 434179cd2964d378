"""CPU seconds to review a whole 4-player hand for one seat, on the compiled path and the pure
one, and how the review grades the decisions (with ``--hinted``: the hint's own moves).

    python benchmarks/bench_review.py [--rules pagat] [--hands 3] [--seed 1] [--seat 0]
                                      [--players 4] [--paths fast,pure] [--hinted]

Each hand is dealt from the seed and played by ``heuristic`` bots (with ``--hinted``, ``--seat``
plays the hint, :func:`tienlen.hints.suggest`, at every decision: does the review ever call a
move the hint gave a mistake?). The review of ``--seat`` appraises each of its decisions
(:func:`tienlen.coach.appraise`: search's candidates and the move made on the same deals, by
the budget rule). The figures are CPU seconds of this one process (steadier than wall time on a
shared machine); the compiled path's first review, which compiles or loads the compiled code,
is timed apart. Issue 35's targets: at most 2 s a hand compiled, and no hint's move called a
mistake (nor graded anything but good). The costs' spread (the last lines) is what the grades'
thresholds in docs/bots.md were chosen from.
"""

from __future__ import annotations

import argparse
import time

from tienlen import Game, Rules, fast
from tienlen.actions import Move
from tienlen.arena import play_out
from tienlen.bots import get_bot
from tienlen.coach import GRADES
from tienlen.hints import suggest
from tienlen.review import Review, review_game
from tienlen.view import View


class HintFollower:
    """A player who plays the hint at every decision (on the path given: the hint a player on
    that path is given)."""

    name = "hint"

    def __init__(self, fast: bool) -> None:
        self.fast = fast

    def choose(self, view: View) -> Move:
        return suggest(view, fast=self.fast).move


def hand(rules: Rules, seed: int, players: int = 4, hinted: int | None = None,
         fast: bool = True) -> Game:
    game = Game.deal(rules, players, seed)
    bots = [HintFollower(fast) if s == hinted else get_bot("heuristic", seed=seed)
            for s in range(players)]
    play_out(game, bots)  # type: ignore[arg-type]
    return game


def timed(game: Game, seat: int, compiled: bool) -> tuple[float, Review]:
    start = time.process_time()
    review = review_game(game, seat, fast=compiled)
    return time.process_time() - start, review


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rules", default="pagat")
    parser.add_argument("--hands", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seat", type=int, default=0)
    parser.add_argument("--paths", default="fast,pure")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--hinted", action="store_true", help="--seat plays the hint")
    args = parser.parse_args()
    rules = Rules.preset(args.rules)
    paths = args.paths.split(",")
    if "fast" in paths and not fast.enabled(rules):
        print("fast path: not installed or not for these rules (pip install -e '.[fast]')")
        paths.remove("fast")
    if "fast" in paths:
        start = time.process_time()
        fast.load()
        warm = time.process_time() - start
        print(f"fast path: loading the compiled code: {warm:.2f} s CPU")
    who = "the hint" if args.hinted else "heuristic"
    print(f"{args.rules}, {args.players} players, seat {args.seat} ({who}), {args.hands} hands")
    print(f"{'path':<5} {'hand':>4} {'decisions':>9} {'appraised':>9} {'hint':>5} "
          + " ".join(f"{g:>10}" for g in GRADES) + f" {'CPU s':>7} {'deals':>6}")
    for path in paths:
        compiled = path == "fast"
        games = [hand(rules, args.seed + h, args.players, args.seat if args.hinted else None,
                      compiled) for h in range(args.hands)]  # the hint as this path gives it
        seconds: list[float] = []
        costs: list[float] = []
        totals = dict.fromkeys(GRADES, 0)
        appraised_all = hinted_all = 0
        for h, game in enumerate(games):
            cpu, review = timed(game, args.seat, compiled)
            seconds.append(cpu)
            appraised = [d for d in review.decisions if d.cost is not None]
            hinted = sum(d.hinted for d in appraised)
            counts = {g: len(review.graded(g)) for g in GRADES}
            for g in GRADES:
                totals[g] += counts[g]
            appraised_all += len(appraised)
            hinted_all += hinted
            costs += [d.cost.mean for d in appraised if d.cost is not None]
            deals = sum(d.played.deals for d in appraised if d.played) / max(1, len(appraised))
            print(f"{path:<5} {h + 1:>4} {len(review.decisions):>9} {len(appraised):>9} "
                  f"{hinted:>5} " + " ".join(f"{counts[g]:>10}" for g in GRADES)
                  + f" {cpu:>7.2f} {deals:>6.0f}")
        marked = totals["mistake"] + totals["blunder"]
        print(f"{path:<5} mean {sum(seconds) / len(seconds):.2f} s CPU a hand, max "
              f"{max(seconds):.2f} s; {appraised_all} appraised, {hinted_all} the hint's moves; "
              f"{marked} called mistakes or blunders, {totals['inaccuracy']} inaccuracies")
        costs.sort()
        if costs:
            quantiles = ", ".join(f"{q:.0%} {costs[int(q * (len(costs) - 1))]:.2f}"
                                  for q in (0.5, 0.75, 0.9, 0.95))
            print(f"{path:<5} the costs (units below the best): {quantiles}; max {costs[-1]:.2f}")


if __name__ == "__main__":
    main()

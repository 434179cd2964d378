"""How well the search bot's inference places the other seats' cards, and what it costs.

    python benchmarks/bench_inference.py [--rules pagat] [--players 4] [--hands 20] [--budget 3000]

Hands are played by heuristic bots. At each of seat 0's decisions, the deals that explain the
others' play (``tienlen.bots.inference``) and as many blind deals (the unseen cards shuffled)
are compared with the real deal: the share of the others' cards each puts with their true
holder, by how far the hand has gone (actions in the history). Also printed: the share of
decisions where a deal explaining every decision was found, and the CPU time per decision.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

from tienlen import Card, Game, Rules
from tienlen.bots import get_bot
from tienlen.bots.inference import History, explaining_deals


def placed_right(history: History, hidden: list[list[Card]], real: Game) -> tuple[int, int]:
    """(cards put with their true holder, cards dealt to the other seats)."""
    right = total = 0
    for holder, cards in zip(history.holders, hidden, strict=True):
        if holder >= 0:
            right += sum((Counter(cards) & Counter(real.hand(holder))).values())
            total += len(cards)
    return right, total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rules", default="pagat")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--budget", type=int, default=3000, help="replayed decisions per decision")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rules = Rules.preset(args.rules)
    rng = random.Random(args.seed)
    # stage -> [inferred right, inferred total, blind right, blind total, decisions, explained]
    stages: dict[int, list[int]] = {}
    seconds = 0.0
    decisions = 0
    for hand in range(args.hands):
        game = Game.deal(rules, args.players, seed=args.seed * 100_003 + hand)
        bots = [get_bot("heuristic", seed=s) for s in range(args.players)]
        while not game.is_over:
            turn = game.turn
            assert turn is not None
            view = game.view(turn)
            if turn == 0 and game.phase == "play" and len(view.legal) > 1:
                history = History(view)
                started = time.process_time()
                deals, _ = explaining_deals(history, rng, args.budget, wanted=20)
                seconds += time.process_time() - started
                decisions += 1
                row = stages.setdefault(min(len(view.history) // 10 * 10, 40), [0] * 6)
                row[4] += 1
                row[5] += bool(deals) and deals[0].misfits == 0
                for deal in deals:
                    right, total = placed_right(history, history.hidden_of(deal), game)
                    row[0] += right
                    row[1] += total
                for _ in range(max(1, len(deals))):
                    right, total = placed_right(history, history.random_deal(rng), game)
                    row[2] += right
                    row[3] += total
            game.play(bots[turn].choose(view), seat=turn)
    print(f"{args.rules}, {args.players} players, {args.hands} hands, budget {args.budget}: "
          f"{decisions} decisions, {seconds / max(1, decisions) * 1000:.0f} ms CPU per decision")
    print("history   decisions  explained all  cards placed right: inferred  blind")
    for stage in sorted(stages):
        ir, it, br, bt, n, explained = stages[stage]
        label = f"{stage}-{stage + 9}" if stage < 40 else "40+"
        print(f"{label:>7}   {n:9}  {explained / n:12.0%}  {ir / max(1, it):27.1%}  "
              f"{br / max(1, bt):5.1%}")


if __name__ == "__main__":
    main()

"""The engine benchmark, pure and fast paths in one run: complete random hands per second,
microseconds per legal-play generation, random hands played from Python through ``Game`` and
through the fast path's ``FastGame``, the search bot's decision times.

    python benchmarks/bench_engine.py [--rules pagat] [--players 4] [--hands 2000]
                                      [--search-hands 6] [--startup]

Times are CPU seconds of this one process (steadier than wall time on a shared machine).
The pure figures are the same as ``tienlen bench``; the fast ones need ``tienlen[fast]``.
``--startup`` also measures the fast path's start-up in fresh interpreters: with an empty
on-disk cache (everything compiled) and with the cache that run left.
"""

from __future__ import annotations

import argparse
import os
import time

from tienlen import Game, Rules, fast
from tienlen.arena import play_out
from tienlen.bench import run
from tienlen.bots import get_bot


class Timed:
    """A bot that records the CPU time of each decision it makes."""

    def __init__(self, bot: object, times: list[float]) -> None:
        self.bot = bot
        self.name = "timed"
        self.times = times

    def choose(self, view):  # type: ignore[no-untyped-def]
        start = time.process_time()
        move = self.bot.choose(view)  # type: ignore[attr-defined]
        self.times.append(time.process_time() - start)
        return move


def search_times(rules: Rules, hands: int, seed: int) -> list[float]:
    """CPU seconds of each decision of the default ``search`` against three ``heuristic``."""
    times: list[float] = []
    for h in range(hands):
        game = Game.deal(rules, 4, seed + h)
        bots = [Timed(get_bot("search", seed=h), times),
                *(get_bot("heuristic", seed=h) for _ in range(3))]
        play_out(game, bots)  # type: ignore[arg-type]
    return times


def python_face(rules: Rules, players: int, hands: int, seed: int) -> tuple[float, float]:
    """Random hands a second played from Python one decision at a time, through the public
    API: the pure engine's ``Game`` (``legal_plays``, ``push``), and the fast path's Python face
    ``FastGame`` (the same calls), on the same deals with the same random choices."""
    import random

    from tienlen.fast.api import FastGame

    def pure() -> float:
        rng, start = random.Random(seed), time.process_time()
        for i in range(hands):
            game = Game.deal(rules, players, seed + i)
            while not game.is_over:
                game.push(rng.choice(game.legal_plays()))
        return hands / (time.process_time() - start)

    def faced() -> float:
        rng, start = random.Random(seed), time.process_time()
        for i in range(hands):
            hand = FastGame.deal(rules, players, seed + i)  # Game.deal's cards, dealt straight in
            while hand.turn is not None:
                hand.push(rng.choice(hand.legal_plays()))
        return hands / (time.process_time() - start)

    faced()  # the compiled code loaded first
    return pure(), faced()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rules", default="pagat")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--search-hands", type=int, default=6,
                        help="hands of search against three heuristic bots, for decision times")
    parser.add_argument("--startup", action="store_true", help="also time the fast start-up")
    parser.add_argument("--all", action="store_true", help="every preset, 2-8 players")
    args = parser.parse_args()
    ok = fast.available()
    if args.all:
        for preset in Rules.presets():
            for players in (2, 3, 4, 5, 8):
                result = run(preset, players, args.hands // 4, args.seed)
                line = (f"{preset:12} {players} players: {result.hands_per_second:8,.0f} hands/s, "
                        f"{result.us_per_generation:6.1f} µs per generation")
                if ok:
                    from tienlen.fast.bench import run as fast_run

                    f = fast_run(preset, players, args.hands * 5, args.seed)
                    line += (f" | fast {f.hands_per_second:9,.0f} hands/s "
                             f"({f.hands_per_second / result.hands_per_second:4.0f}x), "
                             f"{f.us_per_generation:5.2f} µs")
                print(line)
        return
    pure = run(args.rules, args.players, args.hands, args.seed)
    print(pure.report())
    if ok:
        from tienlen.fast.bench import run as fast_run

        result = fast_run(args.rules, args.players, 10 * args.hands, args.seed)
        print(result.report(pure.hands_per_second))
        rules = Rules.preset(args.rules)
        if fast.supports(rules) and not rules.chop_out_of_turn and not rules.free_chops:
            by_game, by_face = python_face(rules, args.players, args.hands // 4, args.seed)
            print(f"random hands from Python, one decision a call: Game {by_game:,.0f} hands/s, "
                  f"FastGame {by_face:,.0f} hands/s ({by_face / by_game:.2f}x)")
    else:
        print("fast path: not installed (pip install 'tienlen[fast]')")
    if args.search_hands:
        rules = Rules.preset(args.rules)
        paths = ["pure", "fast"] if ok and fast.supports(rules) else ["pure"]
        for path in paths:
            if path == "pure":
                os.environ["TIENLEN_PURE"] = "1"
            else:
                os.environ.pop("TIENLEN_PURE", None)
                search_times(rules, 1, args.seed + 999)  # load the compiled code first
            times = search_times(rules, args.search_hands, args.seed)
            real = [t for t in times if t > 0.0005]  # leave out the forced moves
            print(f"search (default budget, {path}), {args.search_hands} hands against three "
                  f"heuristic bots: mean {sum(times) / len(times):.3f} s of CPU over "
                  f"{len(times)} decisions ({sum(real) / max(len(real), 1):.3f} s over the "
                  f"{len(real)} not forced), worst {max(times):.3f} s")
        os.environ.pop("TIENLEN_PURE", None)
    if args.startup and ok:
        from tienlen.fast.bench import startup

        (cold, cold_cpu), (warm, warm_cpu) = startup()
        print(f"fast start-up in a fresh interpreter (wall / CPU): {cold:.1f} s / {cold_cpu:.1f} s "
              f"with an empty cache (compiling), {warm:.1f} s / {warm_cpu:.1f} s with the cache "
              f"on disk")


if __name__ == "__main__":
    main()

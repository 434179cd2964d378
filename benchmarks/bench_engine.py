"""The engine benchmark: complete random hands per second, microseconds per legal-play generation.

    python benchmarks/bench_engine.py [--rules pagat] [--players 4] [--hands 2000]

The same figures as ``tienlen bench``; one process, one core.
"""

from __future__ import annotations

import argparse

from tienlen.bench import run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rules", default="pagat")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--all", action="store_true", help="every preset, 2-8 players")
    args = parser.parse_args()
    if args.all:
        from tienlen import Rules

        for preset in Rules.presets():
            for players in (2, 3, 4, 5, 8):
                result = run(preset, players, args.hands // 4, args.seed)
                print(f"{preset:12} {players} players: {result.hands_per_second:8,.0f} hands/s, "
                      f"{result.us_per_generation:6.1f} µs per generation")
        return
    print(run(args.rules, args.players, args.hands, args.seed).report())


if __name__ == "__main__":
    main()

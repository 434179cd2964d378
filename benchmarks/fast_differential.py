"""The fast path against the pure engine over thousands of random games (run once, by hand).

    python benchmarks/fast_differential.py [--games 60]

``--games`` per preset and player count (2, 3, 4, 5, 8), half of them with options varied;
every step of every game is checked as in ``tests/test_fast.py`` (legal plays as sets of
card sets, turn, table, passes, out-of-turn chops, finish order, scores). Needs numba.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from test_fast import VARIANTS, check_game, varied
from tienlen import Rules, fast


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=60)
    args = parser.parse_args()
    start = time.perf_counter()
    games = steps = 0
    for preset in Rules.presets():
        if not fast.supports(Rules.preset(preset)):
            print(f"{preset}: skipped (the fast path does not support it)", flush=True)
            continue
        for players in (2, 3, 4, 5, 8):
            for seed in range(args.games):
                variant = VARIANTS[(seed // 2) % len(VARIANTS)] if seed % 2 else {}
                steps += check_game(varied(preset, variant), players,
                                    100_000 + 1000 * players + seed)
                games += 1
        print(f"{preset}: ok ({games} games, {steps} steps so far)", flush=True)
    print(f"{games} games, {steps} steps: the fast path and the pure engine agree at every step "
          f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()

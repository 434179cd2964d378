"""What the web's per-seat views cost: every seat's view and a spectator's, made and written
as JSON after each move of random hands (time per move, bytes a view).

    PYTHONPATH=src python benchmarks/bench_views.py
"""

from __future__ import annotations

import argparse
import random
import time

from tienlen import Game, Rules
from tienlen.web.room.views import PlayTexts, seat_view


def one_hand(rules: Rules, players: int, seed: int) -> tuple[float, int, int]:
    """(seconds making views, moves, bytes written) of one random hand."""
    game = Game.deal(rules, players, seed=seed)
    rng = random.Random(seed)
    plays = PlayTexts()
    seconds, moves, size = 0.0, 0, 0
    while not game.is_over:
        start = time.perf_counter()
        for seat in [*range(players), None]:
            size += len(seat_view(game, seat, plays).model_dump_json())
        seconds += time.perf_counter() - start
        moves += 1
        legal = game.legal_plays()
        game.play(legal[rng.randrange(min(len(legal), 40))])
    return seconds, moves, size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--hands", type=int, default=20, help="random hands a table")
    args = parser.parse_args()
    for name, players in (("pagat", 4), ("mien-nam", 8)):
        total = moves = size = 0
        for seed in range(args.hands):
            s, m, b = one_hand(Rules.preset(name), players, seed)
            total, moves, size = total + s, moves + m, size + b
        print(f"{name}, {players} players: {total / moves * 1e3:.2f} ms for every seat's view "
              f"a move, {size / moves / (players + 1):,.0f} bytes a view")


if __name__ == "__main__":
    main()

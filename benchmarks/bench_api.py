"""The pure engine's speed through the public API, this checkout against another, in one run.

Four figures, each the best of a few runs in a fresh process (CPU time):

- random play through the public API: ``Game.deal``, ``legal_plays()`` and ``play()`` (checked),
  4-player pagat, until the first player goes out; microseconds a move;
- ``tienlen bench``'s loop (pure): random hands with ``push``; microseconds a decision;
- the pure heuristic playouts of the search bot's rollouts (``bots.rollout.playout``); per second;
- the AEC environment's steps a second (pure engine, random masked actions; needs the ``rl`` extra).

``--baseline DIR`` names the ``src`` folder of another checkout (a ``git worktree add`` of the
commit before a change): both are measured in turn, A B A B, and the ratios printed.

    git worktree add /tmp/before HEAD~3
    python benchmarks/bench_api.py --baseline /tmp/before/src
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent / "src"

# each figure's code, run in a fresh process with the checkout's src first on the path
PROBE = r'''
import json, random, sys, time
sys.path.insert(0, sys.argv[1])
from tienlen import Game, Rules
what, count = sys.argv[2], int(sys.argv[3])
rules = Rules.preset("pagat")
if what == "api":
    rng, moves, start = random.Random(1), 0, time.process_time()
    for h in range(count):
        game = Game.deal(rules, 4, seed=h)
        while not game.finish_order:
            game.play(rng.choice(game.legal_plays()))
            moves += 1
    print(json.dumps((time.process_time() - start) / moves * 1e6))
elif what == "bench":
    from tienlen.bench import play_random_hands
    decisions, seconds = play_random_hands(rules, 4, count, 1)
    print(json.dumps(seconds / decisions * 1e6))
elif what == "playouts":
    from tienlen.bots.rollout import playout
    games = [Game.deal(rules, 4, seed=h) for h in range(count)]
    start = time.process_time()
    for game in games:
        playout(game.copy())
    print(json.dumps(count / (time.process_time() - start)))
elif what == "aec":
    sys.path.insert(1, sys.argv[4])  # the benchmarks folder: bench_rl's loop, on this engine
    from bench_rl import env_steps
    print(json.dumps(env_steps(rules, 4, count, "pure")))
'''

FIGURES = (("api", 400, "random play, public API", "µs a move", False),
           ("bench", 400, "tienlen bench loop (pure)", "µs a decision", False),
           ("playouts", 600, "heuristic playouts (pure)", "playouts/s", True),
           ("aec", 150, "AEC env steps (pure)", "steps/s", True))


def measure(src: Path, what: str, count: int) -> float | None:
    done = subprocess.run([sys.executable, "-c", PROBE, str(src), what, str(count),
                           str(Path(__file__).resolve().parent)],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return None
    return float(json.loads(done.stdout.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--baseline", type=Path, default=None,
                        help="the src folder of another checkout, measured in turn with this one")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each, the best kept")
    args = parser.parse_args()
    sources = [("this", HERE)] + ([("baseline", args.baseline)] if args.baseline else [])
    for what, count, label, unit, higher_better in FIGURES:
        best: dict[str, float] = {}
        for _ in range(args.repeat):
            for name, src in sources:  # in turn: a drift in the machine's speed hits both
                value = measure(src, what, count)
                if value is not None:
                    best[name] = max(best.get(name, value), value) if higher_better \
                        else min(best.get(name, value), value)
        if "this" not in best:
            print(f"{label:28} not measured (an extra missing?)")
            continue
        line = f"{label:28} {best['this']:10,.2f} {unit}"
        if "baseline" in best:
            ratio = best["this"] / best["baseline"] if higher_better \
                else best["baseline"] / best["this"]
            line += f"   baseline {best['baseline']:10,.2f}   {ratio:.2f}x as fast"
        print(line)


if __name__ == "__main__":
    main()

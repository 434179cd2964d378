"""The bots' anchors (their fixed ratings) from the arena's measured results.

For each rating family the arena plays one of its presets at a 4-seat table of every bot
level (``random, greedy, heuristic, heuristic``: each deal once per rotation, duplicate
deals). The finish orders are fitted by maximum likelihood to the Plackett-Luce model
(Hunter's MM algorithm): level ``i`` has strength ``exp(theta_i)``, and a finish order's
probability is the product, place by place, of the strength of the seat that took the place
over the sum of the strengths of the seats still to place. openskill's Plackett-Luce model
uses the same likelihood with ``theta = mu / c``, where ``c = sqrt(sum of sigma^2 + beta^2)``
over the table's seats; at the measured table (4 anchors) that gives

    mu_i = MU + c * (theta_i - mean theta),   c = sqrt(4 * (sigma_a^2 + beta^2))

with ``MU`` openskill's default (25: a new player starts level with the bots' mean) and
``sigma_a`` the level's standard error (observed Fisher information) on the same scale.

The levels above ``heuristic`` that a family offers (``ladder.MEASURED``: ``learned`` in the
published family, ``search`` in every one) are slower, so each is measured at a table of its
own, one of it against three ``heuristic`` bots (``--strong-deals`` deals, each once per
rotation): its log-strength is fitted by maximum likelihood with the ``heuristic``'s held at
its measured value, and put on the same scale (the same ``c`` and mean), so the first table's
anchors stay as they were. They are measured as the web server plays them: ``search`` on the
pure path (``TIENLEN_PURE=1``; the web extra brings no numba), where it is weaker than on the
fast path (docs/bots.md: 29.4% against 39.4% of first places against three ``heuristic``
bots), so on a server with the ``fast`` extra its anchor is an underestimate.

    python scripts/ratings_anchors.py --deals 1000 --seed 1          # prints the anchors
    python scripts/ratings_anchors.py --deals 1000 --seed 1 --write  # and writes the data file
"""

from __future__ import annotations

import argparse
import math
import os
import pprint
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from tienlen.arena import Tournament, run_local
from tienlen.rules import Rules
from tienlen.web.ratings.ratings import BETA, FAMILIES, MEASURED_PRESET, MU
from tienlen.web.room.ladder import MEASURED as STRONGER

LEVELS = ("random", "greedy", "heuristic")
TABLE = ("random", "greedy", "heuristic", "heuristic")
DATA = Path(__file__).resolve().parent.parent / "src" / "tienlen" / "web" / "ratings" / "anchors.py"


def orders(preset: str, deals: int, seed: int, table: Sequence[str] = TABLE,
           workers: int = 1) -> list[list[str]]:
    """Every hand's finish order, as the levels that took the places (first first)."""
    tour = Tournament(Rules.preset(preset), len(table), list(table), deals, seed=seed)
    out = []
    for results in run_local(tour, workers):
        for hand in results:
            by_place = sorted(range(len(table)), key=lambda seat: hand.places[seat])
            out.append([hand.bots[seat] for seat in by_place])
    return out


def fit_one(hands: Sequence[Sequence[str]], level: str,
            known: dict[str, float]) -> tuple[float, float]:
    """``level``'s log-strength (and its standard error) by maximum likelihood (Newton), the
    other levels' held at ``known``."""
    counted = Counter(tuple(order) for order in hands)
    theta = 0.0
    for _ in range(100):
        score = info = 0.0
        for order, times in counted.items():
            for place in range(len(order) - 1):
                rest = order[place:]
                if level not in rest:
                    break
                strengths = [math.exp(theta if w == level else known[w]) for w in rest]
                p = sum(x for w, x in zip(rest, strengths, strict=True) if w == level) \
                    / sum(strengths)
                score += times * ((order[place] == level) - p)
                info += times * p * (1 - p)
        step = score / info
        theta += step
        if abs(step) < 1e-12:
            break
    return theta, 1 / math.sqrt(info)


def fit(hands: Sequence[Sequence[str]], rounds: int = 10_000) -> dict[str, float]:
    """Plackett-Luce log-strengths by maximum likelihood (MM), centred on their mean."""
    counted = Counter(tuple(order) for order in hands)
    gamma = dict.fromkeys(LEVELS, 1.0)
    wins = dict.fromkeys(LEVELS, 0)
    for order, times in counted.items():
        for who in order[:-1]:
            wins[who] += times
    for _ in range(rounds):
        denominator = dict.fromkeys(LEVELS, 0.0)
        for order, times in counted.items():
            for k in range(len(order) - 1):
                rest = order[k:]
                total = sum(gamma[w] for w in rest)
                for w in rest:
                    denominator[w] += times / total
        new = {w: wins[w] / denominator[w] for w in LEVELS}
        norm = math.exp(sum(math.log(g) for g in new.values()) / len(new))
        new = {w: g / norm for w, g in new.items()}
        done = max(abs(new[w] - gamma[w]) for w in LEVELS) < 1e-12
        gamma = new
        if done:
            break
    return {w: math.log(g) for w, g in gamma.items()}


def standard_errors(hands: Sequence[Sequence[str]], theta: dict[str, float]) -> dict[str, float]:
    """Each centred log-strength's standard error: the observed Fisher information (the sum,
    over every place taken, of diag(p) - p p^T with p the chances of the seats still to
    place), inverted on the centred subspace (pinv = (I + J/k)^-1 - J/k)."""
    k = len(LEVELS)
    index = {w: i for i, w in enumerate(LEVELS)}
    info = [[0.0] * k for _ in range(k)]
    for order, times in Counter(tuple(order) for order in hands).items():
        for place in range(len(order) - 1):
            rest = order[place:]
            total = sum(math.exp(theta[w]) for w in rest)
            p = [0.0] * k
            for w in rest:
                p[index[w]] += math.exp(theta[w]) / total
            for i in range(k):
                info[i][i] += times * p[i]
                for j in range(k):
                    info[i][j] -= times * p[i] * p[j]
    shifted = [[info[i][j] + 1.0 / k for j in range(k)] for i in range(k)]
    inverse = _inverse(shifted)
    return {w: math.sqrt(inverse[i][i] - 1.0 / k) for w, i in index.items()}


def _inverse(m: list[list[float]]) -> list[list[float]]:
    n = len(m)
    a = [row[:] + [float(i == j) for j in range(n)] for i, row in enumerate(m)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        lead = a[col][col]
        a[col] = [x / lead for x in a[col]]
        for r in range(n):
            if r != col:
                factor = a[r][col]
                a[r] = [x - factor * y for x, y in zip(a[r], a[col], strict=True)]
    return [row[n:] for row in a]


def scale(se: dict[str, float]) -> float:
    """``c`` of the module's text, at the first table."""
    sigma = dict.fromkeys(LEVELS, 0.0)
    c = 0.0
    for _ in range(50):  # c depends on the anchors' sigma, which depends on c: a fixed point
        c = math.sqrt(sum(sigma[w] ** 2 + BETA ** 2 for w in TABLE))
        sigma = {w: c * se[w] for w in LEVELS}
    return c


def anchors(theta: dict[str, float], se: dict[str, float]) -> dict[str, tuple[float, float]]:
    """(mu, sigma) per level on openskill's scale (the formula in the module's text)."""
    c = scale(se)
    mean = sum(theta[w] for w in LEVELS) / len(LEVELS)
    return {w: (round(MU + c * (theta[w] - mean), 3), round(c * se[w], 3)) for w in theta}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--strong-deals", type=int, default=100,
                        help="deals of each stronger level against three heuristic bots")
    parser.add_argument("--workers", type=int, default=1, help="processes playing the deals")
    parser.add_argument("--write", action="store_true", help=f"write {DATA.name}")
    args = parser.parse_args(argv)
    os.environ["TIENLEN_PURE"] = "1"  # search as the web server plays it (no fast extra)
    measured: dict[str, dict[str, object]] = {}
    for family in FAMILIES:
        preset = MEASURED_PRESET[family]
        start = time.perf_counter()
        hands = orders(preset, args.deals, args.seed, workers=args.workers)
        theta = fit(hands)
        se = standard_errors(hands, theta)
        firsts = {w: sum(o[0] == w for o in hands) / (len(hands) * TABLE.count(w)) for w in LEVELS}
        stronger: dict[str, dict[str, object]] = {}
        for level in STRONGER[family]:
            table = (level, "heuristic", "heuristic", "heuristic")
            played = orders(preset, args.strong_deals, args.seed, table, args.workers)
            theta[level], se[level] = fit_one(played, level, theta)
            firsts[level] = sum(o[0] == level for o in played) / len(played)
            stronger[level] = {"table": table, "deals": args.strong_deals, "hands": len(played)}
        levels = anchors(theta, se)
        measured[family] = {
            "preset": preset, "deals": args.deals, "seed": args.seed, "hands": len(hands),
            "anchors": levels, "first_rate": {w: round(r, 4) for w, r in firsts.items()},
            "stronger": stronger}
        print(f"{family} ({preset}, {len(hands)} hands, {time.perf_counter() - start:.0f} s): "
              + ", ".join(f"{w} mu {m:.2f} sigma {s:.2f} first {firsts[w]:.1%}"
                          for w, (m, s) in levels.items()), file=sys.stderr)
    pprint.pprint(measured, sort_dicts=False, width=100)
    if args.write:
        command = (f"python scripts/ratings_anchors.py --deals {args.deals} --seed {args.seed} "
                   f"--strong-deals {args.strong_deals} --write")
        DATA.write_text(
            '"""The bots\' anchors, measured by the arena (scripts/ratings_anchors.py says how),\n'
            f'written by\n``{command}``;\nnot edited by hand."""\n\n'
            "from typing import Any, Final\n\n"
            "TABLE: Final = " + repr(TABLE) + "\n"
            "MEASURED: Final[dict[str, dict[str, Any]]] = "
            + pprint.pformat(measured, sort_dicts=False, width=100) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

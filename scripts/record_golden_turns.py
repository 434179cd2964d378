"""Record the golden traces of today's decision loops (issue 20, point 1).

    PYTHONPATH=src python scripts/record_golden_turns.py          # write the data
    PYTHONPATH=src python scripts/record_golden_turns.py --dry    # print what it would write
    PYTHONPATH=src python scripts/record_golden_turns.py --diff   # what moved since the data

Every configuration of ``tests/golden_turns.py`` (each preset at 2, 3, 4, 5 and 8 players
where it allows that many, then the house rules only tests use: out-of-turn chops, free chops,
mutual trading, optional claims, the president exchange) is played from session seed 1, plus a
few more seeds found here for what seed 1 does not show (an out-of-turn chop made and one let
go, two seats asked out of turn in a row, a free chop made, an instant-win claim made and one
declined, a trade accepted, and seat 0 -- the terminal's human, the web table's player --
asked to claim, to answer a trade, to return cards, to chop out of turn): the first seeds from
2 on that show them (:func:`pick_seeds`). Each session is played through every loop
(:data:`golden_turns.LOOPS`) and written to ``tests/data/golden_turns/traces.jsonl.gz``, one
JSON line per session: its configuration, rules (TOML), players and seed, then per hand every
distinct decision once and each loop's trace as runs of indices into them
(:func:`golden_turns.encode`).
``tests/test_golden_turns.py`` replays them.

Run it again only on purpose: when a change means to alter what the loops ask (issue 20's
point 2 will, under ``chop_out_of_turn``), regenerate, and list in the change what moved
(the data is compressed: ``--diff`` prints, before regenerating, each recorded trace's first
difference from what the loops ask now).
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "src"))

import golden_turns as g  # noqa: E402
from tienlen import Session  # noqa: E402

SEARCH = 3000  # seeds tried (from 2 on) for each feature seed 1 does not show
CLAIM_SEARCH = 20_000  # deals tried for an instant-win claim (rare: a deal is enough to see it)

Feature = Callable[[list[g.Trace]], bool]


def _any(test: Callable[[g.Decision], bool]) -> Feature:
    return lambda traces: any(test(d) for t in traces for d in t)


def _in_a_row(traces: list[g.Trace]) -> bool:
    """Two seats that hold a chop asked out of turn one after the other (the queue of §6;
    every seat the rules let chop is asked, whatever it holds: these two hold one)."""
    return any(a[1] == b[1] == "chop" and a[0] != b[0] and a[3] == "pass"
               and len(a[2]) > 1 and len(b[2]) > 1
               for t in traces for a, b in itertools.pairwise(t))


def features(config: g.Config) -> dict[str, Feature]:
    """What the recorded sessions of a configuration should show between them."""
    rules = config.rules
    house = config.name.startswith("house:")
    out: dict[str, Feature] = {}
    if not house and config.players != 4:
        return out
    if rules.chop_out_of_turn and not rules.free_chops:
        out["chop made out of turn"] = _any(lambda d: d[1] == "chop" and d[3] != "pass")
        out["chop let go"] = _any(lambda d: d[1] == "chop" and d[3] == "pass" and len(d[2]) > 1)
        out["two asked out of turn in a row"] = _in_a_row
        out["seat 0 chops out of turn"] = _any(lambda d: d[1] == "chop" and d[0] == 0
                                               and d[3] != "pass")
        out["seat 0 lets a chop it holds go"] = _any(
            lambda d: d[1] == "chop" and d[0] == 0 and d[3] == "pass" and len(d[2]) > 1)
    if rules.free_chops:
        out["free chop made"] = _any(lambda d: d[1] == "free_chop" and d[3] != "pass")
        out["seat 0 lets a free chop it holds go"] = _any(
            lambda d: d[1] == "free_chop" and d[0] == 0 and d[3] == "pass" and len(d[2]) > 1)
    if rules.instant_win_optional and rules.instant_wins and rules.trading == "none" \
            and config.players <= 4:
        out["claim made"] = _any(lambda d: d[1] == "claim" and d[3].startswith("claim"))
        out["claim declined"] = _any(lambda d: d[1] == "claim" and d[3] == "decline")
        out["seat 0 asked to claim"] = _any(lambda d: d[1] == "claim" and d[0] == 0)
    if rules.trading == "mutual":
        out["trade accepted"] = _any(lambda d: d[3].startswith("accept"))
        out["seat 0 answers an offer"] = _any(lambda d: d[1] == "answer" and d[0] == 0)
    if rules.trading == "president":
        out["seat 0 returns cards"] = _any(lambda d: d[1] == "return" and d[0] == 0)
    return out


def pick_seeds(config: g.Config) -> tuple[list[int], list[str]]:
    """Seed 1, then for each feature not yet shown the first seed from 2 on that shows it
    (an extra seed may show several). Returns the seeds and the features never found."""
    wanted = features(config)
    seeds = [1]
    shown = [g.drive_arena(config, 1)]
    missing = [name for name, test in wanted.items() if not any(test(t) for t in shown)]
    claims = [name for name in missing if "claim" in name]  # these need a claim phase
    for name in list(missing):
        if name not in missing:
            continue  # shown by a seed picked for another feature
        candidates: Iterator[int]
        if name in claims:
            candidates = (s for s in range(2, CLAIM_SEARCH)
                          if Session(config.rules, config.players, s).game.phase == "claim")
        else:
            candidates = iter(range(2, SEARCH))
        for seed in candidates:
            traces = g.drive_arena(config, seed)
            if wanted[name](traces):
                seeds.append(seed)
                shown.append(traces)
                missing = [n for n in missing if not wanted[n](traces)]
                break
    return seeds, missing


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dry", action="store_true", help="print the summary, write nothing")
    parser.add_argument("--diff", action="store_true",
                        help="replay the recorded sessions and print where each loop's trace "
                             "now differs from the data; write nothing")
    args = parser.parse_args()
    if args.diff:
        changed = 0
        for r in g.load():
            for loop, traces in r.traces.items():
                if loop == "asking_fast" and not g.fast_supported(r.config):
                    continue
                diff = g.first_difference(traces, g.LOOPS[loop](r.config, r.seed))
                if diff is not None:
                    changed += 1
                    print(f"{r.id} {loop}: {diff}")
        print(f"{changed} traces differ")
        return
    lines = []
    start = time.perf_counter()
    for config in g.base_configs():
        seeds, missing = pick_seeds(config)
        for seed in seeds:
            runs = {loop: g.LOOPS[loop](config, seed) for loop in g.loops_for(config)}
            lines.append(g.encode(config, seed, runs))
            sizes = "+".join(str(len(t)) for t in runs["arena"])
            print(f"{config.name:58} seed {seed:5}: {sizes:>9} decisions, "
                  f"{len(runs)} loops", flush=True)
        for name in missing:
            print(f"{config.name:58} no seed shows: {name}")
    if not args.dry:
        g.save(lines)
        print(f"wrote {g.DATA.relative_to(ROOT)} ({g.DATA.stat().st_size:,} bytes, "
              f"{len(lines)} sessions) in {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()

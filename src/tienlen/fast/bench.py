"""The fast path's speed figures, beside the pure engine's (:mod:`tienlen.bench`)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

from ..bench import Timing
from ..game import hand_size, packs_for
from ..rules import Rules


@dataclass(frozen=True)
class FastBenchResult(Timing):
    python_generations: int
    python_seconds: float
    load_seconds: float

    @property
    def us_per_python_generation(self) -> float:
        return 1e6 * self.python_seconds / self.python_generations

    def report(self, pure_hands_per_second: float | None = None, lang: str = "en") -> str:
        """The figures in ``lang`` (the numbers written the reader's way)."""
        from ..bench import timing_rows
        from ..i18n import Num, label_rows, t

        ratio = (t("bench.fast.ratio", lang, x=Num(self.hands_per_second / pure_hands_per_second,
                                                   ",.0f"))
                 if pure_hands_per_second else "")
        rows = [*timing_rows(self, lang, ratio),
                (t("bench.generation", lang), t("bench.fast.generation", lang,
                                                us=Num(self.us_per_generation, ".2f"),
                                                calls=Num(self.generations))),
                ("", t("bench.fast.generation_python", lang,
                       us=Num(self.us_per_python_generation, ".1f"),
                       calls=Num(self.python_generations))),
                (t("bench.fast.startup", lang), t("bench.fast.startup.value", lang,
                                                  seconds=Num(self.load_seconds, ".2f")))]
        head = t("bench.fast.head", lang, preset=self.preset, players=self.players,
                 hands=Num(self.hands))
        return "\n".join([head, *label_rows(rows)])


def run(preset: str | Rules = "pagat", players: int = 4, hands: int = 20000,
        seed: int = 1) -> FastBenchResult:
    """Random hands with every legal play listed at every decision, in compiled code."""
    t0 = time.perf_counter()  # start-up: wall time (loading reads files)
    from . import load

    api = load()
    from . import policies
    from .encoding import fast_rules, state_of
    from .split import new_memo

    rules = preset if isinstance(preset, Rules) else Rules.preset(preset)
    fr = fast_rules(rules)
    size = hand_size(rules, players)
    packs = packs_for(players)
    policies.seed(seed)
    policies.play_hands(fr.cfg, fr.chops, players, size, packs, 2, policies.RANDOM, new_memo())
    load_seconds = time.perf_counter() - t0
    start = time.process_time()  # the rest: CPU time, steadier on a shared machine
    decisions = policies.play_hands(fr.cfg, fr.chops, players, size, packs, hands,
                                    policies.RANDOM, new_memo())
    seconds = time.process_time() - start
    states = policies.positions(fr.cfg, fr.chops, players, size, packs, max(hands // 20, 10))
    policies.generate_all(states[:10], fr.cfg, fr.chops)
    start = time.process_time()
    policies.generate_all(states, fr.cfg, fr.chops)
    gen_seconds = time.process_time() - start
    # from Python, as Play objects, on the positions of pure-engine games
    from ..game import Game

    py_calls = 0
    py_seconds = 0.0
    for h in range(max(hands // 200, 5)):
        game = Game.deal(rules, players, seed + h)
        while game.phase == "play":
            st = state_of(game)
            t = time.process_time()
            legal = api.legal_plays(st, fr)
            py_seconds += time.process_time() - t
            py_calls += 1
            game.push(legal[h % len(legal)])
    return FastBenchResult(rules.name, players, hands, seconds, decisions, len(states), gen_seconds,
                           py_calls, py_seconds, load_seconds)


def fast_report(preset: str | Rules = "pagat", players: int = 4, hands: int = 2000, seed: int = 1,
                pure_hands_per_second: float | None = None, lang: str = "en") -> str:
    """The fast path's figures (ten times the hands, at least 1,000), or why there are none."""
    from ..i18n import t
    from . import available, supports, turned_off

    if turned_off():
        return t("bench.fast.off", lang)
    if not available():
        return t("bench.fast.missing", lang)
    rules = preset if isinstance(preset, Rules) else Rules.preset(preset)
    if not supports(rules):
        return t("bench.fast.unsupported", lang, rules=rules.name)
    return run(rules, players, max(10 * hands, 1000), seed).report(pure_hands_per_second, lang)


def startup() -> tuple[tuple[float, float], tuple[float, float]]:
    """(wall, CPU) seconds from a fresh interpreter to a first fast playout: with an empty
    on-disk cache (everything compiled), then with the cache it left (loaded)."""
    import resource

    code = ("import time; t = time.perf_counter(); from tienlen.fast import bench; "
            "bench.run(hands=1); print(time.perf_counter() - t)")
    out = []
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        for _ in range(2):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            done = subprocess.run([sys.executable, "-c", code], env=env, check=True,
                                  capture_output=True, text=True)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
            out.append((float(done.stdout.split()[-1]), cpu))
    return out[0], out[1]

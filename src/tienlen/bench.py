"""The engine's speed figures: complete random hands per second with full legal-play enumeration."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from .game import Game
from .i18n import Num, label_rows, t
from .rules import Rules


@dataclass(frozen=True)
class Timing:
    """What both benchmarks time: random hands, and legal-play generation in play."""

    preset: str
    players: int
    hands: int
    seconds: float
    decisions: int
    generations: int
    generation_seconds: float

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds

    @property
    def us_per_generation(self) -> float:
        return 1e6 * self.generation_seconds / self.generations


@dataclass(frozen=True)
class BenchResult(Timing):
    cold_generations: int
    cold_seconds: float

    @property
    def us_per_cold_generation(self) -> float:
        return 1e6 * self.cold_seconds / self.cold_generations

    def report(self, lang: str = "en") -> str:
        """The figures in ``lang`` (the numbers written the reader's way)."""
        rows = [*timing_rows(self, lang),
                (t("bench.generation", lang), t("bench.generation.play", lang,
                                                us=Num(self.us_per_generation, ".1f"),
                                                calls=Num(self.generations))),
                ("", t("bench.generation.cold", lang, us=Num(self.us_per_cold_generation, ".1f"),
                       calls=Num(self.cold_generations)))]
        head = t("bench.head", lang, preset=self.preset, players=self.players)
        return "\n".join([head, *label_rows(rows)])


def timing_rows(timing: Timing, lang: str = "en", ratio: str = "") -> list[tuple[str, str]]:
    """The rows both reports begin with: the hands and their time, the decisions per hand."""
    return [(t("bench.hands", lang), t("bench.hands.value", lang, hands=Num(timing.hands),
                                       seconds=Num(timing.seconds, ".2f"),
                                       rate=Num(timing.hands_per_second, ",.0f")) + ratio),
            (t("bench.decisions", lang), t("bench.decisions.value", lang,
                                           n=Num(timing.decisions / timing.hands, ".1f")))]


def play_random_hands(rules: Rules, players: int, hands: int, seed: int) -> tuple[int, float]:
    """Play ``hands`` random hands; return (decisions, seconds)."""
    rng = random.Random(seed)
    choice = rng.choice
    decisions = 0
    start = time.process_time()
    for _ in range(hands):
        game = Game.deal(rules, players, rng.getrandbits(32))
        while game.state.turn is not None:
            game.push(choice(game.legal_plays()))
            decisions += 1
    return decisions, time.process_time() - start


def time_generation(rules: Rules, players: int, hands: int, seed: int,
                    cold: bool = False) -> tuple[int, float]:
    """Time legal-play generation alone over the positions of random hands
    (``cold``: with the seat's hand index and lead cache dropped before each call)."""
    rng = random.Random(seed)
    calls = 0
    total = 0.0
    clock = time.process_time
    for _ in range(hands):
        game = Game.deal(rules, players, rng.getrandbits(32))
        while game.state.turn is not None:
            seat = game.state.turn
            if cold:
                game.state.groups[seat] = None
                game.state.lead_cache[seat] = None
            t0 = clock()
            legal = game.legal_plays()
            total += clock() - t0
            calls += 1
            game.push(rng.choice(legal))
    return calls, total


def run(preset: str | Rules = "pagat", players: int = 4, hands: int = 2000,
        seed: int = 1) -> BenchResult:
    """Time ``hands`` random hands (at least 1) under a preset (a name) or any rules."""
    if hands < 1:
        raise ValueError("time at least one hand")
    rules = preset if isinstance(preset, Rules) else Rules.preset(preset)
    play_random_hands(rules, players, min(hands, 100), seed + 1)  # warm caches
    decisions, seconds = play_random_hands(rules, players, hands, seed)
    calls, gen_seconds = time_generation(rules, players, max(hands // 4, 1), seed + 2)
    cold_calls, cold_seconds = time_generation(rules, players, max(hands // 4, 1), seed + 2, True)
    return BenchResult(rules.name, players, hands, seconds, decisions, calls, gen_seconds,
                       cold_calls, cold_seconds)

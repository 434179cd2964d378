"""Tournaments that measure bots honestly: duplicate deals, confidence intervals, parallel back ends.

Every deal is played once for each rotation of the bots around the seats, so
each bot plays every hand from every seat. Each hand's seeds come from the
tournament seed and the deal number alone, so the results are the same
whatever the number of workers or the back end.
"""

from __future__ import annotations

import dataclasses
import math
import random
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, TextIO

from .bots import Bot, get_bot
from .bots.external import BotFailure, ExternalBot
from .bots.simple import RandomBot
from .errors import TienLenError
from .fast.play import play_hand as fast_play_hand
from .game import Game
from .rules import Rules
from .shapes import PASS

Z95 = 1.959963984540054


@dataclass(frozen=True)
class BotSpec:
    """A bot as named in a tournament: ``heuristic``, ``search:worlds=8``, ``cmd:python bot.py``."""

    text: str

    @property
    def label(self) -> str:
        return self.text

    def make(self, seed: int, time_limit: float) -> Bot:
        if self.text.startswith("cmd:"):
            return ExternalBot(self.text[4:], seed=seed, time_limit=time_limit)
        name, _, rest = self.text.partition(":")
        budget: dict[str, Any] = {}
        for part in filter(None, rest.split(":")):
            key, eq, raw = part.partition("=")
            if not eq:
                raise TienLenError(f"bot {self.text!r}: write options as key=value, such as "
                                   "search:worlds=8")
            budget[key] = _number(raw)
        try:
            return get_bot(name, seed=seed, **budget)
        except TienLenError:
            raise
        except (TypeError, ValueError) as exc:
            raise TienLenError(f"bot {self.text!r}: {exc}") from None


def _number(raw: str) -> int | float | str | None:
    """A bot option's value: none, a whole number, a number, or else the text itself."""
    if raw.lower() == "none":
        return None
    try:
        return int(raw)
    except ValueError:
        try:
            return float(raw)
        except ValueError:
            return raw


@dataclass(frozen=True)
class HandResult:
    """One hand of a deal at one rotation: for each seat, its bot, place and units."""

    deal: int
    rotation: int
    bots: tuple[str, ...]
    places: tuple[int, ...]
    units: tuple[int, ...]
    failures: tuple[str, ...] = ()


@dataclass(frozen=True)
class Tournament:
    rules: Rules
    players: int
    bots: tuple[str, ...]
    deals: int
    seed: int = 0
    time_limit: float = 5.0

    def __post_init__(self) -> None:
        if len(self.bots) != self.players:
            raise TienLenError(f"name one bot per seat: {self.players} players but "
                               f"{len(self.bots)} bots")
        if self.deals < 1:
            raise TienLenError("play at least one deal")
        for spec in self.bots:
            if not spec.startswith("cmd:"):
                BotSpec(spec).make(0, self.time_limit)  # fail early on a bad name

    def deal_seed(self, deal: int) -> int:
        return random.Random(f"tienlen:{self.seed}:{deal}").getrandbits(63)

    def play_deal(self, deal: int) -> list[HandResult]:
        """Every rotation of one deal."""
        return [self.play_hand(deal, rotation) for rotation in range(self.players)]

    def play_hand(self, deal: int, rotation: int) -> HandResult:
        n = self.players
        seat_bots = tuple(self.bots[(seat - rotation) % n] for seat in range(n))
        seed = self.deal_seed(deal)
        bots = [BotSpec(spec).make(seed + 7919 * seat, self.time_limit)
                for seat, spec in enumerate(seat_bots)]
        try:
            game = Game.deal(self.rules, n, seed)
            done = fast_play_hand(game, seat_bots)  # None unless the fast path can play it
            failures = [] if done is not None else play_out(game, bots)
            game = done or game
        finally:
            for bot in bots:
                if isinstance(bot, ExternalBot):
                    bot.close()
        places = [0] * n
        for place, seat in enumerate(game.finish_order):
            places[seat] = place
        return HandResult(deal, rotation, seat_bots, tuple(places), tuple(game.scores),
                          tuple(failures))


def play_out(game: Game, bots: list[Bot], max_steps: int = 100_000) -> list[str]:
    """Play a hand to its end, asking each seat's bot every decision the rules give it,
    out-of-turn chops included. Returns the failures of external bots (each replaced by
    ``random`` for the rest of the hand)."""
    failures: list[str] = []
    bots = list(bots)
    for _ in range(max_steps):
        if game.is_over:
            return failures
        for seat in game.out_of_turn_seats():
            view = game.view(seat)
            view = dataclasses.replace(view, legal=(*view.legal, PASS))
            move = _ask(bots, seat, view, failures)
            if move != PASS:
                game.play(move, seat=seat)
                break
        else:
            turn = game.turn
            assert turn is not None
            game.play(_ask(bots, turn, game.view(turn), failures), seat=turn)
    raise TienLenError("the hand did not end")


def _ask(bots: list[Bot], seat: int, view: Any, failures: list[str]) -> Any:
    try:
        return bots[seat].choose(view)
    except BotFailure as exc:
        failures.append(f"seat {seat}: {exc}; random plays for it for the rest of the hand")
        bot = bots[seat]
        if isinstance(bot, ExternalBot):
            bot.close()
        bots[seat] = RandomBot(seed=seat)
        return bots[seat].choose(view)


# ---------------------------------------------------------------------- statistics
@dataclass
class BotStats:
    name: str
    hands: int = 0
    firsts: int = 0
    lasts: int = 0
    place_sum: float = 0.0
    units_sum: float = 0.0
    per_deal: dict[int, list[tuple[int, int, int, int]]] = field(default_factory=dict)

    def add(self, deal: int, place: int, players: int, units: int) -> None:
        first, last = int(place == 0), int(place == players - 1)
        self.hands += 1
        self.firsts += first
        self.lasts += last
        self.place_sum += place + 1
        self.units_sum += units
        self.per_deal.setdefault(deal, []).append((first, last, place + 1, units))

    def _ci(self, index: int) -> tuple[float, float, float]:
        """Mean and 95% interval of one measure, deals as independent clusters."""
        means = [sum(r[index] for r in rows) / len(rows) for rows in self.per_deal.values()]
        weights = [len(rows) for rows in self.per_deal.values()]
        total = sum(weights)
        mean = sum(m * w for m, w in zip(means, weights, strict=True)) / total
        k = len(means)
        if k < 2:
            return mean, mean, mean
        var = sum(w * w * (m - mean) ** 2 for m, w in zip(means, weights, strict=True))
        se = math.sqrt(var * k / (k - 1)) / total
        return mean, mean - Z95 * se, mean + Z95 * se

    def summary(self) -> dict[str, Any]:
        first, first_lo, first_hi = self._ci(0)
        last, last_lo, last_hi = self._ci(1)
        place, place_lo, place_hi = self._ci(2)
        units, units_lo, units_hi = self._ci(3)
        return {
            "name": self.name, "hands": self.hands,
            "first_rate": first, "first_ci": [max(0.0, first_lo), min(1.0, first_hi)],
            "last_rate": last, "last_ci": [max(0.0, last_lo), min(1.0, last_hi)],
            "mean_place": place, "place_ci": [place_lo, place_hi],
            "mean_units": units, "units_ci": [units_lo, units_hi],
        }


def summarize(results: Iterable[HandResult], players: int) -> list[dict[str, Any]]:
    stats: dict[str, BotStats] = {}
    for r in sorted(results, key=lambda r: (r.deal, r.rotation)):
        for seat, name in enumerate(r.bots):
            stats.setdefault(name, BotStats(name)).add(r.deal, r.places[seat], players,
                                                       r.units[seat])
    return [s.summary() for s in stats.values()]


# ---------------------------------------------------------------------- running
def _play_deal_task(args: tuple[Tournament, int]) -> list[HandResult]:
    tournament, deal = args
    return tournament.play_deal(deal)


def run_local(t: Tournament, workers: int = 1) -> Iterator[list[HandResult]]:
    """The deals' results as they finish, in local processes."""
    tasks = [(t, d) for d in range(t.deals)]
    if workers <= 1:
        for task in tasks:
            yield _play_deal_task(task)
        return
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(workers) as pool:
        yield from pool.imap_unordered(_play_deal_task, tasks)


def run_ray(t: Tournament, address: str | None = None,
            num_cpus: int | None = None) -> Iterator[list[HandResult]]:
    """The deals' results as they finish, on a Ray cluster (``pip install tienlen[ray]``).

    Without ``address`` it starts a local Ray for the tournament (with ``num_cpus`` CPUs,
    default all) and stops it at the end; an already started Ray is used as it is.
    """
    try:
        import ray  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        raise TienLenError("the ray back end needs Ray: pip install 'tienlen[ray]'") from None
    started = False
    if not ray.is_initialized():
        ray.init(address=address, ignore_reinit_error=True, log_to_driver=False,
                 include_dashboard=False, num_cpus=num_cpus if address is None else None)
        started = True
    try:
        remote = ray.remote(_play_deal_task)
        pending = [remote.remote((t, d)) for d in range(t.deals)]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield ray.get(done[0])
    finally:
        if started:
            ray.shutdown()


def run_tournament(t: Tournament, workers: int = 1, backend: str = "local",
                   address: str | None = None,
                   progress: Callable[[int, int], None] | None = None,
                   num_cpus: int | None = None) -> dict[str, Any]:
    """Play the whole tournament and return its results (the ``--json`` document).
    ``num_cpus``: the CPUs of a local Ray that the ray back end starts (default all)."""
    if backend == "local":
        batches = run_local(t, workers)
    elif backend == "ray":
        batches = run_ray(t, address, num_cpus)
    else:
        raise TienLenError(f"unknown back end {backend!r}: local or ray")
    results: list[HandResult] = []
    for done, batch in enumerate(batches, 1):
        results.extend(batch)
        if progress is not None:
            progress(done, t.deals)
    results.sort(key=lambda r: (r.deal, r.rotation))
    failures = [f"deal {r.deal}, rotation {r.rotation}: {f}" for r in results for f in r.failures]
    return {
        "rules": t.rules.name,
        "options": t.rules.differences(),
        "players": t.players,
        "seed": t.seed,
        "deals": t.deals,
        "hands": len(results),
        "bots": summarize(results, t.players),
        "failures": failures,
    }


def progress_bar(stream: TextIO | None = None, width: int = 30) -> Callable[[int, int], None]:
    """A progress line on ``stream`` (default: the standard error at the time it is shown)."""

    def show(done: int, total: int) -> None:
        out = stream if stream is not None else sys.stderr
        filled = width * done // total
        out.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} deals")
        if done == total:
            out.write("\n")
        out.flush()
    return show


def format_table(report: dict[str, Any]) -> str:
    lines = [f"{report['rules']}, {report['players']} players, {report['deals']} deals x "
             f"{report['players']} rotations = {report['hands']} hands",
             f"{'bot':24} {'hands':>6} {'first %':>17} {'last %':>17} {'place':>6} "
             f"{'units/hand':>22}"]
    for b in report["bots"]:
        lines.append(
            f"{b['name'][:24]:24} {b['hands']:6d} "
            f"{100 * b['first_rate']:5.1f} [{100 * b['first_ci'][0]:4.1f},{100 * b['first_ci'][1]:5.1f}] "
            f"{100 * b['last_rate']:5.1f} [{100 * b['last_ci'][0]:4.1f},{100 * b['last_ci'][1]:5.1f}] "
            f"{b['mean_place']:6.2f} "
            f"{b['mean_units']:+6.3f} [{b['units_ci'][0]:+.3f},{b['units_ci'][1]:+.3f}]")
    for f in report["failures"]:
        lines.append(f"failure: {f}")
    return "\n".join(lines)


def parse_bots(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(",") if part.strip())


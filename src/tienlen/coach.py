"""The coach's one judgement of a position, behind both the hint and the review.

:func:`appraise` plays every candidate move of a seat's decision (search's candidates, and any
move added: the move a player made) out to the end of the hand with the heuristic at every
seat, on the same sampled deals of the cards the seat has not seen (common random numbers),
and says what each is worth **under the rules' own scoring**: the expected units the hand pays
the seat (``judged_by == "units"``), or, where the rules pay nothing (``scoring = "none"``),
the chance of going out first. The chance of going out first is estimated beside the units
always, and shown where the rules reward it (:func:`rewards_first`).

The deals are drawn from a seed made of the position itself (:func:`position_seed`: the rules,
the seat, its cards and the public history), and their number follows one rule
(:func:`budget`: fewer deals early in the hand, when playouts are long; the compiled path
affords more): the hint (:func:`tienlen.hints.suggest`, the best estimate) and the review
(:mod:`tienlen.review`, the same appraisal with the move made added) of one position see the
same deals and the same figures, so the hint's move is the review's best move and is never
called a mistake there.

A move's **cost** is the mean, over the deals, of what the best move made more than it on the
same deal, with its 95% interval. Its **grade** (:data:`GRADES`): ``good`` when it is the best,
or when the interval of its cost reaches zero (the difference may be noise); otherwise by the
cost against :data:`THRESHOLDS` (in stakes: a table playing for 5 units a stake has five times
the thresholds), ``inaccuracy``, ``mistake`` or ``blunder``. docs/bots.md says how the
thresholds were chosen.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from .bots.fast_inference import FastHistory
from .bots.fast_inference import usable as fast_history_usable
from .bots.fast_rollout import FastRollouts, usable
from .bots.inference import History
from .bots.search import blind_deal, candidates_for, played_out, unsearched
from .errors import ArgumentError, error
from .i18n import msg

if TYPE_CHECKING:
    from .actions import Move
    from .rules import Rules
    from .view import View

GRADES: Final = ("good", "inaccuracy", "mistake", "blunder")
# the least cost of each grade above good: in units at a stake of 1 (judged by units), or in
# points of the chance of going out first (judged by first place); docs/bots.md says why
THRESHOLDS: Final = {"units": (0.1, 0.3, 0.8), "first": (0.03, 0.08, 0.2)}
# the budget rule (:func:`budget`): deals at the start of a 52-card hand, and the cap, by path
DEALS_COMPILED: Final = (300, 800)
DEALS_PURE: Final = (60, 160)
FULL_DECK: Final = 52
Z95: Final = 1.959964  # the normal quantile of a two-sided 95% interval


@dataclass(frozen=True)
class Estimate:
    """What one move is expected to bring, over ``deals`` sampled deals: the chance of going
    out first (``first``, 0 to 1) and the units won or paid (``units``), each with its 95%
    interval (``first_ci``: Wilson's score interval; ``units_ci``: the normal one)."""

    move: Move
    first: float
    first_ci: tuple[float, float]
    units: float
    units_ci: tuple[float, float]
    deals: int


@dataclass(frozen=True)
class Cost:
    """What a move gives up against the best one, on the same deals: the mean difference
    (0 for the best move itself) with its 95% interval, and its grade (:data:`GRADES`)."""

    mean: float
    ci: tuple[float, float]
    grade: str


@dataclass(frozen=True)
class Appraisal:
    """A position's candidates, each estimated on the same deals (:func:`appraise`)."""

    judged_by: str  # "units" or "first"
    stake: int
    estimates: tuple[Estimate, ...]  # search's candidates first, then the moves added
    values: tuple[tuple[float, ...], ...]  # each estimate's value on each deal
    best: Estimate  # the highest value; the earlier candidate on a tie

    @property
    def deals(self) -> int:
        return self.best.deals

    def of(self, move: Move) -> Estimate:
        """The estimate of ``move`` (one of the candidates or the moves added)."""
        return self.estimates[self._index(move)]

    def cost(self, move: Move) -> Cost:
        """What ``move`` gives up against the best move, and its grade."""
        best = self.values[self.estimates.index(self.best)]
        mine = self.values[self._index(move)]
        if move == self.best.move:
            return Cost(0.0, (0.0, 0.0), GRADES[0])
        mean, (low, high) = _mean_interval([b - m for b, m in zip(best, mine, strict=True)])
        grade = GRADES[0]
        if low > 0:  # the best is better beyond the noise: graded by how much
            scale = self.stake if self.judged_by == "units" else 1
            for name, least in zip(GRADES[1:], THRESHOLDS[self.judged_by], strict=True):
                if mean >= least * scale:
                    grade = name
        return Cost(mean, (low, high), grade)

    def _index(self, move: Move) -> int:
        for i, estimate in enumerate(self.estimates):
            if estimate.move == move:
                return i
        raise error(ArgumentError, "review.err.not_legal", move=str(move))


def appraise(view: View, moves: Sequence[Move] = (), *, fast: bool | None = None,
             deals: int | None = None) -> Appraisal:
    """Search's candidates at ``view``'s decision and ``moves`` (legal moves added to them),
    each played out on the same deals (see the module text). ``fast``: the compiled rollouts
    (None: wherever :func:`tienlen.fast.enabled` allows them; pure and compiled give the same
    figures on the same deals); ``deals``: that many deals rather than the budget rule's. A
    decision search does not evaluate (:func:`tienlen.bots.search.unsearched`) or a move that
    is not legal raises :class:`~tienlen.errors.ArgumentError`, in words."""
    why = unsearched(view)
    if why is not None:
        raise error(ArgumentError, "review.err.unsearched", why=msg(f"review.why.{why}"))
    moving = candidates_for(view)
    for move in moves:
        if move not in view.legal:
            raise error(ArgumentError, "review.err.not_legal", move=str(move))
        if move not in moving:
            moving.append(move)
    compiled = usable(view.rules, "units") and fast is not False
    count = deals if deals is not None else budget(view, compiled)
    rollouts = FastRollouts(view.rules, view.seat, view.players, moving, 0.0) \
        if compiled else None
    history = (FastHistory(view) if rollouts is not None and fast_history_usable(view)
               else History(view))
    rng = random.Random(position_seed(view))
    units: list[list[float]] = [[] for _ in moving]
    firsts: list[list[float]] = [[] for _ in moving]
    tries = 0
    while len(units[0]) < count and tries < count * 4:
        tries += 1
        deal = blind_deal(history, rng)
        if deal is None:
            continue  # a deal the history rules out: the next one
        if rollouts is not None:
            rollouts.play(deal, [0.0] * len(moving))
            for i, (place, won) in enumerate(zip(rollouts.places, rollouts.won, strict=True)):
                units[i].append(float(won))
                firsts[i].append(1.0 if int(place) == 0 else 0.0)
        else:
            for i, move in enumerate(moving):
                trial, _ = played_out(deal, move, view.seat)
                finish = trial.finish_order
                units[i].append(float(trial.scores[view.seat]))
                firsts[i].append(1.0 if finish and finish[0] == view.seat else 0.0)
    judged_by = "first" if view.rules.scoring == "none" else "units"
    values = firsts if judged_by == "first" else units
    estimates = tuple(_estimate(move, u, f) for move, u, f in zip(moving, units, firsts,
                                                                     strict=True))
    means = [sum(v) / len(v) if v else 0.0 for v in values]
    best = max(range(len(moving)), key=lambda i: (means[i], -i))
    return Appraisal(judged_by, view.rules.stake, estimates, tuple(tuple(v) for v in values),
                     estimates[best])


def budget(view: View, compiled: bool) -> int:
    """The deals an appraisal of ``view`` plays: the path's starting number for a full deck,
    more as the cards left (and so the playouts) shrink, up to the path's cap."""
    start, cap = DEALS_COMPILED if compiled else DEALS_PURE
    cards = len(view.hand) + sum(c for s, c in enumerate(view.counts) if s != view.seat)
    return min(cap, start * FULL_DECK // max(cards, 1))


def position_seed(view: View) -> int:
    """The seed of a position's deals: a digest of the rules, the seat, its cards and the
    public history (the same position, the same deals, in any process)."""
    text = "|".join((view.rules.name, repr(view.rules), str(view.seat), str(view.dealer),
                     " ".join(str(c) for c in view.hand), repr(view.history)))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


def rewards_first(rules: Rules) -> bool:
    """Whether the rules pay more for going out first than for the places after it (a winner
    paid by the cards left, the places' points, penalties paid to the winner): where the
    review shows the chance of going out first beside the units."""
    if rules.scoring == "none":
        return True
    if rules.scoring == "cards_left" or rules.penalty_two or rules.penalty_bomb \
            or rules.penalty_no_play:
        return True
    if rules.scoring == "places":
        points = rules.place_points
        return not points or len(points) < 2 or points[0] > points[1]
    return False


def _estimate(move: Move, units: Sequence[float], firsts: Sequence[float]) -> Estimate:
    n = len(units)
    if not n:
        return Estimate(move, 0.0, (0.0, 1.0), 0.0, (-math.inf, math.inf), 0)
    mean, units_ci = _mean_interval(units)
    p = sum(firsts) / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return Estimate(move, p, (max(0.0, centre - half), min(1.0, centre + half)), mean,
                    units_ci, n)


def _mean_interval(values: Sequence[float]) -> tuple[float, tuple[float, float]]:
    """The mean of ``values`` (one or more) and its normal 95% interval (unbounded from one)."""
    n = len(values)
    mean = sum(values) / n
    spread = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n) * Z95 \
        if n > 1 else math.inf
    return mean, (mean - spread, mean + spread)

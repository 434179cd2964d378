"""Search's rollouts on the compiled fast path (``tienlen[fast]``): the same heuristic at every
seat (``tienlen.fast.heuristic.heuristic_choice`` makes ``heuristic.decide``'s choices, and
answers free-chop offers as ``heuristic.out_of_turn_choice``), played out in compiled code and
valued by place or by the units the hand pays (``tienlen.fast.units.hand_units``). Used by
:class:`~tienlen.bots.search.SearchBot` when :func:`tienlen.fast.enabled` says so; the pure
rollouts stay for everything else."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from .. import fast

if TYPE_CHECKING:
    from ..actions import Move
    from ..game import Game
    from ..rules import Rules
    from .fast_inference import FastDeal
    from .inference import Deal

# the search bot's default budget on the fast path (3000 steps, 200 deals, no inference when pure)
FAST_STEPS = 60_000
FAST_WORLDS = 400
FAST_INFERENCE = 0.5
FAST_MARGIN = 0.01  # (0.05 when pure): with 400 deals a smaller lead is no longer noise


def usable(rules: Rules, objective: str) -> bool:
    """Whether search's rollouts can run on the fast path for these rules and objective."""
    return objective in ("first", "place", "units") and fast.enabled(rules)


class FastRollouts:
    """Every candidate played out on one sampled deal at a time, in compiled code."""

    def __init__(self, rules: Rules, seat: int, players: int, candidates: Sequence[Move],
                 weight: float, units: bool = False) -> None:
        import numpy as np

        fast.load()
        from ..fast import policies
        from ..fast.encoding import fast_rules, play_mask
        self._np = np
        self._policies = policies
        self.fr = fast_rules(rules)
        self.seat = seat
        self.players = players
        self.weight = weight
        self.units = units  # the objective: the units the hand pays the seat (Game.scores)
        self.moves = np.array([play_mask(m) for m in candidates], dtype=np.int64)  # type: ignore[arg-type]
        self.places = np.zeros(len(candidates), dtype=np.int64)
        self.won = np.zeros(len(candidates), dtype=np.int64)
        from ..fast.api import buffer
        from ..fast.split import shared_memo

        self.memo = shared_memo()  # the compiled heuristic's memo of hand splits, shared here

        self.buf = buffer()

    def play(self, deal: Deal | FastDeal, totals: list[float]) -> int:
        """Add each candidate's value on this deal to ``totals``; return the steps simulated."""
        from ..fast.encoding import state_of
        from .fast_inference import FastDeal

        np = self._np
        if isinstance(deal, FastDeal):
            st = deal.state
            total = self._policies.unplayed(st)
        else:
            game: Game = deal.game
            st = state_of(game)
            total = np.zeros(13, dtype=np.int64)
            for hand in game.state.hands:
                for k in hand:
                    total[k >> 2] += 1
        for k in deal.aside:
            total[k >> 2] += 1
        steps: int = self._policies.rollouts(
            st, self.fr.cfg, self.fr.chops, self.seat, self.moves, total,
            max(deal.aside, default=-1), self.memo, self.buf, self._policies.HEURISTIC,
            self.places, self.won)
        if self.units:
            for i, units in enumerate(self.won):
                totals[i] += float(units)
            return steps
        value = self.value
        for i, place in enumerate(self.places):
            totals[i] += value(int(place))
        return steps

    @property
    def value(self) -> Callable[[int], float]:
        weight = self.weight
        last = self.players - 1

        def by_place(place: int) -> float:
            if place < 0:
                return 0.0
            return (1.0 if place == 0 else 0.0) + weight * (1 - place / last)

        return by_place

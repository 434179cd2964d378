"""The two lowest rungs of the ladder: ``random`` and ``greedy``."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Final

from ..actions import Action, ActionKind, TradeOffers
from ..shapes import Play

if TYPE_CHECKING:
    from ..actions import Move
    from ..view import View


class RandomBot:
    """A uniformly random legal action."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: View) -> Move:
        return self._rng.choice(view.legal)


_GIVE_UP: Final[tuple[ActionKind, ...]] = ("decline", "refuse", "done")  # in this order


def phase_choice(view: View) -> Move:
    """Claims are taken, trades turned down, the lowest cards returned."""
    legal = view.legal
    if isinstance(legal, TradeOffers):
        return Action("done")  # no offers made
    for move in legal:
        if isinstance(move, Action) and move.kind == "claim":
            return move
    for kind in _GIVE_UP:
        for move in legal:
            if isinstance(move, Action) and move.kind == kind:
                return move
    returns = [m for m in legal if isinstance(m, Action) and m.kind == "return"]
    if returns:
        return min(returns, key=lambda m: sorted(c.code for c in m.cards))
    return legal[0]


class GreedyBot:
    """The cheapest beat, the lowest lead; passes only when it has nothing to play."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, view: View) -> Move:
        plays = [m for m in view.legal if isinstance(m, Play)]
        if not plays:
            return phase_choice(view)
        real = [p for p in plays if p.keys]
        if not real:
            return plays[0]
        table = view.table
        if table is None:  # lowest lead, shedding as many cards as that lowest card allows
            return min(real, key=lambda p: (p.keys[0], -len(p.keys), p.keys[-1]))
        same = [p for p in real if p.shape == table.shape]
        return min(same or real, key=lambda p: (p.keys[-1], len(p.keys)))

"""The end of a hand (§8): finish order when the first out ends it, and the scores.

The payments themselves (place points, penalties, chop payments) are in
:mod:`tienlen.payments`; a hand's scores are their sum per seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from .payments import bombs_in, net, penalty
from .seats import seats_from

if TYPE_CHECKING:
    from .hand import Hand

__all__ = ["bombs_in", "finish_order_first_out", "hand_scores", "penalty"]


def finish_order_first_out(winner: int, hands: Sequence[Sequence[int]], n: int) -> list[int]:
    """**Resolution**: when the first out ends the hand, the others place by cards left
    (fewest first), ties in turn order after the winner."""
    others = seats_from(winner, n)[1:]
    return [winner, *sorted(others, key=lambda s: (len(hands[s]), others.index(s)))]


def hand_scores(game: Hand) -> list[int]:
    """Units per seat for a finished hand (every payment of the hand); they sum to zero."""
    return net(game.payments, game.players)

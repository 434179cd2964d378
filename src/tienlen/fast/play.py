"""Whole hands between built-in bots on the fast path (the arena's fast lane).

``heuristic`` and ``greedy`` decide the same on the fast path as in pure Python (their
compiled versions break ties in the pure engine's order of plays; the differential tests
check the heuristic), so a hand where every seat is one of them can be played in compiled
code with the very same result: the compiled loop asks out of turn as the arena's turn API
does (§6 chops under ``chop_out_of_turn``, §11 free chops) and the bots answer there as they
do in pure Python. Anything else -- another bot, claims or trades still to make, rules the
fast path does not support, numba missing -- is left to the pure engine (:func:`play_hand`
returns None). Cards set aside (dealt to nobody) count as unseen
for the heuristic, under ``follow_suit`` by suit too, as in pure Python.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from . import enabled

if TYPE_CHECKING:
    from ..game import Game

FAST_BOTS = ("random", "greedy", "heuristic")  # the policies' order in tienlen.fast.policies
_SAME_CHOICES = frozenset(("greedy", "heuristic"))


def can_play(game: Game, bots: Sequence[str]) -> bool:
    return (all(b in _SAME_CHOICES for b in bots) and game.phase == "play"
            and enabled(game.rules))


def play_hand(game: Game, bots: Sequence[str]) -> Game | None:
    """The hand played to its end on the fast path by these bots (one name per seat), or
    None when it must be played by the pure engine."""
    if not can_play(game, bots):
        return None
    import numpy as np

    from . import load

    api = load()
    from ..game import packs_for
    from . import policies
    from .encoding import fast_rules, game_of, state_of
    from .split import shared_memo

    fr = fast_rules(game.rules)
    st = state_of(game)
    left = [0] * 52
    for _ in range(packs_for(game.players)):
        left = [c + 1 for c in left]
    for hand in game.state.hands:
        for k in hand:
            left[k] -= 1
    aside = [k for k in range(52) for _ in range(left[k])]  # dealt to nobody: unseen by all
    aside_keys = 0  # under follow_suit the heuristic counts them among the unseen of a suit
    for k in aside:
        aside_keys |= 1 << k
    total = policies.unplayed(st)
    for k in aside:
        total[k >> 2] += 1
    seats = np.array([FAST_BOTS.index(b) for b in bots] + [0] * (8 - len(bots)), dtype=np.int64)
    policies.playout_seats(st, fr.cfg, fr.chops, seats, total, max(aside, default=-1),
                           aside_keys, shared_memo(), api.buffer(), 100_000)
    return game_of(st, game)


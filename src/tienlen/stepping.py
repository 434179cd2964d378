"""A finished (or unfinished) hand stepped through from its deal, one decision at a time.

The one replay of a hand's history: the terminal's replay and the web's replay of a stored
hand both walk it. Each action is made once on one game (linear in the hand's length).

>>> from tienlen import Game, Rules
>>> game = Game.deal(Rules.preset("pagat"), 4, seed=1)
>>> game.play(game.legal_plays()[0])
>>> [len(state.history) for state in iter_states(game)]
[0, 1]
"""

from __future__ import annotations

from collections.abc import Iterator

from .actions import Action
from .cards import KEY_TEXT
from .game import Game


def iter_states(game: Game) -> Iterator[Game]:
    """``game``'s hand before its first decision, then after each one, as one game that each
    step changes (copy a state to keep it). Automatic actions made when the hand began, such
    as president gifts, are part of the first state."""
    order = game.rules.suit_order
    dealt = [" ".join(KEY_TEXT[order][k] for k in hand) for hand in game.dealt]
    exchange = [(seat, move.other, len(move.cards)) for seat, move in game.history
                if isinstance(move, Action) and move.kind == "give" and move.other is not None]
    lowest = game.view(0).lowest_start
    state = Game(game.rules, dealt, leader=None if lowest else game.leader, dealer=game.dealer,
                 first_hand=game.first_hand, names=game.names, exchange=exchange)
    yield state
    for seat, move in game.history[len(state.history):]:
        state.push(move, seat)
        yield state


def states(game: Game) -> list[Game]:
    """Every state of :func:`iter_states`, each its own copy."""
    return [state.copy() for state in iter_states(game)]

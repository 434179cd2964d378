"""Playing a sampled world to its end with the heuristic at every seat (search's rollouts)."""

from __future__ import annotations

from collections.abc import Sequence

from ..game import Game
from ..shapes import Play
from .heuristic import Situation, decide, out_of_turn_choice


def rollout_situation(game: Game, seat: int, total: list[int], aside_top: int = -1) -> Situation:
    """The heuristic's situation for ``seat`` inside a sampled world, as the seat would see
    it: ``total`` counts the cards of each rank that nobody has played (held by anyone or
    set aside), ``aside_top`` is the highest card set aside (-1 when none)."""
    hands = game._hands
    own = hands[seat]
    rest = list(total)
    for k in own:
        rest[k >> 2] -= 1
    top = aside_top
    others = []
    for s, h in enumerate(hands):
        if s != seat and h:
            others.append(len(h))
            if h[-1] > top:
                top = h[-1]
    unseen = None
    if game.rules.follow_suit:
        unseen = frozenset(k for s, h in enumerate(hands) if s != seat for k in h)
    return Situation(tuple(own), game.legal_plays(seat), game._table, tuple(others), tuple(rest),
                     top, game.rules, unseen, game._played_any[seat])


def playout(game: Game, aside: Sequence[int] = (), max_steps: int = 2000) -> int:
    """Play a sampled world to the end with the heuristic at every seat; return the steps.
    ``aside``: the keys of the cards set aside in that world, which every seat counts among
    the cards it has not seen."""
    total = unplayed(game, aside)
    aside_top = max(aside, default=-1)
    steps = 0
    free = bool(game.rules.free_chops)
    while game._turn is not None and steps < max_steps:
        seat = game._turn
        move = None
        if free and game._table is not None and game._mg.is_free_target(game._table):
            # a free chop can come at any moment (§11): each seat offered one decides first
            for other in game.out_of_turn_seats():
                move = out_of_turn_choice(game.legal_plays(other), game._table, game.rules)
                if move is not None:
                    seat = other
                    break
        if move is None:
            move = decide(rollout_situation(game, seat, total, aside_top))
        game.push(move, seat)
        if isinstance(move, Play):
            for k in move.keys:
                total[k >> 2] -= 1
        steps += 1
    return steps


def unplayed(game: Game, aside: Sequence[int] = ()) -> list[int]:
    """How many cards of each rank nobody has played: held by the seats, or set aside."""
    total = [0] * 13
    for hand in game._hands:
        for k in hand:
            total[k >> 2] += 1
    for k in aside:
        total[k >> 2] += 1
    return total

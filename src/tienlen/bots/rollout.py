"""Playing a sampled world to its end with the heuristic at every seat (search's rollouts)."""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import Move
from ..game import Game
from ..shapes import Play
from ..turns import Turns
from .heuristic import Situation, decide, out_of_turn_choice


def rollout_situation(game: Game, seat: int, total: list[int], aside_top: int = -1,
                      legal: Sequence[Move] | None = None) -> Situation:
    """The heuristic's situation for ``seat`` inside a sampled world, as the seat would see
    it: ``total`` counts the cards of each rank that nobody has played (held by anyone or
    set aside), ``aside_top`` is the highest card set aside (-1 when none); ``legal``: the
    seat's legal moves when already listed."""
    hands = game.state.hands
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
    return Situation(tuple(own), game.legal_plays(seat) if legal is None else legal,
                     game.state.table, tuple(others), tuple(rest),
                     top, game.rules, unseen, game.state.played_any[seat])


def playout(game: Game, aside: Sequence[int] = (), max_steps: int = 2000) -> int:
    """Play a sampled world to the end with the heuristic at every seat; return the steps.
    ``aside``: the keys of the cards set aside in that world, which every seat counts among
    the cards it has not seen."""
    total = unplayed(game, aside)
    aside_top = max(aside, default=-1)
    steps = 0
    turns = Turns(game)
    ask, answer, st = turns.next, turns.answer, game.state  # the hot loop: bound once
    while steps < max_steps:
        asked = ask()
        if asked is None or st.turn is None:
            break
        seat = asked.seat
        move: Move | None
        if asked.out_of_turn:  # a chop out of turn (§6) or a free chop (§11), or pass
            move = out_of_turn_choice(asked.moves[:-1], st.table, game.rules)
            if move is None:
                turns.decline(seat)
                continue
        else:
            move = decide(rollout_situation(game, seat, total, aside_top, asked.moves))
        answer(seat, move)
        if isinstance(move, Play):
            for k in move.keys:
                total[k >> 2] -= 1
        steps += 1
    return steps


def unplayed(game: Game, aside: Sequence[int] = ()) -> list[int]:
    """How many cards of each rank nobody has played: held by the seats, or set aside."""
    total = [0] * 13
    for hand in game.state.hands:
        for k in hand:
            total[k >> 2] += 1
    for k in aside:
        total[k >> 2] += 1
    return total

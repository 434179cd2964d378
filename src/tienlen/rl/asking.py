"""Who is asked next, and among which moves: the order of decisions of the AEC environment
(:mod:`tienlen.rl.aec`) and of the OpenSpiel game (:mod:`tienlen.rl.openspiel`).

After every play, each seat that may chop out of turn (§6) is asked in priority order (the
*queue*), with its chops and ``pass`` (decline); the first to chop plays and the asking starts
again; when all decline, the seat on turn is asked, with its legal moves -- a trade offer's
moment (§10) with ``done`` alone, its offers being lazy. Both functions take the engine's
calls as arguments, so that the environment can answer them on the fast path.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple

from ..actions import Action, Move
from ..game import Game
from ..shapes import PASS, Play


class Asked(NamedTuple):
    """The seat asked, its moves, and whether it is asked out of turn."""

    seat: int
    moves: list[Move]
    out_of_turn: bool


def ask(game: Game, queue: Sequence[int],
        legal_of: Callable[[int], Iterable[Move]] | None = None) -> Asked:
    """The decision asked next in a hand not over (``legal_of``: the seat's legal plays)."""
    legal = legal_of if legal_of is not None else game.legal_plays
    if queue:
        seat = queue[0]
        return Asked(seat, [*(m for m in legal(seat) if isinstance(m, Play)), PASS], True)
    seat = game.turn  # type: ignore[assignment]
    assert seat is not None
    trade = game.trade_decision(seat)
    offer = trade is not None and trade.kind == "offer"
    moves: list[Move] = [Action("done")] if offer else list(legal(seat))
    return Asked(seat, moves, False)


def answer(game: Game, queue: Sequence[int], seat: int, move: Move,
           push: Callable[[Move, int], object] | None = None,
           waiting: Callable[[], Iterable[int]] | None = None) -> list[int]:
    """Make ``move``, the asked ``seat``'s answer, and return the queue of seats to ask out of
    turn next (``push``: make a move; ``waiting``: the seats that may chop out of turn now)."""
    make = push if push is not None else game.push
    seats = waiting if waiting is not None else game.out_of_turn_seats
    if queue:
        if isinstance(move, Play) and move.keys:  # a chop out of turn: the asking starts again
            make(move, seat)
            return list(seats())
        return list(queue[1:])  # declined: the next seat of the queue
    make(move, seat)
    return list(seats()) if not game.is_over else []

"""The fast path from Python: legal plays, playing them, out-of-turn and free chops, positions of a
:class:`~tienlen.game.Game` (imported on first use: importing it compiles, or loads from the
on-disk cache, the compiled code)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from . import engine
from .encoding import Array, FastRules, Mask, fast_rules, state_of
from .layout import S_TSEAT, S_TURN
from .movegen import workspace
from .plays import mask_of, plays_of

if TYPE_CHECKING:
    from ..game import Game
    from ..rules import Rules
    from ..shapes import Play

_BUF: list[Array] = [np.zeros((1024, 3), dtype=np.int64)]
_WS = workspace()


def buffer() -> Array:
    """The shared play buffer (grown when a hand has more plays than it holds)."""
    return _BUF[0]


def _grow(n: int) -> Array:
    size = _BUF[0].shape[0]
    while size < n:
        size *= 2
    _BUF[0] = np.zeros((size, 3), dtype=np.int64)
    return _BUF[0]


def legal_masks(st: Array, fr: FastRules, seat: int | None = None) -> list[Mask]:
    """The legal plays of ``seat`` (default: the seat on turn) as (lo, hi, shape); for a seat
    not on turn its out-of-turn chops."""
    turn = int(st[S_TURN])
    if seat is None:
        seat = turn
    buf = _BUF[0]
    while True:
        if seat == turn:
            n = engine.legal_in_turn(st, fr.cfg, fr.chops, buf, _WS)
        else:
            n = engine.legal_out_of_turn(st, fr.cfg, fr.chops, seat, buf, _WS)
        if n <= buf.shape[0]:
            break
        buf = _grow(n)
    return list(map(tuple, buf[:n].tolist()))


def legal_plays(st: Array, fr: FastRules, seat: int | None = None) -> list[Play]:
    """:func:`legal_masks` as :class:`Play` objects."""
    return plays_of(legal_masks(st, fr, seat), fr.order)


def push(st: Array, fr: FastRules, play: Play | Mask, seat: int | None = None) -> None:
    """Make a legal play (a :class:`Play` or masks) for ``seat`` (default: on turn)."""
    if seat is None:
        seat = int(st[S_TURN])
    a, b, s = mask_of(play)
    engine.apply(st, fr.cfg, fr.chops, seat, a, b, s)


_SEATS = np.zeros(8, dtype=np.int64)


def out_of_turn_seats(st: Array, fr: FastRules) -> list[int]:
    """Seats offered a chop out of turn now (§6 out-of-turn chops, §11 free chops), in the
    order that gives them priority (``Game.out_of_turn_seats``)."""
    if st[S_TSEAT] < 0 or not fr.offers:
        return []
    m = engine.offer_seats(st, fr.cfg, fr.chops, _SEATS, _BUF[0], _WS)
    return [int(s) for s in _SEATS[:m]]


class FastGame:
    """A hand in play in the fast form, with the pure engine's play-phase reading methods.

    >>> from tienlen import Game, Rules
    >>> fg = FastGame.of(Game.deal(Rules.preset("pagat"), 4, seed=1))
    >>> fg.turn == Game.deal(Rules.preset("pagat"), 4, seed=1).turn
    True
    """

    __slots__ = ("fr", "st")

    def __init__(self, st: Array, rules: Rules | FastRules) -> None:
        self.st = st
        self.fr = rules if isinstance(rules, FastRules) else fast_rules(rules)

    @classmethod
    def of(cls, game: Game) -> FastGame:
        return cls(state_of(game), game.rules)

    @property
    def turn(self) -> int | None:
        t = int(self.st[S_TURN])
        return None if t < 0 else t

    def legal_plays(self, seat: int | None = None) -> list[Play]:
        return legal_plays(self.st, self.fr, seat)

    def push(self, play: Play | Mask, seat: int | None = None) -> None:
        push(self.st, self.fr, play, seat)

    def out_of_turn_seats(self) -> list[int]:
        return out_of_turn_seats(self.st, self.fr)

    def copy(self) -> FastGame:
        return FastGame(self.st.copy(), self.fr)

    def to_game(self, template: Game) -> Game:
        from .encoding import game_of

        return game_of(self.st, template)

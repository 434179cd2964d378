"""The fast path from Python: legal plays, playing them, out-of-turn and free chops, positions of a
:class:`~tienlen.game.Game` (imported on first use: importing it compiles, or loads from the
on-disk cache, the compiled code)."""

from __future__ import annotations

import threading
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

class _Scratch(threading.local):
    """What the compiled kernels write into: a play buffer (grown when a hand has more plays
    than it holds), the move generator's workspace and a list of seats. One set per thread:
    the kernels release the GIL, so two threads searching at once (a hint in the terminal's
    worker while a bot searches) would otherwise write into the same arrays."""

    def __init__(self) -> None:
        self.buf: Array = np.zeros((1024, 3), dtype=np.int64)
        self.ws: Array = workspace()
        self.seats: Array = np.zeros(8, dtype=np.int64)


_SCRATCH = _Scratch()


def buffer() -> Array:
    """This thread's play buffer."""
    return _SCRATCH.buf


def move_workspace() -> Array:
    """This thread's workspace for the move generator's kernels."""
    return _SCRATCH.ws


def _grow(n: int) -> Array:
    size = _SCRATCH.buf.shape[0]
    while size < n:
        size *= 2
    _SCRATCH.buf = np.zeros((size, 3), dtype=np.int64)
    return _SCRATCH.buf


def legal_masks(st: Array, fr: FastRules, seat: int | None = None) -> list[Mask]:
    """The legal plays of ``seat`` (default: the seat on turn) as (lo, hi, shape); for a seat
    not on turn its out-of-turn chops."""
    turn = int(st[S_TURN])
    if seat is None:
        seat = turn
    buf = _SCRATCH.buf
    ws = _SCRATCH.ws
    while True:
        if seat == turn:
            n = engine.legal_in_turn(st, fr.cfg, fr.chops, buf, ws)
        else:
            n = engine.legal_out_of_turn(st, fr.cfg, fr.chops, seat, buf, ws)
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


def out_of_turn_seats(st: Array, fr: FastRules) -> list[int]:
    """Seats offered a chop out of turn now (§6 out-of-turn chops, §11 free chops), in the
    order that gives them priority (``Game.out_of_turn_seats``)."""
    if st[S_TSEAT] < 0 or not fr.offers:
        return []
    m = engine.offer_seats(st, fr.cfg, fr.chops, _SCRATCH.seats, _SCRATCH.buf, _SCRATCH.ws)
    return [int(s) for s in _SCRATCH.seats[:m]]


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
